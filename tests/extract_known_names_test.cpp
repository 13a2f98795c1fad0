// Store names known from training (extract/known_names.h): the list file and the restoring of OCR-damaged names.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "extract/known_names.h"
#include "receipt/errors.h"

namespace ex = receipt::extract;

namespace {

ex::KnownNames sample() {
    return ex::KnownNames::parse("# comment\n"
                                 "952\tツルハドラッグ\n"
                                 "1596\tセブン-イレブン\n"
                                 "897\tエディオン\n"
                                 "964\tライフ\n"
                                 "812\tローソン\n"
                                 "144\tGARDENIA BAKERIES (KL) SDN BHD\n"
                                 "4\tGARDENIA BAKERIES (KI ) SDN BHD\n"
                                 "48\tPOPULAR BOOK CO. (M) SDN BHD\n"
                                 "364\tTARGET\n"
                                 "8\tMR. D.I.Y. SDN BHD\n"
                                 "455\tMR. D.I.Y. (M) SDN BHD\n"
                                 "4\tSUPER.SEVEN CASH & CARRY SDN BHD\n"
                                 "\n"
                                 "30\tAEON CO. (M) BHD\n"
                                 "28\tAEON CO. (M) SDN BHD\n",
                                 "known_names.txt");
}

}  // namespace

TEST(KnownNames, LettersAndDigits) {
    EXPECT_EQ(ex::name_letters("MR. D.I.Y. (M) SDN BHD"), "MRDIYMSDNBHD");
    EXPECT_EQ(ex::name_letters("セブン-イレブン 新宿西口店"), "セブンイレブン新宿西口店");
    EXPECT_EQ(ex::name_letters("ファミリーマート・ＡＢ（東）"), "ファミリーマートＡＢ東");
    EXPECT_EQ(ex::name_letters("Sainsbury's"), "Sainsburys");
    EXPECT_EQ(ex::name_letters(""), "");
}

TEST(KnownNames, ParsesSortedByCount) {
    const auto k = sample();
    ASSERT_EQ(k.names().size(), 14u);
    EXPECT_EQ(k.names()[0].name, "セブン-イレブン");
    EXPECT_EQ(k.names()[0].count, 1596);
    EXPECT_EQ(k.names().back().count, 4);
    EXPECT_TRUE(k.has_letters(k.names()[0].letters));
    // Windows line ends; a name of punctuation alone is skipped.
    const auto w = ex::KnownNames::parse("3\tTESCO\r\n2\t---\r\n", "w.txt");
    ASSERT_EQ(w.names().size(), 1u);
    EXPECT_EQ(w.names()[0].name, "TESCO");
}

TEST(KnownNames, MalformedListsAreModelErrors) {
    for (const char* bad : {"TESCO\n", "0\tTESCO\n", "-3\tTESCO\n", "3x\tTESCO\n", "3\t\n", "\tTESCO\n",
                            "99999999999999999999999\tTESCO\n", "3\tTES\xff" "CO\n"}) {
        try {
            ex::KnownNames::parse(std::string("1\tOK\n") + bad, "m/known_names.txt");
            ADD_FAILURE() << "accepted: " << bad;
        } catch (const receipt::ModelError& e) {
            EXPECT_NE(e.message().find("m/known_names.txt:2: "), std::string::npos) << e.message();
        }
    }
}

TEST(KnownNames, LoadsAFileOrNothing) {
    EXPECT_TRUE(ex::KnownNames::load("/nonexistent-dir/known_names.txt").empty());
    const std::string path = ::testing::TempDir() + "known_names_test.txt";
    {
        std::ofstream out(path);
        out << "# list\n12\tTESCO\n";
    }
    const auto k = ex::KnownNames::load(path);
    ASSERT_EQ(k.names().size(), 1u);
    EXPECT_EQ(k.names()[0].count, 12);
    {
        std::ofstream out(path);
        out << "TESCO\n";
    }
    EXPECT_THROW(ex::KnownNames::load(path), receipt::ModelError);
    std::remove(path.c_str());
}

