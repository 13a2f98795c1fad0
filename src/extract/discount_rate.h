// Percentage discount lines of a Japanese receipt ("割引 10%", "10%引", "20%OFF") take that share of the item above
// them, rounded down by most tills (some round): the model often writes the item's own amount, or a piece of a
// number OCR damaged, in its place.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace receipt::extract {

// Repairs the percentage discount items of `fields["line_items"]` (a yen receipt's schema object, with its
// "warnings") against the receipt `text`: a discount item whose amount is not minus the share of the item before it
// (rate x amount / 100 rounded down, to nearest or up, at least 1) gets the share that the discount's printed row
// (the line with its rate and the two after it) holds, or the rounded-down share when the row holds it with one
// digit that OCR dropped ("-¥7" for 77); quantity 1 and unit price the same amount. Warning
// line_item_discount_from_rate. Returns true when it changed an item. Never throws.
bool discounts_from_rate(const std::string& text, nlohmann::ordered_json& fields);

}  // namespace receipt::extract
