// Line items checked against the receipt's printed rows and its subtotal (extract/item_checks.h).
#include "extract/item_checks.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <set>
#include <vector>

#include "extract/dropped_digit.h"
#include "extract/field_edits.h"
#include "extract/items_short.h"
#include "extract/item_row_match.h"
#include "extract/item_rows.h"
#include "extract/latin_item_rows.h"
#include "extract/latin_rows_add_up.h"
#include "extract/latin_row_lines.h"
#include "extract/latin_table_rows.h"
#include "extract/name_constraint.h"
#include "extract/ocr_digits.h"
#include "extract/printed_amounts.h"
#include "extract/printed_items.h"
#include "extract/printed_value.h"
#include "extract/utf8.h"

namespace receipt::extract {

namespace {

constexpr double kYenTolerance = 0.5;    // sums of yen amounts: within half a yen
constexpr double kCentTolerance = 0.005; // sums of amounts with cents: within half a cent
constexpr double kCutRowsSlack = 0.5;    // a cut Latin reading's rows: within half of their target

// True when every item of `items` has an amount and they add up to `target` (within `tol`: half a yen, half a
// cent). With cents, every amount must be a whole number of cents: "16.4616" (a row's unit price and amount
// glued, "16.4616.46") is no amount, though it comes within half a cent of one.
bool adds_up(const nlohmann::ordered_json& items, double target, double tol = kYenTolerance) {
    const std::optional<std::vector<double>> amounts = item_amounts(items);
    if (!amounts) return false;
    double sum = 0;
    for (double a : *amounts) {
        if (tol <= kCentTolerance && std::fabs(a * 100.0 - std::round(a * 100.0)) > 1e-6) return false;
        sum += a;
    }
    return std::fabs(sum - target) <= tol;
}

// True when description `d` (spaces stripped) is printed in `printed` (the text upper-cased, spaces stripped), up to
// OCR edits of 30% of its length.
bool description_printed(const std::string& d, const std::string& printed) {
    return !d.empty() && substring_edit_distance(ascii_upper(d), printed) * 10 <= 3 * int(d.size());
}

// True when every item of `items` has a description printed in `text`, letter case and spaces aside
// (description_printed).
bool descriptions_printed(const nlohmann::ordered_json& items, const std::string& text) {
    if (!items.is_array()) return false;
    const std::string printed = ascii_upper(strip_spaces(text));
    for (const auto& it : items)
        if (!it.contains("description") || !it["description"].is_string() ||
            !description_printed(strip_spaces(it["description"].get<std::string>()), printed))
            return false;
    return true;
}

// Line items of a yen receipt: an item whose description is printed as a row gets the amount printed on that row
// (extract/printed_items.h). When the quantity and unit price no longer multiply to it, they become the row's
// count and unit price when those do, else the quantity that the unit price divides into it, else the unit price
// that the quantity divides into it. Discounts (negative amounts) are left alone. One warning names the items.
void fix_item_amounts(const std::string& text, nlohmann::ordered_json& f) {
    auto& items = f["line_items"];
    if (!items.is_array()) return;
    PrintedItems rows(text);
    std::string changed;
    auto whole = [](double v) { return v >= 1 && v == std::floor(v); };
    for (size_t k = 0; k < items.size(); ++k) {
        auto& it = items[k];
        if (!it.is_object() || !it.contains("description") || !it["description"].is_string()) continue;
        auto& amount = it["amount"];
        if (amount.is_number() && amount.get<double>() < 0) continue;
        const std::optional<PrintedItemRow> row = rows.row(it["description"].get<std::string>());
        if (!row || !row->amount || (amount.is_number() && amount.get<double>() == *row->amount)) continue;
        // The row's amount is the model's with one digit dropped ("29円" for 298): the model read through the
        // damage (extract/dropped_digit.h).
        if (amount.is_number() && *row->amount > 0 &&
            one_digit_inserted(amount_digits(*row->amount), amount_digits(amount.get<double>())))
            continue;
        const double a = *row->amount;
        changed += (changed.empty() ? "" : ", ") + std::to_string(k + 1) + " (" +
                   written(amount) + " -> " + json_amount(a).dump() + ")";
        amount = json_amount(a);
        auto& qty = it["quantity"];
        auto& unit = it["unit_price"];
        const double q = qty.is_number() ? qty.get<double>() : 0, u = unit.is_number() ? unit.get<double>() : 0;
        if (q * u == a) continue;
        if (row->quantity && row->unit_price && *row->quantity * *row->unit_price == a) {
            qty = json_amount(*row->quantity);
            unit = json_amount(*row->unit_price);
        } else if (u > 0 && whole(a / u)) {
            qty = json_amount(a / u);
        } else if (q >= 1 && whole(a / q)) {
            unit = json_amount(a / q);
        }
    }
    if (changed.empty()) return;
    f["warnings"].push_back("line_item_amount_from_row: items " + changed);
    revalidate(f);
}

// Whether the fields carry a warning with this code ("output_truncated": the model's reading was cut).
bool has_warning(const nlohmann::ordered_json& f, const std::string& code) {
    if (!f.contains("warnings") || !f["warnings"].is_array()) return false;
    for (const auto& w : f["warnings"])
        if (w.is_string() && w.get<std::string>().rfind(code, 0) == 0) return true;
    return false;
}

// Whether the model's reading was cut: its input to its limit or its output at max_new_tokens.
bool reading_cut(const nlohmann::ordered_json& f) {
    return has_warning(f, "input_truncated") || has_warning(f, "output_truncated");
}

// The warning of a cut reading whose `n_items` items the `n_rows` printed rows (summing to `read_sum`) replace;
// `cut` false: a reading not cut that dropped rows.
std::string cut_rows_warning(size_t n_items, double target, size_t n_rows, double read_sum, bool cut = true) {
    return std::string("line_items_from_rows: the model's reading ") + (cut ? "was cut" : "dropped rows") +
           " and its " + std::to_string(n_items) +
           " items do not add up to " + json_amount(target).dump() + "; the " + std::to_string(n_rows) +
           " printed item rows come closer (" + json_amount(read_sum).dump() + ")";
}

// The printed rows `read` as JSON items. A row whose amount and description (up to a few OCR edits) match an item
// of the model's `items` keeps the model's description: the model often reads through the OCR noise ("ーグルト
// プレーン" printed, "ヨーグルト プレーン" written).
// reuse: a model description may name several damaged rows (Latin receipts repeat items: "MEE GORENG" written
// twice, printed "MEEGORENG" and "MEE GORENG"); yen receipts give each model item to one row.
nlohmann::ordered_json rows_as_items(const std::vector<ItemRow>& read, const nlohmann::ordered_json& items,
                                     const std::string& text, bool reuse = false) {
    std::vector<bool> used(items.is_array() ? items.size() : 0, false);
    std::set<std::string> printed_line_set;  // the receipt's lines without spaces
    for (const std::string& line : printed_lines_as_is(text)) printed_line_set.insert(strip_spaces(line));
    auto model_description = [&](const ItemRow& r) {
        const std::string want = strip_spaces(r.description);
        for (size_t k = 0; k < used.size(); ++k) {
            const auto& it = items[k];
            if (used[k] || !it.is_object() || !it.contains("amount") || !it["amount"].is_number() ||
                std::fabs(it["amount"].get<double>() - r.amount) > 0.005 || !it.contains("description") ||
                !it["description"].is_string())
                continue;
            const std::string d = it["description"].get<std::string>();
            const std::string have = strip_spaces(d);
            if (reads_row(want, have)) {
                used[k] = true;
                // The model joined the line above the row to it ("POS8" / "チョコレート", "担当者" / "高橋" /
                // "週刊少年ジャンプ"): that line is printed on its own and the rows do not take it.
                const size_t extra = have.size() - std::min(have.size(), want.size());
                if (extra > 0 && have.compare(extra, std::string::npos, want) == 0 &&
                    printed_line_set.count(have.substr(0, extra)))
                    return r.description;
                return d;
            }
        }
        return r.description;
    };
    // A row whose description OCR damaged keeps the description of the one model item that reads it whole,
    // whatever amount the model wrote for it (reads_damaged_row). Discounts keep the row's name.
    std::vector<std::string> descriptions;
    for (const ItemRow& r : read) descriptions.push_back(model_description(r));
    for (size_t j = 0; j < read.size(); ++j) {
        if (descriptions[j] != read[j].description || read[j].amount <= 0) continue;
        const std::optional<std::vector<uint32_t>> row = code_points(strip_spaces(read[j].description));
        if (!row || row->size() < 2) continue;
        std::optional<size_t> only;
        bool several = false;
        for (size_t k = 0; k < used.size(); ++k) {
            const auto& it = items[k];
            if ((used[k] && !reuse) || !it.is_object() || !it.contains("description") ||
                !it["description"].is_string())
                continue;
            const std::string d = it["description"].get<std::string>();
            const std::optional<std::vector<uint32_t>> have = code_points(strip_spaces(d));
            if (!have || d == read[j].description || !reads_damaged_row(*row, *have)) continue;
            // The model may write an item twice; two readings of one description are one reading.
            several = several || (only && items[*only]["description"].get<std::string>() != d);
            only = k;
        }
        if (only && !several) {
            used[*only] = true;
            descriptions[j] = items[*only]["description"].get<std::string>();
        }
    }
    nlohmann::ordered_json rows = nlohmann::ordered_json::array();
    for (size_t j = 0; j < read.size(); ++j) {
        nlohmann::ordered_json item = item_of_row(read[j]);
        item["description"] = descriptions[j];
        rows.push_back(item);
    }
    return rows;
}

// Line items of a yen receipt read from its printed rows (extract/item_rows.h) replace the model's when they add up
// to the printed subtotal (the total when no subtotal is printed) and the model's items do not; when both add up,
// a model item whose description is not printed takes the description of the row with its amount.
// `rows`: the receipt's printed item rows (read_item_rows); `target`: the amount after its subtotal keyword, else
// after its total keyword (keyword_subtotal / _total).
// A row whose amount lost one digit to OCR (extract/dropped_digit.h) is read with the digit back. Returns true when
// the rows replaced the model's items.
bool items_from_rows(const std::string& text, const std::optional<std::vector<ItemRow>>& rows,
                     const std::optional<double>& target, nlohmann::ordered_json& f, double tol = kYenTolerance,
                     bool reuse = false) {
    if (!target || !rows || rows->empty()) return false;
    std::vector<ItemRow> read = *rows;  // a row amount may get its dropped digit back
    std::vector<double> amounts;
    double read_sum = 0;
    for (const ItemRow& r : read) amounts.push_back(r.amount), read_sum += r.amount;
    std::string repaired;
    if (std::fabs(read_sum - *target) > tol) {
        const std::optional<DroppedDigit> d = find_dropped_digit(amounts, *target);
        if (!d) return false;
        ItemRow& r = read[d->index];
        repaired = " (row " + std::to_string(d->index + 1) + " printed " + json_amount(r.amount).dump() +
                   ", one digit short of " + json_amount(d->amount).dump() + ")";
        const bool counted = r.quantity && r.unit_price && *r.quantity * *r.unit_price == d->amount;
        if (!counted) r.quantity = 1.0, r.unit_price = d->amount;
        r.amount = d->amount;
    }
    auto& items = f["line_items"];
    // Both add up, but the rows hold every model item and more: the model merged rows into one item whose amount
    // is theirs together ("おむつ Mサイズ 1,466" for the rows 298 and 1,168); the rows replace them.
    const bool more_rows = adds_up(items, *target, tol) && rows_hold_items(read, items);
    if (adds_up(items, *target, tol) && !more_rows) {
        // The items add up, but an item named with text the receipt does not print (the model wrote an item of
        // another shop for the right amount) takes the description of the printed row with its amount. Letter case
        // aside: "1 Meat + 3 Vege" is printed as "1 MEAT + 3 VEGE".
        const std::string printed = ascii_upper(strip_spaces(text));
        std::vector<bool> taken(read.size(), false);
        std::string changed;
        size_t orphans = 0;  // items not printed, with no row of their amount
        for (size_t k = 0; k < items.size(); ++k) {
            auto& it = items[k];
            if (!it.contains("description") || !it["description"].is_string()) continue;
            const std::string d = strip_spaces(it["description"].get<std::string>());
            if (d.empty() || description_printed(d, printed)) continue;
            const std::optional<std::vector<uint32_t>> have = code_points(d);
            const bool matched = std::any_of(read.begin(), read.end(), [&](const ItemRow& r) {
                return std::fabs(r.amount - it["amount"].get<double>()) < 0.005;
            });
            orphans += !matched;
            for (size_t j = 0; j < read.size(); ++j)
                if (!taken[j] && std::fabs(read[j].amount - it["amount"].get<double>()) < 0.005) {
                    taken[j] = true;
                    // The row is the model's description as OCR damaged it ("ｷﾎﾞｰ" for "ｷｰﾎﾞｰﾄﾞ"): keep it.
                    const std::optional<std::vector<uint32_t>> row = code_points(strip_spaces(read[j].description));
                    if (have && row && reads_damaged_row(*row, *have)) break;
                    changed += (changed.empty() ? "" : ", ") + std::to_string(k + 1);
                    it["description"] = read[j].description;
                    break;
                }
        }
        // Latin-script receipts: an item the receipt does not print, whose amount no printed row has, is another
        // shop's that happens to add up ("P.M POMeat Kecil" 7.70 for three rows of 1.90, 4.50 and 1.30); the rows,
        // which add up too, replace the items.
        if (!(reuse && orphans > 0)) {
            if (!changed.empty())
                f["warnings"].push_back("line_item_description_from_row: items " + changed +
                                        " are not printed; the rows with their amounts are");
            const std::string own = descriptions_of_own_rows(read, items);
            if (!own.empty())
                f["warnings"].push_back("line_item_description_from_row: items " + own +
                                        " name another printed row; the rows with their amounts print other "
                                        "descriptions");
            return false;
        }
        f["warnings"].push_back("line_items_from_rows: the model's " + std::to_string(items.size()) +
                                " items add up to " + json_amount(*target).dump() + ", but " +
                                std::to_string(orphans) + " of them are not printed and no row has their amount; the " +
                                std::to_string(read.size()) + " printed item rows add up too" + repaired);
        items = rows_as_items(read, items, text, reuse);
        revalidate(f);
        return true;
    }
    if (more_rows)
        f["warnings"].push_back("line_items_from_rows: the model's " + std::to_string(items.size()) +
                                " items add up to " + json_amount(*target).dump() + ", and so do the " +
                                std::to_string(read.size()) + " printed item rows, which hold them all and more" +
                                repaired);
    else
        f["warnings"].push_back("line_items_from_rows: the model's " +
                                std::to_string(items.is_array() ? items.size() : 0) + " items do not add up to " +
                                json_amount(*target).dump() + ", the " + std::to_string(read.size()) +
                                " printed item rows do" + repaired);
    items = rows_as_items(read, items, text, reuse);
    revalidate(f);
    return true;
}

// Line items of a yen receipt that still do not add up to `target` (the subtotal, else the total) after the other
// checks are replaced by the printed rows when those hold every item and more and come closer (rows_extend_items):
// the model dropped items of a long, damaged list. When the model's input was cut to its limit or its output
// stopped at max_new_tokens (warnings input_truncated / output_truncated), its items stop where the cut fell: the
// rows replace them when there are more rows and they come closer, also where OCR damage in the model's items keeps
// the rows from holding them all.
bool items_from_more_rows(const std::string& text, const std::optional<std::vector<ItemRow>>& read, double target,
                          nlohmann::ordered_json& f) {
    auto& items = f["line_items"];
    if (adds_up(items, target)) return false;
    if (!read || read->empty()) return false;
    double read_sum = 0;
    for (const ItemRow& r : *read) read_sum += r.amount;
    if (rows_extend_items(*read, read_sum, items, target)) {
        f["warnings"].push_back("line_items_from_rows: the model's " + std::to_string(items.size()) +
                                " items do not add up to " + json_amount(target).dump() + "; the " +
                                std::to_string(read->size()) +
                                " printed item rows hold them all and come closer (" + json_amount(read_sum).dump() +
                                ")");
    } else if (reading_cut(f) && read->size() > items.size() && rows_come_closer(read_sum, items, target)) {
        f["warnings"].push_back(cut_rows_warning(items.size(), target, read->size(), read_sum));
    } else {
        return false;
    }
    items = rows_as_items(*read, items, text);
    revalidate(f);
    return true;
}

// Line items of a yen receipt that do not add up to `target` (the subtotal, else the total) because one amount
// lost a digit to OCR (extract/dropped_digit.h) get that digit back; the quantity and unit price follow the new
// amount when they no longer multiply to it.
// Not when the model's output was cut short: its items then miss some rows, and the sum is short for that (unless
// `from_rows`: the items are the printed rows, read whole).
void items_dropped_digit(double target, nlohmann::ordered_json& f, bool from_rows = false) {
    auto& items = f["line_items"];
    if (!from_rows && has_warning(f, "output_truncated")) return;
    const std::optional<std::vector<double>> amounts = item_amounts(items);
    if (!amounts) return;
    const std::optional<DroppedDigit> d = find_dropped_digit(*amounts, target);
    if (!d) return;
    auto& it = items[d->index];
    f["warnings"].push_back("line_item_amount_dropped_digit: item " + std::to_string(d->index + 1) + " printed " +
                            it["amount"].dump() + ", one digit short of " + json_amount(d->amount).dump() +
                            ", which makes the items add up to " + json_amount(target).dump());
    it["amount"] = json_amount(d->amount);
    auto& qty = it["quantity"];
    auto& unit = it["unit_price"];
    const double q = qty.is_number() ? qty.get<double>() : 0, u = unit.is_number() ? unit.get<double>() : 0;
    if (q * u != d->amount) {
        if (q >= 1 && d->amount / q == std::floor(d->amount / q)) unit = json_amount(d->amount / q);
        else qty = 1, unit = json_amount(d->amount);
    }
    revalidate(f);
}

// Whether `text` prints `price` with two decimals and nothing but zeros after them ("26.50", "26.5000"), not as
// the end of a longer number.
bool prints_unit_price(const std::string& text, double price) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f", price);
    const std::string want = buf;
    for (size_t at = text.find(want); at != std::string::npos; at = text.find(want, at + 1)) {
        if (at > 0 && is_ascii_digit(text[at - 1])) continue;
        size_t k = at + want.size();
        while (k < text.size() && text[k] == '0') ++k;
        if (k == text.size() || !is_ascii_digit(text[k])) return true;
    }
    return false;
}

// Each item whose quantity and unit price do not multiply to its amount (the amount was checked against the rows
// and the subtotal; the model's count and unit price were not): a whole count of 1-99 that divides the amount
// gets the unit price amount / count, else a unit price that divides it into such a count gets that count, else
// the item is one unit of its amount. Items without either, and discounts, are left alone.
// cents: amounts with cents (products within half a cent, unit prices rounded to cents); else whole yen.
void items_count_times_unit(nlohmann::ordered_json& f, bool cents = false, const std::string& text = "") {
    auto& items = f["line_items"];
    if (!items.is_array()) return;
    std::string changed;
    for (size_t k = 0; k < items.size(); ++k) {
        auto& it = items[k];
        if (!it.is_object() || !it.contains("amount") || !it["amount"].is_number()) continue;
        const double a = it["amount"].get<double>();
        auto& qty = it["quantity"];
        auto& unit = it["unit_price"];
        if (a <= 0 || (!qty.is_number() && !unit.is_number())) continue;
        const double q = qty.is_number() ? qty.get<double>() : 0, u = unit.is_number() ? unit.get<double>() : 0;
        const double slack = cents ? kCentTolerance : 0.0;
        if (std::fabs(q * u - a) <= slack) continue;
        // With cents, a unit price the receipt prints stays: it may be before tax or a discount ("2X 26.5000" for
        // an amount of 47.70 after 10% off, "80.00" before 6% GST), where the model's is only a misread.
        if (cents && u > 0 && prints_unit_price(text, u)) continue;
        // The unit price that `count` units of the amount cost, when it is a whole price (yen or cents).
        const auto unit_for = [&](double count) -> std::optional<double> {
            const double p = cents ? std::round(a / count * 100.0) / 100.0 : a / count;
            if (cents ? std::fabs(p * count - a) <= slack : p == std::floor(p)) return p;
            return std::nullopt;
        };
        const double units = u > 0 ? (cents ? std::round(a / u) : a / u) : 0;
        if (const auto p = item_count(q) ? unit_for(q) : std::nullopt) {
            unit = json_amount(*p);
        } else if (u > 0 && item_count(units) && std::fabs(units * u - a) <= slack) {
            qty = json_amount(units);
        } else {
            qty = 1;
            unit = json_amount(a);
        }
        changed += (changed.empty() ? "" : ", ") + std::to_string(k + 1);
    }
    if (changed.empty()) return;
    f["warnings"].push_back("line_item_unit_price_from_amount: items " + changed +
                            " get the quantity and unit price that make their amount");
    revalidate(f);
}

}  // namespace

