// Line items read from an item table written one box per line (extract/latin_table_rows.h), and the check that
// puts them in place of the model's (extract/item_checks.h).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <tuple>
#include <vector>

#include "extract/item_checks.h"
#include "extract/latin_table_cells.h"
#include "extract/latin_table_rows.h"

namespace ex = receipt::extract;

namespace {

using Row = std::tuple<std::string, double, double, double>;  // description, quantity, unit price, amount

std::vector<Row> rows_of(const ex::LatinItemRows& reading) {
    std::vector<Row> out;
    for (const auto& r : reading.rows)
        out.emplace_back(r.description, r.quantity.value_or(-1), r.unit_price.value_or(-1), r.amount);
    return out;
}

nlohmann::ordered_json fields_with(nlohmann::ordered_json items, double total) {
    return {{"currency", "MYR"},     {"line_items", std::move(items)},
            {"net_amount", nullptr}, {"total_tax_amount", nullptr},
            {"total_amount", total}, {"warnings", nlohmann::ordered_json::array()}};
}

}  // namespace

TEST(LatinTableRows, NumbersBeforeTheDescriptionUnderAHeadingWithATotalColumn) {
    // Code, count, unit price, amount and tax code, then the description on the line below; "TOTAL" in the heading
    // names a column and "TOT QTY:" ends the rows.
    const auto readings = ex::latin_table_row_readings(
        "HARDWARE SDN BHD\nDATE: 25/12/2018\nITEM\nQTY\nS/PRICE\nAMOUNT\nTAX\n"
        "1938\n2\n6.89\n13.78\nSR\n4\" ROLLER SET\n"
        "FG-A00019\n1\n40.28\n40.28\nSR\n7LT TOPLUS EMULSION PAINT\n"
        "TOT QTY:\n3\n54.06\nTOTAL SALES (EXCLUDING GST) :\n51.00\nTOTAL GST :\n3.06\n"
        "TOTAL SALES (INCLUSIVE OF GST) :\n54.06\n");
    ASSERT_FALSE(readings.empty());
    EXPECT_EQ(rows_of(readings[0]),
              (std::vector<Row>{{"4\" ROLLER SET", 2, 6.89, 13.78}, {"7LT TOPLUS EMULSION PAINT", 1, 40.28, 40.28}}));
    ASSERT_EQ(readings[0].later_totals.size(), 3u);
    EXPECT_DOUBLE_EQ(readings[0].later_totals[2], 54.06);
    // A restaurant's table: count, a course letter, the amount with its tax code, the description.
    const auto meals = ex::latin_table_row_readings(
        "RESTAURANT\nQTY\nDESCRIPTION\nTOTAL TAX\n1\nD\n30.00 SR\nFISH ITEM\n1\nD\n5.00 SR\nBEVERAGE\n"
        "TOTAL (EXCLUDING GST):\n35.00\n");
    ASSERT_FALSE(meals.empty());
    EXPECT_EQ(rows_of(meals[0]), (std::vector<Row>{{"FISH ITEM", 1, 30, 30}, {"BEVERAGE", 1, 5, 5}}));
    EXPECT_EQ(meals[0].end_amount.value_or(0), 35.00);
}