TEST(KnownNames, LettersOcrDroppedAreRestored) {
    const auto k = sample();
    EXPECT_EQ(ex::known_name_for("", "GARDENIA BAKRIES (KL) SDN BHD", k), "GARDENIA BAKERIES (KL) SDN BHD");
    // The letters of a known name with spaces OCR dropped.
    EXPECT_EQ(ex::known_name_for("", "GARDENIABAKERIES (KL) SDN BHD", k), "GARDENIA BAKERIES (KL) SDN BHD");
    EXPECT_EQ(ex::known_name_for("", "MR.D.I.Y. (M) SDN BHD", k), "MR. D.I.Y. (M) SDN BHD");
    EXPECT_EQ(ex::known_name_for("", "POPUAR BOOK CO. (M) SDN BHD", k), "POPULAR BOOK CO. (M) SDN BHD");
    EXPECT_EQ(ex::known_name_for("", "TARET", k), "TARGET");
    EXPECT_EQ(ex::known_name_for("", "MR. D.I.. (M) SDN BHD", k), "MR. D.I.Y. (M) SDN BHD");
    // Two letters from a Japanese chain of 7; the branch stays.
    EXPECT_EQ(ex::known_name_for("", "ツルハラグ", k), "ツルハドラッグ");
    EXPECT_EQ(ex::known_name_for("", "セブン-イブ 道玄坂中央店", k), "セブン-イレブン 道玄坂中央店");
    EXPECT_EQ(ex::known_name_for("", "エデオン 日本橋駅東口店", k), "エディオン 日本橋駅東口店");
    // Three letters do in a Japanese chain; a known one of three stands.
    EXPECT_EQ(ex::known_name_for("", "ローン 三軒茶屋二丁目店", k), "ローソン 三軒茶屋二丁目店");
    EXPECT_EQ(ex::known_name_for("", "ライフ 中央店", k), std::nullopt);
    EXPECT_EQ(ex::known_name_for("", "TGT", k), std::nullopt);  // not in Latin script
    // The model read the printed hyphen as ー ("セブーイレブン" for the printed "セブ-イレブン"); not when the receipt
    // prints no such hyphen.
    EXPECT_EQ(ex::known_name_for("セブ-イレブン\n〒460-0650\n", "セブーイレブン 錦北口店", k), "セブン-イレブン 錦北口店");
    EXPECT_EQ(ex::known_name_for("セブーイレブン\n", "セブーイレブン 錦北口店", k), std::nullopt);
    // Two candidates: the one 36 times as frequent (the other is a label's typo).
    EXPECT_EQ(ex::known_name_for("", "GARENIA BAKERIES (K) SDN BHD", k), "GARDENIA BAKERIES (KL) SDN BHD");
}

TEST(KnownNames, OtherNamesStand) {
    const auto k = sample();
    // A known name, spelled otherwise or not.
    EXPECT_EQ(ex::known_name_for("", "SUPER SEVEN CASH & CARRY SDN BHD", k), std::nullopt);
    EXPECT_EQ(ex::known_name_for("", "GARDENIA BAKERIES (KL)  SDN BHD", k), std::nullopt);
    EXPECT_EQ(ex::known_name_for("", "GARDENIA BAKERIES (KL)SDN BHD.", k), std::nullopt);
    EXPECT_EQ(ex::known_name_for("", "MR. D.I.Y. SDN BHD", k), std::nullopt);
    EXPECT_EQ(ex::known_name_for("", "セブン-イレブン 新宿店", k), std::nullopt);
    // Too short to tell ("ライフ" lost one of three letters), or too many letters lost for a short name.
    EXPECT_EQ(ex::known_name_for("", "ラフ", k), std::nullopt);
    EXPECT_EQ(ex::known_name_for("", "TRET", k), std::nullopt);
    // Letters the known name does not have: another store.
    EXPECT_EQ(ex::known_name_for("", "TARGIT", k), std::nullopt);
    EXPECT_EQ(ex::known_name_for("", "GARDEN CAFE", k), std::nullopt);
    // One letter from AEON CO. (M) BHD, four from AEON CO. (M) SDN BHD: the first. Three and six: neither.
    EXPECT_EQ(ex::known_name_for("", "AEON CO (M) BD", k), "AEON CO. (M) BHD");
    EXPECT_EQ(ex::known_name_for("", "AEONCO(M)", k), std::nullopt);
    // Two candidates of like frequency: neither.
    const auto two = ex::KnownNames::parse("30\tKEDAI ABC\n28\tKEDAI ABD\n", "two.txt");
    EXPECT_EQ(ex::known_name_for("", "KEDAI AB", two), std::nullopt);
    // No list.
    EXPECT_EQ(ex::known_name_for("", "TARET", ex::KnownNames{}), std::nullopt);
}

