// Store names and addresses that are lines of a receipt's body (extract/body_line_values.h), and the body-line
// cases of drop_non_header_values (extract/unprinted_items.h): the model's copies of item rows, totals, the
// cashier or another shop's address are left out where the header is cut off; printed names and addresses stay.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "extract/body_line_values.h"
#include "extract/unprinted_items.h"

namespace ex = receipt::extract;

namespace {

const nlohmann::ordered_json kNoItems = nlohmann::ordered_json::array();

nlohmann::ordered_json items(std::initializer_list<const char*> descriptions) {
    auto a = nlohmann::ordered_json::array();
    for (const char* d : descriptions) a.push_back({{"description", d}, {"quantity", 1}, {"amount", 1.0}});
    return a;
}

// A receipt whose photo starts at the date line: no name, no address.
const std::string kCutEnglish =
    "Oct 17, 2020 10:22:43\nSERVED BY:\n8069\n1x RICE 5KG\n21.72 T\n1x PASTA PENNE\n1.24 T\n2x CHEDDAR CHEESE\n"
    "9.40 T\nSUBTOTAL\n$32.36\nTOTAL $32.36\nCASH $40.00\nCHANGE $7.64\nGOODS SOLD ARE NOT RETURNABLE\n";

bool dropped(const std::string& text, const char* key, const std::string& value,
             const nlohmann::ordered_json& its = kNoItems) {
    return ex::body_line_reason(text, key, value, its).has_value();
}

}  // namespace

TEST(BodyLineValues, LatinBodyLinesAreNoAddress) {
    for (const char* v :
         {"17.6 GRAND TOTAL £36.35 £46.00", "7680 EGGS LARGE 12CT RM12.00", "12:2Z:56 PM SERVED BY: 32234",
          "500S 12.85", "2.85 T", "b3623 2x SUGAR 1KG 4.98 1x CHICKEN BREAST", "67.40 4 @ 16.85 ORNGE", "OERATOR 59874",
          "NOT REURNABLE", "SERVD BY: 44134", "41420 QTY DESC PICE", "1492 南池袋ct",
          "9W7.75 TOTAL SALES (EXCLUDING GST)", "75, JALAN MUSRI 10/24 18:01"})
        EXPECT_TRUE(dropped(kCutEnglish, "supplier_address", v)) << v;
    // An item's words, and another shop's address that the text prints nothing of.
    EXPECT_TRUE(dropped(kCutEnglish, "supplier_address", "32326 CHEDDAR", items({"CHEDDAR CHEESE"})));
    EXPECT_TRUE(dropped(kCutEnglish, "supplier_address",
                        "NO.195, JALAN SS 2/24, TAMAN BERKELEY, 47300 PETALING JAYA, SELANGOR."));
}

TEST(BodyLineValues, LatinBodyLinesAreNoName) {
    for (const char* v : {"1x FACE MASK 50S", "27-D1-16 12:15PM", "PMOPERATOR", "PMCASHIER:", "12:50 OPERATOR", "1x",
                          "CASIER: 61043", "TIE:"})
        EXPECT_TRUE(dropped(kCutEnglish, "supplier_name", v)) << v;
    // An item's description, or a run of its words, printed only on item rows.
    EXPECT_TRUE(dropped(kCutEnglish, "supplier_name", "PASTA", items({"PASTA PENNE", "RICE 5KG"})));
    EXPECT_TRUE(dropped(kCutEnglish, "supplier_name", "Cheddar Cheese", items({"CHEDDAR CHEESE"})));
}

TEST(BodyLineValues, PrintedHeadersStay) {
    const std::string text =
        "KFC\nNO.53 55,57 & 59, JALAN SAGU 18,\nTAMAN DAYA, 81100 JOHOR BAHRU, JOHOR.\nTEL 07-3523888\n"
        "68 MarketStreet\nLondo SW1A 1AA\nKFC Winger HC\n12.50\nTOTAL 12.50\n";
    EXPECT_FALSE(
        dropped(text, "supplier_address", "NO.53 55,57 & 59, JALAN SAGU 18, TAMAN DAYA, 81100 JOHOR BAHRU, JOHOR."));
    EXPECT_FALSE(dropped(text, "supplier_address", "68 Market Street London SW1A 1AA"));
    // The brand on an item row and alone in the header.
    EXPECT_FALSE(dropped(text, "supplier_name", "KFC", items({"KFC Winger HC"})));
    // An address whose words OCR damaged but whose numbers are printed.
    EXPECT_FALSE(dropped("Staton Rd\nAustn, TX 78701\n", "supplier_address", "6986 Station Road Austin, TX 78701"));
    // A postcode OCR damaged by one digit.
    EXPECT_FALSE(dropped("JLN BESAR\n39I00 BRNCHNG\n", "supplier_address", "JALAN BESAR, 39100 BRINCHANG, PAHANG"));
    for (const char* v : {"LOT 1851 -A & 1851-B, JALAN KPB 6,", "NO.17,18 & 41,JALAN BESAR, 39100 BRINCHANG,",
                          "3RD FLR, AEON TAMAN MALURI SC JLN JEJAKA,", "CHANGE ALLEY 24", "TIME LESS KITCHENETTE"}) {
        const std::string t = std::string(v) + "\nTOTAL 5.00\n";
        EXPECT_FALSE(dropped(t, "supplier_address", v)) << v;
        EXPECT_FALSE(dropped(t, "supplier_name", v)) << v;
    }
}