TEST(LatinTableRows, DescriptionFirstWithMoreColumnsCountsCarriedAndCountsWithUnits) {
    // A discount percentage column and a 5-digit code between the description and its numbers.
    auto r = ex::latin_table_row_readings(
        "KEY MAKER\nINVOICE\nNO.DESC/CODE\nQTY\nPRICE DISC%\nAMOUNT\n1 NORMAL KEY\n33100\n4\n4.00\n0.00\n16.00\n"
        "2 NORMAL KEY LONG\n33101\n1\n5.00\n0.00\n5.00\nTOTAL QTY : 5 SUB-TOTAL : 21.00\n");
    ASSERT_FALSE(r.empty());
    EXPECT_EQ(rows_of(r.back()), (std::vector<Row>{{"1 NORMAL KEY", 4, 4, 16}, {"2 NORMAL KEY LONG", 1, 5, 5}}));
    // The count printed before the description, below the amount of the row above.
    r = ex::latin_table_row_readings(
        "SHOKUDO\nQTY CODE/DESC\nTOTAL RM\n3\nSABA SHIO YAKI SET\n53.70\n4\nICED GREEN TEA\n4.00\nSUBTOTAL\n57.70\n");
    ASSERT_FALSE(r.empty());
    EXPECT_EQ(rows_of(r.back()),
              (std::vector<Row>{{"SABA SHIO YAKI SET", 3, 17.90, 53.70}, {"ICED GREEN TEA", 4, 1, 4}}));
    // Counts with units, unit prices of four decimals; a count and unit price around the description.
    r = ex::latin_table_row_readings(
        "SHOP\nDESCRIPTION\nPRICE\nDISC\nAMOUNT TAX\nQTY\nRM\nRM\nCODE\nPRICE LABEL (PLAIN)\n2.00 ROLL\n*\n1.5000\n"
        "3.00\nSR\n2 GREEN TEA @ 1.00\n2.00 SR\nITEM COUNT: 2\nSUB TOTAL (EXCLUSIVE GST):\n5.00\n");
    ASSERT_FALSE(r.empty());
    EXPECT_EQ(rows_of(r.back()), (std::vector<Row>{{"PRICE LABEL (PLAIN)", 2, 1.5, 3}, {"GREEN TEA", 2, 1, 2}}));
    // A count of three decimals before the description (Portuguese receipts: a weight or a count).
    r = ex::latin_table_row_readings("CAFE\n12:30\n0,800 ESPETADA/KG\n20,80\n3,000 CAFE\n2,25\nTOTAL\n23,05\n");
    ASSERT_FALSE(r.empty());
    EXPECT_EQ(rows_of(r.back()), (std::vector<Row>{{"ESPETADA/KG", 0.8, 26, 20.8}, {"CAFE", 3, 0.75, 2.25}}));
}

TEST(LatinTableRows, TheAmountAfterTheCountOfACountLineAndCountsWithAStar) {
    // "TOTAL QTY:" is no heading line for its colon; its amount follows the count.
    auto r = ex::latin_table_row_readings(
        "SHOP\nITEM\nQTY\nS/PRICE\nS/PRICE\nAMOUNT\nTAX\n1113\n2\n48.00\n50.88\n101.76\nSR\n105W E27 PLCE TUBE\n"
        "TOTAL QTY:\n2\n101.76\nTOTAL SALES(EXCLUDING GST) :\n96.00\nROUNDING :\n-0.01\n");
    ASSERT_FALSE(r.empty());
    EXPECT_EQ(rows_of(r[0]), (std::vector<Row>{{"105W E27 PLCE TUBE", 2, 50.88, 101.76}}));
    EXPECT_DOUBLE_EQ(r[0].end_amount.value_or(0), 101.76);
    r = ex::latin_table_row_readings(
        "SHOP\nDESC\nPRICE\nDISC\nAMOUNT\nTAX\nQTY\nRM\nRM\nCODE\nPOLY CHOPPING BOARD - 013\n3 UNIT *\n4.80\n0.00\n"
        "14.40\nSR\nPLASTIC BOWL\n8 UNIT *\n2.80\n0.00\n22.40\nSR\nQTY:\n11\nTOTAL\n36.80\n");
    ASSERT_FALSE(r.empty());
    EXPECT_EQ(rows_of(r[0]),
              (std::vector<Row>{{"POLY CHOPPING BOARD - 013", 3, 4.8, 14.4}, {"PLASTIC BOWL", 8, 2.8, 22.4}}));
}

TEST(LatinTableRows, CountLinesAreNoHeadingsAndATaxSummaryIsNoTable) {
    // "TOTAL QUANTITY" (heading words, no colon) counts the items: it ends the rows. "GROSS AMT :" ends them too; a
    // unit price after the description without a count ("LED TUBE @16.00").
    auto r = ex::latin_table_row_readings(
        "SHOP\nITEM\nQTY\nU/P\nAMOUNT\n(RM)\n120000143\n1\n16.00\n16.00\nS\nSCHNEIDER 15A SOCKET\n"
        "TOTAL QUANTITY\n1\nSUB-TOTAL (GST)\n16.00\n");
    ASSERT_FALSE(r.empty());
    EXPECT_EQ(rows_of(r[0]), (std::vector<Row>{{"SCHNEIDER 15A SOCKET", 1, 16, 16}}));
    r = ex::latin_table_row_readings(
        "SHOP\nITEM\nQTY\nPRICE\nAMOUNT\n30W LED TUBE @16.00\n00004285\n5\n16.00\n80.00\nSR\nGROSS AMT :\n80.00\n");
    ASSERT_FALSE(r.empty());
    EXPECT_EQ(rows_of(r[0]), (std::vector<Row>{{"30W LED TUBE", 5, 16, 80}}));
    // Under a tax summary's heading: no item rows.
    EXPECT_TRUE(ex::latin_table_row_readings("SHOP\nNET TOTAL\n174.90\nTAX SUMMARY\nAMOUNT\nTAX\n"
                                             "SVC SERVICE CHARGE 10\n150.00\n15.00\nTOTAL\n165.00\n")
                    .empty());
}

