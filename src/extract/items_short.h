// Yen line items that fall short of the subtotal by what one printed row says. A Japanese receipt prints the count
// of a product bought several times on a line of its own under the row ("マヨネーズ 450g" / "¥924軽" / "(3点
// 単価¥308)"); the model sometimes writes the unit price as the item's amount, one unit, and the items then fall
// short by (count - 1) units. Or the model left out one row of a list that OCR damaged elsewhere ("緑茶 2L" /
// "\157軽"), and the items fall short by that row's amount. Or the model's items were another shop's and few are
// left.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "extract/item_rows.h"

namespace receipt::extract {

// For items that do not add up to `target` (the subtotal, else the total): the one item of one unit whose amount is
// the unit price U of a count line "(N点 単価U)" that the receipt prints (its box may be split over two lines: "(3点"
// / "単価¥498)"), where (N - 1) U is exactly what the items fall short by, gets quantity N, unit price U and amount
// N U, with a warning. Nothing changes when no item, or several, fit. Returns whether an item changed.
bool items_with_printed_count(const std::string& text, double target, nlohmann::ordered_json& fields);

// For items that fall short of `target` by exactly the amount of one printed row (`read`, extract/item_rows.h; a
// positive amount) whose description no item reads (reads_row, extract/item_row_match.h), the only such row: that
// row as an item, after the item that reads the row printed before it (first when none does), with a warning.
// Returns whether an item was added.
bool item_from_row_left_out(const std::vector<ItemRow>& read, double target, nlohmann::ordered_json& fields);

// Items that another shop's, left out (extract/unprinted_items.h), left far fewer than the receipt prints: when at
// most a third as many items as printed rows (`read`, at least two) are left, the rows replace them, as printed
// (amounts unconfirmed: a row that lost a digit to OCR keeps its printed amount), with a warning. The model wrote
// items of another shop for the receipt (its reading broke down), and the rows hold most of its items right where
// the model holds none. Returns whether the rows replaced the items.
bool items_from_rows_after_unprinted(const std::vector<ItemRow>& read, nlohmann::ordered_json& fields);

}  // namespace receipt::extract
