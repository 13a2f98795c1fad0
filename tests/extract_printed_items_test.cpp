// Line item amounts read from the printed item rows (extract/printed_items.h).
#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "extract/printed_items.h"

namespace ex = receipt::extract;

TEST(PrintedItems, AmountOnTheRowOfEachLayout) {
    // Description, quantity column and amount in their own OCR boxes; the quantity has no money sign.
    ex::PrintedItems a("商品名\n数量\n金額\n鶏もも肉 唐揚用 *\n1\n¥434\n麦茶 2L *\n2\n¥258\n小計\n¥692");
    EXPECT_EQ(a.amount("鶏もも肉 唐揚用"), 434);
    EXPECT_EQ(a.amount("麦茶 2L"), 258);
    // Amount on the description's line, then a count / unit-price line that is not the amount.
    ex::PrintedItems b("ﾃｨｯｼｭ 5箱 285円\nおむつ Mｻｲｽﾞ\n2,596円\n2個 X\n単1298\nミラノ風ドリア\n544円\n(2点 単価272円)");
    EXPECT_EQ(b.amount("ﾃｨｯｼｭ 5箱"), 285);
    EXPECT_EQ(b.amount("おむつ Mｻｲｽﾞ"), 2596);
    EXPECT_EQ(b.amount("ミラノ風ドリア"), 544);
    // "@unit x qty amount" rows, a product code before the name, a count that lost its X.
    ex::PrintedItems c("*おむつ\n@1298 x 2 ¥2,596\n0123 ロールケーキ\n¥360 ※\n(2コ  180)");
    EXPECT_EQ(c.amount("おむつ"), 2596);
    EXPECT_EQ(c.amount("ロールケーキ"), 360);
}

TEST(PrintedItems, ReceiptsWithoutMoneySignsTakeTheLastNumber) {
    ex::PrintedItems p("にんじん\n1\n148\n納豆 3P\n2\n196\n");
    EXPECT_EQ(p.amount("にんじん"), 148);
    EXPECT_EQ(p.amount("納豆 3P"), 196);
    // A first number that is no count is the row's amount; the next is the row below's box, moved above it.
    ex::PrintedItems q("ハンドソープ 詰替\n298\n110\n*チョコレート\n合計金額\n408\n");
    EXPECT_EQ(q.amount("ハンドソープ 詰替"), 298);
    // Also before a number marked as money: such a receipt marks only its reduced-rate amounts (軽).
    ex::PrintedItems m("ティッシュ 5箱\n252\n129軽\nヨーグルト\nりんご\n3\n450軽\n小計\n831\n");
    EXPECT_EQ(m.amount("ティッシュ 5箱"), 252);
    EXPECT_EQ(m.amount("りんご"), 450);  // a count before the marked amount stays a count
}

TEST(PrintedItems, YenAmountBeforeAnXThatEndsTheLine) {
    // "\89 X": OCR read the tax mark ※ as X; the amount is no count. "2 x" before a unit price still is one.
    ex::PrintedItems p("ミネラルウォーター 2L\n\\89 X\nパン\n2 x\n@150\n\\300\n");
    EXPECT_EQ(p.amount("ミネラルウォーター 2L"), 89);
    const auto r = p.row("パン");
    ASSERT_TRUE(r);
    EXPECT_EQ(r->quantity, 2);
    EXPECT_EQ(r->amount, 300);
}

TEST(PrintedItems, NothingToReadOrAnotherRow) {
    ex::PrintedItems p("卵 10個入 * 1 254円\n国産豚こま切れ *\n1\nｺﾞﾐ袋 45L\n1\n234円");
    EXPECT_EQ(p.amount("卵"), std::nullopt);                // "卵" is only part of a printed description
    EXPECT_EQ(p.amount("国産豚こま切れ"), std::nullopt);    // its row holds only the quantity (OCR moved the amount)
    EXPECT_EQ(p.amount("牛乳 1000ml"), std::nullopt);       // not printed
    EXPECT_EQ(p.amount(""), std::nullopt);
    EXPECT_EQ(p.amount("卵 10個入"), 254);
}

TEST(PrintedItems, RepeatedDescriptionsAreReadInOrder) {
    ex::PrintedItems p("コーヒー\n¥120\nパン\n¥150\nコーヒー\n¥130");
    EXPECT_EQ(p.amount("コーヒー"), 120);
    EXPECT_EQ(p.amount("パン"), 150);
    EXPECT_EQ(p.amount("コーヒー"), 130);
    EXPECT_EQ(p.amount("コーヒー"), 120);  // past the last row: from the top again
}