TEST(LatinTableRows, RowsBelowTheHeaderWithoutAHeadingAndShelfLocations) {
    // No heading: the rows start below the last header line ("-INVOICE-"); a shelf location with its slot under the
    // description ("HC03-7 - 15") is a code, the barcode too; the count and an "X" on lines of their own.
    const auto r = ex::latin_table_row_readings(
        "MR D.I.Y. SDN BHD\n-INVOICE-\nCHOPPING BOARD 35.5X25.5CM\nEZ10HD05 - 24\n8970669\n1\nX\n19.00\n19.00\n"
        "AIR PRESSURE SPRAYER 1.5L\nPI12PJ11-4 - 6/300\n9066468\n2\nX\n4.01\n8.02\nITEM(S) : 2\nQTY(S) : 3\nTOTAL\n"
        "RM 27.02\n");
    ASSERT_FALSE(r.empty());
    EXPECT_EQ(rows_of(r.back()), (std::vector<Row>{{"CHOPPING BOARD 35.5X25.5CM", 1, 19, 19},
                                                   {"AIR PRESSURE SPRAYER 1.5L", 2, 4.01, 8.02}}));
    ASSERT_FALSE(r.back().later_totals.empty());
    EXPECT_DOUBLE_EQ(r.back().later_totals[0], 27.02);
    // A count and unit price below the amount belong to its row ("1.14" / "2 @ 0.57"), and so does a unit price
    // alone ("18.46" / "@ 9.23": 2 units).
    const auto uk = ex::latin_table_row_readings(
        "WAITROSE\n23/11/19\n10:18AM\nBANANAS\n1.14\n2 @ 0.57\nTISSUE 10S\n9.12\nTISSUE 10S\n18.46\n@ 9.23\n"
        "SUBTOTAL\n£28.72\n");
    ASSERT_FALSE(uk.empty());
    EXPECT_EQ(
        rows_of(uk.back()),
        (std::vector<Row>{{"BANANAS", 2, 0.57, 1.14}, {"TISSUE 10S", 1, 9.12, 9.12}, {"TISSUE 10S", 2, 9.23, 18.46}}));
}

TEST(LatinTableRows, SectionsUnderSubtotalsAndReturnsAsNegativeAmounts) {
    // Each section adds up to the subtotal below it: one reading of both first, its end amount their sum.
    const auto r = ex::latin_table_row_readings(
        "BAKERIES\nDESCRIPTION\nU.P\nISS\nEXC\nD\nSALE\nAMT(RM)\n"
        "O.C. WHITE\n2.13\n5\n2\n0\n3\n6.39\nO.C JUMBO\n2.97\n0\n2\n0\n-2\n-5.94\nTOTAL 0% SUPPLIES:\n0.45\n"
        "KAYA-ORI\n2.40\n5\n0\n0\n5\n12.00\nTOTAL 6% SUPPLIES (EXCL. GST):\n12.00\nGST:\n0.72\n"
        "TOTAL PAYABLE:\n13.17\n");
    ASSERT_EQ(r.size(), 2u);
    EXPECT_EQ(
        rows_of(r[0]),
        (std::vector<Row>{{"O.C. WHITE", 3, 2.13, 6.39}, {"O.C JUMBO", -1, -1, -5.94}, {"KAYA-ORI", 5, 2.4, 12}}));
    EXPECT_DOUBLE_EQ(r[0].end_amount.value_or(0), 12.45);
    EXPECT_EQ(r[1].rows.size(), 2u);  // the first section alone
}

