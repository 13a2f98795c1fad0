// Dates, times and amounts that the receipt does not print at all (extract/date_evidence.h,
// extract/unprinted_amounts.h): the model's made-up values are left out, its readings of OCR damage stand.
#include <gtest/gtest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "extract/date_checks.h"
#include "extract/date_evidence.h"
#include "extract/unprinted_amounts.h"
#include "extract/unprinted_items.h"

namespace ex = receipt::extract;

namespace {

bool warned(const nlohmann::ordered_json& f, const std::string& code) {
    return f["warnings"].dump().find(code) != std::string::npos;
}

nlohmann::ordered_json amounts(nlohmann::ordered_json net, nlohmann::ordered_json tax, nlohmann::ordered_json total) {
    return {{"currency", "MYR"},   {"line_items", nlohmann::ordered_json::array()},
            {"net_amount", net},   {"total_tax_amount", tax},
            {"total_amount", total}, {"warnings", nlohmann::ordered_json::array()}};
}

}  // namespace

TEST(DateEvidence, WholeAndDamagedDatesCount) {
    EXPECT_TRUE(ex::prints_date_like("KEDAI\n14/9/2015\n12:54:27 PM"));
    EXPECT_TRUE(ex::prints_date_like("24//12 15:18"));         // a part lost
    EXPECT_TRUE(ex::prints_date_like("Z0/0/29"));              // look-alike and a lost digit
    EXPECT_TRUE(ex::prints_date_like("27-D1-16 12:15PM"));
    EXPECT_TRUE(ex::prints_date_like("202年0月06日(木)"));
    EXPECT_TRUE(ex::prints_date_like("令和年2月21日"));
    EXPECT_TRUE(ex::prints_date_like("SE Z023 08:41M"));       // a year alone
    EXPECT_TRUE(ex::prints_date_like("26 AP 2023"));
    EXPECT_TRUE(ex::prints_date_like("30AUG"));
}

TEST(DateEvidence, TextsWithoutADate) {
    EXPECT_FALSE(ex::prints_date_like("hello world"));
    EXPECT_FALSE(ex::prints_date_like("ありがとうございました"));
    // Amounts, a phone, a house number and a postcode are no date.
    EXPECT_FALSE(ex::prints_date_like("NewDays\n〒650-0213 兵庫県神戸市中央区三宮町7-8-1\nTEL078-915-8094\n"
                                      "ボールペン 黒\n¥175\n小計\n¥3,021"));
    EXPECT_FALSE(ex::prints_date_like("TEL: 03-6686 8799\n1x CHICKEN BREAST\n8.45\nMEMBER DISC\n-4.22\nTOTAL 12.50"));
    EXPECT_FALSE(ex::prints_date_like("TOTAL 2015.50"));       // part of an amount, not a year
    EXPECT_FALSE(ex::prints_date_like("NO.13, JALAN SS 2/24,\nTAMAN DAYA,\nDATE:\nTIME:"));
}

TEST(DateEvidence, ReceiptOnOneLongLine) {
    // Some OCR results put the whole receipt on one line; the date and time are far from its start.
    const std::string line = "BENS INDEPENDENT GROCER SDN. BHD (913144-A) Lot 6, Jalan Batai, Plaza Batai, Damansara "
                             "Heights, 50490, Kuala Lumpur T: 03-2093 7358 | F: 03-2093 7359 (GST REG NO 000243941376) "
                             "Tax Invoice : BAT02201803120255 12/03/18 Cashier : Fatin Sy 20:29:59 Dole Pineapple";
    EXPECT_TRUE(ex::prints_date_like(line));
    EXPECT_TRUE(ex::prints_time_like(line));
    EXPECT_FALSE(ex::prints_date_like(line.substr(0, 150)));
}

