// The dates a Japanese receipt would print had OCR not dropped a digit (extract/normalize_date.h): a year of three
// digits, a weekday line's date, a one-digit day after a zero-padded month.
#include <algorithm>
#include <regex>
#include <string>
#include <vector>

#include "extract/date_scan.h"
#include "extract/normalize_date.h"
#include "extract/normalize_phone.h"
#include "extract/ocr_digits.h"
#include "extract/utf8.h"

namespace receipt::extract {

using namespace date_scan;

std::vector<std::string> dates_with_year_digit_lost(std::string_view text) {
    // A three-digit year not preceded by a digit, then month and day with the same kind of separators ('/', '-',
    // '.', or 年 月 日).
    static const std::regex kShortYear(
        R"((?:^|[^0-9])([0-9]{3}) ?(?:([/.-]) ?([0-9]{1,2}) ?\2 ?([0-9]{1,2})|年 ?([0-9]{1,2}) ?月 ?([0-9]{1,2}) ?日)(?![0-9]))");
    std::vector<std::string> out;
    // A dash look-alike between digits is a separator, as printed_dates reads it ("202ー09-14").
    for_each_line_reading(fold_dashes(std::string(text), true), kMaxDateBytes, [&](const std::string& line) {
        if (japanese_address_line(line)) return;
        for (auto it = std::sregex_iterator(line.begin(), line.end(), kShortYear); it != std::sregex_iterator();
             ++it) {
            const std::smatch& m = *it;
            const std::string y3 = m[1].str();
            const int month = to_int(m[3].matched ? m[3].str() : m[5].str());
            const int day = to_int(m[4].matched ? m[4].str() : m[6].str());
            for (size_t at = 0; at <= y3.size(); ++at)
                for (char digit = '0'; digit <= '9'; ++digit) {
                    const int y = to_int(y3.substr(0, at) + digit + y3.substr(at));
                    const Ymd v{y, month, day};
                    if (y < 2000 || y > 2099 || !is_valid(v)) continue;
                    const std::string d = iso(v);
                    if (std::find(out.begin(), out.end(), d) == out.end()) out.push_back(d);
                }
        }
    });
    return out;
}

namespace {
constexpr int kMaxWeekdayLines = 2;    // lines with a weekday that dates_with_digit_lost tries
constexpr size_t kMaxDateSpan = 40;    // bytes of a date before its weekday that it tries
constexpr size_t kEraBytes = 6;        // 令和 / 平成 before the era year

// `line` with each digit look-alike that stands alone between the date marks 年 / 月 and 月 / 日 read as its digit
// ("令和5年月B日" -> "令和5年月8日"): no digit beside it for read_digit_confusions to go by.
std::string lookalikes_between_date_marks(std::string line) {
    const size_t mark = std::string("年").size();  // 年 月 日: three bytes each
    for (size_t i = mark; i + mark < line.size(); ++i) {
        const char d = confusion_digit(line[i]);
        if (d && (line.compare(i - mark, mark, "年") == 0 || line.compare(i - mark, mark, "月") == 0) &&
            (line.compare(i + 1, mark, "月") == 0 || line.compare(i + 1, mark, "日") == 0))
            line[i] = d;
    }
    return line;
}
}  // namespace

std::vector<std::string> dates_with_digit_lost(std::string_view text) {
    // A weekday that OCR put in a box of its own ("2024年3月日" / "月曜日 09:32") is read with the line above.
    std::string joined;
    bool first = true;
    for (const std::string& line : split_lines(text)) {
        const bool weekday_first = printed_weekday(line) &&
                                   (line.find("曜") == 3 || line.rfind("(", 0) == 0 || line.rfind("（", 0) == 0);
        if (!first) joined += weekday_first ? ' ' : '\n';
        joined += line;
        first = false;
    }
    std::vector<std::string> out;
    int lines_tried = 0;  // each try scans the line once per position and digit: a few lines at most
    for_each_line_reading(fold_dashes(joined, true), kMaxDateBytes, [&](const std::string& printed) {
        // A reading that still holds a look-alike next to a digit ("2022年2月l6日") is tried as its twin with the
        // look-alike read ("2月16日"): a digit put in before the letter would make a date of "2月X" alone.
        if (read_digit_confusions(printed) != printed) return;
        const std::string full = date_apart_from_time(lookalikes_between_date_marks(printed));
        if (japanese_address_line(full) || !printed_weekday(full) || ++lines_tried > 2 * kMaxWeekdayLines) return;
        // The date before the weekday: from a few bytes before its first digit (an era name, 令和) to the weekday
        // mark, at most kMaxDateSpan bytes.
        size_t mark = full.size();
        for (const char* form : {"(", "（", "曜"})
            if (const size_t p = full.find(form); p != std::string::npos) mark = std::min(mark, p);
        if (const size_t m = full.find("曜"); m != std::string::npos && m == mark && m >= 3) mark -= 3;  // 木曜
        const size_t first_digit = full.find_first_of("0123456789");
        if (first_digit == std::string::npos || first_digit >= mark) return;
        size_t begin = first_digit >= kEraBytes ? first_digit - kEraBytes : 0;
        begin = std::max(begin, mark > kMaxDateSpan ? mark - kMaxDateSpan : 0);
        while (begin < mark && (static_cast<unsigned char>(full[begin]) & 0xC0) == 0x80) ++begin;  // a char start
        const std::string line = full.substr(begin, mark - begin);
        std::vector<std::string> as_printed;
        for (const Candidate& c : scan(line, {}, true)) as_printed.push_back(iso(c.ymd));
        auto next_to_date = [&](size_t at) {  // a digit, a separator or 年 / 月 / 日 on either side
            auto digit_or_sep = [](char c) { return (c >= '0' && c <= '9') || c == '/' || c == '-' || c == '.'; };
            if ((at > 0 && digit_or_sep(line[at - 1])) || (at < line.size() && digit_or_sep(line[at]))) return true;
            for (const char* mark : {"年", "月", "日"}) {
                const size_t n = std::string(mark).size();
                if ((at >= n && line.compare(at - n, n, mark) == 0) || line.compare(at, n, mark) == 0) return true;
            }
            return false;
        };
        for (size_t at = 0; at <= line.size(); ++at) {
            if (at < line.size() && (static_cast<unsigned char>(line[at]) & 0xC0) == 0x80) continue;  // inside a char
            if (!next_to_date(at)) continue;
            for (char digit = '0'; digit <= '9'; ++digit) {
                const std::string tried = line.substr(0, at) + digit + line.substr(at);
                for (const Candidate& c : scan(tried, {}, false)) {
                    const std::string d = iso(c.ymd);
                    if (std::find(as_printed.begin(), as_printed.end(), d) == as_printed.end() &&
                        std::find(out.begin(), out.end(), d) == out.end())
                        out.push_back(d);
                }
            }
        }
    });
    return out;
}

std::vector<std::string> dates_with_day_digit_lost(std::string_view text) {
    // Year first (four or two digits), a two-digit month, a one-digit day, not before another digit or ':'.
    static const std::regex kShortDay(R"((?:^|[^0-9])([0-9]{4}|[0-9]{2})([/.-])([0-9]{2})\2([0-9])(?![0-9:]))");
    std::vector<std::string> out;
    for_each_line_reading(fold_dashes(std::string(text), true), kMaxDateBytes, [&](const std::string& line) {
        if (japanese_address_line(line)) return;
        for (auto it = std::sregex_iterator(line.begin(), line.end(), kShortDay); it != std::sregex_iterator(); ++it) {
            const std::smatch& m = *it;
            const int year = expand_year(m[1].str()), month = to_int(m[3].str());
            const std::string d = m[4].str();
            for (char digit = '0'; digit <= '9'; ++digit)
                for (const std::string& day : {std::string(1, digit) + d, d + digit}) {
                    const Ymd v{year, month, to_int(day)};
                    if (!is_valid(v)) continue;
                    const std::string date = iso(v);
                    if (std::find(out.begin(), out.end(), date) == out.end()) out.push_back(date);
                }
        }
    });
    return out;
}

}  // namespace receipt::extract
