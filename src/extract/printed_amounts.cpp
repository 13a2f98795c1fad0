// Numbers as printed on receipt lines (extract/printed_amounts.h).
#include "extract/printed_amounts.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <regex>

#include "extract/name_constraint.h"
#include "extract/ocr_digits.h"
#include "extract/utf8.h"

namespace receipt::extract {

std::vector<PrintedNumber> printed_numbers(const std::string& s) {
    std::vector<PrintedNumber> out;
    for (size_t i = 0; i < s.size();) {
        if (!is_ascii_digit(s[i]) || (i > 0 && (is_ascii_digit(s[i - 1]) || s[i - 1] == '.' || s[i - 1] == ','))) {
            ++i;
            continue;
        }
        PrintedNumber n;
        n.begin = i;
        std::string digits;
        size_t j = i;
        // A yen amount ("¥1.580", "\\2.480", "1.580円") has no decimals: a '.' before three digits is its thousands
        // comma as OCR read it.
        const bool yen_sign = (i >= 1 && s[i - 1] == '\\') || (i >= 2 && s.compare(i - 2, 2, "\xC2\xA5") == 0);
        auto group_of_three = [&](size_t at) {
            return at + 3 < s.size() && is_ascii_digit(s[at + 1]) && is_ascii_digit(s[at + 2]) &&
                   is_ascii_digit(s[at + 3]) && (at + 4 >= s.size() || !is_ascii_digit(s[at + 4]));
        };
        auto yen_after = [&](size_t at) {  // the '.' group at `at` ends the number and 円 follows
            return group_of_three(at) && s.compare(at + 4, 3, "円") == 0;
        };
        while (j < s.size()) {
            if (is_ascii_digit(s[j])) {
                digits += s[j++];
            } else if (s[j] == ',' && group_of_three(j)) {
                j += 1;  // thousands separator: exactly three digits follow
            } else if (s[j] == '.' && digits.size() <= 3 && j - i == digits.size() && group_of_three(j) &&
                       (yen_sign || yen_after(j))) {
                j += 1;  // "¥1.580": one '.' as the thousands separator of a yen amount
            } else {
                break;
            }
        }
        size_t int_digits = digits.size();
        if (j + 2 < s.size() && s[j] == '.' && is_ascii_digit(s[j + 1]) && is_ascii_digit(s[j + 2]) &&
            (j + 3 >= s.size() || !is_ascii_digit(s[j + 3]))) {
            digits += '.';
            digits += s.substr(j + 1, 2);
            n.cents = true;
            j += 3;
        } else if (j + 1 < s.size() && s[j] == '.' && is_ascii_digit(s[j + 1])) {
            // one or 3+ decimals: a rate ("8.875%") or not an amount
            size_t k = j + 1;
            while (k < s.size() && is_ascii_digit(s[k])) ++k;
            digits += s.substr(j, k - j);
            n.usable = false;
            j = k;
        }
        n.end = j;
        n.value = std::strtod(digits.c_str(), nullptr);
        size_t k = j;
        while (k < s.size() && s[k] == ' ') ++k;
        n.percent = k < s.size() && s[k] == '%';
        const char before = i > 0 ? s[i - 1] : ' ';
        const char after = j < s.size() ? s[j] : ' ';
        if (before == '-' || before == '#' || before == ':' || before == '/' || after == ':' || after == '/' ||
            after == '-' || int_digits > 9)
            n.usable = false;
        // A broken thousands group ("8,75" of 8,745 with a digit lost) is no amount.
        if ((after == ',' || after == '.') && j + 1 < s.size() && is_ascii_digit(s[j + 1])) n.usable = false;
        // A count: "(18点)", "2個", "3品", "248P" (points).
        for (const char* unit : {"点", "個", "品", "P"})
            if (s.compare(k, std::string(unit).size(), unit) == 0) n.usable = false;
        out.push_back(n);
        i = j;
    }
    return out;
}

std::optional<double> broken_group_amount(const std::string& box) {
    static const std::regex broken(R"(^(¥|\\)?(\d{1,3}),(\d{1,2})(円)?(軽|※|\*)?$)");
    std::smatch m;
    if (box.size() > 200 || !std::regex_match(box, m, broken)) return std::nullopt;  // a box is short
    return std::stod(m[2].str() + m[3].str());
}

int printed_count(const std::vector<std::string>& lines, size_t from, double value) {
    int count = 0;
    for (size_t i = from; i < lines.size(); ++i)
        for (const PrintedNumber& n : printed_numbers(lines[i]))
            count += n.usable && !n.percent && std::fabs(n.value - value) < 0.005;
    return count;
}

std::optional<double> amount_on_or_below(const std::vector<std::string>& lines, size_t i, size_t at, NextLine next) {
    for (const PrintedNumber& n : printed_numbers(lines[i]))
        if (n.begin >= at && n.usable && !n.percent) return n.value;
    if (i + 1 >= lines.size()) return std::nullopt;
    const std::string& below = lines[i + 1];
    const std::vector<PrintedNumber> nums = printed_numbers(below);
    if (nums.size() != 1 || !nums[0].usable || nums[0].percent) return std::nullopt;
    if (next == NextLine::kOneNumber) return nums[0].value;
    const std::string rest = strip_spaces(below.substr(0, nums[0].begin) + below.substr(nums[0].end));
    for (const char* ok : {"", "\\", "\xC2\xA5", "円", "-"})
        if (rest == ok) return nums[0].value;
    return std::nullopt;
}

std::vector<std::string> printed_lines_as_is(const std::string& text) {
    std::vector<std::string> lines = split_lines(text);
    for (std::string& line : lines) {
        try {
            line = fold_fullwidth(sanitize_utf8(line));
        } catch (...) {
            line.clear();
        }
    }
    return lines;
}

std::vector<std::string> printed_lines(const std::string& text) {
    std::vector<std::string> lines = printed_lines_as_is(text);
    for (std::string& line : lines) line = read_sign_confusions(read_digit_confusions(line));
    return lines;
}

namespace {

// `line` with a bare count of 1-3 digits in parentheses, "(45)" or "( 45 )", read as the item count it is on a
// subtotal line ("(45点)", which printed_numbers does not take for an amount): OCR lost its 点.
std::string with_lost_count_unit(const std::string& line) {
    static const std::regex bare_count(R"(\(\s*(\d{1,3})\s*\))");
    if (line.size() > 200) return line;  // bounds std::regex's recursion
    return std::regex_replace(line, bare_count, "($1点)");
}

// The first usable non-rate number after the first line holding one of `keys` (ASCII keys matched in any case) and
// none of `not_keys`: on that line after the key, or on the next kTotalAmountLines lines. `found_key` tells
// whether such a line exists.
std::optional<double> amount_after_key(const std::vector<std::string>& lines, std::initializer_list<const char*> keys,
                                       std::initializer_list<const char*> not_keys, bool* found_key) {
    if (found_key) *found_key = false;
    for (size_t li = 0; li < lines.size(); ++li) {
        // OCR may put the two characters of a keyword in two boxes ("合" / "計 \1,904", "小" / "計"): the line
        // is read with the one-character line above it in front, the key ending on this line.
        std::string upper = ascii_upper(lines[li]);
        size_t split = 0;  // bytes put in front of the line
        if (li > 0 && upper.rfind("計", 0) == 0)
            for (const char* head : {"合", "小"})
                if (strip_spaces(lines[li - 1]) == head) {
                    upper = head + upper;
                    split = std::string(head).size();
                }
        bool excluded = false;
        for (const char* k : not_keys) excluded |= upper.find(k) != std::string::npos;
        if (excluded) continue;
        size_t at = std::string::npos;
        for (const char* k : keys)
            if (const size_t p = upper.find(k); p != std::string::npos) at = std::min(at, p + std::string(k).size());
        if (at == std::string::npos) continue;
        if (found_key) *found_key = true;
        at -= std::min(at, split);
        for (size_t k = li; k < lines.size() && k <= li + size_t(kTotalAmountLines); ++k) {
            // The amount box of the key moved elsewhere: a tender or change line after it is not its amount
            // ("お会計" / "お預り ¥7,000", "合計" / "現金" / "12,000円").
            if (k > li && (lines[k].find("預") != std::string::npos || lines[k].find("釣") != std::string::npos ||
                           lines[k].find("現金") != std::string::npos))
                return std::nullopt;
            for (const PrintedNumber& n : printed_numbers(lines[k]))
                if ((k > li || n.begin >= at) && n.usable && !n.percent) return n.value;
        }
        return std::nullopt;
    }
    return std::nullopt;
}

}  // namespace

std::optional<double> keyword_total(const std::string& text) {
    // 合言 and 台計: 合計 with an OCR look-alike of one character (計 / 言, 合 / 台; "台 計" spaced as "合 計" is);
    // 買上計 is お買上計, also with the お that OCR drops.
    return amount_after_key(printed_lines(text),
                            {"合計", "合 計", "合言", "台計", "台 計", "お会計", "買上計", "総計", "TOTAL"},
                            {"小計", "小言", "SUBTOTAL", "SUB TOTAL", "SUB-TOTAL"}, nullptr);
}

std::optional<double> keyword_subtotal(const std::string& text, bool* printed) {
    std::vector<std::string> lines = printed_lines(text);
    // 小計 with one character lost to OCR, known by the item count that only the subtotal line carries:
    // "小 (7点)", "計 (4点" become "小計 ...", and so does "計 ¥2756" with a total keyword on one of the next
    // kTotalAmountLines lines ("お会計": the total is printed apart).
    auto total_below = [&](size_t li) {
        for (size_t k = li + 1; k < lines.size() && k <= li + size_t(kTotalAmountLines); ++k)
            for (const char* key : {"合計", "合 計", "会計", "総計", "お買上計"})
                if (lines[k].find(key) != std::string::npos) return true;
        return false;
    };
    for (size_t li = 0; li < lines.size(); ++li) {
        std::string& line = lines[li];
        const std::string s = strip_spaces(line);
        if (s.rfind("計", 0) == 0 && s.size() > std::string("計").size() && total_below(li))
            if (const char c = s[std::string("計").size()];
                is_ascii_digit(c) || c == '\\' || s.compare(std::string("計").size(), std::string("¥").size(), "¥") == 0)
                line = "小計 " + line.substr(line.find("計") + std::string("計").size());
        for (const std::string head : {"小(", "計("}) {
            if (s.rfind(head, 0) != 0) continue;
            size_t k = head.size();
            while (k < s.size() && is_ascii_digit(s[k])) ++k;
            if (k > head.size() && s.compare(k, std::string("点").size(), "点") == 0)
                line = "小計 " + line.substr(line.find('('));
        }
        // The item count with 点 lost to OCR: "小 計 (45)" / "\10,891" is no subtotal of 45.
        if (s.find("小計") != std::string::npos) line = with_lost_count_unit(line);
    }
    return amount_after_key(lines, {"小計", "小 計", "小言", "小 言", "SUBTOTAL", "SUB TOTAL", "SUB-TOTAL"}, {},
                            printed);
}

std::optional<double> payable_total(const std::string& text) {
    const std::vector<std::string> lines = printed_lines(text);
    for (size_t li = 0; li < lines.size(); ++li) {
        const std::string upper = ascii_upper(lines[li]);
        size_t end = std::string::npos;  // where the keyword ends on the line
        const auto has = [&](const char* word) { return upper.find(word) != std::string::npos; };
        if (const size_t at = upper.find("PAYABLE");
            at != std::string::npos && (has("TOTAL") || has("AMOUNT") || has("AMT"))) {
            end = at + 7;
        } else if (upper.size() <= 200) {  // bounds std::regex's recursion
            // "AMT PAID INCL GST : RM111.90": the amount paid with the tax included.
            static const std::regex paid_incl(R"(PAID\s*INCL\w*\.?\s*(OF\s*)?(GST|TAX|VAT|SST)\b)");
            std::smatch m;
            try {
                if (std::regex_search(upper, m, paid_incl)) end = size_t(m.position(0) + m.length(0));
            } catch (...) {
            }
        }
        if (end == std::string::npos) continue;
        for (size_t k = li; k < lines.size() && k <= li + size_t(kTotalAmountLines); ++k)
            for (const PrintedNumber& n : printed_numbers(lines[k]))
                if ((k > li || n.begin >= end) && n.usable && n.cents) return n.value;
        return std::nullopt;
    }
    return std::nullopt;
}

std::optional<double> rounded_total(const std::string& text, double total) {
    const long cents = std::lround(total * 100.0);
    if (!(total > 0) || std::fabs(total * 100.0 - double(cents)) > 1e-6 || cents % 5 == 0) return std::nullopt;
    const long rounded = (cents + 2) / 5 * 5;  // nearest multiple of 5 cents (ties cannot occur: cents % 5 != 0)
    const std::vector<std::string> lines = printed_lines(text);
    bool has_rounding = false;
    for (const std::string& line : lines) {
        const std::string upper = ascii_upper(line);
        has_rounding |= upper.find("ROUND") != std::string::npos;
    }
    if (!has_rounding) return std::nullopt;
    for (const std::string& line : lines)
        for (const PrintedNumber& n : printed_numbers(line))
            if (n.cents && std::lround(n.value * 100.0) == rounded) return double(rounded) / 100.0;
    return std::nullopt;
}

namespace {

// The amount of a tender / change line `li` whose keyword ends at byte `key_end`: the last usable amount with cents
// after the keyword on the line, else a line of the next kTotalAmountLines that holds only an amount (a currency
// code or sign, RM $ £ €, and ':' aside; blank lines skipped), in cents; nullopt when there is none.
std::optional<long> line_amount_cents(const std::vector<std::string>& lines, size_t li, size_t key_end) {
    std::optional<long> same;
    for (const PrintedNumber& n : printed_numbers(lines[li]))
        if (n.begin >= key_end && n.usable && n.cents) same = std::lround(n.value * 100.0);
    if (same) return same;
    for (size_t k = li + 1; k < lines.size() && k <= li + size_t(kTotalAmountLines); ++k) {
        std::string rest = ascii_upper(lines[k]);
        for (const char* skip : {"RM", ":", "$", "\xC2\xA3", "\xE2\x82\xAC"})  // RM, ':', $, £, €
            for (size_t at = rest.find(skip); at != std::string::npos; at = rest.find(skip)) rest.erase(at, strlen(skip));
        rest = trim(rest);
        if (rest.empty()) continue;
        const std::vector<PrintedNumber> nums = printed_numbers(rest);
        if (nums.size() == 1 && nums[0].begin == 0 && nums[0].end == rest.size() && nums[0].usable && nums[0].cents)
            return std::lround(nums[0].value * 100.0);
        return std::nullopt;
    }
    return std::nullopt;
}

// The length of the keyword `line` (upper-cased, trimmed) starts with, with an optional "(RM)" and ':' after it;
// 0 when it starts with none of `keys` (a key must end at a word boundary).
size_t starts_with_key(const std::string& line, std::initializer_list<const char*> keys) {
    size_t best = 0;
    for (const char* key : keys) {
        const size_t n = strlen(key);
        if (line.compare(0, n, key) != 0 || (line.size() > n && std::isalnum(static_cast<unsigned char>(line[n]))))
            continue;
        best = std::max(best, n);
    }
    if (!best) return 0;
    size_t end = best;
    while (end < line.size() && line[end] == ' ') ++end;
    if (line.compare(end, 4, "(RM)") == 0) end += 4;
    while (end < line.size() && (line[end] == ' ' || line[end] == ':')) ++end;
    return end;
}

}  // namespace

std::optional<double> cash_paid_total(const std::string& text) {
    const std::vector<std::string> lines = printed_lines(text);
    std::optional<long> cash, change;
    for (size_t li = 0; li < lines.size() && !change; ++li) {
        const std::string upper = trim(ascii_upper(lines[li]));
        const size_t lead = lines[li].find_first_not_of(' ');  // where `upper` starts (a key found: not npos)
        if (!cash) {
            if (size_t end = starts_with_key(upper, {"CASH", "CASH RECEIVED", "CASH TENDERED", "TENDERED", "TENDER",
                                                     "PAID", "TOTAL PAID", "AMOUNT PAID", "AMOUNT TENDERED"}))
                cash = line_amount_cents(lines, li, lead + end);
        } else if (size_t end = starts_with_key(upper, {"CHANGE", "CHANGE DUE"})) {
            change = line_amount_cents(lines, li, lead + end);
        }
    }
    if (!cash || !change || *cash - *change <= 0) return std::nullopt;
    const long paid = *cash - *change;
    for (const std::string& line : lines)
        for (const PrintedNumber& n : printed_numbers(line))
            if (n.cents && n.usable && std::lround(n.value * 100.0) == paid) return double(paid) / 100.0;
    return std::nullopt;
}

}  // namespace receipt::extract