TEST(ItemRowContinuation, OnlyNumbersSignsMarksAndCountWords) {
    EXPECT_TRUE(ex::is_item_row_continuation("¥2,596 ※"));
    EXPECT_TRUE(ex::is_item_row_continuation("(2点 単価272円)"));
    EXPECT_TRUE(ex::is_item_row_continuation("@1298 x 2"));
    EXPECT_FALSE(ex::is_item_row_continuation("小計"));
    EXPECT_FALSE(ex::is_item_row_continuation("ｺﾞﾐ袋 45L"));
    EXPECT_FALSE(ex::is_item_row_continuation("※"));  // no number
    EXPECT_FALSE(ex::is_item_row_continuation(""));
}

namespace {

// The row of `description` has this amount, quantity and unit price.
void expect_row(ex::PrintedItems& p, const std::string& description, std::optional<double> amount,
                std::optional<double> quantity, std::optional<double> unit_price) {
    const auto r = p.row(description);
    ASSERT_TRUE(r.has_value()) << description;
    EXPECT_EQ(r->amount, amount) << description;
    EXPECT_EQ(r->quantity, quantity) << description;
    EXPECT_EQ(r->unit_price, unit_price) << description;
}

}  // namespace

TEST(PrintedItems, RowCountAndUnitPrice) {
    ex::PrintedItems p("米 ｺｼﾋｶﾘ 5kg\n12,400軽\n(5点 単価2,480)\n*おむつ\n@1298 x 2 ¥2,596\nﾊﾟﾝ\n¥150\nｺｰﾋｰ ¥360 ※\n(2コ X 180)");
    expect_row(p, "米 ｺｼﾋｶﾘ 5kg", 12400, 5, 2480);
    expect_row(p, "おむつ", 2596, 2, 1298);
    expect_row(p, "ﾊﾟﾝ", 150, std::nullopt, std::nullopt);
    expect_row(p, "ｺｰﾋｰ", 360, 2, 180);
}

TEST(PrintedItems, AmountThatLostADigitIsTheCountTimesTheUnitPrice) {
    // "90円" under "3個 X 300", "1,38円" under "(2点 単価694円)": OCR dropped a digit of the amount box.
    ex::PrintedItems p("唐揚げ 3個\n90円\n3個 X 300\nﾄﾞﾗｲﾔｰ\n8,498円\n(1点 単価849円)\n餃子\n272円\n(2点 単価130円)");
    expect_row(p, "唐揚げ 3個", 900, 3, 300);
    // The count line lost the digit instead (849 for 8,498): the amount box stands.
    expect_row(p, "ﾄﾞﾗｲﾔｰ", 8498, 1, 849);
    // A count line that does not make the amount with one digit more leaves it alone.
    expect_row(p, "餃子", 272, 2, 130);
}

TEST(PrintedItems, DescriptionSplitOverTwoLinesAndTaxMarkedAmounts) {
    // OCR split the description box; the row goes on after its second half.
    ex::PrintedItems a("コカ・コーラ\n500ml\n¥688軽\n(4点 単価¥172)");
    expect_row(a, "コカ・コーラ 500ml", 688, 4, 172);
    // No currency sign on the receipt, reduced-rate marks on some amounts: an unmarked amount still counts.
    ex::PrintedItems b("料理酒\n210\nﾖｰｸﾞﾙﾄ\n155軽\nｱﾙﾐﾎｲﾙ\n316\n(2点 単価158)");
    EXPECT_EQ(b.amount("料理酒"), 210);
    EXPECT_EQ(b.amount("ﾖｰｸﾞﾙﾄ"), 155);
    EXPECT_EQ(b.amount("ｱﾙﾐﾎｲﾙ"), 316);
}

TEST(PrintedItems, LineAmountAsARowReadsIt) {
    // With currency signs on the receipt, a bare number is a quantity column, not money.
    ex::PrintedItems a("¥83\n1\n(2点 単価¥275)\n¥550軽\n-¥20\n");
    EXPECT_EQ(a.line_amount(0), 83);
    EXPECT_EQ(a.line_amount(1), std::nullopt);
    EXPECT_EQ(a.line_amount(2), std::nullopt);  // a count and a unit price
    EXPECT_EQ(a.line_amount(3), 550);
    EXPECT_EQ(a.line_amount(4), std::nullopt);  // negative
    EXPECT_EQ(a.line_amount(9), std::nullopt);
    // Without signs, the last number that is neither count nor unit price.
    ex::PrintedItems b("178\n(2点\n単価198)\n796軽\n");
    EXPECT_EQ(b.line_amount(0), 178);
    EXPECT_EQ(b.line_amount(1), std::nullopt);
    EXPECT_EQ(b.line_amount(2), std::nullopt);
    EXPECT_EQ(b.line_amount(3), 796);
}
