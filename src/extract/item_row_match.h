// Whether a model's line item reads a printed item row (extract/item_rows.h): the description comparisons the item
// checks (extract/item_checks.h) use to match the model's items with the rows, and the sums that decide between them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "extract/item_rows.h"

namespace receipt::extract {

// True when `have` (a model item's description, spaces stripped) reads the row description `want` (spaces
// stripped): one is the start of the other (OCR cut the row short) or they differ by at most 30% in edits.
bool reads_row(const std::string& want, const std::string& have);

// True when `have` (a model item's description, code points without spaces) reads the printed row description
// `row` (the same form) that OCR damaged:
//   * the row is `have` with one to three characters dropped ("ラックサンダー" for "ブラックサンダー", "ｷﾎﾞｰ" for
//     "ｷｰﾎﾞｰﾄﾞ", "SONY WH-1000X5" for "SONY WH-1000XM5", "緑茶 2" for "緑茶 2L"), but not with ASCII other
//     than letters dropped at its end: "緑茶 2L/3" is the model's slip, not the printed name;
//   * or the row is `have` with a digit and letter look-alike swapped (ocr_digits.h: "HDM1ケーブル" for
//     "HDMIケーブル"), at most two of them, in a row of four characters or more;
//   * or both read the same without spaces (the spacing then comes from the model: "じゃがりこサラダ" printed,
//     "じゃがりこ サラダ" written).
bool reads_damaged_row(const std::vector<uint32_t>& row, const std::vector<uint32_t>& have);

// True when the printed rows `read` hold every model item of `items` (a distinct row whose description reads_row
// the item's, whatever the amounts) and more besides.
bool rows_hold_items(const std::vector<ItemRow>& read, const nlohmann::ordered_json& items);

// A printed row as a line item object: its description, count, unit price (null where the row has none: a
// discount) and amount.
nlohmann::ordered_json item_of_row(const ItemRow& row);

// The amounts of `items` (a JSON array of item objects); nullopt when it is empty or an item has no amount.
std::optional<std::vector<double>> item_amounts(const nlohmann::ordered_json& items);

// True when the printed rows (summing to `read_sum`) come closer to `target` than the model's `items`, whose items
// without an amount count as 0.
bool rows_come_closer(double read_sum, const nlohmann::ordered_json& items, double target);

// True when the printed rows `read` (summing to `read_sum`) hold every model item, more besides, and come closer
// to `target` than the model's items: the model dropped items from a list that OCR damaged elsewhere (a row
// amount that lost a digit in a way that two rows could explain). A model item matches a row whose description
// reads_row, whatever the amounts (the model also moves amounts between items of such lists).
bool rows_extend_items(const std::vector<ItemRow>& read, double read_sum, const nlohmann::ordered_json& items,
                       double target);

// Items that add up with the printed rows `read` amount for amount, in order, but whose description names another
// row and not their own: the model wrote a neighbour's description twice ("KF MODELLING CLAY" for the row "LED
// BUL8 9W 7.30" above the row "KF MODELLING CLAY 10.30"). Such an item takes its row's description, unless another
// item that misses its own row reads that one (reads_row, letter case aside: the model swapped two descriptions
// there, which the arithmetic cannot tell apart). Returns the items changed, numbered from 1 ("4, 6").
std::string descriptions_of_own_rows(const std::vector<ItemRow>& read, nlohmann::ordered_json& items);

}  // namespace receipt::extract
