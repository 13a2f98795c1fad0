// Numbers as printed on receipt lines, and the total / subtotal after their keywords (extract/printed_amounts.h).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "extract/printed_amounts.h"

namespace ex = receipt::extract;

TEST(PrintedNumbers, AmountsRatesAndWhatIsNoAmount) {
    const auto n = ex::printed_numbers("1,645 40.57 8% 8.875% -50 #12 10:24 2020/07 (18点) 8,75 T2771137188671 1,23,4");
    std::vector<double> values;
    std::vector<bool> usable;
    for (const auto& x : n) {
        values.push_back(x.value);
        usable.push_back(x.usable && !x.percent);
    }
    ASSERT_GE(n.size(), 12u);
    EXPECT_EQ(values[0], 1645);
    EXPECT_TRUE(usable[0]);
    EXPECT_EQ(values[1], 40.57);
    EXPECT_TRUE(n[1].cents);
    EXPECT_TRUE(n[2].percent);  // 8%
    EXPECT_TRUE(n[3].percent);  // 8.875%
    for (size_t i = 4; i < n.size(); ++i) {
        if (values[i] == 1 && i + 1 < n.size()) continue;  // "1,23,4": 1 is a broken group
        EXPECT_FALSE(usable[i]) << "number " << i << " = " << values[i];
    }
    EXPECT_TRUE(ex::printed_numbers("").empty());
}

TEST(PrintedLines, FoldsAndReadsLookAlikes) {
    EXPECT_EQ(ex::printed_lines("１，２３４円\n1b4\n"), (std::vector<std::string>{"1,234円", "164", ""}));
    // A look-alike after one read as a digit is read too.
    EXPECT_EQ(ex::printed_lines("¥1,5OO")[0], "¥1,500");
}

TEST(PrintedLines, LookAlikeBeforeAThousandsGroup) {
    // "Z,416" and "¥l.790": the first digit of an amount before its thousands group; not "No.123" (a word).
    const std::vector<std::string> lines = ex::printed_lines("Z,416\n¥l.790\nNo.123\nS,12\nS,1\n");
    EXPECT_EQ(lines[0], "2,416");
    EXPECT_EQ(lines[1], "¥1.790");
    EXPECT_EQ(lines[2], "No.123");
    EXPECT_EQ(lines[3], "5,12");  // no group of three, but an amount's two-digit cents after a decimal comma
    EXPECT_EQ(lines[4], "S,1");   // neither
}

TEST(PrintedNumbers, YenThousandsReadAsAPoint) {
    // OCR reads a yen amount's comma as a point: "¥1.580", "\\2.480", "1.580円" are 1580.
    for (const char* line : {"¥1.580", "\\2.480", "1.580円"}) {
        const auto n = ex::printed_numbers(line);
        ASSERT_EQ(n.size(), 1u) << line;
        EXPECT_TRUE(n[0].usable) << line;
        EXPECT_GE(n[0].value, 1000) << line;
    }
    // Without a yen sign three decimals stay no amount, and cents stay cents.
    EXPECT_FALSE(ex::printed_numbers("1.580")[0].usable);
    EXPECT_EQ(ex::printed_numbers("¥12.34")[0].value, 12.34);
    EXPECT_FALSE(ex::printed_numbers("¥1.5800")[0].usable);
}

