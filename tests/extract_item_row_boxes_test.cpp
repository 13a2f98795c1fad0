// Item rows whose boxes OCR printed apart or glued together (extract/item_rows.h): a stamp's face value, a model
// number or a product size in a box of its own, a product code after a bare amount, an amount glued to its
// description.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "extract/item_rows.h"

namespace ex = receipt::extract;

namespace {

using Pairs = std::vector<std::pair<std::string, double>>;

Pairs pairs(const std::vector<ex::ItemRow>& rows) {
    Pairs out;
    for (const auto& r : rows) out.emplace_back(r.description, r.amount);
    return out;
}

}  // namespace

TEST(ItemRowBoxes, StampFaceValueBeforeItsAmount) {
    // The face value stays in the description, the amount is the number after it (with or without 円), and the
    // row's count line comes under it.
    const std::string bare = "店\n2022年1月13日\n(3点 単価190\n切手 84円 83\nレジ袋 L\n5\n牛乳\n130軽\n小計\n218\n";
    const auto rows = ex::read_item_rows(bare);
    ASSERT_TRUE(rows);
    EXPECT_EQ(pairs(*rows), (Pairs{{"切手 84円", 83}, {"レジ袋 L", 5}, {"牛乳", 130}}));
    const std::string signed_amounts =
        "店\n2022年1月13日\n牛乳\n360円軽\n(2点 単価180円)\n切手 84円 168円\n(2点\n単84円)\nファミチキ\n44D円軽\n小計\n968円\n";
    const auto rows1 = ex::read_item_rows(signed_amounts);
    ASSERT_TRUE(rows1);
    ASSERT_EQ(pairs(*rows1), (Pairs{{"牛乳", 360}, {"切手 84円", 168}, {"ファミチキ", 440}}));
    EXPECT_EQ((*rows1)[1].quantity, 2);
    EXPECT_EQ((*rows1)[1].unit_price, 84);
    // A stamp row with its amount on the next line is no box moved above the row after it.
    const std::string after = "店\n2022年1月13日\n799 切手 84円\n84円\n1920伊右衛門\n600ml\n160円 *\n小計\n244円\n";
    const auto rows2 = ex::read_item_rows(after);
    ASSERT_TRUE(rows2);
    EXPECT_EQ(pairs(*rows2), (Pairs{{"切手 84円", 84}, {"伊右衛門 600ml", 160}}));
}

TEST(ItemRowBoxes, ModelNumberInABoxOfItsOwn) {
    // "10000" is no amount: the count line under it makes the row's amount (also with its count read as a
    // look-alike letter).
    const std::string text = "店\n2022年1月13日\nｷｰﾎﾞｰﾄﾞ\n4,340\nAnker PowerCor\n10000\n@3678 x 4\n14,712\n"
                             "Anker PowerCore 10000\n@3599 x Z\n7,198\n電子ﾚﾝｼﾞ\n19,800\n小計\n46,050\n";
    const auto rows = ex::read_item_rows(text);
    ASSERT_TRUE(rows);
    EXPECT_EQ(pairs(*rows), (Pairs{{"ｷｰﾎﾞｰﾄﾞ", 4340},
                                   {"Anker PowerCor 10000", 14712},
                                   {"Anker PowerCore 10000", 7198},
                                   {"電子ﾚﾝｼﾞ", 19800}}));
    EXPECT_EQ((*rows)[1].quantity, 4);
    EXPECT_EQ((*rows)[2].quantity, 2);
    // On the description's line before an amount written with 円 it is no amount either; a count of 1-2 digits is.
    const std::string one_line = "店\n2022年1月13日\nAnker PowerCore 10000 3,990円\nﾏｳｽ 2 1,980円\n"
                                 "ヤクルト1000 140円\n小計\n6,110円\n";
    const auto rows2 = ex::read_item_rows(one_line);
    ASSERT_TRUE(rows2);
    EXPECT_EQ(pairs(*rows2), (Pairs{{"Anker PowerCore 10000", 3990}, {"ﾏｳｽ", 1980}, {"ヤクルト1000", 140}}));
}

