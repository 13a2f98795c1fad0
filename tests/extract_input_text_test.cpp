// The receipt text as the model reads it (extract/input_text.h): OCR's full-width forms and line ends folded.
#include <gtest/gtest.h>

#include "extract/input_text.h"

namespace ex = receipt::extract;

TEST(InputText, FoldsFullWidthAsciiAndSpaces) {
    EXPECT_EQ(ex::model_input_text("合計　￥１，２３０"), "合計 ¥1,230");
    EXPECT_EQ(ex::model_input_text("ＴＥＬ０３－１２３４－５６７８"), "TEL03-1234-5678");
    EXPECT_EQ(ex::model_input_text("（税込）：ａｂｃ～"), "(税込):abc~");
    EXPECT_EQ(ex::model_input_text("\u2212100"), "-100");           // minus sign
    EXPECT_EQ(ex::model_input_text("A\u00a0B"), "A B");              // no-break space
    EXPECT_EQ(ex::model_input_text("￡5 ￠9 ￦100"), "£5 ¢9 ₩100");
}

TEST(InputText, KeepsWhatTheTrainingTextPrints) {
    EXPECT_EQ(ex::model_input_text("牛乳 ＊ 198"), "牛乳 ＊ 198");  // the reduced-rate mark as trained
    EXPECT_EQ(ex::model_input_text("ﾗｲｽｾｯﾄ ¥2,200"), "ﾗｲｽｾｯﾄ ¥2,200");  // half-width katakana, ¥
    EXPECT_EQ(ex::model_input_text("TOTAL\t12.00\n〒650-0021"), "TOTAL\t12.00\n〒650-0021");
    EXPECT_EQ(ex::model_input_text(""), "");
}

TEST(InputText, LineEnds) {
    EXPECT_EQ(ex::model_input_text("A\r\nB\r\n"), "A\nB\n");
    EXPECT_EQ(ex::model_input_text("A\rB"), "A\nB");  // classic Mac line end
    EXPECT_EQ(ex::model_input_text("A\r\r\nB"), "A\n\nB");
    EXPECT_EQ(ex::model_input_text("\r"), "\n");
}

TEST(InputText, InvalidBytesPassThrough) {
    const std::string bad = std::string("A") + char(0xff) + "Ｂ";
    EXPECT_EQ(ex::model_input_text(bad), std::string("A") + char(0xff) + "B");
}