TEST(LatinTableRows, NoReadingWithoutAHeaderOrWhenRowsNameNoItem) {
    // Neither a table heading nor a header line above the rows.
    EXPECT_TRUE(ex::latin_table_row_readings("SHOP\nMILO 1KG\n1\n28.61\nSUBTOTAL\n28.61\n").empty());
    // A tax summary is no item row.
    EXPECT_TRUE(ex::latin_table_row_readings("SHOP\nQTY\nAMOUNT\nTAX SR @ 6%\n1\n16.71\nTOTAL\n16.71\n").empty());
    // A run of numbers without a money amount, and runs that do not pair.
    EXPECT_TRUE(ex::latin_table_row_readings("SHOP\nQTY\nAMOUNT\n1\nCOKE\n2\nTOTAL\n3.00\n").empty());
    EXPECT_TRUE(ex::latin_table_row_readings("SHOP\nITEM\nAMOUNT\nCOKE\n2.10\nTEA\nTOTAL\n2.10\n").empty());
    EXPECT_TRUE(ex::latin_table_row_readings("").empty());
    EXPECT_TRUE(ex::latin_table_row_readings(std::string(5000, '9') + "\nQTY\n").empty());
}

TEST(LatinTableRows, TheTableReplacesModelItemsThatDoNotAddUp) {
    const std::string text =
        "KEY MAKER\n24-MAR-2018 03:44:22 PM\nINVOICE\nNO.DESC/CODE\nQTY\nPRICE DISC%\nAMOUNT\n1 NORMAL KEY\n33100\n4\n"
        "4.00\n0.00\n16.00\n2 NORMAL KEY LONG\n33101\n1\n5.00\n0.00\n5.00\nTOTAL QTY : 5 SUB-TOTAL : 21.00\n"
        "NET TOTAL :\n21.00\n";
    auto f = fields_with({{{"description", "10\" WING"}, {"quantity", 1}, {"unit_price", 5}, {"amount", 5}}}, 21.0);
    ex::check_latin_items(text, f);
    ASSERT_EQ(f["line_items"].size(), 2u) << f.dump();
    EXPECT_EQ(f["line_items"][0]["description"], "1 NORMAL KEY");
    EXPECT_DOUBLE_EQ(f["line_items"][0]["quantity"].get<double>(), 4);
    EXPECT_DOUBLE_EQ(f["line_items"][0]["amount"].get<double>(), 16);
    EXPECT_DOUBLE_EQ(f["line_items"][1]["amount"].get<double>(), 5);
    EXPECT_NE(f["warnings"].dump().find("line_items_from_rows"), std::string::npos) << f.dump();
    // Model items that add up stay.
    auto kept = fields_with({{{"description", "NORMAL KEY"}, {"quantity", 4}, {"unit_price", 4}, {"amount", 16}},
                             {{"description", "NORMAL KEY LONG"}, {"quantity", 1}, {"unit_price", 5}, {"amount", 5}}},
                            21.0);
    ex::check_latin_items(text, kept);
    EXPECT_EQ(kept["line_items"][0]["description"], "NORMAL KEY") << kept.dump();
    // Model items that add up but are not printed, with no printed row of their amount, are another shop's: the
    // rows replace them.
    auto other =
        fields_with({{{"description", "POMEAT KECIL"}, {"quantity", 1}, {"unit_price", 21}, {"amount", 21}}}, 21.0);
    ex::check_latin_items(text, other);
    ASSERT_EQ(other["line_items"].size(), 2u) << other.dump();
    EXPECT_EQ(other["line_items"][1]["description"], "2 NORMAL KEY LONG");
    EXPECT_NE(other["warnings"].dump().find("are not printed and no row has their amount"), std::string::npos);
}

