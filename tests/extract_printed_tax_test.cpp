// Per-rate tax lines of receipt texts and their sum (extract/printed_tax.h).
#include <gtest/gtest.h>

#include <string>

#include "extract/printed_tax.h"

namespace ex = receipt::extract;

TEST(PrintedTax, TaxTableWithOneBoxPerLine) {
    // 税率 / 対象額 / 税額 table, OCR boxes on their own lines; 8 %: 474 * 8 / 108 = 35.1, 10 %: 295 * 10 / 110 = 26.8.
    const std::string text = "合計\n¥769\n税率\n対象額\n税額\n8%\n¥474\n¥35\n10%\n\\295\n¥26\n現金\n¥1000\nおつり\n¥231";
    const auto lines = ex::printed_tax_lines(text);
    ASSERT_TRUE(lines.has_value());
    ASSERT_EQ(lines->size(), 2u);
    EXPECT_EQ((*lines)[0].rate, 8);
    EXPECT_EQ((*lines)[0].base, 474);
    EXPECT_EQ((*lines)[0].tax, 35);
    EXPECT_EQ((*lines)[1].rate, 10);
    EXPECT_EQ((*lines)[1].tax, 26);
    EXPECT_EQ(ex::printed_tax_total(text), 61);
}

TEST(PrintedTax, ExternalTaxWithBasesAndOcrNoise) {
    // 外税: tax = base * r / 100 (6903 * 0.08 = 552.2, 1645 * 0.1 = 164.5); "1b4" is 164 and "8,54B" a subtotal.
    const std::string text =
        "小計\n8,54B\n(8%対象\n6,903)\n外税8%\n552\n(10%対象\n1,645)\n外税10% 1b4\n合計\n9,264\n軽印は軽減税率適用商品";
    EXPECT_EQ(ex::printed_tax_total(text), 716);
}

TEST(PrintedTax, IncludedTaxOnOneLineAndFullWidthForms) {
    EXPECT_EQ(ex::printed_tax_total("(8%対象 ¥2,628 内税 ¥194)\n(10%対象 ¥683 内税 ¥62)"), 256);
    EXPECT_EQ(ex::printed_tax_total("８％対象計　１，２３４\n（内消費税８％　９１）"), 91);
    EXPECT_EQ(ex::printed_tax_total("8% ¥638 ¥47\nQUICPay支払 ¥638"), 47);
}

TEST(PrintedTax, DecimalCurrencies) {
    // A GST summary row: 40.57 * 6 / 100 = 2.43.
    EXPECT_EQ(ex::printed_tax_total("GST Summary Amount(RM) Tax(RM)\nSR @ 6% 40.57 2.43\nTOTAL 43.00"), 2.43);
    // Base with cents and tax without: not a pair.
    EXPECT_EQ(ex::printed_tax_total("SR @ 6% 40.57 2"), std::nullopt);
}

TEST(PrintedTax, NothingConfident) {
    // A single tax amount without its base, or only a rate in a footnote: no reading.
    EXPECT_EQ(ex::printed_tax_total("合計 ¥4733\n(内消費税等 ¥378)\n※は軽減税率8%対象商品です"), std::nullopt);
    EXPECT_EQ(ex::printed_tax_total("TAX 8.875% $1.23\nTOTAL $15.10"), std::nullopt);
    // One rate resolves, the other has amounts but no pair (boxes out of order): the sum would be partial.
    EXPECT_EQ(ex::printed_tax_total("税率\n8%\n6\n10%\n458\n41"), std::nullopt);
    // A discount percentage is no tax rate; a registration number or a date is no amount.
    EXPECT_EQ(ex::printed_tax_total("割引 10%\n-¥50\n卵\n1\n¥228\n¥20"), std::nullopt);
    EXPECT_EQ(ex::printed_tax_total("10%\nT2771137188671\n2020/07/14"), std::nullopt);
    EXPECT_EQ(ex::printed_tax_total(""), std::nullopt);
    EXPECT_EQ(ex::printed_tax_total("\xff\xfe 8% \xc3"), std::nullopt);
}

