// Whether a receipt prints a date or a time at all (extract/date_evidence.h).
#include "extract/date_evidence.h"

#include <regex>
#include <string>

#include "extract/normalize_date.h"
#include "extract/normalize_time.h"
#include "extract/ocr_digits.h"
#include "extract/utf8.h"

namespace receipt::extract {

namespace {

constexpr size_t kMaxLineBytes = 200;  // bytes of a line looked at, as the date readers do

// `text` with every line longer than kMaxLineBytes cut into pieces of at most kMaxLineBytes that overlap by
// kOverlapBytes, each on a line of its own, cut between UTF-8 characters: some OCR results put a whole receipt on
// one line, and the readers look at a line's first kMaxLineBytes only.
std::string in_short_lines(std::string_view text) {
    constexpr size_t kOverlapBytes = 50;
    std::string out;
    for (const std::string& line : split_lines(text)) {
        size_t i = 0;
        do {
            const std::string_view piece = utf8_prefix(std::string_view(line).substr(i), kMaxLineBytes);
            out.append(piece).push_back('\n');
            if (i + piece.size() >= line.size() || piece.size() <= kOverlapBytes) break;
            i += piece.size() - kOverlapBytes;
            while (i < line.size() && (static_cast<unsigned char>(line[i]) & 0xC0) == 0x80) ++i;  // a character's start
        } while (i < line.size());
    }
    return out;
}

// True when fn(line) holds for some reading of some line of `text` (for_each_line_reading).
template <typename Fn>
bool any_line_reading(std::string_view text, Fn&& fn) {
    bool found = false;
    for_each_line_reading(text, kMaxLineBytes, [&](const std::string& line) {
        if (!found && fn(line)) found = true;
    });
    return found;
}

}  // namespace

bool prints_date_like(std::string_view whole) {
    try {
        const std::string text = in_short_lines(whole);
        if (!printed_dates(text).empty()) return true;
        // Two separators between digit groups, the first group non-empty: "24//12", "23/0/12", "27-01-16",
        // "20-04ー19" (a long-vowel mark or minus sign for the dash), or without the first ("OZ-01-21"); or a day, a
        // comma and what is left of a year ("Sp 4, 201").
        static const std::regex separated(
            R"(\d{1,4}([/.\-]|ー|−)\d{0,2}([/.\-]|ー|−)\d|[/\-]\d{1,2}[/\-]\d\d|\d, ?20\d)");
        // One slash between digits, starting the line ("15/0524", "18/20", "2303/26", "S/31/18"); in the middle of
        // a line it is a street number ("JALAN SS 2/24").
        static const std::regex slash_first(R"(^[^A-Za-z0-9]{0,2}[A-Za-z]?/?\d{1,4}/\d)");
        static const std::regex kanji(R"(\d ?(年|月|日)|(年|月) ?\d|令和|平成|昭和|曜日|\((月|火|水|木|金|土|日)\))");
        // A month's name or abbreviation as a word ("MARKET" is none) beside a digit: "12 DEC", "MAY 10", "30AUG".
        static const std::string months =
            "(jan(uary)?|feb(ruary)?|mar(ch)?|apr(il)?|may|june?|july?|aug(ust)?|sept?(ember)?|oct(ober)?|"
            "nov(ember)?|dec(ember)?)";
        static const std::regex month("(^|[^a-z])" + months + "(?![a-z]) ?\\d", std::regex::icase);
        static const std::regex digit_month("\\d ?" + months + "(?![a-z])", std::regex::icase);
        // A year standing alone ("SE Z023"): not an amount's digits, not a masked card number's last four.
        static const std::regex year(R"((^|[^\d.,*])20[0-3]\d(?![\d]|[.,]\d))");
        const bool japanese = has_cjk(text);
        return any_line_reading(text, [&](const std::string& line) {
            if (std::regex_search(line, kanji) || std::regex_search(line, month) ||
                std::regex_search(line, digit_month))
                return true;
            if (japanese_address_line(line)) return false;  // house numbers "3-24-16", postcodes
            // Separated digits right after a letter of another script are a house number ("経堂3-19-20"): the
            // byte before the run of digits and separators that holds the match is not ASCII.
            for (std::sregex_iterator it(line.begin(), line.end(), separated), end; it != end; ++it) {
                size_t p = size_t(it->position(0));
                while (p > 0 && (is_ascii_digit(line[p - 1]) || line[p - 1] == '-' || line[p - 1] == '/' ||
                                 line[p - 1] == '.'))
                    --p;
                if (p == 0 || static_cast<unsigned char>(line[p - 1]) < 0x80) return true;
            }
            if (std::regex_search(line, slash_first)) return true;
            // A Japanese receipt prints its year with 年 or in a separated date; a lone number there is an amount.
            return !japanese && std::regex_search(line, year);
        });
    } catch (...) {  // std::regex giving up: say printed, which keeps the model's date
        return true;
    }
}

bool prints_time_like(std::string_view whole) {
    try {
        const std::string text = in_short_lines(whole);
        if (!printed_times(text).empty()) return true;
        static const std::regex colon(
            R"(\d ?[:;] ?\d|[:;]\d\d[:;]\d\d|\d ?(時|分)|午前|午後|\d ?[AP]\.? ?M|)"
            R"((^|[^A-Z])(TIME|JAM|WAKTU|時刻)[^A-Z0-9]{0,3}\d)",
            std::regex::icase);
        if (any_line_reading(text, [&](const std::string& line) { return std::regex_search(line, colon); }))
            return true;
        // Three or four digits alone on the line after a date line: a time that lost its colon ("1g46"); a time
        // label ending its line before a line that starts with a digit ("TIME" / "12 31 00", "DATE/TIME" / ":
        // 20180428/191204").
        static const std::regex lone(R"(^\s*\d{3,4}\s*$)");
        static const std::regex label_alone(R"((^|[^A-Z])(TIME|JAM|WAKTU|時刻)\W*$)", std::regex::icase);
        static const std::regex digit_first(R"(^[^A-Za-z0-9]*\d)");
        const std::vector<std::string> lines = split_lines(text);
        for (size_t i = 1; i < lines.size(); ++i) {
            const std::string line = read_digit_confusions(std::string(utf8_prefix(lines[i], kMaxLineBytes)));
            const std::string before(utf8_prefix(lines[i - 1], kMaxLineBytes));
            if (std::regex_search(line, lone) && prints_date_like(before)) return true;
            if (std::regex_search(line, digit_first) && std::regex_search(before, label_alone)) return true;
        }
        return false;
    } catch (...) {
        return true;
    }
}

}  // namespace receipt::extract