TEST(KnownNames, NameBrokenOverTwoLines) {
    const auto k = sample();
    EXPECT_EQ(ex::known_name_for("POPULAR\nBOOK CO. (M) SDN BHD\n(174894-H)\n", "BOOK CO. (M) SDN BHD", k),
              "POPULAR BOOK CO. (M) SDN BHD");
    EXPECT_EQ(ex::known_name_for("POPULAR BOOK\n(32573-H)\nCO. (M) SDN BHD\nNO.195, JALAN", "CO. (M) SDN BHD", k),
              "POPULAR BOOK CO. (M) SDN BHD");
    EXPECT_EQ(ex::known_name_for("POPULAR BOOK\nCO. (M) SDN BHD\n", "POPULAR BOOK", k), "POPULAR BOOK CO. (M) SDN BHD");
    // Two lines after the model's piece.
    const auto roti = ex::KnownNames::parse("20\tTHE ROTI MAN BAKERY\n", "r.txt");
    EXPECT_EQ(ex::known_name_for("3180502\nTHE\nROTI\nMAN\nBAKERY\n000965911\n", "THE ROTI", roti),
              "THE ROTI MAN BAKERY");
    // Letters dropped from a name printed over lines; lines out of order.
    const auto more = ex::KnownNames::parse("397\tKEDAI RUNCIT SRI JAYA\n381\tWHOLE FOODS MARKET\n"
                                            "358\tTRADER JOE'S\n455\t99 SPEED MART S/B\n", "m.txt");
    EXPECT_EQ(ex::known_name_for("KDAI RUNCIT SRI\nJAYA\n(555533-H)\n", "KDAI RUNCIT SRI", more),
              "KEDAI RUNCIT SRI JAYA");
    EXPECT_EQ(ex::known_name_for("WHOLE OODS MARKE\n8797 StationRoad\n", "WHOLE OODS", more), "WHOLE FOODS MARKET");
    EXPECT_EQ(ex::known_name_for("JOE'S\nTRADE\n6823 Main\n", "JOE'S", more), "TRADER JOE'S");
    EXPECT_EQ(ex::known_name_for("99\nSPEED ART S/B\nNO.112, JALAN PUCHONG\n", "SPEED ART S/B", more),
              "99 SPEED MART S/B");
    // Three letters short, or the model's letters not in the lines: nothing.
    EXPECT_EQ(ex::known_name_for("KDAI RUNCT SR\nJAYA\n", "KDAI RUNCT SR", more), std::nullopt);
    EXPECT_EQ(ex::known_name_for("KDAI RUNCIT SRI\nJAYA\n", "KEDAI JAYA", more), std::nullopt);
    // The rest is not a line of the header.
    EXPECT_EQ(ex::known_name_for("POPULAR STATIONERY\nBOOK CO. (M) SDN BHD\n", "BOOK CO. (M) SDN BHD", k),
              std::nullopt);
    EXPECT_EQ(ex::known_name_for("A\nB\nC\nD\nE\nF\nPOPULAR\nBOOK CO. (M) SDN BHD\n", "BOOK CO. (M) SDN BHD", k),
              std::nullopt);
}

