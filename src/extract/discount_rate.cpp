// Percentage discount lines of a Japanese receipt (extract/discount_rate.h).
#include "extract/discount_rate.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <regex>
#include <set>
#include <vector>

#include "extract/dropped_digit.h"
#include "extract/field_edits.h"
#include "extract/printed_amounts.h"

namespace receipt::extract {

namespace {

// The rate of a percentage discount description ("割引 10%", "10%引", "20%OFF"), or 0.
int discount_rate(const std::string& description) {
    static const std::regex kBefore("割引\\s*(\\d{1,2})\\s*%");
    static const std::regex kAfter("(\\d{1,2})\\s*%\\s*(?:引|OFF|off)");
    std::smatch m;
    try {
        if (std::regex_search(description, m, kBefore) || std::regex_search(description, m, kAfter))
            return std::stoi(m[1].str());
    } catch (...) {
    }
    return 0;
}

// The amount printed on a discount's row: the first number (an amount, or a negative one: "-18円", "-¥18") after
// its rate on the line that prints the rate (the `nth` such line, from 0: the nth discount of that rate), or on the
// next kDiscountRowLines lines. nullopt when none.
constexpr size_t kDiscountRowLines = 2;
std::optional<double> row_amount(const std::vector<std::string>& lines, int rate, int nth) {
    for (size_t i = 0; i < lines.size(); ++i) {
        if (discount_rate(lines[i]) != rate || nth-- > 0) continue;
        for (size_t k = i; k < lines.size() && k <= i + kDiscountRowLines; ++k)
            for (const PrintedNumber& n : printed_numbers(lines[k]))
                if (!n.percent && !(k == i && int(n.value) == rate) &&
                    (n.usable || (n.begin > 0 && lines[k][n.begin - 1] == '-')))
                    return n.value;
        return std::nullopt;
    }
    return std::nullopt;
}

}  // namespace

bool discounts_from_rate(const std::string& text, nlohmann::ordered_json& f) {
    auto& items = f["line_items"];
    if (!items.is_array()) return false;
    std::vector<std::string> lines;  // read when a discount needs it
    std::vector<size_t> changed;
    std::vector<int> seen_rates;  // the rates of the discount items before item k
    for (size_t k = 1; k < items.size(); ++k) {
        auto& it = items[k];
        const auto& before = items[k - 1];
        if (!it.is_object() || !before.is_object() || !it.contains("description") || !it["description"].is_string())
            continue;
        const int rate = discount_rate(it["description"].get<std::string>());
        const int nth = int(std::count(seen_rates.begin(), seen_rates.end(), rate));
        if (rate > 0) seen_rates.push_back(rate);
        const auto& base = before.contains("amount") ? before["amount"] : nlohmann::ordered_json();
        if (rate <= 0 || rate >= 100 || !base.is_number() || !(base.get<double>() > 0)) continue;
        const double exact = base.get<double>() * rate / 100.0;
        const std::set<double> shares = {std::max(1.0, std::floor(exact)), std::max(1.0, std::round(exact)),
                                         std::max(1.0, std::ceil(exact))};
        const auto& amount = it.contains("amount") ? it["amount"] : nlohmann::ordered_json();
        if (amount.is_number() && shares.count(-amount.get<double>())) continue;
        if (lines.empty()) lines = printed_lines(text);
        // The row prints one of the shares, or the rounded-down share with one digit that OCR dropped ("-¥7" for 77).
        const std::optional<double> printed = row_amount(lines, rate, nth);
        if (!printed) continue;
        const double floor_share = *shares.begin();
        double share = 0;
        if (shares.count(*printed))
            share = *printed;
        else if (one_digit_inserted(amount_digits(*printed), amount_digits(floor_share)))
            share = floor_share;
        else
            continue;
        it["amount"] = json_amount(-share);
        it["quantity"] = 1;
        it["unit_price"] = json_amount(-share);
        changed.push_back(k + 1);
    }
    if (changed.empty()) return false;
    std::string which;
    for (size_t k : changed) which += (which.empty() ? "" : ", ") + std::to_string(k);
    f["warnings"].push_back("line_item_discount_from_rate: items " + which +
                            " get the share of the item before them that their rate makes, as printed");
    return true;
}

}  // namespace receipt::extract
