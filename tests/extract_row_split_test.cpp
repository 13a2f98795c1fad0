// A text written one line per printed row gets its amounts on lines of their own (extract/row_split.h).
#include <gtest/gtest.h>

#include <string>

#include "extract/row_split.h"

namespace ex = receipt::extract;

namespace {

size_t label_end_of(const std::string& line, bool yen_text = false) {
    size_t end = 0;
    return ex::ends_in_amount(line, end, yen_text) ? end : std::string::npos;
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
    // In a Japanese text whole numbers are yen amounts, with or without a tax mark.
    EXPECT_EQ(label_end_of("ねぎ玉牛丼 並 ＊ 1 518", true), std::string("ねぎ玉牛丼 並 ＊ 1").size());
    EXPECT_EQ(label_end_of("缶ビール 350ml 6缶 1,089", true), std::string("缶ビール 350ml 6缶").size());
    EXPECT_EQ(label_end_of("炭酸水 500ml 72軽", true), std::string("炭酸水 500ml").size());
    EXPECT_EQ(label_end_of("見切値引 -20", true), std::string("見切値引").size());
    EXPECT_EQ(label_end_of("卵 10個入 ¥248軽", true), std::string("卵 10個入").size());  // a tax mark after ¥
    EXPECT_EQ(label_end_of("緑茶 2L 146円軽", true), std::string("緑茶 2L").size());
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
    EXPECT_EQ(label_end_of("合計 1,0800", true), std::string::npos);          // not grouped in threes
    EXPECT_EQ(label_end_of("合計 12345678", true), std::string::npos);        // more than 7 digits
    EXPECT_EQ(label_end_of("TEL 022-801-5745", true), std::string::npos);
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

TEST(RowSplit, SplitsALatinRowIntoItsBoxes) {
    // Quantity, description, unit price and amount each on a line of their own, as the boxes of the training
    // receipts; quantity expressions and a count glued to the description stay whole.
    const std::string rows =
        "SHOP\n2 RICE 5KG 17.58 35.16\n4 0.56 BANANAS 2.24\n4x DETERGENT 2KG 67.20\nMILO 1KG 1 X 28.61 28.61\n"
        "TEA 3 @ 4.00 12.00\nSR @ 6% 12.55 0.75\nTOTAL : 145.80";
    EXPECT_EQ(ex::split_row_amounts(rows),
              "SHOP\n2\nRICE 5KG\n17.58\n35.16\n4\n0.56\nBANANAS\n2.24\n4x DETERGENT 2KG\n67.20\nMILO 1KG\n1 X 28.61\n"
              "28.61\nTEA\n3 @ 4.00\n12.00\nSR @ 6%\n12.55\n0.75\nTOTAL :\n145.80");
    // An amount that OCR put before its label goes on a line of its own, as its box was; not litres before their unit
    // or an amount before a total label.
    EXPECT_EQ(ex::split_row_amounts("SHOP\nMILO 1KG 23.28\n1.43 1x PASTA PENNE\n4.69 T 1x APPLES GALA\n"
                                    "35.10 LITRE PUMP # 02\nRM29.40 TOTAL AMOUNT\nCASH 30.00\nCHANGE 0.60"),
              "SHOP\nMILO 1KG\n23.28\n1.43\n1x PASTA PENNE\n4.69 T\n1x APPLES GALA\n35.10 LITRE PUMP # 02\n"
              "RM29.40 TOTAL AMOUNT\nCASH\n30.00\nCHANGE\n0.60");
    // Numbers inside the words stay, and so does a label that starts with numbers before a sign.
    const std::string restaurant = "1 #5 5 WING COMBO 9.99\n01 1 $FiveLU 12.49\nTOTAL 5,28 0,97 6,25\nTAX 2.37";
    EXPECT_EQ(ex::split_row_amounts(restaurant),
              "1 #5 5 WING COMBO\n9.99\n01 1 $FiveLU\n12.49\nTOTAL 5,28 0,97\n6,25\nTAX\n2.37");
}

TEST(RowSplit, SplitsAQuantityRowWhoseBoxesOCRMoved) {
    // The line amount read before its quantity expression goes on a line of its own, the expression stays whole;
    // so does a damaged line amount after a quantity expression ("1.8" for 1.68, "2.S0").
    const std::string rows = "SHOP\nMILO 1KG\n28.61 1 X 28.61\nBANANAS\n3 X 0.56 1.8\nTEA\n32.50 2X 16.25\nPEN\n"
                             "1 X 2.50 2.S0\nSUB TOTAL 67.31\nTOTAL 67.31\nCASH 70.00";
    EXPECT_EQ(ex::split_row_amounts(rows),
              "SHOP\nMILO 1KG\n28.61\n1 X 28.61\nBANANAS\n3 X 0.56\n1.8\nTEA\n32.50\n2X 16.25\nPEN\n1 X 2.50\n2.S0\n"
              "SUB TOTAL\n67.31\nTOTAL\n67.31\nCASH\n70.00");
    // A damaged amount ends any row: after a unit price, before a tax code, after a label; not cents printed
    // without their zero (".00", as Malaysian receipts print them).
    EXPECT_EQ(ex::split_row_amounts("SHOP\n6 SUGAR 1KG 2.83 16.9B\n1x TISSUE 10S g.10 T\nA 1.00\nB 2.00\nC 3.00\n"
                                    "CASH RM38.0D\nCHANGE RM .00"),
              "SHOP\n6\nSUGAR 1KG\n2.83\n16.9B\n1x TISSUE 10S\ng.10 T\nA\n1.00\nB\n2.00\nC\n3.00\nCASH\nRM38.0D\n"
              "CHANGE RM .00");
    // RM with a letter lost; a unit price OCR damaged after a counted description.
    EXPECT_EQ(ex::split_row_amounts("SHOP\nBANANAS M0.50\n1 STORAGE BOX 11.5 11.35\nA 1.00\nB 2.00\nC 3.00"),
              "SHOP\nBANANAS\nM0.50\n1\nSTORAGE BOX\n11.5\n11.35\nA\n1.00\nB\n2.00\nC\n3.00");
    // A header label's short number goes on a line of its own, before or after it; a registration number stays.
    EXPECT_EQ(ex::split_row_amounts("SHOP\nTRANS# 97166\n3B89 CASHIER:\nGST ID NO : 000123456789\nA 1.00\nB 2.00\n"
                                    "C 3.00"),
              "SHOP\nTRANS#\n97166\n3B89\nCASHIER:\nGST ID NO : 000123456789\nA\n1.00\nB\n2.00\nC\n3.00");
    // Not a word after a quantity expression, nor two numbers before it.
    EXPECT_EQ(ex::split_row_amounts("SHOP\nA 1.00\nB 2.00\nC 3.00\n1 X 2.50 PEN\n1.00 2.00 1 X 3.00"),
              "SHOP\nA\n1.00\nB\n2.00\nC\n3.00\n1 X 2.50 PEN\n1.00 2.00 1 X\n3.00");
}

TEST(RowSplit, JapaneseRowsKeepTheQuantityWithTheName) {
    // Whole-yen amounts count in a Japanese text; the label stays whole.
    const std::string rows = "すき家\nねぎ玉牛丼 並 ＊ 1 518\n生卵 ＊ 1 83\n炭酸水 500ml 72軽\n小 計 (3点) 673\n合計 727";
    EXPECT_TRUE(ex::reads_as_rows(rows));
    EXPECT_EQ(ex::split_row_amounts(rows),
              "すき家\nねぎ玉牛丼 並 ＊ 1\n518\n生卵 ＊ 1\n83\n炭酸水 500ml\n72軽\n小 計 (3点)\n673\n合計\n727");
    // A yen amount that OCR put before its label goes on a line of its own, as its box was.
    EXPECT_EQ(ex::split_row_amounts("店\n\\98軽 お茶 600ml\n生卵 ＊ 1 83\n¥181 小 計\n合計 ¥195\nお釣り 5"),
              "店\n\\98軽\nお茶 600ml\n生卵 ＊ 1\n83\n¥181\n小 計\n合計\n¥195\nお釣り\n5");
    // So does one with a tax mark alone ("200軽"); a bare number before a label stays (a code or a count).
    EXPECT_EQ(ex::split_row_amounts("店\n200軽 トッピング チーズ\n生卵 ＊ 1 83\n12 お茶 98\n合計 ¥381"),
              "店\n200軽\nトッピング チーズ\n生卵 ＊ 1\n83\n12 お茶\n98\n合計\n¥381");
    // Box per line: the quantities and amounts alone outnumber the rows.
    const std::string boxes = "すき家\nねぎ玉牛丼 並 ＊\n1\n518\n生卵 ＊\n1\n83\n小 計 (2点) 601\n合計\n649";
    EXPECT_FALSE(ex::reads_as_rows(boxes));
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
