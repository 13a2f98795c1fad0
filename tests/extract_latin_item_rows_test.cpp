// Line items read from the printed item rows of a receipt with cents (extract/latin_item_rows.h), and the check
// that puts them in place of the model's (extract/item_checks.h).
#include <gtest/gtest.h>

#include <string>
#include <tuple>
#include <vector>

#include <nlohmann/json.hpp>

#include "extract/item_checks.h"
#include "extract/latin_item_rows.h"
#include "extract/latin_rows_add_up.h"
#include "extract/latin_row_lines.h"

namespace ex = receipt::extract;

namespace {

using Row = std::tuple<std::string, double, double, double>;  // description, quantity, unit price, amount

std::vector<Row> rows_of(const std::vector<ex::ItemRow>& rows) {
    std::vector<Row> out;
    for (const auto& r : rows) out.emplace_back(r.description, r.quantity.value_or(-1), r.unit_price.value_or(-1), r.amount);
    return out;
}

}  // namespace

TEST(LatinItemRows, EveryRowLayoutBetweenTheHeaderAndTheSubtotal) {
    const std::string text =
        "NIMU & CO\n8866 Oak Ave\nMay 14, 2016\n2:01:00 PM\nCASHIER:\n25898\n"
        "MILO 1KG\n$70.56\n3 @\n23.S2\n"           // count and unit price after the amount, split, OCR "S" for 5
        "CAFFE LATTE GR\n2 X 4.34\n8.68\n"          // count x unit between description and amount
        "1\nMEE GORENG\n7.20\n7.20\n"               // a table row, one box per line
        "2 AMERICANO TALL 3.36 6.72\n"              // a table row on one line
        "6x R1CE 5KG\n107.70\n"                     // count before the description
        "CHEDDAR\nCHEESE\n4.50\n"                   // description split over two lines
        "MEMBER DISC\n-2.20\nCOUPON -0,35\n"        // discounts, a decimal comma
        "EGGS LARGE 12CT\n11.70\n3\n@ 3.90\n"       // count and "@ unit" on two lines
        "SUBTOTAL\n$235.01\nTAX 7%\n$16.45\nTOTAL\n$251.46\n";
    const auto read = ex::read_latin_item_rows(text);
    ASSERT_TRUE(read);
    EXPECT_EQ(rows_of(read->rows), (std::vector<Row>{{"MILO 1KG", 3, 23.52, 70.56},
                                                     {"CAFFE LATTE GR", 2, 4.34, 8.68},
                                                     {"MEE GORENG", 1, 7.20, 7.20},
                                                     {"AMERICANO TALL", 2, 3.36, 6.72},
                                                     {"R1CE 5KG", 6, 17.95, 107.70},
                                                     {"CHEDDAR CHEESE", 1, 4.50, 4.50},
                                                     {"MEMBER DISC", -1, -1, -2.20},
                                                     {"COUPON", -1, -1, -0.35},
                                                     {"EGGS LARGE 12CT", 3, 3.90, 11.70}}));
    ASSERT_TRUE(read->end_amount);
    EXPECT_DOUBLE_EQ(*read->end_amount, 235.01);
}

TEST(LatinItemRows, ProductCodesCountsBeforeTheRowAndATaxLineThatEndsThem) {
    const std::string text =
        "GUARDIAN\nDATE:\n18/3/2023\nOPERATOR\n86586\n"
        "5128860453901\nIBUPROFEN 200MG\n1 X 5.55\n5.55\n"     // a product code above the description
        "3991302954422\n6 X 30.95\nVITAMIN C 1000MG\n185.70\n"  // count x unit above the description
        "FACE MASK 50S\n1 X 14.05 14.05\n"                        // count, unit price and amount on one line
        "SUNSCREEN SPF50\n1\nX 21.80\n21.80\n"                   // the count alone, then "X unit"
        "VAT 20%\n11.67\nGRAND TOTAL\n238.77\n";
    const auto read = ex::read_latin_item_rows(text);
    ASSERT_TRUE(read);
    EXPECT_EQ(rows_of(read->rows), (std::vector<Row>{{"IBUPROFEN 200MG", 1, 5.55, 5.55},
                                                     {"VITAMIN C 1000MG", 6, 30.95, 185.70},
                                                     {"FACE MASK 50S", 1, 14.05, 14.05},
                                                     {"SUNSCREEN SPF50", 1, 21.80, 21.80}}));
    ASSERT_TRUE(read->end_amount);
    EXPECT_DOUBLE_EQ(*read->end_amount, 11.67);  // the tax line's: the rows then add up to the net or total amount
    // A currency column heading is a header line; "description @unit" gives the unit price (SROIE layout).
    const auto sroie = ex::read_latin_item_rows("B & BEST RESTAURANT\nBIZDATE: 22/04/2017\nRM\n3\n"
                                                "FISHBALL NOODLE @7.00\n21.00\n3\nSUB TOTAL\n21.00\n");
    ASSERT_TRUE(sroie);
    EXPECT_EQ(rows_of(sroie->rows), (std::vector<Row>{{"FISHBALL NOODLE", 3, 7.00, 21.00}}));
    const auto no_count = ex::read_latin_item_rows("SHOP\n22/04/2017\nFISHBALL NOODLE @ 7.00\n21.00\nSUB TOTAL\n21.00\n");
    ASSERT_TRUE(no_count);
    EXPECT_EQ(rows_of(no_count->rows), (std::vector<Row>{{"FISHBALL NOODLE", 3, 7.00, 21.00}}));
    // "TAX INVOICE" and a "VAT No." registration line are header lines, not the end of the rows.
    const auto titled = ex::read_latin_item_rows("SHOP\nVAT No. GB 636 4431 29\nTAX INVOICE\n12/01/2020\nMILO 1KG\n"
                                                 "24.95\nSUBTOTAL\n24.95\n");
    ASSERT_TRUE(titled);
    EXPECT_EQ(rows_of(titled->rows), (std::vector<Row>{{"MILO 1KG", 1, 24.95, 24.95}}));
}

