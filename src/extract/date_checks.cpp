// Date and time checks of a receipt's fields (extract/date_checks.h).
#include "extract/date_checks.h"

#include <algorithm>
#include <cstdlib>
#include <optional>
#include <regex>
#include <vector>

#include "extract/date_evidence.h"
#include "extract/normalize_date.h"
#include "extract/normalize_time.h"
#include "extract/ocr_digits.h"
#include "extract/printed_value.h"
#include "extract/unreadable_date_time.h"
#include "extract/utf8.h"

namespace receipt::extract {

namespace {

constexpr size_t kMaxDateLineBytes = 200;  // bytes of a line the date readers look at

// A US city, state and ZIP code line among the first 10 lines ("Columbus, OH 43215", "Austin, TX 78701-1234").
bool us_address_printed(const std::string& text) {
    static const std::regex city_state_zip(R"([A-Za-z.]+,? ?[A-Z]{2} \d{5}(-\d{4})?\s*$)");
    for (const std::string& line : first_lines(text, 10, kMaxDateLineBytes))
        if (std::regex_search(line, city_state_zip)) return true;
    return false;
}

}  // namespace

void check_date_and_time(const std::string& text, nlohmann::ordered_json& f) {
    // A date or time that is not printed on the receipt becomes the printed one closest to it
    // (extract/printed_value.h).
    auto check = [&](const char* key, const std::vector<std::string>& printed, auto&& closest) {
        auto& v = f[key];
        const std::optional<std::string> wrote =
            v.is_string() ? std::optional<std::string>(v.get<std::string>()) : std::nullopt;
        const std::optional<std::string> fixed = closest(printed, wrote);
        if (!fixed) return;
        v = *fixed;
        f["warnings"].push_back(std::string(key) + "_not_printed: the model wrote " + wrote.value_or("none") +
                                ", the receipt prints " + *fixed);
    };
    const std::optional<int> wd = printed_weekday(text);  // the weekday printed with the date, read once
    DateHints date_hints;
    date_hints.japanese = has_cjk(text);  // year first on every line of a Japanese receipt
    const std::vector<std::string> dates = printed_dates(text, date_hints);
    const std::optional<std::string> model_date =
        f["receipt_date"].is_string() ? std::optional<std::string>(f["receipt_date"].get<std::string>())
                                      : std::nullopt;
    check("receipt_date", dates, printed_date_for);
    auto& date = f["receipt_date"];
    // A Japanese date printed with a padded month and a one-digit day ("2022-12-2") lost a day digit to OCR:
    // the model's date that puts one back stands (extract/normalize_date.h), unless it is off the printed weekday
    // where the printed date is on it ("2021/03/2(火)": 03-27 is a Saturday, 03-02 the Tuesday).
    bool day_restored = false;
    const bool printed_on_weekday = wd && date.is_string() && weekday_of(date.get<std::string>()) == wd;
    if (has_cjk(text) && model_date && !(date.is_string() && date.get<std::string>() == *model_date) &&
        !(printed_on_weekday && weekday_of(*model_date) != wd)) {
        const std::vector<std::string> restored = dates_with_day_digit_lost(text);
        if (std::find(restored.begin(), restored.end(), *model_date) != restored.end()) {
            f["warnings"].push_back("receipt_date_day_digit_lost: the receipt prints the date with a one-digit "
                                    "day after a padded month; the model's " + *model_date +
                                    " puts the lost digit back");
            date = *model_date;
            day_restored = true;
        }
    }
    // Still a date that is not printed (nothing printed close to it): the date printed by a date label.
    if (date.is_string() && !day_restored) {
        if (std::find(dates.begin(), dates.end(), date.get<std::string>()) == dates.end()) {
            const std::vector<std::string> labelled = labelled_dates(text);
            if (!labelled.empty()) {
                f["warnings"].push_back("receipt_date_not_printed: the model wrote " +
                                        date.get<std::string>() + ", the date label prints " + labelled[0]);
                date = labelled[0];
            } else if (const auto sole = sole_printed_date(text, date_hints)) {
                // No label either: the date of the receipt's only date line (on a Japanese receipt read year
                // first: "8-27-16" and "1-4-1" are house numbers, not dates; the fifth round left Japanese
                // receipts out when they were read as dates).
                f["warnings"].push_back("receipt_date_not_printed: the model wrote " +
                                        date.get<std::string>() + ", the receipt's only date line prints " +
                                        *sole);
                date = *sole;
            }
        }
    }
    // A US receipt (dollars, or a US state and ZIP code printed) prints its numeric dates month first: the
    // model's day-first reading of an ambiguous date ("2/8/16" read as 2016-08-02) is its month-first one
    // (2016-02-08). A receipt in ringgit, pounds, euros or Singapore dollars prints them day first, the other way
    // round ("07/10/2015" is 2015-10-07).
    const std::string currency = f["currency"].is_string() ? f["currency"].get<std::string>() : "";
    const bool us = currency == "USD" || (currency.empty() && us_address_printed(text));
    const bool day_first_region = currency == "MYR" || currency == "GBP" || currency == "EUR" || currency == "SGD";
    if (date.is_string() && (us || day_first_region) && !has_cjk(text)) {
        const std::string d = date.get<std::string>();
        std::optional<std::string> other;
        for_each_line_reading(text, kMaxDateLineBytes, [&](const std::string& line) {
            if (other) return;
            const auto day_first = normalize_date(line);
            const auto month_first = normalize_date(line, DateHints{false, true});
            if (!day_first || !month_first || *day_first == *month_first) return;
            if (us && *day_first == d) other = month_first;
            if (!us && *month_first == d) other = day_first;
        });
        if (other) {
            f["warnings"].push_back("receipt_date_" + std::string(us ? "month" : "day") + "_first: the model wrote " +
                                    d + ", a " + (us ? "US receipt" : "receipt in " + currency) + " prints the " +
                                    (us ? "month" : "day") + " first: " + *other);
            date = *other;
        }
    }
    // The weekday printed by the date ("202/09/14(土)") tells a date the model read through OCR damage from the
    // printed one that replaced it: the model's date is kept when it falls on that weekday and the other not
    // (extract/normalize_date.h).
    if (model_date && date.is_string() && date.get<std::string>() != *model_date)
        if (wd && weekday_of(*model_date) == wd && weekday_of(date.get<std::string>()) != wd) {
            f["warnings"].push_back("receipt_date_weekday: the receipt's weekday is that of the model's " +
                                    *model_date + ", not of " + date.get<std::string>());
            date = *model_date;
        }
    // Still off the printed weekday, and the printed date lost a digit of its year ("202/09/14(土)", read as
    // 2022-09-14): the year that puts it on that weekday, the closest to the model's year (the date's when the
    // model wrote none: a date read from the damaged print, "Z02年" as 2002, is no guide; within 10, the same
    // weekday comes back every 5, 6 or 11 years), when one is closest.
    if (date.is_string())
        if (wd && weekday_of(date.get<std::string>()) != wd) {
            const int year = std::atoi(model_date.value_or(date.get<std::string>()).substr(0, 4).c_str());
            std::optional<std::string> only;
            int best = 11;
            bool several = false;
            for (const std::string& d : dates_with_year_digit_lost(text)) {
                const int away = std::abs(std::atoi(d.substr(0, 4).c_str()) - year);
                if (weekday_of(d) != wd || away > best || d == only) continue;
                several = away == best;
                best = away;
                only = d;
            }
            if (only && !several) {
                f["warnings"].push_back("receipt_date_year_digit_lost: the receipt prints the date with a "
                                        "three-digit year; " + *only + " falls on its weekday, " +
                                        date.get<std::string>() + " does not");
                date = *only;
            }
        }
    // The date lost a digit of its year ("202-10-11", "225/01/08(水)"): the model's date is not printed, but its
    // year is one that the three digits make with a digit put back. The month and day printed whole stand with
    // that year (the model's month or day off the print is a misreading: 2024-10-01 for "202-10-11"), when no
    // weekday is printed or the date falls on it (2025-10-08 and 2025-01-08 are both Wednesdays).
    if (has_cjk(text) && date.is_string() &&
        std::find(dates.begin(), dates.end(), date.get<std::string>()) == dates.end()) {
        const std::string d = date.get<std::string>();
        std::optional<std::string> only;
        bool several = false;
        for (const std::string& r : dates_with_year_digit_lost(text))
            if (r.compare(0, 4, d, 0, 4) == 0 && r != only) {
                several = bool(only);
                only = r;
            }
        if (only && !several && *only != d && (!wd || weekday_of(*only) == wd)) {
            f["warnings"].push_back("receipt_date_year_digit_lost: the receipt prints the date with a three-digit "
                                    "year and its month and day whole; the model's year with them is " + *only +
                                    ", not " + d);
            date = *only;
        }
    }
    // Still off the printed weekday: the printed date lost a digit of its month or day ("2020/08/7(木)" for
    // 08/27, "2024年月7日 木曜日"); the one date that a digit put back puts on that weekday, when only one does.
    if (has_cjk(text) && date.is_string())
        if (wd && weekday_of(date.get<std::string>()) != wd) {
            std::vector<std::string> on_weekday;
            for (const std::string& d : dates_with_digit_lost(text))
                if (weekday_of(d) == wd) on_weekday.push_back(d);
            if (on_weekday.size() == 1) {
                f["warnings"].push_back("receipt_date_digit_lost: " + on_weekday[0] +
                                        " falls on the printed weekday with one digit put back, " +
                                        date.get<std::string>() + " does not");
                date = on_weekday[0];
            }
        }
    // A Japanese date whose print lost a digit of its month or day ("23/0/12", "令和2年月31日", "24/04/1") is read only
    // when one digit put back gives the one valid date ("2024-9-09"); otherwise a date that no whole date line
    // prints and that no printed weekday confirms is a guess: none.
    if (has_cjk(text) && date.is_string()) {
        const std::string d = date.get<std::string>();
        // The damaged print first: most receipts have none, and then the whole lines need no reading.
        const auto damaged = date_with_lost_digit(text);
        if (damaged && !(wd && weekday_of(d) == wd))
            if (const std::vector<std::string> whole = printed_dates(dates_kept_whole(text), date_hints);
                std::find(whole.begin(), whole.end(), d) == whole.end()) {
                if (damaged->readings.size() == 1) {
                    if (damaged->readings[0] != d) {
                        f["warnings"].push_back("receipt_date_digit_lost: the receipt prints " + damaged->printed +
                                                ", which one digit put back makes " + damaged->readings[0] +
                                                " only; the model wrote " + d);
                        date = damaged->readings[0];
                    }
                } else {
                    f["warnings"].push_back("receipt_date_digit_unreadable: the receipt prints " + damaged->printed +
                                            ", a digit of its month or day lost; the model's " + d + " is a guess");
                    date = nullptr;
                }
            }
    }
    const std::vector<std::string> times = printed_times(text);
    check("purchase_time", times, printed_time_for);
    // A time that lost a digit ("15:4", "14時7分", Japanese "2:59:11"; ":39:56 PM", "0:14PM" in Latin script): a time
    // that no whole time line prints is a guess: none.
    auto& time = f["purchase_time"];
    if (time.is_string()) {
        const std::string t = time.get<std::string>();
        const bool padded = has_cjk(text);  // Japanese receipts pad colon times; others print hours unpadded
        if (const auto damaged = time_with_lost_digit(text, padded); damaged && !unpadded_minute_reading(*damaged, t))
            if (const std::vector<std::string> whole = printed_times(times_kept_whole(text, padded));
                std::find(whole.begin(), whole.end(), t) == whole.end()) {
                f["warnings"].push_back("purchase_time_digit_lost: the receipt prints " + *damaged +
                                        ", a digit of its hour or minute lost; the time " + t + " is a guess");
                time = nullptr;
            }
    }
    // A date or time the receipt does not print at all, not even damaged, is another receipt's that the model
    // made up (extract/date_evidence.h): none.
    if (date.is_string() && dates.empty() && !prints_date_like(text)) {
        f["warnings"].push_back("receipt_date_not_printed: the model wrote " + date.get<std::string>() +
                                ", the receipt prints no date");
        date = nullptr;
    }
    if (time.is_string() && times.empty() && !prints_time_like(text)) {
        f["warnings"].push_back("purchase_time_not_printed: the model wrote " + time.get<std::string>() +
                                ", the receipt prints no time");
        time = nullptr;
    }
}

}  // namespace receipt::extract
