// Dates and times that OCR printed with a digit lost in a way that nothing on the receipt can restore. A Japanese
// receipt pads its months, days and minutes to two digits or none ("2024/04/15", "令和6年4月15日", "14:05",
// "14時05分"); a date or time whose parts break that rule lost a digit: "24/04/1" (the day), "23/0/12" and
// "令和2年月31日" (the month), "15:4" and "14時7分" (the minute). The model reading such a print puts a digit
// back by guessing (on the development sets 1 guessed minute in 19 was right); the post-checks report no value
// there instead, unless a printed weekday confirms the date (extract/date_checks.h).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace receipt::extract {

// A time printed with a digit lost: its minute cut to one digit ("15:4", "06:2", "21:0:25" with its seconds,
// "14時7分"), or a colon time's hour cut to one ("2:59:11", "1:43"; Japanese POS receipts print a colon time
// zero-padded, and a one-digit hour could be 02, 12 or 20-23). Not a piece of a longer number or colon chain
// ("12:05:3" is a time whose seconds were cut, "15:2404" a time run into other digits); not an hour after an
// OCR look-alike ("I0:07", "S7:42": the look-alike is the lost digit, read by printed_times); not a 12-hour
// clock's hour (午後2:05, 2:05 PM), which is printed unpadded; an hour of 0-23 when it is digits. Returns the first
// such time as printed (full-width folded, look-alikes next to digits read), nullopt when there is none. Never
// throws.
// With `padded_hours` false (receipts in Latin script, which print hours unpadded: "7:39"), a one-digit hour is no
// damage; instead a time whose hour was lost (":39:56 PM" at a line start or after a date, ending the line) and a
// 12-hour time with hour 0 ("0:14PM") are.
std::optional<std::string> time_with_lost_digit(std::string_view text, bool padded_hours = true);

// Whether `time` ("HH:MM") is the reading of `printed` (a time_with_lost_digit value) as an unpadded minute:
// "14時7分" -> 14:07, which a receipt may print. A colon time is never printed so ("15:4" is damage).
bool unpadded_minute_reading(const std::string& printed, const std::string& time);

// `text` without its lines that print a time with a lost digit (time_with_lost_digit, `padded_hours` as there): the
// times it still prints
// whole are those of printed_times(times_kept_whole(text)).
std::string times_kept_whole(std::string_view text, bool padded_hours = true);

// A year-first date printed with a lost digit of its month or day.
struct DateWithLostDigit {
    std::string printed;                // as printed (full-width folded, look-alikes next to digits read): "23/0/12"
    std::vector<std::string> readings;  // "YYYY-MM-DD": the valid dates it gives with one digit put back
};

// The first date in `text` printed with a lost digit of its month or day: a part missing ("令和2年月31日",
// "2024年3月日", "24//12"), a month or day of 0 ("23/0/12"), or one part of one digit beside a zero-padded other
// ("24/04/1", "2024年03月1日", "2024-9-09"), or an era year lost ("令和年2月21日": no reading); a part followed by
// a letter is a look-alike, not a lost digit ("2021-04-2B"). Its readings put one digit into the damaged part:
// "2024-9-09" gives only 2024-09-09, "24/2/05" gives 2024-02-05 and 2024-12-05. Japanese address lines (house
// numbers "本通6-1-25") hold no dates; a year of one or two digits before 年 is a 令和 or 平成 year after its era
// name (元 is 1), else 20YY. nullopt when there is none. Never throws.
std::optional<DateWithLostDigit> date_with_lost_digit(std::string_view text);

// `text` without its lines that print a date with a lost digit (date_with_lost_digit): the dates it still prints
// whole are those of printed_dates(dates_kept_whole(text)).
std::string dates_kept_whole(std::string_view text);

}  // namespace receipt::extract