TEST(LatinItemRows, TaxCodesAfterAmountsAndDamagedHeaderLabels) {
    // "2.85 T": the amount with its tax code; "OERATOR 59874": a header label OCR damaged, with its number.
    const auto r = ex::read_latin_item_rows(
        "SAFEWAY\n4/11/16 11:29AM\nOERATOR 59874\n1x SUGAR 1KG\n2.85 T\nMEMBER DISC\n-0.83\n"
        "1x MILO 1KG\n24.07 SR\nSUBTOTAL\n26.09\n");
    ASSERT_TRUE(r);
    EXPECT_EQ(rows_of(r->rows), (std::vector<Row>{{"SUGAR 1KG", 1, 2.85, 2.85},
                                                  {"MEMBER DISC", -1, -1, -0.83},
                                                  {"MILO 1KG", 1, 24.07, 24.07}}));
    EXPECT_EQ(r->end_amount, 26.09);
}

TEST(LatinItemRows, NothingWhenALineCannotBePlaced) {
    // No subtotal or total line.
    EXPECT_FALSE(ex::read_latin_item_rows("SHOP\n12/01/2020\nMILO 1KG\n24.95\nTHANK YOU\n"));
    // Amounts with no description above or below them.
    EXPECT_FALSE(ex::read_latin_item_rows("SHOP\n12/01/2020\nMILO 1KG\n3.00\n$20.44\n$1.00\nSUBTOTAL 24.44\n"));
    // An amount above a description that an amount follows: the description is that amount's row, and the first
    // amount belongs to none (the reading that skips it is the only one, and it does not add up).
    const auto moved = ex::latin_item_row_readings(
        "SHOP\n12/01/2020\n13.15 T\n1x EXTENSION CORD 3M\n29.15 T\n2x STORAGE BOX\n23.40 T\nTOTAL SALES RM65.70\n");
    ASSERT_EQ(moved.size(), 1u);
    EXPECT_EQ(rows_of(moved[0].rows), (std::vector<Row>{{"EXTENSION CORD 3M", 1, 29.15, 29.15},
                                                        {"STORAGE BOX", 2, 11.70, 23.40}}));
    ex::LatinItemRows r = moved[0];
    EXPECT_FALSE(ex::rows_add_up_to(r, 65.70));
    // A description with no amount after it.
    EXPECT_FALSE(ex::read_latin_item_rows("SHOP\n12/01/2020\nMILO 1KG\n3.00\nTISSUE 10S\nSUBTOTAL 3.00\n"));
    // A table row whose count does not multiply its unit price to its amount.
    EXPECT_FALSE(ex::read_latin_item_rows("SHOP\n12/01/2020\n2 KOPI O 1.85 1.85\nSUBTOTAL 1.85\n"));
    // Nothing between the header and the total.
    EXPECT_FALSE(ex::read_latin_item_rows("SHOP\n12/01/2020\nTOTAL 0.00\n"));
    EXPECT_FALSE(ex::read_latin_item_rows(""));
}

TEST(LatinItemRows, BoxesOfARowThatOcrMovedOrDamaged) {
    const std::string text =
        "SAFEWAY\n4/11/16 11:29AM\nOPERATOR 59874\n"
        "3.75\n1x ORANGE JUICE\n"              // the amount before its description
        "1x APPLES GALA\n3.65\n"
        "1x\nCOTTON BUDS\n3.08 T\n"            // the count alone above the description
        "1x PANADOL 24S\n9.62\nT\n"            // the tax code alone below the amount
        "SUGAR 1KG\n1  3.25\n3.25\n"           // count and unit price that lost their X
        "1x EGGS LARGE 12CT4.45\n"              // the amount glued to the description
        "BANANAS\n3 X 0.56\n1.8\n"             // an amount that lost a digit: count times unit price
        "SUBTOTAL\n37.86\n";
    const auto read = ex::read_latin_item_rows(text);
    ASSERT_TRUE(read);
    EXPECT_EQ(rows_of(read->rows), (std::vector<Row>{{"ORANGE JUICE", 1, 3.75, 3.75},
                                                     {"APPLES GALA", 1, 3.65, 3.65},
                                                     {"COTTON BUDS", 1, 3.08, 3.08},
                                                     {"PANADOL 24S", 1, 9.62, 9.62},
                                                     {"SUGAR 1KG", 1, 3.25, 3.25},
                                                     {"EGGS LARGE 12CT", 1, 4.45, 4.45},
                                                     {"BANANAS", 3, 0.56, 1.68}}));
    EXPECT_FALSE(read->damaged_row);
    ex::LatinItemRows r = *read;
    EXPECT_TRUE(ex::rows_add_up_to(r, 29.48));
    // Count and unit price without their X must multiply to the amount after them.
    EXPECT_FALSE(ex::read_latin_item_rows("SHOP\n12/01/2020\nSUGAR 1KG\n2  3.25\n3.25\nSUBTOTAL\n3.25\n"));
}

