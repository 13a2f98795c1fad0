// A text written one line per printed row gets its amounts on lines of their own (extract/row_split.h).
#include <gtest/gtest.h>

#include <string>

#include "extract/row_split.h"

namespace ex = receipt::extract;

namespace {

size_t label_end_of(const std::string& line) {
    size_t end = 0;
    return ex::ends_in_amount(line, end) ? end : std::string::npos;
}

}  // namespace

TEST(RowSplit, AmountAfterALabel) {
    EXPECT_EQ(label_end_of("TOTAL SALES (INCLUSIVE OF GST) : 80.90"), 32u);
    EXPECT_EQ(label_end_of("CASH RM 100.00"), 4u);        // a currency code standing alone before the number
    EXPECT_EQ(label_end_of("TOTAL RM9.00"), 5u);
    EXPECT_EQ(label_end_of("MEMBER DISC -11.64"), 11u);
    EXPECT_EQ(label_end_of("Change $9.44"), 6u);
    EXPECT_EQ(label_end_of("VAT 20% £10.98"), 7u);
    EXPECT_EQ(label_end_of("E8318 1 80.91 80.91 SR"), 13u);  // the tax code stays with its amount
    EXPECT_EQ(label_end_of("TOTAL 1.234,50"), 5u);         // decimal comma
    EXPECT_EQ(label_end_of("合計 ¥8,745"), std::string("合計").size());
    EXPECT_EQ(label_end_of("小 計 \\778"), std::string("小 計").size());  // the yen sign of JIS fonts
    EXPECT_EQ(label_end_of("牛切落し * 1 722円"), std::string("牛切落し * 1").size());
    EXPECT_EQ(label_end_of("ﾚｼﾞ袋 ¥3 ※"), std::string("ﾚｼﾞ袋").size());
}

TEST(RowSplit, NotAnAmountAfterALabel) {
    EXPECT_EQ(label_end_of("80.90"), std::string::npos);                   // an amount alone
    EXPECT_EQ(label_end_of("RM 80.90"), std::string::npos);                // likewise, with its currency
    EXPECT_EQ(label_end_of("NO 122.124 JALAN DEDAP 13"), std::string::npos);  // a house number
    EXPECT_EQ(label_end_of("81100 JOHOR BAHRU"), std::string::npos);
    EXPECT_EQ(label_end_of("DATE 25/12/2018"), std::string::npos);
    EXPECT_EQ(label_end_of("TIME 10:17:32 PM"), std::string::npos);
    EXPECT_EQ(label_end_of("TEL 07-3523888"), std::string::npos);
    EXPECT_EQ(label_end_of("ねぎ玉牛丼 並 ＊ 1 518"), std::string::npos);  // no decimals, no yen sign
    EXPECT_EQ(label_end_of("12 34.50"), std::string::npos);                 // no label: digits alone
    EXPECT_EQ(label_end_of("TOTAL 9.5"), std::string::npos);
    EXPECT_EQ(label_end_of("TOTAL 1..00"), std::string::npos);
    EXPECT_EQ(label_end_of(""), std::string::npos);
}

TEST(RowSplit, SplitsATextWrittenInRows) {
    const std::string rows =
        "SHOP SDN BHD\nNO 5, JALAN KENARI 2\nRICE 5KG 17.58\nMILO 1KG 23.28\nSUB-TOTAL : 40.86\nTOTAL : 40.86\nCASH 50.00";
    EXPECT_TRUE(ex::reads_as_rows(rows));
    EXPECT_EQ(ex::split_row_amounts(rows),
              "SHOP SDN BHD\nNO 5, JALAN KENARI 2\nRICE 5KG\n17.58\nMILO 1KG\n23.28\nSUB-TOTAL :\n40.86\nTOTAL :\n40.86"
              "\nCASH\n50.00");
    EXPECT_EQ(ex::split_row_amounts("合計 ¥778\n現金 ¥1,000\nお釣り ¥222"), "合計\n¥778\n現金\n¥1,000\nお釣り\n¥222");
}

TEST(RowSplit, LeavesABoxPerLineTextAlone) {
    // Most amounts on lines of their own: the training layout, unchanged even where a box holds label and amount.
    const std::string boxes = "SHOP\nRICE 5KG\n17.58\nMILO 1KG\n23.28\nTOTAL : 40.86\nCASH\n50.00\nCHANGE 9.14";
    EXPECT_FALSE(ex::reads_as_rows(boxes));
    EXPECT_EQ(ex::split_row_amounts(boxes), boxes);
    // Fewer than three rows ending in an amount: too little to tell.
    const std::string short_rows = "SHOP\nTOTAL 9.00\nCASH 10.00";
    EXPECT_FALSE(ex::reads_as_rows(short_rows));
    EXPECT_EQ(ex::split_row_amounts(short_rows), short_rows);
    EXPECT_EQ(ex::split_row_amounts(""), "");
    EXPECT_EQ(ex::split_row_amounts("A"), "A");
}