TEST(PrintedTax, LabelledTaxTotal) {
    EXPECT_EQ(ex::labelled_tax_total("小 計\n¥8,243\n外税8%\n¥421\n外税10%\n¥297\n合計金額\n¥8,961\n"), 718.0);
    EXPECT_EQ(ex::labelled_tax_total("小計 1,645\n外税10% 1b4\n合計 1,809\n"), 164.0);  // same line, OCR digits
    EXPECT_EQ(ex::labelled_tax_total("小計 100\n合計 100\n"), std::nullopt);              // no label
    EXPECT_EQ(ex::labelled_tax_total("外税8%\n外税10%\n¥297\n"), std::nullopt);          // a label without amount
}

TEST(PrintedTax, BaseAboveTheRateAndTaxOfASmallBase) {
    // The table prints a rate's base (and tax) above the rate: 84 * 8 / 108 = 6.2, 930 * 8 / 108 = 68.9.
    EXPECT_EQ(ex::printed_tax_total("税率\n542\n対象額\n税額\n84\n8%\n6\n10%\n458\n41\nクレジット\n542"), 47);
    EXPECT_EQ(ex::printed_tax_total("税率\n対象額\n税額\n930\n68\n8%\nクレジット支払\n930"), 68);
    // A base of 5 yen at 10% carries no tax (0.45 rounded down).
    EXPECT_EQ(ex::printed_tax_total("8%対象計\n3,563円\n(内消費税8%\n263円)\n10%対象計\n5円\n(内消費税10%\n0円)"), 263);
    // The zero tax of a small base alone is no reading (the other rate's line is unread).
    EXPECT_EQ(ex::printed_tax_total("(対象\n4532\n内税\n335)\n(10%対象\n10\n内税\n0)"), std::nullopt);
    // A rate OCR printed as a letter pairs as 8 % when its amounts say so (4532 * 8 / 108 = 335.6).
    EXPECT_EQ(ex::printed_tax_total("(X%対象\n4532\n内税\n335)\n(10%対象\n10\n内税\n0)"), 335);
    // An OCR look-alike before '%' is the rate's digit: 4532 * 8 / 108 = 335.6.
    EXPECT_EQ(ex::printed_tax_total("(B%対象\n4532\n内税\n335)\n(10%対象\n10\n内税\n0)"), 335);
    // Text lines above the rate are not its base.
    EXPECT_EQ(ex::printed_tax_total("小計 930\n8%\n現金"), std::nullopt);
}

TEST(PrintedTax, RateWithoutItsDigitOrItsPercent) {
    // OCR dropped the rate's digit: "(%対象" pairs as 8 % (237 * 8 / 108 = 17.6), not as 10 %.
    EXPECT_EQ(ex::printed_tax_total("(%対象\n237\n内悦\n17)\n(10%対象\n3,124\n内税\n284)\nPayPay支払\n3,361"), 301);
    EXPECT_EQ(ex::printed_tax_total("小計\n¥538\n税率\n対象額\n税額\n% ¥538 ¥39\nクレジット ¥538"), 39);
    // Not on a Latin receipt, and a digitless '%' pairing under neither rate is no reading.
    EXPECT_EQ(ex::printed_tax_total("TAX\n% 538 39\n"), std::nullopt);
    EXPECT_EQ(ex::printed_tax_total("税率\n% ¥538 ¥3\n"), std::nullopt);
    // "外税10" lost its '%': 10 is the rate, not the tax (5130 * 0.1 = 513).
    EXPECT_EQ(ex::printed_tax_total("小 計\n,130\n(10%対象\n5,130)\n外税10\n513\n合計金額\n5,643"), 513);
    EXPECT_EQ(ex::labelled_tax_total("(10%対象\n5,130)\n外税10\n513\n合計金額\n5,643"), 513);
    // "(8対象" lost its '%': 8 is the rate, 128 its base (128 * 8 / 108 = 9.5), not an amount.
    EXPECT_EQ(ex::printed_tax_total("(8対象\n128\n内税\n9)\n(10%対象 58 内税 5)\n交通系IC決済\n186"), 14);
}