TEST(LatinItemRows, AnAmountThatLostADigitIsWhatTheSubtotalLeaves) {
    // "1451" lost its point; the damaged header label "5ERVED BY:" over the cashier's number is skipped by a later
    // start, since the first reading takes "8672" for that label's amount.
    const std::string text =
        "SAFEWAY\n10/24/18\n12:03\n5ERVED BY:\n8672\n"
        "RICE 5KG\n$21.52\nDETERENT 2KG\n1451\nTISSUE\n10S\n10.49\nSub-Total\n$46.52\n";
    const auto readings = ex::latin_item_row_readings(text);
    ASSERT_EQ(readings.size(), 1u);  // the first start fails at the second damaged amount
    ex::LatinItemRows r = readings[0];
    ASSERT_TRUE(r.damaged_row);
    EXPECT_EQ(*r.damaged_row, 1u);
    EXPECT_EQ(r.damaged_print, "1451");
    ASSERT_TRUE(r.end_amount);
    EXPECT_TRUE(ex::rows_add_up_to(r, *r.end_amount));
    EXPECT_EQ(rows_of(r.rows), (std::vector<Row>{{"RICE 5KG", 1, 21.52, 21.52},
                                                 {"DETERENT 2KG", 1, 14.51, 14.51},
                                                 {"TISSUE 10S", 1, 10.49, 10.49}}));
    // Digits that the amount the subtotal leaves does not hold in order: no reading adds up.
    ex::LatinItemRows wrong = readings[0];
    EXPECT_FALSE(ex::rows_add_up_to(wrong, 50.00));  // 18.99 is not "1451"
    // At most two digits lost: ".00" can be 16.00, not 116.00.
    const auto lost = ex::latin_item_row_readings("SHOP\n12/01/2020\nMILO 1KG\n.00\nBREAD\n2.40\nSUBTOTAL\n18.40\n");
    ASSERT_FALSE(lost.empty());  // then the reading that starts after the damaged amount
    ex::LatinItemRows sixteen = lost[0], more = lost[0];
    EXPECT_TRUE(ex::rows_add_up_to(sixteen, 18.40));
    EXPECT_DOUBLE_EQ(sixteen.rows[0].amount, 16.00);
    EXPECT_FALSE(ex::rows_add_up_to(more, 118.40));
}

TEST(LatinItemRows, TableUnitPricesOcrDamagedAndASubtotalAboveItsKeyword) {
    // ".40" and "17.2": unit prices that lost a digit, the amount after them whole; "$23.87" is the subtotal's.
    const auto read = ex::read_latin_item_rows(
        "SHOP\n12:03\nQTY\nDESC\nPRICE\nAMOUNT\n1\nAMERICANO\nTALL\n.40\n3.40\n2\nDETERGENT 2KG\n17.2\n34.40\n"
        "1\nMILO 1KG\n28.6\n28.61\n$66.41\nSUB TOTAL\nTAX @7%\n$4.65\n");
    ASSERT_TRUE(read);
    EXPECT_EQ(rows_of(read->rows), (std::vector<Row>{{"AMERICANO TALL", 1, 3.40, 3.40},
                                                     {"DETERGENT 2KG", 2, 17.20, 34.40},
                                                     {"MILO 1KG", 1, 28.61, 28.61}}));
    EXPECT_EQ(read->end_amount, 66.41);
    // A price whose digits the amount does not hold is no unit price of it.
    EXPECT_FALSE(ex::read_latin_item_rows("SHOP\n12:03\n1\nMILO 1KG\n3.1\n28.61\nSUB TOTAL\n28.61\n"));
}

TEST(LatinItemRows, TwoDescriptionsThenTheirAmounts) {
    const auto read = ex::read_latin_item_rows(
        "SAFEWAY\n8/18/24\nOPERATOR\n88649\n1x MILO 1KG\n1x DETERGENT 2KG\n25.59 T\n17.68 T\n2x SUGAR 1KG\n5.00\n"
        "SUBTOTAL\n$48.27\n");
    ASSERT_TRUE(read);
    EXPECT_EQ(rows_of(read->rows), (std::vector<Row>{{"MILO 1KG", 1, 25.59, 25.59},
                                                     {"DETERGENT 2KG", 1, 17.68, 17.68},
                                                     {"SUGAR 1KG", 2, 2.50, 5.00}}));
    // Not three descriptions, and not a description between the two amounts.
    EXPECT_FALSE(ex::read_latin_item_rows("SHOP\n8/18/24\n1x MILO 1KG\n1x RICE 5KG\n1x SUGAR 1KG\n1.00\n2.00\n3.00\n"
                                          "SUBTOTAL\n6.00\n"));
    EXPECT_FALSE(ex::read_latin_item_rows("SHOP\n8/18/24\n1x MILO 1KG\n1x RICE 5KG\nPROMO\n1.00\n2.00\nSUBTOTAL\n3.00\n"));
}

TEST(LatinItemRows, AmountsThatLostTheirPointOrADigit) {
    // "060" lost its point (no count starts with 0); "S00S" is a description, not 5005 with its point lost.
    const auto read = ex::latin_item_row_readings(
        "SHOP\n12:00\nBANANAS\n060\nA4 PAPER\nS00S\n1\nX12.55\n12.55\nSUBTOTAL\n13.15\n");
    ASSERT_FALSE(read.empty());
    ex::LatinItemRows r = read[0];
    ASSERT_TRUE(ex::rows_add_up_to(r, 13.15));
    EXPECT_EQ(rows_of(r.rows), (std::vector<Row>{{"BANANAS", 1, 0.60, 0.60}, {"A4 PAPER S00S", 1, 12.55, 12.55}}));
    // No reading adds up, but the first one does once an amount gets back the digit OCR dropped ("2.00" for 20.00).
    nlohmann::ordered_json f = {{"line_items", nlohmann::ordered_json::array()}, {"net_amount", nullptr},
                                {"total_amount", nullptr}, {"warnings", nlohmann::ordered_json::array()}};
    ex::check_latin_items("SHOP\n12:00\nTEH TARIK\n2.00\nMILO 1KG\n3.45\nSUBTOTAL\n23.45\n", f);
    ASSERT_EQ(f["line_items"].size(), 2u) << f.dump();
    EXPECT_DOUBLE_EQ(f["line_items"][0]["amount"].get<double>(), 20.00);
    EXPECT_DOUBLE_EQ(f["line_items"][1]["amount"].get<double>(), 3.45);
}

