// The line items of a receipt checked against its printed item rows and its subtotal, after decoding (yen receipts
// and, below, receipts with cents). A model
// trained from scratch loses its way in long item lists and copies amounts that OCR damaged; the rows between the
// header and the subtotal (extract/item_rows.h), the amount printed on an item's row (extract/printed_items.h) and
// the subtotal they must add up to (extract/dropped_digit.h) repair them, each repair with a warning.
#pragma once

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

namespace receipt::extract {

// Repairs the "line_items" of `fields` (a yen receipt's schema object, with its "warnings") against the receipt
// `text`, in this order:
//  - the printed rows replace the model's items when they add up to `subtotal` (the amount after the subtotal
//    keyword; `total` when there is none) and the model's do not, a row whose amount lost one digit to OCR read
//    with the digit back; when both add up, a model item whose description is not printed takes the row's;
//  - otherwise each model item printed as a row gets the row's amount, unless the model's items added up and the
//    rows' amounts would not (a box OCR moved beside the description);
//  - then an item amount that lost one digit to OCR gets it back when that makes the items add up (not when the
//    model's output was cut short);
//  - then items that still do not add up give way to the printed rows when those hold every item (by
//    description) and more and come closer to the subtotal (the model dropped rows of a long, damaged list), and
//    a row amount that lost one digit gets it back where that makes them add up (also when the model's output was
//    cut: the items are the rows now);
//  - then one item of one unit whose count line makes the items add up, or one printed row that no item reads
//    whose amount is what they fall short by (extract/items_short.h);
//  - last, an item whose quantity and unit price do not multiply to its amount gets the ones that do (a count of
//    1-99 kept when it divides the amount, else the unit price, else one unit).
void check_yen_items(const std::string& text, const std::optional<double>& subtotal,
                     const std::optional<double>& total, nlohmann::ordered_json& fields);

// The line items of a receipt in a currency with cents checked against its printed item rows
// (extract/latin_item_rows.h): when the rows add up to the amount printed on the subtotal / total line that ends
// them, else to the net or the total amount of `fields`, they replace the model's items unless those add up too
// (then a model item whose description is not printed takes the row's with its amount); a row keeps the model's
// description when it reads the printed one through OCR damage. When none of those readings adds up, the readings
// of an item table written one box per line (extract/latin_table_rows.h) are tried the same way. One warning names
// the change. Then each item whose quantity and unit price do not multiply to its amount (within half a cent) gets
// the ones that do, as for yen (the unit price amount / count rounded to cents when that makes the amount), unless
// the receipt prints the model's unit price (before a discount or tax, "80.00" for 84.80 with 6% GST). Never throws.
void check_latin_items(const std::string& text, nlohmann::ordered_json& fields);

}  // namespace receipt::extract
