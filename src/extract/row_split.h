// Receipts from OCR engines that return one text line per printed row (Tesseract, most cloud OCR line outputs):
// "TOTAL SALES (INCLUSIVE OF GST) : 80.90" where the training receipts hold one OCR box per line, the label and the
// amount on lines of their own. The model reads such rows worse (SROIE validation rebuilt from its boxes one line
// per row: total F1 0.988 -> 0.887), so a text that reads as rows gets its amounts put on lines of their own again.
#pragma once

#include <string>
#include <string_view>

namespace receipt::extract {

// Whether a line of the model's input text (model_input_text's form: single spaces, no blank lines) ends in an
// amount after a label: the label holds a letter, kana or kanji (or '%', ')' or ':'), the amount is a number with
// two decimals ("80.90", "1,230.00", "RM 9.00", "-$1.50", "12,50"), or a yen amount ("¥1,230", "\600", "778円"),
// optionally followed by a tax code of one or two of A-Z, '*', '※' ("80.91 SR"). yen_text: the line is from a
// text in Japanese script (has_cjk), whose amounts are also whole numbers with an optional tax mark ("1,089",
// "518", "72軽"). Sets label_end to the byte offset of the space before the amount.
bool ends_in_amount(std::string_view line, size_t& label_end, bool yen_text = false);

// Whether `text` (model_input_text's form) reads as one line per printed row: at least 3 lines end in an amount
// after a label (ends_in_amount, yen_text when the text has kana or kanji), at least 3 times as many as the lines
// that hold an amount (and tax code) alone. Box-per-line receipts put most amounts on lines of their own; none of
// the development receipts in that layout reads as rows.
bool reads_as_rows(std::string_view text);

// `text` with, when reads_as_rows, every line that ends in an amount after a label split: the label, then the
// amount with its tax code ("TOTAL : 80.90" -> "TOTAL :" and "80.90"). In a Latin-script text the label is split
// further into the boxes the training receipts print on lines of their own: a number alone (quantity, unit
// price), a quantity expression ("1 X 28.61", "3 @ 4.00") and a run of words ("2 RICE 5KG 17.58 35.16" -> "2",
// "RICE 5KG", "17.58", "35.16"); a Japanese one keeps the quantity with the product name ("納豆 3P ※ 2"), which
// read better, and a yen amount that OCR put before a row's label goes on a line of its own ("¥9,051 お釣り" ->
// "¥9,051", "お釣り"). A Latin-script line amount read before its quantity expression goes on a line of its own too
// ("28.61 1 X 28.61" -> "28.61", "1 X 28.61"), and so does an amount that OCR damaged at the end of a row, whose
// label is then split as above ("3 X 0.56 1.8" -> "3 X 0.56", "1.8"; "CASH RM38.0D" -> "CASH", "RM38.0D"), and a
// header label's number of 3-6 digits ("TRANS# 97166" -> "TRANS#", "97166"). Any other text is returned unchanged.
std::string split_row_amounts(std::string_view text);

}  // namespace receipt::extract
