// Line items read from the printed item rows of a yen receipt (extract/item_rows.h).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "extract/item_rows.h"
#include "extract/ocr_digits.h"
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
TEST(ItemRows, AmountBoxMovedAboveItsDescription) {
    // OCR put a row's amount box above its description: the second money line after 絹豆腐 belongs to ｱﾙﾐﾎｲﾙ,
    // whose own row prints none, and the amount under the 金額 header belongs to 納豆 3P.
    const std::string text =
        "2021年7月22日\nレジ#8\n絹豆腐\n60軽\n178\nｱﾙﾐﾎｲﾙ\n生鮭 切身\n1,500軽\n(5点 単価300)\n小計\n1,738\n";
    const auto rows = ex::read_item_rows(text);
    ASSERT_TRUE(rows);
    EXPECT_EQ(pairs(*rows), (std::vector<std::pair<std::string, double>>{
                                {"絹豆腐", 60}, {"ｱﾙﾐﾎｲﾙ", 178}, {"生鮭 切身", 1500}}));
    const std::string header =
        "2020/06/11\n商品名\n数量\n金額\n¥83\n納豆 3P ※\n1\nカレールー 中辛 ※\n1\n¥211\n小計 (2点)\n¥294\n";
    const auto rows2 = ex::read_item_rows(header);
    ASSERT_TRUE(rows2);
    EXPECT_EQ(pairs(*rows2),
              (std::vector<std::pair<std::string, double>>{{"納豆 3P", 83}, {"カレールー 中辛", 211}}));
    // A description split over two lines under a row with one amount stays one item.
    const std::string split = "2024年08月13日\n炭酸水 500ml\n72軽\nじゃがいも\n袋\n275軽\n小計\n347\n";
    const auto rows3 = ex::read_item_rows(split);
    ASSERT_TRUE(rows3);
    EXPECT_EQ(pairs(*rows3),
              (std::vector<std::pair<std::string, double>>{{"炭酸水 500ml", 72}, {"じゃがいも 袋", 275}}));
}

TEST(ItemRows, TimeAndDiscountAmountLinesAreNoDescriptions) {
    // OCR garbled the date ("2025-052"): the rows are read from the top, and the time line is not an item's first
    // half; a discount's amount on its own line ("ー1,814円") does not start the next item.
    const std::string text = "CoCo壱番屋\n2025-052\n7時21分\nかしわ天\n\\286\n割引 50%\nー143円\nキャベツ\n366円軽\n"
                             "小計\n509\n";
    const auto rows = ex::read_item_rows(text);
    ASSERT_TRUE(rows);
    EXPECT_EQ(pairs(*rows), (std::vector<std::pair<std::string, double>>{
                                {"かしわ天", 286}, {"割引 50%", -143}, {"キャベツ", 366}}));
}

TEST(ItemRows, DescriptionsAsPrinted) {
    // The amounts read "1,5O0" as 1500; the descriptions keep the letters they print next to digits.
    const std::string text = "2024/01/05\nﾏﾖﾈｰｽﾞ 450g\n299軽\nボス ブラック 185g\n1,5O0\n小計\n1,799\n";
    const auto rows = ex::read_item_rows(text);
    ASSERT_TRUE(rows);
    EXPECT_EQ(pairs(*rows), (std::vector<std::pair<std::string, double>>{{"ﾏﾖﾈｰｽﾞ 450g", 299},
                                                                        {"ボス ブラック 185g", 1500}}));
}

TEST(ItemRows, TwoDescriptionsOverTwoAmounts) {
    const std::string text = "2021年11月18日\n玉ねぎ 3個入\nアルミホイル\n258円軽\n139円\n目薬 サンテFX 516円\n小計\n913円\n";
    const auto rows = ex::read_item_rows(text);
    ASSERT_TRUE(rows);
    EXPECT_EQ(pairs(*rows), (std::vector<std::pair<std::string, double>>{
                                {"玉ねぎ 3個入", 258}, {"アルミホイル", 139}, {"目薬 サンテFX", 516}}));
    // The second amount is the box of the description below, which prints none: a split description.
    const std::string moved = "2024/08/13\nじゃがいも\n袋\n275軽\n178\nｱﾙﾐﾎｲﾙ\n生鮭 切身\n298軽\n小計\n751\n";
    const auto rows2 = ex::read_item_rows(moved);
    ASSERT_TRUE(rows2);
    EXPECT_EQ(pairs(*rows2), (std::vector<std::pair<std::string, double>>{
                                 {"じゃがいも 袋", 275}, {"ｱﾙﾐﾎｲﾙ", 178}, {"生鮭 切身", 298}}));
}

