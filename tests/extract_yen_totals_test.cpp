// The net amount and total of a yen receipt checked by their arithmetic (extract/yen_totals.h).
#include <gtest/gtest.h>

#include <string>

#include "extract/yen_totals.h"

namespace ex = receipt::extract;

TEST(YenTotals, TotalFromTheNetAmountAndThePaymentLine) {
    // Tax included: OCR dropped a digit of the total line (¥131); the payment line prints the subtotal again.
    const std::string included = "小計 (5点)\n¥1341\nお買上計\n¥131\n(内消費税等\n¥109)\nWAON決済\n¥1341\n";
    EXPECT_EQ(ex::yen_total_from_net(included, 1341, std::nullopt), 1341);
    // Tax added: net + tax (8069 + 676) is the amount paid; the total line lost a digit.
    const std::string added = "小 計 (32点)\n8,069円\n外税8%\n519円\n外税10%\n157円\n合計\n8,75円\n交通系IC決済\n8,745円\n";
    EXPECT_EQ(ex::yen_total_from_net(added, 8069, 676), 8745);
    // The total line lost a digit ("\1,19" no longer reads as a number) and a 対象 line prints the net again: net +
    // the 外税 amount, printed with the digit lost.
    const std::string lost = "小 計\n\\1,109\n8%対象\n\\1,109)\n外税8%\n\\88\nお買上計\n\\1,19\nPayPay決済\n\\1,7\n";
    EXPECT_EQ(ex::yen_total_from_net(lost, 1109, 88), 1197);
    // The subtotal keyword over two boxes ("小" / "計") and the total that lost its first digit ("¥,558").
    EXPECT_EQ(ex::yen_total_from_net("パン\n¥189\n小\n計\n¥4,144\n(10%対象\n¥4,144)\n外税10%\n¥414\nお会計\n¥,558\n"
                                     "お預り現金\n¥5,000\nおつり ¥42\n",
                                     4144, 414),
              4558);
    EXPECT_EQ(ex::yen_total_from_net(lost, 1109, 87), 1109);  // 87 is no 外税 amount printed
    // Nothing printed below the subtotal matches, or no subtotal line.
    EXPECT_EQ(ex::yen_total_from_net("小計\n¥500\n合計\n¥50\n", 500, 40), std::nullopt);
    EXPECT_EQ(ex::yen_total_from_net("合計\n¥500\n現金\n¥500\n", 500, std::nullopt), std::nullopt);
    EXPECT_EQ(ex::yen_total_from_net("", 0, std::nullopt), std::nullopt);
}

TEST(YenTotals, NetFromTheTotalLessTheAddedTax) {
    // The subtotal's amount moved above its keyword ("¥871 / 小 計"): 949 - 34 - 44 = 871 is printed.
    const std::string text = "¥871\n小 計\n外税8%\n¥34\n外税10%\n¥44\n合計\n¥949\n";
    EXPECT_EQ(ex::yen_net_from_total(text, 949, 78), 871);
    EXPECT_EQ(ex::yen_net_from_total(text, 949, 77), std::nullopt);  // 872 is not printed
    EXPECT_EQ(ex::yen_net_from_total(text, 949, 0), std::nullopt);
    EXPECT_EQ(ex::yen_net_from_total(text, 40, 78), std::nullopt);
}

TEST(YenTotals, TotalThatLostADigit) {
    // Tax included: the total line lost the 7 of 739, the subtotal prints it.
    const std::string included = "小計 (3点)\n739円\nお買上計\n39円\n現金\n1,000円\n";
    EXPECT_EQ(ex::yen_total_digit_back(included, 39, 739, std::nullopt), 739);
    // Tax added: 282 + 22 = 304, printed on the payment line.
    const std::string added = "小計\n¥282\n外税8%\n¥22\n合計金額\n¥30\nQUICPay決済\n¥304\n";
    EXPECT_EQ(ex::yen_total_digit_back(added, 30, 282, 22), 304);
    EXPECT_EQ(ex::yen_total_digit_back(added, 31, 282, 22), std::nullopt);  // 31 is not 304 with a digit lost
    // 304 must be printed somewhere.
    EXPECT_EQ(ex::yen_total_digit_back("小計\n¥282\n外税8%\n¥22\n合計金額\n¥30\n", 30, 282, 22), std::nullopt);
    // Or tendered less change makes it: 1130 + 32 + 72 = 1234 = 2000 - 766.
    const std::string change = "小計 (6点)\n1130\n外税8%\n32\n外税10%\n72\n合 計\n123\nお預り現金\n2000\nお釣\n766\n";
    EXPECT_EQ(ex::yen_total_digit_back(change, 123, 1130, 104), 1234);
    EXPECT_EQ(ex::yen_total_digit_back(change, 123, 1130, 105), std::nullopt);  // 1235 is neither printed nor paid
    // No subtotal: the per-rate base (tax included) is the total.
    const std::string bases = "お会計\n¥74\n税率\n対象額\n税額\n8%\n¥734\n¥54\nnanaco\n¥734\n";
    EXPECT_EQ(ex::yen_total_digit_back(bases, 74, std::nullopt, std::nullopt), 734);
    EXPECT_EQ(ex::yen_total_digit_back(bases, 734, std::nullopt, std::nullopt), std::nullopt);
    // Nothing to add up (no subtotal, no per-rate bases): the amount paid, when it is the total with a digit back.
    const std::string paid = "合 計\n¥1,328\n(内消費税等\n¥1,1S1)\nPayPay\n¥14,328\n";
    EXPECT_EQ(ex::yen_total_digit_back(paid, 1328, std::nullopt, std::nullopt), 14328);
    EXPECT_EQ(ex::yen_total_digit_back(paid, 1329, std::nullopt, std::nullopt), std::nullopt);
    // The arithmetic and the amount paid both fit and differ: nothing is put back.
    const std::string both = "小計\n¥1,328\n合計\n¥328\nPayPay\n¥3,328\n";
    EXPECT_EQ(ex::yen_total_digit_back(both, 328, 1328, std::nullopt), std::nullopt);
}