TEST(LatinItemRows, CountsGluedLostOrDamagedAndARinggitSignThatLostItsR) {
    // Rows printed "2x DESC": a count glued to its description ("2xEGGS", "ZxSUNSCREEN" with Z for 2) or one that
    // lost its x ("2 CHICKEN BREAST") is the row's count, not description text.
    auto read = ex::read_latin_item_rows(
        "SHOP\n12:00\n2xEGGS LARGE 12CT\n7.08\nZxSUNSCREEN SPF50\n43.90\n2 CHICKEN BREAST\n14.84\n"
        "1x MILO 1KG\n27.64\nSUBTOTAL\n93.46\n");
    ASSERT_TRUE(read);
    EXPECT_EQ(rows_of(read->rows), (std::vector<Row>{{"EGGS LARGE 12CT", 2, 3.54, 7.08},
                                                     {"SUNSCREEN SPF50", 2, 21.95, 43.90},
                                                     {"CHICKEN BREAST", 2, 7.42, 14.84},
                                                     {"MILO 1KG", 1, 27.64, 27.64}}));
    // Without "2x" rows a leading number is the description's ("7 UP").
    read = ex::read_latin_item_rows("SHOP\n12:00\n7 UP\n2.50\nSUBTOTAL\n2.50\n");
    ASSERT_TRUE(read);
    EXPECT_EQ(rows_of(read->rows), (std::vector<Row>{{"7 UP", 1, 2.50, 2.50}}));
    // "1 X 14.1": a count with a unit price OCR damaged (the amount must hold its digits); "X 2.50 10.00": a unit
    // price and amount whose count was lost; "M58.20": RM58.20.
    read = ex::read_latin_item_rows(
        "SHOP\n12:00\nSHAMPOO 400ML\n1 X 14.1\n14.51\nPVC TAPE\nX 2.50 10.00\nKNORR CHICKEN STOCK\nM58.20\n"
        "SUBTOTAL\n82.71\n");
    ASSERT_TRUE(read);
    EXPECT_EQ(rows_of(read->rows), (std::vector<Row>{{"SHAMPOO 400ML", 1, 14.51, 14.51},
                                                     {"PVC TAPE", 4, 2.50, 10.00},
                                                     {"KNORR CHICKEN STOCK", 1, 58.20, 58.20}}));
    // A damaged unit price whose digits the amount does not hold is no reading of that row.
    EXPECT_FALSE(ex::read_latin_item_rows("SHOP\n12:00\nSHAMPOO 400ML\n1 X 9.1\n14.51\nSUBTOTAL\n14.51\n"));
}

TEST(LatinItemRows, DamagedHeadingsKeywordsCountsAndTheRowThatLostADigit) {
    // "AM0UNT" heads the table; "l X 9.40" is a count of 1; "SubーTotal" ends the rows.
    auto read = ex::read_latin_item_rows(
        "SHOP\n12:00\nQTY\nDESC\nAM0UNT\nKF MODELLING CLAY\nl X 9.40\n9.40\nMILK 2 GAL\n3.94\nSubーTotal\n$13.34\n");
    ASSERT_TRUE(read);
    EXPECT_EQ(rows_of(read->rows), (std::vector<Row>{{"KF MODELLING CLAY", 1, 9.40, 9.40}, {"MILK 2 GAL", 1, 3.94, 3.94}}));
    ASSERT_TRUE(read->end_amount);
    EXPECT_DOUBLE_EQ(*read->end_amount, 13.34);
    // 10.00 short: "2.00", "2.80" and "2.45" could each have lost a leading 1; the row printed "6 X 2.00" did.
    read = ex::read_latin_item_rows(
        "SHOP\n12:00\nTEH TARIK\n6 X\n2.00\n2.00\nCROISSANT\n2.80\nTEH TARIK\n2.45\nSUBTOTAL\n17.25\n");
    ASSERT_TRUE(read);
    ex::LatinItemRows r = *read;
    EXPECT_FALSE(ex::rows_add_up_to(r, 17.25));
    ASSERT_TRUE(ex::rows_add_up_to(r, 17.25, true));
    EXPECT_EQ(rows_of(r.rows), (std::vector<Row>{{"TEH TARIK", 6, 2.00, 12.00},
                                                 {"CROISSANT", 1, 2.80, 2.80},
                                                 {"TEH TARIK", 1, 2.45, 2.45}}));
}

TEST(LatinItemRows, UnitPricesAndAmountsOcrDamagedInCountedRows) {
    // "3 @ 105" after its row's amount: the count, its unit price 1.05 lost the point; "51.80T": a glued tax code;
    // ".12 T": a damaged amount with its tax code; "0.95" / ".95": a table row's amount that lost a digit.
    auto read = ex::read_latin_item_rows(
        "SHOP\n12:00\nBALL PEN BLUE\n3.15\n3 @ 105\nFACE MASK 50S\n51.80T\n1\nMINERAL WATER\n0.95\n.95\n"
        "1x MILK 2% GAL\n.12 T\nSUBTOTAL\n59.02\n");
    ASSERT_TRUE(read);
    ASSERT_TRUE(read->damaged_row);
    ex::LatinItemRows r = *read;
    ASSERT_TRUE(ex::rows_add_up_to(r, 59.02));
    EXPECT_EQ(rows_of(r.rows), (std::vector<Row>{{"BALL PEN BLUE", 3, 1.05, 3.15},
                                                 {"FACE MASK 50S", 1, 51.80, 51.80},
                                                 {"MINERAL WATER", 1, 0.95, 0.95},
                                                 {"MILK 2% GAL", 1, 3.12, 3.12}}));
    // "1 X 3065" / "0.65": a single unit whose unit price lost its point and whose amount lost a digit; the amount
    // is what the subtotal leaves when it has the unit price's digits.
    read = ex::read_latin_item_rows("SHOP\n12:00\nVITAMIN C\n1 X 3065\n0.65\nTOOTHPASTE\n7.06\nSUBTOTAL\n37.71\n");
    ASSERT_TRUE(read);
    r = *read;
    ASSERT_TRUE(ex::rows_add_up_to(r, 37.71));
    EXPECT_EQ(rows_of(r.rows), (std::vector<Row>{{"VITAMIN C", 1, 30.65, 30.65}, {"TOOTHPASTE", 1, 7.06, 7.06}}));
    r = *read;
    EXPECT_FALSE(ex::rows_add_up_to(r, 38.71));  // 31.65 does not have the printed digits 3065
}