TEST(LatinTableRows, NumberedRowsWithTheirDescriptionOverSeveralLines) {
    // "1. <code>" opens a row; its description runs over the lines up to the count and unit price, a size line
    // without letters included; the amount and tax code close it.
    const auto r = ex::latin_table_row_readings(
        "STATIONERY SHOP\nTAX INVOICE\nOWNED BY :\nSTATIONERY SUPPLY SDN BHD\nCASH SALES COUNTER\n"
        "1. 2012-0029\nORDER CHIT NCR\n3.5\"X6\"\n4 X 2.9000\n11.60\nSR\n"
        "2. 2012-0042\nRECEIPT BOOK 80PGS A4\nCARD COVER\n1 X 3.3000\n3.30\nSR\n"
        "TOTAL SALES INCLUSIVE GST @6%\n14.90\n");
    ASSERT_FALSE(r.empty());
    EXPECT_EQ(rows_of(r[0]), (std::vector<Row>{{"ORDER CHIT NCR 3.5\"X6\"", 4, 2.9, 11.6},
                                               {"RECEIPT BOOK 80PGS A4 CARD COVER", 1, 3.3, 3.3}}));
    EXPECT_EQ(r[0].end_amount.value_or(0), 14.90);
    // A count printed as a unit price of four decimals is no unit price of 1 ("1.0000" / "48.00": one item).
    const auto one = ex::latin_table_row_readings(
        "TRADING\nTAX INVOICE\n1. MAX COATING 3.5 LITRE\n1.0000\n48.00\nSR\nTOTAL SALES\n48.00\n");
    ASSERT_FALSE(one.empty());
    EXPECT_EQ(rows_of(one[0]), (std::vector<Row>{{"MAX COATING 3.5 LITRE", 1, 48, 48}}));
}

TEST(LatinTableRows, CountedRowsWithTheUnpricedPartsOfASet) {
    // A set's parts have a count and no amount; a note without a count belongs to the row above; the order kind's
    // total ends the rows.
    const auto r = ex::latin_table_row_readings(
        "BURGER PLACE\nQTY ITEM\nTOTAL\n1 L CHICKEN BURGER\n11.10\n1 L COLA\nLESS ICE\n1 L FRIES\n2 SMALL CONE\n2.00\n"
        "1 BBQ SAUCE\nTAKEOUT TOTAL (INCL GST)\n13.10\nTOTAL ROUNDED\n13.10\n");
    ASSERT_FALSE(r.empty());
    EXPECT_EQ(rows_of(r[0]), (std::vector<Row>{{"L CHICKEN BURGER", 1, 11.1, 11.1},
                                               {"L COLA LESS ICE", 1, 0, 0},
                                               {"L FRIES", 1, 0, 0},
                                               {"SMALL CONE", 2, 1, 2},
                                               {"BBQ SAUCE", 1, 0, 0}}));
    EXPECT_EQ(r[0].end_amount.value_or(0), 13.10);
}

TEST(LatinTableRows, NumbersFirstBelowHeaderTextWithPromotionsAndGluedTaxCodes) {
    // Opening hours above the rows; each row's count and barcode, then the amount with its tax code glued on, then
    // the description; a promotion line and its negative amount discount the row above, also after the last row.
    const auto r = ex::latin_table_row_readings(
        "MART BHD\nGST ID : 002017394688\nSHOPPING HOURS\nSUN-THU:1000 HRS - 2200 HRS\n"
        "1X 000008204363\n14.99SR\nCHOCOLATE SHARE B\nITEM PROMO @9.99\n-5.00\n"
        "1X\n000001018506\n21.10ZR\nBERRY TOWEL\n1X 000000811101\n2.50SR\nTAMAGO (S)\nDISC 30% @1.75\n-0.75\n"
        "SUB-TOTAL\n32.84\n");
    ASSERT_FALSE(r.empty());
    EXPECT_EQ(rows_of(r[0]), (std::vector<Row>{{"CHOCOLATE SHARE B", 1, 14.99, 14.99},
                                               {"ITEM PROMO", -1, -1, -5},
                                               {"BERRY TOWEL", 1, 21.1, 21.1},
                                               {"TAMAGO (S)", 1, 2.5, 2.5},
                                               {"DISC 30%", -1, -1, -0.75}}));
    EXPECT_EQ(r[0].end_amount.value_or(0), 32.84);
}

