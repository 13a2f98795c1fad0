// How one printed line of a Latin-script receipt's item area reads, for the item-row reader
// (extract/latin_item_rows.h): money amounts, the lines that end the rows or head them, amounts that OCR damaged,
// and description text that is no item.
#pragma once

#include <optional>
#include <regex>
#include <string>
#include <vector>

#include "extract/item_rows.h"

namespace receipt::extract {

// A money amount with two decimals: optional sign and currency sign, thousands commas, a point or a comma before
// the cents ("$70.56", "RM136.38", "-5,88", "£ 7.09", "1,234.50"). Four groups: sign, sign after the currency,
// integer part, decimals.
extern const char* const kMoney;
// A unit price: the same with two to four decimals ("2.9000"), rounded to cents when read.
extern const char* const kUnitMoney;

// The amount of a kMoney / kUnitMoney match whose first group is `first`, rounded to cents; nullopt for more than
// nine integer digits.
std::optional<double> money_of(const std::smatch& m, size_t first);

// The line that ends the item rows (`upper`: the line upper-cased): a subtotal or total keyword at its start (also
// after a restaurant's order kind: "TAKEOUT TOTAL", "EAT-IN TOTAL"), or
// a tax line ("TAX 7%", "VAT 20%"; not the "TAX INVOICE" title or a "GST ID NO" / "VAT No." registration line of
// the header), or a subtotal / total keyword that OCR damaged: look-alike digits inside a word read as letters
// ("5UB TOTAL", "SUB-TOTA1") and then at most one letter lost, added or changed ("TOTL SAES", "TATAL SALES").
bool is_end_line(const std::string& upper);

// A header line above the item rows: a date or time, a cashier / operator / transaction label (or one that OCR
// damaged, with its number after it: "OERATOR 59874", or alone with its colon: "CASHIR:"), a table heading, a
// currency column heading, a restaurant's table number or order kind ("TBL64 / 1", "EAT IN", "TAKE AWAY").
bool is_header_line(const std::string& upper);

// A receipt's lines three ways, each trimmed and cut to 200 bytes: look-alikes next to digits read as digits
// (`read`, for amounts: printed_lines), as printed (`printed`, for descriptions) and upper-cased as printed
// (`upper`, for keywords). A tax code after an amount ("2.85 T", "41.95 SR") is cut off in `read` and `printed`.
struct LatinRowLines {
    std::vector<std::string> read, printed, upper;
};

// `l` with a size that ends a description and the row's amount that OCR ran together set apart ("MAGGI CURRY
// 5S6.15", which the look-alike reading takes for 556.15 -> "MAGGI CURRY 5S 6.15"); nullopt when no line has one.
// The row reader tries these lines after the lines as read (extract/latin_item_rows.h).
std::optional<LatinRowLines> with_glued_sizes_apart(const LatinRowLines& l);

// `line` with the unit price and the amount of a one-line row that OCR ran together set apart, when the count
// times the price is the amount ("1 TISSUE 10S 8.808.80" -> "1 TISSUE 10S 8.80 8.80"); else `line` as it is.
std::string with_run_together_amounts_apart(const std::string& line);

// The lines of `text`; nullopt when the two readings disagree on the line count or there are too many lines. A
// subtotal label broken over two lines ("SUB" / "TOTAL") is one line, and a one-line row's run-together unit price
// and amount are set apart (with_run_together_amounts_apart).
std::optional<LatinRowLines> latin_row_lines(const std::string& text);

// The first line of the item rows that end at line `end` of `l`: the line after the last header line above it
// (is_header_line), past a cashier's or transaction's number ("OPERATOR" / "13B", "48326").
size_t first_row_line(const LatinRowLines& l, size_t end);

// The amount printed on line `e` of `l` (`l.read`: at its end) or alone on the line after it, or on the one after
// that when the label goes on over the next line without a digit ("TOTAL SALES (EXCLUDING" / "GST)" / "RM208.00"):
// a subtotal / total line's own ("TOTAL: $53.54", "SUB TOTAL" / "RM9.10"); nullopt when none holds one.
std::optional<double> end_line_amount(const LatinRowLines& l, size_t e);

// An amount that OCR damaged, alone on its line: a number with a point and other than two decimals or no digit
// before it ("1.8", "17.2", ".00", "-2.8"), or four or five digits without one ("1451": the point lost), or three
// from a 0 ("060").
bool is_damaged_amount(const std::string& line);

// The digits of an amount with its two decimals: 12.00 -> "1200", 0.56 -> "056".
std::string cents_digits(double value);

// Whether `print` (a damaged amount line, or any digits) holds the digits of `value` (cents_digits) in order, with
// at most two lost, and its sign ('-' in `print` for a negative value).
bool digits_fit(const std::string& print, double value);

// A description without the row number or product code printed before it ("1. MAX 10-1M STAPLES",
// "910347623 ALMOND CAKE").
std::string without_row_number(const std::string& desc);

// A description (upper-cased) that names a total, tax, rounding or payment line, not an item ("CASH",
// "RELIEF GST", "ROUNDING").
bool names_no_item(const std::string& upper);

// True when the upper-case description `upper` names a discount row alone ("DISCOUNT", "MEMBER DISC", "PROMO",
// "COUPON"): its amount takes something off, with a minus sign or without one that OCR lost.
bool names_discount(const std::string& upper);

// The totals printed with the subtotal / total lines from line `end` (the one that ends the rows) to `end` +
// `below`: the amount of each such line below `end` is appended to `later_totals` ("GST 6%" / "RM0.34" / "TOTAL
// AMOUNT" / "RM6.02"), and an amount OCR damaged on one without an amount (on the line after it: "OTAL:" / "£65.9",
// or at its end: "SUB TOTAL $44.9") to `damaged_totals`, as printed.
void totals_below_end(const LatinRowLines& l, size_t end, size_t below, std::vector<double>& later_totals,
                      std::vector<std::string>& damaged_totals);

// A row description that OCR dropped a letter from takes another row's that prints the same item whole (receipts
// repeat items: "ORANGE JICE" and "ORANGE JUICE"; not a digit: "SUGAR 1KG" and "SUGAR 12KG" are two items).
// Descriptions of 5+ bytes.
void descriptions_from_other_rows(std::vector<ItemRow>& rows);

}  // namespace receipt::extract