TEST(KnownNames, NamesWithOcrLookalikes) {
    const auto k = ex::KnownNames::parse("1492\tCo-op Food\n900\tPOPULAR BOOK CO. (M) SDN BHD\n", "known_names.txt");
    EXPECT_EQ(ex::known_name_for("Co-opF0od\n", "Co-opF0od", k), "Co-op Food");
    EXPECT_EQ(ex::known_name_for("P0PULAR 8OOK CO. (M) SDN BD\n", "P0PULAR 8OOK CO. (M) SDN BD", k),
              "POPULAR BOOK CO. (M) SDN BHD");
    // Another letter, or more than three look-alikes: as written.
    EXPECT_EQ(ex::known_name_for("Co-op Fool\n", "Co-op Fool", k), std::nullopt);
    EXPECT_EQ(ex::known_name_for("C0-0pF00d\n", "C0-0pF00d", k), std::nullopt);
}

TEST(KnownNames, ItemDescriptions) {
    const auto items = ex::KnownNames::parse("4000\tCHICKEN BREAST\n4100\tマヨネーズ 450g\n4200\t緑茶 2L\n4300\t麦茶 2L\n"
                                             "4400\t食ﾊﾟﾝ 6枚切\n4500\tPROMO\n",
                                             "known_items.txt");
    EXPECT_EQ(ex::known_item_for("CHICKEN BREST", items), "CHICKEN BREAST");
    EXPECT_EQ(ex::known_item_for("ヨネーズ 450g", items), "マヨネーズ 450g");
    EXPECT_EQ(ex::known_item_for("食ﾊﾟﾝ6枚切", items), "食ﾊﾟﾝ 6枚切");
    EXPECT_EQ(ex::known_item_for("ROMO", items), "PROMO");
    // Two of like frequency, known as it is, too short, another item, or no list: kept.
    EXPECT_EQ(ex::known_item_for("茶 2L", items), std::nullopt);
    EXPECT_EQ(ex::known_item_for("CHICKEN BREAST", items), std::nullopt);
    EXPECT_EQ(ex::known_item_for("PR", items), std::nullopt);
    EXPECT_EQ(ex::known_item_for("CHICKEN RICE", items), std::nullopt);
    EXPECT_EQ(ex::known_item_for("CHICKEN BREST", ex::KnownNames{}), std::nullopt);
}

TEST(KnownNames, ItemDescriptionsWithOcrLookalikes) {
    const auto items = ex::KnownNames::parse("4500\tPROMO\n3000\tMAGGI CURRY 5S\n2000\tSUNSCREEN SPF50\n"
                                             "1000\tCOTTON BUDS\n900\tSOUP\n800\tS0UP\n700\tMILO 1KG\n"
                                             "600\tA4 PAPER 500S\n",
                                             "known_items.txt");
    EXPECT_EQ(ex::known_item_for("PROM0", items), "PROMO");
    EXPECT_EQ(ex::known_item_for("MAGGICURRY 55", items), "MAGGI CURRY 5S");
    EXPECT_EQ(ex::known_item_for("SUNSCREEN SPFSO", items), "SUNSCREEN SPF50");
    // Look-alikes and letters lost ("MILO 1KG" with its M lost and its 1 read as I); never a digit lost.
    EXPECT_EQ(ex::known_item_for("ILO IKG", items), "MILO 1KG");
    EXPECT_EQ(ex::known_item_for("A4 PPER S00S", items), "A4 PAPER 500S");
    EXPECT_EQ(ex::known_item_for("A4 PAPER 5OS", items), std::nullopt);
    // A count left in front without its "x": the rest is known, as it is or with look-alikes.
    EXPECT_EQ(ex::known_item_for("1 5UNSCREEN SPF50", items), "SUNSCREEN SPF50");
    EXPECT_EQ(ex::known_item_for("2 COTTON BUDS", items), "COTTON BUDS");
    // Two known of like frequency ("SOUP", "S0UP"), more than three look-alikes, or another letter: kept.
    EXPECT_EQ(ex::known_item_for("50UP", items), std::nullopt);
    EXPECT_EQ(ex::known_item_for("5UN5CREEN 5PF5O", items), std::nullopt);
    EXPECT_EQ(ex::known_item_for("PROMI", items), std::nullopt);
    EXPECT_EQ(ex::known_item_for("123 COTTON BUDS", items), std::nullopt);
}

