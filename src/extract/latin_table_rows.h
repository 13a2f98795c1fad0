// Line items of a receipt whose item table OCR wrote one box per line, read without the model. Many Malaysian
// receipts print each item as a row of columns, code, quantity, unit price, amount and tax code, with the
// description on the line below them:
//   ITEM / QTY / S/PRICE / AMOUNT / TAX / E8318 / 1 / 80.91 / 80.91 / SR / ELEGANT SCHTR BAG 15 / TOTAL QTY
//   QTY / DESCRIPTION / TOTAL TAX / 1 / D / 15.00 SR / RICE W SEAFOOD / 1 / D / 5.00 SR / BEVERAGE / TOTAL ...
// and others print the description first, with more columns than the row reader of extract/latin_item_rows.h
// takes (a discount percentage, a product code of 4-5 digits):
//   NO.DESC/CODE / QTY / PRICE DISC% / AMOUNT / 1 NORMAL KEY / 33100 / 4 / 4.00 / 0.00 / 16.00 / SUB-TOTAL ...
// or no heading at all, a shelf location and a barcode between the description and its numbers:
//   -INVOICE- / CHOPPING BOARD 35.5X25.5CM / EZ10HD05 - 24 / 8970669 / 1 / X / 19.00 / 19.00 / ITEM(S) : 4
// or numbered rows, rows of a count and description with the parts of a set unpriced, or the numbers first below
// header text, with promotions:
//   CASH SALES COUNTER / 1. 7002-0014 / THERMAL ROLL / (BLUE) / 1 X 35.0000 / 35.00 / SR / TOTAL SALES ...
//   QTY ITEM / TOTAL / 1 BM 2HOTCAKES / 10.00 / 1 L COKE / 2 CHICMCMUFFIN / 11.00 / TAKEOUT TOTAL (INCL GST)
//   SHOPPING HOURS / 1X 000008204363 / 14.99SR / KIT KAT SHARE B / ITEM PROMO @9.99 / -5.00 / 1X / ... / SUB-TOTAL
// The model, trained on few such receipts, writes items of other shops for them. These readings are a fallback
// for that reader: extract/item_checks.h uses one only when its rows add up to a total the receipt prints.
#pragma once

#include <string>
#include <vector>

#include "extract/latin_item_rows.h"

namespace receipt::extract {

// The readings of the item table of `text` (lines of latin_row_lines), from below a table heading (a run of lines of
// words such as ITEM, QTY, DESCRIPTION, U.PRICE, AMOUNT, TAX, (RM) and nothing else, no colon, one of them a key word:
// ITEM, QTY, DESC, PRICE, AMOUNT ...; a heading line's TOTAL names a column; the first heading that gives a reading,
// above any tax summary; else from below the last header line above the first end line and the first money amount
// (a date, a cashier label, "-INVOICE-", heading words such as "RM" / "CODE"), then below the one above it (a
// description such as "STORAGE BOX 70581" reads as a label and its number), and below any heading line left before
// the first end line (a subtotal / total line, a gross or net amount line, "TAKEOUT TOTAL", or one that counts the
// items: "TOT QTY:", "TOTAL QUANTITY", "QTY:", "ITEM(S) : 2", "ITEM: 2", "TYPE", "8 NO", a "QTY" line with its
// count below the rows), or a rounding line (its end amount the total below it less the rounding), to that line. Each
// line there is (extract/latin_table_cells.h) a money amount (a tax code after it allowed: "15.00 SR", "53.00S",
// "6.40 SR*", "0.20SR", a course letter before it: "D 120.00 SR"; "11.60-" negative; "165 SR"), a unit price of 3-4
// decimals or after an "@" ("0.7500", "@ 9.23"), a count ("1", "2 X", "1 PC", "1.00 PKT", "3 UNIT *", "1 CTN", "1X
// 000001888854"), a count and unit price ("1 X 2.10", "@5 X RM 12.50", "12.50*2", "122 PCS @ 18.90", "0.434 X
// 39.90"), a product code ("4060150000005", "FG-A00019", "E8318", "MFF350", a shelf location "EZ10HD05 - 24",
// "LE51/2 - 12/48"), a tax code alone ("SR", "D", "[SR]"), a unit ("EA", "-UNIT"), a line without letters or digits
// or a bare label ("ITEM NO. :", "RM": skipped), description text (two or more letters), or a row's number ("1.
// 7002-0014", "1)9557892102639 IBUPROFEN"). The rows are read in four ways, a reading for each that gives rows:
//   - numbered: each row from its number to the next (1, 2, 3, ...), the description up to its first number line;
//   - numbers first: runs of number lines and runs of text lines alternate, every number run followed by its
//     description run; below the header, text above the first numbers is left out when every number run starts with
//     a count or a code (its last line starts the first description unless every number run holds a code);
//     negative amounts at the start of a number run (or after the last description) are the discount of the row
//     above, described by its last text line ("ITEM PROMO @9.99" / "-5.00");
//   - counted: each text line a row, starting with its count ("1 L COKE"), the money amount below it its amount; one
//     without an amount is a part of a set (amount 0, unit price 0), a line without a count a note on the row above;
//     only where a run of text holds two counted lines or the last row is such a part;
//   - text first: the numbers after a row's last money amount are the next row's, printed before its description,
//     and so are numbers without a money amount before the first description; but a count and unit price that make
//     the row's amount stay with it ("1.14" / "2 @ 0.57"); a description runs from the last line of its text that
//     starts with a count (the lines above are notes on the row above), the first below the header is one line.
// A fuel sale ("35.10 LITRE PUMP # 02" / "V-POWER 97" / "86.00 A" / "2.450" / "/LITRE") is the one reading when the
// litres times the price per litre make the amount. A row's amount is the last money amount of its numbers, its count
// the first count printed that times a unit price makes the amount (else the first count above 0, else the whole number
// of units of a printed unit price, else 1) and its unit price that price (else the amount over the count when that is
// whole cents, else the money amount before the last: a price with tax before an amount without); "3,000 CAFE" is count
// 3 and "2 GREEN TEA @ 1.00" count 2, "GREEN TEA", unit price 1.00 ("LED TUBE @16.00": unit price 16.00); a count
// before the description when the numbers print none or when it times a printed price makes the amount ("1 STORAGE
// BOX", "17 3/4\" ROD"). A negative amount (a return, a discount) has no count and no unit price. A reading fails when
// a run of numbers has no money amount, when a row names a total, tax or payment ("TAX SR @ 6%", "CASH", "2 ITEM(S)",
// "GST SUMMARY") or when no row has an amount above 0. end_amount is the amount printed on the end line or the line
// after it (or after the count on a line that counts the items: "TOTAL QTY:" / "2" / "101.76"); later_totals those of
// the subtotal / total lines of the 12 lines below. When sections of rows follow below end lines, each adding up to the
// amount of the end line below it, a reading of all of them (at most 4; end_amount the sum of theirs) comes before the
// first section's. With text_line_cells, a text line that holds a whole row (description and numbers, as OCR that
// returns text lines writes it) is read as its cells (table::table_lines): the readings of a text in rows whose
// boxes-like reading found none. Never throws: a line that makes std::regex give up gives no reading.
std::vector<LatinItemRows> latin_table_row_readings(const std::string& text, bool text_line_cells = false);

}  // namespace receipt::extract
