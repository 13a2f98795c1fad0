// Latin-script house numbers as printed (extract/latin_address.h).
#include <gtest/gtest.h>

#include <string>

#include "extract/latin_address.h"

namespace ex = receipt::extract;

TEST(LatinAddress, GarbledHouseNumberIsReadFromThePrint) {
    EXPECT_EQ(ex::house_number_as_printed("SHOP\n529Station Road\nSpringfield, IL 62704\n",
                                          "259 Station Road Springfield, IL 62704"),
              "529 Station Road Springfield, IL 62704");
    EXPECT_EQ(ex::house_number_as_printed("AEON CO. (M) BHD\n(664386-H)\nNO.138, JALAN SS 2/24, TAMAN UNIVERSITI,\n",
                                          "NO.183, JALAN SS 2/24, TAMAN UNIVERSITI,"),
              "NO.138, JALAN SS 2/24, TAMAN UNIVERSITI,");
    // Digit look-alikes in the print; the street on the next line.
    EXPECT_EQ(ex::house_number_as_printed("SAFEWAY\n8B86 Station Road\n", "8868 Station Road Columbus, OH 43215"),
              "8886 Station Road Columbus, OH 43215");
    EXPECT_EQ(ex::house_number_as_printed("JOE'S\n6823 Main\nSt\n", "6283 Main St Springfield, IL 62704"),
              "6823 Main St Springfield, IL 62704");
    EXPECT_EQ(ex::house_number_as_printed("SHOP\nLOT 12A JALAN BESAR\n", "LOT 21A JALAN BESAR"), "LOT 12A JALAN BESAR");
    // The printed street lost or changed a letter to OCR.
    EXPECT_EQ(ex::house_number_as_printed("MR. D.I.Y.\nNO.39, JAAN ANGSA, TAMAN MELAWATI,\n",
                                          "NO.93, JALAN ANGSA, TAMAN MELAWATI,"),
              "NO.39, JALAN ANGSA, TAMAN MELAWATI,");
    EXPECT_EQ(ex::house_number_as_printed("WALMART\n8153 Maket St\nSeattle, WA 98101\n", "1853 Market St Seattle, WA 98101"),
              "8153 Market St Seattle, WA 98101");
    EXPECT_EQ(ex::house_number_as_printed("SHOP\nNO.B2, JALAN 8UKIT\nBINTANG,\n", "NO.28, JALAN BUKIT BINTANG,"),
              "NO.82, JALAN BUKIT BINTANG,");
}

TEST(LatinAddress, NumberLeftAlone) {
    const std::string text = "SHOP\n124 Market Street\nGlasgow G1 3SL\n";
    EXPECT_EQ(ex::house_number_as_printed(text, "124 Market Street Glasgow G1 3SL"), std::nullopt);  // printed
    EXPECT_EQ(ex::house_number_as_printed(text, "Market Street Glasgow"), std::nullopt);  // no house number
    EXPECT_EQ(ex::house_number_as_printed(text, "124 High Street Glasgow"), std::nullopt);  // another street
    EXPECT_EQ(ex::house_number_as_printed(text, "421 Marsh Lane Glasgow"), std::nullopt);    // other street words
    // Two printed numbers before the same street: undecided.
    EXPECT_EQ(ex::house_number_as_printed("SHOP\n12 Market Street\nHQ: 14 Market Street\n", "21 Market Street"),
              std::nullopt);
    EXPECT_EQ(ex::house_number_as_printed("店\n新宿1-2-3\n", "新宿1-2-4"), std::nullopt);
}

TEST(LatinAddress, AddressThatReadsThePrintThroughOcrDamage) {
    const std::string text = "WAITROSE\nLeeds LS1 4DY\n34 Maret Street\nVAT No. GB 938 1571 80\n";
    // In the paper's order, a letter OCR dropped put back.
    EXPECT_TRUE(ex::address_reads_print(text, "34 Market Street Leeds LS1 4DY"));
    const std::string my = "NO.75,JALAN SAGU 18,\nTAMN UNIVERSITI,\nPULAU PINANG.\n10200 GEORGETOWN,\n";
    EXPECT_TRUE(ex::address_reads_print(my, "NO.75, JALAN SAGU 18, TAMAN UNIVERSITI, 10200 GEORGETOWN, PULAU PINANG."));
    // A digit not printed, a word printed nowhere, three damaged words, or a Japanese receipt: no.
    EXPECT_FALSE(ex::address_reads_print(text, "35 Market Street Leeds LS1 4DY"));
    EXPECT_FALSE(ex::address_reads_print(text, "34 Market Road Leeds LS1 4DY"));
    EXPECT_FALSE(ex::address_reads_print("34 Maret Stret\nLeds LS1 4DY\n", "34 Market Street Leeds LS1 4DY"));
    EXPECT_FALSE(ex::address_reads_print("東京都\n34 Maret Street\n", "34 Market Street"));
    EXPECT_EQ(ex::address_words("NO.75, JALAN  SAGU\n18"), (std::vector<std::string>{"NO.75", "JALAN", "SAGU", "18"}));
}

TEST(LatinAddress, NumbersRead) {
    EXPECT_EQ(ex::address_numbers_read("N0.16, JALAN PUCHONG, 811D0 JOHOR BAHRU, JOHOR."),
              "NO.16, JALAN PUCHONG, 81100 JOHOR BAHRU, JOHOR.");
    EXPECT_EQ(ex::address_numbers_read("TAMAN SRI GOMBAK, 4730O PETALING JAYA, SELANGOR."),
              "TAMAN SRI GOMBAK, 47300 PETALING JAYA, SELANGOR.");
    EXPECT_EQ(ex::address_numbers_read("2490 High Street Seattle, WA g8101"), "2490 High Street Seattle, WA 98101");
    EXPECT_EQ(ex::address_numbers_read("121 Station Road Manchester M11AE"), "121 Station Road Manchester M1 1AE");
    EXPECT_EQ(ex::address_numbers_read("Leeds LS14DY"), "Leeds LS1 4DY");
    // Nothing to read: printed whole, two look-alikes, a lot number, no town after it, Japanese.
    for (const std::string a : {"121 Station Road Manchester M1 1AE", "NO.16, JALAN PUCHONG, 81100 JOHOR BAHRU",
                                "NO.16, 8I1D0 JOHOR BAHRU", "LOT 1851B, JALAN KPB 6", "LOT 1851B JALAN KPB 6", "NOTE 811D0",
                                "東京都新宿区 N0.1 811D0 TOKYO"})
        EXPECT_EQ(ex::address_numbers_read(a), std::nullopt) << a;
}
