// Latin-script store names and phone numbers as printed (extract/latin_header.h).
#include <gtest/gtest.h>

#include <string>

#include "extract/latin_header.h"

namespace ex = receipt::extract;

TEST(LatinHeader, NameThatRanOnIntoTheAddressIsItsHeaderLine) {
    const std::string text = "WAITROSE\n186 Market Street\nGlasgow G1 3SL\nRECEIPT\n";
    const std::string addr = "186 Market Street Glasgow G1 3SL";
    EXPECT_EQ(ex::name_without_address_run_on(text, "WAITROSE 186 Market Street", addr), "WAITROSE");
    EXPECT_EQ(ex::name_without_address_run_on(text, "WAITROSE186", addr), "WAITROSE");
    // The run-on part may differ from the model's address by an OCR slip.
    EXPECT_EQ(ex::name_without_address_run_on("WAITROSE\nBrstol BS1 5TR\n83 High Street", "WAITROSE Brstol",
                                              "83 High Street Bristol BS1 5TR"),
              "WAITROSE");
    // A name printed over two lines that are not the address stands.
    EXPECT_EQ(ex::name_without_address_run_on("POPULAR BOOK CO. (M)\nSDN BHD\n(78932-T)\nNO.13, JALAN SS 2/24,",
                                               "POPULAR BOOK CO. (M) SDN BHD", "NO.13, JALAN SS 2/24,"),
              std::nullopt);
    EXPECT_EQ(ex::name_without_address_run_on(text, "WAITROSE", addr), std::nullopt);
    EXPECT_EQ(ex::name_without_address_run_on(text, "WAITROSE 186 Market Street", ""), std::nullopt);
    // Japanese names are left to their own checks.
    EXPECT_EQ(ex::name_without_address_run_on("ローソン\n新宿1-2-3", "ローソン新宿1-2-3", "新宿1-2-3"), std::nullopt);
}

TEST(LatinHeader, NameWithoutTheStreetLinesItTookAcross) {
    // OCR put the house number's box before the name; the name pass copied the street line below it.
    const std::string text = "141\nWAITROSE\nStation Road\nLeeds LS14DY\nTEL: 0113 400 9299\n";
    EXPECT_EQ(ex::name_without_street_lines(text, "WAITROSE Station Road"), "WAITROSE");
    EXPECT_EQ(ex::name_without_street_lines("WAITROSE\nRoad\n121 Station\n", "WAITROSERoad"), "WAITROSE");
    EXPECT_EQ(ex::name_without_street_lines("2004 High Street\nTARET\nAustn, TX 78701\n", "2004 High Street TARET"),
              "TARET");
    EXPECT_EQ(ex::name_without_street_lines("700\nSAFEWAY\nMarket St\n", "700 SAFEWAY"), "SAFEWAY");
    // A number printed on the name's own line is part of it; a name of one line, or of no street line, stands.
    EXPECT_EQ(ex::name_without_street_lines("99 SPEED MART S/B\nLOT P.T. 2811\n", "99 SPEED MART S/B"), std::nullopt);
    EXPECT_EQ(ex::name_without_street_lines(text, "WAITROSE"), std::nullopt);
    EXPECT_EQ(ex::name_without_street_lines("POPULAR\nBOOK CO. (M) SDN BHD\n", "POPULAR BOOK CO. (M) SDN BHD"),
              std::nullopt);
    EXPECT_EQ(ex::name_without_street_lines("SAFEWAY\n", "SAFEWAY"), std::nullopt);
    // Nothing left that can name a shop.
    EXPECT_EQ(ex::name_without_street_lines("700\nMarket St\n", "700 Market St"), std::nullopt);
}

TEST(LatinHeader, NamesThatNameNoShop) {
    const std::string addr = "3512 Station Road Seattle, WA 98101";
    EXPECT_TRUE(ex::name_names_no_shop("TAX INVOICE", addr));
    EXPECT_TRUE(ex::name_names_no_shop("TAXINVOICE", addr));
    EXPECT_TRUE(ex::name_names_no_shop("TAXINOICE", addr));  // OCR dropped a letter
    EXPECT_TRUE(ex::name_names_no_shop("RECEIPT", addr));
    EXPECT_TRUE(ex::name_names_no_shop("TEL:", addr));
    EXPECT_TRUE(ex::name_names_no_shop("NO.43 JALAN", "JALAN PUCHONG, TAMAN UNIVERSITI"));
    EXPECT_TRUE(ex::name_names_no_shop("WA 9811", addr));               // a piece of the address, a digit lost
    EXPECT_TRUE(ex::name_names_no_shop("Roa Austin, TX 78701", "9775 Station Road Austin, TX 78701"));
    EXPECT_TRUE(ex::name_names_no_shop("DATE:", addr));
    // A street line, even where the model's address starts with it (OCR printed it above the name).
    EXPECT_TRUE(ex::name_names_no_shop("78 Market Street", "78 Market Street Glasgow G1 3SL"));
    EXPECT_TRUE(ex::name_names_no_shop("5732 ain St", addr));
    EXPECT_FALSE(ex::name_names_no_shop("7 ELEVEN", addr));
    EXPECT_FALSE(ex::name_names_no_shop("SAFEWAY", addr));
    EXPECT_FALSE(ex::name_names_no_shop("WAITROSE", "WAITROSE 12 High Street"));  // the address ran on the name
    EXPECT_FALSE(ex::name_names_no_shop("KFC", "KFC ROAD"));
    EXPECT_FALSE(ex::name_names_no_shop("セブン-イレブン", addr));
}