TEST(PrintedTax, TaxPrintedBeforeItsBase) {
    // OCR swapped the boxes: 598 * 8 / 108 = 44.3.
    EXPECT_EQ(ex::printed_tax_total("合計金額\n598\n税率\n対象額\n税額\n8%\n44\n598\nお預り現金\n598"), 44);
}

TEST(PrintedTax, TaxBoxMovedPastTheNextRate) {
    // "8% / ¥88 / 10% / ¥6 / ¥468 / ¥42": the 8 % row's tax box after the 10 % rate (88 * 8 / 108 = 6.5).
    EXPECT_EQ(ex::printed_tax_total("合 計\n¥556\n税率\n対象額\n税額\n8%\n¥88\n10%\n¥6\n¥468\n¥42\nお預り\n¥1000"),
              48);
    EXPECT_EQ(ex::printed_tax_total("小計 1160\n税率\n対象額\n税額\n8%\n500\n10%\n37\n660\n60\nQUICPay\n1160"), 97);
    // A stray that is no tax of the open rate's base: no confident total.
    EXPECT_EQ(ex::printed_tax_total("合 計\n¥556\n税率\n対象額\n税額\n8%\n¥88\n10%\n¥30\n¥468\n¥42\nお預り\n¥1000"),
              std::nullopt);
}

TEST(PrintedTax, TaxThatLostADigit) {
    // The 8 % tax lost its 9 (¥14 for ¥194): 2628 * 8 / 108 = 194.7; 683 * 10 / 110 = 62.1.
    EXPECT_EQ(ex::printed_tax_total("合 計\n¥3,311\n(8%対象\n¥2,628\n内税\n¥14)\n(10%対象\n¥683\n内税\n¥62)\n"), 256);
    // "内税 ¥2" under a base of ¥258 at 10 %: 23 included (258 * 10 / 110 = 23.5), where 25 and 26 added would fit
    // too; the line says the tax is included.
    EXPECT_EQ(ex::printed_tax_total("(8%対象\n¥6,209\n内税\n¥459)\n(10%対象 ¥258 内税 ¥2)\nお預かり\n¥7,000\n"), 482);
    // 1838 * 10 / 110 = 167.1: "67" is 167 without its 1.
    EXPECT_EQ(ex::printed_tax_total("合計金額\n\\1,838\n10%象計 \\1,838\n(内消費税10%\n\\67)\n"), 167);
    // No tax of the base has the printed digits with one more: no reading.
    EXPECT_EQ(ex::printed_tax_total("合 計\n¥3,311\n(8%対象\n¥2,628\n内税\n¥17)\n"), std::nullopt);
}

TEST(PrintedTax, DamagedBaseFromTheTotal) {
    // The 8 % base lost a digit (¥86 for ¥836): 3214 - 2378 = 836, 836 * 8 / 108 = 61.9.
    const std::string text = "小 計\n¥3,214\n合計\n¥3,214\n税率\n対象額\n税額\n8%\n¥86\n¥61\n10%\n¥2,378\n¥216\n交通系IC\n¥3,214";
    EXPECT_EQ(ex::printed_tax_total(text), std::nullopt);  // without the total: the 8 % rate has no pair
    EXPECT_EQ(ex::printed_tax_total(text, {3214}), 277);
    EXPECT_EQ(ex::printed_tax_total(text, {3000}), std::nullopt);  // 622 carries no tax of 61
    // Two amounts fit the base the total leaves (270 at 10 %: 27 added, 24 included): the one taxed as the other
    // rate is (318 at 8 %: 23 included).
    EXPECT_EQ(ex::printed_tax_total("お買上計\n588円\n税率\n対象額\n税額\n8%\n318円\n23円\n10% 27円 24円\niD\n588円\n",
                                    {588}),
              47);
    // A single rate: its base is the total (578 * 8 / 108 = 42.8).
    EXPECT_EQ(ex::printed_tax_total("合計\n\\578\n税率\n対象額\n税額\n\\58\n8%\n\\42\n現金\n\\1000", {578}), 42);
}

