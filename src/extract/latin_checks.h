// Post-check steps for receipts printed in Latin script (extract/post_checks.h): the store name and the net, tax
// and total read from the print where the model's values are not (extract/latin_header.h, extract/latin_totals.h).
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace receipt::extract {

// A Latin-script fields["supplier_name"] that ran on from its header line into the address below it ("WAITROSE 186
// Market Street") becomes that line; one that names no shop (a document title, a house number or, within an OCR
// slip, a piece of the address) becomes the first header line outside the address. Names with a company suffix
// (SDN BHD) stand. Each change adds a line to fields["warnings"].
void check_latin_name(const std::string& text, nlohmann::ordered_json& fields);

// The net, tax and total of a receipt with cents: a printed subtotal, tax line and their sum printed below them
// replace the model's three values when those do not add up (a garbled or missing number, the net written as the
// total); then the amount of the receipt's tax lines, when they print one, is the tax. Each change adds a line to
// fields["warnings"] and the validation warnings are recomputed.
void check_latin_totals(const std::string& text, nlohmann::ordered_json& fields);

}  // namespace receipt::extract
