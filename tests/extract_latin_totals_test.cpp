// Printed subtotal, tax and total that add up, the subtotal and tax lines' amounts (extract/latin_totals.h), and
// the net amount check that reads the subtotal line (extract/latin_checks.h).
#include <gtest/gtest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "extract/latin_checks.h"
#include "extract/latin_totals.h"

namespace ex = receipt::extract;

namespace {

// printed_totals_that_add_up(text) reads net + tax = total.
void expect_totals(const std::string& text, double net, double tax, double total) {
    const auto t = ex::printed_totals_that_add_up(text);
    ASSERT_TRUE(t) << text;
    EXPECT_DOUBLE_EQ(t->net, net);
    EXPECT_DOUBLE_EQ(t->tax, tax);
    EXPECT_DOUBLE_EQ(t->total, total);
}

}  // namespace

TEST(LatinTotals, SubtotalTaxAndTheirSum) {
    const auto t = ex::printed_totals_that_add_up(
        "SHOP\n1x MILO 1KG\n$23.95\nSUB TOTAL\n$284.78\nTAX 10.1%\n$28.76\nGRAND TOTAL\n$33.54\nAMEX\n$313.54\n");
    ASSERT_TRUE(t);
    EXPECT_DOUBLE_EQ(t->net, 284.78);
    EXPECT_DOUBLE_EQ(t->tax, 28.76);
    EXPECT_DOUBLE_EQ(t->total, 313.54);
    // Keywords as OCR damages them, and the sum printed with a comma for the point.
    const auto d = ex::printed_totals_that_add_up("5UB TOTAL\n$290.78\nTA @10.1%\n$29.37\nBLANC DUE\n$320,15\n");
    ASSERT_TRUE(d);
    EXPECT_DOUBLE_EQ(d->total, 320.15);
    // Two keyword lines, then their two amounts.
    expect_totals("SUB TOTAL\nSST 6%\nRM38.95\nRM2.34\nTotal (Inclusive GST)\nRM41.29\n", 38.95, 2.34, 41.29);
    const auto e = ex::printed_totals_that_add_up("TOTAL SALES (EXCLUDING GST)\n128.03\nTAX 8.875%\n$11.36\nTotal\n$139.39\n");
    ASSERT_TRUE(e);
    EXPECT_DOUBLE_EQ(e->net, 128.03);
    // OCR boxes of a colon and the currency between each keyword and its amount (SROIE).
    expect_totals("SUB TOTAL\n:\nRM\n68.87\nSERVICE CHARGE\n:\nRM\n0.00\nGST/TAX 6%\n:\nRM\n4.13\nTO\n:\nRM\n73.00\n",
                  68.87, 4.13, 73.00);
    expect_totals("SUB-TOTAL (EX)\n:\n26.00\nTOTAL TAX\n: RM\n1.56\nTOTAL\n27.56\n", 26.00, 1.56, 27.56);
    // At most two such boxes; a line with words is no separator.
    EXPECT_FALSE(ex::printed_subtotal("SUB TOTAL\n:\nRM\n:\n68.87\n"));
    EXPECT_FALSE(ex::printed_subtotal("SUB TOTAL\nCASH\n68.87\n"));
    EXPECT_EQ(ex::printed_subtotal("SUB TOTAL\n:\nRM\n68.87\n"), 68.87);
}

TEST(LatinTotals, NoReadingThatDoesNotAddUp) {
    EXPECT_FALSE(ex::printed_totals_that_add_up("SUB TOTAL\n$284.78\nTAX 10.1%\n$28.76\nTOTAL\n$313.55\n"));
    EXPECT_FALSE(ex::printed_totals_that_add_up("SUB TOTAL\n$284.78\nTOTAL\n$284.78\n"));  // no tax line
    EXPECT_FALSE(ex::printed_totals_that_add_up("SUB TOTAL\n284\nTAX 10%\n28.40\nTOTAL\n312.40\n"));  // no cents
    // The sum must be printed below the tax line.
    EXPECT_FALSE(ex::printed_totals_that_add_up("$313.54\nSUB TOTAL\n$284.78\nTAX 10.1%\n$28.76\n"));
    EXPECT_FALSE(ex::printed_totals_that_add_up("小計\n1,000\n消費税 10%\n100\n合計\n1,100\n"));
}