TEST(ItemRows, TotalsLinesAsOcrDamagesThem) {
    // 合 and 計 on two lines, 小 lost, and look-alikes all end the rows.
    for (const char* totals : {"合\n計\n", "計 (2点)\n", "台計\n", "小言\n"}) {
        const std::string text = std::string("店\n2025年05月08日(木)\n＊かけうどん 並\n390\n＊カレーライス\n650\n") + totals +
                                 "1,040\nお預り\n2,000\n";
        const auto rows = ex::read_item_rows(text);
        ASSERT_TRUE(rows) << totals;
        EXPECT_EQ(pairs(*rows), (std::vector<std::pair<std::string, double>>{{"かけうどん 並", 390}, {"カレーライス", 650}}))
            << totals;
    }
}

TEST(ItemRows, ProductCodesDamagedByOcrGo) {
    const auto rows = ex::read_item_rows("店\n2024/01/05\n822 食器用洗剤\n¥207\n0189牛乳 1000ml\n¥238\n小計\n¥445\n");
    ASSERT_TRUE(rows);
    EXPECT_EQ(pairs(*rows), (std::vector<std::pair<std::string, double>>{{"食器用洗剤", 207}, {"牛乳 1000ml", 238}}));
}

TEST(ItemRows, ModelAmountsThatAddUpStayWhenARowsWouldNot) {
    // Quantity and amount columns that OCR shuffled: the row of お~いお茶 reads 1 (its quantity box).
    const std::string text = "店\n19/11/23 0:54\n商品名\n数量\n金額\nブラックサンダー ※\n1\n43\nお~いお茶 525ml ※\n162\n1\n"
                             "1\n160\nじゃがりこ サラダ ※\n見切値引\n-30\n小計\n335\nお会計\n335\n";
    nlohmann::ordered_json f = {{"currency", "JPY"},
                                {"line_items",
                                 {{{"description", "ブラックサンダー"}, {"quantity", 1}, {"unit_price", 43}, {"amount", 43}},
                                  {{"description", "お~いお茶 525ml"}, {"quantity", 1}, {"unit_price", 162}, {"amount", 162}},
                                  {{"description", "じゃがりこ サラダ"}, {"quantity", 1}, {"unit_price", 160}, {"amount", 160}},
                                  {{"description", "見切値引"}, {"quantity", nullptr}, {"unit_price", nullptr}, {"amount", -30}}}},
                                {"net_amount", 335},
                                {"total_tax_amount", nullptr},
                                {"total_amount", 335},
                                {"warnings", nlohmann::ordered_json::array()}};
    receipt::ExtractOptions opts;
    ex::apply_post_checks(text, "", opts, f);
    EXPECT_EQ(f["line_items"][1]["amount"], 162) << f.dump();
    EXPECT_EQ(f["warnings"].dump().find("line_item_amount_from_row"), std::string::npos) << f["warnings"].dump();
}

TEST(ItemRows, RegisterAndClerkLinesAreNoDescriptions) {
    const std::string text =
        "店\n2024-04-24\nPOS8\nチョコレート\n\\500軽\n担当者\n高橋\n週刊少年ジャンプ 320円\n小計\n\\820\n";
    const auto rows = ex::read_item_rows(text);
    ASSERT_TRUE(rows);
    EXPECT_EQ(pairs(*rows),
              (std::vector<std::pair<std::string, double>>{{"チョコレート", 500}, {"週刊少年ジャンプ", 320}}));
    // A model item that took the register line as part of its name gets the row's name.
    nlohmann::ordered_json f = {{"currency", "JPY"},
                                {"line_items",
                                 {{{"description", "POS8 チョコレート"}, {"quantity", 1}, {"unit_price", 500}, {"amount", 500}},
                                  {{"description", "週刊少年ジャンプ"}, {"quantity", 1}, {"unit_price", 32}, {"amount", 32}}}},
                                {"net_amount", 820},
                                {"total_tax_amount", nullptr},
                                {"total_amount", 820},
                                {"warnings", nlohmann::ordered_json::array()}};
    receipt::ExtractOptions opts;
    ex::apply_post_checks(text, "", opts, f);
    ASSERT_EQ(f["line_items"].size(), 2u);
    EXPECT_EQ(f["line_items"][0]["description"], "チョコレート") << f.dump();
    EXPECT_EQ(f["line_items"][1]["amount"], 320);
}

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