TEST(LatinTableRows, RowsBelowTheHeaderWhoseDescriptionReadsAsALabel) {
    // "STORAGE BOX 70581" reads as a header label with its number: the rows from the header line above it are read
    // too; a shelf location with slashes is a code; "ITEM: 2" counts the items.
    auto r = ex::latin_table_row_readings(
        "HOME STORE\n-TAX INVOICE-\nSTORAGE BOX 70581\n*S\nUE21-31/2/ - 12\n6936136217897\n1 X 12.50\n12.50\n"
        "ITEM(S) : 1\nTOTAL INCL. GST@6%\nRM 12.50\n");
    ASSERT_EQ(r.size(), 1u);
    EXPECT_EQ(rows_of(r[0]), (std::vector<Row>{{"STORAGE BOX 70581", 1, 12.5, 12.5}}));
    r = ex::latin_table_row_readings(
        "MART\nCASHIER: ANN\n19/05/16 12:01:50 PM\nBLUEBERRY BUN 180G\n9555039900843\n3.05*1\n3.05 S\n"
        "PAK CHOY +/- IKAT\n7070184\n0.94*2000\n3.78 Z\nITEM: 2\nTOTAL WITH GST @ 6%\n6.83\n");
    ASSERT_FALSE(r.empty());
    EXPECT_EQ(rows_of(r[0]),
              (std::vector<Row>{{"BLUEBERRY BUN 180G", 1, 3.05, 3.05}, {"PAK CHOY +/- IKAT", 1, 3.78, 3.78}}));
    // "@5 X RM 12.50": a count and unit price below the amount stay with its row.
    r = ex::latin_table_row_readings(
        "SPEED MART\n05-02-18\n2506 LOKAM MANDARIN S\nRM62.50 Z\n@5 X RM 12.50\n2508 LOKAM MANDARIN M\nRM79.00 Z\n"
        "@5 X RM 15.80\nTOTAL SALES (INCLUSIVE GST) RM\n141.50\n");
    ASSERT_FALSE(r.empty());
    EXPECT_EQ(rows_of(r[0]),
              (std::vector<Row>{{"2506 LOKAM MANDARIN S", 5, 12.5, 62.5}, {"2508 LOKAM MANDARIN M", 5, 15.8, 79}}));
}

TEST(LatinTableRows, NumberedRowsWithDiscountsAboveARoundingAndCountLinesBelowTheRows) {
    // "1)" numbers a row, a barcode before its description is left out, "DISC" / "-28.00" among the numbers; the rows
    // add up to the total below the rounding less the rounding.
    auto r = ex::latin_table_row_readings(
        "PHARMACY\nDATE : 12/13/2016 9:52:15 AM\n1)9557892102639 IBUPROFEN 400MG 10\n3.00 X 3.00\n9.00 Z\n"
        "2)9316254866387 VITAMIN EPO 1000MG\n2.00 X 68.00\nDISC\n-28.00\n108.00 *\nROUNDING "
        ":\n0.02\nTOTAL\n:\n117.02\n");
    ASSERT_FALSE(r.empty());
    EXPECT_EQ(rows_of(r[0]), (std::vector<Row>{{"IBUPROFEN 400MG 10", 3, 3, 9}, {"VITAMIN EPO 1000MG", 2, 54, 108}}));
    EXPECT_DOUBLE_EQ(r[0].end_amount.value_or(0), 117.0);
    // A "QTY" line below the rows with its count and the total; a bakery's discount percentage column.
    r = ex::latin_table_row_readings(
        "BAKERY\nCODE\nDESC\nQTY\nRM\nD%\nAMT\n181010 FRENCH LOAF\n8\n2.40\n0\n19.20 S\n101110 CHEESE "
        "TART\n1\n3.50\n30\n"
        "2.45\nS\nQTY\n9\n21.65\nROUNDING ADJ\n0.00\n");
    ASSERT_FALSE(r.empty());
    EXPECT_EQ(rows_of(r[0]),
              (std::vector<Row>{{"181010 FRENCH LOAF", 8, 2.4, 19.2}, {"101110 CHEESE TART", 1, 2.45, 2.45}}));
    EXPECT_DOUBLE_EQ(r[0].end_amount.value_or(0), 21.65);
    // Tax codes in brackets, a unit column, a short code; "ITEM COUNT" ends the rows; "CASH BOOK" is an item.
    r = ex::latin_table_row_readings(
        "BEAUTY\nCASHIER\n: ANN\nSNAIL MOISTURE GEL\nEAC\n[SR]\nBD06000800\n1 * 39.90\n39.90\nDISCOUNT 30%\nEAC\n[ZR]\n"
        "DIS30\n1 * 0.00\n0.00\nCASH BOOK 80PGS A4\n[SR]\nBD07000100\n1 * 3.30\n3.30\nITEM COUNT\n3\nTOTAL "
        "SALES\n43.20\n");
    ASSERT_FALSE(r.empty());
    EXPECT_EQ(rows_of(r[0]), (std::vector<Row>{{"SNAIL MOISTURE GEL", 1, 39.9, 39.9},
                                               {"DISCOUNT 30%", 1, 0, 0},
                                               {"CASH BOOK 80PGS A4", 1, 3.3, 3.3}}));
}