TEST(LatinTotals, TaxLineAmount) {
    // VAT included in the total: 32.65 x 20 / 120 = 5.44.
    EXPECT_EQ(ex::printed_tax_line_amount("VAT 20%\n£5.44\nTotal (Inclusive GST)\n£32.65\n"), 5.44);
    // Tax added to the net: 94.33 x 6% = 5.66.
    EXPECT_EQ(ex::printed_tax_line_amount("SUB TOTAL\n94.33\nSST @6%\n5.66\nTOTAL\n99.99\n"), 5.66);
    EXPECT_EQ(ex::printed_tax_line_amount("GST @6% INCLUDED IN TOTAL\nRM 0.70\nTOTAL\n12.30\n"), 0.70);
    // A tax summary's amount taxed and a 0% line are no tax; a line without a rate is taken as printed.
    EXPECT_EQ(ex::printed_tax_line_amount("TOTAL\n15.00\nGST 6%\n15.00\n"), std::nullopt);
    EXPECT_EQ(ex::printed_tax_line_amount("GST SR@0%\n7.16\n"), std::nullopt);
    EXPECT_EQ(ex::printed_tax_line_amount("TOTAL GST\n2.37\n"), 2.37);
    // Two tax lines that differ, or one whose amount is not read: undecided.
    EXPECT_EQ(ex::printed_tax_line_amount("TOTAL GST\n2.37\nTOTAL TAX\n2.40\n"), std::nullopt);
    EXPECT_EQ(ex::printed_tax_line_amount("TOTAL GST\nTHANK YOU\n"), std::nullopt);
    EXPECT_EQ(ex::printed_tax_line_amount("消費税 10%\n100円\n"), std::nullopt);
    // OCR's comma for the decimal point of an amount with two decimals: 2.38 x 20 / 120 = 0.40.
    EXPECT_EQ(ex::printed_tax_line_amount("Sub-Total\n£2.38\nVAT 20%\n£0,40\nGRAND TOTAL\n£2.38\n"), 0.40);
    EXPECT_EQ(ex::printed_subtotal("SUB TOTAL\n$19,62\n"), 19.62);
    // A thousands comma (three digits after it) stays one.
    EXPECT_EQ(ex::printed_subtotal("SUB TOTAL\n$1,962.00\n"), 1962.00);
}

TEST(LatinTotals, SubtotalKeywordAsOcrLeavesIt) {
    EXPECT_EQ(ex::printed_subtotal("SUB T0TAL\n$6.88\nTX 8.25%\n"), 6.88);
    EXPECT_EQ(ex::printed_subtotal("SU8TOTAL\n46.81\nSST 6%\n2.81\n"), 46.81);
    EXPECT_EQ(ex::printed_subtotal("UBTOTAL\n£2.58\nVAT 20%\n"), 2.58);
    EXPECT_EQ(ex::printed_subtotal("OTAL SALES (EXCLUDING GST)\n$23.39\n"), 23.39);
    // The closing bracket lost: the amount after the keyword is still read.
    EXPECT_EQ(ex::printed_subtotal("TOTAL SALES (EXCLUDING GST $45.58\nTAX @8.25%\n"), 45.58);
    EXPECT_EQ(ex::printed_subtotal("CLUBTOTAL\n$2.58\n"), std::nullopt);
}

TEST(LatinTotals, SubtotalAmountPrintedAboveItsKeyword) {
    expect_totals("15.40 T\n$53.54\nSUB TOTAL\nTAX @7%\n$3.75\nTOTAL AMOUNT\n$57.29\n", 53.54, 3.75, 57.29);
    expect_totals("$133.43\nSUBTOTAL\nTAX @8.875% $11.84\nTOTAL\n$145.27\n", 133.43, 11.84, 145.27);
    // The amount above is the last item's: no sum printed below matches it.
    EXPECT_FALSE(ex::printed_totals_that_add_up("$3.10\nSUB TOTAL\nTAX @7%\n$3.75\nTOTAL AMOUNT\n$57.29\n"));
}

