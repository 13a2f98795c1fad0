// Latin-script item rows in layouts that OCR moved or damaged, and the checks that take them over the model's items
// (extract/latin_item_rows.h, extract/item_checks.h).
#include <gtest/gtest.h>

#include <string>
#include <tuple>
#include <vector>

#include <nlohmann/json.hpp>

#include "extract/item_checks.h"
#include "extract/latin_item_rows.h"
#include "extract/latin_row_lines.h"
#include "extract/latin_rows_add_up.h"

namespace ex = receipt::extract;

namespace {

using Row = std::tuple<std::string, double>;  // description, amount

std::vector<Row> rows_of(const std::vector<ex::ItemRow>& rows) {
    std::vector<Row> out;
    for (const auto& r : rows) out.emplace_back(r.description, r.amount);
    return out;
}

std::vector<Row> items_of(const nlohmann::ordered_json& items) {
    std::vector<Row> out;
    for (const auto& it : items) out.emplace_back(it["description"].get<std::string>(), it["amount"].get<double>());
    return out;
}

nlohmann::ordered_json item(const std::string& description, double amount) {
    return {{"description", description}, {"quantity", 1}, {"unit_price", amount}, {"amount", amount}};
}

nlohmann::ordered_json fields(const nlohmann::ordered_json& items, double net, double total) {
    return {{"line_items", items}, {"net_amount", net}, {"total_amount", total},
            {"warnings", nlohmann::ordered_json::array()}};
}

}  // namespace

TEST(LatinItemChecks, TwoDescriptionsThenTheirTwoAmounts) {
    // Without counts: the second amount has no row of its own, the next line being a row with its amount.
    const std::string text = "WAITROSE\n1/06/2024\n10:01:54\nOPERATOR\n38265\nMILO 1KG\n26.91\n"
                             "CHICKEN BREAST\nTOMATO SAUC\n8.49\n£2.29\nMAGGI CURRY 5S\n5.22\n"
                             "Sub-Total\n£42.91\nTOTAL\n£42.91\n";
    const auto read = ex::read_latin_item_rows(text);
    ASSERT_TRUE(read);
    EXPECT_EQ(rows_of(read->rows), (std::vector<Row>{{"MILO 1KG", 26.91},
                                                     {"CHICKEN BREAST", 8.49},
                                                     {"TOMATO SAUC", 2.29},
                                                     {"MAGGI CURRY 5S", 5.22}}));
    // A count before the first, a discount second; the next row prints its amount on its line.
    const std::string discount = "SHOP\n1/05/2023\n16:51:02\nTRANS#\n27706\n1x CHEDDAR CHEESE\nDISCOUNT\n4.14\n-2.07\n"
                                 "1x MAGGI CURRY 5S 5.41\nBALANCE DUE\n£7.48\n";
    const auto with_discount = ex::read_latin_item_rows(discount);
    ASSERT_TRUE(with_discount);
    EXPECT_EQ(rows_of(with_discount->rows),
              (std::vector<Row>{{"CHEDDAR CHEESE", 4.14}, {"DISCOUNT", -2.07}, {"MAGGI CURRY 5S", 5.41}}));
    EXPECT_FALSE(with_discount->rows[1].quantity);
    // A description split over two lines with one amount stays one row; an amount above the end line is the end
    // line's, not a second row's.
    const std::string split = "SHOP\n12 FEB 2018\nOPERATOR\n43871\nMEE\nGORENG\n7.90\nNASI LEMAK\n4.75\n"
                              "TOTAL\n12.65\n";
    const auto one = ex::read_latin_item_rows(split);
    ASSERT_TRUE(one);
    EXPECT_EQ(rows_of(one->rows), (std::vector<Row>{{"MEE GORENG", 7.90}, {"NASI LEMAK", 4.75}}));
    const std::string above_end = "SHOP\n12 FEB 2018\nOPERATOR\n43871\nMEE\nGORENG\n7.90\n7.90\nTOTAL\n";
    const auto end = ex::read_latin_item_rows(above_end);
    ASSERT_TRUE(end);
    EXPECT_EQ(rows_of(end->rows), (std::vector<Row>{{"MEE GORENG", 7.90}}));
}