TEST(DateEvidence, Times) {
    EXPECT_TRUE(ex::prints_time_like("18:53:43"));
    EXPECT_TRUE(ex::prints_time_like("TIME: 11;20:5 AM"));
    EXPECT_TRUE(ex::prints_time_like(":39:56 PM"));
    EXPECT_TRUE(ex::prints_time_like("14時7分"));
    EXPECT_TRUE(ex::prints_time_like("1138AM"));
    EXPECT_TRUE(ex::prints_time_like("TIME 18.53"));
    EXPECT_TRUE(ex::prints_time_like("023年02月14日(火)\n1g46\nPOS2"));
    EXPECT_FALSE(ex::prints_time_like("ローソン\n1946\nPOS2"));
    EXPECT_FALSE(ex::prints_time_like("hello world"));
    EXPECT_FALSE(ex::prints_time_like("DATE:\nTIME:\nOPERAT0R\n75665"));  // the label alone, its value lost
    EXPECT_TRUE(ex::prints_time_like("CASHIER\nTIME\n12 31 00"));
    EXPECT_TRUE(ex::prints_time_like("DATE/TIME\n: 20180428/191204"));
    EXPECT_TRUE(ex::prints_time_like("TIME\n: 1648"));
    EXPECT_FALSE(ex::prints_time_like("TEL:03-3362 4395\nGST ID : 000584089600\nTOTAL 12.50\nCASH 20.00"));
}

TEST(DateEvidence, ChecksLeaveOutMadeUpDateAndTime) {
    nlohmann::ordered_json f = {{"receipt_date", "2020-05-17"}, {"purchase_time", "08:20"},
                                {"currency", "JPY"}, {"warnings", nlohmann::ordered_json::array()}};
    ex::check_date_and_time("NewDays\nTEL078-915-8094\nボールペン 黒\n¥175\n合計\n¥175", f);
    EXPECT_TRUE(f["receipt_date"].is_null());
    EXPECT_TRUE(f["purchase_time"].is_null());
    EXPECT_TRUE(warned(f, "receipt_date_not_printed"));
    EXPECT_TRUE(warned(f, "purchase_time_not_printed"));
    // A damaged print keeps the model's reading.
    nlohmann::ordered_json g = {{"receipt_date", "2021-08-30"}, {"purchase_time", "16:00"},
                                {"currency", "MYR"}, {"warnings", nlohmann::ordered_json::array()}};
    ex::check_date_and_time("TAMAN UNIVERSITI,\n3O AUG 20l 0:00PM\nTOTAL 6.80", g);
    EXPECT_EQ(g["receipt_date"], "2021-08-30");
}

TEST(UnprintedAmounts, LooselyPrinted) {
    const auto runs = ex::printed_digit_strings("SUBTOTAL 127.2\nTOTAL RM1,645.50\nCASH 20.00\nBALANCE $320,15");
    EXPECT_TRUE(ex::amount_printed_loosely(1645.5, runs));
    EXPECT_TRUE(ex::amount_printed_loosely(127.27, runs));   // a digit lost from the print
    EXPECT_TRUE(ex::amount_printed_loosely(20, runs));
    EXPECT_TRUE(ex::amount_printed_loosely(320.15, runs));  // a decimal comma
    EXPECT_FALSE(ex::amount_printed_loosely(130.13, runs));
    EXPECT_FALSE(ex::amount_printed_loosely(27500, ex::printed_digit_strings("x")));
}

TEST(UnprintedAmounts, MadeUpAmountsLeaveOut) {
    auto f = amounts(99.5, 18.71, 118.21);
    EXPECT_TRUE(ex::drop_unprinted_amounts("hello world", f));
    EXPECT_TRUE(f["net_amount"].is_null());
    EXPECT_TRUE(f["total_tax_amount"].is_null());
    EXPECT_TRUE(f["total_amount"].is_null());
    EXPECT_TRUE(f["currency"].is_null());  // no number printed, no amount left
    EXPECT_TRUE(warned(f, "total_amount_not_printed"));
    EXPECT_TRUE(warned(f, "currency_without_amounts"));
}

