#include "extract/normalize_time.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <regex>

#include "extract/normalize_date.h"
#include "extract/ocr_digits.h"
#include "extract/utf8.h"

namespace receipt::extract {

namespace {

constexpr size_t kMaxTimeBytes = 200;

bool contains(const std::string& s, std::string_view needle) { return s.find(needle) != std::string::npos; }

// hour (':' | '時' | 'h') minute, not part of a longer number.
const std::regex& time_regex() {
    static const std::regex kTime("(^|\\D)(\\d{1,2})\\s*(?::|\xE6\x99\x82|h)\\s*(\\d{2})(?!\\d)");
    return kTime;
}

// `text` with a line that is only AM or PM ("5:40:14" / "PM": OCR gave it a box of its own) joined to the line
// before it when that one ends with a digit.
std::string with_meridiem_joined(std::string_view text) {
    const std::vector<std::string> lines = split_lines(text);
    std::string out;
    for (size_t k = 0; k < lines.size(); ++k) {
        std::string line = lines[k];
        if (k + 1 < lines.size()) {
            const std::string next = ascii_lower(trim(lines[k + 1]));
            const std::string t = trim(line);
            if ((next == "am" || next == "pm" || next == "a.m." || next == "p.m.") && !t.empty() &&
                std::isdigit(static_cast<unsigned char>(t.back()))) {
                line = t + " " + next;
                ++k;
            }
        }
        out += line;
        if (k + 1 < lines.size()) out += '\n';
    }
    return out;
}

// `line` with an hour of one or two OCR look-alikes of digits before ":" and two digits ("lS:17:15" for 15:17:15),
// or before "時" and one or two digits and "分" ("S時35分", "Ib時00分" for 5時35分, 16時00分), read as digits: a word
// of its own (line start or a non-alphanumeric before it), at least one look-alike.
void read_lookalike_hours(std::string& line) {
    static const std::string kHourMark = "時", kMinuteMark = "分";
    const auto digit = [&](size_t k) { return k < line.size() && std::isdigit(static_cast<unsigned char>(line[k])); };
    // The byte after a separator at c when a minute follows it: 2 digits after ":", 1-2 and 分 after 時.
    const auto minute_follows = [&](size_t c) {
        if (line[c] == ':') return digit(c + 1) && digit(c + 2);
        size_t k = c + kHourMark.size();
        if (!digit(k)) return false;
        k += digit(k + 1) ? 2 : 1;
        return line.compare(k, kMinuteMark.size(), kMinuteMark) == 0;
    };
    for (size_t c = 0; c < line.size(); ++c) {
        if (line[c] != ':' && line.compare(c, kHourMark.size(), kHourMark) != 0) continue;
        if (!minute_follows(c)) continue;
        size_t b = c;
        while (b > 0 && c - b < 3 && std::isalnum(static_cast<unsigned char>(line[b - 1]))) --b;
        if (c - b == 0 || c - b > 2 || (b > 0 && std::isalnum(static_cast<unsigned char>(line[b - 1])))) continue;
        bool lookalike = false, ok = true;
        for (size_t k = b; k < c && ok; ++k) {
            if (std::isdigit(static_cast<unsigned char>(line[k]))) continue;
            ok = confusion_digit(line[k]) != 0;
            lookalike = true;
        }
        if (!ok || !lookalike) continue;
        for (size_t k = b; k < c; ++k)
            if (!std::isdigit(static_cast<unsigned char>(line[k]))) line[k] = confusion_digit(line[k]);
    }
}

}  // namespace

std::optional<std::string> normalize_time(std::string_view text) try {
    const std::string s = fold_fullwidth(sanitize_utf8(utf8_prefix(text, kMaxTimeBytes)));
    const std::regex& kTime = time_regex();
    std::smatch m;
    if (!std::regex_search(s, m, kTime)) return std::nullopt;
    int hour = std::stoi(m[2]);
    const int minute = std::stoi(m[3]);

    // AM / PM as words of their own ("2:05 PM", "2:05p.m."), or 午後 / 午前.
    static const std::regex kPm("(^|[^a-z])p\\.?m\\.?(?![a-z])");
    static const std::regex kAm("(^|[^a-z])a\\.?m\\.?(?![a-z])");
    const std::string lower = ascii_lower(s);
    // A time ending its line with a lone P or A ("1:09:37 P"): OCR lost the M.
    static const std::regex kPmCut("^\\d{1,2}:\\d{2}(:\\d{2})? ?p$"), kAmCut("^\\d{1,2}:\\d{2}(:\\d{2})? ?a$");
    const std::string rest = trim(lower.substr(size_t(m.position(2))));
    const bool pm = std::regex_search(lower, kPm) || std::regex_search(rest, kPmCut) ||
                    contains(s, "\xE5\x8D\x88\xE5\xBE\x8C");
    const bool am = std::regex_search(lower, kAm) || std::regex_search(rest, kAmCut) ||
                    contains(s, "\xE5\x8D\x88\xE5\x89\x8D");
    if (pm != am) {
        // 12-hour clock: 12 AM is midnight, 12 PM is noon. "14:05 PM" is tolerated as 14:05; "0:14 PM" is no time
        // (a digit of its hour lost or misread).
        if (hour == 0 || hour > 12) {
            if (am || hour > 23 || hour == 0) return std::nullopt;
        } else if (pm && hour != 12) {
            hour += 12;
        } else if (am && hour == 12) {
            hour = 0;
        }
    }
    if (hour > 23 || minute > 59) return std::nullopt;
    char buf[32];
    std::snprintf(buf, sizeof(buf), "%02d:%02d", hour, minute);
    return std::string(buf);
} catch (...) {
    return std::nullopt;  // std::regex may throw (complexity / stack); treat as "no time"
}

std::vector<std::string> printed_times(std::string_view printed_text) {
    std::vector<std::string> out;
    const std::string joined = with_meridiem_joined(printed_text);
    const std::string_view text = joined;
    for_each_line_reading(text, kMaxTimeBytes, [&](const std::string& printed) {
        // OCR reads a time's colon as a semicolon ("13;17:15"): between two digits it is one.
        std::string line = date_apart_from_time(printed);  // "2021-11-0506:04:40"
        for (size_t i = 1; i + 1 < line.size(); ++i)
            if (line[i] == ';' && std::isdigit(static_cast<unsigned char>(line[i - 1])) &&
                std::isdigit(static_cast<unsigned char>(line[i + 1])))
                line[i] = ':';
        read_lookalike_hours(line);
        const std::string read = read_digit_confusions(line);
        for (auto it = std::sregex_iterator(line.begin(), line.end(), time_regex()); it != std::sregex_iterator();
             ++it) {
            // A time whose hour follows an OCR look-alike of a digit ("I0:07" as printed gives 0:07) is a piece of
            // the time that the look-alike reading gives whole (10:07).
            if (const size_t at = size_t(it->position(2)); at > 0 && read[at - 1] != line[at - 1]) continue;
            // Nor is the end of a colon chain that OCR cut short ("15:4:18" is 15:0?:18, not 4:18).
            if (const size_t at = size_t(it->position(2));
                at >= 2 && line[at - 1] == ':' && std::isdigit(static_cast<unsigned char>(line[at - 2])))
                continue;
            // Each time with the rest of its line (AM / PM follow it).
            const auto t = normalize_time(std::string_view(line).substr(size_t(it->position(2))));
            if (t && std::find(out.begin(), out.end(), *t) == out.end()) out.push_back(*t);
        }
    });
    // A time that lost its colon to OCR ("1104", "火曜日 0902"): four digits that make a time, ending a date line
    // after its weekday or on the line right after a date line.
    try {
        static const std::regex after_weekday(R"((曜日|曜|\))\s*(\d{4})\s*$)");
        static const std::regex alone(R"(^\s*(\d{4})\s*$)");
        // "21/12/27 2231": four digits ending a line after the date alone.
        static const std::regex after_date(R"(\s(\d{4})\s*$)");
        // "0809:24", "736:42 AM": a time with seconds whose first colon OCR lost, ending its line; "18:0324": one
        // whose second colon it lost. Alone on the line or after a date ("16/03/2018 1058:47").
        static const std::regex lost_first_colon(R"((^|\s)(\d{1,2})(\d{2}):(\d{2})\s*([AaPp][Mm])?\s*$)");
        static const std::regex lost_second_colon(R"((^|\s)(\d{1,2}):(\d{2})(\d{2})\s*([AaPp][Mm])?\s*$)");
        const auto alone_or_dated = [](const std::string& line, const std::smatch& m) {
            const std::string before = trim(line.substr(0, size_t(m.position(0))));
            return before.empty() || normalize_date(before).has_value();
        };
        // "1138AM": a 12-hour time that lost its colon, alone on its line.
        static const std::regex lost_colon_meridiem(R"(^\s*(\d{1,2})(\d{2})\s*([AaPp]\.?[Mm]\.?)\s*$)");
        std::string prev;
        for (const std::string& printed : split_lines(text)) {
            const std::string line = fold_fullwidth(sanitize_utf8(utf8_prefix(printed, kMaxTimeBytes)));
            const bool dated = normalize_date(line).has_value() || contains(line, "曜");
            std::smatch m;
            std::string hhmm;
            if (dated && std::regex_search(line, m, after_weekday)) hhmm = m[2];
            else if (dated && std::regex_search(line, m, after_date) &&
                     normalize_date(trim(line.substr(0, size_t(m.position(0))))))
                hhmm = m[1];
            else if (!prev.empty() && (normalize_date(prev) || contains(prev, "曜")) &&
                     std::regex_search(line, m, alone))
                hhmm = m[1];
            prev = line;
            if (hhmm.empty() && ((std::regex_search(line, m, lost_first_colon) && alone_or_dated(line, m)) ||
                                 (std::regex_search(line, m, lost_second_colon) && alone_or_dated(line, m)))) {
                const auto t = normalize_time(m[2].str() + ":" + m[3].str() + ":" + m[4].str() + " " + m[5].str());
                if (t && std::find(out.begin(), out.end(), *t) == out.end()) out.push_back(*t);
                continue;
            }
            if (hhmm.empty() && std::regex_search(line, m, lost_colon_meridiem)) {
                const auto t = normalize_time(m[1].str() + ":" + m[2].str() + " " + m[3].str());
                if (t && std::find(out.begin(), out.end(), *t) == out.end()) out.push_back(*t);
                continue;
            }
            if (hhmm.empty()) continue;
            const int hour = std::stoi(hhmm.substr(0, 2)), minute = std::stoi(hhmm.substr(2));
            if (hour > 23 || minute > 59) continue;
            const std::string t = hhmm.substr(0, 2) + ":" + hhmm.substr(2);
            if (std::find(out.begin(), out.end(), t) == out.end()) out.push_back(t);
        }
    } catch (...) {  // std::regex giving up on a line: the times read so far
    }
    return out;
}

}  // namespace receipt::extract
