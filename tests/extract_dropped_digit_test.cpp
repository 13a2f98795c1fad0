// Line-item amounts that lost one digit to OCR (extract/dropped_digit.h), and the post-checks that use them.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "extract/dropped_digit.h"
#include "extract/post_checks.h"
#include "receipt/extractor.h"

namespace ex = receipt::extract;

namespace {

nlohmann::ordered_json item(const std::string& d, double q, double u, double a) {
    return {{"description", d}, {"quantity", q}, {"unit_price", u}, {"amount", a}};
}

nlohmann::ordered_json fields(nlohmann::ordered_json items) {
    return {{"supplier_name", "店"},     {"supplier_address", nullptr}, {"currency", "JPY"},
            {"net_amount", nullptr},    {"total_tax_amount", nullptr}, {"total_amount", nullptr},
            {"line_items", std::move(items)}, {"warnings", nlohmann::ordered_json::array()}};
}

bool warned(const nlohmann::ordered_json& f, const std::string& code) {
    return f["warnings"].dump().find(code) != std::string::npos;
}

}  // namespace

TEST(DroppedDigit, AmountDigits) {
    EXPECT_EQ(ex::amount_digits(1298), "1298");
    EXPECT_EQ(ex::amount_digits(1.28), "128");  // "1,298円" read as "1.28円": the comma as a point, a 9 lost
    EXPECT_EQ(ex::amount_digits(1.5), "15");
    EXPECT_EQ(ex::amount_digits(10.05), "1005");
    EXPECT_EQ(ex::amount_digits(0), "0");
    EXPECT_EQ(ex::amount_digits(-5), "");
}

TEST(DroppedDigit, OneDigitInserted) {
    EXPECT_TRUE(ex::one_digit_inserted("10", "120"));
    EXPECT_TRUE(ex::one_digit_inserted("10", "100"));
    EXPECT_TRUE(ex::one_digit_inserted("58", "258"));
    EXPECT_TRUE(ex::one_digit_inserted("128", "1298"));
    EXPECT_TRUE(ex::one_digit_inserted("45", "456"));
    EXPECT_FALSE(ex::one_digit_inserted("45", "4560"));  // two digits
    EXPECT_FALSE(ex::one_digit_inserted("45", "47"));     // a changed digit
    EXPECT_FALSE(ex::one_digit_inserted("45", "045"));    // a leading zero
    EXPECT_FALSE(ex::one_digit_inserted("", ""));
}

TEST(DroppedDigit, FindsTheOnlyAmountThatFits) {
    // 37 + 10 + 499 = 546 against a subtotal of 656: only "10" -> "120" is one digit away.
    auto d = ex::find_dropped_digit({37, 10, 499}, 656);
    ASSERT_TRUE(d.has_value());
    EXPECT_EQ(d->index, 1u);
    EXPECT_EQ(d->amount, 120);
    // A discount takes part in the sum and is never repaired itself.
    d = ex::find_dropped_digit({140, 108, 598, 1.28, -10}, 2134);
    ASSERT_TRUE(d.has_value());
    EXPECT_EQ(d->index, 3u);
    EXPECT_EQ(d->amount, 1298);
    EXPECT_FALSE(ex::find_dropped_digit({37, 120, 499}, 656).has_value());  // already adds up
    EXPECT_FALSE(ex::find_dropped_digit({37, 120, 499}, 600).has_value());  // over the target
    EXPECT_FALSE(ex::find_dropped_digit({37, 120, 499}, 6560).has_value());  // no amount fits
    // 20 -> 200 fits +180; 30 -> 210 and 50 -> 230 do not.
    d = ex::find_dropped_digit({20, 30, 50}, 280);
    ASSERT_TRUE(d.has_value());
    EXPECT_EQ(d->index, 0u);
    // Both 10 -> 100 and 11 -> 101 fit +90: ambiguous.
    EXPECT_FALSE(ex::find_dropped_digit({10, 11}, 111).has_value());
    EXPECT_FALSE(ex::find_dropped_digit({}, 100).has_value());
    EXPECT_FALSE(ex::find_dropped_digit({10, 20}, 130.5).has_value());  // a yen target is whole
}