TEST(ItemRows, RowsDamagedByOcrKeepTheModelsReading) {
    receipt::ExtractOptions opts;
    auto item = [](const std::string& d, double a) {
        return nlohmann::ordered_json{{"description", d}, {"quantity", 1}, {"unit_price", a}, {"amount", a}};
    };
    auto fields = [](nlohmann::ordered_json items, double net) {
        return nlohmann::ordered_json{{"currency", "JPY"}, {"line_items", std::move(items)}, {"net_amount", net},
                                      {"total_tax_amount", nullptr}, {"total_amount", net},
                                      {"warnings", nlohmann::ordered_json::array()}};
    };
    // The model's items add up; OCR dropped three characters of the printed row ("ｷﾎﾞｰ"): the model's reading of it
    // is kept, not replaced by the row's, while a model description no row reads still is ("牛めし 並").
    const std::string text = "店\n2024/03/30\nｷﾎﾞｰ\n4,888円\nマウス\n1,250円\n小計\n6,138円\n合計\n6,138円\n";
    auto f = fields({item("ｷｰﾎﾞｰﾄﾞ", 4888), item("牛めし 並", 1250)}, 6138);
    ex::apply_post_checks(text, "", opts, f);
    EXPECT_EQ(f["line_items"][0]["description"], "ｷｰﾎﾞｰﾄﾞ") << f.dump();
    EXPECT_EQ(f["line_items"][1]["description"], "マウス") << f.dump();

    // The rows replace items that do not add up; a row with a letter read as a digit ("HDM1"), a letter dropped
    // inside it ("WH-1000X5") or a space lost ("じゃがりこサラダ") takes the model's description of it, whatever
    // amount the model wrote.
    const std::string text2 = "店\n2024/03/30\nHDM1ケーブル 2m\n1,860円\nSONY WH-1000X5\n53,618円\n"
                              "じゃがりこサラダ\n208円\n小計\n55,686円\n合計\n55,686円\n";
    auto g = fields({item("HDMIケーブル 2m", 16545), item("SONY WH-1000XM5", 51385), item("じゃがりこ サラダ", 200)},
                    55686);
    ex::apply_post_checks(text2, "", opts, g);
    ASSERT_EQ(g["line_items"].size(), 3u) << g.dump();
    EXPECT_EQ(g["line_items"][0]["description"], "HDMIケーブル 2m");
    EXPECT_EQ(g["line_items"][0]["amount"], 1860);
    EXPECT_EQ(g["line_items"][1]["description"], "SONY WH-1000XM5");
    EXPECT_EQ(g["line_items"][2]["description"], "じゃがりこ サラダ");

    // ASCII the model wrote past the end of the printed row is its slip, not the printed name.
    const std::string text3 = "店\n2024/03/30\n緑茶 2L\n198円\nパン\n120円\n小計\n318円\n合計\n318円\n";
    auto h = fields({item("緑茶 2L/3", 100), item("パン", 120)}, 318);
    ex::apply_post_checks(text3, "", opts, h);
    ASSERT_EQ(h["line_items"].size(), 2u) << h.dump();
    EXPECT_EQ(h["line_items"][0]["description"], "緑茶 2L");
    EXPECT_EQ(h["line_items"][0]["amount"], 198);
}

TEST(ItemRows, SizesMarkBoxesAndCountLines) {
    // A size after the description is part of it, also when the look-alike reading turns its unit into a digit
    // ("120g" -> "1209"); the amount part starts after it.
    const std::string text = "店\n2025/06/22\n歯磨き粉 120g \\508\n(2点 単価\\254)\nチョコレート\n\\100軽\n小計\n\\608\n";
    auto rows = ex::read_item_rows(text);
    ASSERT_TRUE(rows);
    EXPECT_EQ(pairs(*rows), (std::vector<std::pair<std::string, double>>{{"歯磨き粉 120g", 508}, {"チョコレート", 100}}));
    EXPECT_EQ((*rows)[0].quantity, 2);

    // A tax mark in its own box does not end the row (商品名 / 数量 / 金額 columns, no currency sign).
    const std::string text2 = "店\n19/12/20\n商品名\n数量\n金額\nｷｬﾍﾞﾂ ※\n2\n398\nﾏﾖﾈｰｽﾞ 450g\n※\n1\n303\n小計\n701\n";
    rows = ex::read_item_rows(text2);
    ASSERT_TRUE(rows);
    EXPECT_EQ(pairs(*rows), (std::vector<std::pair<std::string, double>>{{"ｷｬﾍﾞﾂ", 398}, {"ﾏﾖﾈｰｽﾞ 450g", 303}}));

    // The line's own amount fits the count line under it; the money line after that is the next row's box, moved
    // above its description.
    const std::string text3 = "店\n2020/07/09\nﾏﾖﾈｰｽﾞ 450g ¥740軽\n(2点 単価¥370)\n¥148軽\n麦茶 2L\nｱﾙﾐﾎｲﾙ\n¥158\n"
                              "小計\n¥1,046\n";
    rows = ex::read_item_rows(text3);
    ASSERT_TRUE(rows);
    EXPECT_EQ(pairs(*rows), (std::vector<std::pair<std::string, double>>{
                                {"ﾏﾖﾈｰｽﾞ 450g", 740}, {"麦茶 2L", 148}, {"ｱﾙﾐﾎｲﾙ", 158}}));
    EXPECT_EQ((*rows)[0].quantity, 2);
    EXPECT_EQ((*rows)[0].unit_price, 370);
}

