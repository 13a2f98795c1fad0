// OCR look-alikes of letters in Latin-script names (extract/latin_lookalikes.h).
#include <gtest/gtest.h>

#include <string>

#include "extract/company_name.h"
#include "extract/latin_lookalikes.h"

namespace ex = receipt::extract;

TEST(LatinLookalikes, DigitsInsideWordsBecomeLetters) {
    EXPECT_EQ(ex::read_letter_confusions("P0PULAR BOOK CO."), "POPULAR BOOK CO.");
    EXPECT_EQ(ex::read_letter_confusions("POPULAR 8OOK CO."), "POPULAR BOOK CO.");
    EXPECT_EQ(ex::read_letter_confusions("POPULAR 8O0K CO."), "POPULAR BOOK CO.");  // letters and digits alternate
    EXPECT_EQ(ex::read_letter_confusions("GARDENIA BAKERIE5 (KL) 5DN BHD"), "GARDENIA BAKERIES (KL) SDN BHD");
    EXPECT_EQ(ex::read_letter_confusions("WA1TROSE"), "WAITROSE");
    EXPECT_EQ(ex::read_letter_confusions("MR. D.I.Y. (M) SDN 8HD"), "MR. D.I.Y. (M) SDN BHD");
    EXPECT_EQ(ex::read_letter_confusions("Wa1greens"), "Walgreens");  // lower case: 1 -> l, 0 -> o
    EXPECT_EQ(ex::read_letter_confusions("Sh0p"), "Shop");
    EXPECT_EQ(ex::read_letter_confusions("8oots"), "Boots");  // a capitalised word's first letter
    EXPECT_EQ(ex::read_letter_confusions("5 0ak Ave"), "5 Oak Ave");
}

TEST(LatinLookalikes, NumbersCodesAndOrdinalsStay) {
    for (const std::string s : {"99 SPEED MART S/B", "OLIVE9 PHARMACY SDN BHD", "CT281 - TEALIVE SHELL",
                                "AMPANG 210 FIRST CITY PARKING", "1ST FLOOR", "21ST CENTURY", "KL08", "NO.15, JLN",
                                "(426989-K)", "SS2/24", "7-ELEVEN", "A1 MART", "iPh0ne", "TEL: 03-1234 5678"})
        EXPECT_EQ(ex::read_letter_confusions(s), s) << s;
}

TEST(LatinLookalikes, CompanySuffixWithALostLetter) {
    EXPECT_EQ(ex::repaired_company_suffix("POPULAR BOOK CO. (M) SDN BD"), "POPULAR BOOK CO. (M) SDN BHD");
    EXPECT_EQ(ex::repaired_company_suffix("POPULAR BOOK CO. (M) SDN BH"), "POPULAR BOOK CO. (M) SDN BHD");
    EXPECT_EQ(ex::repaired_company_suffix("MR. D.I.Y. (M) SD BHD"), "MR. D.I.Y. (M) SDN BHD");
    EXPECT_EQ(ex::repaired_company_suffix("AEON CO, (M) BHD"), "AEON CO. (M) BHD");
    EXPECT_EQ(ex::repaired_company_suffix("ACME TRADING CO,"), "ACME TRADING CO.");
    EXPECT_EQ(ex::repaired_company_suffix("POPULAR BOOK C0. (M) SDN BHD"), "POPULAR BOOK CO. (M) SDN BHD");
    EXPECT_EQ(ex::repaired_company_suffix("CO, LTD HOLDINGS"), "CO, LTD HOLDINGS");
    EXPECT_EQ(ex::repaired_company_suffix("POPULAR 8OOK CO. (M) SN BHD"), "POPULAR 8OOK CO. (M) SDN BHD");
    EXPECT_EQ(ex::repaired_company_suffix("GARDENI BAKERIES (KL) DN BHD"), "GARDENI BAKERIES (KL) SDN BHD");
    // Not both parts damaged, not without a word before, and other misprints ("SBN") stay as printed.
    EXPECT_EQ(ex::repaired_company_suffix("SD BH"), "SD BH");
    EXPECT_EQ(ex::repaired_company_suffix("SDN BD"), "SDN BD");
    EXPECT_EQ(ex::repaired_company_suffix("10 GRAM GOURMET SBN BHD"), "10 GRAM GOURMET SBN BHD");
}