TEST(DroppedDigit, ModelItemsGetTheDigitBack) {
    const receipt::ExtractOptions opts;
    // The model copied the damaged row "10円軽" (120): its items fall 110 short of the subtotal. The printed rows
    // cannot replace them: a row naming a table (テーブル) reads as a header line, not an item.
    const std::string text =
        "雑貨店\n2024/01/06 14:28\nテーブルクロス\n500円\nホットコーヒー R\n10円軽\nからあげ弁当\n499円軽\n"
        "小計\n1,119円\n合計\n1,119円\n";
    auto f = fields({item("テーブルクロス", 1, 500, 500), item("ホットコーヒー R", 1, 10, 10),
                     item("からあげ弁当", 1, 499, 499)});
    ex::apply_post_checks(text, "", opts, f);
    EXPECT_EQ(f["line_items"][1]["amount"], 120) << f.dump();
    EXPECT_EQ(f["line_items"][1]["unit_price"], 120);
    EXPECT_EQ(f["line_items"][1]["quantity"], 1);
    EXPECT_TRUE(warned(f, "line_item_amount_dropped_digit")) << f["warnings"].dump();
    EXPECT_FALSE(warned(f, "items_sum_mismatch")) << f["warnings"].dump();

    // Not when the model's output was cut short: the missing items explain the gap.
    auto cut = fields({item("テーブルクロス", 1, 500, 500), item("ホットコーヒー R", 1, 10, 10),
                       item("からあげ弁当", 1, 499, 499)});
    cut["warnings"].push_back("output_truncated: generation stopped at max_new_tokens 512");
    ex::apply_post_checks(text, "", opts, cut);
    EXPECT_EQ(cut["line_items"][1]["amount"], 10);
    EXPECT_FALSE(warned(cut, "line_item_amount_dropped_digit"));
}

TEST(DroppedDigit, RowsWithTheDigitBackReplaceTheModelsItems) {
    const receipt::ExtractOptions opts;
    // The model's items are wrong, and the printed rows add up once "10円軽" is read as 120.
    const std::string text =
        "ファミリーマート\n2024/01/06 14:28\nラックサンダー\n37円軽\nホットコーヒー R\n10円軽\nからあげ弁当\n499円軽\n"
        "小計\n656円\n合計\n656円\n";
    auto f = fields({item("ブラックサンダー", 1, 45, 45), item("牛めし 並", 1, 499, 499)});
    ex::apply_post_checks(text, "", opts, f);
    ASSERT_EQ(f["line_items"].size(), 3u) << f.dump();
    // The row cut short by OCR keeps the model's whole reading of it.
    EXPECT_EQ(f["line_items"][0]["description"], "ブラックサンダー");
    EXPECT_EQ(f["line_items"][0]["amount"], 37);
    EXPECT_EQ(f["line_items"][1]["description"], "ホットコーヒー R");
    EXPECT_EQ(f["line_items"][1]["amount"], 120);
    EXPECT_EQ(f["line_items"][2]["description"], "からあげ弁当");
    EXPECT_TRUE(warned(f, "line_items_from_rows")) << f["warnings"].dump();
    EXPECT_TRUE(warned(f, "one digit short of 120")) << f["warnings"].dump();
}

TEST(DroppedDigit, RowsHoldingEveryModelItemAndMoreReplaceThem) {
    const receipt::ExtractOptions opts;
    // The rows fall 200 short of the subtotal: "58円" (258) or "98円" (298) lost a digit, and nothing says which.
    // The model dropped the damaged row; the rows hold both of its items and come closer, so they replace them.
    const std::string text =
        "ファミリーマート\n2024/01/06 14:28\n納豆 3P\n98円軽\n卵 10個入\n58円軽\nからあげ弁当\n499円軽\n"
        "小計\n855円\n合計\n855円\n";
    auto f = fields({item("納豆 3P", 1, 98, 98), item("からあげ弁当", 1, 499, 499)});
    ex::apply_post_checks(text, "", opts, f);
    ASSERT_EQ(f["line_items"].size(), 3u) << f.dump();
    EXPECT_EQ(f["line_items"][1]["description"], "卵 10個入");
    EXPECT_EQ(f["line_items"][1]["amount"], 58);  // still short: the check does not guess the digit
    EXPECT_TRUE(warned(f, "hold them all and come closer")) << f["warnings"].dump();

    // A model item that no row reads keeps the model's items at first; being printed nowhere, it is then left out
    // (extract/unprinted_items.h), and the items left are checked against the rows again: they hold them and come
    // closer, as above.
    auto g = fields({item("牛めし 並", 1, 98, 98), item("からあげ弁当", 1, 499, 499)});
    ex::apply_post_checks(text, "", opts, g);
    EXPECT_TRUE(warned(g, "line_item_not_printed")) << g["warnings"].dump();
    EXPECT_TRUE(warned(g, "hold them all and come closer")) << g["warnings"].dump();
    ASSERT_EQ(g["line_items"].size(), 3u) << g.dump();
    EXPECT_EQ(g["line_items"][2]["description"], "からあげ弁当");
}