TEST(ItemRows, QuantityColumn) {
    // Under a 数量 column a row's number without a money sign is its count; without any money sign on the receipt,
    // of two numbers the larger is the amount, also when OCR swapped the boxes ("476" / "2").
    const std::string text = "店\n19/12/20\n商品名\n数量\n金額\n刺身盛合せ ※\n2\n1814\n玉ねぎ 3個入 ※\n476\n2\n"
                             "絹豆腐 ※\n1\n53\n小計\n2343\n";
    auto rows = ex::read_item_rows(text);
    ASSERT_TRUE(rows);
    EXPECT_EQ(pairs(*rows), (std::vector<std::pair<std::string, double>>{
                                {"刺身盛合せ", 1814}, {"玉ねぎ 3個入", 476}, {"絹豆腐", 53}}));
    EXPECT_EQ((*rows)[0].quantity, 2);
    EXPECT_EQ((*rows)[0].unit_price, 907);
    EXPECT_EQ((*rows)[1].quantity, 2);
    EXPECT_EQ((*rows)[2].quantity, 1);

    // With money signs the count is the number without one; the amount box moved above its row, with the count
    // box between them ("¥670" / "1" / "ロキソニンS 12錠"), still belongs to that row.
    const std::string text2 = "店\n2022-09-09 22:43\n商品名\n数量\n金額\n綿棒 200本\n2\n¥316\nシャンプー 詰替\n1\n¥460\n"
                              "¥670\n1\nロキソニンS 12錠\nハンドソープ 詰替\n1\n¥315\n小計 (5点)\n¥1,761\n";
    rows = ex::read_item_rows(text2);
    ASSERT_TRUE(rows);
    EXPECT_EQ(pairs(*rows), (std::vector<std::pair<std::string, double>>{
                                {"綿棒 200本", 316}, {"シャンプー 詰替", 460}, {"ロキソニンS 12錠", 670},
                                {"ハンドソープ 詰替", 315}}));
    EXPECT_EQ((*rows)[0].quantity, 2);
    EXPECT_EQ((*rows)[0].unit_price, 158);

    // Without a 数量 column, two numbers without signs stay as read ("ティッシュ 5 270": a size that lost its unit).
    const std::string text3 = "店\n2022/07/27\nチョコレート\n100軽\nティッシュ 5 270\n小計\n370\n";
    rows = ex::read_item_rows(text3);
    ASSERT_TRUE(rows);
    ASSERT_EQ(rows->size(), 2u);
    EXPECT_EQ((*rows)[1].amount, 270);
    EXPECT_EQ((*rows)[1].quantity, 1);

    // Text in rows: the heading on one line is no description, and the count after a description under it is its
    // quantity, also before it or after a number of the description ("からあげクン ※ 3" / "¥837", "1 単3形電池 4本",
    // "Anker PowerCore 10000 1").
    const std::string text4 = "店\n23/10/26 22時28分\n商品名 数量 金額\nレジ袋 L 1\n¥5\nからあげクン ※ 3\n¥837\n"
                              "545円\n1 単3形電池 4本\nAnker PowerCore 10000 1\n3,429円\n小 計\n¥4,816\n";
    rows = ex::read_item_rows(text4);
    ASSERT_TRUE(rows);
    EXPECT_EQ(pairs(*rows), (std::vector<std::pair<std::string, double>>{{"レジ袋 L", 5},
                                                                         {"からあげクン", 837},
                                                                         {"単3形電池 4本", 545},
                                                                         {"Anker PowerCore 10000", 3429}}));
    EXPECT_EQ((*rows)[1].quantity, 3);
    EXPECT_EQ((*rows)[1].unit_price, 279);
}

TEST(ItemRows, RowDescriptionsGetTheLookAlikeAndLetterFixes) {
    receipt::ExtractOptions opts;
    // The rows replace the model's items; a row whose katakana OCR read as a kanji look-alike ("力" for カ) is
    // fixed like the model's text, and a row that lost a unit letter ("緑茶 2") takes the model's "緑茶 2L".
    const std::string text = "店\n2024/03/30\nロースカツ力レー\n863円\n緑茶 2\n178円\n小計\n1,041円\n合計\n1,041円\n";
    nlohmann::ordered_json f = {{"currency", "JPY"},
                                {"line_items",
                                 {{{"description", "緑茶 2L"}, {"quantity", 1}, {"unit_price", 100}, {"amount", 100}}}},
                                {"net_amount", 1041},
                                {"total_tax_amount", nullptr},
                                {"total_amount", 1041},
                                {"warnings", nlohmann::ordered_json::array()}};
    ex::apply_post_checks(text, "", opts, f);
    ASSERT_EQ(f["line_items"].size(), 2u) << f.dump();
    EXPECT_EQ(f["line_items"][0]["description"], "ロースカツカレー");
    EXPECT_EQ(f["line_items"][1]["description"], "緑茶 2L");
    EXPECT_EQ(f["line_items"][1]["amount"], 178);
}

