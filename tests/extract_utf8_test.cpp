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