TEST(KnownNames, JapaneseItemDescriptionsWithOcrLookalikes) {
    const auto items = ex::KnownNames::parse("900\tSDｶｰﾄﾞ 64GB\n800\tお茶 600ml\n700\t歯磨き粉 120g\n600\tお茶 500ml\n",
                                             "known_items.txt");
    EXPECT_EQ(ex::known_item_for("SDｶｰﾄﾞ 64G8", items), "SDｶｰﾄﾞ 64GB");
    EXPECT_EQ(ex::known_item_for("お茶 600m1", items), "お茶 600ml");
    EXPECT_EQ(ex::known_item_for("歯磨き粉 1Z0g", items), "歯磨き粉 120g");
    EXPECT_EQ(ex::known_item_for("歯磨粉 1Z0g", items), "歯磨き粉 120g");  // き lost as well
    // b for 6, D for 0, 9 for g (a reading of the amounts' look-alikes).
    EXPECT_EQ(ex::known_item_for("お茶 b00ml", items), "お茶 600ml");
    EXPECT_EQ(ex::known_item_for("お茶 5D0ml", items), "お茶 500ml");
    EXPECT_EQ(ex::known_item_for("歯磨き粉 1209", items), "歯磨き粉 120g");
    // A kana or kanji changed, a digit lost beside a look-alike, or another digit: kept.
    EXPECT_EQ(ex::known_item_for("歯磨き子 1Z0g", items), std::nullopt);
    EXPECT_EQ(ex::known_item_for("SDｶｰﾄﾞ 4G8", items), std::nullopt);
    EXPECT_EQ(ex::known_item_for("お茶 700m1", items), std::nullopt);
}

TEST(KnownNames, DroppedDigitsAreNotPutBack) {
    const auto items = ex::KnownNames::parse("4000\tCOCA COLA 1500ml\n3000\tA4 PAPER 500S\n", "known_items.txt");
    EXPECT_EQ(ex::known_item_for("COCA COLA 500ml", items), std::nullopt);
    EXPECT_EQ(ex::known_item_for("A4 PAPER 50S", items), std::nullopt);
    EXPECT_EQ(ex::known_item_for("COCA CLA 1500ml", items), "COCA COLA 1500ml");
}

TEST(KnownNames, Addresses) {
    const auto addresses = ex::KnownNames::parse(
        "40\tNO 1&3, JALAN WANGSA DELIMA 12, WANGSA LINK, WANGSA MAJU, 53300 KUALA LUMPUR\n"
        "50\tLEVEL 6, BANGUNAN TH, DAMANSARA UPTOWN3 NO.3, JALAN SS21/39, 47400 PETALING JAYA SELANGOR\n",
        "known_addresses.txt");
    EXPECT_EQ(ex::known_address_for("NO 1&3, JALAN ANGSA DELIMA 12, WANGSA LINK, WANGSA MAJU, 53300 KUALA LUMPUR",
                                    addresses),
              "NO 1&3, JALAN WANGSA DELIMA 12, WANGSA LINK, WANGSA MAJU, 53300 KUALA LUMPUR");
    // Spaces as the model wrote them stand (labels of one store space its address either way); a house number
    // that lost a digit is another address.
    EXPECT_EQ(ex::known_address_for("LEVEL 6, BANGUNAN TH, DAMANSARA UPTOWN3 NO.3, JALAN SS21/39,47400 PETALING JAYA "
                                    "SELANGOR",
                                    addresses),
              std::nullopt);
    EXPECT_EQ(ex::known_address_for("NO 1&3, JALAN WANGSA DELIMA 1, WANGSA LINK, WANGSA MAJU, 53300 KUALA LUMPUR",
                                    addresses),
              std::nullopt);
    EXPECT_EQ(ex::known_address_for("JALAN ANGSA", addresses), std::nullopt);
}