TEST(DroppedDigit, TheModelsAmountStandsOverItsRowWithADigitDropped) {
    // "29円" and "39円" lost the 8 of 298 and 398; the model read both whole (its items still do not add up: it
    // wrote an item that is not printed), so they stand.
    const std::string text = "店\n2024/01/06 14:28\nﾊﾝﾄﾞｿｰﾌﾟ 詰替\n29円\n柔軟剤 詰替\n39円\nおむつ Mｻｲｽﾞ\n1,298円\n"
                             "小計\n1,994円\n合計\n1,994円\n";
    auto f = fields({item("ﾊﾝﾄﾞｿｰﾌﾟ 詰替", 1, 298, 298), item("柔軟剤 詰替", 1, 398, 398),
                     item("おむつ Mｻｲｽﾞ", 1, 1298, 1298), item("レジ袋", 1, 5, 5)});
    ex::apply_post_checks(text, "", receipt::ExtractOptions{}, f);
    EXPECT_EQ(f["line_items"][0]["amount"], 298) << f.dump();
    EXPECT_EQ(f["line_items"][1]["amount"], 398) << f.dump();
    EXPECT_FALSE(warned(f, "line_item_amount_from_row")) << f["warnings"].dump();
}

TEST(DroppedDigit, QuantityAndUnitPriceFollowTheAmount) {

    const receipt::ExtractOptions opts;
    // The amounts add up to the subtotal; the model's unit prices and a count do not make them.
    const std::string text = "店\n2024/01/06 14:28\nドライヤー\n8,498円\nからあげクン\n840円\n(4点 単価210円)\n"
                             "レバニラ炒め\n663円\n小計\n10,001円\n合計\n10,001円\n";
    auto f = fields({item("ドライヤー", 1, 8849, 8498), item("からあげクン", 4, 235, 840),
                     item("レバニラ炒め", 636, 0, 663)});
    f["line_items"][2]["unit_price"] = nullptr;
    ex::apply_post_checks(text, "", opts, f);
    EXPECT_EQ(f["line_items"][0]["unit_price"], 8498) << f.dump();
    EXPECT_EQ(f["line_items"][1]["quantity"], 4);
    EXPECT_EQ(f["line_items"][1]["unit_price"], 210);
    EXPECT_EQ(f["line_items"][2]["quantity"], 1);
    EXPECT_EQ(f["line_items"][2]["unit_price"], 663);
    EXPECT_FALSE(warned(f, "item_amount_mismatch")) << f["warnings"].dump();
}

TEST(DroppedDigit, RowsReplaceTheItemsOfACutReading) {
    const receipt::ExtractOptions opts;
    // As above, the model's items hold one printed nowhere, so the rows do not hold them all; but the model's
    // reading was cut (its input at the token limit, or its output at max_new_tokens: a long receipt), so its
    // items stop early, and the rows, more of them and closer to the subtotal, replace them.
    const std::string text =
        "ファミリーマート\n2024/01/06 14:28\n納豆 3P\n98円軽\n卵 10個入\n58円軽\nからあげ弁当\n499円軽\n"
        "小計\n855円\n合計\n855円\n";
    for (const char* cut : {"output_truncated: generation stopped at max_new_tokens 512",
                            "input_truncated: 700 tokens cut to 512"}) {
        auto f = fields({item("牛めし 並", 1, 98, 98), item("からあげ弁当", 1, 499, 499)});
        f["warnings"].push_back(cut);
        ex::apply_post_checks(text, "", opts, f);
        ASSERT_EQ(f["line_items"].size(), 3u) << f.dump();
        EXPECT_EQ(f["line_items"][0]["description"], "納豆 3P");
        EXPECT_EQ(f["line_items"][1]["description"], "卵 10個入");
        EXPECT_TRUE(warned(f, "reading was cut")) << f["warnings"].dump();
    }
}
