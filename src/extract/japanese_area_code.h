// Telephone area codes of Japanese places. A Japanese landline number is ten digits: the area code (0 and one to
// four digits) and the subscriber number. A shop's number carries the area code of the place its address names,
// so a number that OCR printed with a digit of its area code lost ("0-5770-8671" under a Shinjuku address) reads
// whole from the address.
#pragma once

#include <optional>
#include <string>

namespace receipt::extract {

// The area code of the place a Japanese receipt's text names ("東京都新宿区" -> "03", "京都市下京区" -> "075"), from
// a table of Tokyo's 23 wards and the large cities with two- or three-digit codes (the designated cities, most
// prefectural capitals); nullopt when the text names none of them, or places of two different codes.
std::optional<std::string> area_code_of(const std::string& text);

// `printed`, a number whose area code group lost one digit, with `area` (2 or 3 digits) in its place:
// ("0-5770-8671", "03") -> "03-5770-8671", ("03-917-3052", "043") -> "043-917-3052", ("(07)593-7218", "075") ->
// "(075)593-7218". Only when the rest is a whole subscriber number for that code (four and four digits after a
// two-digit code, three and four after a three-digit one) and the printed group is `area` with one digit left out;
// nullopt otherwise.
std::optional<std::string> with_area_code_restored(const std::string& printed, const std::string& area);

}  // namespace receipt::extract
