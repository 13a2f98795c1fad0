// Consistency checks of an extracted receipt (sums, quantity x unit price, tax plausibility).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace receipt::extract {

// Absolute tolerance of money comparisons.
inline constexpr double kAmountTolerance = 0.01;
// Tax above this share of the total is implausible (the highest VAT/GST rates are about 25 %).
inline constexpr double kMaxTaxShare = 0.25;

// Checks a schema object (missing / non-numeric values are skipped) and returns warnings, each
// "<code>: <detail>":
//   items_sum_mismatch   the line item amounts sum to neither net_amount nor total_amount (within 0.01), nor to
//                        total_amount - total_tax_amount when net_amount is absent; matching the total covers
//                        tax-inclusive (内税) receipts
//   item_amount_mismatch an item's quantity x unit_price differs from its amount (a discount printed with a
//                        positive unit price and a negative amount is accepted)
//   net_tax_total_mismatch  net + tax != total and net != total (when all three are present)
//   negative_tax, tax_exceeds_total, tax_implausible (> 25 % of total), negative_total
// Never throws. Thread-safe.
std::vector<std::string> validate_fields(const nlohmann::json& fields);

// True when `warning` is one validate_fields() writes (its code is one of those above): after a value changes,
// these are the warnings to recompute.
bool is_validation_warning(const std::string& warning);

}  // namespace receipt::extract
