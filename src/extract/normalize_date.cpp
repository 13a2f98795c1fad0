#include "extract/normalize_date.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdio>
#include <regex>
#include <vector>

#include "extract/date_scan.h"
#include "extract/normalize_phone.h"
#include "extract/ocr_digits.h"
#include "extract/utf8.h"

namespace receipt::extract {

namespace date_scan {

bool is_leap(int y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

bool is_valid(const Ymd& v) {
    static constexpr std::array<int, 12> kDays = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    if (v.y < 1900 || v.y > 2100 || v.m < 1 || v.m > 12 || v.d < 1) return false;
    const int n_days = kDays[v.m - 1] + (v.m == 2 && is_leap(v.y) ? 1 : 0);
    return v.d <= n_days;
}

bool before(const Ymd& a, const Ymd& b) {
    if (a.y != b.y) return a.y < b.y;
    if (a.m != b.m) return a.m < b.m;
    return a.d < b.d;
}

// Parses up to 4 ASCII digits (the regexes guarantee digits); "元" (first year of an era) is 1.
int to_int(const std::string& s) {
    if (s == "\xE5\x85\x83") return 1;
    int v = 0;
    for (char c : s) v = v * 10 + (c - '0');
    return v;
}

int expand_year(const std::string& s) {
    const int y = to_int(s);
    if (s.size() == 4) return y;
    if (s.size() <= 2) return y < 70 ? 2000 + y : 1900 + y;
    return -1;  // three-digit years do not exist on receipts
}

// Japanese eras: name, Latin initial, Gregorian year of era year 0, first day of the era.
struct Era {
    std::string_view name;
    char initial;
    int base;
    Ymd start;
};
constexpr Era kEras[] = {
    {"\xE4\xBB\xA4\xE5\x92\x8C", 'R', 2018, {2019, 5, 1}},    // 令和
    {"\xE5\xB9\xB3\xE6\x88\x90", 'H', 1988, {1989, 1, 8}},    // 平成
    {"\xE6\x98\xAD\xE5\x92\x8C", 'S', 1925, {1926, 12, 25}},  // 昭和
    {"\xE5\xA4\xA7\xE6\xAD\xA3", 'T', 1911, {1912, 7, 30}},   // 大正
};

std::optional<Ymd> from_era(const std::string& era, const std::string& year, const std::string& m,
                            const std::string& d) {
    for (const Era& e : kEras) {
        if (era == e.name || (era.size() == 1 && era[0] == e.initial)) {
            const Ymd v{e.base + to_int(year), to_int(m), to_int(d)};
            if (to_int(year) < 1 || !is_valid(v) || before(v, e.start)) return std::nullopt;
            return v;
        }
    }
    return std::nullopt;
}

constexpr std::array<std::string_view, 12> kMonthNames = {"january", "february", "march",     "april",
                                                          "may",     "june",     "july",      "august",
                                                          "september", "october", "november", "december"};

int month_from_name(const std::string& word) {
    const std::string w = ascii_lower(word);
    if (w == "sept") return 9;
    for (int i = 0; i < 12; ++i) {
        // Either the 3-letter abbreviation or the full name.
        if (w == kMonthNames[i] || (w.size() == 3 && kMonthNames[i].substr(0, 3) == w)) return i + 1;
    }
    return 0;
}

// The month of an abbreviation that OCR damaged (priority-10 patterns of scan): digit look-alikes read as letters
// (0 -> O, 1 -> L, 5 -> S, 6 -> G, 8 -> B: "FE8", "0CT", "AU6"), then the month whose 3-letter abbreviation it is,
// or, for two letters (one lost: "AP", "AU", "UL", "SE"), the only month whose abbreviation holds both in order. 0
// when none or several hold them ("JU": June or July; "MA", "AR", "JN"), or when the token is mostly digits.
int month_from_damaged_name(const std::string& token) {
    if (token.size() < 2 || token.size() > 3) return 0;
    std::string w;
    int letters = 0;
    for (const char c : token) {
        const char lower = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        if (lower >= 'a' && lower <= 'z') {
            ++letters;
            w += lower;
            continue;
        }
        static constexpr std::string_view kDigits = "01568", kLetters = "olsgb";
        const size_t at = kDigits.find(c);
        if (at == std::string_view::npos) return 0;
        w += kLetters[at];
    }
    if (letters * 2 < static_cast<int>(token.size()) + 1) return 0;  // "AU6", "FE8" yes; "0C", "8O8" no
    if (w.size() == 3) return month_from_name(w);
    int found = 0;
    for (int m = 1; m <= 12; ++m) {
        const std::string_view abbr = kMonthNames[m - 1].substr(0, 3);
        const size_t first = abbr.find(w[0]);
        if (first == std::string::npos || abbr.find(w[1], first + 1) == std::string::npos) continue;
        if (found) return 0;
        found = m;
    }
    return found;
}

// All-numeric a<sep>b<sep>c: the valid readings, the one picked from digit counts and hints first, then the
// other orders.
std::vector<Ymd> numeric_readings(const std::string& a, const std::string& b, const std::string& c,
                                  const DateHints& hints) {
    if (a.size() == 3 || c.size() == 3) return {};
    if (a.size() == 4) {
        if (c.size() > 2) return {};
        const Ymd v{to_int(a), to_int(b), to_int(c)};
        return is_valid(v) ? std::vector<Ymd>{v} : std::vector<Ymd>{};
    }
    const int ia = to_int(a), ib = to_int(b);
    const int yc = expand_year(c);
    const Ymd dmy{yc, ib, ia}, mdy{yc, ia, ib};
    std::vector<Ymd> order;
    if (c.size() == 4) {
        order = hints.month_first ? std::vector<Ymd>{mdy, dmy} : std::vector<Ymd>{dmy, mdy};
    } else {
        const Ymd ymd{expand_year(a), ib, to_int(c)};
        if (hints.japanese) {
            // Japanese receipts print the year first, with two digits at least; "8-27-16" and "1-4-1" on a
            // Japanese line are house numbers (大久保8-27-16, 八丁堀1-4-1).
            if (a.size() != 2) return {};
            order = {ymd};
        } else {
            // A one-digit year is one OCR cut short ("06/11/1" for 06/11/17, "0-04-18" for 03-04-18): such a date
            // has no reading (a day of one digit at the end is read year first only on Japanese receipts).
            if (c.size() < 2) return {};
            order = hints.month_first ? std::vector<Ymd>{mdy, dmy} : std::vector<Ymd>{dmy, mdy};
            if (a.size() >= 2) order.push_back(ymd);
        }
    }
    std::vector<Ymd> valid;
    for (const Ymd& v : order) {
        const bool seen = std::any_of(valid.begin(), valid.end(),
                                      [&](const Ymd& u) { return u.y == v.y && u.m == v.m && u.d == v.d; });
        if (is_valid(v) && !seen) valid.push_back(v);
    }
    return valid;
}

// Runs `re` over `s`; for each match, `convert` turns the match into a date (or nullopt). The date's position
// is that of capture group `pos_group`.
template <typename Convert>
void collect(const std::string& s, const std::regex& re, int priority, int pos_group, Convert convert,
             std::vector<Candidate>& out) {
    for (auto it = std::sregex_iterator(s.begin(), s.end(), re); it != std::sregex_iterator(); ++it) {
        const std::smatch& m = *it;
        if (auto v = convert(m))
            out.push_back({static_cast<size_t>(m.position(pos_group)), priority, *v,
                           static_cast<size_t>(m.position(0) + m.length(0))});
    }
}

std::string iso(const Ymd& v) {
    char buf[32];
    std::snprintf(buf, sizeof(buf), "%04d-%02d-%02d", v.y, v.m, v.d);
    return buf;
}

// Every date of the (folded, at most kMaxDateBytes) text `s`, in pattern order. An all-numeric date gives its
// preferred reading, or with `all_readings` each valid reading (preferred first, same position).
std::vector<Candidate> scan(const std::string& s, DateHints hints, bool all_readings) {
    if (has_cjk(s)) hints.japanese = true;

    // Patterns run on the folded text; multi-byte literals are plain byte sequences, never inside [].
    static const std::regex kEraKanji(
        "(\xE4\xBB\xA4\xE5\x92\x8C|\xE5\xB9\xB3\xE6\x88\x90|\xE6\x98\xAD\xE5\x92\x8C|\xE5\xA4\xA7\xE6\xAD\xA3)"
        "\\s*(\xE5\x85\x83|\\d{1,2})\\s*\xE5\xB9\xB4\\s*(\\d{1,2})\\s*\xE6\x9C\x88\\s*(\\d{1,2})(?!\\d)");
    static const std::regex kEraLetter(
        "(^|[^A-Za-z])([RHST])\\s*(\xE5\x85\x83|\\d{1,2})\\s*(?:[./-]|\xE5\xB9\xB4)\\s*(\\d{1,2})\\s*"
        "(?:[./-]|\xE6\x9C\x88)\\s*(\\d{1,2})(?!\\d)");
    static const std::regex kKanji(
        "(^|\\D)(\\d{4}|\\d{2})\\s*\xE5\xB9\xB4\\s*(\\d{1,2})\\s*\xE6\x9C\x88\\s*(\\d{1,2})(?!\\d)");
    // Not before ':' either: "20/09/2013:26" is a date and a time that OCR ran together, not 2013-09-20.
    static const std::regex kNumeric("(^|[^\\d.,])(\\d{1,4})\\s*([./-])\\s*(\\d{1,2})\\s*\\3\\s*(\\d{1,4})(?![\\d:])");
    static const std::regex kDayMonthName(
        "(^|[^\\dA-Za-z])(\\d{1,2})(?:st|nd|rd|th)?[\\s./-]*([A-Za-z]{3,9})\\.?[\\s./,-]*(\\d{4}|\\d{2})(?!\\d)");
    static const std::regex kMonthNameDay(
        "(^|[^A-Za-z])([A-Za-z]{3,9})\\.?[\\s./-]*(\\d{1,2})(?:st|nd|rd|th)?(?:\\s*,\\s*|[\\s./-]+)(\\d{4}|\\d{2})"
        "(?!\\d)");
    static const std::regex kCompact("(^|\\D)(\\d{4})(\\d{2})(\\d{2})(?!\\d)");
    // "202412月1日": a Japanese date whose 年 OCR dropped (a four-digit year 19xx / 20xx, then month 月 day 日).
    static const std::regex kKanjiNoYearMark(
        "(^|\\D)((?:19|20)\\d{2}) ?(\\d{1,2})\\s*\xE6\x9C\x88\\s*(\\d{1,2})\\s*\xE6\x97\xA5");
    // "令和36月1日": a 令和 date whose 年 OCR dropped, known by the two digits after the era that are no month
    // (the era year is one digit: 令和 began in 2019).
    static const std::regex kReiwaNoYearMark(
        "\xE4\xBB\xA4\xE5\x92\x8C\\s*([1-9]\\d{1,2})\\s*\xE6\x9C\x88\\s*(\\d{1,2})(?!\\d)");
    // "2025年213日": a Japanese date whose 月 OCR dropped (a four-digit year 19xx / 20xx and 年, then three or four
    // digits before 日), read where exactly one split of the digits is a valid month and day ("213" is 2-13, 21-3
    // being no month; "123" is 1-23 or 12-3, unknown).
    static const std::regex kKanjiNoMonthMark(
        "(^|\\D)((?:19|20)\\d{2})\\s*\xE5\xB9\xB4\\s*(\\d{3,4})\\s*\xE6\x97\xA5");
    // "202101/01", "2021/0101": a year-first date with one of its separators lost (a four-digit year 19xx / 20xx,
    // two-digit month and day).
    static const std::regex kYearMonthRun("(^|\\D)((?:19|20)\\d{2})(\\d{2})([./-])(\\d{2})(?![\\d:])");
    static const std::regex kMonthDayRun("(^|\\D)((?:19|20)\\d{2})([./-])(\\d{2})(\\d{2})(?![\\d:])");
    // "2207/03", "22/0703": the same with a two-digit year (20yy) and '/' or '.', on a Japanese line that starts with
    // it and no further separator after it (elsewhere such digits are a number; "03-1024-6846" is a phone number).
    static const std::regex kShortYearMonthRun("(^\\s*)(\\d{2})(\\d{2})([./])(\\d{2})(?![\\d:./-])");
    static const std::regex kShortMonthDayRun("(^\\s*)(\\d{2})([./])(\\d{2})(\\d{2})(?![\\d:./-])");
    // "7/122021", "2105/2023": a date with its year last and one of its separators lost (day or month of one or two
    // digits, two-digit month or day, four-digit year 19xx / 20xx) that starts its line (elsewhere such digits are
    // a number: "INV 1105/2023"), read in the hints' order: evidence for printed_dates only (all_readings), not a
    // date normalize_date reports or reorders by region. Not on Japanese lines.
    static const std::regex kMonthYearRun("(^[^\\dA-Za-z]{0,2})(\\d{1,2})([./-])(\\d{2})((?:19|20)\\d{2})(?![\\d:])");
    static const std::regex kDayMonthRun("(^[^\\dA-Za-z]{0,2})(\\d{2})(\\d{2})([./-])((?:19|20)\\d{2})(?![\\d:])");

    // "26 AP 2023", "13 FE8 2022", "AU6 28, 2023": a month abbreviation OCR damaged (month_from_damaged_name),
    // with a day and a four-digit year 19xx / 20xx around it.
    static const std::regex kDayDamagedMonth(
        "(^|[^\\dA-Za-z])(\\d{1,2})[\\s./-]+([A-Za-z0-9]{2,3})\\.?[\\s./,-]+((?:19|20)\\d{2})(?!\\d)");
    static const std::regex kDamagedMonthDay(
        "(^|[^\\dA-Za-z])([A-Za-z0-9]{2,3})\\.?[\\s./-]+(\\d{1,2})(?:\\s*,\\s*|[\\s./-]+)((?:19|20)\\d{2})(?!\\d)");

    std::vector<Candidate> found;
    collect(
        s, kEraKanji, 0, 1, [](const std::smatch& m) { return from_era(m[1], m[2], m[3], m[4]); }, found);
    collect(
        s, kEraLetter, 1, 2, [](const std::smatch& m) { return from_era(m[2], m[3], m[4], m[5]); }, found);
    collect(
        s, kKanji, 2, 2,
        [](const std::smatch& m) -> std::optional<Ymd> {
            const Ymd v{expand_year(m[2]), to_int(m[3]), to_int(m[4])};
            return is_valid(v) ? std::optional<Ymd>(v) : std::nullopt;
        },
        found);
    for (auto it = std::sregex_iterator(s.begin(), s.end(), kNumeric); it != std::sregex_iterator(); ++it) {
        const std::smatch& m = *it;
        const std::vector<Ymd> readings = numeric_readings(m[2], m[4], m[5], hints);
        for (size_t r = 0; r < readings.size() && (all_readings || r == 0); ++r)
            found.push_back({static_cast<size_t>(m.position(2)), 3, readings[r],
                             static_cast<size_t>(m.position(0) + m.length(0))});
    }
    collect(
        s, kDayMonthName, 4, 2,
        [](const std::smatch& m) -> std::optional<Ymd> {
            const Ymd v{expand_year(m[4]), month_from_name(m[3]), to_int(m[2])};
            return is_valid(v) ? std::optional<Ymd>(v) : std::nullopt;
        },
        found);
    collect(
        s, kMonthNameDay, 5, 2,
        [](const std::smatch& m) -> std::optional<Ymd> {
            const Ymd v{expand_year(m[4]), month_from_name(m[2]), to_int(m[3])};
            return is_valid(v) ? std::optional<Ymd>(v) : std::nullopt;
        },
        found);
    collect(
        s, kCompact, 6, 2,
        [](const std::smatch& m) -> std::optional<Ymd> {
            const Ymd v{to_int(m[2]), to_int(m[3]), to_int(m[4])};
            return is_valid(v) && v.y >= 1990 ? std::optional<Ymd>(v) : std::nullopt;
        },
        found);
    collect(
        s, kKanjiNoYearMark, 7, 2,
        [](const std::smatch& m) -> std::optional<Ymd> {
            const Ymd v{to_int(m[2]), to_int(m[3]), to_int(m[4])};
            return is_valid(v) ? std::optional<Ymd>(v) : std::nullopt;
        },
        found);
    collect(
        s, kReiwaNoYearMark, 8, 1,
        [](const std::smatch& m) -> std::optional<Ymd> {
            const std::string digits = m[1].str();      // "36": era year 3, month 6
            if (to_int(digits) <= 12) return std::nullopt;  // "令和11月1日": the era year or its 年 lost, unknown
            return from_era("\xE4\xBB\xA4\xE5\x92\x8C", digits.substr(0, 1), digits.substr(1), m[2]);
        },
        found);
    if (!hints.japanese && all_readings)
        for (const std::regex* re : {&kMonthYearRun, &kDayMonthRun})
            for (auto it = std::sregex_iterator(s.begin(), s.end(), *re); it != std::sregex_iterator(); ++it) {
                const std::smatch& m = *it;
                // Groups: day / month 2 and 4, year 5 (separator 3), or 2 and 3 (separator 4).
                const std::vector<Ymd> readings =
                    numeric_readings(m[2], re == &kMonthYearRun ? m[4] : m[3], m[5], hints);
                for (const Ymd& v : readings)  // every reading: printed_dates is all_readings
                    found.push_back({static_cast<size_t>(m.position(2)), 12, v,
                                     static_cast<size_t>(m.position(0) + m.length(0))});
            }
    for (const std::regex* re : {&kYearMonthRun, &kMonthDayRun, &kShortYearMonthRun, &kShortMonthDayRun}) {
        const bool short_year = re == &kShortYearMonthRun || re == &kShortMonthDayRun;
        if (short_year && !hints.japanese) continue;
        collect(
            s, *re, 9, 2,
            [re, short_year](const std::smatch& m) -> std::optional<Ymd> {
                // Groups: year 2, then month 3 and day 5 (separator 4), or month 4 and day 5 (separator 3).
                const bool year_month_run = re == &kYearMonthRun || re == &kShortYearMonthRun;
                const Ymd v{(short_year ? 2000 : 0) + to_int(m[2]), to_int(year_month_run ? m[3] : m[4]), to_int(m[5])};
                return is_valid(v) ? std::optional<Ymd>(v) : std::nullopt;
            },
            found);
    }
    collect(
        s, kKanjiNoMonthMark, 11, 2,
        [](const std::smatch& m) -> std::optional<Ymd> {
            const std::string digits = m[3].str();
            std::optional<Ymd> only;
            for (size_t k = 1; k <= 2; ++k) {  // the month's digits
                if (digits.size() - k > 2 || digits.size() - k < 1) continue;
                const Ymd v{to_int(m[2]), to_int(digits.substr(0, k)), to_int(digits.substr(k))};
                if (!is_valid(v)) continue;
                if (only) return std::nullopt;  // two readings
                only = v;
            }
            return only;
        },
        found);
    for (const std::regex* re : {&kDayDamagedMonth, &kDamagedMonthDay})
        collect(
            s, *re, 10, 2,
            [re](const std::smatch& m) -> std::optional<Ymd> {
                const bool day_first = re == &kDayDamagedMonth;
                const Ymd v{to_int(m[4]), month_from_damaged_name(day_first ? m[3] : m[2]),
                            to_int(day_first ? m[2] : m[3])};
                return is_valid(v) ? std::optional<Ymd>(v) : std::nullopt;
            },
            found);
    // The first date printed first; at the same position the more specific pattern first (stable: the readings
    // of one numeric date keep their order).
    std::stable_sort(found.begin(), found.end(), [](const Candidate& a, const Candidate& b) {
        return a.pos != b.pos ? a.pos < b.pos : a.priority < b.priority;
    });
    return found;
}

}  // namespace date_scan

using namespace date_scan;

std::optional<std::string> normalize_date(std::string_view text, const DateHints& hints) try {
    const std::vector<Candidate> found =
        scan(fold_fullwidth(sanitize_utf8(utf8_prefix(text, kMaxDateBytes))), hints, false);
    if (found.empty()) return std::nullopt;
    return iso(found.front().ymd);
} catch (...) {
    return std::nullopt;  // std::regex may throw (complexity / stack); treat as "no date"
}

bool japanese_address_line(std::string_view line) {
    for (const char* k : {"都", "道", "府", "県", "市", "区", "町", "村", "丁目", "番地", "〒"})
        if (line.find(k) != std::string::npos) return true;
    return false;
}

namespace {

// `line` with an OCR digit look-alike read as a digit where it stands between date marks or a digit and a date
// mark ("2022年11月I日" -> "2022年11月1日"), an era name counting as one ("令和b年" -> "令和6年");
// read_digit_confusions reads those next to a digit already.
std::string read_date_mark_confusions(std::string line) {
    auto mark_before = [&](size_t i) {
        return (i >= 1 && line[i - 1] >= '0' && line[i - 1] <= '9') ||
               (i >= 3 && (line.compare(i - 3, 3, "年") == 0 || line.compare(i - 3, 3, "月") == 0)) ||
               (i >= 6 && (line.compare(i - 6, 6, "令和") == 0 || line.compare(i - 6, 6, "平成") == 0));
    };
    auto mark_after = [&](size_t i) {
        return (i + 1 < line.size() && line[i + 1] >= '0' && line[i + 1] <= '9') ||
               line.compare(i + 1, 3, "年") == 0 || line.compare(i + 1, 3, "月") == 0 ||
               line.compare(i + 1, 3, "日") == 0;
    };
    for (size_t i = 0; i < line.size(); ++i)
        if (const char d = confusion_digit(line[i]); d && mark_before(i) && mark_after(i)) line[i] = d;
    return line;
}

// `line` with the era name 令和 put back whole where OCR dropped one of its two characters before an era year
// ("和4年1月16日", "令4年1月16日" -> "令和4年1月16日"): 和 not after 令 or 昭 (no receipt prints a 昭和 date), or 令
// not before 和, then the year (元 or one or two digits) and 年.
std::string reiwa_mark_restored(const std::string& line) {
    static const std::regex kYearAfter("^\\s*(\xE5\x85\x83|\\d{1,2})\\s*\xE5\xB9\xB4");
    const std::string rei = "令", wa = "和";
    std::string out;
    for (size_t i = 0; i < line.size();) {
        const bool is_wa = line.compare(i, wa.size(), wa) == 0, is_rei = line.compare(i, rei.size(), rei) == 0;
        if (is_wa || is_rei) {
            const size_t after = i + 3;
            const bool lone = is_wa ? !(i >= 3 && (line.compare(i - 3, 3, rei) == 0 || line.compare(i - 3, 3, "昭") == 0))
                                    : line.compare(after, wa.size(), wa) != 0;
            if (lone && std::regex_search(line.begin() + std::ptrdiff_t(after), line.end(), kYearAfter)) {
                out += rei + wa;
                i = after;
                continue;
            }
        }
        out += line[i++];
    }
    return out;
}

}  // namespace

std::string date_apart_from_time(const std::string& line) {
    static const std::regex kRun("((?:19|20)\\d{2}[./-]\\d{1,2}[./-]\\d{2})(\\d{1,2}(?::|\xE6\x99\x82)\\d{2})");
    // A two-digit year with a time in 時 and 分 ("21/09/0210時01分"): the marks end the time, so its hour is what
    // follows the two-digit day.
    static const std::regex kShortYearRun("(\\d{2}[./-]\\d{2}[./-]\\d{2})(\\d{1,2}\xE6\x99\x82\\d{1,2}\xE5\x88\x86)");
    try {
        if (line.find("\xE6\x99\x82") != std::string::npos)
            return std::regex_replace(std::regex_replace(line, kRun, "$1 $2"), kShortYearRun, "$1 $2");
        return std::regex_replace(line, kRun, "$1 $2");
    } catch (...) {
        return line;
    }
}

namespace {

// `text` with a line that holds only a day (one or two digits) joined to the next line when that one starts with a
// month's name, whole or damaged, and a year ("18" / "AUG 2016 19:54" -> "18 AUG 2016 19:54", "27" / "SE Z023"):
// OCR put the day in a box of its own.
std::string day_lines_joined(std::string_view text) {
    static const std::regex day(R"(^\s*\d{1,2}\s*$)");
    static const std::regex month_year(R"(^\s*[A-Za-z]{2,9}\.?[\s,]+[0-9A-Za-z]?[0-9OoZzIlSsBbg]{3}\b)");
    std::vector<std::string> lines = split_lines(std::string(text.substr(0, 64 * kMaxDateBytes)));
    std::string out;
    for (size_t i = 0; i < lines.size(); ++i) {
        const bool joined = i + 1 < lines.size() && lines[i].size() <= 8 && lines[i + 1].size() <= kMaxDateBytes &&
                            std::regex_match(lines[i], day) && std::regex_search(lines[i + 1], month_year);
        if (i) out += '\n';
        out += joined ? trim(lines[i]) : lines[i];
        if (joined) out.append(" ").append(lines[i + 1]);
        i += joined;
    }
    return out;
}

}  // namespace

std::vector<std::string> printed_dates(std::string_view text, const DateHints& hints) {
    std::vector<std::string> out;
    const std::string joined = has_cjk(text) ? std::string(text) : day_lines_joined(text);
    for_each_line_reading(joined, kMaxDateBytes, [&](const std::string& printed) {
        // "2023ー03-13": a dash look-alike between digits is a date separator.
        const std::string line =
            read_date_mark_confusions(reiwa_mark_restored(fold_dashes(date_apart_from_time(printed), true)));
        const bool address = japanese_address_line(line);
        // A date right before an OCR look-alike that reads as a digit ("2024/03/2g(金)") is a piece of the date
        // that the look-alike reading gives whole (2024-03-29), not also a date of its own (2024-03-02).
        const std::string read = read_digit_confusions(line);
        for (const Candidate& c : scan(line, hints, true)) {
            if (address && c.priority == 3) continue;
            if (c.end < line.size() && read.size() == line.size() && read[c.end] != line[c.end]) continue;
            const std::string d = iso(c.ymd);
            if (std::find(out.begin(), out.end(), d) == out.end()) out.push_back(d);
        }
    });
    return out;
}

std::vector<std::string> labelled_dates(std::string_view text) {
    std::string labelled;  // the label lines and the line after each, in order
    bool take_next = false;
    for (const std::string& line : split_lines(text)) {
        const std::string lower = ascii_lower(line);
        const bool label = lower.find("date") != std::string::npos || lower.find("tarikh") != std::string::npos ||
                           line.find("日付") != std::string::npos || line.find("日時") != std::string::npos;
        if (label || take_next) labelled += line + "\n";
        take_next = label;
    }
    return printed_dates(labelled);
}

std::optional<std::string> sole_printed_date(std::string_view text, const DateHints& hints) {
    std::optional<std::string> found;
    for (const std::string& line : split_lines(text)) {
        const std::vector<std::string> dates = printed_dates(line, hints);
        if (!dates.empty()) {
            if (found) return std::nullopt;  // a second date line
            found = dates.front();
        }
    }
    return found;
}

std::optional<int> printed_weekday(std::string_view text) {
    static const char* const kDays[] = {"日", "月", "火", "水", "木", "金", "土"};
    std::optional<int> found;
    for (int d = 0; d < 7; ++d) {
        const std::string day = kDays[d];
        // Also "(金" before a space or the line end: the closing bracket lost ("2024/03/29(金 12:50").
        for (const std::string& form : {"(" + day + ")", "（" + day + "）", day + "曜日", day + "曜", "(" + day + " ",
                                        "(" + day + "\n"}) {
            if (text.find(form) == std::string_view::npos &&
                !(form.back() == '\n' && text.ends_with(std::string_view(form).substr(0, form.size() - 1))))
                continue;
            if (found && *found != d) return std::nullopt;
            found = d;
        }
    }
    return found;
}

std::optional<int> weekday_of(const std::string& iso) {
    int y = 0, m = 0, d = 0;
    if (iso.size() != 10 || std::sscanf(iso.c_str(), "%4d-%2d-%2d", &y, &m, &d) != 3) return std::nullopt;
    static const int kDaysIn[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    const bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    if (y < 1 || m < 1 || m > 12 || d < 1 || d > kDaysIn[m - 1] + (m == 2 && leap)) return std::nullopt;
    // Sakamoto's method: the Gregorian weekday, 0 = Sunday.
    static const int kT[] = {0, 3, 2, 5, 0, 3, 5, 1, 4, 6, 2, 4};
    const int yy = m < 3 ? y - 1 : y;
    return (yy + yy / 4 - yy / 100 + yy / 400 + kT[m - 1] + d) % 7;
}

}  // namespace receipt::extract