TEST(UnprintedAmounts, PrintedAndSummedAmountsStay) {
    // A total tax summed from the per-rate tax lines (35 + 26), printed nowhere as such.
    auto f = amounts(769, 61, 769);
    f["currency"] = "JPY";
    EXPECT_FALSE(ex::drop_unprinted_amounts("合 計\n¥769\n8%\n¥474\n¥35\n10%\n\\295\n¥26", f));
    EXPECT_EQ(f["total_tax_amount"], 61);
    EXPECT_EQ(f["currency"], "JPY");
    // A net the print does not hold goes; the rest stays.
    auto g = amounts(130.13, 0.8, 14.05);
    EXPECT_TRUE(ex::drop_unprinted_amounts("SUB TOTAL 103.31\nSST 0.80\nTOTAL 14.05", g));
    EXPECT_TRUE(g["net_amount"].is_null());
    EXPECT_EQ(g["total_amount"], 14.05);
    EXPECT_EQ(g["currency"], "MYR");
}

TEST(UnprintedAmounts, TextWithoutNumbersLosesItemAmounts) {
    nlohmann::ordered_json f = amounts(nullptr, nullptr, nullptr);
    f["line_items"] = nlohmann::ordered_json::array(
        {{{"description", "COFFEE"}, {"quantity", 1}, {"unit_price", 3.5}, {"amount", 3.5}}});
    EXPECT_TRUE(ex::drop_unprinted_amounts("CAFE\nCOFFEE", f));
    EXPECT_TRUE(f["line_items"][0]["amount"].is_null());
    EXPECT_EQ(f["line_items"][0]["description"], "COFFEE");
    EXPECT_TRUE(f["currency"].is_null());
    // Malformed objects are left as they are.
    nlohmann::ordered_json bad = nlohmann::ordered_json::array();
    EXPECT_FALSE(ex::drop_unprinted_amounts("x", bad));
}

TEST(UnprintedAmounts, JapaneseReceiptWithoutTaxLines) {
    auto f = amounts(3021, 280, 3021);
    f["currency"] = "JPY";
    EXPECT_TRUE(ex::drop_unprinted_amounts("NewDays\nボールペン 黒\n¥175\nヤクルト1000\n¥350軽\n小計\n¥3,021", f));
    EXPECT_TRUE(f["total_tax_amount"].is_null());
    EXPECT_TRUE(warned(f, "total_tax_amount_not_printed"));
    EXPECT_EQ(f["total_amount"], 3021);
    // A damaged tax word still states a rate.
    auto g = amounts(2044, 204, 2248);
    g["currency"] = "JPY";
    EXPECT_FALSE(ex::drop_unprinted_amounts("小計 (7点)\n2,044\n(I0%対象\n2,044)\n外悦I0% 204\n合 計\n2,248", g));
    EXPECT_EQ(g["total_tax_amount"], 204);
}

TEST(UnprintedAmounts, LatinReceiptCutBeforeItsTotal) {
    auto f = amounts(nullptr, nullptr, 26555);
    EXPECT_TRUE(ex::drop_unprinted_amounts("TESCO\n03/08/2017\nCASHIER:\n26555\n1x MILK\n3.57", f));
    EXPECT_TRUE(f["total_amount"].is_null());
    // The same without a CASHIER label, which names no payment: still cut off.
    auto g = amounts(nullptr, nullptr, 3.57);
    EXPECT_TRUE(ex::drop_unprinted_amounts("TESCO\n03/08/2017\n1x MILK\n3.57", g));
    EXPECT_TRUE(g["total_amount"].is_null());
    // Neither a CASH BILL heading nor an AMOUNT column heading is a total or payment line.
    auto k = amounts(nullptr, nullptr, 18.67);
    EXPECT_TRUE(ex::drop_unprinted_amounts("CASH BILL\nQTY DESC AMOUNT\nAMOUNT(RM)\n1x KNORR STOCK\n18.67", k));
    EXPECT_TRUE(k["total_amount"].is_null());
    // An amount line with a count, or a net amount's abbreviation, is a total line.
    auto m = amounts(nullptr, nullptr, 262000);
    EXPECT_FALSE(ex::drop_unprinted_amounts("MUSTELA BABY OIL\n160,000\nQty: 3 Amount: 262,000", m));
    auto n = amounts(nullptr, nullptr, 53.55);
    EXPECT_FALSE(ex::drop_unprinted_amounts("PLAIN RICE\n3.18\nGROSS AMT :\n47.80\nNET AMT :\n53.55", n));
    // A payment line or a damaged keyword's payment lines keep it.
    auto h = amounts(nullptr, nullptr, 170);
    EXPECT_FALSE(ex::drop_unprinted_amounts("DPT.05\nRM\n149.00\nDPT.04\nRM\n21.00\nCASH\nRM\n170.00", h));
    EXPECT_EQ(h["total_amount"], 170);
}