void check_yen_items(const std::string& text, const std::optional<double>& subtotal,
                     const std::optional<double>& total, nlohmann::ordered_json& f) {
    const std::optional<double> target = subtotal ? subtotal : total;
    // The printed item rows (extract/item_rows.h), read once for the row checks below.
    const std::optional<std::vector<ItemRow>> rows = target ? read_item_rows(text) : std::nullopt;
    if (items_from_rows(text, rows, target, f)) return;
    // Model items that add up keep their amounts when the rows' would break the sum: OCR moved a box of another
    // row (a quantity, a neighbour's amount) next to the description.
    const nlohmann::ordered_json model_items = f["line_items"];
    const nlohmann::ordered_json model_warnings = f["warnings"];
    fix_item_amounts(text, f);
    if (target && adds_up(model_items, *target) && !adds_up(f["line_items"], *target)) {
        f["line_items"] = model_items;
        f["warnings"] = model_warnings;
    }
    if (target) items_dropped_digit(*target, f);
    // The rows that replaced the items may hold an amount that lost a digit themselves.
    if (target && items_from_more_rows(text, rows, *target, f)) items_dropped_digit(*target, f, true);
    // An item of one unit whose count line makes the items add up (extract/items_short.h).
    // (Each changes nothing where the items add up or exceed the target.)
    if (target) items_with_printed_count(text, *target, f);
    if (target && rows) item_from_row_left_out(*rows, *target, f);
    items_count_times_unit(f);
}