TEST(LatinItemChecks, SubtotalDamagedOnItsOwnLine) {
    // "SUB TOTAL $44.9": 44.39 with a digit lost; the rows add up to it, the model's items do not.
    const std::string text = "SAFEWAY\nTel (512) 555-5260\nSALES RECEIPT\n04/29/2022\nTRANS#\n15:21\n53222\n"
                             "1x MAGGI CURRY 5S 5.87 T\n1x RICE 5KG 20.15 T\n1xKNORR CHICKEN STOCK\n18.37 T\n"
                             "SUB TOTAL $44.9\nTAX @7%\n$.11\nGRAND TOTAL $47.50\nCASH\n$48.00\n";
    const auto read = ex::read_latin_item_rows(text);
    ASSERT_TRUE(read);
    ASSERT_FALSE(read->damaged_totals.empty());  // then the tax's "$.11", on the line after its label
    EXPECT_EQ(read->damaged_totals.front(), "$44.9");
    nlohmann::ordered_json f =
        fields({item("MAGGI CURRY 5S", 5.87), item("RICE 5KG", 21), item("KNORR CHICKEN STOCK", 18.37)}, 44.9, 47.5);
    ex::check_latin_items(text, f);
    EXPECT_EQ(items_of(f["line_items"]), (std::vector<Row>{{"MAGGI CURRY 5S", 5.87},
                                                           {"RICE 5KG", 20.15},
                                                           {"KNORR CHICKEN STOCK", 18.37}}));
}

TEST(LatinItemChecks, BalanceDueWithTheROfRmLost) {
    // The rows end at the tax line; the balance due below it ("M43.72") is what they add up to, before rounding.
    const std::string text = "GARDENIA BAKERIES (KL) SDN BHD\nDATE: 03-03-15\nTIME:\n10:34\nCASHIER:\n18133\n"
                             "APPLES GALA\n1 X 4.65\n4.65\nMILO 1KG\n1 X 29.85\n29.85\nPROMO\n-0.13\n"
                             "GST 6%\nRM1.95\nBALANCE DUE\nM34.37\nROUNDING ADJUSTMENT\n-0.02\n"
                             "ROUNDED TOTAL (RM):\n34.35\n";
    const auto read = ex::read_latin_item_rows(text);
    ASSERT_TRUE(read);
    EXPECT_EQ(read->later_totals, std::vector<double>{34.37});
    // The model wrote an item of another shop: the rows, which add up to the balance due, replace its items.
    nlohmann::ordered_json f = fields({item("APPLES GALA", 4.65), item("MILO 1KG", 29.85),
                                       item("BLUEBERRY MUFFIN", 3.25), item("PROMO", -0.13)},
                                      0, 34.35);
    f["net_amount"] = nullptr;
    ex::check_latin_items(text, f);
    EXPECT_EQ(items_of(f["line_items"]),
              (std::vector<Row>{{"APPLES GALA", 4.65}, {"MILO 1KG", 29.85}, {"PROMO", -0.13}}));
}

TEST(LatinItemChecks, AnItemNamingAnotherRowTakesItsOwnRowsDescription) {
    const std::string text = "POPULAR BOOK CO. (M) SDN BHD\n19 OCT 2024\nSERVED BY:\n79356\n"
                             "STORAGE BOX\n1 X 13.35\n13.35\nLED BULB 9W\n1 X 7.00\n7.00\nLED BUL8 9W\n1 X 7.30\n7.30\n"
                             "KF MODELLING CLAY\n1 X 10.30\n10.30\nTOTAL SALES (EXCLUDING GST)\nRM37.95\n";
    // The model's items add up, but item 3 names the row below it: it takes "LED BUL8 9W" (restored later from
    // the known items); item 2, which reads its own row, keeps the model's spelling.
    nlohmann::ordered_json f = fields({item("STORAGE BOX", 13.35), item("LED BULB 9W", 7.0),
                                       item("KF MODELLING CLAY", 7.3), item("KF MODELLING CLAY", 10.3)},
                                      37.95, 37.95);
    ex::check_latin_items(text, f);
    EXPECT_EQ(items_of(f["line_items"]), (std::vector<Row>{{"STORAGE BOX", 13.35},
                                                           {"LED BULB 9W", 7.0},
                                                           {"LED BUL8 9W", 7.3},
                                                           {"KF MODELLING CLAY", 10.3}}));
    // Two items whose descriptions the model swapped: the arithmetic cannot tell which is right; they stay.
    nlohmann::ordered_json swapped = fields({item("STORAGE BOX", 13.35), item("LED BULB 9W", 7.0),
                                             item("KF MODELLING CLAY", 7.3), item("LED BULB 9W", 10.3)},
                                            37.95, 37.95);
    const nlohmann::ordered_json before = swapped["line_items"];
    ex::check_latin_items(text, swapped);
    EXPECT_EQ(swapped["line_items"], before);
}

