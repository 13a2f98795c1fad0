// The checks of a receipt's store name and address after decoding (run first by apply_post_checks,
// extract/post_checks.h): the registered company line, a name that is a piece of the address or ran on into it, a
// chain and its branch line as printed, an address cut to its printed lines, house numbers and buildings as printed.
// Each repair adds a line to fields["warnings"] where it changes what the model wrote.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "receipt/extractor.h"

namespace receipt::extract {

// Repairs fields["supplier_name"] and fields["supplier_address"] against the receipt `text`, as options.copy_name
// and options.copy_address allow.
void check_name_and_address(const std::string& text, const ExtractOptions& options, nlohmann::ordered_json& fields);

}  // namespace receipt::extract
