// Dates and times printed with a lost digit (extract/unreadable_date_time.h).
#include "extract/unreadable_date_time.h"

#include <algorithm>
#include <cstdio>
#include <regex>

#include "extract/normalize_date.h"
#include "extract/normalize_phone.h"
#include "extract/ocr_digits.h"
#include "extract/utf8.h"

namespace receipt::extract {

namespace {

constexpr size_t kMaxLineBytes = 200;

// A month or day that lost a digit: missing, 0, or one digit beside a zero-padded other part.
bool parts_lost_digit(const std::string& month, const std::string& day) {
    auto zero = [](const std::string& s) { return s == "0" || s == "00"; };
    auto padded = [](const std::string& s) { return s.size() == 2 && s[0] == '0'; };
    if (month.empty() || day.empty() || zero(month) || zero(day)) return true;
    return (padded(month) && day.size() == 1) || (padded(day) && month.size() == 1);
}

}  // namespace

std::optional<std::string> time_with_lost_digit(std::string_view text, bool padded_hours) {
    // hour, ':' or 時, one minute digit; after a colon then the line end, a non-digit or ":SS"; after 時, 分.
    // Not a minute digit followed by a digit look-alike ("12:2Z:56"): the reading with look-alikes read has it whole.
    static const std::regex kMinute(R"((?:^|[^0-9:])(([0-9]{1,2}):([0-9]))(?=$|:[0-9]{2}(?![0-9])|[^0-9:)" +
                                    std::string(kDigitLookalikes) + "])");
    static const std::regex kKanji(R"((?:^|[^0-9A-Za-z])(([0-9A-Za-z]{1,2})時([0-9])分))");
    // one hour digit, not after a letter (a look-alike) or a digit, then a two-digit minute.
    static const std::regex kHour(R"((?:^|[^0-9A-Za-z:])(([0-9]):[0-9]{2}(?::[0-9]{2})?)(?![0-9:]))");
    static const std::regex kTwelveHour(R"(午(?:前|後) ?$)");
    static const std::regex kAmPm(R"(^ ?[AaPp]\.?[Mm])");
    // The hour lost: ":MM[:SS]" at the line start or after a date, ending the line (AM / PM aside).
    static const std::regex kHourLost(R"((?:^|[0-9] +)(:[0-9]{2}(?::[0-9]{2})?(?: ?[AaPp]\.?[Mm]\.?)?) *$)");
    // A 12-hour time with hour 0: a digit of the hour read as 0 or lost ("0:14PM").
    static const std::regex kZeroHour(R"((?:^|[^0-9:])(0?0:[0-9]{2}(?::[0-9]{2})? ?[AaPp]\.?[Mm]))");
    std::optional<std::string> found;
    for_each_line_reading(text, kMaxLineBytes, [&](const std::string& line) {
        if (found) return;
        std::smatch m;
        if (!padded_hours) {
            for (const std::regex* re : {&kMinute, &kHourLost, &kZeroHour})
                if (std::regex_search(line, m, *re)) {
                    if (re == &kMinute && std::stoi(m[2].str()) > 23) continue;
                    found = m[1].str();
                    return;
                }
            return;
        }
        for (const std::regex* re : {&kMinute, &kKanji})
            if (std::regex_search(line, m, *re)) {
                const std::string hour = m[2].str();
                if (hour.find_first_not_of("0123456789") == std::string::npos && std::stoi(hour) > 23) continue;
                found = m[1].str();
                return;
            }
        for (auto it = std::sregex_iterator(line.begin(), line.end(), kHour); it != std::sregex_iterator(); ++it) {
            const std::string before = line.substr(0, size_t(it->position(1)));
            const std::string after = line.substr(size_t(it->position(1) + it->length(1)));
            if (std::regex_search(before, kTwelveHour) || std::regex_search(after, kAmPm)) continue;
            found = (*it)[1].str();
            return;
        }
    });
    return found;
}

bool unpadded_minute_reading(const std::string& printed, const std::string& time) {
    static const std::regex kKanji(R"(([0-9]{1,2})時([0-9])分)");
    std::smatch m;
    if (!std::regex_match(printed, m, kKanji)) return false;
    const int hour = std::stoi(m[1].str());
    std::string unpadded = hour < 10 ? "0" : "";  // built step by step: one operator+ chain trips GCC 12's -Wrestrict
    unpadded.append(std::to_string(hour)).append(":0").append(m[2].str());
    return time.size() == 5 && time == unpadded;
}

std::optional<DateWithLostDigit> date_with_lost_digit(std::string_view text) {
    // Year first: four or two digits, then month and day with one kind of separator; or 年 月 日 (an era year too).
    static const std::regex kNumeric(
        R"((?:^|[^0-9])(([0-9]{4}|[0-9]{2})([/.-])([0-9]{0,2})\3([0-9]{0,2}))(?![0-9A-Za-z:]))");
    static const std::regex kKanji(R"((?:^|[^0-9])((令和|平成)?([0-9]{1,4}|元)年 ?([0-9]{0,2}) ?月 ?([0-9]{0,2}) ?日))");
    // An era name right before 年: the era year lost ("令和年2月21日").
    static const std::regex kEraYearLost(R"(((?:令和|平成)年 ?[0-9]{1,2} ?月 ?[0-9]{1,2} ?日))");
    std::optional<DateWithLostDigit> found;
    // A dash look-alike between digits is a separator, as printed_dates reads it ("2024ー09-1").
    for_each_line_reading(fold_dashes(std::string(text), true), kMaxLineBytes, [&](const std::string& line) {
        if (found || japanese_address_line(line)) return;
        std::smatch m;
        int year = 0;
        std::string month, day;
        if (std::regex_search(line, m, kNumeric) && parts_lost_digit(m[4].str(), m[5].str())) {
            year = std::stoi(m[2].str());
            if (year < 100) year += 2000;
            month = m[4].str();
            day = m[5].str();
        } else if (std::regex_search(line, m, kKanji) && parts_lost_digit(m[4].str(), m[5].str())) {
            const std::string y = m[3].str();
            const int n = y == "元" ? 1 : std::stoi(y);
            const std::string era = m[2].str();
            year = y.size() == 4 ? n : era == "平成" ? 1988 + n : era == "令和" || y == "元" ? 2018 + n : 2000 + n;
            month = m[4].str();
            day = m[5].str();
        } else if (std::regex_search(line, m, kEraYearLost)) {
            found = DateWithLostDigit{m[1].str(), {}};  // any year of the era: no one reading
            return;
        } else {
            return;
        }
        DateWithLostDigit d{m[1].str(), {}};
        // One digit into the part that lost it (a missing, zero or unpadded part), at either end.
        auto add = [&](const std::string& mm, const std::string& dd) {
            if (mm.empty() || dd.empty() || mm.size() > 2 || dd.size() > 2) return;
            char iso[16];
            std::snprintf(iso, sizeof(iso), "%04d-%02d-%02d", year, std::stoi(mm), std::stoi(dd));
            if (weekday_of(iso) && std::find(d.readings.begin(), d.readings.end(), iso) == d.readings.end())
                d.readings.push_back(iso);
        };
        const bool month_lost = month.empty() || month == "0" || month == "00" || month.size() < day.size();
        for (char c = '0'; c <= '9'; ++c) {
            const std::string digit(1, c);
            if (month_lost) {
                add(digit + month, day);
                add(month + digit, day);
            } else {
                add(month, digit + day);
                add(month, day + digit);
            }
        }
        found = std::move(d);
    });
    return found;
}

namespace {

// `text` without the lines for which `damaged(line)` holds.
template <typename Pred>
std::string lines_without(std::string_view text, Pred&& damaged) {
    std::string out;
    for (const std::string& line : split_lines(text)) {
        if (!damaged(std::string_view(line))) {
            if (!out.empty()) out += '\n';
            out += line;
        }
    }
    return out;
}

}  // namespace

std::string dates_kept_whole(std::string_view text) {
    return lines_without(text, [](std::string_view line) { return date_with_lost_digit(line).has_value(); });
}

std::string times_kept_whole(std::string_view text, bool padded_hours) {
    return lines_without(text, [&](std::string_view line) { return time_with_lost_digit(line, padded_hours).has_value(); });
}

}  // namespace receipt::extract