TEST(LatinTotals, SubtotalLineAmount) {
    EXPECT_EQ(ex::printed_subtotal("1x STORAGE BOX\n12.75\nSub-Total\nRM44.85\nBALANCE DUE\nRM44.85\n"), 44.85);
    EXPECT_EQ(ex::printed_subtotal("SUBTOTAL $23.10\nTAX 8%\n$1.85\n"), 23.10);
    EXPECT_EQ(ex::printed_subtotal("TOTAL SALES (EXCLUDING GST) :\n80.91\nDISCOUNT :\n0.00\n"), 80.91);
    // The first subtotal line only; none without an amount with cents after it, none in CJK text.
    EXPECT_EQ(ex::printed_subtotal("SUB TOTAL\nTHANK YOU\n"), std::nullopt);
    EXPECT_EQ(ex::printed_subtotal("SUB TOTAL\n21\n"), std::nullopt);
    EXPECT_EQ(ex::printed_subtotal("TOTAL\n21.00\n"), std::nullopt);
    EXPECT_EQ(ex::printed_subtotal("小計 SUBTOTAL\n1,000\n"), std::nullopt);
    // A letter of SALES lost; the bracket's rest on a line of its own.
    EXPECT_EQ(ex::printed_subtotal("TOTAL SALS (EXCLUDING GST)\n$93.93\nTAX 8.875%\n$8.34\n"), 93.93);
    EXPECT_EQ(ex::printed_subtotal("TOTAL SALES (EXCLUDING\nGST)\nRM134.95\nTOTAL AMOUNT\nRM134.95\n"), 134.95);
    EXPECT_EQ(ex::printed_subtotal("SUB TOTAL\nGST)\n12.00\n"), std::nullopt);  // no bracket left open
}

TEST(LatinTotals, NetAmountFromTheSubtotalLine) {
    auto net_after = [](const std::string& text, nlohmann::ordered_json net,
                        nlohmann::ordered_json total = nullptr) {
        nlohmann::ordered_json f = {{"net_amount", net}, {"total_tax_amount", nullptr}, {"total_amount", total},
                                    {"line_items", nlohmann::ordered_json::array()},
                                    {"warnings", nlohmann::ordered_json::array()}};
        ex::check_latin_totals(text, f);
        return f["net_amount"];
    };
    const std::string text = "1x STORAGE BOX\n12.75\nSub-Total\nRM44.85\nBALANCE DUE\nRM44.85\n";
    EXPECT_EQ(net_after(text, 12.75), 44.85);    // an item's amount
    EXPECT_EQ(net_after(text, nullptr), 44.85);  // none written
    EXPECT_EQ(net_after(text, 44.85), 44.85);
    // The printed subtotal lost digits (3.95 for 34.95): the model's net stands; a net above the total does not.
    EXPECT_EQ(net_after("SUB TOTAL\n3.95\nTOTAL\n34.95\n", 34.95), 34.95);
    EXPECT_EQ(net_after("SUB TOTAL\n3.95\nTOTAL\n34.95\n", 34.95, 34.95), 34.95);
    EXPECT_EQ(net_after("Sub-Total $71.61\nTX 7%\n$5.01\nTOTAL AMOUNT\n$7.62\n", 4594, 71.61), 71.61);
}

TEST(LatinTotals, NetWithoutCentsAboveTheTotal) {
    auto net_after = [](nlohmann::ordered_json net, double tax, double total) {
        nlohmann::ordered_json f = {{"net_amount", net}, {"total_tax_amount", tax}, {"total_amount", total},
                                    {"line_items", nlohmann::ordered_json::array()},
                                    {"warnings", nlohmann::ordered_json::array()}};
        ex::check_latin_totals("ITEMS\nTAX 8.875%\n$13.26\nBALANCE DUE\n$162.62\n", f);
        return f["net_amount"];
    };
    EXPECT_EQ(net_after(14936, 13.26, 162.62), 149.36);  // "$14936": the point lost
    EXPECT_EQ(net_after(47500, 13.26, 162.62), nullptr);  // a postcode
    EXPECT_EQ(net_after(170, 13.26, 162.62), 170);        // a net above the total (a coupon after it) stays
}

TEST(LatinTotals, StatesTax) {
    // A rate with at most an amount after it, OCR damage to the tax word included.
    EXPECT_TRUE(ex::states_tax("SUBTOTAL\n£21.48\nVAT 20%\n£3.58\n"));
    EXPECT_TRUE(ex::states_tax("TA @6.25%\n$2.3S\n"));
    EXPECT_TRUE(ex::states_tax("ST 6% RM0.59\n"));
    EXPECT_TRUE(ex::states_tax("SR @ 6% 15.00 0.90\n"));
    // A tax word with an amount; a note that states the rate.
    EXPECT_TRUE(ex::states_tax("SALES TAX $2.35\n"));
    EXPECT_TRUE(ex::states_tax("TOTAL GST\n0.59\n"));
    EXPECT_TRUE(ex::states_tax("TAKEOUT TOTAL (INCL GST)\nTOTAL INCLUDES 6% GST\n1.51\n"));
    EXPECT_TRUE(ex::states_tax("(BILL INCLUSIVE OF 6% GST : RM2.21)\n"));
    // Identifiers, the invoice title, notes without a rate and an item's percent state none.
    EXPECT_FALSE(ex::states_tax("WAITROSE\nVAT No. GB 776 9644 91\nTAX INVOICE\nMILK 2% GAL\n3.49\nTOTAL\n£3.49\n"));
    EXPECT_FALSE(ex::states_tax("GST ID NO : 152313796774\nGST IDNO : 450572655111\nVAT N0. GB 574 4476 36\n"));
    EXPECT_FALSE(ex::states_tax("TEL: 03-9409 9994\nGST\nID NO : 529726865033\nTotal (InclusiveGST)\n151.87\n"));
    EXPECT_FALSE(ex::states_tax("TOTAL SALES (EXCLUDING\nGST)\nRM134.95\n"));
    EXPECT_FALSE(ex::states_tax(""));
}