TEST(LatinItemChecks, AnAmountWithMoreThanCentsDoesNotAddUp) {
    // "16.4616" (the unit price and amount glued, "16.4616.46") comes within half a cent of the subtotal with the
    // other items, but it is no amount: the rows, which add up, replace it.
    const std::string text = "SAFEWAY\nJun 30, 2015 7:15:35 AM\nTRANS#\n21984\nQTY\nDESC\nPRICE\nAMOUNT\n"
                             "1\nPASTA PENNE\n1.23\n1.23\n1 RICE 5KG 16.4616.46\n1\nMILO 1KG\n26.86\n26.86\n"
                             "SUBTOTAL\n$44.55\nTAX 6.25%\n$2.78\n";
    nlohmann::ordered_json f = fields({item("PASTA PENNE", 1.23), item("RICE 5KG", 16.4616), item("MILO 1KG", 26.86)},
                                      44.55, 47.33);
    ex::check_latin_items(text, f);
    EXPECT_EQ(items_of(f["line_items"]),
              (std::vector<Row>{{"PASTA PENNE", 1.23}, {"RICE 5KG", 16.46}, {"MILO 1KG", 26.86}}));
}

TEST(LatinItemChecks, ASubtotalThatLostADigitButReadsWhole) {
    // "$1.85" for 31.85 under a damaged keyword: the rows add up to it with the digit back.
    const std::string text = "SAFEWAY\n11/06/2015 02:30PM\nCASHIER:\n7557\n1x TISSUE 10S 9.14 T\n1x APPLES GALA\n"
                             "3.62 T\n1x RICE 5KG\n19.09\nT\nSUB TOAL\n$1.85\nTAX\n7%\n$2.23\nTOTAL AMOUNT\n$34.08\n";
    nlohmann::ordered_json f = fields(nlohmann::ordered_json::array({item("RICE 5KG", 19.09)}), 0, 34.08);
    f["net_amount"] = nullptr;
    ex::check_latin_items(text, f);
    EXPECT_EQ(items_of(f["line_items"]),
              (std::vector<Row>{{"TISSUE 10S", 9.14}, {"APPLES GALA", 3.62}, {"RICE 5KG", 19.09}}));
    // Rows that add up to no such reading of it stay out.
    nlohmann::ordered_json other = fields(nlohmann::ordered_json::array({item("RICE 5KG", 19.09)}), 0, 34.08);
    other["net_amount"] = nullptr;
    std::string moved = text;
    moved.replace(moved.find("$1.85"), 5, "$1.58");
    ex::check_latin_items(moved, other);
    EXPECT_EQ(items_of(other["line_items"]), (std::vector<Row>{{"RICE 5KG", 19.09}}));
}

TEST(LatinItemChecks, WholeRowBetweenADescriptionAndItsAmount) {
    // A box of one row moved into another: the row "1xSHAMPOO 400ML 14.07" printed between "1x PLASTERS" and its
    // amount. The rows start with their counts, so the row is its own, and the amount after it is PLASTERS'.
    const std::string text = "BOOTS\n12/03/2024\n14:22\n1x PANADOL 24S\n7.64\n1x PLASTERS\n1xSHAMPOO 400ML 14.07\n"
                             "4.51\n1x COTTON BUDS 3.05\nSUBTOTAL\n29.27\nTOTAL\n29.27\n";
    const auto read = ex::read_latin_item_rows(text);
    ASSERT_TRUE(read);
    EXPECT_EQ(rows_of(read->rows), (std::vector<Row>{{"PANADOL 24S", 7.64},
                                                     {"PLASTERS", 4.51},
                                                     {"SHAMPOO 400ML", 14.07},
                                                     {"COTTON BUDS", 3.05}}));
    // Without counts before its rows, a description's second line with an amount stays one row.
    const std::string no_counts = "SHOP\n12/03/2024\n14:22\nPANADOL 24S\n7.64\nFACE\nMASK 50S 13.70\n"
                                  "BALANCE DUE\n21.34\n";
    const auto plain = ex::read_latin_item_rows(no_counts);
    ASSERT_TRUE(plain);
    EXPECT_EQ(rows_of(plain->rows), (std::vector<Row>{{"PANADOL 24S", 7.64}, {"FACE MASK 50S", 13.70}}));
}

