// Whether a receipt prints a date or a time at all. A model trained from scratch writes a date and a time for
// every receipt, so for a text that prints none (an OCR result that lost the date line, a receipt photographed
// without its header, a text that is no receipt) it makes them up: with the date and time lines taken out of the
// 300 receipts of a development set, it wrote a date for 272 and a time for 268 of them, each another receipt's.
// The date checks (extract/date_checks.h) then report none. The tests are loose on purpose: anything a damaged
// date or time could be read from counts as printed, so that the model's reading of OCR damage stands.
#pragma once

#include <string_view>

namespace receipt::extract {

// Whether some line of `text` (as printed, or with OCR look-alikes next to digits read as digits) holds a date, or
// what is left of one: a date printed_dates reads; two date separators (/ . - ー) between digit groups, the first
// non-empty (or, with slashes or dashes, the last two digits: "OZ-01-21") and the middle one of at most two digits
// ("24//12", "23/0/12", "27-D1-16", "20-04ー19"), a slash between digits at a line's start ("15/0524", "18/20",
// "2007/Z5"; "JALAN SS 2/24" is a street), or a day, a comma and a year's first digits ("Sp 4, 201"),
// except house numbers (on a Japanese address line, or right after a letter of another script: "経堂3-19-20"); 年,
// 月 or 日 next to a digit, or an era name (令和, 平成, 昭和); a weekday in brackets or 曜日; an English month name or
// abbreviation (any case, as a word) next to a digit ("12 DEC"); on a receipt without CJK, a year 2000-2039 standing
// alone ("SE Z023"; not an amount's digits nor a masked card number's last four). Never throws.
bool prints_date_like(std::string_view text);

// Whether some line of `text` (as above) holds a time or what is left of one: a colon or semicolon between digits
// ("12:54", "11;20"), a colon chain that lost its hour (":39:56"), 時 or 分 next to a digit, 午前 / 午後, AM / PM
// right after a digit ("1138AM"), a time label before a digit (TIME, JAM, WAKTU, 時刻: "TIME 18.53"; "TIME:" alone,
// its value lost, is none; on the line before one that starts with a digit: "TIME" / "12 31 00"), or three or four
// digits alone on the line after a date line ("1g46"). Never throws.
bool prints_time_like(std::string_view text);

}  // namespace receipt::extract
