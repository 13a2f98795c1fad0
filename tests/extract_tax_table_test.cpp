// A per-rate tax table whose boxes OCR put out of order, read by its arithmetic (extract/tax_table.h).
#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "extract/tax_table.h"

namespace ex = receipt::extract;

TEST(TaxTable, BoxesOutOfOrderReadAsASet) {
    // The 8 % tax above its rate; the bases 120 + 85 add up to the total.
    const std::string above = "切手 84円\n85円\n合 計\n205円\n税率\n対象額\n税額\n8円\n8%\n120円\n10%\n85円\n7円\n現金\n205円\n";
    EXPECT_EQ(ex::tax_table_total(above, 205), 15);
    // The 10 % rate after its own tax and base.
    const std::string after = "合 計\n¥1,036\n税率\n対象額\n税額\n8%\n¥778\n¥57\n¥23\n¥258\n10%\n現金\n¥10,000\n";
    EXPECT_EQ(ex::tax_table_total(after, 1036), 80);
    // A rate that lost its '%', and a base too small to carry a yen of tax.
    const std::string bare = "お買上計\n¥2,053\n税率 対象額 税額\n8 ¥2,045 ¥151\n10%\n¥8\n¥0\n現金\n¥2,053\n";
    EXPECT_EQ(ex::tax_table_total(bare, 2053), 151);
}

TEST(TaxTable, TaxBoxThatLostADigitOfItsThousandsGroup) {
    // "\1,77" for 1,177, the tax included in 12,948 at 10 %; the 8 % pair is whole.
    const std::string text = "合 計\n\\15,364\n税率\n対象額\n税額\n8%\n\\2,416\n\\178\n10%\n\\12,948\n\\1,77\niD決済\n";
    EXPECT_EQ(ex::tax_table_total(text, 15364), 1355);
    // A box cut short is no base.
    EXPECT_EQ(ex::tax_table_total("合 計\n\\177\n税率\n対象額\n税額\n10%\n\\1,77\n\\16\n", 177), std::nullopt);
}

TEST(TaxTable, HeaderWithTheLookAlikeOfItsTaxWord) {
    // 税額 read as 悦額: still the table's header; its tax box printed before the rate.
    EXPECT_EQ(ex::tax_table_total("小言 (5点)\n1810円\n合計金額\n1810内\n税率\n対象額\n悦額\n164円\n10%\n1810円\n"
                                  "nanaco支払\n1810円\n",
                                  1810),
              164);
}

TEST(TaxTable, NothingWithoutAHeaderOrBasesThatAddUp) {
    const std::string after = "合 計\n¥1,036\n税率\n対象額\n税額\n8%\n¥778\n¥57\n¥23\n¥258\n10%\n現金\n¥10,000\n";
    EXPECT_EQ(ex::tax_table_total(after, 1040), std::nullopt);  // the bases make 1,036
    EXPECT_EQ(ex::tax_table_total("8%\n¥778\n¥57\n", 778), std::nullopt);  // no header
    EXPECT_EQ(ex::tax_table_total("税率\n現金\n¥778\n", 778), std::nullopt);  // no rate in the table
    EXPECT_EQ(ex::tax_table_total("", 0), std::nullopt);
}