TEST(LatinItemRows, AmountsMovedBelowOrDamagedAtTheEndOfTheRows) {
    // The last row's amount glued and damaged ("SOCK 17.6"): the damaged row, its amount what the total leaves.
    auto read = ex::read_latin_item_rows(
        "SHOP\n12:00\n1x KNORR CHICKEN STOCK\n18.67\n1x KNORR CHICKEN SOCK 17.6\nGRAND TOTAL\n£36.35\n");
    ASSERT_TRUE(read);
    ex::LatinItemRows r = *read;
    ASSERT_TRUE(r.end_amount);
    ASSERT_TRUE(ex::rows_add_up_to(r, *r.end_amount));
    EXPECT_EQ(rows_of(r.rows), (std::vector<Row>{{"KNORR CHICKEN STOCK", 1, 18.67, 18.67},
                                                 {"KNORR CHICKEN STOCK", 1, 17.68, 17.68}}));  // the other row's
    // The last row's amount below an end line that has none: the row's, then the end line's.
    read = ex::read_latin_item_rows("SHOP\n12:00\n1x MILO 1KG\n27.71\n1x CHEDDAR CHEESE\nSUBOTAL\n3.85\n£31.56\n");
    ASSERT_TRUE(read);
    EXPECT_EQ(rows_of(read->rows), (std::vector<Row>{{"MILO 1KG", 1, 27.71, 27.71}, {"CHEDDAR CHEESE", 1, 3.85, 3.85}}));
    ASSERT_TRUE(read->end_amount);
    EXPECT_DOUBLE_EQ(*read->end_amount, 31.56);
    EXPECT_TRUE(read->later_totals.empty());
    // A total OCR damaged ("£65.9"): rows that add up to it with one digit back are the items.
    nlohmann::ordered_json f = {{"line_items", nlohmann::ordered_json::array()}, {"net_amount", nullptr},
                                {"total_amount", nullptr}, {"warnings", nlohmann::ordered_json::array()}};
    ex::check_latin_items("SHOP\n12:00\n1x RICE 5KG\n18.81\n6x CHICKEN BREAST\n47.08\nOTAL:\n£65.9\n", f);
    ASSERT_EQ(f["line_items"].size(), 2u) << f.dump();
    EXPECT_DOUBLE_EQ(f["line_items"][1]["amount"].get<double>(), 47.08);
    f["line_items"] = nlohmann::ordered_json::array();
    ex::check_latin_items("SHOP\n12:00\n1x RICE 5KG\n18.81\n6x CHICKEN BREAST\n47.08\nOTAL:\n£6.9\n", f);
    EXPECT_TRUE(f["line_items"].empty()) << f.dump();  // two digits lost: too little to go on
}

TEST(LatinItemRows, ARowThatLostALetterTakesTheRowThatPrintsItWhole) {
    const auto read = ex::read_latin_item_rows(
        "SHOP\n12:00\nORANGE JICE\n3.34\nORANGE JUICE\n3.40\nSUGAR 1KG\n2.00\nSUGAR 12KG\n9.00\nSUBTOTAL\n17.74\n");
    ASSERT_TRUE(read);
    EXPECT_EQ(rows_of(read->rows), (std::vector<Row>{{"ORANGE JUICE", 1, 3.34, 3.34},
                                                     {"ORANGE JUICE", 1, 3.40, 3.40},
                                                     {"SUGAR 1KG", 1, 2.00, 2.00},     // a digit more is another item
                                                     {"SUGAR 12KG", 1, 9.00, 9.00}}));
}

TEST(LatinItemRows, ATaxTitleOverInvoiceIsNotTheEndOfTheRows) {
    const auto read = ex::read_latin_item_rows(
        "SAFEWAY\nTEL: (206) 555-7554\nTAX\nINVOICE\nDATE:\n05/21/2015\nCASHIER:\n24338\n"
        "MINERAL WATER 1.5L\n1 X 1.12\n1.12\nPROMO\n-0.56\nSub-Total\n$0.56\n");
    ASSERT_TRUE(read);
    EXPECT_EQ(rows_of(read->rows), (std::vector<Row>{{"MINERAL WATER 1.5L", 1, 1.12, 1.12}, {"PROMO", -1, -1, -0.56}}));
    EXPECT_EQ(read->end_amount, 0.56);
}

