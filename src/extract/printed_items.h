// Line item amounts read from the printed item rows. A model trained from scratch finds the item descriptions but
// often garbles their amounts (433 for 434, a quantity, a neighbour's price); the row of a printed description
// shows the amount exactly. Receipt rows look like
//   鶏もも肉 唐揚用 *  1  ¥434         ミラノ風ドリア  544円  (2点 単価272円)       *おむつ  @1298 x 2  ¥2,596
// and OCR puts each box on its own line, so an item's row is its description's line and the lines after it that
// hold only numbers, currency signs, marks and quantity / unit-price words (a line of marks alone, "※" in its own
// box, is passed over: the row goes on after it).
#pragma once

#include <cmath>
#include <optional>
#include <string>
#include <vector>

namespace receipt::extract {

// Lines after a description's line that may still belong to its row.
inline constexpr int kItemRowLines = 3;

// True when `v` can be an item row's count: a whole number of items, 1 to 99.
inline bool item_count(double v) { return v >= 1 && v <= 99 && v == std::floor(v); }

// What an item's printed row says.
struct PrintedItemRow {
    std::optional<double> amount;
    std::optional<double> quantity;    // a count (2個, 2点, 2コ, x 2) on the row
    std::optional<double> unit_price;  // a unit price (@1298, 単1298, 単価272円, 2コ X 180) on the row
};

// Reads the amounts of printed items from a receipt's lines (printed_lines(text)).
class PrintedItems {
public:
    explicit PrintedItems(const std::string& text);
    // The same from the receipt's printed_lines(), when the caller already has them.
    explicit PrintedItems(std::vector<std::string> lines);

    // The row of `description` (found as amount() finds it), or nullopt when it is not printed as a row start.
    std::optional<PrintedItemRow> row(const std::string& description);

    // The amount printed on the row of `description`, among the numbers on its row after the description that
    // are not a quantity (2個, 2点, 2コ, x 2), a unit price (@1298, 単1298, 単価272円, 2コ 180), negative, a rate
    // or part of a code: the first one written as money (a currency sign ¥ \ 円, or a tax mark 軽 ※ * after it);
    // else, on a receipt that prints no currency sign at all, the last one (the quantity column comes first); else
    // none (a number without a sign there is a quantity, or a box of another row that OCR moved). nullopt when the
    // description is not printed (on one line, or begun on one and finished at the start of the next) followed
    // only by row characters. Rows are searched from the one after the previous call's match, then from the top
    // (items are printed in order). Under a quantity column (a "数量" header line) the row's one number not
    // written as money is its count; without money signs there, of a row's two numbers the larger is the amount
    // (OCR may swap the count and amount boxes) and the other the count.
    std::optional<double> amount(const std::string& description);

    // The amount line `k` prints as row() reads it on a row line: its first number written as money that is not
    // a quantity, unit price, rate or negative; else, on a receipt that prints no currency sign, its last such
    // number. nullopt when it prints none (or k is past the last line).
    std::optional<double> line_amount(size_t k) const;

    // The next row() or amount() call searches from line k on (then from the top).
    void search_from(size_t k) { next_ = k; }

private:
    std::vector<std::string> lines_;
    size_t next_ = 0;            // line after the previous match
    bool currency_style_ = false;  // some amount of the receipt has a currency sign (¥ \ 円; not 切手 84円)
    bool quantity_column_ = false;  // the receipt heads its rows with a quantity column (a line "数量")
};

// True when `head` names a stamp, postcard or revenue stamp ("切手", "はがき", "ハガキ", "印紙"), so a number after
// it is its face value, part of the description ("切手 84円 168円": the amount is 168).
bool face_value_before(const std::string& head);

// True when `line` holds nothing but numbers, currency signs (¥ \ 円), marks (軽 ※ * 内 外), brackets and the
// quantity / unit-price words (点 個 コ X x × @ 単価 単): a continuation of an item row.
bool is_item_row_continuation(const std::string& line);

}  // namespace receipt::extract
