// Money amounts and quantities as printed on receipts -> numbers. Pure functions; thread-safe; never throw.
#pragma once

#include <optional>
#include <string_view>

namespace receipt::extract {

// Largest absolute amount / quantity accepted; larger values (and NaN / inf text) are rejected as garbage.
inline constexpr double kMaxAbsAmount = 1e12;
inline constexpr double kMaxAbsQuantity = 1e6;

// Parses one printed amount:
//   "1080", "1,080", "¥1,080", "￥1,080", "1,080円", "\1,080" (backslash yen), "1,080.50", "1.080,50" (European),
//   "1 080,50", "RM 12.50", "$12.50", "USD 12.50", "-50", "▲50", "△50", "(50)", "50-" (trailing minus, but not
//   after a yen marker, where "¥1,000-" is a terminator).
// A lone ',' followed by 1-2 digits is a decimal comma ("12,50"), by 3 digits a thousands separator ("1,080").
// A lone '.' followed by 3 digits is a thousands separator ("1.080" = 1080) unless the integer part is 0.
// Thousands groups must have 3 digits. Returns nullopt for empty text, text with anything besides the number,
// sign markers, currency symbols/codes (up to 3 letters) and '円', or |value| > kMaxAbsAmount.
std::optional<double> normalize_amount(std::string_view text);

// Parses a quantity: "2", "1.5", "0,5", "x2", "×2", "2x", "2個", "2 pcs", "1.250kg". Returns nullopt when no
// number is found, a second number follows, or |value| > kMaxAbsQuantity.
std::optional<double> normalize_quantity(std::string_view text);

}  // namespace receipt::extract
