#include "extract/normalize_time.h"

#include <cstdio>
#include <regex>

#include "extract/utf8.h"

namespace receipt::extract {

namespace {

constexpr size_t kMaxTimeBytes = 200;

bool contains(const std::string& s, std::string_view needle) { return s.find(needle) != std::string::npos; }

}  // namespace

std::optional<std::string> normalize_time(std::string_view text) try {
    const std::string s = fold_fullwidth(sanitize_utf8(utf8_prefix(text, kMaxTimeBytes)));
    // hour (':' | '時' | 'h') minute, not part of a longer number.
    static const std::regex kTime("(^|\\D)(\\d{1,2})\\s*(?::|\xE6\x99\x82|h)\\s*(\\d{2})(?!\\d)");
    std::smatch m;
    if (!std::regex_search(s, m, kTime)) return std::nullopt;
    int hour = std::stoi(m[2]);
    const int minute = std::stoi(m[3]);

    // AM / PM as words of their own ("2:05 PM", "2:05p.m."), or 午後 / 午前.
    static const std::regex kPm("(^|[^a-z])p\\.?m\\.?(?![a-z])");
    static const std::regex kAm("(^|[^a-z])a\\.?m\\.?(?![a-z])");
    const std::string lower = ascii_lower(s);
    const bool pm = std::regex_search(lower, kPm) || contains(s, "\xE5\x8D\x88\xE5\xBE\x8C");
    const bool am = std::regex_search(lower, kAm) || contains(s, "\xE5\x8D\x88\xE5\x89\x8D");
    if (pm != am) {
        // 12-hour clock: 12 AM is midnight, 12 PM is noon. "14:05 PM" is tolerated as 14:05.
        if (hour == 0 || hour > 12) {
            if (am || hour > 23) return std::nullopt;
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

}  // namespace receipt::extract
