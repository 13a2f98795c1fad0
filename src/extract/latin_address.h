// The house number of an address printed in Latin script (US, UK and Malaysian receipts) as printed. A model
// trained from scratch copies the street and town of an address it has not seen, but garbles the digits of its house
// number: it swaps two ("NO.138" -> "NO.183", "529 Station Road" -> "259 Station Road") or drops one.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace receipt::extract {

// `address` with its leading house number ("529", "NO.138", "LOT 12A") as the receipt prints it before the same
// street words, when the model's number is not printed there: the header lines (digit look-alikes next to digits
// read as digits: "8B86 Station Road") hold exactly one number followed (on its line or the next) by the first
// six letters and digits of what follows the model's number ("STATIO", "JALANS"; within one edit where OCR damaged
// the street: "JAAN ANGSA", "Maket St"), and it differs from the model's.
// nullopt otherwise (no house number, the model's number printed, no such number or more than one).
std::optional<std::string> house_number_as_printed(const std::string& text, const std::string& address);

// The words of `s`: its runs of characters between spaces, tabs, line breaks and commas ("NO.75, JALAN" -> "NO.75",
// "JALAN").
std::vector<std::string> address_words(const std::string& s);

// Whether a Latin-script `address` that the receipt does not print as it is reads the print through OCR damage: the
// text is in Latin script, every digit run of the address is a digit run of `text` (no digit invented), every word
// of it (address_words) is a word of `text` or one letter away from one (a letter OCR dropped, added or changed:
// "UNIVERSITI" for the printed "UNIVRSITI", "Bristol" for "Bistol"; not a digit), and at most two are not printed as
// they are. A model that knows the street and town writes them whole where OCR damaged them, or in the order of the
// paper where OCR put a line out of order.
bool address_reads_print(const std::string& text, const std::string& address);

// A Latin-script `address` with the OCR damage of its numbers read: "N0" before a house number is "NO" ("N0.16");
// a five-character postcode with one letter look-alike among four digits (D O o -> 0, I l -> 1, Z z -> 2, S s -> 5,
// b -> 6, B -> 8, g -> 9) before a town word of 3+ capitals, no street word ("811D0 JOHOR BAHRU"; not "1851B JALAN") or at the end after a US state
// code ("WA g8101") is its digits; a UK postcode at the end whose space OCR lost is spaced ("M11AE" -> "M1 1AE",
// "LS14DY" -> "LS1 4DY"). nullopt when none applies or the address holds kana or kanji.
std::optional<std::string> address_numbers_read(const std::string& address);

}  // namespace receipt::extract
