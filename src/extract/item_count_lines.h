// Yen line items whose count line the model did not apply. A Japanese receipt prints the count of a product bought
// several times on a line of its own under the row ("マヨネーズ 450g" / "¥924軽" / "(3点 単価¥308)"); the model
// sometimes writes the unit price as the item's amount, one unit, and the items then fall short of the subtotal by
// (count - 1) units.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace receipt::extract {

// For items that do not add up to `target` (the subtotal, else the total): the one item of one unit whose amount is
// the unit price U of a count line "(N点 単価U)" that the receipt prints (its box may be split over two lines: "(3点"
// / "単価¥498)"), where (N - 1) U is exactly what the items fall short by, gets quantity N, unit price U and amount
// N U, with a warning. Nothing changes when no item, or several, fit. Returns whether an item changed.
bool items_with_printed_count(const std::string& text, double target, nlohmann::ordered_json& fields);

}  // namespace receipt::extract
