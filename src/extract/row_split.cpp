#include "extract/row_split.h"

#include <cstdint>
#include <vector>

#include "extract/ocr_digits.h"
#include "extract/utf8.h"

namespace receipt::extract {
namespace {

constexpr std::string_view kPound = "\xC2\xA3";          // £
constexpr std::string_view kEuro = "\xE2\x82\xAC";       // €
constexpr std::string_view kYen = "\xC2\xA5";            // ¥
constexpr std::string_view kYenMark = "\xE5\x86\x86";    // 円
constexpr std::string_view kKome = "\xE2\x80\xBB";       // ※
constexpr std::string_view kKei = "\xE8\xBB\xBD";        // 軽 (reduced rate)
constexpr std::string_view kSoto = "\xE5\xA4\x96";       // 外 (tax added)
constexpr std::string_view kUchi = "\xE5\x86\x85";       // 内 (tax included)
constexpr std::string_view kHi = "\xE9\x9D\x9E";         // 非 (tax free)
constexpr std::string_view kFullStar = "\xEF\xBC\x8A";   // ＊

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

// `t` without a tax mark at its end (軽 ※ ＊ * 外 内 非).
std::string_view without_tax_mark(std::string_view t) {
    for (std::string_view mark : {kKei, kKome, kFullStar, std::string_view("*"), kSoto, kUchi, kHi})
        if (ends_with(t, mark)) return t.substr(0, t.size() - mark.size());
    return t;
}

// A whole number as a Japanese receipt prints its yen amounts: "1,089", "518", at most 7 digits, optionally
// followed by a tax mark ("72軽", "298※", "1,058外").
bool is_whole_yen(std::string_view t) {
    t = without_tax_mark(t);
    if (t.empty() || !is_digit(t.front()) || !is_digit(t.back())) return false;
    size_t digits = 0, since_comma = 0;
    bool grouped = false;
    for (size_t i = 0; i < t.size(); ++i) {
        if (t[i] == ',') {
            if ((grouped ? since_comma != 3 : since_comma > 3) || since_comma == 0) return false;
            grouped = true;
            since_comma = 0;
        } else if (is_digit(t[i])) {
            ++digits;
            ++since_comma;
        } else {
            return false;
        }
    }
    return digits <= 7 && (!grouped || since_comma == 3);
}

// One token of an amount: [-][currency][-]number, where the number has two decimals ("9.00", "1,230.00", "12,50"),
// or, after a yen sign or before 円, any grouped number ("¥1,230", "\600", "778円"); in a Japanese text (yen) also a
// whole number with an optional tax mark (is_whole_yen). currency_done: a currency sign stood alone before this
// token ("RM 9.00"), so none may follow.
bool is_amount_token(std::string_view t, bool currency_done, bool yen_text) {
    if (starts_with(t, "-")) t.remove_prefix(1);
    if (yen_text && is_whole_yen(t)) return true;
    bool yen = false;
    if (!currency_done) t.remove_prefix(currency_prefix(t, yen));
    if (starts_with(t, "-")) t.remove_prefix(1);
    if (yen_text && ends_with(without_tax_mark(t), kYenMark)) t = without_tax_mark(t);  // "146円軽"
    if (ends_with(t, kYenMark)) {
        t.remove_suffix(kYenMark.size());
        yen = true;
    }
    if (yen && yen_text && is_whole_yen(t)) return true;  // "¥248軽", "\276*": a tax mark after it
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
// the tokens do not end in an amount (optionally followed by a tax code). is_amount(token, currency_done) says what
// an amount is (is_amount_token, or is_damaged_amount); currency_done: a currency token stands before it.
template <class IsAmount>
size_t amount_start_of(const std::vector<std::string_view>& tokens, IsAmount&& is_amount) {
    size_t n = tokens.size();
    if (n == 0) return n;
    size_t last = n - 1;
    if (n >= 2 && is_tax_code(tokens[last]) && !is_amount(tokens[last], false)) --last;
    if (last > 0 && is_currency_token(tokens[last - 1]) && is_amount(tokens[last], true)) return last - 1;
    return is_amount(tokens[last], false) ? last : n;
}

size_t amount_start(const std::vector<std::string_view>& tokens, bool yen_text) {
    return amount_start_of(tokens, [yen_text](std::string_view t, bool currency_done) {
        return is_amount_token(t, currency_done, yen_text);
    });
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
LineKind line_kind(std::string_view line, bool yen_text, size_t& label_end) {
    const auto tokens = split_spaces(line);
    const size_t start = amount_start(tokens, yen_text);
    if (start >= tokens.size()) return LineKind::kOther;
    if (start == 0) return LineKind::kAmountAlone;
    const size_t amount_begin = static_cast<size_t>(tokens[start].data() - line.data());
    std::string_view label = line.substr(0, amount_begin);
    while (!label.empty() && label.back() == ' ') label.remove_suffix(1);
    if (label.empty() || !is_label(label)) return LineKind::kOther;
    label_end = label.size();
    return LineKind::kLabelAmount;
}

// A digit as OCR may print it: a digit or a look-alike letter (confusion_digit, extract/ocr_digits.h).
bool digit_like(char c) { return is_digit(c) || confusion_digit(c) != 0; }

// An amount that OCR damaged: [-][currency][-], 1-7 digits or look-alikes, '.' or ',', then one or two ("1.8" for
// 1.68, "16.9B", "RM38.0D"); at least one digit, and no amount as is_amount_token reads one; or an amount after RM
// with one of its letters lost ("M58.20"). Not ".65": Malaysian receipts print cents so ("CHANGE RM .00", "S = 6%
// 9.57 .57"), and setting those apart lost a SROIE validation total in rows. currency_done: a currency token stood
// before it ("RM 38.0D").
bool is_damaged_amount(std::string_view t, bool currency_done) {
    if (is_amount_token(t, currency_done, false)) return false;
    if (starts_with(t, "-")) t.remove_prefix(1);
    // "M58.20", "R4.50": RM with a letter lost.
    if (!currency_done && (starts_with(t, "M") || starts_with(t, "R")) && is_amount_token(t.substr(1), true, false))
        return true;
    bool yen = false;
    if (!currency_done) t.remove_prefix(currency_prefix(t, yen));
    if (yen) return false;
    if (starts_with(t, "-")) t.remove_prefix(1);
    const size_t sep = t.find_first_of(".,");
    if (sep == std::string_view::npos || sep == 0 || sep > 7 || t.size() - sep - 1 < 1 || t.size() - sep - 1 > 2)
        return false;
    bool digit = false;
    for (size_t i = 0; i < t.size(); ++i) {
        if (i == sep) continue;
        if (!digit_like(t[i])) return false;
        digit = digit || is_digit(t[i]);
    }
    return digit;
}

// The parts of a Latin-script row's label (what stands before its amount) that the training receipts print in
// boxes of their own: leading numbers before a word (a quantity "2", or "4 0.56" of boxes OCR read out of order),
// then the description, then a trailing unit price ("17.58") or quantity expression ("1 X 28.61", "3 @ 4.00",
// "4X 2.37") after a word: "2 RICE 5KG 17.58" -> "2", "RICE 5KG", "17.58". Numbers inside the words stay there
// ("1 #5 5 WING COMBO", "TOTAL 5,28 0,97"), as do labels that start with a number before anything but a letter
// ("01 1 $FiveLU"): splitting every number off read receipts of that kind worse.
enum class Part { kNumber, kGlue, kWord };

// 'x', 'X' or '@' alone, a count with 'x' ("4x", "x2"), or '@' with a price ("@4.00").
bool is_glue(std::string_view t) {
    if (t.empty()) return false;
    if (t == "x" || t == "X" || t == "@") return true;
    const auto digits_only = [](std::string_view d) {
        if (d.empty() || d.size() > 3) return false;
        for (char c : d)
            if (!is_digit(c)) return false;
        return true;
    };
    if (t.back() == 'x' || t.back() == 'X') return digits_only(t.substr(0, t.size() - 1));
    if (t.front() == 'x' || t.front() == 'X') return digits_only(t.substr(1));
    return t.size() >= 2 && t.front() == '@' && is_grouped_number(t.substr(1));
}

// A count of 1-3 digits.
bool is_count(std::string_view t) {
    return t.size() <= 3 && is_grouped_number(t) && t.find_first_of(",.") == std::string_view::npos;
}

// A count of 1-3 digits, or an amount with two decimals.
bool is_number(std::string_view t) { return is_count(t) || is_amount_token(t, false, false); }

Part part_of(std::string_view t) {
    if (is_number(t)) return Part::kNumber;
    return is_glue(t) ? Part::kGlue : Part::kWord;
}

bool starts_with_letter(std::string_view t) {
    return !t.empty() && ((t.front() >= 'A' && t.front() <= 'Z') || (t.front() >= 'a' && t.front() <= 'z'));
}

void append_label_parts(std::string_view label, std::string& out) {
    const auto tokens = split_spaces(label);
    const size_t n = tokens.size();
    std::vector<Part> parts(n);
    for (size_t i = 0; i < n; ++i) parts[i] = part_of(tokens[i]);
    const auto emit = [&](size_t b, size_t e) {  // tokens [b, e) as they stand in the label, on a line of their own
        if (b >= e) return;
        if (!out.empty() && out.back() != '\n') out += '\n';
        const auto begin = static_cast<size_t>(tokens[b].data() - label.data());
        const auto end = static_cast<size_t>(tokens[e - 1].data() + tokens[e - 1].size() - label.data());
        out.append(label.substr(begin, end - begin));
    };
    // Leading numbers, each alone, when a word starting with a letter follows them (not a quantity expression).
    size_t head = 0;
    while (head < n && parts[head] == Part::kNumber && !(head + 1 < n && parts[head + 1] == Part::kGlue)) ++head;
    if (head == n || !starts_with_letter(tokens[head])) head = 0;
    // A trailing quantity expression (N G N, G N) or amount, after a word.
    size_t tail = n;
    const auto word_at = [&](size_t i) { return i >= head && parts[i] == Part::kWord; };
    if (n - head >= 4 && parts[n - 3] == Part::kNumber && parts[n - 2] == Part::kGlue &&
        parts[n - 1] == Part::kNumber && word_at(n - 4))
        tail = n - 3;
    else if (n - head >= 3 && parts[n - 2] == Part::kGlue && parts[n - 1] == Part::kNumber && word_at(n - 3))
        tail = n - 2;
    else if (n - head >= 2 && is_amount_token(tokens[n - 1], false, false) && word_at(n - 2))
        tail = n - 1;
    else if (head > 0 && n - head >= 2 && is_damaged_amount(tokens[n - 1], false) && word_at(n - 2))
        tail = n - 1;  // a unit price OCR damaged after a counted description ("1 STORAGE BOX 11.5 11.35")
    for (size_t i = 0; i < head; ++i) emit(i, i + 1);
    emit(head, tail);
    emit(tail, n);
}

// In a Japanese row, the length of a yen amount that OCR put before the label ("¥9,051 お釣り", "\98軽 お茶 600ml",
// "200軽 トッピング チーズ": boxes of one row out of order) with the space after it, 0 when the line does not start
// so. The amount has its yen sign, 円 or a tax mark (a bare number there is more often a code or count); the rest
// must read as a label.
size_t leading_yen_amount(std::string_view line) {
    const size_t sp = line.find(' ');
    if (sp == std::string_view::npos || sp == 0) return 0;
    std::string_view first = line.substr(0, sp), plain = first;
    if (starts_with(plain, "-")) plain.remove_prefix(1);
    // A whole number with a tax mark ("200軽") is an amount too: no count or code carries one.
    const bool marked = is_whole_yen(plain) && without_tax_mark(plain) != plain;
    const bool signed_yen = marked || starts_with(plain, kYen) || starts_with(plain, "\\") ||
                            first.find(kYenMark) != std::string_view::npos;
    if (!signed_yen || !is_amount_token(first, false, true) || !is_label(line.substr(sp + 1))) return 0;
    return sp + 1;
}

// Appends a Japanese row's label, a yen amount before it on a line of its own.
void append_yen_label(std::string_view label, std::string& out) {
    if (const size_t n = leading_yen_amount(label)) {
        out.append(label.substr(0, n - 1));
        out += '\n';
        label.remove_prefix(n);
    }
    out.append(label);
}

// In a Latin-script row, the length of an amount with cents that OCR put before the label ("1.43 1x PASTA PENNE",
// "4.69 T 1x APPLES GALA": boxes of one row out of order), with its tax code and the space after them; 0 when the
// line does not start so. Not a quantity before its unit ("35.10 LITRE PUMP # 02", one box), nor an amount before
// a total, tax or payment label ("RM37.95 TOTAL AMOUNT").
size_t leading_amount(std::string_view line) {
    const auto tokens = split_spaces(line);
    if (tokens.size() < 2 || !is_amount_token(tokens[0], false, false)) return 0;
    size_t label = 1;
    if (tokens.size() >= 3 && is_tax_code(tokens[1])) label = 2;
    const std::string_view rest = line.substr(static_cast<size_t>(tokens[label].data() - line.data()));
    if (starts_with(rest, "LITRE") || starts_with(rest, "LTR")) return 0;
    // Not a total, tax or payment line ("RM37.95 TOTAL AMOUNT"): the model reads a total's amount after its keyword,
    // and would take the next one.
    const std::string upper = ascii_upper(rest);
    for (const char* key : {"TOTAL", "TOAL", "CASH", "CHANGE", "CHNGE", "TAX", "GST", "SST", "VAT", "ROUND", "DUE",
                            "AMOUNT", "TENDER", "PAID", "BALANCE", "VISA", "CARD", "AMEX"})
        if (upper.find(key) != std::string::npos) return 0;
    // A word of two letters or more that is no tax code ("89.00 1 89.00 S" is a row of numbers).
    bool word = false;
    for (size_t k = label; k < tokens.size(); ++k) {
        int letters = 0;
        for (char c : tokens[k]) letters += (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
        word = word || (letters >= 2 && !is_tax_code(tokens[k]));
    }
    if (!word) return 0;
    return static_cast<size_t>(tokens[label].data() - line.data());
}

// Whether `tokens` are a quantity expression alone: a count, 'x' / '@' and a unit price ("1 X 3.79", "3 @ 4.00"),
// or a count with its 'x' and a unit price ("4X 2.37").
bool is_quantity_expression(const std::vector<std::string_view>& t) {
    const auto glue_alone = [](std::string_view g) { return g == "x" || g == "X" || g == "@"; };
    if (t.size() == 3) return is_count(t[0]) && glue_alone(t[1]) && is_amount_token(t[2], false, false);
    return t.size() == 2 && is_glue(t[0]) && !glue_alone(t[0]) && t[0].front() != '@' &&
           is_amount_token(t[1], false, false);
}

// In a Latin-script row, the length of the line amount that OCR put before the row's quantity expression
// ("28.61 1 X 28.61", "8.42 2 X 4.21": the amount's box read before the "2 X 4.21" box), with the space after it;
// 0 when the line is not so. The amount goes on a line of its own and the quantity expression stays whole, as in
// a box-per-line receipt.
size_t amount_before_quantity(std::string_view line) {
    const auto tokens = split_spaces(line);
    if (tokens.size() < 3 || !is_amount_token(tokens[0], false, false)) return 0;
    if (!is_quantity_expression(std::vector<std::string_view>(tokens.begin() + 1, tokens.end()))) return 0;
    return static_cast<size_t>(tokens[1].data() - line.data());
}

// In a Latin-script row that does not end in an amount (ends_in_amount), the byte offset of a damaged amount
// (is_damaged_amount, with a currency token before it and a tax code after it) that ends it after a label
// ("6 SUAR 1KG 2.83 16.9B", "1x TISSUE 10S g.10 T", "CASH RM38.0D", "3 X 0.56 1.8"); 0 when the line is not so.
// The amount goes on a line of its own, as its box was, and the label is split as a row's label is.
size_t damaged_amount_start(std::string_view line) {
    const auto tokens = split_spaces(line);
    const size_t start = amount_start_of(tokens, is_damaged_amount);
    if (start == 0 || start >= tokens.size()) return 0;
    const auto begin = static_cast<size_t>(tokens[start].data() - line.data());
    return is_label(line.substr(0, begin)) ? begin : 0;
}

// In a Latin-script row, the offset where a header label's number starts, or where the label starts after its
// number: a label ending in '#' or ':' and a number of 3-6 digits, OCR's look-alike letters among them but 3 digits
// at least ("TRANS# 99166", "CASHIER: 45714", "45714 CASHIER:", "3B89 CASHIER:"); 0 when the line is not so.
// Box-per-line receipts print the two apart, and read as one line the number's label ran into the first item's
// description. Longer numbers (registration numbers: "GST ID : 0006...") stay: receipts print those in one box.
size_t header_number_split(std::string_view line) {
    const auto short_number = [](std::string_view t) {  // digits, OCR's look-alike letters among them ("3B89")
        if (t.size() < 3 || t.size() > 6) return false;
        size_t digits = 0;
        for (char c : t) {
            if (!digit_like(c)) return false;
            digits += is_digit(c);
        }
        return digits >= 3;
    };
    const auto label = [](std::string_view t) {
        return !t.empty() && (t.back() == '#' || t.back() == ':') && starts_with_letter(t);
    };
    const size_t sp = line.rfind(' ');
    if (sp == std::string_view::npos) return 0;
    const std::string_view head = line.substr(0, sp), tail = line.substr(sp + 1);
    if (short_number(tail) && label(head)) return sp + 1;
    const size_t first = line.find(' ');
    if (short_number(line.substr(0, first)) && label(line.substr(first + 1)) &&
        line.substr(first + 1).find_first_of("0123456789") == std::string_view::npos)
        return first + 1;
    return 0;
}

}  // namespace

bool ends_in_amount(std::string_view line, size_t& label_end, bool yen_text) {
    return line_kind(line, yen_text, label_end) == LineKind::kLabelAmount;
}

namespace {

// reads_as_rows with yen_text (the text has kana or kanji) given.
bool reads_as_rows(std::string_view text, bool yen_text) {
    int joined = 0, alone = 0;
    for_each_line(text, [&](std::string_view line) {
        size_t label_end = 0;
        const LineKind kind = line_kind(line, yen_text, label_end);
        joined += kind == LineKind::kLabelAmount;
        alone += kind == LineKind::kAmountAlone;
    });
    return joined >= 3 && joined >= 3 * alone;
}

}  // namespace

bool reads_as_rows(std::string_view text) { return reads_as_rows(text, has_cjk(text)); }

std::string split_row_amounts(std::string_view text) {
    const bool yen_text = has_cjk(text);
    if (!reads_as_rows(text, yen_text)) return std::string(text);
    std::string out;
    out.reserve(text.size() + 64);
    bool first = true;
    for_each_line(text, [&](std::string_view line) {
        if (!first) out += '\n';
        first = false;
        size_t label_end = 0;
        if (line_kind(line, yen_text, label_end) == LineKind::kLabelAmount) {
            // Japanese rows keep the quantity with the product name: splitting it off read worse.
            if (yen_text) {
                append_yen_label(line.substr(0, label_end), out);
            } else if (const size_t n = amount_before_quantity(line)) {
                // "28.61 1 X 28.61" -> "28.61", "1 X 28.61": the row's own amount is the first one.
                out.append(line.substr(0, n - 1)).append("\n").append(line.substr(n));
                return;
            } else {
                append_label_parts(line.substr(0, label_end), out);
            }
            out += '\n';
            std::string_view amount = line.substr(label_end);
            while (!amount.empty() && amount.front() == ' ') amount.remove_prefix(1);
            out.append(amount);
        } else if (yen_text) {
            append_yen_label(line, out);
        } else if (const size_t n = damaged_amount_start(line)) {
            append_label_parts(line.substr(0, n - 1), out);
            out.append("\n").append(line.substr(n));
        } else if (const size_t n = header_number_split(line)) {
            out.append(line.substr(0, n - 1)).append("\n").append(line.substr(n));
        } else if (const size_t n = leading_amount(line)) {
            std::string_view amount = line.substr(0, n);
            while (!amount.empty() && amount.back() == ' ') amount.remove_suffix(1);
            out.append(amount).append("\n").append(line.substr(n));
        } else {
            out.append(line);
        }
    });
    return out;
}

}  // namespace receipt::extract
