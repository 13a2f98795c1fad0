// The phone number of a Japanese receipt as printed. The model sometimes writes a number that the receipt does not
// print: a digit run of the postal code mixed in ("03-170" beside "〒170-6617" and "電話03-7114-3764"), a group
// repeated ("092-200-2-0476"), or a number cut short. Japanese receipts print the shop's number after a label
// (TEL, Tel., 電話, ☎) on its line or alone on the next one (OCR may move its box above the label).
#pragma once

#include <cstddef>
#include <optional>
#include <string>

namespace receipt::extract {

// The phone numbers printed after a phone label: "(072)802-8096", "03-7114-3764", "0120-123-456" (a leading 0, then
// groups joined by '-' or an area code in brackets; 10 digits, or 11 for 090 / 080 / 070 / 050), as printed; a number
// that OCR cut short (9 digits) is not one. Two OCR slips are read through: a leading 0 dropped ("48-447-5774" ->
// "048-447-5774", "(3)3557-0419" -> "(03)3557-0419") and the last hyphen dropped ("03-17646052" -> "03-1764-6052",
// "(052)2349090" -> "(052)234-9090"; also a bracket lost: "093)269-5669", "(042879-7752"); lines are read with a
// long-vowel mark or dash between digits as a hyphen ("075ー301-9524") and digit look-alikes next to digits as digits
// ("078-293-21B3"). With no label read (OCR damaged it: "TE:06-..."), a whole number printed as such in the header (the
// first lines, up to the first date or yen amount line) counts instead. Returns the one such number when the receipt
// prints exactly one and `model_phone` (the model's value, empty for none) is not printed verbatim, is that number cut
// short ("090-1234") or is its damaged print read through above; nullopt otherwise (the model's value stands).
std::optional<std::string> labelled_phone_for(const std::string& text, const std::string& model_phone);

// Whether `model_phone` (the model's value) is not printed and is a number that the receipt prints after a phone
// label (or in a header line, above the first date or amount line: OCR damages labels too) with one digit lost,
// that digit put back: nine digits from a leading 0 ("043-30-8626", the model's 043-305-8626). The model chose the
// lost digit by guessing (the development sets: 4 such numbers, none right).
bool phone_with_guessed_digit(const std::string& text, const std::string& model_phone);

// The ASCII digits of `phone`.
size_t phone_digits(const std::string& phone);
// Whether `phone` has as many digits as a Japanese number: 10 (landlines, 0120, 0570), or 11 for mobile (090,
// 080, 070), 050 and 0800 numbers; in at most three groups. One with fewer digits was cut short by OCR; one with
// more ran on; one of four groups took a run of another number ("072-879-9-2021", 11 digits).
bool japanese_phone_length_ok(const std::string& phone);

}  // namespace receipt::extract