TEST(DateEvidence, HouseNumbersStreetsAndCardsAreNoDates) {
    EXPECT_FALSE(ex::prints_date_like("サミット\n経堂3-19-20\n一番町タワー 7F\n¥2000円"));
    EXPECT_FALSE(ex::prints_date_like("WHOLE FOODS MARKET\n144 MarketStreet\n************2036"));
    EXPECT_TRUE(ex::prints_date_like("2020-01-08 23:27"));
    EXPECT_TRUE(ex::prints_date_like("WHOLE FOODS MARKET\n12 DEC\n"));
    EXPECT_TRUE(ex::prints_date_like("MAY 10, 2O19"));
    EXPECT_TRUE(ex::prints_date_like("20-04ー19 4:40:09 PM"));
    EXPECT_TRUE(ex::prints_date_like("15/0524"));
    EXPECT_TRUE(ex::prints_date_like("Sp 4, 201 2:58:05 PM"));
    EXPECT_TRUE(ex::prints_date_like("OZ-01-21"));
    EXPECT_TRUE(ex::prints_date_like("CASH BILL\nS/31/18"));
    EXPECT_TRUE(ex::prints_date_like("責No.680\n2007/Z5 9時57分"));
}

TEST(UnprintedAmounts, JapaneseReceiptCutBeforeItsTotal) {
    auto f = amounts(716, 53, 716);
    f["currency"] = "JPY";
    EXPECT_TRUE(ex::drop_unprinted_amounts("サミット\nカレールー 中辛 ※\n1\n¥228\n国産豚こま切れ ※\n2\n¥716", f));
    EXPECT_TRUE(f["total_amount"].is_null());
    EXPECT_TRUE(f["net_amount"].is_null());
    EXPECT_TRUE(f["total_tax_amount"].is_null());
    // A damaged total keyword ("合言" for 合計) keeps it.
    auto g = amounts(nullptr, nullptr, 37418);
    g["currency"] = "JPY";
    EXPECT_FALSE(ex::drop_unprinted_amounts("キーボード\n9,296\n電子レンジ\n28,122\n合言\n37,418\n(10%対象", g));
    EXPECT_EQ(g["total_amount"], 37418);
}

