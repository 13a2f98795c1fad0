// The store name and phone number of a receipt printed in Latin script (US, UK and Malaysian receipts) as printed.
// On chains the model never saw, it takes the wrong header line for the name: the line below the name joined on
// ("WAITROSE 186 Market Street" for "WAITROSE" / "186 Market Street"), a document title ("TAX INVOICE",
// "RECEIPT") or a piece of the address ("WA 9811", "Roa Austin, TX 78701"); and it garbles the digits of phone
// numbers that the receipt prints whole after a label ("0161 9112 9112" for "PHONE: 0161 907 9112").
#pragma once

#include <cstddef>
#include <optional>
#include <string>

namespace receipt::extract {

// The printed header line that `name` runs on from: `name` (spaces aside) is one of the first lines of `text`
// followed by the start of the next lines, and that start is (within one edit) a piece of `address`. nullopt
// when `name` is no such run-on. Latin-script names only.
std::optional<std::string> name_without_address_run_on(const std::string& text, const std::string& name,
                                                        const std::string& address);

// `name` without the header lines it took across that are a house number alone or a street line, when `name`
// (spaces aside) is two or more consecutive header lines of `text` joined: OCR put the house number's box before
// the name ("141" / "WAITROSE" / "Station Road" written "WAITROSE Station Road", "2004 High Street" / "TARET",
// "700" / "SAFEWAY"). nullopt when `name` is no such lines, takes no such line, or keeps none with a letter.
// Latin-script names only.
std::optional<std::string> name_without_street_lines(const std::string& text, const std::string& name);

// Whether `c` (upper case, spaces removed) is a document title or within one edit of one ("TAXINOICE", "RECEIPT").
bool damaged_title(const std::string& c);

// Whether `s` is a phone number without its label: at least 7 digits and at most 2 letters ("0161 40S 9360").
bool phone_like(const std::string& s);

// Whether a Latin-script `name` names no shop: a document title, phone or registration line ("TAX INVOICE",
// "TAXINOICE", "RECEIPT", "TEL:", "DATE:"), a phone number without its label (7+ digits, at most 2 letters:
// "0161 40S9360"), a house number that starts an address ("NO.43 JALAN"), a street line
// ("5450 Market St", "78 HIGH STREET") or a piece of `address`
// within one edit in eight characters ("London SWlA" of "London SW1A 1AA"; at least 4 characters) other than its
// start (an address that starts with the name ran on from the name line).
bool name_names_no_shop(const std::string& name, const std::string& address);

// The first of the first header lines of `text` that can name a shop and is not a line of `address` (within one
// edit): a letter, not a document title, phone, tax or registration line. nullopt when none.
std::optional<std::string> header_name_line_outside(const std::string& text, const std::string& address);

// The phone number printed after a phone label (TEL, PHONE, T:, or TL as OCR leaves TEL) in the header of a
// Latin-script receipt, with digit look-alikes read as digits ("0Z0 7994 7645" -> "020 7994 7645") and a lost
// opening bracket put back ("512) 555-9385"), when the receipt prints exactly one such number of 9 to 12 digits and
// `model_phone` (empty for none) is not printed (its digits are no digit run of a header line); with no labelled
// number, the one header line that is a number alone ("0Z0 7994 7645", "(512) 555-9385", "03-6616 3115": 10 or 11
// digits in groups); nullopt otherwise.
std::optional<std::string> latin_labelled_phone_for(const std::string& text, const std::string& model_phone);

// How many digits a phone number of the receipt's country has, where its currency and its first digits tell
// (the first number of "03-9201 6281/6920"): 11 for a UK number from 01, 02 or 07 (GBP); 10 for a US number,
// after a leading 1 (USD); 10 for a Kuala Lumpur number from 03 (MYR). 0 where they do not tell (other Malaysian
// area codes have 9 or 10 digits, mobile numbers 10 or 11).
size_t latin_phone_digits_expected(const std::string& phone, const std::string& currency);

}  // namespace receipt::extract
