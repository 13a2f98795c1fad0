// Percentage discount lines of a Japanese receipt (extract/discount_rate.h).
#include <gtest/gtest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "extract/discount_rate.h"

namespace ex = receipt::extract;

namespace {

// A yen receipt's fields with two items: `item` of `amount`, then the discount `name` of `discount` (null: none).
nlohmann::ordered_json with_discount(double amount, const std::string& name, const nlohmann::ordered_json& discount) {
    return {{"line_items",
             {{{"description", "ﾋﾞﾆｰﾙ傘"}, {"quantity", 1}, {"unit_price", amount}, {"amount", amount}},
              {{"description", name}, {"quantity", 1}, {"unit_price", discount}, {"amount", discount}}}},
            {"warnings", nlohmann::ordered_json::array()}};
}

}  // namespace

TEST(DiscountRate, ShareOfTheItemAboveAsItsRowPrintsIt) {
    // The model wrote the item's amount; the row prints 10 % of 775 rounded down.
    auto f = with_discount(775, "割引 10%", -775);
    EXPECT_TRUE(ex::discounts_from_rate("ﾋﾞﾆｰﾙ傘\n¥775\n割引 10%\n-¥77\n", f));
    EXPECT_EQ(f["line_items"][1]["amount"], -77);
    EXPECT_EQ(f["line_items"][1]["unit_price"], -77);
    EXPECT_NE(f["warnings"].dump().find("line_item_discount_from_rate"), std::string::npos);
    // OCR dropped a digit of the row ("-¥7"): the rounded-down share; a model amount left out gets it too.
    auto g = with_discount(775, "割引 10%", nullptr);
    EXPECT_TRUE(ex::discounts_from_rate("ﾋﾞﾆｰﾙ傘\n¥775\n割引 10%\n-¥7\n", g));
    EXPECT_EQ(g["line_items"][1]["amount"], -77);
    // "20%引" and a share rounded to nearest (0.5 up) as the till prints it.
    auto h = with_discount(183, "20%引", -183);
    EXPECT_TRUE(ex::discounts_from_rate("りんご\n183円\n20%引 -37円\n", h));
    EXPECT_EQ(h["line_items"][1]["amount"], -37);
}

TEST(DiscountRate, TwoDiscountsOfOneRateReadTheirOwnRows) {
    nlohmann::ordered_json f = {
        {"line_items",
         {{{"description", "パン"}, {"amount", 274}}, {{"description", "割引 30%"}, {"amount", -82}},
          {{"description", "牛乳"}, {"amount", 150}}, {{"description", "割引 30%"}, {"amount", -5}}}},
        {"warnings", nlohmann::ordered_json::array()}};
    EXPECT_TRUE(ex::discounts_from_rate("パン\n¥274\n割引 30%\n-¥82\n牛乳\n¥150\n割引 30%\n-¥45\n", f));
    EXPECT_EQ(f["line_items"][1]["amount"], -82);
    EXPECT_EQ(f["line_items"][3]["amount"], -45);
}

TEST(DiscountRate, KeptWhenRightOrNotPrinted) {
    auto f = with_discount(775, "割引 10%", -77);  // already the share
    EXPECT_FALSE(ex::discounts_from_rate("割引 10%\n-¥77\n", f));
    auto g = with_discount(2480, "割引 10%", -2980);  // the row prints another amount (a wrong item above)
    EXPECT_FALSE(ex::discounts_from_rate("¥2,480\n割引 10%\n-¥2,980\n", g));
    EXPECT_EQ(g["line_items"][1]["amount"], -2980);
    auto h = with_discount(775, "値引", -50);  // no rate
    EXPECT_FALSE(ex::discounts_from_rate("値引\n-¥50\n", h));
    nlohmann::ordered_json none = {{"warnings", nlohmann::ordered_json::array()}};
    EXPECT_FALSE(ex::discounts_from_rate("割引 10%\n", none));
}