TEST(NonHeaderValues, BodyLinesAreNoNameOrAddress) {
    auto fields = [](const char* name, const char* address) {
        return nlohmann::ordered_json{{"supplier_name", name}, {"supplier_address", address},
                                      {"warnings", nlohmann::ordered_json::array()}};
    };
    const std::vector<std::string> keys{"supplier_name", "supplier_address"};
    for (const char* name : {"9:17:26", "17881", "01 DEC 2017 4:52:17 PM", "JAN", "PM", "水曜日", "TRANS#",
                             "CASHIER:", "SERVED BY:", "OPERATOR 21602", "担当:山田", "レジ#4", "数量", "商品名"}) {
        auto f = fields(name, "NO.12, JALAN SS 2/24");
        EXPECT_TRUE(ex::drop_non_header_values(keys, f)) << name;
        EXPECT_TRUE(f["supplier_name"].is_null()) << name;
        EXPECT_EQ(f["supplier_address"], "NO.12, JALAN SS 2/24");
        EXPECT_TRUE(warned(f, "supplier_name_not_a_header")) << name;
    }
    for (const char* address : {"20% £10.98", "OPERATOR 21602", "TRANS# 15665"}) {
        auto g = fields("KEDAI RUNCIT", address);
        EXPECT_TRUE(ex::drop_non_header_values(keys, g)) << address;
        EXPECT_TRUE(g["supplier_address"].is_null()) << address;
        EXPECT_EQ(g["supplier_name"], "KEDAI RUNCIT");
    }
    // Names that start like a label, or hold a date's word, stay.
    for (const char* name : {"TIME LESS KITCHENETTE SDN BHD", "PRICE SMART", "レジャーランド", "MARKET 24", "セブン-イレブン",
                             "7-Eleven", "ローソン 新宿3丁目店", "Пятёрочка", "Ελληνικά 24", "ร้านค้า"}) {
        auto f = fields(name, "東京都新宿区西新宿1-1-1");
        EXPECT_FALSE(ex::drop_non_header_values(keys, f)) << name;
        EXPECT_EQ(f["supplier_name"], name);
    }
    // Only the keys named are checked.
    auto h = fields("17881", "17881");
    EXPECT_FALSE(ex::drop_non_header_values({}, h));
}

TEST(UnprintedAmounts, MinorUnitFreeCurrencyNeedsItsSignsOrThousands) {
    // A Latin-script receipt with cents and no yen / rupiah sign: the model's JPY or IDR is made up.
    const std::string us = "TARGET\nMILK 2% GAL\n3.57 T\nEGGS LARGE 12CT\n4.07 T\n";
    EXPECT_TRUE(ex::minor_unit_free_currency_unprinted(us, "JPY"));
    EXPECT_TRUE(ex::minor_unit_free_currency_unprinted(us, "IDR"));
    EXPECT_TRUE(ex::minor_unit_free_currency_unprinted("TOTAL 5.00\n", "KRW"));
    // Bare amounts say nothing about minor units.
    EXPECT_FALSE(ex::minor_unit_free_currency_unprinted("RTD Jahe 1 15000 15000\nSub Total 15000\n", "IDR"));
    EXPECT_FALSE(ex::minor_unit_free_currency_unprinted("31.05.2019 17:40\nNASI 15000\nCASH 15000\n", "IDR"));
    EXPECT_FALSE(ex::minor_unit_free_currency_unprinted("DISC ITEM 30.00%\nTOTAL 12600\n", "IDR"));
    // Currencies with cents are not this check's business.
    EXPECT_FALSE(ex::minor_unit_free_currency_unprinted(us, "USD"));
    // Printed signs, codes and thousands groups keep the model's currency.
    EXPECT_FALSE(ex::minor_unit_free_currency_unprinted("TOTAL Rp 25.000\n", "IDR"));
    EXPECT_FALSE(ex::minor_unit_free_currency_unprinted("Nasi Goreng 25.000\nTOTAL 50.000\n", "IDR"));
    EXPECT_FALSE(ex::minor_unit_free_currency_unprinted("TOTAL 12,500\n", "KRW"));
    EXPECT_FALSE(ex::minor_unit_free_currency_unprinted("TOTAL ¥980\n", "JPY"));
    EXPECT_FALSE(ex::minor_unit_free_currency_unprinted("TOTAL 980 YEN\n", "JPY"));
    EXPECT_FALSE(ex::minor_unit_free_currency_unprinted("TOTAL VND 50000\n", "VND"));
    // Japanese text is read by the yen checks.
    EXPECT_FALSE(ex::minor_unit_free_currency_unprinted("合計 980\n", "JPY"));
}
