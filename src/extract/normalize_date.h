// Printed receipt dates -> ISO "YYYY-MM-DD". Pure functions; thread-safe; never throw.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace receipt::extract {

// Context that resolves ambiguous all-numeric dates.
struct DateHints {
    bool japanese = false;     // "24/05/01" is yy/mm/dd (Japanese receipts print year first)
    bool month_first = false;  // "05/01/24" is mm/dd/yy (US receipts)
};

// Finds the first date printed in `text` and returns it as "YYYY-MM-DD", or nullopt when none is found or the
// date does not exist (2023-02-29, 31/04/2024). Accepted forms:
//   ISO "2024-05-01" (optionally followed by a time), "2024/5/1", "2024.05.01", "20240501", and with one separator
//   lost "202101/01", "2021/0101" (four-digit year), or, with hints.japanese at the start of the text, "2207/03",
//   "22/0703" (two-digit year);
//   day-first "01/05/2024", "1-5-24", "01.05.2024" (month-first when hints.month_first, or when only that reading
//   is valid: "12/31/2024"); two-digit-year forms try the hinted order first, then the others;
//   month names "12 Jan 2019", "12-JAN-19", "Jan 12, 2019", "January 12 2019", and abbreviations OCR damaged with
//   a four-digit year: digit look-alikes ("13 FE8 2022") or one letter lost where only one month fits ("26 AP 2023";
//   "JU" fits two and is not read);
//   Japanese "2024年5月1日", "令和6年5月1日", "令和元年5月1日", "平成31年4月30日", "R6.5.1", "H31/4/30", "S64.1.7",
//   and "202412月1日" (a four-digit year whose 年 OCR dropped, then month 月 and day 日), "2025年213日" (月 dropped,
//   read where one split of the digits is a month and a day).
// Years must fall in 1900..2100; two-digit years yy map to 20yy (yy < 70) or 19yy; an all-numeric date with a
// one-digit year ("06/11/1": OCR cut it short) has no reading, but for "24/04/1" year first with hints.japanese.
// Era dates before the era began (令和1年4月30日) are rejected; dates after an era ended (H31.5.1) are accepted, as
// some tills print them.
std::optional<std::string> normalize_date(std::string_view text, const DateHints& hints = {});

// Every date printed in a receipt text as "YYYY-MM-DD", first printed first, without repeats: each line is scanned on
// its own (its first 200 bytes) with the patterns above (a dash look-alike between digits read as '-', "2023ー03-13";
// an era name 令和 that lost one of its characters put back, "和4年1月16日"), and an all-numeric date gives each of its
// valid readings ("06/12/2016" gives 2016-12-06, then 2016-06-12); a line is also read with OCR look-alikes next to
// digits taken as digits ("20Z4/12/01" gives 2024-12-01; extract/ocr_digits.h). All-numeric dates on a Japanese address
// line (都 道 府 県 市 区 町 村 丁目 番地 〒) are house numbers ("本通6-1-25"), not dates. An all-numeric date right
// before ':' ("20/09/2013:26", a date and time run together) is not read, but a year-first one is
// (date_apart_from_time). A year-last date that lost a separator at the start of its line ("2105/2023", "7/122021")
// gives its readings in the hinted order here (not with hints.japanese), not in normalize_date. A line that holds only
// a day (one or two digits) is read with the next line when that one starts with a month's name and a year ("18" / "AUG
// 2016 19:54": OCR put the day in a box of its own), except on a Japanese receipt. Never throws. `hints` apply to every
// line (a Japanese receipt's lines without CJK, "24/04/1", are read year first too).
std::vector<std::string> printed_dates(std::string_view text, const DateHints& hints = {});

// `line` with a space put between a year-first date and the time that OCR ran into it ("2021-11-0506:04:40" ->
// "2021-11-05 06:04:40": the day has two digits, the time follows), or a two-digit year's date and a time in 時 and
// 分 ("21/09/0210時01分" -> "21/09/02 10時01分"); the line as it is otherwise. printed_dates and printed_times read
// lines so.
std::string date_apart_from_time(const std::string& line);

// printed_dates() of the lines that carry a date label (DATE, TARIKH, 日付, 日時; ASCII in any case) and of the
// line after each (OCR puts the value in its own box), first printed first.
std::vector<std::string> labelled_dates(std::string_view text);

// The first reading of the date printed on the only line of `text` that holds one (printed_dates of that line);
// nullopt when no line or more than one holds a date. For a receipt without a date label whose one date line the
// model misread ("14-12-16" printed, 2018-02-21 written).
std::optional<std::string> sole_printed_date(std::string_view text, const DateHints& hints = {});

// The weekday a Japanese receipt prints with its date, "(土)" or "土曜日": 0 = Sunday .. 6 = Saturday; nullopt
// when it prints none, or two different ones.
std::optional<int> printed_weekday(std::string_view text);

// The dates a Japanese receipt prints with a three-digit year, its year having lost a digit to OCR ("202/09/14(土)",
// "202-10-11", "202年10月02日"), year first: each year 2000-2099 that the three digits make with one digit put back
// (202 -> 2020..2029, 2002, 2012, 2022), with the printed month and day, when valid; first printed first, without
// repeats. The caller picks among them by the printed weekday, or by the model's year. Lines are read as in
// printed_dates; address lines are not. Never throws.
std::vector<std::string> dates_with_year_digit_lost(std::string_view text);

// The dates a Japanese receipt would print on its weekday line ("2020/08/7(木)", "2024年月7日 木曜日") had OCR not
// dropped one digit: each date read (first reading) from that line with one digit 0-9 put back next to a digit,
// 年, 月, 日 or a date separator, that the line as printed does not give; first found first, without repeats. Only
// lines that print a weekday are read (the first two), and not address lines; on each, the date before the weekday
// (at most 40 bytes). The caller keeps those on the printed weekday. Never throws.
std::vector<std::string> dates_with_digit_lost(std::string_view text);

// The dates a Japanese receipt prints with a zero-padded month and a one-digit day ("2022-12-2", "20/07/3(金)"),
// had OCR dropped a digit of the day: each valid date with a digit put before or after the printed day digit.
// The caller keeps a model date among them over the printed one (the model read the day whole). Never throws.
std::vector<std::string> dates_with_day_digit_lost(std::string_view text);

// Whether `line` is a Japanese address line (都 道 府 県 市 区 町 村 丁目 番地 〒): its house number ("本通6-1-25",
// "御幸通5-8-29") is no numeric date.
bool japanese_address_line(std::string_view line);

// The weekday of an ISO date "YYYY-MM-DD", 0 = Sunday .. 6 = Saturday; nullopt when it is no valid date.
std::optional<int> weekday_of(const std::string& iso);

}  // namespace receipt::extract