TEST(LatinTotals, ATaxTheReceiptDoesNotStateIsDropped) {
    auto tax_after = [](const std::string& text, nlohmann::ordered_json tax) {
        nlohmann::ordered_json f = {{"net_amount", nullptr}, {"total_tax_amount", tax}, {"total_amount", 21.48},
                                    {"line_items", nlohmann::ordered_json::array()},
                                    {"warnings", nlohmann::ordered_json::array()}};
        ex::check_latin_totals(text, f);
        return f["total_tax_amount"];
    };
    // A VAT-inclusive receipt without a VAT line: the model's 1/6 of the total, or a unit price, is no stated tax.
    const std::string text = "WAITROSE\nVAT No. GB 387 4628 23\nORANGE JUICE\n£21.48\n6 @ 3.58\nTOTAL\n£21.48\n";
    EXPECT_EQ(tax_after(text, 3.58), nullptr);
    EXPECT_EQ(tax_after(text, nullptr), nullptr);
    EXPECT_EQ(tax_after(text + "VAT 20%\n£3.58\n", 3.58), 3.58);
}

TEST(LatinTotals, TotalWithADigitLost) {
    // Net + tax: "RM0.85" printed for 29.10 + 1.75 = 30.85.
    const std::string added = "SUBTOTAL\nRM29,10\nGST 6%\nRM1.75\nTOTAL\nRM0.85\nCASH\nRM50.00\n";
    EXPECT_EQ(ex::latin_total_digit_back(added, 0.85, 29.10, 1.75), 30.85);
    // Tax included at the printed rate: 70.16 x 20 / 120 = 11.69; no other digit put back fits.
    const std::string included = "VAT @20%\n\u00a311.69\nBALANCE DUE\n\u00a30.16\nCash\n\u00a380.00\n";
    EXPECT_EQ(ex::latin_total_digit_back(included, 0.16, std::nullopt, 11.69), 70.16);
    // Nothing to put back: the sum has two digits more, the net is not printed, the total is not printed.
    EXPECT_EQ(ex::latin_total_digit_back(added, 0.85, 129.10, 1.75), std::nullopt);
    EXPECT_EQ(ex::latin_total_digit_back("TAX 6%\nRM1.75\nTOTAL\nRM0.85\n", 0.85, 29.10, 1.75), std::nullopt);
    EXPECT_EQ(ex::latin_total_digit_back(added, 3.85, 29.10, 1.75), std::nullopt);
    // Without a printed rate there is nothing to fit.
    EXPECT_EQ(ex::latin_total_digit_back("VAT\n\u00a311.69\nDUE\n\u00a30.16\n", 0.16, std::nullopt, 11.69), std::nullopt);
    EXPECT_EQ(ex::latin_total_digit_back("小計\n29.10\n税 6%\n1.75\n合計\n0.85\n", 0.85, 29.10, 1.75), std::nullopt);
}

