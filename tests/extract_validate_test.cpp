// Receipt consistency checks: item sums, quantity x unit price, tax plausibility.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "extract/target_parser.h"
#include "extract/validate.h"

namespace ex = receipt::extract;
using nlohmann::json;

namespace {

std::vector<std::string> codes(const json& fields) {
    std::vector<std::string> out;
    for (const std::string& w : ex::validate_fields(fields)) {
        EXPECT_TRUE(ex::is_validation_warning(w)) << w;
        out.push_back(w.substr(0, w.find(':')));
    }
    return out;
}

json item(json qty, json unit, json amount) {
    return {{"description", "x"}, {"quantity", qty}, {"unit_price", unit}, {"amount", amount}};
}

using Codes = std::vector<std::string>;

}  // namespace

TEST(Validate, ConsistentReceiptHasNoWarnings) {
    json f = {{"line_items", {item(2, 150, 300), item(1, 130, 130)}},
              {"net_amount", 430},
              {"total_tax_amount", 34},
              {"total_amount", 464}};
    EXPECT_EQ(codes(f), Codes{});
}

TEST(Validate, TaxInclusiveItemsMatchTotal) {
    // 内税: items are tax-inclusive and sum to the total; net is printed without tax.
    json f = {{"line_items", {item(1, 540, 540), item(1, 540, 540)}},
              {"net_amount", 1000},
              {"total_tax_amount", 80},
              {"total_amount", 1080}};
    EXPECT_EQ(codes(f), Codes{});
}

TEST(Validate, ItemsMatchTotalMinusTaxWithoutNet) {
    json f = {{"line_items", {item(nullptr, nullptr, 100)}}, {"total_tax_amount", 10}, {"total_amount", 110}};
    EXPECT_EQ(codes(f), Codes{});
}

TEST(Validate, ItemsSumMismatch) {
    json f = {{"line_items", {item(1, 100, 100), item(1, 50, 50)}}, {"net_amount", 200}, {"total_amount", 200}};
    EXPECT_EQ(codes(f), Codes{"items_sum_mismatch"});
    json within = {{"line_items", {item(1, 0.1, 0.1), item(1, 0.2, 0.2)}}, {"total_amount", 0.305}};
    EXPECT_EQ(codes(within), Codes{});
}

TEST(Validate, DiscountLines) {
    json f = {{"line_items", {item(1, 300, 300), item(nullptr, nullptr, -50)}}, {"total_amount", 250}};
    EXPECT_EQ(codes(f), Codes{});
    json positive_unit = {{"line_items", {item(1, 300, 300), item(1, 50, -50)}}, {"total_amount", 250}};
    EXPECT_EQ(codes(positive_unit), Codes{});
}

TEST(Validate, QuantityTimesUnitPrice) {
    json f = {{"line_items", {item(3, 100, 250)}}, {"total_amount", 250}};
    EXPECT_EQ(codes(f), Codes{"item_amount_mismatch"});
    json rounded = {{"line_items", {item(0.345, 2.99, 1.03)}}};
    EXPECT_EQ(codes(rounded), Codes{});
}

TEST(Validate, TaxPlausibility) {
    EXPECT_EQ(codes({{"total_tax_amount", -1}, {"total_amount", 100}}), Codes{"negative_tax"});
    EXPECT_EQ(codes({{"total_tax_amount", 30}, {"total_amount", 100}}), Codes{"tax_implausible"});
    EXPECT_EQ(codes({{"total_tax_amount", 150}, {"total_amount", 100}}), Codes{"tax_exceeds_total"});
    EXPECT_EQ(codes({{"total_tax_amount", 25}, {"total_amount", 100}}), Codes{});
    EXPECT_EQ(codes({{"total_amount", -5}}), (Codes{"negative_total"}));
}

TEST(Validate, NetTaxTotal) {
    EXPECT_EQ(codes({{"net_amount", 100}, {"total_tax_amount", 10}, {"total_amount", 150}}),
              Codes{"net_tax_total_mismatch"});
    EXPECT_EQ(codes({{"net_amount", 110}, {"total_tax_amount", 10}, {"total_amount", 110}}), Codes{});
}

TEST(Validate, IgnoresMissingAndJunk) {
    EXPECT_EQ(codes(json::object()), Codes{});
    EXPECT_EQ(codes(json::array()), Codes{});
    EXPECT_EQ(codes({{"line_items", "x"}, {"total_amount", "100"}}), Codes{});
    EXPECT_EQ(codes({{"line_items", {1, nullptr, item("2", 3, 6)}}, {"net_amount", 6}}), Codes{});
}

TEST(Validate, RunsInsideParser) {
    const json j = ex::parse_target("item: A ; 2 ; 100 ; 300 | net: 300 | tax: 200 | total: 150");
    std::vector<std::string> got;
    for (const json& w : j["warnings"]) got.push_back(w.get<std::string>().substr(0, w.get<std::string>().find(':')));
    EXPECT_EQ(got, (Codes{"item_amount_mismatch", "net_tax_total_mismatch", "tax_exceeds_total"}));
}

TEST(Validate, KnowsItsOwnWarnings) {
    EXPECT_TRUE(ex::is_validation_warning("negative_total: total_amount is -1"));
    EXPECT_FALSE(ex::is_validation_warning("negative_total"));  // a code alone is no warning
    EXPECT_FALSE(ex::is_validation_warning("input_truncated: 600 tokens cut to 512"));
    EXPECT_FALSE(ex::is_validation_warning("receipt_date_not_printed: the model wrote 2018-05-12"));
}
