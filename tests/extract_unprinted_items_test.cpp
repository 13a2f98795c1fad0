// Line items whose description the receipt does not print (extract/unprinted_items.h).
#include <gtest/gtest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "extract/unprinted_items.h"

namespace ex = receipt::extract;

namespace {

// A udon shop's receipt (the shape of dev2_ja 000194: OCR damage on the first row, the count in its own box).
const std::string kUdon =
    "丸亀製麺\n〒220-4631\n21/02/02 07:39\n商品名\n数量\n金額\nぶかけうどん 大\n2\nかけうどん 並 4 1,580\n1,260\n"
    "トッピング チーズ\n1\n170\nお会計\n3,010";

}  // namespace

TEST(UnprintedItems, PrintedShareIsTheBestLinesCommonSubsequence) {
    EXPECT_DOUBLE_EQ(ex::printed_share(kUdon, "トッピング チーズ"), 1.0);  // printed as is, spaces aside
    EXPECT_DOUBLE_EQ(ex::printed_share(kUdon, "ぶっかけうどん 大"), 7.0 / 8.0);  // OCR dropped the small っ
    EXPECT_LT(ex::printed_share(kUdon, "日替わり定食"), ex::kPrintedItemShare);     // nothing of it printed
    EXPECT_LT(ex::printed_share(kUdon, "牛めし 並"), ex::kPrintedItemShare);       // one character of four
    // Full-width ASCII folds to ASCII on both sides; an empty description counts as printed.
    EXPECT_DOUBLE_EQ(ex::printed_share("缶ビール 350ml\n", "缶ビール ３５０ml"), 1.0);
    EXPECT_DOUBLE_EQ(ex::printed_share(kUdon, " "), 1.0);
    // Invalid UTF-8 does not throw.
    EXPECT_NO_THROW(ex::printed_share(std::string("\xff\xfe\n"), std::string("\xc3")));
    // ASCII letters compare without case: the model writes "White Rice" for a printed "WHITE RICE".
    const std::string kMamak = "RESTORAN ABC\n1 WHITE RICE 2.00\n1 TEH O AIS 1.50\nTOTAL 3.50";
    EXPECT_DOUBLE_EQ(ex::printed_share(kMamak, "White Rice"), 1.0);
    EXPECT_LT(ex::printed_share(kMamak, "Royal Baking Powder 450g"), ex::kPrintedItemShare);
}

TEST(UnprintedItems, DropsOnlyUnprintedDescriptionsWithAWarning) {
    nlohmann::ordered_json f = {
        {"line_items",
         {{{"description", "ぶっかけうどん 大"}, {"amount", 1260}},
          {{"description", "牛めし 並"}, {"amount", 1653}},
          {{"description", nullptr}, {"amount", 170}},
          {{"description", "日替わり定食"}, {"amount", 7180}},
          {{"description", "トッピング チーズ"}, {"amount", 170}}}},
        {"warnings", nlohmann::ordered_json::array()}};
    ex::drop_unprinted_items(kUdon, f);
    ASSERT_EQ(f["line_items"].size(), 3u);
    EXPECT_EQ(f["line_items"][0]["description"], "ぶっかけうどん 大");
    EXPECT_TRUE(f["line_items"][1]["description"].is_null());  // no description: nothing to test, kept
    EXPECT_EQ(f["line_items"][2]["description"], "トッピング チーズ");
    ASSERT_EQ(f["warnings"].size(), 1u);
    const std::string w = f["warnings"][0].get<std::string>();
    EXPECT_NE(w.find("line_item_not_printed"), std::string::npos) << w;
    EXPECT_NE(w.find("2 (牛めし 並)"), std::string::npos) << w;
    EXPECT_NE(w.find("4 (日替わり定食)"), std::string::npos) << w;
}

TEST(UnprintedItems, LeavesEverythingElseAlone) {
    nlohmann::ordered_json printed = {{"line_items", {{{"description", "トッピング チーズ"}, {"amount", 170}}}},
                                      {"warnings", nlohmann::ordered_json::array()}};
    const auto before = printed;
    ex::drop_unprinted_items(kUdon, printed);
    EXPECT_EQ(printed, before);  // nothing dropped, no warning
    nlohmann::ordered_json odd = {{"line_items", "not a list"}};
    ex::drop_unprinted_items(kUdon, odd);
    EXPECT_EQ(odd["line_items"], "not a list");
    nlohmann::ordered_json no_warnings = {{"line_items", {{{"description", "日替わり定食"}}}}};
    ex::drop_unprinted_items(kUdon, no_warnings);  // creates the warnings list
    EXPECT_TRUE(no_warnings["line_items"].empty());
    EXPECT_EQ(no_warnings["warnings"].size(), 1u);
}

