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
#include <utility>
#include <vector>

#include "extract/item_rows.h"

namespace receipt::extract {

// One reading of the printed item rows of `text` and the amount printed with the line that ends them.
struct LatinItemRows {
    std::vector<ItemRow> rows;
    std::optional<double> end_amount;  // the amount on the subtotal / total line that ends the rows, or the next line
    std::vector<double> later_totals;  // the same for the subtotal / total lines of the 6 lines below it
    // Amounts OCR damaged after the end line or those below it ("OTAL:" / "£65.9"), as printed.
    std::vector<std::string> damaged_totals;
    // A row whose amount OCR damaged ("1.8" for 1.68, "1451" for 14.51, ".00" for 16.00): its index in `rows`, whose
    // amount is 0 until rows_add_up_to (extract/latin_rows_add_up.h) gives it one, and the amount as printed. At
    // most one per reading.
    std::optional<size_t> damaged_row;
    std::string damaged_print;
};

// Every reading of the item rows of `text`, the likeliest first (printed_lines: OCR look-alikes next to digits read
// as digits, "23.S2" = 23.52). A reading runs from the line after the last header line (a date or time, a cashier /
// operator / transaction label with the number after it, a QTY / DESC / PRICE / AMOUNT table heading) above the
// first subtotal or total line (SUBTOTAL, SUB TOTAL, Sub-Total, TOTAL..., BALANCE DUE, GRAND TOTAL, AMOUNT DUE, or a
// tax line: TAX 7%, VAT 20%) to that line; a header label that OCR damaged counts when its number follows it
// ("OERATOR 59874"). More readings follow it:
//   - one from the line after each line that the reading before could not place ahead of its first row (a header
//     label OCR damaged beyond reading, "5ERVED BY:" / "8672"), at most 8;
//   - when no reading ends at the first end line, those ending at the next (a "TAX" title line over "INVOICE" is
//     not the end of the rows), at most 4 end lines.
// Product codes (6-14 digits alone on a line, or before the description) and row numbers ("1. ") are skipped,
// and so is a tax code after an amount ("2.85 T", "41.95 SR", or "T" alone on the line after it). A restaurant's
// table number and order kind ("TBL64 / 1", "EAT IN") are header lines. Unit prices may have four decimals
// ("3 X 2.9000"). Amounts have two decimals (a comma for the point is read too,
// "7,75"), an optional currency sign ($, £, €, RM) and sign. A description split over lines is joined with a space;
// a count alone before it ("1x" / "COTTON BUDS") is its count, and a count with its unit price that lost the "X"
// ("1  3.25") is read when the amount after it is their product. OCR moves and damages boxes of a row:
//   - an amount printed before its description ("3.75" / "1x ORANGE JUICE") is that one line's amount, when no
//     amount follows the line (else the line is more likely that amount's row);
//   - an amount glued to the description ("12CT4.45") is read after a letter;
//   - two rows printed as both descriptions then both amounts ("1x MILO 1KG" / "1x RICE 5KG" / "25.59" /
//     "17.68") pair in order;
//   - a table row's unit price that lost a digit (".40" / "3.40") is the amount over the count when its digits
//     fit; an amount alone above the end line is that line's ("$53.54" / "SUB TOTAL");
//   - an amount that lost a digit or its point ("1.8", "1451") is the row's count times unit price when their
//     digits hold its printed digits, else the reading's damaged row (one at most); so is a last row's amount
//     damaged and glued to it ("1x KNORR CHICKEN SOCK 17.6" above the end line or the next "1x" row), and a single
//     unit whose unit price and amount are both damaged ("1 X 3065" / "0.65": the amount has the unit price's
//     digits); a table row's amount that lost a digit after its unit price is their product ("0.95" / ".95");
//   - counts glued to the description ("2xEGGS", "ZxSUNSCREEN" with Z for 2), that lost their x on receipts
//     whose rows print "2x DESC" ("2 CHICKEN BREAST"), or read as letters ("l X 9.40") are counts; so are count
//     lines with a unit price OCR damaged ("1 X 14.1": the amount must hold its digits; "3 @ 105" after the row's
//     amount) and "X 2.50 10.00" (a count lost: amount / unit price); "M58.20" is RM58.20;
//   - the last row's amount below an end line that has none, above that line's own ("1x CHEDDAR CHEESE" /
//     "SUBOTAL" / "3.85" / "£40.68");
//   - on a receipt whose rows start with their counts ("1x PLASTERS"), a whole row printed between a description
//     and its amount ("1x PLASTERS" / "1xSHAMPOO 400ML 14.07" / "4.51" / "1x PANADOL 24S") is a row of its own,
//     the amount after it the description's;
//   - a table row whose count OCR read as a look-alike letter ("I APPLES GALA 4.70 4.70", Z for 2) has that count
//     when the count times the unit price is the amount;
//   - a description line between a row's amount and the count line that multiplies to it ("KNORR" / "34.62" /
//     "CHICKEN STOCK" / "2 @ 17.31", no amount after) is the rest of that row's description;
//   - an amount that lost its point before the count line whose product it prints ("750" / "6 @ 1.25") is 7.50;
//   - a discount row whose minus OCR lost ("MEMBER DISC" / "2.92", "PROMO 13.70") is negative (names_discount);
//   - a cashier's or operator's number of fewer than four digits, look-alike letters allowed ("OPERATOR" / "13B"),
//     is a header line (first_row_line).
// A row description that OCR dropped a letter from takes another row's that prints it whole ("ORANGE JICE" and
// "ORANGE JUICE"). A reading fails when a line cannot be placed (an amount with no description before or after it, a
// description with no amount after it), when a row names a total, tax, rounding or payment line ("CASH", "RELIEF GST"),
// or when no row has an amount above 0. May throw std::regex_error on a pathological line (check_latin_items catches
// it).
std::vector<LatinItemRows> latin_item_row_readings(const std::string& text);

// The item rows of `text` read past lines that no reading can place, for a long receipt whose model reading was
// cut: from where the readings above start (the first end line), each line a reading fails on is passed over and
// reading goes on after it, at most 8 times; the rows of the pieces are joined (a failed piece gives the rows read
// above its line). An end line with no row read above it (a header's "VAT" / "No. GB 777 8654 33") gives way to the
// next, at most 4 end lines. end_amount only when the last piece reads whole; a damaged row's amount is 0. nullopt
// when no row is read.
std::optional<LatinItemRows> latin_item_rows_skipping(const std::string& text);

// The first of latin_item_row_readings(text), nullopt when there is none.
std::optional<LatinItemRows> read_latin_item_rows(const std::string& text);

}  // namespace receipt::extract
