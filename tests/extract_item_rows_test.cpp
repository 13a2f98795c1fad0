// Line items read from the printed item rows of a yen receipt (extract/item_rows.h).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "extract/item_rows.h"
#include "extract/post_checks.h"
#include "receipt/extractor.h"

namespace ex = receipt::extract;

namespace {

std::vector<std::pair<std::string, double>> pairs(const std::vector<ex::ItemRow>& rows) {
    std::vector<std::pair<std::string, double>> out;
    for (const auto& r : rows) out.emplace_back(r.description, r.amount);
    return out;
}

}  // namespace

TEST(ItemRows, RowsBetweenTheDateAndTheSubtotal) {
    const std::string text =
        "成城石井\n梅田店\n電話\n06-8189-8532\n2024年08月13日(火)\n22時32分\nレジ#4\n責No.215\n"
        "炭酸水 500ml\n72軽\nお惣菜 コロッケ\n81軽\nじゃがいも\n袋\n275軽\nレジ袋\n4円\n"
        "冷凍うどん 5食 514軽\n(2点 単価257)\n値引\n-¥20\n※8680 米 コシヒカリ 5kg\n2,296軽\n"
        "小計\n3,222\n外税8%\n257\n合計\n3,479\n";
    const auto rows = ex::read_item_rows(text);
    ASSERT_TRUE(rows);
    EXPECT_EQ(pairs(*rows), (std::vector<std::pair<std::string, double>>{{"炭酸水 500ml", 72},
                                                                        {"お惣菜 コロッケ", 81},
                                                                        {"じゃがいも 袋", 275},
                                                                        {"レジ袋", 4},
                                                                        {"冷凍うどん 5食", 514},
                                                                        {"値引", -20},
                                                                        {"米 コシヒカリ 5kg", 2296}}));
    // Count and unit price from the row; none for a discount.
    EXPECT_EQ((*rows)[4].quantity, 2.0);
    EXPECT_EQ((*rows)[4].unit_price, 257.0);
    EXPECT_EQ((*rows)[0].quantity, 1.0);
    EXPECT_EQ((*rows)[0].unit_price, 72.0);
    EXPECT_FALSE((*rows)[5].quantity);
    EXPECT_FALSE((*rows)[5].unit_price);
}

TEST(ItemRows, AmountOnTheNextLineKeepsTheWholeDescription) {
    const auto rows = ex::read_item_rows("郵便局\n2024/01/05\n切手 84円\n¥84\nAnker PowerCore 10000\n¥7,980\n合計\n¥8,064\n");
    ASSERT_TRUE(rows);
    EXPECT_EQ(pairs(*rows), (std::vector<std::pair<std::string, double>>{{"切手 84円", 84},
                                                                        {"Anker PowerCore 10000", 7980}}));
}

TEST(ItemRows, DiscountsAndNoTotals) {
    const auto rows = ex::read_item_rows("店\n2024/01/05\nカレー \\662\n割引 30%\nー198円\n小計 \\464\n");
    ASSERT_TRUE(rows);
    EXPECT_EQ(pairs(*rows), (std::vector<std::pair<std::string, double>>{{"カレー", 662}, {"割引 30%", -198}}));
    // Without a subtotal or total line there is nothing to read up to.
    EXPECT_EQ(ex::read_item_rows("店\n2024/01/05\nカレー \\662\n"), std::nullopt);
    EXPECT_EQ(ex::read_item_rows(""), std::nullopt);
}

// apply_post_checks on a yen receipt: the rows replace items that do not add up (keeping the model's description
// of a row where it reads through OCR noise), and name the rows of items that add up but are not printed.
TEST(ItemRows, PostCheckReplacesItemsThatDoNotAddUp) {
    const std::string text = "店\n2024/01/05\nーグルト プレーン\n310軽\n絹豆腐\n53軽\n小計\n363\n合計\n392\n";
    nlohmann::ordered_json f = {{"currency", "JPY"},
                                {"line_items",
                                 {{{"description", "ヨーグルト プレーン"}, {"quantity", 1}, {"unit_price", 310}, {"amount", 310}}}},
                                {"net_amount", 363},
                                {"total_tax_amount", 29},
                                {"total_amount", 392},
                                {"warnings", nlohmann::ordered_json::array()}};
    receipt::ExtractOptions opts;
    ex::apply_post_checks(text, "", opts, f);
    ASSERT_EQ(f["line_items"].size(), 2u);
    EXPECT_EQ(f["line_items"][0]["description"], "ヨーグルト プレーン");
    EXPECT_EQ(f["line_items"][1]["description"], "絹豆腐");
    EXPECT_EQ(f["line_items"][1]["amount"], 53);
    EXPECT_NE(f["warnings"].dump().find("line_items_from_rows"), std::string::npos) << f["warnings"].dump();

    nlohmann::ordered_json g = f;
    g["line_items"][1]["description"] = "牛めし 並";  // adds up, but not printed
    g["warnings"] = nlohmann::ordered_json::array();
    ex::apply_post_checks(text, "", opts, g);
    EXPECT_EQ(g["line_items"][1]["description"], "絹豆腐");
    EXPECT_NE(g["warnings"].dump().find("line_item_description_from_row"), std::string::npos) << g["warnings"].dump();
}