TEST(LatinTableRows, FuelSale) {
    // The litres, the fuel, the amount with its tax letter and the price per litre: one row when they agree.
    auto r = ex::latin_table_row_readings(
        "PETROL STATION\nINVOICE NUMBER 60000053668\n35.10 LITRE PUMP # 02\nV-POWER 97\nRM\n86.00 "
        "A\n2.450\nRM\n/LITRE\n"
        "TOTAL\nRM\n86.00\nVISA\nRM\n86.00\n");
    ASSERT_EQ(r.size(), 1u);
    EXPECT_EQ(rows_of(r[0]), (std::vector<Row>{{"V-POWER 97", 35.1, 2.45, 86}}));
    EXPECT_DOUBLE_EQ(r[0].end_amount.value_or(0), 86.0);
    // Litres and price that do not make the amount are no fuel sale.
    r = ex::latin_table_row_readings(
        "PETROL STATION\n35.10 LITRE PUMP # 02\nV-POWER 97\n70.00 A\n2.450\nTOTAL\n70.00\n");
    EXPECT_TRUE(r.empty() || rows_of(r[0]) != (std::vector<Row>{{"V-POWER 97", 35.1, 2.45, 70}}));
}

TEST(LatinTableRows, NumberRowsOfTextWrittenOneLinePerRow) {
    // An OCR engine that returns text lines writes a table row's numbers on one line: they are read as boxes.
    auto r = ex::latin_table_row_readings(
        "HARDWARE\nCASHIER : USER TIME: 16:15:00\nIT QTY S/PRICE AMOUNT TAX\n1476 3 15.90 47.70 SR\n"
        "25KG CREAM-88\n1477 2 X 2.20 4.40 SR\nPVC TAPE\nTOTAL QTY: 5\n52.10\n");
    ASSERT_FALSE(r.empty());
    EXPECT_EQ(rows_of(r[0]), (std::vector<Row>{{"25KG CREAM-88", 3, 15.9, 47.7}, {"PVC TAPE", 2, 2.2, 4.4}}));
    EXPECT_DOUBLE_EQ(r[0].end_amount.value_or(0), 52.10);
    // The amounts after a description, "RM" joined to its number.
    r = ex::latin_table_row_readings(
        "SHOP\nITEM QTY TOTAL\nVEGE\nRM 5.50 1 RM 5.50\nPORK\n$2.70 1 $2.70\nTOTAL AMOUNT:\n8.20\n");
    ASSERT_FALSE(r.empty());
    EXPECT_EQ(rows_of(r[0]), (std::vector<Row>{{"VEGE", 1, 5.5, 5.5}, {"PORK", 1, 2.7, 2.7}}));
    // "@2 X" / "RM 10.40": a count and unit price broken in two by the split of a row into boxes.
    r = ex::latin_table_row_readings(
        "SPEED MART\n21-05-17\n154\nAJINOMOTO 1KG\nRM20.80 S\n@2 X\nRM 10.40\nTOTAL SALES (INCLUSIVE GST)\nRM 20.80\n");
    ASSERT_FALSE(r.empty());
    EXPECT_EQ(rows_of(r[0]), (std::vector<Row>{{"AJINOMOTO 1KG", 2, 10.4, 20.8}}));
    // A line of words and numbers stays one line.
    const auto cells = ex::table::table_lines(*ex::latin_row_lines("2 GREEN TEA 1.00 2.00\n1 X 2.10"));
    EXPECT_EQ(cells.lines.read.size(), 2u);
    EXPECT_EQ(cells.cells.size(), 2u);
}

