// Currency codes and symbols -> ISO 4217 codes. Pure function; thread-safe; never throws.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace receipt::extract {

// Returns the ISO 4217 code for `text`: an active code in any case ("jpy" -> "JPY"), or a symbol / local word
// standing alone: ¥ ￥ 円 \ (JPY), 元 RMB (CNY), RM (MYR), S$ (SGD), HK$ (HKD), NT$ (TWD), A$ (AUD), C$ (CAD),
// NZ$ (NZD), US$ and a bare $ (USD), € (EUR), £ (GBP), ₩ 원 (KRW), ₹ (INR), ฿ (THB), ₱ (PHP), Rp (IDR),
// ₫ (VND). Returns nullopt for anything else (unknown codes, amounts, empty text).
std::optional<std::string> normalize_currency(std::string_view text);

// True when `code` is an ISO 4217 currency whose amounts are printed without minor units (JPY, KRW, VND, ...).
bool currency_without_minor_units(std::string_view code);

// True when a Japanese receipt text (one with CJK characters) prints an amount in yen: a digit right after ¥, ￥
// or \\, or right before 円. For a receipt whose currency the model left out (its output cut short).
bool prints_yen_amounts(std::string_view text);

}  // namespace receipt::extract