TEST(UnprintedFields, HeaderFieldsPrintedNowhereAreLeftOut) {
    // A name over two lines, an address split across lines and a phone with OCR damage all count as printed.
    const std::string text = "AIK HUAT HARDWARE ENTERPRISE\n(SETIA ALAM) SDN BHD\nNO.1, JALAN A\n40170 SHAH ALAM\n"
                             "TEL: 03-3362 4395\nTOTAL 9.00";
    EXPECT_GE(ex::printed_share_anywhere(text, "AIK HUAT HARDWARE ENTERPRISE (SETIA ALAM) SDN BHD"), 1.0);
    EXPECT_GE(ex::printed_share_anywhere(text, "NO.1, JALAN A, 40170 SHAH ALAM"), 0.95);
    EXPECT_GE(ex::printed_share_anywhere(text, "03-3362 4395"), 1.0);
    EXPECT_DOUBLE_EQ(ex::printed_share_anywhere(text, ""), 1.0);
    nlohmann::ordered_json f = {{"supplier_name", "AIK HUAT HARDWARE ENTERPRISE (SETIA ALAM) SDN BHD"},
                                {"supplier_address", "NO.1, JALAN A 40170 SHAH ALAM"},
                                {"supplier_phone", "03-3362 4395"},
                                {"warnings", nlohmann::ordered_json::array()}};
    const auto before = f;
    EXPECT_FALSE(ex::drop_unprinted_fields(text, {"supplier_name", "supplier_address", "supplier_phone"}, f));
    EXPECT_EQ(f, before);
    // A memorised receipt written for a text that prints none of it (a garbled OCR result).
    nlohmann::ordered_json g = {{"supplier_name", "Restaurante Lobo do Mar"},
                                {"supplier_address", "Rua do Mar 12, Lisboa"},
                                {"supplier_phone", "918194530"},
                                {"total_amount", 22.9}};
    EXPECT_TRUE(ex::drop_unprinted_fields("\xc3\xbf\n", {"supplier_name", "supplier_phone"}, g));
    EXPECT_TRUE(g["supplier_name"].is_null());
    EXPECT_TRUE(g["supplier_phone"].is_null());
    EXPECT_EQ(g["supplier_address"], "Rua do Mar 12, Lisboa");  // not among the keys asked for
    EXPECT_EQ(g["total_amount"], 22.9);
    ASSERT_EQ(g["warnings"].size(), 2u);
    EXPECT_NE(g["warnings"][0].get<std::string>().find("supplier_name_not_printed: the model wrote 'Restaurante"),
              std::string::npos);
}

TEST(UnprintedItems, LatinItemsShareAWordOrAPrintedAmount) {
    // A letter, no receipt: its long lines hold 40% of made-up descriptions' letters in order.
    const std::string letter =
        "Dear customer,\nThank you for your order. Your package will arrive on Tuesday.\n"
        "Please contact support@example.com with any questions.\nBest regards,\nThe Team\n";
    nlohmann::ordered_json f = {{"line_items",
                                 {{{"description", "Agua Fanue"}, {"amount", nullptr}},
                                  {{"description", "Unknown item: U持"}, {"amount", nullptr}},
                                  {{"description", "Mlradeira"}, {"amount", 3.5}}}},
                                {"warnings", nlohmann::ordered_json::array()}};
    EXPECT_TRUE(ex::drop_unprinted_items(letter, f));
    EXPECT_TRUE(f["line_items"].empty());
    // A description OCR damaged past one edit a word ("TSSU 1OS") stays when its amount is printed; one word within
    // one edit ("TISUE"), or a word OCR ran together with the next ("MILKGAL"), keeps it too.
    const std::string text = "TSSU 1OS\n10.70 T\nTISUE BOX 2.10\nMILKGAL 3.57\n";
    nlohmann::ordered_json g = {{"line_items",
                                 {{{"description", "TISSUE 10S"}, {"amount", 10.7}},
                                  {{"description", "TISSUE BOX"}, {"amount", 2.1}},
                                  {{"description", "MILK GAL"}, {"amount", nullptr}},
                                  {{"description", "CHEDDAR CHEESE"}, {"amount", 4.7}}}},
                                {"warnings", nlohmann::ordered_json::array()}};
    EXPECT_TRUE(ex::drop_unprinted_items(text, g));
    ASSERT_EQ(g["line_items"].size(), 3u);
    EXPECT_EQ(g["line_items"][2]["description"], "MILK GAL");
}