TEST(ItemRows, SignLookAlikesGluedAmountsAndMovedBoxes) {
    // "Y416軽" and "99門": OCR look-alikes of the yen signs; "ボールペン 黒¥170": an amount glued to its
    // description; "-¥100" above "クーポン値引": a discount's box moved above its label; "レジ袋 ¥5" / "¥80" /
    // "お惣菜 コロッケ": the row holds its own amount and "¥80" is the box of the description after it.
    const std::string text =
        "店\n2024/03/30\n鶏もも肉 唐揚用\nY416軽\nトマト\n99門\n-¥100\nクーポン値引\nボールペン 黒¥170\n"
        "レジ袋 ¥5\n¥80\nお惣菜 コロッケ\n牛切落し\n¥698\n小計\n1,438\n";
    const auto rows = ex::read_item_rows(text);
    ASSERT_TRUE(rows);
    EXPECT_EQ(pairs(*rows), (std::vector<std::pair<std::string, double>>{{"鶏もも肉 唐揚用", 416},
                                                                        {"トマト", 99},
                                                                        {"クーポン値引", -100},
                                                                        {"ボールペン 黒", 170},
                                                                        {"レジ袋", 5},
                                                                        {"お惣菜 コロッケ", 80},
                                                                        {"牛切落し", 698}}));
    // A discount's box right above its label is not taken when it is the amount of the discount label above.
    const std::string text2 = "店\n2024/03/30\nパン\n¥200\n値引\n-¥20\nクーポン\nおにぎり\n¥120\n小計\n300\n";
    const auto rows2 = ex::read_item_rows(text2);
    ASSERT_TRUE(rows2);
    EXPECT_EQ(pairs(*rows2), (std::vector<std::pair<std::string, double>>{{"パン", 200}, {"値引", -20}, {"おにぎり", 120}}));
}

TEST(ItemRows, DateLinesThatOcrDamagedAreNoRows) {
    // A date line without its day digit, a weekday and time left on their own line, a garbled year, the first
    // year of an era: none starts an item or joins one.
    for (const std::string header :
         {"2024年3月日\n月曜日 09:32\n", "202501月16日(木) 22:43\n", "令和元年11月2日 14:37\n", "20224月27日 水曜日 12時14分\n"}) {
        const std::string text = "店\n担当者 山本\n" + header + "栄養ドリンク\n¥795\n洗顔フォーム\n¥1,080\n小計\n1,875\n";
        const auto rows = ex::read_item_rows(text);
        ASSERT_TRUE(rows) << header;
        EXPECT_EQ(pairs(*rows), (std::vector<std::pair<std::string, double>>{{"栄養ドリンク", 795},
                                                                            {"洗顔フォーム", 1080}}))
            << header;
    }
}

TEST(ItemRows, SignLookAlikesReadOnlyAtAnAmount) {
    EXPECT_EQ(ex::read_sign_confusions("Y416軽"), "\\416軽");
    EXPECT_EQ(ex::read_sign_confusions("値引 -Y150"), "値引 -\\150");
    EXPECT_EQ(ex::read_sign_confusions("計 Y1,240 外"), "計 \\1,240 外");
    EXPECT_EQ(ex::read_sign_confusions("99門"), "99円");
    // Not in a word, nor before a size or code that goes on with letters.
    EXPECT_EQ(ex::read_sign_confusions("SONY 1000"), "SONY 1000");
    EXPECT_EQ(ex::read_sign_confusions("Y2K"), "Y2K");
    EXPECT_EQ(ex::read_sign_confusions("名門 1"), "名門 1");
}

