// Whether a model's line item reads a printed item row (extract/item_row_match.h).
#include "extract/item_row_match.h"

#include <algorithm>
#include <cctype>
#include <cmath>

#include "extract/field_edits.h"
#include "extract/name_constraint.h"
#include "extract/ocr_digits.h"
#include "extract/printed_value.h"
#include "extract/utf8.h"

namespace receipt::extract {

// True when `have` (a model item's description, spaces stripped) reads the row description `want` (spaces
// stripped): one is the start of the other (OCR cut the row short) or they differ by at most 30% in edits.
bool reads_row(const std::string& want, const std::string& have) {
    const bool prefix = !want.empty() && !have.empty() && (have.rfind(want, 0) == 0 || want.rfind(have, 0) == 0);
    return prefix || edit_distance(want, have) * 10 <= 3 * int(std::max(want.size(), have.size()));
}

// True when `have` (a model item's description, code points without spaces) reads the printed row description
// `row` (the same form) that OCR damaged:
//   * the row is `have` with one to three characters dropped ("ラックサンダー" for "ブラックサンダー", "ｷﾎﾞｰ" for
//     "ｷｰﾎﾞｰﾄﾞ", "SONY WH-1000X5" for "SONY WH-1000XM5", "緑茶 2" for "緑茶 2L"), but not with ASCII other
//     than letters dropped at its end: "緑茶 2L/3" is the model's slip, not the printed name;
//   * or the row is `have` with a digit and letter look-alike swapped (ocr_digits.h: "HDM1ケーブル" for
//     "HDMIケーブル"), at most two of them, in a row of four characters or more;
//   * or both read the same without spaces (the spacing then comes from the model: "じゃがりこサラダ" printed,
//     "じゃがりこ サラダ" written).
bool reads_damaged_row(const std::vector<uint32_t>& row, const std::vector<uint32_t>& have) {
    if (have.size() == row.size()) {
        size_t swapped = 0;
        for (size_t c = 0; c < row.size(); ++c) {
            if (have[c] == row[c]) continue;
            const bool ascii = have[c] < 0x80 && row[c] < 0x80;
            const char digit_have = ascii ? confusion_digit(char(have[c])) : 0;
            const char digit_row = ascii ? confusion_digit(char(row[c])) : 0;
            const bool alike = ascii && ((digit_have && (digit_have == char(row[c]) || digit_have == digit_row)) ||
                                         (digit_row && digit_row == char(have[c])));
            if (!alike) return false;
            ++swapped;
        }
        return swapped == 0 || (swapped <= 2 && row.size() >= 4);
    }
    if (have.size() <= row.size() || have.size() > row.size() + 3) return false;
    size_t m = 0;  // row is a subsequence of have: OCR dropped the rest
    bool ascii_dropped_at_end = false;
    for (size_t c = 0; c < have.size(); ++c) {
        if (m < row.size() && have[c] == row[m]) ++m;
        else if (m == row.size() && have[c] < 0x80 && !std::isalpha(int(have[c]))) ascii_dropped_at_end = true;
    }
    return m == row.size() && !ascii_dropped_at_end;
}

// True when the printed rows `read` hold every model item of `items` (a distinct row whose description reads_row
// the item's, whatever the amounts) and more besides.
bool rows_hold_items(const std::vector<ItemRow>& read, const nlohmann::ordered_json& items) {
    if (!items.is_array() || items.empty() || items.size() >= read.size()) return false;
    std::vector<bool> taken(read.size(), false);
    for (const auto& it : items) {
        if (!it.is_object() || !it.contains("description") || !it["description"].is_string()) return false;
        const std::string have = strip_spaces(it["description"].get<std::string>());
        bool found = false;
        for (size_t j = 0; j < read.size() && !found; ++j)
            if (!taken[j] && reads_row(strip_spaces(read[j].description), have)) taken[j] = found = true;
        if (!found) return false;
    }
    return true;
}

nlohmann::ordered_json item_of_row(const ItemRow& row) {
    return {{"description", row.description},
            {"quantity", row.quantity ? json_amount(*row.quantity) : nlohmann::ordered_json()},
            {"unit_price", row.unit_price ? json_amount(*row.unit_price) : nlohmann::ordered_json()},
            {"amount", json_amount(row.amount)}};
}

std::optional<std::vector<double>> item_amounts(const nlohmann::ordered_json& items) {
    if (!items.is_array() || items.empty()) return std::nullopt;
    std::vector<double> out;
    for (const auto& it : items) {
        if (!it.is_object() || !it.contains("amount") || !it["amount"].is_number()) return std::nullopt;
        out.push_back(it["amount"].get<double>());
    }
    return out;
}

// True when the printed rows (summing to `read_sum`) come closer to `target` than the model's `items`, whose items
// without an amount count as 0.
bool rows_come_closer(double read_sum, const nlohmann::ordered_json& items, double target) {
    double model_sum = 0;
    for (const auto& it : items)
        if (it.contains("amount") && it["amount"].is_number()) model_sum += it["amount"].get<double>();
    return std::fabs(read_sum - target) < std::fabs(model_sum - target);
}

// True when the printed rows `read` (summing to `read_sum`) hold every model item, more besides, and come closer
// to `target` than the model's items: the model dropped items from a list that OCR damaged elsewhere (a row
// amount that lost a digit in a way that two rows could explain). A model item matches a row whose description
// reads_row, whatever the amounts (the model also moves amounts between items of such lists).
bool rows_extend_items(const std::vector<ItemRow>& read, double read_sum, const nlohmann::ordered_json& items,
                       double target) {
    return rows_hold_items(read, items) && rows_come_closer(read_sum, items, target);
}

// Items that add up with the printed rows `read` amount for amount, in order, but whose description names another
// row and not their own: the model wrote a neighbour's description twice ("KF MODELLING CLAY" for the row "LED
// BUL8 9W 7.30" above the row "KF MODELLING CLAY 10.30"). Such an item takes its row's description, unless another
// item that misses its own row reads that one (reads_row, letter case aside: the model swapped two descriptions
// there, which the arithmetic cannot tell apart). Returns the items changed, numbered from 1 ("4, 6").
std::string descriptions_of_own_rows(const std::vector<ItemRow>& read, nlohmann::ordered_json& items) {
    if (!items.is_array() || items.size() != read.size()) return "";
    std::vector<std::string> rows, have;
    for (size_t k = 0; k < read.size(); ++k) {
        const auto& it = items[k];
        if (!it.is_object() || !it.contains("amount") || !it["amount"].is_number() ||
            std::fabs(it["amount"].get<double>() - read[k].amount) >= 0.005 || !it.contains("description") ||
            !it["description"].is_string())
            return "";
        rows.push_back(ascii_upper(strip_spaces(read[k].description)));
        have.push_back(ascii_upper(strip_spaces(it["description"].get<std::string>())));
    }
    // Whether another item that does not read its own row reads row j (the model moved the description).
    auto claimed = [&](size_t j) {
        for (size_t i = 0; i < have.size(); ++i)
            if (i != j && !reads_row(rows[i], have[i]) && reads_row(rows[j], have[i])) return true;
        return false;
    };
    std::string changed;
    for (size_t k = 0; k < read.size(); ++k) {
        if (rows[k].empty() || have[k].empty() || reads_row(rows[k], have[k])) continue;
        bool names_other = false;
        for (size_t j = 0; j < read.size() && !names_other; ++j)
            names_other = j != k && reads_row(rows[j], have[k]);
        if (!names_other || claimed(k)) continue;
        items[k]["description"] = read[k].description;
        changed += (changed.empty() ? "" : ", ") + std::to_string(k + 1);
    }
    return changed;
}

}  // namespace receipt::extract