TEST(BodyLineValues, JapaneseItemsCashierAndDatedAddresses) {
    const std::string text =
        "2025年01月04日(土) 18:47\n担当:高橋\n緑茶 2L\n129軽\nSDカード 64GB\n¥2,980\n小 計\n1521\n";
    const auto its = items({"緑茶 2L", "SDカード 64GB"});
    EXPECT_TRUE(dropped(text, "supplier_name", "緑茶", its));
    EXPECT_TRUE(dropped(text, "supplier_name", "SDカード", its));
    EXPECT_TRUE(dropped(text, "supplier_name", "高橋", its));
    EXPECT_TRUE(dropped(text, "supplier_address", "東京都渋谷区 神宮前2丁目13 22/23/12 29時09分", its));
    // Another store's address, which the body prints none of; a printed one that OCR damaged stays.
    EXPECT_TRUE(dropped(text, "supplier_address", "千葉県船橋市 本町5-10-22", its));
    EXPECT_FALSE(dropped("ローソン\n千県船橋市\n町7-18-26\n" + text, "supplier_address", "千葉県船橋市 本町7-18-26", its));
    // A chain and an address as printed stay; so does a name whose item carries another word.
    const std::string header = "ローソン 渋谷店\n東京都渋谷区道玄坂4-16-22\n" + text;
    EXPECT_FALSE(dropped(header, "supplier_name", "ローソン 渋谷店", its));
    EXPECT_FALSE(dropped(header, "supplier_address", "東京都渋谷区道玄坂4-16-22", its));
    EXPECT_FALSE(dropped(header, "supplier_name", "緑茶園", its));
    // An amount in yen is no name; the 100円 of a shop's name is no amount.
    EXPECT_TRUE(dropped(header, "supplier_name", "880円 営業時間", its));
    EXPECT_TRUE(dropped(header, "supplier_name", "¥425 ローソン", its));
    EXPECT_FALSE(dropped(header, "supplier_name", "100円ショップ ダイソー", its));
    // Nor is an e-mail address, in any script.
    EXPECT_TRUE(dropped(header, "supplier_name", "info@lawson.co.jp", its));
    EXPECT_TRUE(dropped(kCutEnglish, "supplier_name", "support@example.com"));
}

TEST(BodyLineValues, DropSetsNullWithAWarning) {
    nlohmann::ordered_json f = {{"supplier_name", "PASTA"},
                                {"supplier_address", "17.6 GRAND TOTAL £36.35"},
                                {"supplier_phone", "07-3523888"},
                                {"line_items", items({"PASTA PENNE"})},
                                {"warnings", nlohmann::ordered_json::array()}};
    EXPECT_TRUE(ex::drop_body_line_values(kCutEnglish, {"supplier_name", "supplier_address", "supplier_phone"}, f));
    EXPECT_TRUE(f["supplier_name"].is_null());
    EXPECT_TRUE(f["supplier_address"].is_null());
    EXPECT_EQ(f["supplier_phone"], "07-3523888");
    EXPECT_NE(f["warnings"].dump().find("supplier_address_body_line"), std::string::npos);
    // Only the keys named; malformed objects are left as they are.
    nlohmann::ordered_json g = {{"supplier_name", "PASTA"}, {"line_items", items({"PASTA PENNE"})}};
    EXPECT_FALSE(ex::drop_body_line_values(kCutEnglish, {"supplier_address"}, g));
    nlohmann::ordered_json bad = {{"supplier_name", 12}, {"line_items", "x"}};
    EXPECT_FALSE(ex::drop_body_line_values(kCutEnglish, {"supplier_name"}, bad));
}

TEST(NonHeaderValues, DamagedDatesAmountsCountsAndLabels) {
    for (const char* v : {"6/3/20I6", "4/5/2O17", "5741b", "461円", "¥425軽", "3本", "2022-07-09 13時54分 ¥120軽",
                          "2022年11月22日(火) レジ0008", "2024-01-24 22:35 レジ0002", "金額", "POS8", "テーブル 6"}) {
        nlohmann::ordered_json f = {{"supplier_name", v}, {"warnings", nlohmann::ordered_json::array()}};
        EXPECT_TRUE(ex::drop_non_header_values({"supplier_name"}, f)) << v;
        EXPECT_TRUE(f["supplier_name"].is_null()) << v;
    }
    for (const char* key : {"supplier_name", "supplier_address"}) {  // a weekday alone, as a date
        nlohmann::ordered_json f = {{key, "Tuesday."}, {"warnings", nlohmann::ordered_json::array()}};
        EXPECT_TRUE(ex::drop_non_header_values({key}, f)) << key;
    }
    for (const char* v : {"TGI FRIDAYS", "金の蔵 本店", "日本橋高島屋", "本町5-10-22", "POSTAL CAFE", "3B CAFE", "99 SPEEDMART"}) {
        nlohmann::ordered_json f = {{"supplier_name", v}, {"warnings", nlohmann::ordered_json::array()}};
        EXPECT_FALSE(ex::drop_non_header_values({"supplier_name"}, f)) << v;
    }
}
