#include "extract/normalize_amount.h"

#include <charconv>
#include <cmath>
#include <string>

#include "extract/utf8.h"

namespace receipt::extract {

namespace {

constexpr size_t kMaxAmountBytes = 256;

bool is_alpha(char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'); }

bool starts_with(std::string_view s, size_t i, std::string_view p) { return s.substr(i, p.size()) == p; }

// Decoration tokens that may surround an amount. Yen markers matter for the trailing '-' rule.
struct Symbol {
    std::string_view text;
    bool yen;
};
constexpr Symbol kCurrencySymbols[] = {
    {"\xC2\xA5", true},       // ¥ U+00A5
    {"\xEF\xBF\xA5", true},   // ￥ U+FFE5
    {"\\", true},             // backslash: yen on Japanese code pages
    {"\xE5\x86\x86", true},   // 円
    {"\xE5\x85\x83", false},  // 元
    {"$", false},
    {"\xE2\x82\xAC", false},  // €
    {"\xC2\xA3", false},      // £
    {"\xE2\x82\xA9", false},  // ₩
    {"\xE2\x82\xB9", false},  // ₹
    {"\xE0\xB8\xBF", false},  // ฿
    {"\xE2\x82\xB1", false},  // ₱
    {"\xE2\x82\xAB", false},  // ₫
};
constexpr std::string_view kNegativeMarks[] = {
    "-",
    "\xE2\x96\xB2",  // ▲
    "\xE2\x96\xB3",  // △
    "\xE2\x96\xBC",  // ▼
};

// Matches a currency symbol at s[i]; returns its length or 0.
size_t match_symbol(std::string_view s, size_t i, bool& yen) {
    for (const Symbol& sym : kCurrencySymbols) {
        if (starts_with(s, i, sym.text)) {
            yen = yen || sym.yen;
            return sym.text.size();
        }
    }
    return 0;
}

// Matches a currency word of 1..3 ASCII letters at s[i] ("RM", "Rp", "USD", "Rs."); returns its length or 0.
size_t match_currency_word(std::string_view s, size_t i) {
    size_t n = 0;
    while (i + n < s.size() && is_alpha(s[i + n])) ++n;
    if (n == 0 || n > 3) return 0;
    if (i + n < s.size() && s[i + n] == '.') ++n;  // "Rs."
    return n;
}

// Converts the digit core ("1,080.50", "1.080,50", "1_080,50" where '_' is a space or apostrophe) to a plain
// decimal string, or "" when invalid.
std::string canonical_digits(std::string_view core) {
    size_t n_comma = 0, n_dot = 0, last_comma = 0, last_dot = 0;
    for (size_t i = 0; i < core.size(); ++i) {
        if (core[i] == ',') ++n_comma, last_comma = i;
        if (core[i] == '.') ++n_dot, last_dot = i;
    }
    // Decide which character (if any) is the decimal separator.
    char decimal = 0;
    if (n_comma > 0 && n_dot > 0) {
        decimal = last_comma > last_dot ? ',' : '.';
        if ((decimal == ',' ? n_comma : n_dot) != 1) return "";
    } else if (n_comma == 1 || n_dot == 1) {
        const char sep = n_comma == 1 ? ',' : '.';
        const size_t pos = n_comma == 1 ? last_comma : last_dot;
        const size_t n_after = core.size() - pos - 1;
        const bool zero_int = core.substr(0, pos) == "0";
        if (sep == ',') {
            decimal = (n_after == 1 || n_after == 2) ? ',' : 0;
        } else {
            decimal = (n_after != 3 || zero_int) ? '.' : 0;
        }
    }
    // Split at the decimal separator, then validate the thousands grouping of the integer part.
    const size_t dec_pos = decimal ? core.rfind(decimal) : std::string_view::npos;
    const std::string_view int_part = core.substr(0, dec_pos);
    const std::string_view frac_part = dec_pos == std::string_view::npos ? "" : core.substr(dec_pos + 1);
    if (decimal && frac_part.empty()) return "";
    for (char c : frac_part) {
        if (!is_ascii_digit(c)) return "";
    }
    std::string digits;
    size_t group_len = 0;
    bool grouped = false;
    for (size_t i = 0; i < int_part.size(); ++i) {
        const char c = int_part[i];
        if (is_ascii_digit(c)) {
            digits += c;
            ++group_len;
            continue;
        }
        // A thousands separator: the group before it is 1..3 digits (first) or exactly 3 (later).
        if (group_len == 0 || group_len > 3 || (grouped && group_len != 3)) return "";
        grouped = true;
        group_len = 0;
    }
    if (digits.empty() || (grouped && group_len != 3)) return "";
    if (!frac_part.empty()) {
        digits += '.';
        digits.append(frac_part);
    }
    return digits;
}

std::optional<double> to_double(const std::string& digits, bool negative, double max_abs) {
    if (digits.empty() || digits.size() > 40) return std::nullopt;
    double value = 0.0;
    const auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
    if (ec != std::errc() || ptr != digits.data() + digits.size()) return std::nullopt;
    if (!std::isfinite(value) || std::fabs(value) > max_abs) return std::nullopt;
    if (value == 0.0) return 0.0;  // no "-0"
    return negative ? -value : value;
}

}  // namespace

std::optional<double> normalize_amount(std::string_view text) {
    const std::string s = trim(fold_fullwidth(sanitize_utf8(utf8_prefix(text, kMaxAmountBytes))));
    size_t i = 0;
    bool negative = false, paren = false, yen = false;
    // Prefix: whitespace, sign marks, '(' , '+', '@', currency symbols and words, in any order.
    for (bool matched = true; matched && i < s.size();) {
        matched = true;
        if (is_ascii_space(s[i]) || s[i] == '+' || s[i] == '@') {
            ++i;
        } else if (s[i] == '(' && !paren) {
            paren = true, ++i;
        } else if (size_t n = match_symbol(s, i, yen)) {
            i += n;
        } else if (size_t n = match_currency_word(s, i)) {
            i += n;
        } else {
            matched = false;
            for (std::string_view mark : kNegativeMarks) {
                if (starts_with(s, i, mark)) {
                    negative = true, i += mark.size(), matched = true;
                    break;
                }
            }
        }
    }
    // Core: digits with ',', '.', '\'' and single spaces between digit groups ("1 080,50").
    const size_t core_begin = i;
    while (i < s.size()) {
        const char c = s[i];
        if (is_ascii_digit(c) ||
            ((c == ',' || c == '.' || c == '\'') && i > core_begin && i + 1 < s.size() && is_ascii_digit(s[i + 1]))) {
            ++i;
        } else if (c == ' ' && i > core_begin && i + 3 < s.size() && is_ascii_digit(s[i + 1]) &&
                   is_ascii_digit(s[i + 2]) && is_ascii_digit(s[i + 3]) &&
                   (i + 4 == s.size() || !is_ascii_digit(s[i + 4]))) {
            ++i;
        } else {
            break;
        }
    }
    std::string core(s.substr(core_begin, i - core_begin));
    if (core.empty() || !is_ascii_digit(core[0])) return std::nullopt;
    std::string cleaned;
    for (char c : core) {
        if (c == '\'' || c == ' ') c = '_';  // Swiss apostrophe / French space: always thousands separators
        cleaned += c;
    }
    // Suffix: whitespace, ')', currency symbols and words, a trailing minus.
    bool trailing_minus = false;
    while (i < s.size()) {
        if (is_ascii_space(s[i]) || s[i] == '*') {
            ++i;
        } else if (s[i] == ')' && paren) {
            paren = false, negative = true, ++i;
        } else if (s[i] == '-' && !trailing_minus) {
            trailing_minus = true, ++i;
        } else if (size_t n = match_symbol(s, i, yen)) {
            i += n;
        } else if (size_t n = match_currency_word(s, i)) {
            i += n;
        } else {
            return std::nullopt;  // anything else (another number, letters glued to digits) is garbage
        }
    }
    if (paren) return std::nullopt;  // unbalanced "("
    if (trailing_minus && !yen) negative = true;
    return to_double(canonical_digits(cleaned), negative, kMaxAbsAmount);
}

std::optional<double> normalize_quantity(std::string_view text) {
    const std::string s = trim(fold_fullwidth(sanitize_utf8(utf8_prefix(text, kMaxAmountBytes))));
    size_t i = 0;
    const std::string_view times = "\xC3\x97";  // ×
    while (i < s.size()) {
        if (is_ascii_space(s[i]) || s[i] == 'x' || s[i] == 'X' || s[i] == '*' || s[i] == '@') {
            ++i;
        } else if (starts_with(s, i, times)) {
            i += times.size();
        } else {
            break;
        }
    }
    bool negative = false;
    if (i < s.size() && s[i] == '-') negative = true, ++i;
    std::string digits;
    bool seen_decimal = false;
    for (; i < s.size(); ++i) {
        const char c = s[i];
        if (is_ascii_digit(c)) {
            digits += c;
        } else if ((c == '.' || c == ',') && !seen_decimal && !digits.empty() && i + 1 < s.size() &&
                   is_ascii_digit(s[i + 1])) {
            digits += '.';
            seen_decimal = true;
        } else {
            break;
        }
    }
    if (digits.empty()) return std::nullopt;
    // The rest is a unit or counter word ("個", "pcs", "kg"); a second number makes the text ambiguous.
    for (; i < s.size(); ++i) {
        if (is_ascii_digit(s[i])) return std::nullopt;
    }
    return to_double(digits, negative, kMaxAbsQuantity);
}

}  // namespace receipt::extract