void check_latin_items(const std::string& text, nlohmann::ordered_json& f) {
    std::vector<LatinItemRows> readings;
    try {
        readings = latin_item_row_readings(text);
    } catch (...) {  // std::regex giving up on a line: no reading, the model's items stay
        return;
    }
    // The first reading that adds up to the amount printed after its rows, else to the net or total amount, else
    // to a total printed just below (items with the tax in their prices, under a tax line that ends the rows);
    // then, the same with one row's amount given back a digit OCR lost (first_reading_adding_up). True when one did.
    std::vector<double> model_totals;
    for (const char* key : {"net_amount", "total_amount"})
        if (f[key].is_number()) model_totals.push_back(f[key].get<double>());
    auto first_adding_up = [&](const std::vector<LatinItemRows>& of) {
        const auto found = first_reading_adding_up(of, model_totals);
        if (!found) return false;
        items_from_rows(text, found->first.rows, found->second, f, kCentTolerance, true);
        items_count_times_unit(f, true, text);
        return true;
    };
    if (first_adding_up(readings)) return;
    // The first reading without a damaged row whose rows add up to a total printed one digit short: one of
    // `prints_of(reading)` holds the digits of the rows' sum with one lost. True when one did.
    auto first_adding_up_digit_lost = [&](auto prints_of) {
        for (const LatinItemRows& reading : readings) {
            if (reading.damaged_row) continue;
            const double sum = rows_sum(reading.rows);
            for (const std::string& print : prints_of(reading, sum))
                if (sum > 0 && ascii_digits(print).size() + 1 == cents_digits(sum).size() && digits_fit(print, sum)) {
                    items_from_rows(text, reading.rows, sum, f, kCentTolerance, true);
                    items_count_times_unit(f, true, text);
                    return true;
                }
        }
        return false;
    };
    // Else the first whose rows add up to an amount OCR damaged after a total line, one digit lost ("OTAL:" /
    // "£65.9" for 65.89).
    if (first_adding_up_digit_lost([](const LatinItemRows& r, double) { return r.damaged_totals; })) return;
    // Else the first reading of an item table written one box per line whose rows add up (extract/latin_table_rows.h:
    // the numbers of a row before its description, more columns than the readings above take).
    if (first_adding_up(latin_table_row_readings(text))) return;
    // Else the same with text lines that hold a whole row read as its cells (a text in rows), unless the model's items
    // add up to the net or total amount and are printed: this reading takes less care of descriptions.
    bool model_adds_up = false;
    for (double t : model_totals) model_adds_up = model_adds_up || adds_up(f["line_items"], t, kCentTolerance);
    if (!(model_adds_up && descriptions_printed(f["line_items"], text)) &&
        first_adding_up(latin_table_row_readings(text, true)))
        return;
    // Else the first reading whose end amount reads whole but lost a digit ("SUB TOAL" / "$1.85" for 31.85) and
    // whose rows add up to that amount with the digit back.
    const auto end_amount_print = [](const LatinItemRows& r, double sum) {
        std::vector<std::string> print;
        if (r.end_amount && *r.end_amount > 0 && *r.end_amount < sum) print.push_back(cents_digits(*r.end_amount));
        return print;
    };
    if (!model_adds_up && first_adding_up_digit_lost(end_amount_print)) return;
    // A cut reading (input_truncated / output_truncated: a long receipt): the model's items stop where the cut
    // fell; or one that dropped rows (below). The likeliest reading (else the rows read past the lines no reading
    // places, latin_item_rows_skipping) replaces them when it has more rows and comes closer to the amount after its
    // rows (else the net, else the total amount), though one amount OCR damaged keeps it from adding up; that row's
    // amount is left out (null).
    auto& items = f["line_items"];
    const bool cut = reading_cut(f);
    const bool some_items = items.is_array() && !items.empty();
    std::optional<LatinItemRows> skipping;
    if (readings.empty() && (cut || some_items)) {
        try {
            skipping = latin_item_rows_skipping(text);
        } catch (...) {  // std::regex giving up on a line
        }
    }
    // Not cut, but the model wrote some items and at most half the rows the reading prints (and two fewer): it
    // dropped rows of a long list that OCR damaged. (No items at all: the rows may be another part of the receipt.)
    const size_t read_rows = !readings.empty() ? readings.front().rows.size() : skipping ? skipping->rows.size() : 0;
    const bool dropped = some_items && read_rows >= 2 * items.size() + 2;
    if ((cut || dropped) && (!readings.empty() || skipping) && items.is_array()) {
        const LatinItemRows& reading = readings.empty() ? *skipping : readings.front();
        const double read_sum = rows_sum(reading.rows);
        // The target: the amount after the rows, else one of the totals below it (the rows end at a tax line,
        // "VAT 20%" / "£87.64", whose amount is no sum of them), else the net, else the total amount; the first
        // that the rows come within half of. Rows that miss every one by more read something else (a table whose
        // count and unit columns made rows of their own) or ended at a wrong line.
        std::vector<double> candidates;
        if (reading.end_amount) candidates.push_back(*reading.end_amount);
        candidates.insert(candidates.end(), reading.later_totals.begin(), reading.later_totals.end());
        for (const char* key : {"net_amount", "total_amount"})
            if (f[key].is_number()) candidates.push_back(f[key].get<double>());
        std::optional<double> target;
        for (double c : candidates)
            if (!target && c > 0 && std::fabs(read_sum - c) <= kCutRowsSlack * c) target = c;
        if (target && reading.rows.size() > items.size() && rows_come_closer(read_sum, items, *target)) {
            f["warnings"].push_back(
                cut_rows_warning(items.size(), *target, reading.rows.size(), read_sum, cut));
            items = rows_as_items(reading.rows, items, text, true);
            if (reading.damaged_row && *reading.damaged_row < items.size())
                items[*reading.damaged_row]["amount"] = nullptr;
            revalidate(f);
        }
    }
    items_count_times_unit(f, true, text);
}

}  // namespace receipt::extract