TEST(YenTotals, TotalFromThePerRateBases) {
    // No total read ("お買上計 ¥13,69" is a broken group): 11,445 + 2,247 is printed on the payment line.
    const std::string two = "お買上計\n¥13,69\n税率\n対象額\n税額\n8%\n¥11,44S\n¥847\n10%\n¥2,247\n¥204\nPayPay\n¥13,692\n";
    EXPECT_EQ(ex::yen_total_from_bases(two, false), 13692);
    EXPECT_EQ(ex::yen_total_from_bases(two, true), std::nullopt);  // 14,743 is not printed
    // One rate prints the total as its base: it must be printed once more. 外税: base + tax.
    const std::string one = "小計\n¥1,045\n(8%対象\n¥1,045)\n外税8%\n¥83\n合言金額\n¥1,128\nnanaco\n¥1,128\n";
    EXPECT_EQ(ex::yen_total_from_bases(one, true), 1128);
    EXPECT_EQ(ex::yen_total_from_bases("(8%対象\n¥1,045\n内税\n¥77)\n", false), std::nullopt);
    EXPECT_EQ(ex::yen_total_from_bases("合計\n¥100\n", false), std::nullopt);
}

TEST(YenTotals, NetFromThePerRateBases) {
    // Tax included: the bases 140 + 85 are the total; OCR dropped a digit of the subtotal (¥25).
    const std::string included = "小計 (2点)\n¥25\nお会計\n¥225\n税率\n対象額\n税額\n¥140\n8%\n¥10\n10%\n¥85\n¥7\niD決済\n¥225";
    EXPECT_EQ(ex::yen_net_from_bases(included, 225), 225);
    // Tax added: the bases 4634 + 1941 and their taxes 370 + 194 make the total.
    const std::string added = "小 計 (24点)\n\\657\n(8%対象\n\\4634)\n外税8%\n\\370\n(10%対象\n\\1941)\n外税10%\n\\194\n"
                              "合計金額 \\7139";
    EXPECT_EQ(ex::yen_net_from_bases(added, 7139), 6575);
    EXPECT_EQ(ex::yen_net_from_bases(added, 7000), std::nullopt);  // they do not add up to it
    EXPECT_EQ(ex::yen_net_from_bases("小計\n¥500\n合計\n¥500\n", 500), std::nullopt);  // no tax lines
    // 外税: 76 is 8 % of the net 961 and also 8/108 of the total 1,037, which is then read as a base. A receipt
    // that adds its tax has no base equal to its total.
    EXPECT_EQ(ex::yen_net_from_bases("小 計 \\961\n外税8%\n\\76\n合計金額\n\\1,037\nWAON決済\n\\1,037\n", 1037),
              std::nullopt);
}

TEST(YenTotals, PaidAmountFromThePaymentLines) {
    // A cashless payment line, its amount on the line or alone on the next one; the balance line is no payment.
    const auto id = ex::yen_paid_amount("お買上計\n¥300\n¥3,870\niD決済\n¥3,870\n残高\n¥1,200\n");
    ASSERT_TRUE(id.has_value());
    EXPECT_EQ(id->value, 3870);
    EXPECT_FALSE(id->from_change);
    EXPECT_EQ(id->printed, 2);
    EXPECT_EQ(ex::yen_paid_amount("合計 165円\nPayPay決済 165円\n")->value, 165);
    // Tendered less change (お預かり / おつり, 現金 / お釣り).
    const auto cash = ex::yen_paid_amount("合計\n\\665軽\n\\2,279\nお預かり\n\\3,000\nおつり\n\\721\n");
    ASSERT_TRUE(cash.has_value());
    EXPECT_EQ(cash->value, 2279);
    EXPECT_TRUE(cash->from_change);
    EXPECT_EQ(cash->printed, 1);
    EXPECT_EQ(ex::yen_paid_amount("現金 ¥1,000\nお釣り ¥146\n")->value, 854);
    // An item that names a card is no payment line; readings that disagree give nothing.
    EXPECT_EQ(ex::yen_paid_amount("SDカード 64GB\n¥1,980\n合計 ¥1,980\n"), std::nullopt);
    EXPECT_EQ(ex::yen_paid_amount("WAON決済 ¥500\nお預り ¥1,000\nお釣り ¥400\n"), std::nullopt);
    EXPECT_EQ(ex::yen_paid_amount("合計 ¥500\n"), std::nullopt);
}