TEST(KnownNames, AddressWords) {
    const auto words = ex::KnownNames::parse("9883\tStreet\n6813\tStation\n6653\tMarket\n2000\tManchester\n"
                                             "3425\tMain\n3200\tHigh\n1500\tMELAWATI\n1400\tBINTANG\n900\tHANG\n"
                                             "800\tGOMBAK\n700\tTAN\n40\tBANGKA\n30\tBANGSA\n",
                                             "known_address_words.txt");
    EXPECT_EQ(ex::known_address_words_for("171 Maket Steet Machester M1 1AE", words),
              "171 Market Street Manchester M1 1AE");
    // Three letters of a four-letter word; two dropped from eight; the case as printed.
    EXPECT_EQ(ex::known_address_words_for("254 igh Street", words), "254 High Street");
    EXPECT_EQ(ex::known_address_words_for("TAMAN ELAATI,", words), "TAMAN MELAWATI,");
    EXPECT_EQ(ex::known_address_words_for("TAMAN elaati,", words), std::nullopt);
    // A run with digit look-alikes that reads as a known word takes it ("8INTANG", "5tation" in the case around
    // them, a capital at the start); one that reads as no known word stands ("ANG5A" here), as do other digits.
    EXPECT_EQ(ex::known_address_words_for("JALAN ANG5A, BUKIT 8INTANG", words), "JALAN ANG5A, BUKIT BINTANG");
    EXPECT_EQ(ex::known_address_words_for("12 5tation Road, G0MBAK", words), "12 Station Road, GOMBAK");
    EXPECT_EQ(ex::known_address_words_for("TAN3 BINTANG4", words), std::nullopt);
    // Known words, runs touching a digit (OCR garbled the token), 1-2 letter runs, two candidates near in count,
    // a dropped digit, and Japanese addresses stand.
    EXPECT_EQ(ex::known_address_words_for("NO.5, JALAN TAN 3", words), std::nullopt);
    EXPECT_EQ(ex::known_address_words_for("NO 5 ST", words), std::nullopt);
    EXPECT_EQ(ex::known_address_words_for("JALAN BANGA", words), std::nullopt);
    EXPECT_EQ(ex::known_address_words_for("Leeds LS1 4DY", words), std::nullopt);
    EXPECT_EQ(ex::known_address_words_for("東京都港区 Maket 1-2-3", words), std::nullopt);
    EXPECT_EQ(ex::known_address_words_for("171 Maket Street", ex::KnownNames{}), std::nullopt);
}

TEST(KnownNames, ListsOfAModelFolder) {
    const std::filesystem::path dir = std::filesystem::path(::testing::TempDir()) / "known_lists_test";
    std::filesystem::remove_all(dir);
    auto none = ex::KnownLists::load(dir.string());  // no such folder: every list empty
    EXPECT_TRUE(none.stores.empty());
    EXPECT_TRUE(none.items.empty());
    EXPECT_TRUE(none.address_words.empty());
    std::filesystem::create_directories(dir);
    std::ofstream(dir / "known_names.txt") << "12\tTESCO\n";
    auto stores_only = ex::KnownLists::load(dir.string());
    EXPECT_EQ(stores_only.stores.names().size(), 1u);
    EXPECT_TRUE(stores_only.items.empty());
    std::ofstream(dir / "known_items.txt") << "PROMO\n";
    EXPECT_THROW(ex::KnownLists::load(dir.string()), receipt::ModelError);
    std::filesystem::remove(dir / "known_items.txt");
    std::filesystem::create_directories(dir / "known_items.txt");  // a folder where the list should be
    EXPECT_THROW(ex::KnownLists::load(dir.string()), receipt::ModelError);
    std::filesystem::remove_all(dir);
}

