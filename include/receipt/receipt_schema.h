// The receipt schema (docs/receipt.schema.json), the model's target text (docs/target-format.md) and the
// normalisers behind them, as free functions over std types. All functions are pure and thread-safe.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace receipt {

// The schema's field names in order: supplier_name, supplier_address, supplier_phone, receipt_date,
// purchase_time, currency, line_items, net_amount, total_tax_amount, total_amount ("warnings" not included).
const std::vector<std::string>& receipt_field_names();

// Parses the model's target text into one serialized JSON object (UTF-8, not ASCII-escaped, keys in schema
// order) holding every schema key plus "warnings". `extra_warnings` (e.g. "input_truncated: ...") are put first.
// Never throws on any input, including truncated or invalid-UTF-8 text: it returns partial fields + warnings.
std::string parse_target_to_json(const std::string& target_text, const std::vector<std::string>& extra_warnings = {});

// Linearises a serialized schema object into target text (the inverse of parse_target_to_json for canonical
// values). Throws InvalidInput when `fields_json` is not a JSON object.
std::string fields_json_to_target(const std::string& fields_json);

// "YYYY-MM-DD" of the first date in `text` (ISO, Western, month names, Japanese incl. eras), "" when none.
// `japanese` reads all-two-digit dates as yy/mm/dd; Japanese text in `text` implies it.
std::string normalize_date(const std::string& text, bool japanese = false);

// "HH:MM" (24-hour) of the first time in `text`, "" when none.
std::string normalize_time(const std::string& text);

// The amount printed in `text` ("¥1,080", "1.080,50", "RM 12.50", "▲50", "(50)"), nullopt when not a clean
// amount.
std::optional<double> normalize_amount(const std::string& text);

// The phone number printed in `text` without labels ("TEL 03-1234-5678" -> "03-1234-5678"), "" when none.
std::string normalize_phone(const std::string& text);

// The ISO 4217 code for a code or symbol ("jpy", "¥", "円", "RM", "€"), "" when unknown.
std::string normalize_currency(const std::string& text);

}  // namespace receipt
