// The receipt text as the model reads it (extract/input_text.h): OCR's full-width forms, spaces and line ends folded.
#include <gtest/gtest.h>

#include "extract/input_text.h"

namespace ex = receipt::extract;

TEST(InputText, FoldsFullWidthAscii) {
    EXPECT_EQ(ex::model_input_text("合計 ￥１，２３０"), "合計 ¥1,230");
    EXPECT_EQ(ex::model_input_text("ＴＥＬ０３－１２３４－５６７８"), "TEL03-1234-5678");
    EXPECT_EQ(ex::model_input_text("（税込）：ａｂｃ～"), "(税込):abc~");
    EXPECT_EQ(ex::model_input_text("\u2212100"), "-100");  // minus sign
    EXPECT_EQ(ex::model_input_text("￡5 ￠9 ￦100"), "£5 ¢9 ₩100");
}

TEST(InputText, KeepsWhatTheTrainingTextPrints) {
    EXPECT_EQ(ex::model_input_text("牛乳 ＊ 198"), "牛乳 ＊ 198");  // the reduced-rate mark as trained
    EXPECT_EQ(ex::model_input_text("ﾗｲｽｾｯﾄ ¥2,200"), "ﾗｲｽｾｯﾄ ¥2,200");  // half-width katakana, ¥
    EXPECT_EQ(ex::model_input_text("TOTAL 12.00\n〒650-0021 兵庫県"), "TOTAL 12.00\n〒650-0021 兵庫県");
    EXPECT_EQ(ex::model_input_text("A"), "A");
}

TEST(InputText, SpacesAndInvisibles) {
    EXPECT_EQ(ex::model_input_text("担当者　渡辺"), "担当者 渡辺");         // ideographic space
    EXPECT_EQ(ex::model_input_text("A\u00a0B\u2009C\u202fD"), "A B C D");  // no-break, thin, narrow no-break
    EXPECT_EQ(ex::model_input_text("ITEM\t1\t2.50"), "ITEM 1 2.50");       // tabs between columns
    EXPECT_EQ(ex::model_input_text("RICE    5KG     17.95"), "RICE 5KG 17.95");
    EXPECT_EQ(ex::model_input_text("\ufeffSHOP\nTOTAL"), "SHOP\nTOTAL");       // byte order mark
    EXPECT_EQ(ex::model_input_text("SH\u200bOP\u2060"), "SHOP");               // zero-width characters
    EXPECT_EQ(ex::model_input_text(std::string("A\0B\x1b\x7f", 5) + "\u0090C"), "ABC");  // control characters
    EXPECT_EQ(ex::model_input_text("PAGE 1\n\f"), "PAGE 1");                  // Tesseract's page end
}

TEST(InputText, Lines) {
    EXPECT_EQ(ex::model_input_text("A\r\nB\r\n"), "A\nB");
    EXPECT_EQ(ex::model_input_text("A\rB"), "A\nB");  // classic Mac line end
    EXPECT_EQ(ex::model_input_text("A\u2028B\u2029C\u0085D"), "A\nB\nC\nD");  // Unicode line ends
    EXPECT_EQ(ex::model_input_text("\n\nA\n\n\nB\n\n"), "A\nB");  // blank lines
    EXPECT_EQ(ex::model_input_text("  A  \n \t \n   B C  "), "A\nB C");  // leading / trailing spaces
    EXPECT_EQ(ex::model_input_text(" \r\n\t\u3000\n\ufeff"), "");  // whitespace alone
    EXPECT_EQ(ex::model_input_text(""), "");
}

TEST(InputText, InvalidBytesPassThrough) {
    const std::string bad = std::string("A ") + char(0xff) + " Ｂ";
    EXPECT_EQ(ex::model_input_text(bad), std::string("A ") + char(0xff) + " B");
}