TEST(ItemRowBoxes, SizeInABoxOfItsOwn) {
    // "450g" and "128B" (128GB, its G lost) would read as 4509 and 1288: they are sizes, part of the description,
    // and the next description is no box moved from above.
    const std::string text = "店\n2022年1月13日\nマヨネーズ\n450g\n328軽\nmicroSD\n128B\n2,628\n49538S7189394\n"
                             "USB-Cｹｰﾌﾞﾙ\n1m\n@1280 x 5\n6,400\n小計\n9,356\n";
    const auto rows = ex::read_item_rows(text);
    ASSERT_TRUE(rows);
    EXPECT_EQ(pairs(*rows), (Pairs{{"マヨネーズ 450g", 328}, {"microSD 128B", 2628}, {"USB-Cｹｰﾌﾞﾙ 1m", 6400}}));
    // A box that only looks like a size is still an amount when no amount follows it.
    const std::string amount = "店\n2022年1月13日\nパン\n45g\n牛乳\n198\n小計\n657\n";
    const auto rows2 = ex::read_item_rows(amount);
    ASSERT_TRUE(rows2);
    EXPECT_EQ(pairs(*rows2), (Pairs{{"パン", 459}, {"牛乳", 198}}));
}

TEST(ItemRowBoxes, BareAmountBeforeAProductCode) {
    // A receipt with yen signs printed one row's amount without; its product code follows.
    const std::string text = "店\n2022年1月13日\nﾏｳｽ\n\\1,980\n4984512339315\nNintendo Switch ｿﾌﾄ\n5,788\n"
                             "4998590346560\nAnker PowerCore10000\n\\3,918\n小 計 (3点)\n\\11,686\n";
    const auto rows = ex::read_item_rows(text);
    ASSERT_TRUE(rows);
    EXPECT_EQ(pairs(*rows),
              (Pairs{{"ﾏｳｽ", 1980}, {"Nintendo Switch ｿﾌﾄ", 5788}, {"Anker PowerCore10000", 3918}}));
}

TEST(ItemRowBoxes, AmountGluedToItsDescription) {
    const std::string text = "店\n2022年1月13日\n料理酒218円\nﾄｲﾚｯﾄﾍﾟｰﾊﾟｰ 12R\n480円\nﾓﾊﾞｲﾙﾊﾞｯﾃﾘｰ5,980円\n"
                             "(2点 単価2,990円)\nﾔｸﾙﾄ1000\n140円\n切手84円\n84円\n6179 USB充電器 20W\nY1.890\n"
                             "小計\n8,792円\n";
    const auto rows = ex::read_item_rows(text);
    ASSERT_TRUE(rows);
    EXPECT_EQ(pairs(*rows), (Pairs{{"料理酒", 218},
                                   {"ﾄｲﾚｯﾄﾍﾟｰﾊﾟｰ 12R", 480},
                                   {"ﾓﾊﾞｲﾙﾊﾞｯﾃﾘｰ", 5980},
                                   {"ﾔｸﾙﾄ1000", 140},
                                   {"切手84円", 84},
                                   {"USB充電器 20W", 1890}}));
    EXPECT_EQ((*rows)[2].quantity, 2);
}

TEST(ItemRowBoxes, CountAndMarkReadAsLetters) {
    // A count of one read as "I" in its own box is no part of the description, nor is ※ read as a glued X.
    const std::string text = "店\n2022年1月13日\n商品名\n数量\n金額\n牛乳\n1\n¥140\nレジ袋 M\nI\n¥3\n※りんご ふじ\n1\n¥225\n"
                             "Xバナナ\n1\n¥178\n小計\n¥546\n";
    const auto rows = ex::read_item_rows(text);
    ASSERT_TRUE(rows);
    EXPECT_EQ(pairs(*rows), (Pairs{{"牛乳", 140}, {"レジ袋 M", 3}, {"りんご ふじ", 225}, {"バナナ", 178}}));
    EXPECT_EQ((*rows)[1].quantity, 1);
}