TEST(PrintedTax, DiscountRateIsNoTaxRate) {
    // "割引 / 30% / -91": the discount's rate in a box of its own starts no tax row.
    const auto lines = ex::printed_tax_lines("割引\n30%\n-91内\n小計\n2419円\n税率\n対象額\n税額\n8%\n664円\n49円\n"
                                             "10%\n1755円\n159円\n");
    ASSERT_TRUE(lines);
    ASSERT_EQ(lines->size(), 2u);
    EXPECT_EQ((*lines)[0].tax + (*lines)[1].tax, 208);
}

TEST(PrintedTax, TaxIncludedLabels) {
    EXPECT_TRUE(ex::prints_tax_included("(内消費税等 109円)"));
    EXPECT_TRUE(ex::prints_tax_included("(内消税等 109円)"));  // 費 lost
    EXPECT_TRUE(ex::prints_tax_included("8%対象 ¥540 内税 ¥40"));
    EXPECT_FALSE(ex::prints_tax_included("外税10% ¥16\n消費税等 ¥211"));
}

TEST(PrintedTax, IncludedTaxOverAllRates) {
    EXPECT_EQ(ex::included_tax_total("合計\n¥920\n(内消費税等\n¥68)\n"), 68);
    EXPECT_EQ(ex::included_tax_total("お会計 ¥920 (内消費税等 ¥68)\n"), 68);
    EXPECT_EQ(ex::included_tax_total("合計\n\\12759\n(内消税等\n\\1009)\n"), 1009);  // 費 lost
    EXPECT_EQ(ex::included_tax_total("(8%対象 ¥540 内税 ¥40)\n"), std::nullopt);     // a per-rate line
    EXPECT_EQ(ex::included_tax_total("(内消費税等\nお預り ¥1,000 ¥500\n"), std::nullopt);  // no amount of its own
    // 税 read as its look-alike 悦; a payment's name between the label and its amount, which closes the parenthesis.
    EXPECT_EQ(ex::included_tax_total("合 計\n57,646\n(内消費悦等\n5,240)\n"), 5240);
    EXPECT_EQ(ex::included_tax_total("合 計\n1,378\n(内消費税等\n楽天Edy\n102)\n1,378\n"), 102);
    EXPECT_EQ(ex::included_tax_total("合 計\n1,378\n(内消費税等\n楽天Edy\n1,378\n"), std::nullopt);
    EXPECT_TRUE(ex::prints_tax_word("(内消費悦等\n"));
    // 消 and 等 lost as well ("内費悦"); "内費税8%" is a per-rate label.
    EXPECT_EQ(ex::included_tax_total("合計金額\n\\2,248\n(内費悦\n\\204)\n現金\n"), 204);
    EXPECT_TRUE(ex::prints_tax_word("(内費悦\n"));
    EXPECT_TRUE(ex::prints_tax_included("(内費悦\n"));
    EXPECT_EQ(ex::included_tax_total("(内費税8%\n\\40)\n"), std::nullopt);
    EXPECT_FALSE(ex::prints_tax_word("喜悦\n合計 ¥100\n"));
    EXPECT_EQ(ex::included_tax_total("合計\n¥920\n"), std::nullopt);
    // One label per rate: their sum.
    EXPECT_EQ(ex::included_tax_total("8%対象計\n\\7174\n(内消費税8%\n\\531)\n1%対象計\n\\2518\n(内消費税10%\n\\228)\n"),
              759);
}