TEST(LatinTableRows, TextLinesHoldingAWholeRowReadAsTheirCells) {
    // A whole printed row on one text line, which the row split leaves whole when it ends in no amount: read as
    // its cells only when asked (the readings of a text in rows whose boxes-like reading found none).
    const std::string text =
        "BAKERY\nDATE: 05/01/2018 10:02\nCODE DESC QTY RM DISC AMT\n201019 KAYA PUFF 4 1.60 0\n6.40 S\n231027 SLICE CAKE 1 8.70 0\n8.70 S\n"
        "QTY 5\n15.10\n";
    const auto plain = ex::latin_table_row_readings(text);
    EXPECT_TRUE(plain.empty() || rows_of(plain[0]).size() != 2u);
    auto r = ex::latin_table_row_readings(text, true);
    ASSERT_FALSE(r.empty());
    EXPECT_EQ(rows_of(r[0]),
              (std::vector<Row>{{"201019 KAYA PUFF", 4, 1.6, 6.4}, {"231027 SLICE CAKE", 1, 8.7, 8.7}}));
    // A count with a decimal, a tax code in brackets or with a mark after the amount.
    r = ex::latin_table_row_readings(
        "NOODLE HOUSE\nDESCRIPTION QTY PRICE AMOUNT\n(T02) BRAISED PORK 2.0\n7.00\n14.00\n"
        "FRIED RICE 3 PAX 1 71.00 (S)\n1 HSS DRILL 2 4.00 8.00 SR*\nSUB TOTAL:\n93.00\n",
        true);
    ASSERT_FALSE(r.empty());
    EXPECT_EQ(rows_of(r[0]), (std::vector<Row>{{"(T02) BRAISED PORK", 2, 7, 14},
                                               {"FRIED RICE 3 PAX", 1, 71, 71},
                                               {"1 HSS DRILL", 2, 4, 8}}));
    // A count set apart from its description by the row split is joined to it again; a size or count with its unit
    // ends the description ("SUGAR 1KG", "TISSUE 10S"), an amount OCR damaged does not ("3.9S").
    r = ex::latin_table_row_readings(
        "GROCER\n23-09-18 14:21:21\nQTY\nDESC\nPRICE\nAMOUNT\n1\nSUGAR 1KG\n2.60\n2.60\n1\nMILK 2% GAL 3.9S\n3.95\n1\n"
        "TISSUE 10S\n8.55\n8.55\nSUBTOTAL\n15.10\n",
        true);
    ASSERT_FALSE(r.empty());
    EXPECT_EQ(rows_of(r[0]), (std::vector<Row>{{"SUGAR 1KG", 1, 2.6, 2.6},
                                               {"MILK 2% GAL", 1, 3.95, 3.95},
                                               {"TISSUE 10S", 1, 8.55, 8.55}}));
    // "RM2.25 ST": an amount with its tax code; "ITEM 2 TOTAL WITH GST" ends the rows.
    r = ex::latin_table_row_readings(
        "BREAD SHOP\nDATE : 09/06/2018 18:47:29\nBUTTER BUN\n1\nRM2.25 ST\nGREEN TEA MOCHI\n1\nRM3.30 ST\n"
        "ITEM 2 TOTAL WITH GST @ 6%\n5.55\n");
    ASSERT_FALSE(r.empty());
    EXPECT_EQ(rows_of(r[0]), (std::vector<Row>{{"BUTTER BUN", 1, 2.25, 2.25}, {"GREEN TEA MOCHI", 1, 3.3, 3.3}}));
    EXPECT_DOUBLE_EQ(r[0].end_amount.value_or(0), 5.55);
    // The check takes these rows when no other reading adds up.
    nlohmann::ordered_json f = fields_with(nlohmann::ordered_json::array(), 15.10);
    ex::check_latin_items(text, f);
    ASSERT_EQ(f["line_items"].size(), 2u);
    EXPECT_EQ(f["line_items"][1]["description"], "231027 SLICE CAKE");
    EXPECT_DOUBLE_EQ(f["line_items"][1]["amount"].get<double>(), 8.7);
    // Not when the model's items add up and are printed; when they are not printed, yes.
    f = fields_with({{{"description", "KAYA PUFF"}, {"quantity", 1}, {"unit_price", 15.1}, {"amount", 15.1}}}, 15.10);
    ex::check_latin_items(text, f);
    ASSERT_EQ(f["line_items"].size(), 1u);
    EXPECT_EQ(f["line_items"][0]["description"], "KAYA PUFF");
    f = fields_with({{{"description", "SOUR CHICKEN"}, {"quantity", 1}, {"unit_price", 15.1}, {"amount", 15.1}}},
                    15.10);
    ex::check_latin_items(text, f);
    EXPECT_EQ(f["line_items"].size(), 2u);
}