TEST(LatinItemChecks, TableRowWhoseCountReadsAsALetter) {
    // "I" for the count 1 (and "Z" for 2) when the count times the unit price is the amount.
    const std::string text = "SHOP\n12/03/2024\n14:22\nQTY DESC PRICE AMOUNT\n1 BREAD WHITE 2.00 2.00\n"
                             "I APPLES GALA 4.70 4.70\nZ BANANAS 0.60 1.20\nSUBTOTAL\n7.90\n";
    const auto read = ex::read_latin_item_rows(text);
    ASSERT_TRUE(read);
    EXPECT_EQ(rows_of(read->rows),
              (std::vector<Row>{{"BREAD WHITE", 2.00}, {"APPLES GALA", 4.70}, {"BANANAS", 1.20}}));
    EXPECT_EQ(read->rows[2].quantity, 2.0);
}

TEST(LatinItemChecks, TotalLabelOverTwoLinesAndASizeGluedToItsAmount) {
    // The end line's label goes on over the next line ("GST)") with the amount on the third; "MAGGI CURRY 5S6.15"
    // reads 556.15 with the S as a 5, and the reading with the size set apart adds up.
    const std::string text =
        "SHOP\n12/03/2024 10:15\n1x DETERGENT 2KG\n46.95\n1x MAGGI CURRY 5S6.15\n1x BANANAS\n0.50\n"
        "TOTAL SALES (EXCLUDING\nGST)\nRM53.60\nSST 6%\nRM3.22\n";
    const auto readings = ex::latin_item_row_readings(text);
    ASSERT_EQ(readings.size(), 2u);
    ASSERT_TRUE(readings[0].end_amount);
    EXPECT_DOUBLE_EQ(*readings[0].end_amount, 53.60);
    EXPECT_EQ(rows_of(readings[0].rows),
              (std::vector<Row>{{"DETERGENT 2KG", 46.95}, {"MAGGI CURRY", 556.15}, {"BANANAS", 0.50}}));
    const auto adding_up = ex::first_reading_adding_up(readings, {});
    ASSERT_TRUE(adding_up);
    EXPECT_EQ(rows_of(adding_up->first.rows),
              (std::vector<Row>{{"DETERGENT 2KG", 46.95}, {"MAGGI CURRY 5S", 6.15}, {"BANANAS", 0.50}}));
}

TEST(LatinItemChecks, DescriptionLineBeforeItsRowsCountLine) {
    // "KNORR" / "34.62" / "CHICKEN STOCK" / "2 @ 17.31": the description line between the amount and the count line
    // that multiplies to it is the rest of that row; with an amount after the count line it starts the next row.
    const auto read = ex::read_latin_item_rows(
        "SHOP\nMar 17, 2022\nKNORR\n34.62\nCHICKEN STOCK\n2 @ 17.31\nTOMATO SAUCE\n2.10\nSub-Total\n$36.72\n");
    ASSERT_TRUE(read);
    EXPECT_EQ(rows_of(read->rows), (std::vector<Row>{{"KNORR CHICKEN STOCK", 34.62}, {"TOMATO SAUCE", 2.10}}));
    EXPECT_EQ(read->rows[0].quantity, 2.0);
    const auto next = ex::read_latin_item_rows(
        "SHOP\nMar 17, 2022\nKNORR\n34.62\nCHICKEN STOCK\n2 @ 17.31\n34.62\nSub-Total\n$69.24\n");
    ASSERT_TRUE(next);
    EXPECT_EQ(rows_of(next->rows), (std::vector<Row>{{"KNORR", 34.62}, {"CHICKEN STOCK", 34.62}}));
}

