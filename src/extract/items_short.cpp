// Yen items that fall short of the subtotal by what one printed row says (extract/items_short.h).
#include "extract/items_short.h"

#include <cmath>
#include <optional>
#include <regex>
#include <utility>
#include <vector>

#include "extract/field_edits.h"
#include "extract/item_row_match.h"
#include "extract/name_constraint.h"
#include "extract/ocr_digits.h"
#include "extract/utf8.h"

namespace receipt::extract {

namespace {

constexpr size_t kMaxTextBytes = 20000;  // a receipt is far shorter; bounds std::regex's work

// The (count, unit price) pairs of the count lines of `text`, with two lines joined where a count box ends its line.
std::vector<std::pair<double, double>> count_lines(const std::string& text) {
    static const std::regex kCount(R"(([0-9]{1,2}) ?点[ \n]*単価 ?(?:¥|\\|Y)?([0-9]{1,3}(?:,[0-9]{3})*|[0-9]+) ?(?:円)?\))");
    std::vector<std::pair<double, double>> out;
    const std::string t = fold_fullwidth(sanitize_utf8(text.substr(0, kMaxTextBytes)));
    for (auto it = std::sregex_iterator(t.begin(), t.end(), kCount); it != std::sregex_iterator(); ++it) {
        std::string digits;
        for (char c : (*it)[2].str())
            if (c != ',') digits += c;
        out.push_back({std::stod((*it)[1].str()), std::stod(digits)});
    }
    return out;
}

// How far `items` fall short of `target`: target less their sum, when every item has an amount and that is more
// than half a yen; nullopt otherwise.
std::optional<double> shortfall(const nlohmann::ordered_json& items, double target) {
    const std::optional<std::vector<double>> amounts = item_amounts(items);
    if (!amounts || !(target > 0)) return std::nullopt;
    double sum = 0;
    for (double a : *amounts) sum += a;
    if (!(target - sum > 0.5)) return std::nullopt;
    return target - sum;
}

}  // namespace

bool items_with_printed_count(const std::string& text, double target, nlohmann::ordered_json& f) try {
    auto& items = f["line_items"];
    const std::optional<double> short_by = shortfall(items, target);
    if (!short_by) return false;
    const double gap = *short_by;
    const std::vector<std::pair<double, double>> counts = count_lines(text);
    std::optional<std::pair<size_t, double>> found;  // the item and its count
    for (size_t k = 0; k < items.size(); ++k) {
        const auto& it = items[k];
        const double a = it["amount"].get<double>();
        if (it.contains("quantity") && it["quantity"].is_number() && it["quantity"].get<double>() != 1) continue;
        for (const auto& [n, u] : counts)
            if (n >= 2 && std::fabs(u - a) < 0.5 && std::fabs((n - 1) * u - gap) < 0.5) {
                if (found && found->first != k) return false;  // several items fit
                found = {k, n};
            }
    }
    if (!found) return false;
    auto& it = items[found->first];
    const double u = it["amount"].get<double>(), n = found->second;
    f["warnings"].push_back("line_item_count_line: item " + std::to_string(found->first + 1) + " is " +
                            json_amount(n).dump() + " x " + json_amount(u).dump() +
                            " as its count line prints, which makes the items add up to " +
                            json_amount(target).dump());
    it["quantity"] = json_amount(n);
    it["unit_price"] = json_amount(u);
    it["amount"] = json_amount(n * u);
    revalidate(f);
    return true;
} catch (...) {
    return false;  // std::regex giving up: the items as they are
}

bool item_from_row_left_out(const std::vector<ItemRow>& read, double target, nlohmann::ordered_json& f) {
    auto& items = f["line_items"];
    const std::optional<double> short_by = shortfall(items, target);
    if (!short_by || read.empty()) return false;
    const double gap = *short_by;
    std::vector<std::string> descriptions;
    for (const auto& it : items)
        descriptions.push_back(it.contains("description") && it["description"].is_string()
                                   ? strip_spaces(it["description"].get<std::string>())
                                   : std::string());
    auto read_by_item = [&](const std::string& row) {
        for (size_t k = 0; k < descriptions.size(); ++k)
            if (!descriptions[k].empty() && reads_row(row, descriptions[k])) return std::optional<size_t>(k);
        return std::optional<size_t>();
    };
    std::optional<size_t> found;
    for (size_t r = 0; r < read.size(); ++r) {
        if (std::fabs(read[r].amount - gap) >= 0.5 || read_by_item(strip_spaces(read[r].description))) continue;
        if (found) return false;  // two rows of that amount
        found = r;
    }
    if (!found) return false;
    const ItemRow& row = read[*found];
    size_t at = 0;  // after the item that reads the nearest row printed above
    for (size_t r = *found; r-- > 0;)
        if (const auto k = read_by_item(strip_spaces(read[r].description))) {
            at = *k + 1;
            break;
        }
    nlohmann::ordered_json item = {{"description", row.description},
                                   {"quantity", json_amount(row.quantity.value_or(1))},
                                   {"unit_price", json_amount(row.unit_price.value_or(row.amount))},
                                   {"amount", json_amount(row.amount)}};
    items.insert(items.begin() + std::ptrdiff_t(at), item);
    f["warnings"].push_back("line_item_from_row_left_out: the items fall short of " + json_amount(target).dump() +
                            " by " + json_amount(row.amount).dump() + ", the printed row " + row.description +
                            " that no item reads");
    revalidate(f);
    return true;
}

bool items_from_rows_after_unprinted(const std::vector<ItemRow>& read, nlohmann::ordered_json& f) {
    auto& items = f["line_items"];
    const size_t left = items.is_array() ? items.size() : 0;
    if (read.size() < 2 || left * 3 > read.size()) return false;
    nlohmann::ordered_json rows = nlohmann::ordered_json::array();
    for (const ItemRow& r : read) rows.push_back(item_of_row(r));
    items = rows;
    f["warnings"].push_back("line_items_from_rows_after_unprinted: " + std::to_string(left) +
                            " items were left after another shop's were left out, the receipt prints " +
                            std::to_string(read.size()) + " rows; the rows replace them");
    revalidate(f);
    return true;
}

}  // namespace receipt::extract
