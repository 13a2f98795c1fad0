// Line items whose description the receipt does not print. A model trained from scratch that loses its way in a
// damaged receipt writes items of another shop it saw in training ("牛めし 並" and "日替わり定食" on a udon
// shop's receipt); such an item is worse than a missing one. OCR damages printed descriptions too ("おにり" for
// おにぎり), so the test is loose: the description's characters, in order, against each printed line.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace receipt::extract {

// Fewest of a description's characters (whitespace aside) that one printed line must hold in order (as a longest
// common subsequence) for the item to count as printed. On the development sets (dev_ja, dev2_ja and the synthetic
// validation set) all 11 model items below 0.4 were wrong; from 0.4 up most are right (OCR damage).
inline constexpr double kPrintedItemShare = 0.4;

// Share of `description`'s code points (whitespace aside, full-width ASCII folded, ASCII letters lower-cased) that
// the best line of `text` holds in order: LCS(description, line) / |description|, the maximum over lines. 1 for an
// empty description.
double printed_share(const std::string& text, const std::string& description);

// Removes from fields["line_items"] the items whose description has printed_share < kPrintedItemShare, with a
// "line_item_not_printed" warning naming them; true when it removed any. Items without a description string are
// kept. Never throws.
bool drop_unprinted_items(const std::string& text, nlohmann::ordered_json& fields);

}  // namespace receipt::extract