TEST(LatinTotals, NetWithADigitLost) {
    // Tax added: "RM9.50" printed for 105.47 - 5.97 = 99.50.
    const std::string added = "TOTAL SALES (EXCLUDING GST)\nRM9.50\nGST 6%\nRM5.97\nTOTAL\nRM105.47\n";
    EXPECT_EQ(ex::latin_net_digit_back(added, 9.50, 105.47, 5.97), 99.50);
    // Tax included: "RM6.30" printed for the total 46.30.
    const std::string included = "Sub-Total\nRM6.30\nGST\nRM2.62\nTOTAL (Inclusive GST)\nRM46.30\n";
    EXPECT_EQ(ex::latin_net_digit_back(included, 6.30, 46.30, 2.62), 46.30);
    // A rounded total: 120.35 - 6.81 + 0.01 = 113.55 with a rounding line printed, not without.
    const std::string rounded = "Sub-Total\n13.55\nGST\n6.81\nROUNDED TOTAL (RM):\n120.35\n";
    EXPECT_EQ(ex::latin_net_digit_back(rounded, 13.55, 120.35, 6.81), 113.55);
    EXPECT_EQ(ex::latin_net_digit_back("Sub-Total\n13.55\nGST\n6.81\nTOTAL\n120.35\n", 13.55, 120.35, 6.81),
              std::nullopt);
    // No digit put back fits, the net is not printed, or the text is Japanese.
    EXPECT_EQ(ex::latin_net_digit_back(added, 8.50, 105.47, 5.97), std::nullopt);
    EXPECT_EQ(ex::latin_net_digit_back("GST 6%\nRM5.97\nTOTAL\nRM105.47\n", 9.50, 105.47, 5.97), std::nullopt);
    EXPECT_EQ(ex::latin_net_digit_back("小計\n9.50\n税\n5.97\n合計\n105.47\n", 9.50, 105.47, 5.97), std::nullopt);
}

TEST(LatinTotals, TaxFromTheNetAndTotal) {
    // The difference printed: 38.14 + 3.38 = 41.52.
    const std::string printed = "TOTAL SALES (EXCLUDING GST)\n$38.14\n$3.38\nTAX 8.875%\n$41.52\n";
    EXPECT_EQ(ex::latin_tax_from_totals(printed, 38.14, 41.52), 3.38);
    // Not printed, but 7% of 17.73 is 1.24.
    EXPECT_EQ(ex::latin_tax_from_totals("SUBTOTAL\n$17.73\nTAX 7\n%\n$18.97\n", 17.73, 18.97), std::nullopt);
    EXPECT_EQ(ex::latin_tax_from_totals("SUBTOTAL\n$17.73\nTAX 7%\n$18.97\n", 17.73, 18.97), 1.24);
    // A rounding adjustment, or a change amount away from any tax word, is no tax.
    EXPECT_EQ(ex::latin_tax_from_totals("SUBTOTAL\nRM41.53\nROUNDING\n0.02\nTOTAL\nRM41.55\n", 41.53, 41.55),
              std::nullopt);
    EXPECT_EQ(ex::latin_tax_from_totals("SUBTOTAL\nRM90.50\nTOTAL\nRM100.00\nCASH\nRM100.00\nCHANGE DUE\nRM9.50\n",
                                        90.50, 100.00),
              std::nullopt);
    // Neither printed nor a printed rate; more than 30% of the net; the net not printed; Japanese.
    EXPECT_EQ(ex::latin_tax_from_totals("SUBTOTAL\n$17.73\nTAX\n$18.97\n", 17.73, 18.97), std::nullopt);
    EXPECT_EQ(ex::latin_tax_from_totals("SUBTOTAL\n$7.73\n$11.24\nTOTAL\n$18.97\n", 7.73, 18.97), std::nullopt);
    EXPECT_EQ(ex::latin_tax_from_totals("$3.38\nTAX 8.875%\n$41.52\n", 38.14, 41.52), std::nullopt);
    EXPECT_EQ(ex::latin_tax_from_totals("小計\n38.14\n税\n3.38\n合計\n41.52\n", 38.14, 41.52), std::nullopt);
}

TEST(LatinTotals, ATotalThatLostADigitNeedsAPlausibleTax) {
    auto total_after = [](const std::string& text, double net, double tax, double total) {
        nlohmann::ordered_json f = {{"net_amount", net}, {"total_tax_amount", tax}, {"total_amount", total},
                                    {"line_items", nlohmann::ordered_json::array()},
                                    {"warnings", nlohmann::ordered_json::array()}};
        ex::check_latin_totals(text, f);
        return f["total_amount"];
    };
    // The printed total lost its 9: the net and a 6% tax make it.
    EXPECT_EQ(total_after("SUB TOTAL\n150.00\nGST 6%\n9.00\nTOTAL\n15.00\n", 150, 9, 15), 159);
    // A tax above 30% of the net is the model's mistake, not the total's: 75.00 stays.
    EXPECT_EQ(total_after("SUB-TOTAL 75.00\nTOTAL SALES INCL GST 75.00\nCASH 100.00\nGST SUMMARY AMOUNT TAX\n"
                          "SR @ 6% 70.75 4.25\n",
                          75, 100, 75),
              75);
}
