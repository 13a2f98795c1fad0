// The checks that run on each receipt's parsed fields after decoding: they compare the model's values with what
// the receipt prints and repair them (a date or total that is not printed, per-rate taxes, yen totals and item
// rows, the registered company, a branch line), each repair with a warning. The constrained decoding passes
// (copy constraints, the name and address passes) run before, in extract/extractor.cpp.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "receipt/extractor.h"

namespace receipt::extract {

// The name pass copies from, and the branch check looks at, the first kNameLines lines of a receipt (a store name
// is printed at the top: on SROIE validation and the Japanese development set within the first three lines).
inline constexpr int kNameLines = 4;

struct KnownLists;

// Repairs `fields` (the schema object of one receipt, with its "warnings") against the receipt `text`; `target`
// is the model's raw output for it. Which checks run follows options.copy_name / copy_date / copy_numbers; with
// `known` (store names and item descriptions known from training, extract/known_names.h), a store name (with
// options.copy_name) and item descriptions OCR damaged get their known spellings.
void apply_post_checks(const std::string& text, const std::string& target, const ExtractOptions& options,
                       nlohmann::ordered_json& fields, const KnownLists* known = nullptr);

}  // namespace receipt::extract
