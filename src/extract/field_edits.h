// Small helpers for the post-decoding checks that edit a receipt's fields (extract/post_checks.h,
// extract/item_checks.h): how a changed value is written in a warning, how an amount is stored, and the
// consistency warnings refreshed after a change.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace receipt::extract {

// What the model wrote for an amount field, for a warning: the number, or "none".
std::string written(const nlohmann::ordered_json& v);

// Replaces the consistency warnings of `fields` (extract/validate.h) by those of its current values, after an
// amount was changed; other warnings stay.
void revalidate(nlohmann::ordered_json& fields);

// An amount as JSON: an integer when it has no fraction (yen), else the number.
nlohmann::ordered_json json_amount(double v);

}  // namespace receipt::extract
