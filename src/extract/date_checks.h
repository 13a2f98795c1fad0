// The receipt date and time checks of the post-checks (extract/post_checks.h): a date or time that is not printed
// becomes the printed one closest to it; a date that OCR damaged is read through its printed weekday; a date or
// time that lost a digit the receipt cannot restore is reported as none (extract/unreadable_date_time.h).
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace receipt::extract {

// Repairs fields["receipt_date"] and fields["purchase_time"] of one receipt against its `text`, each repair with
// a line in fields["warnings"].
void check_date_and_time(const std::string& text, nlohmann::ordered_json& fields);

}  // namespace receipt::extract
