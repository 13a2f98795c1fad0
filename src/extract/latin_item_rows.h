// Line items read from the printed item rows of a receipt in a currency with cents (US, UK, Malaysian receipts),
// without the model: the counterpart of extract/item_rows.h for Latin-script receipts. The model, trained from
// scratch, often pairs a description with its neighbour's amount, drops a row or writes one it saw in training,
// while the rows between the header and the subtotal print every item:
//   MILO 1KG / $70.56 / 3 @ 23.52          (description, amount, then count @ unit price)
//   CAFFE LATTE GR / 2 X 4.34 / 8.68       (count x unit price between them)
//   1 / MEE GORENG / 7.20 / 7.20           (a QTY DESC PRICE AMOUNT table, one box per line)
//   2 AMERICANO TALL 3.36 6.72             (the same on one line)
//   6x R1CE 5KG / 107.70                   (count before the description)
//   MEMBER DISC / -2.20, COUPON -0.35      (discounts: negative amounts)
// The reading is used only when it adds up to the printed subtotal or total (extract/item_checks.h).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "extract/item_rows.h"

namespace receipt::extract {

// The printed item rows of `text` and the amount printed with the line that ends them, as read_latin_item_rows
// finds them.
struct LatinItemRows {
    std::vector<ItemRow> rows;
    std::optional<double> end_amount;  // the amount on the subtotal / total line that ends the rows, or the next line
};

// The item rows of `text` (printed_lines: OCR look-alikes next to digits read as digits, "23.S2" = 23.52), from the
// line after the last header line (a date or time, a cashier / operator / transaction label with the number after
// it, a QTY / DESC / PRICE / AMOUNT table heading) above the first subtotal or total line (SUBTOTAL, SUB TOTAL,
// Sub-Total, TOTAL..., BALANCE DUE, GRAND TOTAL, AMOUNT DUE, or a tax line: TAX 7%, VAT 20%) to that line; a
// header label that OCR damaged counts when its number follows it ("OERATOR 59874"). Product codes (6-14 digits
// alone on a line) are skipped, and so is a tax code after an amount ("2.85 T", "41.95 SR"). Amounts have two decimals (a comma
// for the point is read too, "7,75"), an optional currency sign ($, £, €, RM) and sign. A description split over
// lines is joined with a space. May throw std::regex_error on a pathological line (check_latin_items catches it).
// nullopt when no such total line is printed, when a line cannot be placed (an
// amount with no description before it, a description with no amount after it), or when nothing is read.
std::optional<LatinItemRows> read_latin_item_rows(const std::string& text);

}  // namespace receipt::extract