TEST(ItemRows, DiscountsWithoutTheirWordOrSignAndHeaderLinesInARow) {
    // "クーポ" / "-¥100": OCR took the discount word, the minus amount alone under it makes the row a discount;
    // "見切値引" / "30円": the minus sign lost, the discount is still negative; "あんまん" / "担当者 佐藤" / "¥150軽":
    // a header line between a description and its box; "ﾏﾖﾈｰｽﾞ 450g 350軽" / "231軽" / "生鮭 切身": the row's own
    // amount written with a tax mark, the next box belongs to the description after it.
    const std::string text =
        "店\n2024/03/30\n栄養ドリンク\n¥795\nクーポ\n-¥100\nあんまん\n担当者 佐藤\n¥150軽\n見切値引\n30円\n"
        "ﾏﾖﾈｰｽﾞ 450g 350軽\n231軽\n生鮭 切身\n小計\n1,391\n";
    const auto rows = ex::read_item_rows(text);
    ASSERT_TRUE(rows);
    EXPECT_EQ(pairs(*rows), (std::vector<std::pair<std::string, double>>{{"栄養ドリンク", 795},
                                                                        {"クーポ", -100},
                                                                        {"あんまん", 150},
                                                                        {"見切値引", -30},
                                                                        {"ﾏﾖﾈｰｽﾞ 450g", 350},
                                                                        {"生鮭 切身", 231}}));
    // A line with an amount of its own is no discount label, whatever minus amount follows it.
    const auto rows2 = ex::read_item_rows("店\n2024/03/30\nおにぎり ¥120\n-¥20\nパン\n¥100\n小計\n200\n");
    ASSERT_TRUE(rows2);
    EXPECT_EQ(pairs(*rows2), (std::vector<std::pair<std::string, double>>{{"おにぎり", 120}, {"パン", 100}}));
    // A rate followed by a minus amount is a discount whatever OCR left of its word ("引 10% -21" for 割引).
    const auto rows3 = ex::read_item_rows("店\n2019年12月24日(火)\nﾌﾞﾗｯｸｻﾝﾀﾞｰ\n215軽\n引 10% -21\n小計\n194\n");
    ASSERT_TRUE(rows3);
    EXPECT_EQ(pairs(*rows3), (std::vector<std::pair<std::string, double>>{{"ﾌﾞﾗｯｸｻﾝﾀﾞｰ", 215}, {"引 10%", -21}}));
}

TEST(ItemRows, DiscountRateInABoxOfItsOwn) {
    // The rate's box is part of the discount's description ("割引 10%", as the receipt prints it on one line).
    const std::string text = "店\n2025/04/24\nカップヌードル\n¥209軽\n割引\n10%\n-¥20\nレジ袋 M\n¥6\n小計\n¥195\n";
    const auto rows = ex::read_item_rows(text);
    ASSERT_TRUE(rows);
    EXPECT_EQ(pairs(*rows), (std::vector<std::pair<std::string, double>>{
                                {"カップヌードル", 209}, {"割引 10%", -20}, {"レジ袋 M", 6}}));
}

TEST(ItemRows, RowsThatHoldTheModelsItemsAndMoreReplaceThemWhenBothAddUp) {
    receipt::ExtractOptions opts;
    // The model merged two rows into one item of their sum; both readings add up to the subtotal.
    const std::string text = "店\n2020年3月4日 17:33\nヨーグルト\n298円軽\nおむつ Mサイズ\n(2点 単価584円)\n1,168円\n"
                             "小計\n1,466円\n合計\n1,466円\n";
    nlohmann::ordered_json f = {{"currency", "JPY"},
                                {"line_items",
                                 {{{"description", "おむつ Mサイズ"}, {"quantity", 1}, {"unit_price", 1466}, {"amount", 1466}}}},
                                {"net_amount", 1466},
                                {"total_tax_amount", nullptr},
                                {"total_amount", 1466},
                                {"warnings", nlohmann::ordered_json::array()}};
    ex::apply_post_checks(text, "", opts, f);
    ASSERT_EQ(f["line_items"].size(), 2u) << f.dump();
    EXPECT_EQ(f["line_items"][0]["amount"], 298);
    EXPECT_EQ(f["line_items"][1]["description"], "おむつ Mサイズ");
    EXPECT_EQ(f["line_items"][1]["amount"], 1168);
    EXPECT_EQ(f["line_items"][1]["quantity"], 2);
}

TEST(ItemRows, ThousandsGroupThatLostADigit) {
    // "1,61" of 1,461: read one digit short, the subtotal puts the digit back; "2,96円" under
    // "(2点 単価1,198円)": the count times the unit price.
    const std::string text = "店\n2023年02月04日(土)\nチョコレート\n98軽\nパブロンゴールドA 錠\n1,61\n"
                             "缶ビール 350ml 6缶\n2,96円\n(2点 単価1,198円)\n小計\n3,955\n";
    const auto rows = ex::read_item_rows(text);
    ASSERT_TRUE(rows);
    EXPECT_EQ(pairs(*rows), (std::vector<std::pair<std::string, double>>{
                                {"チョコレート", 98}, {"パブロンゴールドA 錠", 161}, {"缶ビール 350ml 6缶", 2396}}));
    receipt::ExtractOptions opts;
    nlohmann::ordered_json f = {{"currency", "JPY"},
                                {"line_items", nlohmann::ordered_json::array()},
                                {"net_amount", 3955},
                                {"total_tax_amount", nullptr},
                                {"total_amount", 3955},
                                {"warnings", nlohmann::ordered_json::array()}};
    ex::apply_post_checks(text, "", opts, f);
    ASSERT_EQ(f["line_items"].size(), 3u) << f.dump();
    EXPECT_EQ(f["line_items"][1]["amount"], 1461);
    EXPECT_EQ(f["line_items"][2]["quantity"], 2);
}