TEST(KeywordTotal, AmountAfterTheTotalKeyword) {
    EXPECT_EQ(ex::keyword_total("小計 (18点)\n¥4733\n合計金額\n¥4733\n(内消費税等\n¥378)"), 4733);
    EXPECT_EQ(ex::keyword_total("お会計 ¥1,68\n¥1,768"), 1768);  // a broken group is skipped
    EXPECT_EQ(ex::keyword_total("台 計\n3,0l8円\n(内消費税等\n現金\n274円)"), 3018);  // 合 read as 台, 1 as l
    EXPECT_EQ(ex::keyword_total("SUBTOTAL 12.00\nTOTAL 12.72\nCASH 20.00"), 12.72);
    EXPECT_EQ(ex::keyword_total("お買上明細\n合 計\n8%対象\n¥2,546"), 2546);  // rates are skipped
    EXPECT_EQ(ex::keyword_total("お買上計\n¥850\n税率"), 850);
    EXPECT_EQ(ex::keyword_total("買上計\n850\n税率"), 850);  // お買上計 with the お that OCR dropped
    EXPECT_EQ(ex::keyword_total("合計\n現金\nおつり\n\n¥100"), std::nullopt);   // nothing within the window
    EXPECT_EQ(ex::keyword_total("no keyword 1,200"), std::nullopt);
    // OCR put the two characters of the keyword in two boxes.
    EXPECT_EQ(ex::keyword_total("小\n計\n¥282\n合\n計\n2,679円\n"), 2679);
    // The total's amount box moved above its keyword: a tender or change line after it is not the total.
    EXPECT_EQ(ex::keyword_total("¥6,337\nお会計\nお預り ¥7,000\nお釣\n¥663"), std::nullopt);
    // 合計 with a look-alike of one character; 小言 (小計) is no total.
    EXPECT_EQ(ex::keyword_total("小言\n¥1,045\n合言金額\n¥1,128\n"), 1128);
}

TEST(KeywordSubtotal, AmountAfterTheSubtotalKeywordAndWhetherOneIsPrinted) {
    bool printed = false;
    EXPECT_EQ(ex::keyword_subtotal("小計 (18点)\n¥4733\n合計金額\n¥4733", &printed), 4733);
    EXPECT_TRUE(printed);
    EXPECT_EQ(ex::keyword_subtotal("合計 ¥769\n税率", &printed), std::nullopt);
    EXPECT_FALSE(printed);
    EXPECT_EQ(ex::keyword_subtotal("小計\n\n\n\n1,000", &printed), std::nullopt);
    EXPECT_TRUE(printed);
    EXPECT_EQ(ex::keyword_subtotal("ｱﾙﾐﾎｲﾙ\n¥72※\n小\n計\n¥282\n合計金額\n¥304", &printed), 282);
    EXPECT_TRUE(printed);
    EXPECT_EQ(ex::keyword_subtotal("220軽\n小 言\n1,740\n合計金額\n1,74O", &printed), 1740);
    // 小計 with one character lost, known by the item count only the subtotal line carries.
    EXPECT_EQ(ex::keyword_subtotal("\\200\n小  (7点)\n\\2,204\nお買上計\n\\2,204", &printed), 2204);
    EXPECT_TRUE(printed);
    EXPECT_EQ(ex::keyword_subtotal("570 ※\n計 (4点\n900\n合計\n900", &printed), 900);
    EXPECT_TRUE(printed);
    // The item count with its 点 lost to OCR is no subtotal; the amount below is.
    EXPECT_EQ(ex::keyword_subtotal("\\259軽\n小 計 (45)\n\\10,891\n合計金額 \\10,891", &printed), 10891);
    EXPECT_EQ(ex::keyword_subtotal("小計( 7 )\n¥2,204\n", &printed), 2204);
    // Without a count, "計 ¥2756" is the subtotal only above a total keyword (the total printed apart).
    EXPECT_EQ(ex::keyword_subtotal("計 ¥2756\nお会計\n¥2756", &printed), 2756);
    EXPECT_TRUE(printed);
    EXPECT_EQ(ex::keyword_subtotal("計 900\nお預り\n1000", &printed), std::nullopt);
    EXPECT_FALSE(printed);
    EXPECT_EQ(ex::keyword_subtotal("計\n合計\n900", &printed), std::nullopt);  // no amount on the line
    EXPECT_FALSE(printed);
}

