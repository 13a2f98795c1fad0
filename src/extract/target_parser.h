// Target text (what the model emits) -> schema JSON object with warnings. The inverse is fields_to_target
// (declared in target_format.h, included here so that callers get both).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "extract/target_format.h"

namespace receipt::extract {

// Limits that keep parsing cheap on adversarial input.
inline constexpr size_t kMaxTargetBytes = 64 * 1024;  // longer text is cut (with a warning)
inline constexpr size_t kMaxValueBytes = 1024;        // longer text values are cut (with a warning)
inline constexpr size_t kMaxLineItems = 500;          // further items are dropped (with a warning)
inline constexpr size_t kMaxWarnings = 50;            // further warnings are counted in one last warning

// Parses target text into an object with every schema key (absent values are null, line_items is an array)
// plus "warnings": an array of strings, each "<code>: <detail>" (codes are listed in docs/target-format.md).
// Values are normalised: dates to YYYY-MM-DD, times to HH:MM, currencies to ISO 4217, amounts and quantities
// to numbers (integers when integral), phones without labels, addresses without 〒 postal codes.
// Lenient and deterministic: unknown / duplicated keys, truncated items, garbage numbers, missing separators and
// invalid UTF-8 yield the best partial object plus warnings. Runs validate_fields() and appends its warnings.
// Never throws. Thread-safe.
nlohmann::json parse_target(std::string_view text);

// An object with every schema key set to null, line_items = [] and warnings = [].
nlohmann::json empty_fields();

}  // namespace receipt::extract