TEST(LatinLookalikes, RegistrationBracketThatLostABracket) {
    EXPECT_EQ(ex::repaired_company_suffix("POPULAR BOOK CO. (M SDN BHD"), "POPULAR BOOK CO. (M) SDN BHD");
    EXPECT_EQ(ex::repaired_company_suffix("POPUAR BOOK CO. M) SDN BHD"), "POPUAR BOOK CO. (M) SDN BHD");
    EXPECT_EQ(ex::repaired_company_suffix("GARDENIA BAKERIES (KL) SDN BHD"), "GARDENIA BAKERIES (KL) SDN BHD");
    EXPECT_EQ(ex::repaired_company_suffix("AEON CO. (M) BHD"), "AEON CO. (M) BHD");
}

TEST(LatinLookalikes, CompanyLineReadsThroughTheDamage) {
    EXPECT_EQ(ex::company_line("POPULAR 8O0K CO. (M) SN BHD\nNO.149, JALAN\nBUKIT BINTANG,\n").value_or(""),
              "POPULAR BOOK CO. (M) SDN BHD");
    EXPECT_EQ(ex::company_line("MR. D.I.Y. (M) SD BHD\n(426989-K)\nNO.115, JALAN BUKIT BINTANG,\n").value_or(""),
              "MR. D.I.Y. (M) SDN BHD");
    // The model copied the end of the damaged line: the whole line, read.
    EXPECT_EQ(
        ex::company_line_ending_with("POPULAR 8OOK CO. (M) SDN BHD\n(886089-D)\n", "8OOK CO. (M) SDN BHD").value_or(""),
        "POPULAR BOOK CO. (M) SDN BHD");
}

TEST(LatinLookalikes, ItemDescriptions) {
    EXPECT_EQ(ex::latin_item_description_read("C0UPON"), "COUPON");
    EXPECT_EQ(ex::latin_item_description_read("1x SCREWDRIVER SET"), "SCREWDRIVER SET");
    EXPECT_EQ(ex::latin_item_description_read("Ix SCREWDRIVER SET"), "SCREWDRIVER SET");
    EXPECT_EQ(ex::latin_item_description_read("lx BALL PEN BLUE"), "BALL PEN BLUE");
    EXPECT_EQ(ex::latin_item_description_read("1xTISSUE 10S"), "TISSUE 10S");  // the space lost
    EXPECT_EQ(ex::latin_item_description_read("2xLED BULB 9W"), "LED BULB 9W");
    EXPECT_EQ(ex::latin_item_description_read("IXORA PLANT"), "IXORA PLANT");  // a word, no count
    EXPECT_EQ(ex::latin_item_description_read("BATTERY AA 4S 1 X 7.80"), "BATTERY AA 4S");  // the next box joined
    EXPECT_EQ(ex::latin_item_description_read("BUN 2 @ RM1.20"), "BUN");
    EXPECT_EQ(ex::latin_item_description_read("PAPER 2X4"), "PAPER 2X4");
    // Digits at a word's edge or before a unit, and sizes, stay.
    for (const std::string s : {"SUNSCREEN SPF50", "SUGAR 1KG", "MAGGI CURRY 5S", "SP5KG", "BATTERY AA 4S",
                                "MINERAL WATER 1.5L", "A4 PAPER 500S", "8PCS", "8OZ CUP", "Z4 CABLE", "I5"})
        EXPECT_EQ(ex::latin_item_description_read(s), s) << s;
    // At a word's edge: 8 / 0 before four or more capitals, I / l / Z before the digits of a size, Z before "%".
    EXPECT_EQ(ex::latin_item_description_read("8ANANAS"), "BANANAS");
    EXPECT_EQ(ex::latin_item_description_read("0RANGE JUICE"), "ORANGE JUICE");
    EXPECT_EQ(ex::latin_item_description_read("TISSUE I0S"), "TISSUE 10S");
    EXPECT_EQ(ex::latin_item_description_read("MILK Z% GAL"), "MILK 2% GAL");
}
