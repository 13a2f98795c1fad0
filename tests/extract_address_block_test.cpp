// The printed address block above a postcode line (extract/address_block.h).
#include <gtest/gtest.h>

#include <string>

#include "extract/address_block.h"

namespace ex = receipt::extract;

TEST(AddressBlock, LinesAboveThePostcodeLineBelowTheCompany) {
    EXPECT_EQ(ex::address_block("VIVOPAC MARKETING SDN BHD (1070687-M)\n14 JALAN MANIS 4 TAMAN SEGAR 56100 KL\nTEL: 03-91334364",
                                "VIVOPAC MARKETING SDN BHD"),
              "14 JALAN MANIS 4 TAMAN SEGAR 56100 KL");
    EXPECT_EQ(ex::address_block("YAM FRESH\nNO. 145G, JALAN RIMBUNAN RAYA 1,\nLAMAN RIMBUNAN KEPONG,\n52100 KUALA LUMPUR\n"
                                "GST REG NO: 000123\n",
                                "YAM FRESH"),
              "NO. 145G, JALAN RIMBUNAN RAYA 1, LAMAN RIMBUNAN KEPONG, 52100 KUALA LUMPUR");
    // State lines below the postcode line end the block; a registration line above it starts it.
    EXPECT_EQ(ex::address_block("SKCA HARDWARE & TIMBER SDN. BHD.\nCO. REG. NO.: 946207-D\nLOT 204 & 205, JALAN BATU 12 1/4,\n"
                                "43100 HULU LANGAT,\nSELANGOR DARUL EHSAN.\nTEL 03-1234",
                                "SKCA HARDWARE & TIMBER SDN. BHD."),
              "LOT 204 & 205, JALAN BATU 12 1/4, 43100 HULU LANGAT, SELANGOR DARUL EHSAN.");
}

TEST(AddressBlock, NoBlock) {
    // No 5-digit postcode above the first date, a postcode only in a phone, tax or operator line after the date.
    EXPECT_EQ(ex::address_block("TESCO\n216 Station Road\nManchester M1 1AE\nVAT No. GB 962 3324 78\n26/06/17\nOPERATOR 83901",
                                "TESCO"),
              std::nullopt);
    EXPECT_EQ(ex::address_block("SHOP\nTEL: 03-60932 123\nGST ID: 000849813504\n", "SHOP"), std::nullopt);
    EXPECT_EQ(ex::address_block("81100 JOHOR BAHRU\n", ""), std::nullopt);  // the first line is the name's
    EXPECT_EQ(ex::address_block("", ""), std::nullopt);
}

TEST(AddressBlock, HeaderLinesBelowTheNameWithoutAPostcode) {
    // Below the name and a registration line, up to the tax line.
    EXPECT_EQ(ex::header_address_block("CARREFOUR RESTAURANT\nJM0725755-U\n18,JALAN PERMAS 10/7\nBANDAR BARU PERMAS JAYA,\n"
                                       "MASAI,JOHOR\nGST ID : 000433614848\nTEL : 07-3822612\n"),
              "18,JALAN PERMAS 10/7 BANDAR BARU PERMAS JAYA, MASAI,JOHOR");
    // Below the company line, a registration line above it.
    EXPECT_EQ(ex::header_address_block("(481500-M)\nC W KHOO HARDWARE SDN BHD\nNO.50, JALAN PBS 14/11,\n"
                                       "KAWASAN PERINDUSTRIAN BUKIT SERDANG,\nTEL : 03-89410243\n"),
              "NO.50, JALAN PBS 14/11, KAWASAN PERINDUSTRIAN BUKIT SERDANG,");
    // Without company lines: from the line above the first digit when it holds an address word.
    EXPECT_EQ(ex::header_address_block("TAX INVOICE\nBHPETROL SUBANG AIRPORT\nJALAN LAPANGAN TERBANG SUBANG\n47200 SUBANG\n"
                                       "CO. REG. NO: 000948487-V\n"),
              "JALAN LAPANGAN TERBANG SUBANG 47200 SUBANG");
    // No digit before the first date: no block.
    EXPECT_EQ(ex::header_address_block("SHOP\nGOOD FOOD\n25/12/2018\n12 ITEMS\n"), std::nullopt);
    EXPECT_EQ(ex::header_address_block("SHOP"), std::nullopt);
}

