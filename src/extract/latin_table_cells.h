// The lines of a receipt's item table that OCR wrote one box per line, each classified as what it holds (an amount,
// a count, a product code, description text, ...), and the item row of a description and its numbers. Used by the
// readings of extract/latin_table_rows.h.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "extract/item_rows.h"
#include "extract/latin_row_lines.h"

namespace receipt::extract::table {

// What one line of the table holds.
enum class Cell { kSkip, kMoney, kPrice, kCount, kCountPrice, kCode, kTaxCode, kRowNumber, kOther, kText };

struct Line {
    Cell cell = Cell::kSkip;
    // kMoney: the amount; kPrice: a unit price of 3-4 decimals ("0.7500"); kCount / kCountPrice: the count;
    // kRowNumber: the row's number
    double value = 0;
    double price = 0;          // kCountPrice: the unit price
    std::string text;          // kText, kRowNumber, kOther: the line as printed
    std::string after_number;  // kRowNumber: the description after the number, if any (none after a code)
    bool with_code = false;    // kCount: a product code follows the count on its line ("1X 000001888854")
};

// A run of lines of one kind: text, or numbers (every other cell).
struct Run {
    bool text = false;
    std::vector<Line> lines;
};

// 0: not a heading line; 1: heading words only; 2: with a key heading word (ITEM, QTY, DESCRIPTION, PRICE, ...).
// A label with a colon is none ("TOTAL QTY:", "QTY:" count the items below the rows).
int heading_kind(const std::string& upper);

// Whether a line (upper-cased) counts the items above it: "TOT QTY:", "TOTAL QUANTITY", "QTY:", "ITEM(S) : 2",
// "ITEM: 2". It ends the rows of a table and is no heading line.
bool counts_items(const std::string& upper);

// Whether line i is part of a table heading: a run of heading-word lines with a key word in it ("DESCRIPTION" /
// "QTY" / "U.PRICE" / "TOTAL" / "TAX": the "TOTAL" there is a column, not the end of the rows).
std::vector<bool> table_headings(const LatinRowLines& l);

// Whether a line is description text where runs of text and number lines pair into rows: text, or a numbered
// description line ("2. MAX 10-1M STAPLES").
bool is_text(const Line& c);

// What a line holds, from its reading with OCR look-alikes as digits (`read`), as printed and upper-cased.
Line classify(const std::string& read, const std::string& printed, const std::string& upper);

// The lines of a table and what each holds (classify): `lines`, and `cells`, one per line.
struct TableLines {
    LatinRowLines lines;
    std::vector<Line> cells;
};

// `l`, each line classified, with each line that holds only numbers of a table row, as OCR engines that return text
// lines write the row ("1476 3 15.90 47.70 SR", "1X 000004089728 5.90SR", "$5.50 1 $5.50", "2 X 2.20 4.40 SR"), written
// one number per line, as the boxes of box-per-line OCR are: each number a money amount, unit price, count, count and
// unit price ("2 X 2.20"), product code or tax code, one of them a money amount ("RM" joins the number after it); and a
// count line "@2 X" joined to the amount below it ("@2 X" / "RM 10.40": one count and unit price that the row split
// broke). With text_line_cells, a text line that ends in numbers of a row ("FRIED RICE 3 PAX 1 71.00 (S)",
// "201019 KAYA PUFF 4 1.60 0": a whole printed row, which the row split of extract/row_split.h leaves whole when its
// last number is no amount) is written the same way: the description (a code or count before it kept), each number
// after it. Other lines stay as they are.
TableLines table_lines(const LatinRowLines& l, bool text_line_cells = false);

// The row of a description run and a number run; nullopt when the numbers hold no money amount.
std::optional<ItemRow> row_of(const Run& desc, const Run& numbers);

// A row description that is no item: a total, tax or payment line, an item count ("2 ITEM(S)", "ITEM COUNT: 4"), a
// tax summary or line ("GST SUMMARY", "TAX SR @ 6%", Portuguese "IVA", "Troco": change), a label ("MEMBER POINTS :")
// or a header line with a date or a time of seconds.
bool no_item(const std::string& desc);

}  // namespace receipt::extract::table