TEST(ItemRows, BareAmountBoxOnAReceiptWithYenSigns) {
    // "600" and "1198" lost their yen signs; the second under a description that OCR split over two lines.
    const std::string text = "店\n21/04/19 07:23\n洗濯洗剤 ｱﾀｯｸ\n\\458\nﾛｷｿﾆﾝS 12錠\n600\n栄養ﾄﾞﾘﾝｸ\n\\158\n"
                             "3706 缶ﾋﾞｰﾙ 350ml\n6缶\n1198\n小 計\n\\2414\n";
    const auto rows = ex::read_item_rows(text);
    ASSERT_TRUE(rows);
    EXPECT_EQ(pairs(*rows), (std::vector<std::pair<std::string, double>>{{"洗濯洗剤 ｱﾀｯｸ", 458},
                                                                        {"ﾛｷｿﾆﾝS 12錠", 600},
                                                                        {"栄養ﾄﾞﾘﾝｸ", 158},
                                                                        {"缶ﾋﾞｰﾙ 350ml 6缶", 1198}}));
}

TEST(ItemRows, TwoDescriptionsOverTwoAmountsBeforeADiscount) {
    // The line after the two money lines is a discount, which has its own amount: the second money line is the
    // second description's.
    const std::string text = "店\n2022年11月1日\n炊飯器 5.5合\nmicroSD 128GB\n¥29,800\n¥2,480\n割引 10%\n-¥248\n"
                             "小計\n¥32,032\n";
    const auto rows = ex::read_item_rows(text);
    ASSERT_TRUE(rows);
    EXPECT_EQ(pairs(*rows), (std::vector<std::pair<std::string, double>>{
                                {"炊飯器 5.5合", 29800}, {"microSD 128GB", 2480}, {"割引 10%", -248}}));
}

TEST(ItemRows, MoneyBoxMovedBelowTheNextRow) {
    // "198円軽" is the box of "ポテトサラダ", moved below the next row, which prints its own amount.
    const std::string text = "店\n2022年5月4日\nポテトサラダ\nきゅうり 3本 178円軽\n198円軽\n米 コシヒカリ 5kg\n"
                             "2,238円軽\n小計\n2,614円\n";
    const auto rows = ex::read_item_rows(text);
    ASSERT_TRUE(rows);
    EXPECT_EQ(pairs(*rows), (std::vector<std::pair<std::string, double>>{
                                {"ポテトサラダ", 198}, {"きゅうり 3本", 178}, {"米 コシヒカリ 5kg", 2238}}));
}

TEST(ItemRows, StampFaceValueIsNoYenSign) {
    // "切手 84円" names a stamp; the receipt prints its amounts without yen signs, under a count column.
    const std::string text = "店\n24/12/18\n商品名\n数量\n金額\n天然水 550ml ※\n1\n105\nﾔｸﾙﾄ1000 ※\n1\n140\n切手 84円\n1\n84\n"
                             "お会計\n329\n";
    const auto rows = ex::read_item_rows(text);
    ASSERT_TRUE(rows);
    EXPECT_EQ(pairs(*rows), (std::vector<std::pair<std::string, double>>{
                                {"天然水 550ml", 105}, {"ﾔｸﾙﾄ1000", 140}, {"切手 84円", 84}}));
    EXPECT_TRUE(ex::item_rows_add_up_to(text, 329));
    EXPECT_FALSE(ex::item_rows_add_up_to(text, 330));
}

TEST(ItemRows, TotalsLineThatLostItsFirstCharacter) {
    // "計 11941円" is 小計 or 合計 with its first character lost; "計量カップ" is an item.
    const std::string text = "店\n2024年3月2日\n計量カップ 298円\nあんまん\n150円\n計 448円\nお買上計 448円\n";
    const auto rows = ex::read_item_rows(text);
    ASSERT_TRUE(rows);
    EXPECT_EQ(pairs(*rows), (std::vector<std::pair<std::string, double>>{{"計量カップ", 298}, {"あんまん", 150}}));
}

TEST(ItemRows, SplitDescriptionPrintedWholeOnALaterRow) {
    // "USB充電器" / "20W" is one description split over two lines; a later row prints it on one line with its own
    // amount, which is not this row's.
    const std::string text = "店\n2024年3月2日\nUSB充電器\n20W\n@2180 x 2\n¥4360\nUSB充電器 20W ¥2268\n小計\n¥6628\n";
    const auto rows = ex::read_item_rows(text);
    ASSERT_TRUE(rows);
    EXPECT_EQ(pairs(*rows),
              (std::vector<std::pair<std::string, double>>{{"USB充電器 20W", 4360}, {"USB充電器 20W", 2268}}));
}