TEST(AddressBlock, LinesBelowAPrintedAddress) {
    const std::string text = "CASH SALE\nSINNATHAMBY HOLDINGS SDN. BHD. (249336-T)\nNO.17,18 & 41,JALAN BESAR,\n39100 BRINCHANG,\n"
                             "CAMERON HIGHLANDS,\nPAHANG\nGST REG.:002120876032\n";
    EXPECT_EQ(ex::address_with_lines_below(text, "NO.17,18 & 41,JALAN BESAR, 39100 BRINCHANG,"),
              "NO.17,18 & 41,JALAN BESAR, 39100 BRINCHANG, CAMERON HIGHLANDS, PAHANG");
    EXPECT_EQ(ex::address_with_lines_below(text, "NO.17,18 & 41,JALAN BESAR, 39100 BRINCHANG, CAMERON HIGHLANDS, PAHANG"),
              std::nullopt);
    // Not whole printed lines, or a phone line below: nothing added.
    EXPECT_EQ(ex::address_with_lines_below(text, "JALAN BESAR, 39100"), std::nullopt);
    EXPECT_EQ(ex::address_with_lines_below("A\n1 JALAN X\nTEL 03-1\nSELANGOR\n", "1 JALAN X"), std::nullopt);
    // A branch-code line below the address.
    EXPECT_EQ(ex::address_with_lines_below("99 SPEED MART S/B (519537-X)\nLOT P.T. 2811, JALAN ANGSA,\nTAMAN BERKELEY\n"
                                           "41150 KLANG, SELANGOR\n1320-TMN BATU\nGST ID. NO : 000181747712\n",
                                           "LOT P.T. 2811, JALAN ANGSA, TAMAN BERKELEY 41150 KLANG, SELANGOR"),
              "LOT P.T. 2811, JALAN ANGSA, TAMAN BERKELEY 41150 KLANG, SELANGOR 1320-TMN BATU");
    // A state line right below the postcode line, after four lines (OCR broke "TAMAN UNIVERSITI," in two).
    const std::string five = "GARDENIA BAKERIES (KL) SDN BHD\nNO.129, JALAN SS 2/24,\nTAMAN\nUNIVERSITI,\n"
                             "10200 GEORGETOWN,\nPULAU PINANG.\nPHONE: 04-2614 4649\n";
    EXPECT_EQ(ex::address_with_lines_below(five, "NO.129, JALAN SS 2/24, TAMAN UNIVERSITI, 10200 GEORGETOWN,"),
              "NO.129, JALAN SS 2/24, TAMAN UNIVERSITI, 10200 GEORGETOWN, PULAU PINANG.");
}

TEST(AddressBlock, NameAndRegistrationLinesLeaveTheAddress) {
    const std::string text = "TAX INVOICE\nBHPETROL SUBANG AIRPORT\nJALAN LAPANGAN TERBANG SUBANG\n47200 SUBANG\nSELANGOR\n";
    EXPECT_EQ(ex::address_without_name_lines(text, "BHPETROL SUBANG AIRPORT JALAN LAPANGAN TERBANG SUBANG 47200 SUBANG",
                                             "BHPETROL SUBANG AIRPORT"),
              "JALAN LAPANGAN TERBANG SUBANG 47200 SUBANG");
    // A name that is only the start of a line (a branch line) stays.
    EXPECT_EQ(ex::address_without_name_lines("DOMINO'S PIZZA\nDOMINO'S PIZZA TAMAN UNIVERSITI\n30, JLN KEBUDAYAAN 7\n",
                                             "DOMINO'S PIZZA TAMAN UNIVERSITI 30, JLN KEBUDAYAAN 7", "DOMINO'S PIZZA"),
              std::nullopt);
    EXPECT_EQ(ex::address_without_name_lines(text, "JALAN LAPANGAN TERBANG SUBANG", "BHPETROL SUBANG AIRPORT"),
              std::nullopt);
    const std::string reg = "TAN WOON YANN\nYONGFATT ENTERPRISE\n(JM0517726)\nNO 122.124 JALAN DEDAP 13\n81100 JOHOR BAHRU\n";
    EXPECT_EQ(ex::address_without_registration_line(reg, "(JM0517726) NO 122.124 JALAN DEDAP 13 81100 JOHOR BAHRU"),
              "NO 122.124 JALAN DEDAP 13 81100 JOHOR BAHRU");
    EXPECT_EQ(ex::address_without_registration_line(reg, "NO 122.124 JALAN DEDAP 13 81100 JOHOR BAHRU"), std::nullopt);
}

