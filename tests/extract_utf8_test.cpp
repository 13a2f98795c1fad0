// Byte-string helpers of extract/utf8.h.
#include <gtest/gtest.h>

#include "extract/utf8.h"

namespace ex = receipt::extract;

TEST(Utf8, ExtraByteAt) {
    EXPECT_EQ(ex::extra_byte_at("TRGET", "TARGET"), 1u);
    EXPECT_EQ(ex::extra_byte_at("ORANGE JICE", "ORANGE JUICE"), 8u);
    EXPECT_EQ(ex::extra_byte_at("SHOP", "SHOPS"), 4u);           // at the end
    EXPECT_EQ(ex::extra_byte_at("", "A"), 0u);
    EXPECT_EQ(ex::extra_byte_at("BOK", "BOOK"), 2u);              // the last of a run of equal bytes
    EXPECT_FALSE(ex::extra_byte_at("TARGET", "TARGET"));         // same length
    EXPECT_FALSE(ex::extra_byte_at("TRGET", "TARGETS"));         // two more
    EXPECT_FALSE(ex::extra_byte_at("TRGET", "TAGGET"));          // one changed, not one added
    EXPECT_FALSE(ex::extra_byte_at("SUGAR 2KG", "SUGAR 13KG"));
}

TEST(Utf8, HasCjk) {
    EXPECT_TRUE(ex::has_cjk("セブン-イレブン"));
    EXPECT_TRUE(ex::has_cjk("合計 ¥1,280"));
    EXPECT_TRUE(ex::has_cjk("ｺｰﾋｰ"));  // half-width katakana
    EXPECT_TRUE(ex::has_cjk("ー合"));
    // The prolonged sound mark and middle dot alone are OCR's reading of a dash or dot in Latin text.
    EXPECT_FALSE(ex::has_cjk("TEL: (614) 555ー0740"));
    EXPECT_FALSE(ex::has_cjk("SubーTotal\nA・B ｰ"));
    EXPECT_FALSE(ex::has_cjk("TOTAL $12.50"));
}
