// The currency of a receipt that prints no currency sign, read from its address's country
// (extract/address_country.h).
#include <gtest/gtest.h>

#include <string>

#include "extract/address_country.h"

namespace ex = receipt::extract;

TEST(AddressCountry, CountryAddressesGiveTheCurrency) {
    EXPECT_EQ(ex::currency_of_printed_country("SAFEWAY\n5515 Oak Ave\nAustn, TX 78701\nMILK 2% GAL\n3.57 T\n"), "USD");
    EXPECT_EQ(ex::currency_of_printed_country("WHOLE FOODS\n529 Station Road\nSpringfield, IL 62704-1234\n"), "USD");
    EXPECT_EQ(ex::currency_of_printed_country("TESCO\n359 Market Street\nLeeds LS1 4DY\nBREAD 1.20\n"), "GBP");
    EXPECT_EQ(ex::currency_of_printed_country("Sainsbury's\n68 MarketStreet\nLondo SW1A 1AA\n"), "GBP");
    EXPECT_EQ(ex::currency_of_printed_country("NO.3, JALAN SS21/39,47400 PETALING JAYA\nSELANGOR\nTOTAL 9.30\n"),
              "MYR");
    EXPECT_EQ(ex::currency_of_printed_country("YONGFATT ENTERPRISE SDN BHD\nNO 122 JALAN DEDAP 13\n"), "MYR");
    EXPECT_EQ(ex::currency_of_printed_country("KOPITIAM\n1 Raffles Place\nSingapore 048616\n"), "SGD");
}

TEST(AddressCountry, SignsCjkAndMixedCountriesGiveNone) {
    // A printed sign or code is the model's to read.
    EXPECT_EQ(ex::currency_of_printed_country("SAFEWAY\nAustin, TX 78701\nTOTAL $3.57\n"), std::nullopt);
    EXPECT_EQ(ex::currency_of_printed_country("TESCO\nLeeds LS1 4DY\nTOTAL GBP 3.57\n"), std::nullopt);
    EXPECT_EQ(ex::currency_of_printed_country("47400 PETALING JAYA SELANGOR\nTOTAL RM9.30\n"), std::nullopt);
    EXPECT_EQ(ex::currency_of_printed_country("47400 PETALING JAYA SELANGOR\nTOTAL (RM)\n9.30\n"), std::nullopt);
    // Japanese text, no address, or two countries' forms.
    EXPECT_EQ(ex::currency_of_printed_country("ローソン\n東京都渋谷区 TX 78701\n"), std::nullopt);
    EXPECT_EQ(ex::currency_of_printed_country("CAFE LUNA\nLATTE 4.50\nTOTAL 4.50\n"), std::nullopt);
    EXPECT_EQ(ex::currency_of_printed_country("Austin, TX 78701\nLeeds LS1 4DY\n"), std::nullopt);
    EXPECT_EQ(ex::currency_of_printed_country(""), std::nullopt);
    EXPECT_TRUE(ex::prints_currency_sign("TOTAL €4,50"));
    EXPECT_TRUE(ex::prints_currency_sign("TOTAL 980円"));
    EXPECT_FALSE(ex::prints_currency_sign("RMX STORE\nTOTAL 4.50"));
}

TEST(AddressCountry, CurrencyOfThePrintedSign) {
    const std::string us = "TRADER JOE'S\n9593 Main St\nColumbus, OH 43215\nTOTAL:\n$281.99\nCASH\n$282.00";
    EXPECT_EQ(ex::currency_of_printed_sign(us), "USD");
    EXPECT_EQ(ex::currency_of_printed_sign("WAITROSE\nVAT 20%\n£10.98\nCash £85.00"), "GBP");
    EXPECT_EQ(ex::currency_of_printed_sign("CAFE\nTOTAL 5,40 €"), "EUR");
    EXPECT_EQ(ex::currency_of_printed_sign("KEDAI\nTOTAL RM9.00"), "MYR");
    // "$" with no address of a dollar country names no currency: Malaysian receipts print it for ringgit.
    EXPECT_EQ(ex::currency_of_printed_sign("MCDONALD'S\n47400 PETALING JAYA\nTOTAL $7.10"), std::nullopt);
    EXPECT_EQ(ex::currency_of_printed_sign("SHOP\nTOTAL $7.10"), std::nullopt);
    EXPECT_EQ(ex::currency_of_printed_sign("SHOP\nTOTAL £3.00\nEUR €4.00"), std::nullopt);  // two currencies
    EXPECT_EQ(ex::currency_of_printed_sign("SHOP\nTOTAL 12.50"), std::nullopt);
    EXPECT_EQ(ex::currency_of_printed_sign("ローソン\n合計 ¥500"), std::nullopt);
}

TEST(AddressCountry, CurrencyFitsTheSign) {
    EXPECT_TRUE(ex::currency_fits_sign("TOTAL $5.00", "USD", "USD"));
    EXPECT_TRUE(ex::currency_fits_sign("TOTAL $5.00", "CAD", "USD"));  // one dollar is not traded for another
    EXPECT_TRUE(ex::currency_fits_sign("TOTAL GBP 5.00 / $6.00", "GBP", "USD"));  // the code is printed
    EXPECT_FALSE(ex::currency_fits_sign("TOTAL $5.00", "GBP", "USD"));
    EXPECT_FALSE(ex::currency_fits_sign("TOTAL $5.00", "", "USD"));  // none written
    EXPECT_FALSE(ex::currency_fits_sign("TOTAL £5.00", "MYR", "GBP"));
}