TEST(LatinItemRows, RealReceiptLayoutsAndLinesThatNameNoItem) {
    // A row number before the description, a unit price with four decimals, "TATAL" for TOTAL.
    const auto numbered = ex::read_latin_item_rows(
        "SHOP\nDATE : 25/09/2017 01:48:57 PM\n1. MAX 10-1M STAPLES\n2 X 14.2000\n28.40 SR\n"
        "TATAL SALES INCLUSIVE GST @6%\n28.40\n");
    ASSERT_TRUE(numbered);
    EXPECT_EQ(rows_of(numbered->rows), (std::vector<Row>{{"MAX 10-1M STAPLES", 2, 14.20, 28.40}}));
    EXPECT_EQ(numbered->end_amount, 28.40);
    // A restaurant's table number and order kind are header lines; a product code before the description goes.
    const auto table = ex::read_latin_item_rows(
        "GRILL\n18:40:57\nTBL64 / 1\nEAT IN\n1\nPINEAPPLE JUICE\n12.95 S\n121056217 PRINGLES\n4.80\n"
        "SUBTOTAL\n17.75\n");
    ASSERT_TRUE(table);
    EXPECT_EQ(rows_of(table->rows), (std::vector<Row>{{"PINEAPPLE JUICE", 1, 12.95, 12.95}, {"PRINGLES", 1, 4.80, 4.80}}));
    // Rows read from the payment lines below a total are no reading ("RELIEF GST", "CASH").
    EXPECT_TRUE(ex::latin_item_row_readings("PETROKIOSK\nRECEIPT\nFUELSAVE 95\nRM\n50.00 C\nTOTAL\nRM\n50.00\n"
                                            "CASH\nRM\n50.00\nRELIEF GST\nC RM\n0.00\nTOTAL GROSS\n50.00\n")
                    .empty());
    // A 0.00 column after an amount is not an amount moved before its description.
    EXPECT_TRUE(ex::latin_item_row_readings("SHOP\nQTY\nJALAN JALAN\n1\n10.00\n0.00\n10.00 ZRL\nSUB TOTAL\n10.00\n")
                    .empty());
}

TEST(LatinItemRows, RowsReplaceItemsThatDoNotAddUpAndKeepTheModelsReading) {
    const std::string text =
        "KEDAI RUNCIT SRI JAYA\nTEL: 03-6686 8799\n14/9/2015\n12:54:27 PM\nTRANS#\n55265\n"
        "1x CHICKEN BREAST\n8.45\nMEMBER DISC\n-4.22\n6x R1CE 5KG\n107.70\n3x CHICKEN BREAST\n24.45\n"
        "TOTAL AMOUNT\nRM136.38\nROUNDED TOTAL (RM): 136.40\n";
    nlohmann::ordered_json f = {
        {"currency", "MYR"},
        {"line_items",
         {{{"description", "CHICKEN BREAST"}, {"quantity", 1}, {"unit_price", 8.45}, {"amount", 8.45}},
          {{"description", "RICE 5KG"}, {"quantity", 1}, {"unit_price", 17.07}, {"amount", nullptr}},
          {{"description", "APPLES GALA"}, {"quantity", 2}, {"unit_price", 4.25}, {"amount", 8.45}}}},
        {"net_amount", nullptr},
        {"total_tax_amount", nullptr},
        {"total_amount", 136.4},
        {"warnings", nlohmann::ordered_json::array()}};
    ex::check_latin_items(text, f);
    const auto& items = f["line_items"];
    ASSERT_EQ(items.size(), 4u) << items.dump();
    EXPECT_EQ(items[0]["description"], "CHICKEN BREAST");
    EXPECT_EQ(items[1]["description"], "MEMBER DISC");
    EXPECT_TRUE(items[1]["quantity"].is_null());
    EXPECT_EQ(items[2]["description"], "RICE 5KG");  // the model read "R1CE" through the OCR damage
    EXPECT_EQ(items[2]["quantity"], 6);
    EXPECT_DOUBLE_EQ(items[2]["unit_price"].get<double>(), 17.95);
    EXPECT_DOUBLE_EQ(items[3]["amount"].get<double>(), 24.45);
    bool warned = false;
    for (const auto& w : f["warnings"]) warned = warned || w.get<std::string>().rfind("line_items_from_rows", 0) == 0;
    EXPECT_TRUE(warned) << f["warnings"].dump();
}

TEST(LatinItemRows, OneModelDescriptionNamesEveryRowItReads) {
    // The model wrote "MEE GORENG" once with a wrong amount; the receipt prints it twice, once without its space.
    const std::string text = "SHOP\n2/6/15\n16:01\nMEE GORENG\n7.00\nMEEGORENG\n14.18\nSUB TOTAL\n$21.18\n";
    nlohmann::ordered_json f = {
        {"line_items", {{{"description", "MEE GORENG"}, {"quantity", 1}, {"unit_price", 7.1}, {"amount", 7.1}}}},
        {"net_amount", 21.18},
        {"total_amount", 22.5},
        {"warnings", nlohmann::ordered_json::array()}};
    ex::check_latin_items(text, f);
    const auto& items = f["line_items"];
    ASSERT_EQ(items.size(), 2u) << items.dump();
    EXPECT_EQ(items[0]["description"], "MEE GORENG");
    EXPECT_EQ(items[1]["description"], "MEE GORENG");
    EXPECT_DOUBLE_EQ(items[1]["amount"].get<double>(), 14.18);
}

