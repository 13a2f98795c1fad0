// Line items read from the printed item rows of a Japanese (yen) receipt, without the model. A model trained from
// scratch loses its way in long item lists (it drops items, repeats others, or writes items of another shop), while
// the rows between the header and the subtotal print every item with its amount:
//   炭酸水 500ml / 72軽 / お惣菜 コロッケ / 81軽 / 冷凍うどん 5食 514軽 / (2点 単価257) / 値引 / -¥20 / 小計 / 8,548
// The reading is used only when it adds up to the printed subtotal (extract/post_checks.cpp).
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace receipt::extract {

// Receipts with more lines than this are not read (a receipt prints far fewer; the row search is quadratic).
inline constexpr size_t kMaxItemRowLines = 1000;

// One item row as printed.
struct ItemRow {
    std::string description;
    std::optional<double> quantity;    // the row's count (2点, x 2), else 1; none for a discount
    std::optional<double> unit_price;  // the row's unit price (単価257, @1298), else the amount; none for a discount
    double amount = 0;                 // negative for a discount (値引, 割引, クーポン)
};

// The item rows of `text` (lines of printed_lines), from the line after the first date line to the first
// subtotal / total line (小計, 合計, お会計, 総計). A row is a line holding text (its description: the whole line
// when the amount follows on the next lines, else the line without a trailing amount part after a space,
// "冷凍うどん 5食 514軽" -> "冷凍うどん 5食", never cut at a size: "歯磨き粉 120g \508" -> "歯磨き粉 120g", also when the
// look-alike reading made "1209" of it; the line's own amount wins over one on the lines after it when it is the
// count line's count times unit price; a leading product code and tax marks go), or such a line and the next
// when OCR split the description ("じゃがいも" / "袋"), whose amount PrintedItems reads from the row; a discount
// row names 値引, 割引 or クーポン and prints a negative amount ("-¥100", "ー1,814円") on its line or the next.
// Lines without an amount (register, clerk, time lines) are not items, nor are a tax mark in its own box ("※"),
// a register line ("POS8") and a clerk's name under its label ("担当者" / "高橋"); a leading product code goes,
// also with a digit or its space lost ("822 食器用洗剤", "0189牛乳"). The totals line is also found as OCR damages it (台計, 合言, "計 (2点)", 合 and
// 計 on two lines). Without a date line above the totals the rows are read from the top. nullopt when no subtotal /
// total line is printed.
std::optional<std::vector<ItemRow>> read_item_rows(const std::string& text);

// The sum of the amounts of `rows`, rounded to cents.
double rows_sum(const std::vector<ItemRow>& rows);

// Whether read_item_rows(text) reads rows whose amounts add up to `amount` (within half a yen).
bool item_rows_add_up_to(const std::string& text, double amount);

}  // namespace receipt::extract