TEST(RoundedTotal, CashRoundingToFiveSen) {
    const std::string text = "TOTAL SALES (INCLUSIVE OF GST) :\n80.91\nROUNDING\n-0.01\nTOTAL :\n80.90\nCASH :\n100.00";
    EXPECT_EQ(ex::rounded_total(text, 80.91), 80.90);
    EXPECT_EQ(ex::rounded_total(text, 80.90), std::nullopt);  // already a multiple of 5 sen
    EXPECT_EQ(ex::rounded_total("TOTAL 7.16\nROUNDING ADJUSTMENT -RM 0.01\nTOTAL ROUNDED RM 7.15", 7.16), 7.15);
    // No rounding line, or the rounded amount is not printed: the total stays.
    EXPECT_EQ(ex::rounded_total("TOTAL 80.91\nCASH 100.00\n80.90", 80.91), std::nullopt);
    EXPECT_EQ(ex::rounded_total("TOTAL 80.91\nROUNDING 0.00", 80.91), std::nullopt);
    EXPECT_EQ(ex::rounded_total(text, 0.0), std::nullopt);
    EXPECT_EQ(ex::rounded_total(text, 80.915), std::nullopt);  // not whole cents
}

TEST(PayableTotal, AmountAfterAPayableTotalLine) {
    EXPECT_EQ(ex::payable_total("TOTAL 0% SUPPLIES:\n-9.62\nTOTAL PAYABLE:\n5.90\nE.&.0.E."), 5.90);
    EXPECT_EQ(ex::payable_total("TOTAL AMT PAYABLE : 159.00\nPAID AMOUNT : 200.00"), 159.0);
    EXPECT_EQ(ex::payable_total("TOTAL 12.00\nCASH 20.00"), std::nullopt);            // no payable line
    EXPECT_EQ(ex::payable_total("ACCOUNTS PAYABLE DEPT\n12.00"), std::nullopt);        // no total word
    EXPECT_EQ(ex::payable_total("TOTAL PAYABLE\n\n\n\n12.00"), std::nullopt);          // nothing in the window
    // The amount paid with the tax included is the total; the amount without it is not.
    EXPECT_EQ(ex::payable_total("MTD RC : 111.90\nAMT PAID INCL GST : RM111.90\nAMT PAID EXCL. GST :RM 105.57"), 111.90);
    EXPECT_EQ(ex::payable_total("AMT PAID EXCL. GST :RM 105.57\nGST AMT : RM5.33"), std::nullopt);
}

TEST(PrintedAmounts, CashPaidTotal) {
    // Tendered minus change, the difference printed as the total.
    EXPECT_EQ(ex::cash_paid_total("TOTAL\n84.00\nDISC\n-1.00\nTOTAL INCLUSIVE GST:\n83.00\nCASH\n85.00\nCHANGE\n2.00\n"), 83.0);
    EXPECT_EQ(ex::cash_paid_total("TOTAL: 48.15\nCASH : 50.00\nCHANGE : 1.85\n"), 48.15);
    EXPECT_EQ(ex::cash_paid_total("RM21.85\nGRAND TOTAL\nTOTAL PAID\nRM50.00\nCHANGE\nRM28.15\n"), 21.85);
    // A currency sign before the amount on its own line (UK and US receipts).
    EXPECT_EQ(ex::cash_paid_total("\u00a3113.08\nToal (Inclusive GST)\nCASH\n\u00a3133.00\nChange\n\u00a319.92\n"), 113.08);
    EXPECT_EQ(ex::cash_paid_total("TOTAL\n$53.38\nCASH\n$73.00\nCHANGE\n$19.62\n"), 53.38);
    EXPECT_EQ(ex::cash_paid_total("TOTAL\n13.80\nCASH\n:\n13.80\nCHANGE (RM)\n0.00\n"), 13.8);
    // The difference not printed, no change line, a payment-type line without an amount, change above the cash.
    EXPECT_EQ(ex::cash_paid_total("TOTAL 10.00\nCASH 50.00\nCHANGE 30.00\n"), std::nullopt);
    EXPECT_EQ(ex::cash_paid_total("TOTAL 10.00\nCASH 10.00\n"), std::nullopt);
    EXPECT_EQ(ex::cash_paid_total("PAYMENT TYPE:\nCASH\nMEMBER NUMBER\n"), std::nullopt);
    EXPECT_EQ(ex::cash_paid_total("CHANGE 2.00\nTOTAL 8.00\nCASH 10.00\n"), std::nullopt);
    // A word that only starts with the key ("CASHIER") is no tender line.
    EXPECT_EQ(ex::cash_paid_total("TOTAL 8.00\nCASHIER 10.00\nCHANGE 2.00\n"), std::nullopt);
}
