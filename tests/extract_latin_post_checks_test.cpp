// The post-checks of Latin-script receipts' names (extract/post_checks.h).
#include <gtest/gtest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "extract/known_names.h"
#include "extract/post_checks.h"
#include "receipt/extractor.h"

namespace ex = receipt::extract;

namespace {

// The fields of a receipt with a name and an address and nothing else read.
nlohmann::ordered_json header_fields(const std::string& name, const std::string& address, const std::string& cur) {
    return {{"supplier_name", name},
            {"supplier_address", address},
            {"currency", cur},
            {"net_amount", nullptr},
            {"total_tax_amount", nullptr},
            {"total_amount", nullptr},
            {"line_items", nlohmann::ordered_json::array()},
            {"warnings", nlohmann::ordered_json::array()}};
}

}  // namespace

TEST(LatinPostChecks, ANameThatIsAPieceOfTheAddressBecomesTheHeaderLine) {
    const receipt::ExtractOptions opts;
    // The name pass copied the address lines as printed ("0ak" with a zero); the model read the address ("Oak").
    const std::string text = "SAFEWAY\n5999 0ak Ave\nColumbus, OH\n4321S\nCASH BILL\nDec 11, 2017 11:18:08\n";
    nlohmann::ordered_json f = header_fields("59990ak Ave Columbus, OH", "5999 Oak Ave Columbus, OH 43215", "USD");
    ex::apply_post_checks(text, "", opts, f);
    EXPECT_EQ(f["supplier_name"], "SAFEWAY") << f.dump();
    // A company name whose letters fold to digits ("HAI-O" as "HA1-0") holds no house number.
    const std::string text2 = "HAI-O RAYA BHD (169199-V)\nKEPONG OUTLET\nHQ ADD: LOT 11995, BATU 2, JALAN KAPAR\n"
                              "41400 KLANG, SELANGOR\nDATE: 15/12/2016\n";
    nlohmann::ordered_json g = f;
    g["supplier_name"] = "HAI-O RAYA BHD";
    g["supplier_address"] = "LOT 11995, BATU 2, JALAN KAPAR 41400 KLANG, SELANGOR";
    ex::apply_post_checks(text2, "", opts, g);
    EXPECT_EQ(g["supplier_name"], "HAI-O RAYA BHD") << g.dump();
}

TEST(LatinPostChecks, ACompanyTheReceiptDoesNotPrintBecomesTheCompanyLine) {
    const receipt::ExtractOptions opts;
    const std::string text = "GARDENIA BKERIES (KL) SDN BHD\n(565420-X)\nNO.70, JALAN ANGSA,\nTAMAN MELWATI,\n"
                             "43000 KAJANG,\nSELANGOR.\nPHONE: 03-9526 1353\n";
    nlohmann::ordered_json f =
        header_fields("BAMINIDA (M) SDN BHD", "NO.70, JALAN ANGSA, TAMAN MELAWATI, 43000 KAJANG, SELANGOR.", "MYR");
    ex::apply_post_checks(text, "", opts, f);
    EXPECT_EQ(f["supplier_name"], "GARDENIA BKERIES (KL) SDN BHD") << f.dump();
    // A name that reads the damaged line (one letter OCR lost) stays.
    f["supplier_name"] = "GARDENIA BAKERIES (KL) SDN BHD";
    ex::apply_post_checks(text, "", opts, f);
    EXPECT_EQ(f["supplier_name"], "GARDENIA BAKERIES (KL) SDN BHD") << f.dump();
}

TEST(LatinPostChecks, AKnownStoreNameOcrDamagedGetsItsKnownSpelling) {
    const ex::KnownLists known{
        ex::KnownNames::parse("144\tGARDENIA BAKERIES (KL) SDN BHD\n952\tツルハドラッグ\n", "known_names.txt"), {}};
    const std::string text = "GARDENIA BAKRIES (KL) SDN BHD\n(139386-X)\nLOT 3, JALAN PELABUR 23/1,\n";
    receipt::ExtractOptions opts;
    nlohmann::ordered_json f = header_fields("GARDENIA BAKRIES (KL) SDN BHD", "LOT 3, JALAN PELABUR 23/1,", "MYR");
    ex::apply_post_checks(text, "", opts, f, &known);
    EXPECT_EQ(f["supplier_name"], "GARDENIA BAKERIES (KL) SDN BHD") << f.dump();
    ASSERT_FALSE(f["warnings"].empty());
    EXPECT_NE(f["warnings"].back().get<std::string>().find("supplier_name_known"), std::string::npos) << f.dump();
    // Without the list, or with the name checks off, the name stays as printed.
    nlohmann::ordered_json g = header_fields("GARDENIA BAKRIES (KL) SDN BHD", "LOT 3, JALAN PELABUR 23/1,", "MYR");
    ex::apply_post_checks(text, "", opts, g);
    EXPECT_EQ(g["supplier_name"], "GARDENIA BAKRIES (KL) SDN BHD");
    opts.copy_name = false;
    ex::apply_post_checks(text, "", opts, g, &known);
    EXPECT_EQ(g["supplier_name"], "GARDENIA BAKRIES (KL) SDN BHD");
}

TEST(LatinPostChecks, TheCurrencyOfThePrintedSignReplacesAnotherOne) {
    const receipt::ExtractOptions opts;
    // A long receipt whose input was cut before its amounts: the model guessed GBP for dollars printed in Ohio.
    const std::string text = "TRADER JOE'S\n9593 Main St\nColumbus, OH 43215\n1x RICE 5KG\n17.68 T\nSUB TOTAL\n"
                             "$256.12\nTOTAL:\n$281.99\n";
    nlohmann::ordered_json f = header_fields("TRADER JOE'S", "9593 Main St Columbus, OH 43215", "GBP");
    ex::apply_post_checks(text, "", opts, f);
    EXPECT_EQ(f["currency"], "USD") << f.dump();
    EXPECT_NE(f["warnings"].dump().find("currency_from_printed_sign"), std::string::npos) << f.dump();
    // "$" on a Malaysian receipt is the ringgit's: the model's MYR stays.
    const std::string my = "MCDONALD'S\nLOT 1, JALAN SS2\n47400 PETALING JAYA, SELANGOR\nTOTAL\n$7.10\n";
    nlohmann::ordered_json g = header_fields("MCDONALD'S", "LOT 1, JALAN SS2 47400 PETALING JAYA, SELANGOR", "MYR");
    ex::apply_post_checks(my, "", opts, g);
    EXPECT_EQ(g["currency"], "MYR") << g.dump();
}
