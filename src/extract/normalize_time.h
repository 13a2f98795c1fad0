// Printed receipt times -> "HH:MM" (24-hour). Pure function; thread-safe; never throws.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace receipt::extract {

// Finds the first time in `text` and returns it as "HH:MM": "14:05", "14:05:33", "9:05", "2:05 PM", "午後2:05",
// "14時05分", "12:30 AM" (-> "00:30"). Seconds are dropped. Returns nullopt when no time is found or it is out
// of range (25:10, 14:75, 13:00 PM).
std::optional<std::string> normalize_time(std::string_view text);

// Every time printed in a receipt text as "HH:MM", first printed first, without repeats: each line on its own,
// as printed and with OCR look-alikes next to digits read as digits (extract/ocr_digits.h); a time as printed
// whose hour follows a look-alike ("I0:07:42") is only read whole (10:07, not 00:07); a semicolon between two
// digits is read as the colon OCR took it for ("13;17:15" is 13:17); four digits that make a time after a date
// line's weekday ("火曜日 0902") or its date alone ("21/12/27 2231") or alone on the line after a date line ("1104")
// are a time that lost its colon,
// read after the others, and so is a time with seconds that lost its first or second colon, alone on a line or
// after a date ("0809:24" and "16/03/2018 1058:47" are 08:09 and 10:58, "736:42 AM" is 07:36, "18:0324" is
// 18:03), and so is a 12-hour one alone on a line ("1138AM" is 11:38); an hour of one or two look-alikes before a
// colon is read as digits ("lS:17:15" is 15:17); a line that is only AM or PM belongs to the time on the line
// before it ("5:40:14" / "PM" is 17:40). Never throws.
std::vector<std::string> printed_times(std::string_view text);

}  // namespace receipt::extract