TEST(AddressBlock, HouseNumberLineAboveAPrintedAddress) {
    const std::string text =
        "SUPER SEVEN CASH & CARRY SDN BHD\n(590150-A)\nFASARAYA BORONG SUPER SEVEN.\nNO. 1 JALAN EURO 1\n"
        "OFF JALAN BATU TIGA\nSUNGAI BULOH SEKSYEN U3 SHAH ALAM, 40150\nTEL : 03-78590861\n";
    EXPECT_EQ(ex::address_with_house_number_above(text, "OFF JALAN BATU TIGA SUNGAI BULOH SEKSYEN U3 SHAH ALAM, 40150"),
              "NO. 1 JALAN EURO 1 OFF JALAN BATU TIGA SUNGAI BULOH SEKSYEN U3 SHAH ALAM, 40150");
    EXPECT_EQ(ex::address_with_house_number_above("PAPPARICH BMC\nNO.19 & 21\nJALAN TEMENGGUNG 23/9\nTAX INVOICE\n",
                                                  "JALAN TEMENGGUNG 23/9"),
              "NO.19 & 21 JALAN TEMENGGUNG 23/9");
    // An address that starts with its house number, or a line above that is none, stays.
    EXPECT_FALSE(ex::address_with_house_number_above(text, "NO. 1 JALAN EURO 1 OFF JALAN BATU TIGA").has_value());
    EXPECT_FALSE(ex::address_with_house_number_above(text, "NO. 1 JALAN EURO 1").has_value());
    EXPECT_FALSE(ex::address_with_house_number_above(text, "NOT PRINTED").has_value());
}

TEST(AddressBlock, StreetLineAboveAUsAddress) {
    // OCR moved the street box above the store name.
    const std::string text = "7051 Market St\nWHOLE FOODS MARKET\nSan Jose, CA 95113\nTEL.(408) 555-1219\n";
    EXPECT_EQ(ex::address_with_street_line_above(text, "San Jose, CA 95113", "WHOLE FOODS MARKET"),
              "7051 Market St San Jose, CA 95113");
    EXPECT_EQ(ex::address_with_street_line_above("CVS\n25 Main Street\nSeattle, WA 98101\n", "Seattle, WA 98101", ""),
              "25 Main Street Seattle, WA 98101");
    // An address with its house number, a line above that is no street, or another name between: unchanged.
    EXPECT_FALSE(ex::address_with_street_line_above(text, "7051 Market St San Jose, CA 95113", "WHOLE FOODS MARKET"));
    EXPECT_FALSE(ex::address_with_street_line_above("SHOP\n12 ITEMS\nSan Jose, CA 95113\n", "San Jose, CA 95113", ""));
    EXPECT_FALSE(ex::address_with_street_line_above(text, "San Jose, CA 95113", "OTHER NAME"));
}

TEST(AddressBlock, StreetLineFirstWhereOcrReadItLater) {
    // The street line read below the city line, or between the pieces of the city line.
    EXPECT_EQ(ex::address_with_street_line_first("SAFEWAY\nAustin, TX 78701\n393 Market St\nTel (512) 555-1046\n",
                                                 "Austin, TX 78701"),
              "393 Market St Austin, TX 78701");
    EXPECT_EQ(ex::address_with_street_line_first("WHOLE FOODS MARKET\nDenver,\n857 Market St\nCO 80202\nPHONE: 1\n",
                                                 "Denver, 857 Market St CO 80202"),
              "857 Market St Denver, CO 80202");
    // Already first, no street line, two street lines, or an address that is not printed as whole lines: unchanged.
    const std::string text = "SHOP\n393 Market St\nAustin, TX 78701\n12 Oak Ave\n";
    EXPECT_FALSE(ex::address_with_street_line_first(text, "393 Market St Austin, TX 78701"));
    EXPECT_FALSE(ex::address_with_street_line_first("SHOP\nAustin, TX 78701\nTEL 555\n", "Austin, TX 78701"));
    EXPECT_FALSE(ex::address_with_street_line_first("SHOP\nAustin,\n1 Main St\n2 Oak Ave\n", "Austin, 1 Main St"));
    EXPECT_FALSE(ex::address_with_street_line_first("SHOP\nAustin, TX 78701 USA\n393 Market St\n", "Austin, TX"));
    // A Malaysian address: no US / UK street line below it.
    EXPECT_FALSE(ex::address_with_street_line_first("AEON\nNO.5, JALAN ANGSA,\n81100 JOHOR BAHRU,\nJOHOR.\n",
                                                    "NO.5, JALAN ANGSA, 81100 JOHOR BAHRU,"));
}

