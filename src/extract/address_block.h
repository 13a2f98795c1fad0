// The address block of a receipt that prints a 5-digit postal code near its top (Malaysia, the United States):
// the postcode line and the lines just above it, up to the store name or the company and registration lines
//   VIVOPAC MARKETING SDN BHD (1070687-M)
//   14 JALAN MANIS 4 TAMAN SEGAR 56100 KL         <- address
//   TEL: 03-91334364
// Used when the model wrote an address that is not printed: a small model writes the memorised address of
// another shop of the chain, and the printed block is the shop's own.
#pragma once

#include <optional>
#include <string>

namespace receipt::extract {

// Lines from the top in which the postcode line is looked for; most lines of the block above it.
inline constexpr int kAddressSearchLines = 12;
inline constexpr int kAddressBlockLines = 4;

// The block, its lines joined by one space; nullopt when no line among the first kAddressSearchLines (below the
// first, above the first date or time) holds a standalone 5-digit number outside a phone, tax or registration
// line. The block
// starts below the first line, below a line holding `name` (spaces aside), below a company (SDN BHD) or
// registration / phone / tax / document-title line, ends with the postcode line or the Malaysian state lines
// right below it ("SELANGOR DARUL EHSAN."), and spans at most kAddressBlockLines lines.
std::optional<std::string> address_block(const std::string& text, const std::string& name);

// The address printed in the header when no postcode line marks it: the lines below the store name and the
// company and registration lines, up to the first phone, tax, registration, date or document-title line, at most
// kAddressBlockLines of them, holding a digit:
//   CARREFOUR RESTAURANT / JM0725755-U / 18,JALAN PERMAS 10/7 / BANDAR BARU PERMAS JAYA, / MASAI,JOHOR / GST ID ...
// The block starts below the last company (SDN BHD) or registration line above the first line with a digit (not a
// registration number); without one, at that line, or the line above it when that one holds an address word
// (JALAN, LOT, LEVEL, ...). nullopt when there is no such block below the first line.
std::optional<std::string> header_address_block(const std::string& text);

// `addr` with the lines printed right below it that end a Malaysian address: when `addr` is printed (spaces aside,
// any case) as whole consecutive lines among the first kAddressSearchLines, and the next line names a state
// ("PAHANG"), or the next line has no digits and the one after it names a state ("CAMERON HIGHLANDS," / "PAHANG"),
// those lines are added, to at most kAddressBlockLines lines in all (a state line right below the postcode line
// whatever the length); then a branch-code line ("1320-TMN BATU").
// nullopt when nothing is added. (SROIE training labels never stop above such a state line, and include the
// branch-code line on 24 of 26 receipts that print one.)
std::optional<std::string> address_with_lines_below(const std::string& text, const std::string& addr);

// `addr` with the house-number line printed right above it ("NO. 1 JALAN EURO 1", "NO.19 & 21", "LOT 5, ..."):
// when `addr` is printed as whole consecutive lines among the first kAddressSearchLines, does not start with a
// house number itself, and the line above starts with NO / LOT / UNIT and a digit. nullopt when nothing is added.
std::optional<std::string> address_with_house_number_above(const std::string& text, const std::string& addr);

// `addr` with the US / UK street line printed above it ("7051 Market St" above "San Jose, CA 95113"): when `addr` is
// printed as whole consecutive lines among the first kAddressSearchLines and does not start with a digit, and the
// line above it, or the one above the store name `name` right above it (OCR moves boxes), is a house number, a
// street and a street word (ST, STREET, AVE, ROAD, LANE, ...). nullopt when nothing is added.
std::optional<std::string> address_with_street_line_above(const std::string& text, const std::string& addr,
                                                          const std::string& name);

// `addr` with the US / UK street line first where OCR read it below the city line or between the pieces of that
// line ("Austin, TX 78701" / "393 Market St" -> "393 Market St Austin, TX 78701"; "Denver," / "857 Market St" /
// "CO 80202" -> "857 Market St Denver, CO 80202"): when `addr` is printed as whole consecutive lines among the
// first kAddressSearchLines and does not start with a digit, and exactly one of its lines after the first, or the
// line printed right below it, is a house number, a street and a street word. nullopt when nothing moves.
std::optional<std::string> address_with_street_line_first(const std::string& text, const std::string& addr);

// `addr` with the piece of its US / UK street line that OCR printed above it ("Station Road" / "213" / "Bristol BS1
// 5TR" -> "213 Station Road Bristol BS1 5TR", "Street" / "237 Hig" / ... -> "237 Hig Street ..."): when `addr` is
// printed as whole consecutive lines among the first kAddressSearchLines, its first line starts with a digit and is
// no street line, the line above it has no digit, and the two, number first, make a street line. nullopt otherwise.
std::optional<std::string> address_with_street_piece_above(const std::string& text, const std::string& addr);

// `addr` without the store name printed as its first whole line(s): "BHPETROL SUBANG AIRPORT JALAN LAPANGAN ..." for
// the name "BHPETROL SUBANG AIRPORT" printed on its own line above the address. A name that is only the start of
// a line ("DOMINO'S PIZZA" of "DOMINO'S PIZZA TAMAN UNIVERSITI", a branch line) is kept. nullopt when nothing
// is removed.
std::optional<std::string> address_without_name_lines(const std::string& text, const std::string& addr,
                                                      const std::string& name);

// `addr` without a registration-number line printed as its first line ("(JM0517726)" above "NO 122.124 JALAN ...");
// nullopt when it has none.
std::optional<std::string> address_without_registration_line(const std::string& text, const std::string& addr);

// A Latin-script `addr` printed as whole lines among the first kAddressSearchLines, without the lines in it that are
// no part of an address: a phone number alone ("0141 278 9614"), a document title OCR damaged ("TAX INVOIC"), a
// registration number ("(245b19-W)"), and the trailing lines without a letter that are no postcode (the pieces of a
// phone number: "07-8917" / "2984"). The rest of `addr` keeps its spacing. nullopt when there is none such or
// nothing would be left.
std::optional<std::string> address_without_stray_lines(const std::string& text, const std::string& addr);

}  // namespace receipt::extract
