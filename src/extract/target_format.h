// The linearised "target text" the T5 model emits, and fields -> target text (docs/target-format.md).
//   name: <v> | addr: <v> | tel: <v> | date: <YYYY-MM-DD> | time: <HH:MM> | cur: <ISO> |
//   item: <desc> ; <qty> ; <unit_price> ; <amount> | item: ... | net: <n> | tax: <n> | total: <n>
// train/target_format.py is the Python twin of this file; both must produce byte-identical text.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

namespace receipt::extract {

// Keys of the target text, in their fixed order.
enum class TargetKey { kName, kAddr, kTel, kDate, kTime, kCur, kItem, kNet, kTax, kTotal };

struct TargetKeyInfo {
    TargetKey key;
    std::string_view name;   // in the target text ("addr")
    std::string_view field;  // in the schema JSON ("supplier_address"); "line_items" for kItem
};

inline constexpr TargetKeyInfo kTargetKeys[] = {
    {TargetKey::kName, "name", "supplier_name"},  {TargetKey::kAddr, "addr", "supplier_address"},
    {TargetKey::kTel, "tel", "supplier_phone"},   {TargetKey::kDate, "date", "receipt_date"},
    {TargetKey::kTime, "time", "purchase_time"},  {TargetKey::kCur, "cur", "currency"},
    {TargetKey::kItem, "item", "line_items"},     {TargetKey::kNet, "net", "net_amount"},
    {TargetKey::kTax, "tax", "total_tax_amount"}, {TargetKey::kTotal, "total", "total_amount"},
};

// Schema keys of one line item, in order.
inline constexpr std::string_view kItemFields[] = {"description", "quantity", "unit_price", "amount"};

// Separators of the target text.
inline constexpr std::string_view kSegmentSeparator = " | ";
inline constexpr std::string_view kItemSeparator = " ; ";

// The info of `key`.
const TargetKeyInfo& target_key_info(TargetKey key);
// The key named `name` (exact, lower-case: "addr"), or nullopt.
std::optional<TargetKey> target_key_from_name(std::string_view name);

// A value made safe for the target text: invalid UTF-8 repaired, '|' ';' '｜' '；' replaced by '/', control
// characters treated as spaces, whitespace runs collapsed to one space, trimmed.
std::string clean_target_value(std::string_view value);

// The shortest decimal that round-trips `v`, in fixed notation without exponent ("1080", "12.5", "0.0001");
// -0 prints as "0". Empty for NaN / inf.
std::string shortest_decimal(double v);
// An amount for the target text: shortest_decimal, then a fractional part padded to 2 digits ("12.50"); an
// integral value gets ".00" only when `minor_units` (the currency is known and has cents): "1080", "12.00".
std::string format_amount(double v, bool minor_units);
// A quantity for the target text: shortest_decimal ("2", "1.5", "0.345").
std::string format_quantity(double v);

// Linearises a schema object (the keys of docs/receipt.schema.json; "warnings" and unknown keys are ignored)
// into target text. Absent, null and empty values are omitted; numbers are formatted with format_amount /
// format_quantity, strings are passed through clean_target_value. Never throws.
std::string fields_to_target(const nlohmann::json& fields);

}  // namespace receipt::extract