TEST(AddressBlock, StreetPieceAboveTheHouseNumber) {
    EXPECT_EQ(ex::address_with_street_piece_above("WAITROSE\nStation Road\n213\nBristol BS1 5TR\nTEL: 0117\n",
                                                  "213 Bristol BS1 5TR"),
              "213 Station Road Bristol BS1 5TR");
    EXPECT_EQ(ex::address_with_street_piece_above("WAITROSE\nRoad\n121 Station\nManchester M11AE\n",
                                                  "121 Station Manchester M11AE"),
              "121 Station Road Manchester M11AE");
    // A whole street line, a line above that is the store name, or one with a digit: unchanged.
    EXPECT_FALSE(ex::address_with_street_piece_above("TESCO\n12 High Street\nLeeds LS1 4DY\n",
                                                     "12 High Street Leeds LS1 4DY"));
    EXPECT_FALSE(ex::address_with_street_piece_above("WAITROSE\n213\nBristol BS1 5TR\n", "213 Bristol BS1 5TR"));
    EXPECT_FALSE(ex::address_with_street_piece_above("TEL 0117\nRoad 5\n213\nBristol BS1 5TR\n",
                                                     "213 Bristol BS1 5TR"));
}

TEST(AddressBlock, StrayLinesLeaveTheAddress) {
    // A phone number, a damaged document title and a registration number printed among the address lines.
    EXPECT_EQ(ex::address_without_stray_lines("Co-op Food\n214 Station Road\n0141 278 9614\nGlasgow G1 3SL\n",
                                              "214 Station Road 0141 278 9614 Glasgow G1 3SL"),
              "214 Station Road Glasgow G1 3SL");
    EXPECT_EQ(ex::address_without_stray_lines("WALMART SUPERCENTER\n7676 Market St\nTAX INVOIC\nAustin, TX 78701\n",
                                              "7676 Market St TAX INVOIC Austin, TX 78701"),
              "7676 Market St Austin, TX 78701");
    EXPECT_EQ(ex::address_without_stray_lines("POPULAR BOOK CO. (M) SDN BHD\n(245b19-W)\nNO.26, JALAN BUKIT BINTANG,\n"
                                              "47300 PETALING JAYA, SELANGOR.\n",
                                              "(245b19-W) NO.26, JALAN BUKIT BINTANG, 47300 PETALING JAYA, SELANGOR."),
              "NO.26, JALAN BUKIT BINTANG, 47300 PETALING JAYA, SELANGOR.");
    // The pieces of a phone number below the address; the model's spacing stays ("IL 62704" printed "IL62704").
    EXPECT_EQ(ex::address_without_stray_lines("AEON CO. (M) BHD\nNO.191, JALAN ANGSA,\n81100 JOHOR BAHRU, JOHOR.\n"
                                              "07-8917\n2984\n",
                                              "NO.191, JALAN ANGSA, 81100 JOHOR BAHRU, JOHOR. 07-8917 2984"),
              "NO.191, JALAN ANGSA, 81100 JOHOR BAHRU, JOHOR.");
    EXPECT_EQ(ex::address_without_stray_lines("SAFEWAY\n1191 Market St\n(217) 555-0140\nSpringfield, IL62704\n",
                                              "1191 Market St (217) 555-0140 Springfield, IL 62704"),
              "1191 Market St Springfield, IL 62704");
    // Postcode lines, street lines and a postcode alone at the end stay.
    EXPECT_EQ(ex::address_without_stray_lines("SHOP\n69, JALAN TEMENGGUNG 3/9\n43200 CHERAS\n47300\n",
                                              "69, JALAN TEMENGGUNG 3/9 43200 CHERAS 47300"),
              std::nullopt);
    EXPECT_EQ(ex::address_without_stray_lines("SHOP\n7568 Market St\nColumbus, OH 43215\n",
                                              "7568 Market St Columbus, OH 43215"),
              std::nullopt);
}
