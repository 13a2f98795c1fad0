// The registered company line of a receipt (extract/company_name.h).
#include <gtest/gtest.h>

#include <string>

#include "extract/company_name.h"

namespace ex = receipt::extract;

TEST(CompanyName, SuffixForms) {
    EXPECT_TRUE(ex::has_company_suffix("VIVOPAC MARKETING SDN BHD"));
    EXPECT_TRUE(ex::has_company_suffix("SKCA HARDWARE & TIMBER SDN. BHD."));
    EXPECT_TRUE(ex::has_company_suffix("Syarikat Perniagaan Sdn.Bhd"));
    EXPECT_TRUE(ex::has_company_suffix("YONG SOON FATT S/B"));
    EXPECT_TRUE(ex::has_company_suffix("MAYBANK BERHAD"));
    EXPECT_FALSE(ex::has_company_suffix("HARVEY NORMAN"));
    EXPECT_FALSE(ex::has_company_suffix("SDNBHDX"));
    EXPECT_FALSE(ex::has_company_suffix(""));
}

TEST(CompanyName, FirstCompanyLineNearTheTop) {
    EXPECT_EQ(ex::company_line("VIVOPAC MARKETING SDN BHD (1070687-M)\n14 JALAN MANIS 4"),
              "VIVOPAC MARKETING SDN BHD");
    EXPECT_EQ(ex::company_line("HARVEY NORMAN\nHARVEY NORMAN M'SIA PARADIGM MALL\nELITETRAX MARKETING SDN BHD (616227-D)"),
              "ELITETRAX MARKETING SDN BHD");
    EXPECT_EQ(ex::company_line("OLD ASIA\nOWN BY: CHEF LEE SDN BHD\nCO.NO. (458592-T)"), "CHEF LEE SDN BHD");
    // The suffix broken over two lines.
    EXPECT_EQ(ex::company_line("SIMPLIFIED TAX INVOICE\nAA PHARMACY\nSUBANG HEALTHCARE SDN\nBHD\n(1234-A)"),
              "SUBANG HEALTHCARE SDN BHD");
    // A name broken inside a parenthesis starts on the line that opens it, with the name lines above it.
    EXPECT_EQ(ex::company_line("AIK HUAT HARDWARE\nENTERPRISE (SETIA\nALAM) SDN BHD\n822737-X\nNO. 17-G, JALAN"),
              "AIK HUAT HARDWARE ENTERPRISE (SETIA ALAM) SDN BHD");
    EXPECT_EQ(ex::company_line("TAX INVOICE\nENTERPRISE (SETIA\nALAM) SDN BHD\n"), "ENTERPRISE (SETIA ALAM) SDN BHD");
    // Below the first kCompanyLines lines, or none at all: no company line.
    EXPECT_EQ(ex::company_line("A\nB\nC\nD\nE\nF\nLATE SDN BHD"), std::nullopt);
    EXPECT_EQ(ex::company_line("セブン-イレブン\n新宿西口店"), std::nullopt);
    EXPECT_EQ(ex::company_line("SDN BHD\n"), std::nullopt);  // a bare suffix names no company
    EXPECT_EQ(ex::company_line(""), std::nullopt);
}

TEST(CompanyName, RegistrationNumberAndLineEnds) {
    EXPECT_EQ(ex::without_registration_number("YONG SOON FATT S/B (81497-P)"), "YONG SOON FATT S/B");
    EXPECT_EQ(ex::without_registration_number("VIVOPAC MARKETING SDN BHD"), "VIVOPAC MARKETING SDN BHD");
    EXPECT_EQ(ex::without_registration_number("(2 PCS)"), "(2 PCS)");
    // A company name that ran on past its registration number into the address line.
    EXPECT_EQ(ex::without_registration_number("BROADVIEW MARKETING SDN BHD (728384-M) NO. 9-G, JALAN DINAR D U3/D"),
              "BROADVIEW MARKETING SDN BHD");
    // Without a company suffix before it, only a trailing number goes.
    EXPECT_EQ(ex::without_registration_number("KEDAI ABC (12345-X) CAWANGAN 2"), "KEDAI ABC (12345-X) CAWANGAN 2");
    const std::string text = "DIGI TELECOMMUNICATIONS SDN BHD\n(201283-M)\nLOT LG 315";
    EXPECT_EQ(ex::company_line_ending_with(text, "TELECOMMUNICATIONS SDN BHD"), "DIGI TELECOMMUNICATIONS SDN BHD");
    EXPECT_EQ(ex::company_line_ending_with(text, "digi telecommunications sdnbhd"), "DIGI TELECOMMUNICATIONS SDN BHD");
    EXPECT_EQ(ex::company_line_ending_with(text, "MAXIS SDN BHD"), std::nullopt);
    EXPECT_EQ(ex::company_line_ending_with(text, ""), std::nullopt);
    EXPECT_EQ(ex::company_line_ending_with("NO COMPANY HERE", "SDN BHD"), std::nullopt);
}

TEST(CompanyName, HeaderNameLine) {
    EXPECT_EQ(ex::header_name_line("TAX INVOICE\nBHPETROL SUBANG AIRPORT\nJALAN LAPANGAN TERBANG SUBANG"),
              "BHPETROL SUBANG AIRPORT");
    EXPECT_EQ(ex::header_name_line("(481500-M)\nC W KHOO HARDWARE SDN BHD"), "C W KHOO HARDWARE SDN BHD");
    EXPECT_EQ(ex::header_name_line("YAM FRESH\nNO. 145G, JALAN RIMBUNAN RAYA 1,"), "YAM FRESH");
    EXPECT_EQ(ex::header_name_line("12345\nTEL 03-1234\n"), std::nullopt);
    EXPECT_EQ(ex::header_name_line(""), std::nullopt);
}

TEST(CompanyName, SuffixAloneOnTheNextLine) {
    EXPECT_EQ(ex::company_line("POPULAR BOOK CO. (M)\nSDN BHD\n(201139-H)\nNO.97, JALAN SAGU 18,"),
              "POPULAR BOOK CO. (M) SDN BHD");
    // A bare suffix after a title or an address line joins nothing.
    EXPECT_EQ(ex::company_line("TAX INVOICE\nSDN BHD\n"), std::nullopt);
}

TEST(CompanyName, SpacedAsPrinted) {
    EXPECT_EQ(ex::company_name_spaced("POPULAR BOOK CO.(M)SDN BHD"), "POPULAR BOOK CO. (M) SDN BHD");
    EXPECT_EQ(ex::company_name_spaced("GARDENIA BAKERIES(KL) SDN BHD"), "GARDENIA BAKERIES (KL) SDN BHD");
    EXPECT_EQ(ex::company_name_spaced("GARDENIA BAKERIES (KL) SDNBHD"), "GARDENIA BAKERIES (KL) SDN BHD");
    EXPECT_EQ(ex::company_name_spaced("AEON CO. (M) BHD"), "AEON CO. (M) BHD");  // no suffix: as written
    EXPECT_EQ(ex::company_name_spaced("SHOP(1)"), "SHOP(1)");
}

