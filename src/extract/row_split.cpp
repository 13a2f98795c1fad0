#include "extract/row_split.h"

#include <cstdint>
#include <vector>

#include "extract/utf8.h"

namespace receipt::extract {
namespace {

constexpr std::string_view kPound = "\xC2\xA3";          // £
constexpr std::string_view kEuro = "\xE2\x82\xAC";       // €
constexpr std::string_view kYen = "\xC2\xA5";            // ¥
constexpr std::string_view kYenMark = "\xE5\x86\x86";    // 円
constexpr std::string_view kKome = "\xE2\x80\xBB";       // ※

bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }
bool ends_with(std::string_view s, std::string_view p) {
    return s.size() >= p.size() && s.substr(s.size() - p.size()) == p;
}
bool is_digit(char c) { return c >= '0' && c <= '9'; }

// A currency sign or code written before an amount, alone or attached: RM $ £ € ¥ '\' (the yen sign of JIS
// fonts). Returns its length in bytes at the start of s, 0 when there is none; sets yen for ¥ and '\'.
size_t currency_prefix(std::string_view s, bool& yen) {
    yen = false;
    if (starts_with(s, "RM")) return 2;
    if (starts_with(s, "$")) return 1;
    if (starts_with(s, kPound)) return kPound.size();
    if (starts_with(s, kEuro)) return kEuro.size();
    if (starts_with(s, kYen)) return yen = true, kYen.size();
    if (starts_with(s, "\\")) return yen = true, 1;
    return 0;
}

// Digits with ',' / '.' group or decimal separators, starting and ending with a digit, no two separators together.
bool is_grouped_number(std::string_view s) {
    if (s.empty() || !is_digit(s.front()) || !is_digit(s.back())) return false;
    for (size_t i = 1; i < s.size(); ++i)
        if (!is_digit(s[i]) && ((s[i] != ',' && s[i] != '.') || !is_digit(s[i - 1]))) return false;
    return true;
}

// One token of an amount: [-][currency][-]number, where the number has two decimals ("9.00", "1,230.00", "12,50"),
// or, after a yen sign or before 円, any grouped number ("¥1,230", "\600", "778円"). currency_done: a currency sign
// stood alone before this token ("RM 9.00"), so none may follow.
bool is_amount_token(std::string_view t, bool currency_done) {
    if (starts_with(t, "-")) t.remove_prefix(1);
    bool yen = false;
    if (!currency_done) t.remove_prefix(currency_prefix(t, yen));
    if (starts_with(t, "-")) t.remove_prefix(1);
    if (ends_with(t, kYenMark)) {
        t.remove_suffix(kYenMark.size());
        yen = true;
    }
    if (!is_grouped_number(t)) return false;
    if (yen) return true;
    return t.size() >= 4 && (t[t.size() - 3] == '.' || t[t.size() - 3] == ',');
}

// A currency sign standing alone as a token ("RM" of "RM 9.00").
bool is_currency_token(std::string_view t) {
    bool yen = false;
    return !t.empty() && currency_prefix(t, yen) == t.size();
}

// A tax code after an amount: one or two of A-Z, '*', '※' ("SR", "ZR", "S", "*", "※").
bool is_tax_code(std::string_view t) {
    int n = 0;
    while (!t.empty() && n < 3) {
        if ((t.front() >= 'A' && t.front() <= 'Z') || t.front() == '*') t.remove_prefix(1);
        else if (starts_with(t, kKome)) t.remove_prefix(kKome.size());
        else return false;
        ++n;
    }
    return t.empty() && n >= 1 && n <= 2;
}

// Whether a label holds something a printed label is made of: an ASCII letter, hiragana, katakana (full or half
// width), a CJK ideograph, or '%', ')', ':' (a rate or a closing bracket or colon before the amount).
bool is_label(std::string_view s) {
    bool found = false;
    for_each_code_point(s, [&](uint32_t cp) {
        if ((cp >= 'A' && cp <= 'Z') || (cp >= 'a' && cp <= 'z') || cp == '%' || cp == ')' || cp == ':' ||
            (cp >= 0x3040 && cp <= 0x30FF) || (cp >= 0x4E00 && cp <= 0x9FFF) || (cp >= 0xFF66 && cp <= 0xFF9F))
            found = true;
    });
    return found;
}

std::vector<std::string_view> split_spaces(std::string_view line) {
    std::vector<std::string_view> tokens;
    size_t pos = 0;
    while (pos < line.size()) {
        size_t end = line.find(' ', pos);
        if (end == std::string_view::npos) end = line.size();
        if (end > pos) tokens.push_back(line.substr(pos, end - pos));
        pos = end + 1;
    }
    return tokens;
}

// The index of the first token of the amount (with its currency token) that ends `tokens`, or tokens.size() when
// the tokens do not end in an amount (optionally followed by a tax code).
size_t amount_start(const std::vector<std::string_view>& tokens) {
    size_t n = tokens.size();
    if (n == 0) return n;
    size_t last = n - 1;
    if (n >= 2 && is_tax_code(tokens[last]) && !is_amount_token(tokens[last], false)) --last;
    if (last > 0 && is_currency_token(tokens[last - 1]) && is_amount_token(tokens[last], true)) return last - 1;
    return is_amount_token(tokens[last], false) ? last : n;
}


template <class F>
void for_each_line(std::string_view text, F&& f) {
    size_t pos = 0;
    while (pos <= text.size()) {
        size_t end = text.find('\n', pos);
        if (end == std::string_view::npos) end = text.size();
        f(text.substr(pos, end - pos));
        pos = end + 1;
    }
}

enum class LineKind {
    kOther,
    kLabelAmount,  // an amount after a label (ends_in_amount)
    kAmountAlone,  // an amount alone, with its currency and tax code: a box-per-line receipt's amount line
};

// What the line is, its tokens split once; label_end as ends_in_amount sets it.
LineKind line_kind(std::string_view line, size_t& label_end) {
    const auto tokens = split_spaces(line);
    const size_t start = amount_start(tokens);
    if (start >= tokens.size()) return LineKind::kOther;
    if (start == 0) return LineKind::kAmountAlone;
    const size_t amount_begin = static_cast<size_t>(tokens[start].data() - line.data());
    std::string_view label = line.substr(0, amount_begin);
    while (!label.empty() && label.back() == ' ') label.remove_suffix(1);
    if (label.empty() || !is_label(label)) return LineKind::kOther;
    label_end = label.size();
    return LineKind::kLabelAmount;
}

}  // namespace

bool ends_in_amount(std::string_view line, size_t& label_end) {
    return line_kind(line, label_end) == LineKind::kLabelAmount;
}

bool reads_as_rows(std::string_view text) {
    int joined = 0, alone = 0;
    for_each_line(text, [&](std::string_view line) {
        size_t label_end = 0;
        const LineKind kind = line_kind(line, label_end);
        joined += kind == LineKind::kLabelAmount;
        alone += kind == LineKind::kAmountAlone;
    });
    return joined >= 3 && joined >= 3 * alone;
}

std::string split_row_amounts(std::string_view text) {
    if (!reads_as_rows(text)) return std::string(text);
    std::string out;
    out.reserve(text.size() + 64);
    bool first = true;
    for_each_line(text, [&](std::string_view line) {
        if (!first) out += '\n';
        first = false;
        size_t label_end = 0;
        if (ends_in_amount(line, label_end)) {
            out.append(line.substr(0, label_end));
            out += '\n';
            std::string_view amount = line.substr(label_end);
            while (!amount.empty() && amount.front() == ' ') amount.remove_prefix(1);
            out.append(amount);
        } else {
            out.append(line);
        }
    });
    return out;
}

}  // namespace receipt::extract