TEST(ItemRows, TotalsAmountBoxMovedAboveItsKeyword) {
    // "¥9,460" is the subtotal's box, moved above "小計"; the last row's own box went above its description.
    const std::string text = "店\n2024年3月2日\nドライヤー\n¥7,780\n¥1,680\nHDMIケーブル 2m\n¥9,460\n小計\nお買上計\n¥9,460\n";
    const auto rows = ex::read_item_rows(text);
    ASSERT_TRUE(rows);
    EXPECT_EQ(pairs(*rows), (std::vector<std::pair<std::string, double>>{{"ドライヤー", 7780}, {"HDMIケーブル 2m", 1680}}));
    // One item: its box above the subtotal line stays its own (the subtotal prints its amount below).
    const auto one = ex::read_item_rows("店\n2024年3月2日\nおにぎり\n¥158\n小計\n¥158\n");
    ASSERT_TRUE(one);
    EXPECT_EQ(pairs(*one), (std::vector<std::pair<std::string, double>>{{"おにぎり", 158}}));
    // The totals box lost, not moved: the amount above is not printed again, so it stays the last row's.
    const auto lost = ex::read_item_rows("店\n2024年3月2日\nお茶\n¥300\n水\n¥300\n小計\nお買上計\n¥600\n");
    ASSERT_TRUE(lost);
    EXPECT_EQ(pairs(*lost), (std::vector<std::pair<std::string, double>>{{"お茶", 300}, {"水", 300}}));
    // The subtotal prints its amount below without a yen sign; the last row's amount is printed again in the tax
    // lines: it stays the row's.
    const auto bare = ex::read_item_rows("店\n2024年3月2日\nお茶\n¥300\nﾖｰｸﾞﾙﾄ\n138円軽\n小 計 (2点)\n438\n8%\n138円\n");
    ASSERT_TRUE(bare);
    EXPECT_EQ(pairs(*bare), (std::vector<std::pair<std::string, double>>{{"お茶", 300}, {"ﾖｰｸﾞﾙﾄ", 138}}));
}

TEST(ItemRows, CountLinesTellWhichAmountIsTheRows) {
    // A small first amount that the count line makes is the row's; the next is the row below's, its box moved.
    const std::string bag = "店\n2025年09月02日(火) 15:23\nレジ袋\n@4 x 2\n8\n146\n※緑茶 2L\n※マヨネーズ 450g\n303\n小 計\n457\n";
    const auto rows = ex::read_item_rows(bag);
    ASSERT_TRUE(rows);
    EXPECT_EQ(pairs(*rows), (std::vector<std::pair<std::string, double>>{
                                {"レジ袋", 8}, {"緑茶 2L", 146}, {"マヨネーズ 450g", 303}}));
    // The count line, the next description, then the amount the count makes; the next row's count line makes its
    // later amount; a thousands group short of a digit at the end of a description line is that row's amount.
    const std::string moved = "店\n2025-03-15 7時21分\n液晶保護ﾌｨﾙﾑ\n@1980 x 5\nｲﾝｸｶｰﾄﾘｯｼﾞ\n9,900円\n@4725 x 4\n"
                              "18,900円\nHDMIｹｰﾌﾞﾙ 2m 1,68円\nﾓﾊﾞｲﾙﾊﾞｯﾃﾘｰ\n2,990円\n小計\n31,428円\n";
    const auto rows2 = ex::read_item_rows(moved);
    ASSERT_TRUE(rows2);
    EXPECT_EQ(pairs(*rows2), (std::vector<std::pair<std::string, double>>{{"液晶保護ﾌｨﾙﾑ", 9900},
                                                                          {"ｲﾝｸｶｰﾄﾘｯｼﾞ", 18900},
                                                                          {"HDMIｹｰﾌﾞﾙ 2m", 168},
                                                                          {"ﾓﾊﾞｲﾙﾊﾞｯﾃﾘｰ", 2990}}));
    EXPECT_EQ((*rows2)[1].quantity, 4);
    // A count box between the description and that amount is no part of the description (a receipt that writes
    // its amounts with yen signs: the count is no amount).
    const auto rows3 = ex::read_item_rows("店\n2025-03-15 7時21分\nﾓﾊﾞｲﾙﾊﾞｯﾃﾘｰ\n\\2,990\nUSB充電器 20W 2 \\4,36\n"
                                          "HDMIｹｰﾌﾞﾙ 2m\n\\1,680\n小計\n9,006\n");
    ASSERT_TRUE(rows3);
    EXPECT_EQ(pairs(*rows3), (std::vector<std::pair<std::string, double>>{
                                 {"ﾓﾊﾞｲﾙﾊﾞｯﾃﾘｰ", 2990}, {"USB充電器 20W", 436}, {"HDMIｹｰﾌﾞﾙ 2m", 1680}}));
}
