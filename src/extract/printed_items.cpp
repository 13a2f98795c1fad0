// Line item amounts from the printed item rows (extract/printed_items.h).
#include "extract/printed_items.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <utility>

#include "extract/dropped_digit.h"
#include "extract/name_constraint.h"
#include "extract/printed_amounts.h"
#include "extract/utf8.h"

namespace receipt::extract {

namespace {

bool starts_with_at(const std::string& s, size_t at, const char* w) {
    return s.compare(at, std::string(w).size(), w) == 0;
}

bool ends_with_at(const std::string& s, size_t end, const char* w) {
    const size_t n = std::string(w).size();
    return end >= n && s.compare(end - n, n, w) == 0;
}

// The byte offset just past `want` (spaces removed) in `line`, matched while skipping spaces of the line, at the
// first place it occurs; npos when it does not occur.
size_t end_of_spaced(const std::string& line, const std::string& want) {
    if (want.empty()) return std::string::npos;
    for (size_t start = 0; start < line.size(); ++start) {
        if (line[start] != want[0]) continue;
        size_t i = start, k = 0;
        while (i < line.size() && k < want.size()) {
            if (line[i] == ' ') {
                ++i;
                continue;
            }
            if (line[i] != want[k]) break;
            ++i, ++k;
        }
        if (k == want.size()) return i;
    }
    return std::string::npos;
}

enum class NumberRole { kOther, kQuantity, kUnitPrice };

// A quantity or unit price rather than an amount, judged by the text around number n of `line`.
NumberRole number_role(const std::string& line, const PrintedNumber& n) {
    size_t b = n.begin;
    while (b > 0 && line[b - 1] == ' ') --b;
    size_t a = n.end;
    while (a < line.size() && line[a] == ' ') ++a;
    // An x that ends a word ("サンテFX 516") is no multiplication sign.
    const bool x_ends_word = b >= 2 && (line[b - 1] == 'x' || line[b - 1] == 'X') &&
                             std::isalpha(static_cast<unsigned char>(line[b - 2]));
    if (x_ends_word) return NumberRole::kOther;
    for (const char* w : {"コ", "個", "点"})  // "2コ", "(2点"
        if (starts_with_at(line, a, w)) return NumberRole::kQuantity;
    // "@1298 x 2": a count after the multiplication sign that follows a unit price
    for (const char* w : {"x", "X", "×"})
        if (ends_with_at(line, b, w) && line.find('@') != std::string::npos && line.find('@') < b)
            return NumberRole::kQuantity;
    for (const char* w : {"@", "x", "X", "×", "単", "単価", "単価¥", "単価\\", "単¥", "単\\"})
        if (ends_with_at(line, b, w)) return NumberRole::kUnitPrice;
    for (const char* w : {"コ", "個", "点"})  // "(2コ 180)": a unit price after a count that lost its X
        if (ends_with_at(line, b, w)) return NumberRole::kUnitPrice;
    // "2 x", a count before the sign; not a yen amount with an X that ends the line ("\89 X": OCR read the tax
    // mark ※ as X).
    const bool yen_before = ends_with_at(line, b, "¥") || ends_with_at(line, b, "\\");
    for (const char* w : {"x", "X", "×"})
        if (starts_with_at(line, a, w) && !(yen_before && trim(line.substr(a + std::string(w).size())).empty()))
            return NumberRole::kQuantity;
    return NumberRole::kOther;
}

// Written with a currency sign: ¥ or \ before it, 円 after it.
bool currency_marked(const std::string& line, const PrintedNumber& n) {
    size_t b = n.begin;
    while (b > 0 && line[b - 1] == ' ') --b;
    for (const char* w : {"¥", "\\"})
        if (ends_with_at(line, b, w)) return true;
    size_t a = n.end;
    while (a < line.size() && line[a] == ' ') ++a;
    return starts_with_at(line, a, "円");
}

// The face value that names a stamp or postcard ("切手 84円", "はがき 63円", "収入印紙 200円"): part of the item's
// name, not its amount.
bool face_value(const std::string& line, const PrintedNumber& n) { return face_value_before(line.substr(0, n.begin)); }

// Written as money: a currency sign, or a tax mark after it (軽 ※ * 内 外: reduced-rate and tax-kind marks).
bool money_marked(const std::string& line, const PrintedNumber& n) {
    if (currency_marked(line, n)) return true;
    size_t a = n.end;
    while (a < line.size() && line[a] == ' ') ++a;
    for (const char* w : {"軽", "※", "*", "内", "外"})
        if (starts_with_at(line, a, w)) return true;
    return false;
}

}  // namespace

// True when `line` holds only row characters (digits, separators, signs, marks, quantity / unit-price words);
// any_digit tells whether it holds a digit.
static bool row_chars_only(const std::string& line, bool& any) {
    static const char* const kWords[] = {"単価", "単", "点", "個", "コ", "×", "円", "¥", "軽", "※", "内", "外",
                                         "（", "）"};
    any = false;
    for (size_t i = 0; i < line.size();) {
        const char c = line[i];
        if ((c >= '0' && c <= '9') || c == ',' || c == '.' || c == ' ' || c == '\\' || c == '*' || c == '(' ||
            c == ')' || c == '@' || c == 'x' || c == 'X' || c == '-') {
            any |= c >= '0' && c <= '9';
            ++i;
            continue;
        }
        bool word = false;
        for (const char* w : kWords)
            if (starts_with_at(line, i, w)) {
                i += std::string(w).size();
                word = true;
                break;
            }
        if (!word) return false;
    }
    return true;
}

bool face_value_before(const std::string& head) {
    const std::string h = trim(head);
    for (const std::string w : {"切手", "はがき", "ハガキ", "印紙"})
        if (h.ends_with(w)) return true;
    return false;
}

bool is_item_row_continuation(const std::string& line) {
    bool any = false;
    return row_chars_only(line, any) && any;
}

PrintedItems::PrintedItems(const std::string& text) : PrintedItems(printed_lines(text)) {}

PrintedItems::PrintedItems(std::vector<std::string> lines) : lines_(std::move(lines)) {
    for (const std::string& line : lines_) {
        for (const PrintedNumber& n : printed_numbers(line))
            currency_style_ |= n.usable && currency_marked(line, n) && !face_value(line, n);
        quantity_column_ |= strip_spaces(line) == "数量";
    }
}

std::optional<double> PrintedItems::amount(const std::string& description) {
    const std::optional<PrintedItemRow> r = row(description);
    return r ? r->amount : std::nullopt;
}

std::optional<double> PrintedItems::line_amount(size_t k) const {
    if (k >= lines_.size()) return std::nullopt;
    const std::string& line = lines_[k];
    // A minus sign before the number, a currency sign between ("-¥20", "ー198円"): a discount.
    auto negative = [&](const PrintedNumber& n) {
        size_t b = n.begin;
        for (bool again = true; again;) {
            again = false;
            while (b > 0 && line[b - 1] == ' ') --b, again = true;
            for (const char* w : {"¥", "\\"})
                if (ends_with_at(line, b, w)) b -= std::string(w).size(), again = true;
        }
        for (const char* w : {"-", "ー", "▲"})
            if (ends_with_at(line, b, w)) return true;
        return false;
    };
    std::optional<double> last;
    for (const PrintedNumber& n : printed_numbers(line)) {
        if (n.percent || !n.usable || negative(n) || number_role(line, n) != NumberRole::kOther) continue;
        if (money_marked(line, n)) return n.value;
        last = n.value;
    }
    return currency_style_ ? std::nullopt : last;
}

std::optional<PrintedItemRow> PrintedItems::row(const std::string& description) {
    const std::string want = strip_spaces(description);
    if (want.empty()) return std::nullopt;
    for (size_t from : {next_, size_t(0)}) {
        for (size_t li0 = from; li0 < lines_.size(); ++li0) {
            // The description on line li0, or begun on li0 and finished on the next line (OCR split the box:
            // "コカ・コーラ" / "500ml"); li is the line it ends on, end the offset after it there.
            size_t li = li0, end = end_of_spaced(lines_[li0], want);
            const std::string head = strip_spaces(lines_[li0]);
            if (end == std::string::npos && li0 + 1 < lines_.size() && !head.empty() && head.size() < want.size() &&
                want.compare(0, head.size(), head) == 0) {
                const size_t e = end_of_spaced(lines_[li0 + 1], want.substr(head.size()));
                if (e != std::string::npos && strip_spaces(lines_[li0 + 1]).rfind(want.substr(head.size()), 0) == 0) {
                    li = li0 + 1;
                    end = e;
                }
            }
            bool any = false;
            if (end == std::string::npos || !row_chars_only(lines_[li].substr(end), any)) continue;
            std::optional<double> first_marked, last, bare_before_marked;
            std::vector<double> bare;           // the row's other numbers not written as money, in order
            std::vector<double> marked_values;  // and those written as money, in order
            PrintedItemRow r;
            auto take = [&](const std::string& line, size_t after) {
                for (const PrintedNumber& n : printed_numbers(line)) {
                    if (n.begin < after || n.percent || face_value(line, n)) continue;
                    const NumberRole role = number_role(line, n);
                    if (role == NumberRole::kQuantity && !r.quantity) r.quantity = n.value;
                    if (role == NumberRole::kUnitPrice && !r.unit_price && n.usable) r.unit_price = n.value;
                    if (!n.usable || role != NumberRole::kOther) continue;
                    const bool marked = money_marked(line, n);
                    if (!first_marked && marked) first_marked = n.value;
                    if (marked) marked_values.push_back(n.value);
                    last = n.value;
                    if (!marked) bare.push_back(n.value);
                    if (!marked && !first_marked && !bare_before_marked) bare_before_marked = n.value;
                }
            };
            take(lines_[li], end);
            for (size_t k = li + 1; k < lines_.size() && k <= li + size_t(kItemRowLines); ++k) {
                bool digits = false;
                if (!row_chars_only(lines_[k], digits)) break;
                if (digits) take(lines_[k], 0);  // else a mark in its own box ("※"): the row goes on after it
            }
            next_ = li + 1;
            r.amount = first_marked ? first_marked : currency_style_ ? std::nullopt : last;
            // A later money box that the row's count line makes is its amount; the first is the row above's, which
            // OCR moved under this description ("ｲﾝｸｶｰﾄﾘｯｼﾞ" / "9,900円" / "@4725 x 4" / "18,900円").
            if (first_marked && r.quantity && r.unit_price && *first_marked != *r.quantity * *r.unit_price &&
                std::find(marked_values.begin() + 1, marked_values.end(), *r.quantity * *r.unit_price) !=
                    marked_values.end())
                r.amount = *r.quantity * *r.unit_price;
            // Without money signs the last number is the amount ("にんじん" / "1" / "148": a count box before it),
            // unless the first is no count: then the first is the row's amount and the next belongs to the row
            // below, its box moved above its description ("ハンドソープ 詰替" / "298" / "110" / "*チョコレート").
            // Unless the row's count line makes a later one ("Anker PowerCor" / "10000" / "@3678 x 4" / "14,712": the
            // first is a model number that OCR put in a box of its own).
            const bool counted_later =
                r.quantity && r.unit_price &&
                std::find(bare.begin() + 1, bare.end(), *r.quantity * *r.unit_price) != bare.end();
            // A small first number is a count box, unless the row's count line makes it ("レジ袋" / "@4 x 2" / "8" /
            // "146": 146 is the next row's).
            const bool counted_first = r.quantity && r.unit_price && !bare.empty() && bare[0] > 0 &&
                                       bare[0] == *r.quantity * *r.unit_price;
            if (!first_marked && !currency_style_ && !quantity_column_ && bare.size() >= 2 &&
                (!item_count(bare[0]) || counted_first) && !counted_later)
                r.amount = bare[0];
            // The same before a number marked as money: a receipt without signs marks only its reduced-rate amounts
            // ("ティッシュ 5箱" / "252" / "129軽" / "ヨーグルト"), so a first number that is no count is this row's.
            if (first_marked && bare_before_marked && !currency_style_ && !quantity_column_ &&
                !item_count(*bare_before_marked))
                r.amount = bare_before_marked;
            // Under a quantity column (商品名 / 数量 / 金額) the row's number not written as money is its count
            // ("3" / "9,924円"). Without money signs the row prints a count and an amount ("2" / "1814"), and OCR
            // may swap the two boxes ("476" / "2"): the amount is the larger (a count of whole items never
            // exceeds it).
            std::optional<double> count;
            if (quantity_column_ && first_marked && bare.size() == 1) {
                count = bare[0];
            } else if (quantity_column_ && !first_marked && !currency_style_ && bare.size() == 2) {
                count = std::min(bare[0], bare[1]);
                r.amount = std::max(bare[0], bare[1]);
            }
            if (count && r.amount && !r.quantity && item_count(*count) &&
                *r.amount / *count == std::floor(*r.amount / *count)) {
                r.quantity = *count;
                if (!r.unit_price) r.unit_price = *r.amount / *count;
            }
            // A receipt with money signs printed this row's amount without one, and its count line makes it
            // ("単3アルカリ電池 2本" / "924" / "3個 X 単308").
            if (!r.amount && r.quantity && r.unit_price &&
                std::find(bare.begin(), bare.end(), *r.quantity * *r.unit_price) != bare.end())
                r.amount = *r.quantity * *r.unit_price;
            // The count line makes the amount but for one digit that OCR dropped from the amount box ("90円" /
            // "3個 X 300"): two other printed numbers agree on it.
            if (r.amount && r.quantity && r.unit_price && *r.amount > 0 &&
                one_digit_inserted(amount_digits(*r.amount), amount_digits(*r.quantity * *r.unit_price)))
                r.amount = *r.quantity * *r.unit_price;
            return r;
        }
        if (from == 0) break;
    }
    return std::nullopt;
}

}  // namespace receipt::extract