TEST(KnownNames, ItemsWithPunctuationLost) {
    const auto items = ex::KnownNames::parse("120\tMILK 2% GAL\n80\tCOCA COLA 1.5L\n40\tMINERAL WATER 1.5L\n"
                                             "9\tTISSUE 10S\n",
                                             "known_items.txt");
    EXPECT_EQ(ex::known_item_for("MILK 2 GAL", items), "MILK 2% GAL");
    EXPECT_EQ(ex::known_item_for("COCA COLA 1,5L", items), "COCA COLA 1.5L");
    EXPECT_EQ(ex::known_item_for("MINERAL WATER 15L", items), "MINERAL WATER 1.5L");
    // As known: nothing to restore. Punctuation added, or a letter changed as well: not this reading.
    EXPECT_EQ(ex::known_item_for("MILK 2% GAL", items), std::nullopt);
    EXPECT_NE(ex::known_item_for("COCA COLA 1.5L.", items), "COCA COLA 1.5L.");
}

TEST(KnownNames, ItemsRepeatedOnTheReceipt) {
    const ex::KnownNames none;
    const std::vector<std::string> rows = {"かしわ天", "ぶっかけうどん 大", "ぶっかけうどん 大", "かけうどん 並",
                                           "トッピング チーズ", "CHICKEN BREAST", "天然水 550ml", "緑茶 2L"};
    EXPECT_EQ(ex::repeated_item_for("ぶっかけどん 大", rows, none), "ぶっかけうどん 大");
    EXPECT_EQ(ex::repeated_item_for("かけうど 並", rows, none), "かけうどん 並");
    EXPECT_EQ(ex::repeated_item_for("トッピングチーズ", rows, none), "トッピング チーズ");
    EXPECT_EQ(ex::repeated_item_for("CHICKEN BREST", rows, none), "CHICKEN BREAST");
    // Already one of them; a digit lost ("55ml" is another size); a word lost, or a word left with one letter.
    EXPECT_EQ(ex::repeated_item_for("かけうどん 並", rows, none), std::nullopt);
    EXPECT_EQ(ex::repeated_item_for("天然水 50ml", rows, none), std::nullopt);
    EXPECT_EQ(ex::repeated_item_for("かけうどん", rows, none), std::nullopt);
    EXPECT_EQ(ex::repeated_item_for("茶 2L", rows, none), std::nullopt);
    // Two spellings it could be, as often each: kept.
    EXPECT_EQ(ex::repeated_item_for("ぶっかうどん", {"ぶっかけうどん", "ぶっかうどんX"}, none), std::nullopt);
    // One known from training as it is stays: another product, not a damaged one.
    const auto known = ex::KnownNames::parse("40\tKOPI PENG\n30\tKOPI PENANG\n20\tTEH TARIK\n", "known_items.txt");
    EXPECT_EQ(ex::repeated_item_for("KOPI PENG", {"KOPI PENANG"}, known), std::nullopt);
    EXPECT_EQ(ex::repeated_item_for("KOPI PENG", {"KOPI PENANG"}, none), "KOPI PENANG");
    EXPECT_EQ(ex::repeated_item_for("TEH TRIK", {"TEH TARIK", "KOPI PENG"}, known), "TEH TARIK");
}

TEST(KnownNames, ItemDescriptionWithItsWordsOutOfOrder) {
    const auto items = ex::KnownNames::parse("4000\tKNORR CHICKEN STOCK\n3000\tりんご ふじ\n2000\tICED GREEN TEA\n"
                                             "1000\tGREEN ICED TEA\n900\tCHICKEN STOCK\n",
                                             "known_items.txt");
    EXPECT_EQ(ex::known_item_reordered("STOCK KNORR CHICKEN", items), "KNORR CHICKEN STOCK");
    EXPECT_EQ(ex::known_item_reordered("ふじ りんご", items), "りんご ふじ");
    // Two known items with those words, other words, or known as it is: kept.
    EXPECT_EQ(ex::known_item_reordered("TEA ICED GREEN", items), std::nullopt);
    EXPECT_EQ(ex::known_item_reordered("STOCK CHICKEN KNORR CUBES", items), std::nullopt);
    EXPECT_EQ(ex::known_item_reordered("CHICKEN STOCK", items), std::nullopt);
}