TEST(ItemRowBoxes, LastAmountAfterTheTotalsLine) {
    // The last row's amount box came out after the totals keyword, before or after the totals amount: the one
    // that the rows with it add up to the other.
    const std::string before = "店\n2022年1月1日\nおにぎり紅しゃけ\n¥178軽\n週刊少年ジャンプ\nお買上計\n¥300\n¥478\n";
    const auto rows = ex::read_item_rows(before);
    ASSERT_TRUE(rows);
    EXPECT_EQ(pairs(*rows), (Pairs{{"おにぎり紅しゃけ", 178}, {"週刊少年ジャンプ", 300}}));
    const std::string after = "店\n2022年1月1日\n0181 ﾛｷｿﾆﾝS 12錠\n\\610\n6815 栄養ﾄﾞﾘﾝｸ\n小 計 \\768\n\\158\n合 計\n\\768\n";
    const auto rows2 = ex::read_item_rows(after);
    ASSERT_TRUE(rows2);
    EXPECT_EQ(pairs(*rows2), (Pairs{{"ﾛｷｿﾆﾝS 12錠", 610}, {"栄養ﾄﾞﾘﾝｸ", 158}}));
    // With its count box before the totals line.
    const std::string counted = "店\n2022-06-04\n商品名\n数量\n金額\nぶっかけうどん 大\n1\n627円\nえび天\n1\n172円\n"
                                "かけうどん 並\n1\n小計 (3点)\n343円\n1,142円\n外税10%\n114円\n";
    const auto rows3 = ex::read_item_rows(counted);
    ASSERT_TRUE(rows3);
    EXPECT_EQ(pairs(*rows3), (Pairs{{"ぶっかけうどん 大", 627}, {"えび天", 172}, {"かけうどん 並", 343}}));
    // Not when the amounts after the keyword do not add up that way.
    const std::string other = "店\n2022年1月1日\nおにぎり紅しゃけ\n¥178軽\n週刊少年ジャンプ\nお買上計\n¥300\n¥500\n";
    const auto rows4 = ex::read_item_rows(other);
    ASSERT_TRUE(rows4);
    EXPECT_EQ(pairs(*rows4), (Pairs{{"おにぎり紅しゃけ", 178}}));
}

TEST(ItemRowBoxes, BareAmountOfACountedRow) {
    // A receipt with yen signs printed a row's amount bare: after its count box under a count column, or made by
    // the count line under it.
    const std::string text = "店\n2022年1月1日\n商品名\n数量\n金額\nプロテインバ- *\n\\155\nカップ麺\n2\n256\n柔軟 詰替\n1\n"
                             "\\359\n単3アルカリ電池 2本\n924\n3個 X 単308\n小計\n\\1,694\n";
    const auto rows = ex::read_item_rows(text);
    ASSERT_TRUE(rows);
    EXPECT_EQ(pairs(*rows), (Pairs{{"プロテインバ-", 155}, {"カップ麺", 256}, {"柔軟 詰替", 359},
                                   {"単3アルカリ電池 2本", 924}}));
    EXPECT_EQ((*rows)[1].quantity, 2);
    EXPECT_EQ((*rows)[3].quantity, 3);
}

TEST(ItemRowBoxes, DateLineBetweenTheFirstDescriptionAndItsAmount) {
    const std::string text = "店\nレジ#1\n担当者 伊藤\n6925 絹豆腐\n20Z0年4月21日 火曜日 19:07:40\n¥174 ＊\n(3コ X 58)\n"
                             "3331 ﾄﾏﾄ\n¥96 ＊\n小計\n¥270\n";
    const auto rows = ex::read_item_rows(text);
    ASSERT_TRUE(rows);
    EXPECT_EQ(pairs(*rows), (Pairs{{"絹豆腐", 174}, {"ﾄﾏﾄ", 96}}));
    // Not a heading above the date, with the time OCR damaged under it.
    const std::string heading = "店\nレシート\n2023年02月14日(火)\n1g46\nPOS2\nﾌﾞﾗｯｸｻﾝﾀﾞｰ\n¥43\n小計\n¥43\n";
    const auto rows2 = ex::read_item_rows(heading);
    ASSERT_TRUE(rows2);
    EXPECT_EQ(pairs(*rows2), (Pairs{{"ﾌﾞﾗｯｸｻﾝﾀﾞｰ", 43}}));
    // A table number whose label OCR damaged is no item.
    const std::string table = "店\n2020年1月1日\nテーブ 8\n3名様\n豚汁\n172\nねぎ玉牛丼 並\n525\n小計\n697\n";
    const auto rows3 = ex::read_item_rows(table);
    ASSERT_TRUE(rows3);
    EXPECT_EQ(pairs(*rows3), (Pairs{{"豚汁", 172}, {"ねぎ玉牛丼 並", 525}}));
}

TEST(ItemRowBoxes, RegisterLineThatLostItsP) {
    // "POS4" as "OS4" (read "O54") under a date OCR damaged: no first half of the description below it.
    const std::string text = "店\n【領収証】\n2025-0105\n19:51\nOS4\n単3アルカリ電池 2本\n¥279\nヤクルト1000\n¥172軽\n"
                             "合計 ¥451\n";
    const auto rows = ex::read_item_rows(text);
    ASSERT_TRUE(rows);
    EXPECT_EQ(pairs(*rows), (Pairs{{"単3アルカリ電池 2本", 279}, {"ヤクルト1000", 172}}));
}