TEST(LatinItemChecks, AnOperatorNumberADiscountWithoutItsSignAndAGluedPrice) {
    // "13B" after "OPERATOR" is its number (8 read as B), not a description; "MEMBER DISC" / "2.92" lost its minus;
    // "1 BALL PEN BLUE1.101.10" ran the description, the unit price and the amount together.
    const auto read = ex::read_latin_item_rows(
        "SHOP\n28-05-19\n7:06:36 AM\nOPERATOR\n13B\n6x BALL PEN BLUE 6.60\nMEMBER DISC\n2.92\n"
        "1 BALL PEN BLUE1.101.10\nTOTAL\nRM4.78\n");
    ASSERT_TRUE(read);
    EXPECT_EQ(rows_of(read->rows),
              (std::vector<Row>{{"BALL PEN BLUE", 6.60}, {"MEMBER DISC", -2.92}, {"BALL PEN BLUE", 1.10}}));
    EXPECT_EQ(ex::with_run_together_amounts_apart("1 BALL PEN BLUE1.101.10"), "1 BALL PEN BLUE 1.10 1.10");
    // The price's digits start inside the description only as far as the count times it makes the amount.
    EXPECT_EQ(ex::with_run_together_amounts_apart("1 BATTERY AA 4S21.5021.50"), "1 BATTERY AA 4S 21.50 21.50");
    EXPECT_EQ(ex::with_run_together_amounts_apart("2 MILO 1KG1.103.20"), "2 MILO 1KG1.103.20");
}

TEST(LatinItemChecks, ServedByLabelBrokenOrDamaged) {
    // "SERVED" / "BY:" and "SERVED B;" are the staff label; the number after it is no row.
    for (const std::string label : {"SERVED\nBY:", "SERVED B;"}) {
        const auto read = ex::read_latin_item_rows("SHOP\n14 MAR 2016\n" + label + "\n47732\n4x CHICKEN BREAST\n"
                                                   "21.60\nSUGAR 1KG\n2.70\nTOTAL\n24.30\n");
        ASSERT_TRUE(read) << label;
        EXPECT_EQ(rows_of(read->rows), (std::vector<Row>{{"CHICKEN BREAST", 21.60}, {"SUGAR 1KG", 2.70}})) << label;
    }
}

TEST(LatinItemChecks, AnAmountThatLostItsPointBeforeItsCountLine) {
    // "750" / "6 @ 1.25": the amount 7.50 that the count line makes; a number the count line does not make stays text.
    const auto read = ex::read_latin_item_rows(
        "SHOP\n12/03/2024\nBALL PEN BLUE\n750\n6 @ 1.25\nCABLE TIES\nRM3.65\nTOTAL\nRM11.15\n");
    ASSERT_TRUE(read);
    EXPECT_EQ(rows_of(read->rows), (std::vector<Row>{{"BALL PEN BLUE", 7.50}, {"CABLE TIES", 3.65}}));
    EXPECT_EQ(read->rows[0].quantity, 6.0);
}

TEST(LatinItemChecks, TaxLineWithALookalikeDigitEndsTheRows) {
    // "G5T @6%" (S read as 5) ends the rows; the row's amount and the tax follow it.
    const auto read = ex::read_latin_item_rows("SHOP\n25-03-17\n14:39\nKNORR CHICKEN STOCK\nG5T @6%\n17.05\n0.97\n"
                                               "TOTAL\n17.05\n");
    ASSERT_TRUE(read);
    EXPECT_EQ(rows_of(read->rows), (std::vector<Row>{{"KNORR CHICKEN STOCK", 17.05}}));
    EXPECT_TRUE(ex::is_end_line("G5T @6%"));
    EXPECT_FALSE(ex::is_end_line("G50 PLUS"));
    // A registration number after it, look-alikes in its label too, is no end line (as "GST NO. 0012" is none).
    EXPECT_FALSE(ex::is_end_line("G5T N0. 0012"));
    EXPECT_FALSE(ex::is_end_line("G5T ID: 0012"));
    EXPECT_TRUE(ex::is_end_line("G5T 6% 0.97"));
}