TEST(LatinItemRows, ItemsThatAddUpStayAndRowsThatDoNotAreIgnored) {
    const std::string text = "SHOP\n12/01/2020\n10:00\nMILO 1KG\n24.95\nBREAD WHITE\n2.40\nSUBTOTAL\n27.35\n";
    const nlohmann::ordered_json items = {
        {{"description", "MILO 1KG"}, {"quantity", 1}, {"unit_price", 24.95}, {"amount", 24.95}},
        {{"description", "BREAD WHITE"}, {"quantity", 1}, {"unit_price", 2.4}, {"amount", 2.4}}};
    nlohmann::ordered_json f = {{"line_items", items}, {"net_amount", 27.35}, {"total_amount", 27.35},
                                {"warnings", nlohmann::ordered_json::array()}};
    ex::check_latin_items(text, f);
    EXPECT_EQ(f["line_items"], items);
    EXPECT_TRUE(f["warnings"].empty()) << f["warnings"].dump();
    // A unit price that does not make its amount (the model's digits: 27.3 for 27.03) is the amount over the count.
    nlohmann::ordered_json h = {
        {"line_items", {{{"description", "MILO 1KG"}, {"quantity", 2}, {"unit_price", 27.3}, {"amount", 54.06}},
                        {{"description", "BANANAS"}, {"quantity", 3}, {"unit_price", 0.65}, {"amount", 1.68}},
                        {{"description", "COUPON"}, {"quantity", nullptr}, {"unit_price", nullptr}, {"amount", -1.0}}}},
        {"net_amount", 54.74}, {"total_amount", 54.74}, {"warnings", nlohmann::ordered_json::array()}};
    ex::check_latin_items("SHOP\n12/01/2020\n10:00\nMILO 1KG\n54.06\nBANANAS\n1.68\nCOUPON\n-1.00\nSUBTOTAL\n54.74\n", h);
    EXPECT_DOUBLE_EQ(h["line_items"][0]["unit_price"].get<double>(), 27.03);
    EXPECT_DOUBLE_EQ(h["line_items"][1]["unit_price"].get<double>(), 0.56);
    EXPECT_TRUE(h["line_items"][2]["quantity"].is_null());
    // A unit price the receipt prints stays (before a discount or tax: "2X 26.5000" for 47.70 after 10% off).
    nlohmann::ordered_json d = {
        {"line_items", {{{"description", "PIPA GAO"}, {"quantity", 2}, {"unit_price", 26.5}, {"amount", 47.7}}}},
        {"net_amount", 47.7}, {"total_amount", 47.7}, {"warnings", nlohmann::ordered_json::array()}};
    ex::check_latin_items("SHOP\n12/01/2020\nPIPA GAO\n47.70\n2X 26.5000\nVIP DISC. 10%\nTOTAL\n47.70\n", d);
    EXPECT_DOUBLE_EQ(d["line_items"][0]["unit_price"].get<double>(), 26.5);
    // Rows that add up to none of the printed subtotal, the net and the total amount change nothing.
    const std::string short_text = "SHOP\n12/01/2020\n10:00\nMILO 1KG\n24.95\nSUBTOTAL\n27.35\n";
    nlohmann::ordered_json g = {{"line_items", nlohmann::ordered_json::array()}, {"net_amount", 27.35},
                                {"total_amount", 27.35}, {"warnings", nlohmann::ordered_json::array()}};
    ex::check_latin_items(short_text, g);
    EXPECT_TRUE(g["line_items"].empty());
}

TEST(LatinItemRows, CountBoxBelowTheUnitPriceAndADamagedCashierLabel) {
    // A table row whose count box OCR moved below the unit price; a cashier label, one letter lost, below its
    // number ("97765" / "CASHIR:").
    const std::string text = "SHOP\n28/1/2018\n01:41PM\n97765\nCASHIR:\nQTY\nDESC\nPRICE\nAMOUNT\n"
                             "1\nPASTA PENNE\n1.36\n1.36\nRICE 5KG\n20.75\n2\n41.50\nSUBTOTAL\n42.86\n";
    const auto read = ex::read_latin_item_rows(text);
    ASSERT_TRUE(read);
    EXPECT_EQ(rows_of(read->rows), (std::vector<Row>{{"PASTA PENNE", 1, 1.36, 1.36}, {"RICE 5KG", 2, 20.75, 41.5}}));
    const auto cashier = ex::read_latin_item_rows("SHOP\n01:41PM\n97765\nCASHIR:\n6x CHEDDAR CHEESE\n28.20\n"
                                                  "4x PASTA PENNE\n4.20\nSub-Total RM32.40\n");
    ASSERT_TRUE(cashier);
    EXPECT_EQ(cashier->rows.size(), 2u);
    EXPECT_EQ(cashier->rows[0].description, "CHEDDAR CHEESE");
    // A footer label with its colon ("TOT QTY:") is no header: the rows above it stay the reading's.
    EXPECT_FALSE(ex::is_header_line("TOT QTY:"));
    EXPECT_TRUE(ex::is_header_line("OPERTOR:"));
    // A table heading alone with a letter lost; a word of a description one letter from a short heading is none.
    EXPECT_TRUE(ex::is_header_line("SERVED 8Y:"));  // 8 for B
    EXPECT_TRUE(ex::is_header_line("AMOUT"));
    EXPECT_TRUE(ex::is_header_line("DESCRIPTON"));
    EXPECT_FALSE(ex::is_header_line("RICE"));
    EXPECT_FALSE(ex::is_header_line("AMOUT DUE"));
}

TEST(LatinItemRows, SubtotalLabelBrokenOverTwoLinesAndRunTogetherAmounts) {
    // "SUB" / "TOTAL" ends the rows; "8.808.80" is a unit price and an amount whose space OCR lost (1 x 8.80).
    const auto read = ex::read_latin_item_rows("SHOP\nSERVED 8Y:\n16670\n1x EXTENSION CORD 3M\n26.75 T\n"
                                               "1 TISSUE 10S 8.808.80\nSUB\nTOTAL\nRM35.55\n");
    ASSERT_TRUE(read);
    EXPECT_EQ(rows_of(read->rows),
              (std::vector<Row>{{"EXTENSION CORD 3M", 1, 26.75, 26.75}, {"TISSUE 10S", 1, 8.8, 8.8}}));
    ASSERT_TRUE(read->end_amount);
    EXPECT_DOUBLE_EQ(*read->end_amount, 35.55);
    EXPECT_EQ(ex::with_run_together_amounts_apart("2 COCA COLA 1.5L 3.026.04"), "2 COCA COLA 1.5L 3.02 6.04");
    // The count times the price is not the amount, or no count: as printed.
    EXPECT_EQ(ex::with_run_together_amounts_apart("1 TISSUE 10S 8.809.80"), "1 TISSUE 10S 8.809.80");
    EXPECT_EQ(ex::with_run_together_amounts_apart("TISSUE 10S 8.808.80"), "TISSUE 10S 8.808.80");
}

