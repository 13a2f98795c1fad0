// Line items read from the printed item rows (extract/item_rows.h).
#include "extract/item_rows.h"

#include <algorithm>
#include <cmath>
#include <regex>

#include "extract/dropped_digit.h"
#include "extract/item_row_text.h"
#include "extract/name_constraint.h"
#include "extract/printed_amounts.h"
#include "extract/printed_items.h"
#include "extract/utf8.h"

namespace receipt::extract {

namespace {

constexpr size_t kMaxLineBytes = 200;  // bytes of a line the regexes look at (bounds std::regex's recursion)

// A date line, also as OCR damages it: a digit of the day or of the year lost or misread ("2024年3月日",
// "202501月16日(木)"), or the first year of an era ("令和元年11月2日").
bool date_line(const std::string& line) {
    static const std::regex date(
        R"(\d{2,4}\s*年\s*\d{1,2}\s*月|\d{1,2}\s*月\s*\d{1,2}\s*日|\d{2,4}[/.-]\d{1,2}[/.-]\d{1,2}|)"
        R"((令和|平成)\s*(\d{1,2}|元)\s*年)");
    return std::regex_search(line.substr(0, kMaxLineBytes), date);
}

// The subtotal or total line that ends the item rows, also as OCR damages it: a look-alike (台計, 合言, 小言), the
// 小 or the お lost ("計 (2点)", "計 11941円", "買上計"), or 合 and 計 on two lines (`next` is the line after).
bool totals_line(const std::string& line, const std::string& next) {
    const std::string s = strip_spaces(line);
    for (const char* k : {"小計", "合計", "お会計", "総計", "お買上計", "買上計", "台計", "合言", "小言", "お会言", "計("})
        if (s.rfind(k, 0) == 0) return true;
    // 計 and nothing but an amount after it ("計 11941円", "計 ¥1,250"; not "計量カップ 298円").
    const std::string kei = "計";
    if (s.rfind(kei, 0) == 0 && s.size() > kei.size()) {
        const std::string rest = s.substr(kei.size());
        if (is_ascii_digit(rest[0]) || rest.rfind("¥", 0) == 0 || rest[0] == '\\')
            if (is_item_row_continuation(rest) && std::any_of(rest.begin(), rest.end(), is_ascii_digit)) return true;
    }
    return s == "計" || (s == "合" && strip_spaces(next) == "計");
}

bool discount_line(const std::string& line) {
    for (const char* k : {"値引", "割引", "クーポン", "ｸｰﾎﾟﾝ"})
        if (line.find(k) != std::string::npos) return true;
    // A rate followed by a minus amount is a percentage discount whatever OCR left of its word ("引 10% -21").
    static const std::regex rate_then_minus(R"(\d{1,2}% ?(-|ー|▲)(¥|\\)?\d)");
    try {
        return line.size() <= kMaxLineBytes && std::regex_search(line, rate_then_minus);
    } catch (...) {
        return false;
    }
}

// A discount's amount on a line of its own ("ー1,814円", "-¥20", "▲100").
bool minus_amount_line(const std::string& line) {
    static const std::regex minus_amount(R"(^(-|ー|▲)(¥|\\)?\d[\d,]*(円)?$)");
    const std::string s = strip_spaces(line);
    try {
        return s.size() <= kMaxLineBytes && std::regex_search(s, minus_amount);
    } catch (...) {
        return false;
    }
}

// A header, staff or register line between the date and the items ("担当:中村", "担:中村" with a character lost,
// "責No.215", "レジ#4", "金額"): never an item description, nor the first half of one.
bool not_item_line(const std::string& line) {
    const std::string s = strip_spaces(line);
    for (const char* k : {"担当", "担:", "責", "店員", "係", "No.", "NO.", "TEL", "電話", "登録番号", "テーブル", "名様"})
        if (s.find(k) != std::string::npos) return true;
    // The table number as OCR damaged its label ("テーブ 8", "ーブル 13").
    for (const std::string k : {"テーブ", "ーブル"})
        if (s.rfind(k, 0) == 0 && s.size() > k.size() && s.find_first_not_of("0123456789", k.size()) == s.npos)
            return true;
    for (const std::string k : {"レジ", "ﾚｼﾞ"}) {  // "レジ#4", "レジ0009"; not "レジ袋"
        const char next = s.size() > k.size() ? s[k.size()] : '\0';
        if (s.rfind(k, 0) == 0 && (next == '#' || (next >= '0' && next <= '9'))) return true;
    }
    // A table heading, its column names alone or on one line ("商品名 数量 金額").
    std::string rest = s;
    for (bool found = !rest.empty(); found && !rest.empty();) {
        found = false;
        for (const char* k : {"金額", "数量", "商品名", "品名", "単価", "点数"})
            if (rest.rfind(k, 0) == 0) {
                rest.erase(0, std::string(k).size());
                found = true;
                break;
            }
    }
    if (rest.empty() && !s.empty()) return true;
    // A register line "POS8" (which the look-alike reading of the digits turns into "PO58"), also with its P lost
    // ("OS4", read "O54").
    if (s.size() >= 3 && s.rfind("PO", 0) == 0 && (s[2] == 'S' || s[2] == '5') &&
        s.find_first_not_of("0123456789", 3) == std::string::npos)
        return true;
    if (s.size() >= 3 && s[0] == 'O' && (s[1] == 'S' || s[1] == '5') &&
        s.find_first_not_of("0123456789", 2) == std::string::npos)
        return true;
    if (s.empty() || s[0] == '(') return true;
    // A tax mark in its own box ("※" between "ﾏﾖﾈｰｽﾞ 450g" and its count).
    for (const char* m : kMarks)
        if (s == m) return true;
    // A date line, and a time line ("7時21分", "18:30") or what OCR left of a date line (a weekday, a time at its
    // end: "月曜日 09:32") when it garbled the date; a discount's amount on its own line ("ー1,814円", "-¥20"):
    // the minus sign is not row text.
    static const std::regex time(R"(^\d{1,2}時\d{1,2}分$|^\d{1,2}:\d{2}(:\d{2})?$)");
    static const std::regex ends_with_time(R"((\d{1,2}時\d{1,2}分|\d{1,2}:\d{2}(:\d{2})?)$)");
    try {
        if (s.size() > kMaxLineBytes) return false;
        if (s.find("曜日") != std::string::npos || date_line(s)) return true;
        return minus_amount_line(line) || std::regex_search(s, time) ||
               (s.find_first_not_of("0123456789:時分") != std::string::npos && std::regex_search(s, ends_with_time) &&
                !is_item_row_continuation(s));
    } catch (...) {
        return false;
    }
}

// A clerk's name printed on its own line under the label ("担当者" / "高橋"): at most 4 characters, no digit.
bool staff_name(const std::string& above, const std::string& line) {
    const std::string label = strip_spaces(above);
    if (label != "担当" && label != "担当者" && label != "係" && label != "係員" && label != "責任者") return false;
    const std::optional<std::vector<uint32_t>> cps = code_points(strip_spaces(line));
    return cps && !cps->empty() && cps->size() <= 4 && line.find_first_of("0123456789") == std::string::npos;
}

// True when `line` prints a usable number that is no rate, with or without a yen sign.
bool any_amount(const std::string& line) {
    for (const PrintedNumber& n : printed_numbers(line))
        if (n.usable && !n.percent) return true;
    return false;
}

bool has_text(const std::string& line) {
    for (unsigned char c : line)
        if (c >= 0x80 || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z')) return true;
    return false;
}

// A line that can start an item: text, not an amount continuation, a header / staff line or a discount.
bool item_line(const std::string& line) {
    return has_text(line) && !is_item_row_continuation(line) && !not_item_line(line) && !discount_line(line);
}

// The amount of a discount row: the first number after a minus sign (-, ー, ▲) on `line` after byte `from`, or
// on `next`; negative. nullopt when there is none.
std::optional<double> discount_amount(const std::string& line, size_t from, const std::string& next) {
    for (const std::string* l : {&line, &next}) {
        const size_t start = l == &line ? from : 0;
        for (const char* minus : {"-", "ー", "▲"}) {
            const size_t at = l->find(minus, start);
            if (at == std::string::npos) continue;
            std::string rest = l->substr(at + std::string(minus).size());
            for (const char* sign : {"¥", "\\"})
                if (rest.rfind(sign, 0) == 0) rest = rest.substr(std::string(sign).size());
            const std::vector<PrintedNumber> nums = printed_numbers(rest);
            if (!nums.empty() && nums[0].begin == 0 && !nums[0].percent && nums[0].value > 0) return -nums[0].value;
        }
    }
    return std::nullopt;
}

// The amount box of a row whose thousands group lost a digit to OCR ("1,61" of 1,461, "¥1,46", "2,96円": no
// amount to printed_numbers), on lines [from, end) within the row (its first two continuation lines): read one digit
// short (161), for the subtotal check to put the digit back (extract/dropped_digit.h); or the row's count times
// unit price (`r`: "(2点 単価1,198円)") when that is the box's digits with one digit more. nullopt when there is
// no such box.
std::optional<PrintedItemRow> broken_group_row(const std::vector<std::string>& lines, size_t from, size_t end,
                                               const std::optional<PrintedItemRow>& r) {
    for (size_t k = from; k < end && k < from + 2 && is_item_row_continuation(lines[k]); ++k) {
        const std::optional<double> box = broken_group_amount(strip_spaces(lines[k]));
        if (!box) continue;
        const double shorter = *box;
        PrintedItemRow out;
        out.amount = shorter;
        if (r && r->quantity && r->unit_price &&
            one_digit_inserted(amount_digits(shorter), amount_digits(*r->quantity * *r->unit_price))) {
            out.amount = *r->quantity * *r->unit_price;
            out.quantity = r->quantity;
            out.unit_price = r->unit_price;
        }
        return out;
    }
    return std::nullopt;
}

// Under a count column ("商品名 数量 金額"), a description with the row's count before or after it, as text in rows
// prints the row ("からあげクン レギュラー ※ 3" / "¥837", "Anker PowerCore 10000 1", "1 単3形アルカリ電池 4本"):
// `d` loses the count (and a tax mark before it), which becomes the row's quantity when it divides the amount. Not
// without the column: "緑茶 2" is a size that lost its unit.
void counted_description(std::string& d, PrintedItemRow& r) {
    static const std::regex after(R"(^(.*[^\s\d].*?)\s*(?:※|\*|軽)?\s+(\d{1,2})$)");
    static const std::regex before(R"(^(\d{1,2})\s+([^\s\d].*)$)");
    if (d.size() > kMaxLineBytes) return;
    std::smatch m;
    std::string count;
    if (std::regex_match(d, m, after)) count = m[2].str(), d = trim(m[1].str());
    else if (std::regex_match(d, m, before)) count = m[1].str(), d = m[2].str();
    if (count.empty() || !r.amount) return;
    const double c = std::stod(count);
    if (c >= 1 && std::fmod(*r.amount, c) == 0) r.quantity = c, r.unit_price = *r.amount / c;
}

// Description `d`, cut from line `first` of `lines` (and the next when `n_lines` is 2, joined with a space), as
// `printed` prints it: the lines read OCR look-alikes next to digits as digits (for the amounts), which turns
// "ﾏﾖﾈｰｽﾞ 450g" into "ﾏﾖﾈｰｽﾞ 4509"; that reading keeps every byte offset, so the description is cut from the line as
// printed at the same offset. `d` itself when it is not found there.
std::string printed_description(const std::string& d, const std::vector<std::string>& lines,
                                const std::vector<std::string>& printed, size_t first, size_t n_lines) {
    std::string read = lines[first], as_is = first < printed.size() ? printed[first] : std::string();
    if (n_lines == 2 && first + 1 < lines.size() && first + 1 < printed.size()) {
        read += " " + lines[first + 1];
        as_is += " " + printed[first + 1];
    }
    const size_t at = read.find(d);
    return at == std::string::npos || as_is.size() != read.size() ? d : as_is.substr(at, d.size());
}

// The item rows of lines[begin, end) (lines: printed_lines(text)).
std::vector<ItemRow> rows_between(const std::string& text, const std::vector<std::string>& lines, size_t begin,
                                  size_t end) {
    PrintedItems rows(lines);
    const std::vector<std::string> printed = printed_lines_as_is(text);
    // A table with a count column ("商品名 数量 金額"): a number after a description can be its count.
    const bool count_column =
        std::any_of(lines.begin(), lines.end(), [](const std::string& l) { return l.find("数量") != l.npos; });
    auto description_at = [&](size_t i) {  // description_of line i
        return description_of(lines[i], i < printed.size() ? printed[i] : std::string());
    };
    // OCR moved a row's amount box above its description ("60軽" / "178" / "ｱﾙﾐﾎｲﾙ" / "生鮭 切身" / "1,500軽"): the
    // money line right above line i belongs to no other row when, among the row lines from the text line j above
    // it down to it, there are more money lines than row j takes (one when j is an item row whose own line holds
    // no amount, else none: j is a header, a discount, or an item with its amount on its own line).
    // The count box may sit between the two ("¥670" / "1" / "ロキソニンS 12錠"): a continuation line without an
    // amount right above line i is passed over.
    auto orphan_amount_above = [&](size_t i) -> std::optional<double> {
        if (i == 0 || i - 1 < begin || !is_item_row_continuation(lines[i - 1])) return std::nullopt;
        std::optional<double> above = rows.line_amount(i - 1);
        if (!above && i >= 2 && i - 2 >= begin && is_item_row_continuation(lines[i - 2]))
            above = rows.line_amount(i - 2);
        if (!above || *above <= 0) return std::nullopt;
        size_t j = i - 1, money = 0;
        for (; j + 1 > begin && j < lines.size() && is_item_row_continuation(lines[j]); --j)
            money += rows.line_amount(j).has_value();
        // (lines[j] ends the run of continuation lines, so it is none itself.)
        const bool item_j =
            j + 1 > begin && j < lines.size() && item_line(lines[j]) && description_at(j) == trim(lines[j]);
        return money > (item_j ? 1u : 0u) ? above : std::nullopt;
    };
    auto as_printed = [&](const std::string& d, size_t first, size_t n_lines) {
        return printed_description(d, lines, printed, first, n_lines);
    };
    // A receipt that writes its amounts with yen signs printed this row's without ("ﾛｷｿﾆﾝS 12錠" / "600"): a bare
    // number of 10 or more alone on line k, the row's one box, is its amount. A product code may follow it
    // ("5,788" / "4998590346560").
    auto product_code = [&](size_t k) {
        const std::vector<PrintedNumber> nums = printed_numbers(strip_spaces(lines[k]));
        return nums.size() == 1 && nums[0].begin == 0 && nums[0].end == strip_spaces(lines[k]).size() &&
               nums[0].end >= 8 && !nums[0].usable;
    };
    auto bare_box = [&](size_t k) -> std::optional<PrintedItemRow> {
        if (k >= end || (k + 1 < end && is_item_row_continuation(lines[k + 1]) && !product_code(k + 1)))
            return std::nullopt;
        const std::string box = strip_spaces(lines[k]);
        const std::vector<PrintedNumber> nums = printed_numbers(box);
        if (nums.size() != 1 || nums[0].begin != 0 || nums[0].end != box.size() || !nums[0].usable ||
            nums[0].cents || nums[0].value < 10)
            return std::nullopt;
        return PrintedItemRow{nums[0].value, std::nullopt, std::nullopt};
    };
    std::vector<ItemRow> out;
    for (size_t i = begin; i < end; ++i) {
        const size_t first = i;
        size_t n_lines = 1;
        const std::string& line = lines[i];
        if (!has_text(line) || is_item_row_continuation(line) || not_item_line(line)) continue;
        if (i > 0 && staff_name(lines[i - 1], line)) continue;
        const std::string next = i + 1 < end ? lines[i + 1] : std::string();
        const std::string short_d = description_at(i);  // without a trailing amount part
        // A discount's amount on its line or the next; else in the box above it when OCR moved it there ("-¥100" /
        // "クーポン値引"), unless that box is the amount of a discount label above it.
        // A line without an amount of its own that OCR took the discount word from ("クーポ", "引 30%") is a
        // discount when a minus amount follows it alone (and is no box moved above a discount label after it); a
        // discount whose minus sign OCR lost ("見切値引" / "30円") is still negative.
        std::optional<double> discount;
        std::string rate_box;  // a rate printed in a box of its own, part of the description
        if (discount_line(line)) {
            discount = discount_amount(line, short_d.size(), next);
            // The rate in a box of its own ("割引" / "10%" / "-¥20"): the description is "割引 10%".
            const std::string rate = strip_spaces(next);
            if (!discount && i + 2 < end && rate.size() >= 2 && rate.size() <= 4 && rate.back() == '%' &&
                rate.find_first_not_of("0123456789%") == std::string::npos) {
                discount = discount_amount(std::string(), 0, lines[i + 2]);
                if (discount && short_d.find('%') == std::string::npos) rate_box = " " + rate;
            }
            if (!discount && i > begin && minus_amount_line(lines[i - 1]) &&
                !(i >= begin + 2 && discount_line(lines[i - 2])))
                discount = discount_amount(std::string(), 0, lines[i - 1]);
            if (!discount)
                if (const std::optional<PrintedItemRow> r = rows.row(short_d); r && r->amount && *r->amount > 0)
                    discount = -*r->amount;
        } else if (short_d == trim(line) && minus_amount_line(next) &&
                   !(i + 2 < end && discount_line(lines[i + 2]))) {
            discount = discount_amount(std::string(), 0, next);
        }
        if (discount) {
            out.push_back(ItemRow{as_printed(clean_description(short_d), first, 1) + rate_box, std::nullopt,
                                  std::nullopt, *discount});
            continue;
        }
        // The whole line first ("切手 84円" / "¥84": the amount on the next line), then without its amount part;
        // each searched from this line (a description printed again on a later row is that row's).
        std::string d = trim(line);
        rows.search_from(i);
        std::optional<PrintedItemRow> r = rows.row(d);
        auto counted = [](const std::optional<PrintedItemRow>& x) {  // its count times unit price makes its amount
            return x && x->amount && x->quantity && x->unit_price && *x->quantity * *x->unit_price == *x->amount;
        };
        if ((!r || !r->amount) && short_d != d) {
            d = short_d;
            rows.search_from(i);
            r = rows.row(d);
        } else if (short_d != d && !counted(r)) {
            // The line's own amount part fits the count line under it ("ﾏﾖﾈｰｽﾞ 450g ¥740軽" / "(2点 単価¥370)"),
            // or it is written with a yen sign or a tax mark (no name holds one: "レジ袋 ¥5" / "¥80" / "お惣菜
            // コロッケ", "ﾏﾖﾈｰｽﾞ 450g 350軽" / "231軽" / "生鮭 切身") and
            // no count follows, while the amount on the lines after it is another row's box: the row is the line's.
            rows.search_from(i);
            std::optional<PrintedItemRow> r_short = rows.row(short_d);
            const std::string part = trim(trim(line).substr(short_d.size()));
            const bool signed_part = part.rfind("¥", 0) == 0 || part.rfind("\\", 0) == 0 || part.ends_with("軽") ||
                                     part.ends_with("※") || part.ends_with("*");
            if (counted(r_short) || (signed_part && !r->quantity && r_short && r_short->amount))
                d = short_d, r = std::move(r_short);
        }
        // The row's own box at the end of its line, its thousands group short of a digit ("HDMIｹｰﾌﾞﾙ 2m 1,68円"):
        // read one digit short, for the subtotal check to put the digit back.
        // A count box before it ("USB充電器 20W 2 \\4,36") is no part of the description.
        if ((!r || !r->amount) && trim(line).rfind(' ') != std::string::npos)
            if (const auto box = broken_group_amount(trim(line).substr(trim(line).rfind(' ') + 1))) {
                std::string desc = trim(trim(line).substr(0, trim(line).rfind(' ')));
                if (const size_t sp = desc.rfind(' '); sp != std::string::npos && desc.size() - sp - 1 <= 2 &&
                                                       std::all_of(desc.begin() + std::ptrdiff_t(sp) + 1, desc.end(),
                                                                   is_ascii_digit))
                    desc = trim(desc.substr(0, sp));
                out.push_back(ItemRow{as_printed(clean_description(desc), first, 1), 1.0, *box, *box});
                continue;
            }
        if (!r || !r->amount)
            if (const std::optional<double> a = orphan_amount_above(i)) {
                std::string desc = trim(line);
                PrintedItemRow above{*a, std::nullopt, std::nullopt};
                if (count_column) counted_description(desc, above);
                out.push_back(ItemRow{as_printed(clean_description(desc), first, 1), above.quantity.value_or(1.0),
                                      above.unit_price.value_or(*a), *a});
                continue;
            }
        // The row's count line, then the next row's description, then this row's amount, which the count makes
        // ("液晶保護ﾌｨﾙﾑ" / "@1980 x 5" / "ｲﾝｸｶｰﾄﾘｯｼﾞ" / "9,900円"): OCR moved the amount box below the next
        // description; that row reads its own amount after it.
        if (r && !r->amount && r->quantity && r->unit_price && i + 3 < end && is_item_row_continuation(next) &&
            !rows.line_amount(i + 1) && item_line(lines[i + 2]) && is_item_row_continuation(lines[i + 3]))
            if (const std::optional<double> a = rows.line_amount(i + 3);
                a && *a > 0 && *a == *r->quantity * *r->unit_price) {
                out.push_back(ItemRow{as_printed(clean_description(d), first, 1), r->quantity, r->unit_price, *a});
                continue;
            }
        const bool next_starts_item = i + 1 < end && item_line(next);
        // Two description lines over two money lines ("玉ねぎ 3個入" / "アルミホイル" / "258円軽" / "139円"): OCR put
        // the two boxes of each row apart; a description split over two lines has one. Unless the line after them
        // is a description without an amount of its own (the second money line may be its box, moved above it).
        if ((!r || !r->amount) && next_starts_item && i + 3 < end) {
            // The two money lines' amounts, 0 for none (a money line's amount is positive).
            const double m1 = is_item_row_continuation(lines[i + 2]) ? rows.line_amount(i + 2).value_or(0) : 0;
            const double m2 = is_item_row_continuation(lines[i + 3]) ? rows.line_amount(i + 3).value_or(0) : 0;
            const size_t k = i + 4;
            const bool after_has_own = k >= end || !has_text(lines[k]) || is_item_row_continuation(lines[k]) ||
                                       not_item_line(lines[k]) || discount_line(lines[k]) ||
                                       description_at(k) != trim(lines[k]) ||
                                       (k + 1 < end && rows.line_amount(k + 1));
            if (m1 > 0 && m2 > 0 && after_has_own) {
                out.push_back(ItemRow{as_printed(clean_description(d), first, 1), 1.0, m1, m1});
                const std::string d2 = description_at(i + 1);
                out.push_back(ItemRow{as_printed(clean_description(d2), i + 1, 1), 1.0, m2, m2});
                ++i;
                continue;
            }
        }
        // OCR moved a row's money box below the next row, which prints its own amount ("ポテトサラダ" / "きゅうり 3本
        // 178円軽" / "198円軽" / "米 コシヒカリ 5kg"): the lone money line after that row is this one's.
        if ((!r || !r->amount) && next_starts_item && !discount_line(line) && i + 3 < end &&
            description_at(i + 1) != trim(next) && is_item_row_continuation(lines[i + 2]) &&
            !is_item_row_continuation(lines[i + 3]))
            if (const std::optional<double> a = rows.line_amount(i + 2); a && *a > 0) {
                out.push_back(ItemRow{as_printed(clean_description(d), first, 1), 1.0, *a, *a});
                continue;
            }
        if ((!r || !r->amount) && next_starts_item && !discount_line(line)) {
            // OCR split the description over two lines: "じゃがいも" / "袋" / "275軽".
            const std::string joined = d + " " + description_at(i + 1);
            // Searched from this line: the lookup of its first half moved the search past it, and a later row may
            // print the whole description on one line ("USB充電器" / "20W" / "¥4360" ... "USB充電器 20W ¥2268").
            rows.search_from(i);
            std::optional<PrintedItemRow> r2 = rows.row(joined);
            if ((!r2 || !r2->amount) && !rows.row(description_at(i + 1)).value_or(PrintedItemRow{}).amount)
                r2 = bare_box(i + 2);
            if (r2 && r2->amount) {
                d = joined;
                r = r2;
                ++i;
                n_lines = 2;
            }
        }
        if ((!r || !r->amount) && i + 2 < end && not_item_line(next) && !minus_amount_line(next) &&
            is_item_row_continuation(lines[i + 2])) {
            // OCR put a header line (the clerk, the register, the date or time) between the description and its
            // boxes ("あんまん" / "担当者 佐藤" / "¥150軽"): the row is read without it.
            std::vector<std::string> row_lines{line};
            for (size_t k = i + 2; k < end && k <= i + 1 + size_t(kItemRowLines); ++k) row_lines.push_back(lines[k]);
            if (std::optional<PrintedItemRow> r3 = PrintedItems(std::move(row_lines)).row(d); r3 && r3->amount) r = r3;
        }
        if (!r || !r->amount)
            if (const std::optional<PrintedItemRow> b = broken_group_row(lines, i + 1, end, r)) r = b;
        if (!r || !r->amount) r = bare_box(i + 1);
        // Under a count column, the count box before the bare amount ("カップ麺" / "2" / "256").
        if ((!r || !r->amount) && count_column && i + 2 < end) {
            const std::vector<PrintedNumber> c = printed_numbers(strip_spaces(lines[i + 1]));
            if (c.size() == 1 && c[0].begin == 0 && c[0].end == strip_spaces(lines[i + 1]).size() && !c[0].cents &&
                item_count(c[0].value))
                if (std::optional<PrintedItemRow> b = bare_box(i + 2); b && b->amount) {
                    r = b;
                    if (std::fmod(*b->amount, c[0].value) == 0)
                        r->quantity = c[0].value, r->unit_price = *b->amount / c[0].value;
                }
        }
        if (!r || !r->amount || *r->amount <= 0) continue;
        if (count_column && !r->quantity) counted_description(d, *r);
        // A model number in a box of its own under the description, before the row's count line and the amount
        // that the count makes ("Anker PowerCor" / "10000" / "@3678 x 4" / "14,712"): part of the description.
        if (n_lines == 1 && i + 2 < end && r->quantity && r->unit_price && *r->quantity * *r->unit_price == *r->amount) {
            const std::string box = strip_spaces(i + 1 < printed.size() ? printed[i + 1] : std::string());
            if (box.size() >= 2 && box.size() <= 13 && box.find_first_not_of("0123456789") == std::string::npos &&
                std::stod(box) != *r->amount && std::stod(box) != *r->unit_price &&
                is_item_row_continuation(lines[i + 2]) && !rows.line_amount(i + 2)) {
                d = trim(line) + " " + box;
                ++i;
                n_lines = 2;
            }
        }
        ItemRow item{as_printed(clean_description(d), first, n_lines), 1.0, *r->amount, *r->amount};
        if (r->quantity && r->unit_price && *r->quantity * *r->unit_price == *r->amount) {
            item.quantity = *r->quantity;
            item.unit_price = *r->unit_price;
        }
        out.push_back(std::move(item));
    }
    return out;
}

// OCR put the last row's amount box after the totals line ("週刊少年ジャンプ" / "お買上計" / "¥300" / "¥3,870",
// "栄養ﾄﾞﾘﾝｸ" / "小 計 \768" / "\158"): the last description before the totals line, with no row read for it and
// nothing but count boxes after it, takes the first or second amount after the totals keyword when the rows with
// it add up to the other. nullopt otherwise.
// `printed`: the lines as printed (printed_lines_as_is).
std::optional<ItemRow> last_row_after_totals(const std::string& text, const std::vector<std::string>& lines,
                                             const std::vector<std::string>& printed, size_t begin, size_t end,
                                             const std::vector<ItemRow>& rows) {
    if (end <= begin || end >= lines.size()) return std::nullopt;
    size_t last = end;  // the last description line above the totals line
    for (size_t k = end; k-- > begin;) {
        if (item_line(lines[k])) {
            last = k;
            break;
        }
        const std::vector<PrintedNumber> nums = printed_numbers(strip_spaces(lines[k]));
        if (nums.size() != 1 || !item_count(nums[0].value) || nums[0].cents) return std::nullopt;  // a count box only
    }
    if (last == end || discount_line(lines[last])) return std::nullopt;
    // The first two usable amounts on the totals line and the three lines after it (a count "(1点)" is none).
    std::vector<double> after;
    for (size_t k = end; k < lines.size() && k <= end + 3 && after.size() < 2; ++k)
        for (const PrintedNumber& n : printed_numbers(lines[k]))
            if (n.usable && !n.percent && after.size() < 2) after.push_back(n.value);
    if (after.size() < 2) return std::nullopt;
    const double sum = rows_sum(rows);
    std::optional<double> amount;
    if (after[0] > 0 && std::fabs(sum + after[0] - after[1]) < 0.5) amount = after[0];
    else if (after[1] > 0 && std::fabs(sum + after[1] - after[0]) < 0.5) amount = after[1];
    if (!amount) return std::nullopt;
    // Only when no row was read for that description: the rows without its line are as many.
    std::vector<std::string> blanked = lines;
    blanked[last].clear();
    if (rows_between(text, blanked, begin, end).size() != rows.size()) return std::nullopt;
    const std::string d = description_of(lines[last], last < printed.size() ? printed[last] : std::string());
    return ItemRow{clean_description(printed_description(d, lines, printed, last, 1)), 1.0, *amount, *amount};
}

}  // namespace

std::optional<std::vector<ItemRow>> read_item_rows(const std::string& text) {
    std::vector<std::string> lines = printed_lines(text);
    if (lines.size() > kMaxItemRowLines) return std::nullopt;  // no receipt: bounds the row searches (quadratic)
    // A product size in a box of its own over the row's amount ("マヨネーズ" / "450g" / "328軽", "microSD" / "128B"
    // / "2,628": GB with its G lost) is read as printed, not as the number its look-alike letters make (4509, 1288).
    const std::vector<std::string> as_is = printed_lines_as_is(text);
    for (size_t k = 0; k + 1 < lines.size() && k < as_is.size(); ++k) {
        // A count of one in a box of its own, its digit read as a letter ("レジ袋 M" / "I" / "¥3").
        if (const std::string box = strip_spaces(lines[k]); box == "I" || box == "l" || box == "|") lines[k] = "1";
        if (lines[k] != as_is[k] && size_box(as_is[k]) && is_item_row_continuation(lines[k + 1]) &&
            any_amount(lines[k + 1]))
            lines[k] = as_is[k];
    }
    size_t begin = lines.size(), end = lines.size();
    try {
        for (size_t i = 0; i < lines.size() && end == lines.size(); ++i) {
            if (begin == lines.size() && date_line(lines[i])) begin = i + 1;
            if (totals_line(lines[i], i + 1 < lines.size() ? lines[i + 1] : std::string())) end = i;
        }
    } catch (...) {
        return std::nullopt;
    }
    if (end >= lines.size()) return std::nullopt;
    if (begin > end) begin = 0;  // no date above the totals (OCR garbled it): the header lines hold no amounts
    // OCR put the date line between the first description and its amount box ("6925 絹豆腐" / "2020年4月21日 火曜日
    // 19:07:40" / "¥174 ＊"): the rows start at that description (the row is read past the date line).
    const bool staff_above = begin >= 3 && staff_name(lines[begin - 3], lines[begin - 2]);
    if (begin >= 2 && begin < end && item_line(lines[begin - 2]) && !staff_above &&
        description_of(lines[begin - 2], "") == trim(lines[begin - 2]) && is_item_row_continuation(lines[begin])) {
        // The box is written as money, or printed as digits (a time OCR damaged may read as one: "レシート" / date
        // / "1g46"); the line is no receipt heading.
        const std::string& box = lines[begin];
        bool sure = begin < as_is.size() && box == as_is[begin], heading = false;
        for (const char* sign : {"¥", "\\", "円", "軽", "※", "*", "＊"}) sure |= box.find(sign) != std::string::npos;
        for (const char* h : {"レシート", "ﾚｼｰﾄ", "領収", "明細"}) heading |= lines[begin - 2].find(h) != std::string::npos;
        if (sure && !heading && any_amount(box)) begin -= 2;
    }
    std::vector<ItemRow> out = rows_between(text, lines, begin, end);
    if (std::optional<ItemRow> last = last_row_after_totals(text, lines, as_is, begin, end, out)) out.push_back(*last);
    // OCR moved the totals line's amount box above it ("HDMIケーブル 2m" / "¥426,237" / "小計" / "お買上計" /
    // "¥426,237"): when the totals line prints no amount, on its line or the next, the lone amount right above it
    // is its box if the lines after print it again and the rows read without that line come within a quarter of
    // it, and closer than the rows with it (the last row then takes its own box, which OCR moved elsewhere).
    if (end == begin || !is_item_row_continuation(lines[end - 1]) || any_amount(lines[end]) ||
        (end + 1 < lines.size() && any_amount(lines[end + 1])))
        return out;
    // Only then the receipt's amount style (PrintedItems scans every line) for the line above.
    const std::optional<double> above = PrintedItems(lines).line_amount(end - 1);
    if (above && *above > 0 && printed_count(lines, end + 1, *above) > 0) {
        std::vector<std::string> blanked = lines;  // the line left out, the other lines where they were
        blanked[end - 1].clear();
        std::vector<ItemRow> without = rows_between(text, blanked, begin, end);
        const auto off = [&](const std::vector<ItemRow>& rows) { return std::fabs(rows_sum(rows) - *above); };
        if (!without.empty() && off(without) <= 0.25 * *above && off(without) < off(out)) out = std::move(without);
    }
    return out;
}

double rows_sum(const std::vector<ItemRow>& rows) {
    double sum = 0;
    for (const ItemRow& r : rows) sum += r.amount;
    return std::round(sum * 100.0) / 100.0;
}

bool item_rows_add_up_to(const std::string& text, double amount) {
    const std::optional<std::vector<ItemRow>> rows = read_item_rows(text);
    return rows && !rows->empty() && std::fabs(rows_sum(*rows) - amount) < 0.5;
}

}  // namespace receipt::extract