TEST(LatinHeader, FirstNameLineOutsideTheAddress) {
    const std::string addr = "9775 Station Road Austin, TX 78701";
    EXPECT_EQ(ex::header_name_line_outside("SAFEWAY\n9775\nStation Roa\nAustin, TX 78701", addr), "SAFEWAY");
    EXPECT_EQ(ex::header_name_line_outside("TAX INVOICE\n9775 Station Road\nSAFEWAY\n", addr), "SAFEWAY");
    EXPECT_EQ(ex::header_name_line_outside("TAX INOICE\n9775 Station Road\n", addr), std::nullopt);
}

TEST(LatinHeader, LabelledPhoneReplacesOneNotPrinted) {
    const std::string text = "WAITROSE\n148 Station Road\nPHONE: 0161 907 9112\nVAT No. GB 491 4964 10\n";
    EXPECT_EQ(ex::latin_labelled_phone_for(text, "0161 9112 9112"), "0161 907 9112");
    EXPECT_EQ(ex::latin_labelled_phone_for(text, ""), "0161 907 9112");  // none written
    EXPECT_EQ(ex::latin_labelled_phone_for(text, "0161 907 9112"), std::nullopt);
    EXPECT_EQ(ex::latin_labelled_phone_for(text, "01619079112"), std::nullopt);  // printed, spaced otherwise
    // Digit look-alikes are read as digits; a lost opening bracket is put back.
    EXPECT_EQ(ex::latin_labelled_phone_for("AITROSE\n0Z0\nTEL 0Z0 7994 7645\n", "020 9467 9467"), "020 7994 7645");
    EXPECT_EQ(ex::latin_labelled_phone_for("SHOP\nTel 512) 555-9385\n", "(512) 555-37"), "(512) 555-9385");
    // A fax number on the line ends the phone number.
    EXPECT_EQ(ex::latin_labelled_phone_for("SHOP\nTEL:03-3362 4395 FAX:03-3362 4396\n", "03-3362"),
              std::nullopt);  // the model's digits are printed
    EXPECT_EQ(ex::latin_labelled_phone_for("SHOP\nTEL:03-3362 4395 FAX:03-3362 4396\n", "03-9999 4395"),
              "03-3362 4395");
    // A number cut short by OCR (8 digits; Malaysian numbers have 9) is none; two labelled numbers leave the model's.
    EXPECT_EQ(ex::latin_labelled_phone_for("SHOP\nTEL: 020 4814 6\n", "020 4814 6211"), std::nullopt);
    EXPECT_EQ(ex::latin_labelled_phone_for("SHOP\nTEL: 020 4814 6211\nPHONE: 020 4814 6299\n", "1"), std::nullopt);
    // Japanese receipts have their own check.
    EXPECT_EQ(ex::latin_labelled_phone_for("ローソン\nTEL 03-1234-5678\n", "03-1234-9999"), std::nullopt);
}

TEST(LatinHeader, UnlabelledOrDamagedLabelPhone) {
    // OCR lost a letter of the label ("TE.", "PHON:").
    EXPECT_EQ(ex::latin_labelled_phone_for("SHOP\n41150 KLANG,\nTE.03-6789 9652\n", "03-76"), "03-6789 9652");
    EXPECT_EQ(ex::latin_labelled_phone_for("SHOP\nPHON: 03-8783 4156\n", ""), "03-8783 4156");
    // The printed number lost a digit the model wrote: the model's stands.
    EXPECT_EQ(ex::latin_labelled_phone_for("SHOP\nPHOE: 0-1817 5163\n", "03-1817 5163"), std::nullopt);
    // OCR read TEL as "Tl"; a number alone on a header line (look-alikes read) when no label is read.
    EXPECT_EQ(ex::latin_labelled_phone_for("SHOP\n185 Church Lane\nTl 0Z0 7920 9775\n", "020 9775 9775"),
              "020 7920 9775");
    EXPECT_EQ(ex::latin_labelled_phone_for("AITROSE\n147 High Street\n0Z0 7994 7645\nVAT No. GB 51 9467 35\n",
                                           "020 9467 9467"),
              "020 7994 7645");
    EXPECT_EQ(ex::latin_labelled_phone_for("SWC SDN BHD\n(1125830-V)\nBATANG KALI, SELANGOR\n03-60571377\nGST\n", ""),
              "03-60571377");
    // Not a registration number, nor one of two bare numbers, nor a bare number beside a labelled one.
    EXPECT_EQ(ex::latin_labelled_phone_for("SHOP\n002017808384\n", ""), std::nullopt);
    EXPECT_EQ(ex::latin_labelled_phone_for("SHOP\n020 7994 7645\n020 7994 7646\n", ""), std::nullopt);
    EXPECT_EQ(ex::latin_labelled_phone_for("SHOP\n020 7994 7645\nTEL 020 1111 2222\n", ""), "020 1111 2222");
}

TEST(LatinHeader, PhoneDigitsByCurrency) {
    EXPECT_EQ(ex::latin_phone_digits_expected("0161 782 547", "GBP"), 11u);
    EXPECT_EQ(ex::latin_phone_digits_expected("020 7994 7645", "GBP"), 11u);
    EXPECT_EQ(ex::latin_phone_digits_expected("0800 123 456", "GBP"), 0u);  // freephone: not told
    EXPECT_EQ(ex::latin_phone_digits_expected("(303) 555-575", "USD"), 10u);
    EXPECT_EQ(ex::latin_phone_digits_expected("1-800-555-0199", "USD"), 11u);
    EXPECT_EQ(ex::latin_phone_digits_expected("03-9201 6281/6920", "MYR"), 10u);
    EXPECT_EQ(ex::latin_phone_digits_expected("07-352 3888", "MYR"), 0u);  // 9 or 10 digits outside 03
    EXPECT_EQ(ex::latin_phone_digits_expected("03-1234 5678", "JPY"), 0u);
}