TEST(LatinItemRows, ModelDescriptionsPrintedInAnotherCaseStay) {
    // The model's items add up and are printed, letter case aside: they keep the model's descriptions.
    const std::string text = "SHOP\n12/01/2020\n10:00\nSR I00100000035- 1 MEAT + 3 VEGE\n$7.10\n1\n$7.10\n"
                             "SR I00100000171-MEAT DISH\n$3.00\n1\n$3.00\nTOTAL AMOUNT\n$10.10\n";
    const nlohmann::ordered_json items = {
        {{"description", "1 Meat + 3 Vege"}, {"quantity", 1}, {"unit_price", 7.1}, {"amount", 7.1}},
        {{"description", "Meat Dish"}, {"quantity", 1}, {"unit_price", 3.0}, {"amount", 3.0}}};
    nlohmann::ordered_json f = {{"line_items", items}, {"net_amount", nullptr}, {"total_amount", 10.1},
                                {"warnings", nlohmann::ordered_json::array()}};
    ex::check_latin_items(text, f);
    EXPECT_EQ(f["line_items"], items);
}

TEST(LatinItemRows, ACutReadingTakesTheRowsReadPastLinesNoReadingPlaces) {
    // Two amounts with no description between rows: no whole reading, but the rows above and below them read.
    const std::string text =
        "SHOP\n12/01/2020\n1x MILO 1KG\n24.95\n1x RICE 5KG\n17.50\n$20.44\n$1.00\n1x TEA\n4.00\n2x COFFEE\n7.00\n"
        "SUBTOTAL\n53.45\nTOTAL\n53.45\n";
    EXPECT_TRUE(ex::latin_item_row_readings(text).empty());
    const auto skipping = ex::latin_item_rows_skipping(text);
    ASSERT_TRUE(skipping);
    EXPECT_EQ(rows_of(skipping->rows), (std::vector<Row>{{"MILO 1KG", 1, 24.95, 24.95},
                                                         {"RICE 5KG", 1, 17.50, 17.50},
                                                         {"TEA", 1, 4.00, 4.00},
                                                         {"COFFEE", 2, 3.50, 7.00}}));
    ASSERT_TRUE(skipping->end_amount);
    EXPECT_DOUBLE_EQ(*skipping->end_amount, 53.45);
    EXPECT_FALSE(ex::latin_item_rows_skipping("SHOP\n12/01/2020\n$1.00\n$2.00\nTOTAL 3.00\n"));

    // The model's reading was cut after two items: the rows replace them. Not when it was not cut.
    const auto fields = [](const char* warning) {
        nlohmann::ordered_json f = {
            {"currency", "USD"},
            {"line_items",
             {{{"description", "MILO 1KG"}, {"quantity", 1}, {"unit_price", 24.95}, {"amount", 24.95}},
              {{"description", "RICE 5KG"}, {"quantity", 1}, {"unit_price", 17.5}, {"amount", 17.5}}}},
            {"net_amount", 53.45},
            {"total_tax_amount", nullptr},
            {"total_amount", 53.45},
            {"warnings", nlohmann::ordered_json::array()}};
        if (warning) f["warnings"].push_back(warning);
        return f;
    };
    auto cut = fields("input_truncated: 700 tokens cut to 512");
    ex::check_latin_items(text, cut);
    ASSERT_EQ(cut["line_items"].size(), 4u) << cut.dump();
    EXPECT_EQ(cut["line_items"][3]["description"], "COFFEE");
    EXPECT_NE(cut["warnings"].dump().find("line_items_from_rows: the model's reading was cut"), std::string::npos);
    auto whole = fields(nullptr);
    ex::check_latin_items(text, whole);
    EXPECT_EQ(whole["line_items"].size(), 2u);
}

TEST(LatinItemRows, ACutReadingPastHeaderTaxLinesAndEndingAtATaxLine) {
    // "VAT" / "No. GB ..." and "TAX" / "INVOICE" in the header read as end lines with no row above them; the rows
    // end at "VAT 20%", whose amount is the tax: the total below it is their target.
    const std::string text =
        "Boots\nVAT\nNo. GB 777 8654 33\nTAX\nINVOICE\n11 JUL 2022\n6:42:50 PM\n1x PLASTERS\n3.75\n$20.44\n$1.00\n"
        "1x COTTON BUDS\n2.97\n2x TOOTHPASTE\n12.58\nVAT 20%\n£3.22\nTOTAL AMOUNT\n£19.30\n";
    EXPECT_TRUE(ex::latin_item_row_readings(text).empty());
    const auto skipping = ex::latin_item_rows_skipping(text);
    ASSERT_TRUE(skipping);
    EXPECT_EQ(rows_of(skipping->rows), (std::vector<Row>{{"PLASTERS", 1, 3.75, 3.75},
                                                         {"COTTON BUDS", 1, 2.97, 2.97},
                                                         {"TOOTHPASTE", 2, 6.29, 12.58}}));
    nlohmann::ordered_json f = {
        {"currency", "GBP"},
        {"line_items", {{{"description", "PLASTERS"}, {"quantity", 1}, {"unit_price", 3.75}, {"amount", 3.75}}}},
        {"net_amount", nullptr},
        {"total_tax_amount", 3.22},
        {"total_amount", 19.30},
        {"warnings", {"output_truncated: generation stopped at max_new_tokens 512"}}};
    ex::check_latin_items(text, f);
    ASSERT_EQ(f["line_items"].size(), 3u) << f.dump();
    EXPECT_EQ(f["line_items"][2]["description"], "TOOTHPASTE");
}
