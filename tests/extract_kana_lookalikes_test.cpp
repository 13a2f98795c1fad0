// OCR look-alikes between katakana and kanji (extract/kana_lookalikes.h).
#include <gtest/gtest.h>

#include <string>

#include "extract/kana_lookalikes.h"

namespace ex = receipt::extract;

TEST(KanaLookalikes, KanjiInKatakanaBecomeKatakana) {
    EXPECT_EQ(ex::fix_kana_lookalikes("東急ス卜ア"), "東急ストア");
    EXPECT_EQ(ex::fix_kana_lookalikes("サミッ卜 小杉町本店"), "サミット 小杉町本店");
    EXPECT_EQ(ex::fix_kana_lookalikes("口ーソン"), "ローソン");           // at the start, a katakana after it
    EXPECT_EQ(ex::fix_kana_lookalikes("センタ-店"), "センター店");         // hyphen after a katakana
    EXPECT_EQ(ex::fix_kana_lookalikes("コ一ヒ一"), "コーヒー");
    // Between two katakana, after a vowel sound (never after ン: the hyphen of セブン-イレブン).
    EXPECT_EQ(ex::fix_kana_lookalikes("ジョ-シン 港本店"), "ジョーシン 港本店");
    EXPECT_EQ(ex::fix_kana_lookalikes("ミネラルウォ－ター 2L"), "ミネラルウォーター 2L");
}

TEST(KanaLookalikes, KatakanaInKanjiBecomeKanji) {
    EXPECT_EQ(ex::fix_kana_lookalikes("恵比寿南北ロ店"), "恵比寿南北口店");
    EXPECT_EQ(ex::fix_kana_lookalikes("協カ会"), "協力会");
    // The long-vowel mark with no kana sound before it and a kanji after it is the numeral.
    EXPECT_EQ(ex::fix_kana_lookalikes("東急ストア ー番町中央店"), "東急ストア 一番町中央店");
    EXPECT_EQ(ex::fix_kana_lookalikes("ラーメン"), "ラーメン");
    EXPECT_EQ(ex::fix_kana_lookalikes("すごーい"), "すごーい");
}

TEST(KanaLookalikes, LeavesRealTextAlone) {
    EXPECT_EQ(ex::fix_kana_lookalikes("セブン-イレブン 新宿西口店"), "セブン-イレブン 新宿西口店");
    EXPECT_EQ(ex::fix_kana_lookalikes("キリン一番搾り 500ml"), "キリン一番搾り 500ml");
    EXPECT_EQ(ex::fix_kana_lookalikes("一番"), "一番");
    EXPECT_EQ(ex::fix_kana_lookalikes("SONY WH-1000XM5"), "SONY WH-1000XM5");
    EXPECT_EQ(ex::fix_kana_lookalikes("人口"), "人口");
    EXPECT_EQ(ex::fix_kana_lookalikes(""), "");
    const std::string invalid = "\xE3\x83";  // a truncated sequence
    EXPECT_EQ(ex::fix_kana_lookalikes(invalid), invalid);
}
