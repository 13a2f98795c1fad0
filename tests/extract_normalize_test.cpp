// Normalisers: dates (ISO, Western, month names, Japanese eras), times, amounts, quantities, currencies, phones,
// addresses.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "extract/normalize_amount.h"
#include "extract/normalize_currency.h"
#include "extract/normalize_date.h"
#include "extract/normalize_phone.h"
#include "extract/normalize_text.h"
#include "extract/normalize_time.h"
#include "extract/utf8.h"
#include "receipt/receipt_schema.h"

namespace ex = receipt::extract;

namespace {

std::string date(const std::string& s, bool japanese = false, bool month_first = false) {
    ex::DateHints h;
    h.japanese = japanese;
    h.month_first = month_first;
    return ex::normalize_date(s, h).value_or("<none>");
}

double amount(const std::string& s) { return ex::normalize_amount(s).value_or(NAN); }

}  // namespace

TEST(NormalizeDate, Iso) {
    EXPECT_EQ(date("2024-05-01"), "2024-05-01");
    EXPECT_EQ(date("2024-05-01 14:05"), "2024-05-01");
    EXPECT_EQ(date("2024/5/1"), "2024-05-01");
    EXPECT_EQ(date("2024.05.01"), "2024-05-01");
    EXPECT_EQ(date("20240501"), "2024-05-01");
    EXPECT_EQ(date("Date: 2019-01-12T10:00"), "2019-01-12");
}

TEST(NormalizeDate, Western) {
    EXPECT_EQ(date("12/01/2019"), "2019-01-12");  // dd/mm/yyyy by default
    EXPECT_EQ(date("12/01/2019", false, true), "2019-12-01");
    EXPECT_EQ(date("12/31/2019"), "2019-12-31");  // only mm/dd is valid
    EXPECT_EQ(date("05-01-24"), "2024-01-05");    // dd-mm-yy
    EXPECT_EQ(date("25.12.2023"), "2023-12-25");  // dd.mm.yyyy
    EXPECT_EQ(date("99/01/02"), "1999-01-02");    // first group > 31: yy/mm/dd
    EXPECT_EQ(date("12 Jan 2019"), "2019-01-12");
    EXPECT_EQ(date("12-JAN-19"), "2019-01-12");
    EXPECT_EQ(date("Jan 12, 2019"), "2019-01-12");
    EXPECT_EQ(date("January 12 2019"), "2019-01-12");
    EXPECT_EQ(date("3rd Sept 2021"), "2021-09-03");
    EXPECT_EQ(date("Mon 12 2019"), "<none>");
}

TEST(NormalizeDate, Japanese) {
    EXPECT_EQ(date("2024年5月1日"), "2024-05-01");
    EXPECT_EQ(date("2024年 5月 1日(水) 14:05"), "2024-05-01");
    EXPECT_EQ(date("２０２４年５月１日"), "2024-05-01");  // full-width digits
    EXPECT_EQ(date("令和6年5月1日"), "2024-05-01");
    EXPECT_EQ(date("令和元年5月1日"), "2019-05-01");
    EXPECT_EQ(date("平成31年4月30日"), "2019-04-30");
    EXPECT_EQ(date("昭和64年1月7日"), "1989-01-07");
    EXPECT_EQ(date("R6.5.1"), "2024-05-01");
    EXPECT_EQ(date("R06/05/01"), "2024-05-01");
    EXPECT_EQ(date("H31/4/30"), "2019-04-30");
    EXPECT_EQ(date("24/05/01", true), "2024-05-01");  // yy/mm/dd in Japanese context
    EXPECT_EQ(date("24/05/01"), "2001-05-24");        // dd/mm/yy otherwise
    EXPECT_EQ(date("24/05/01 ｾﾌﾞﾝ"), "2024-05-01");   // Japanese text implies the context
    // 年 dropped by OCR: a four-digit year right before month 月 and day 日.
    EXPECT_EQ(date("202412月1日 日曜日"), "2024-12-01");
    EXPECT_EQ(date("2025 3月14日(金)"), "2025-03-14");
    EXPECT_EQ(date("202413月1日"), "<none>");  // no month 13
    EXPECT_EQ(date("150012月1日"), "<none>");  // no year 1500
    // 月 dropped by OCR: the digits before 日 read where one split only is a month and a day.
    EXPECT_EQ(date("2025年213日木曜日 23:44:18"), "2025-02-13");  // 21-3 is no date
    EXPECT_EQ(date("2024年1231日"), "2024-12-31");
    EXPECT_EQ(date("2025年123日"), "<none>");   // 1-23 or 12-3
    EXPECT_EQ(date("2025年1345日"), "<none>");  // no month 13
}

TEST(NormalizeDate, InvalidRejected) {
    EXPECT_EQ(date("2023-02-29"), "<none>");
    EXPECT_EQ(date("2024-02-29"), "2024-02-29");
    EXPECT_EQ(date("31/04/2024"), "<none>");
    EXPECT_EQ(date("2024-13-01"), "<none>");
    EXPECT_EQ(date("令和1年4月30日"), "<none>");  // before the era began
    EXPECT_EQ(date("令和6年2月30日"), "<none>");
    EXPECT_EQ(date("hello"), "<none>");
    EXPECT_EQ(date(""), "<none>");
    EXPECT_EQ(date("1,080.50"), "<none>");
    EXPECT_EQ(date("03-1234-5678"), "<none>");
    EXPECT_EQ(date(std::string(10000, '1')), "<none>");
}

TEST(NormalizeDate, FirstDateWins) {
    EXPECT_EQ(date("2024-05-01 / 2024-06-01"), "2024-05-01");
    EXPECT_EQ(date("R6.5.1 (2024/05/02)"), "2024-05-01");
}

TEST(NormalizeTime, Forms) {
    auto t = [](const std::string& s) { return ex::normalize_time(s).value_or("<none>"); };
    EXPECT_EQ(t("14:05"), "14:05");
    EXPECT_EQ(t("14:05:33"), "14:05");
    EXPECT_EQ(t("9:05"), "09:05");
    EXPECT_EQ(t("2:05 PM"), "14:05");
    EXPECT_EQ(t("12:30 AM"), "00:30");
    EXPECT_EQ(t("12:30 p.m."), "12:30");
    EXPECT_EQ(t("午後2:05"), "14:05");
    EXPECT_EQ(t("14時05分"), "14:05");
    EXPECT_EQ(t("１４：０５"), "14:05");
    EXPECT_EQ(t("2024-05-01 14:05"), "14:05");
    EXPECT_EQ(t("25:10"), "<none>");
    EXPECT_EQ(t("14:75"), "<none>");
    EXPECT_EQ(t("13:00 AM"), "<none>");
    EXPECT_EQ(t("noon"), "<none>");
    // A lone P or A ending the line: OCR lost the M. Hour 0 on a 12-hour clock is a misread hour.
    EXPECT_EQ(t("1:09:37 P"), "13:09");
    EXPECT_EQ(t("11:09 A"), "11:09");
    EXPECT_EQ(t("1:09 PARK"), "01:09");
    EXPECT_EQ(t("0:14PM"), "<none>");
}

TEST(NormalizeAmount, Japanese) {
    EXPECT_EQ(amount("1080"), 1080);
    EXPECT_EQ(amount("¥1,080"), 1080);
    EXPECT_EQ(amount("￥1,080"), 1080);
    EXPECT_EQ(amount("1,080円"), 1080);
    EXPECT_EQ(amount("\\1,080"), 1080);
    EXPECT_EQ(amount("１，０８０円"), 1080);
    EXPECT_EQ(amount("¥1,000-"), 1000);  // a trailing dash after yen is a terminator
    EXPECT_EQ(amount("¥12,345,678"), 12345678);
}

TEST(NormalizeAmount, Western) {
    EXPECT_EQ(amount("1,080.50"), 1080.5);
    EXPECT_EQ(amount("1.080,50"), 1080.5);
    EXPECT_EQ(amount("1 080,50"), 1080.5);
    EXPECT_EQ(amount("1'080.50"), 1080.5);
    EXPECT_EQ(amount("12,50"), 12.5);
    EXPECT_EQ(amount("1.080"), 1080);
    EXPECT_EQ(amount("0.125"), 0.125);
    EXPECT_EQ(amount("RM 12.50"), 12.5);
    EXPECT_EQ(amount("RM12.50"), 12.5);
    EXPECT_EQ(amount("$12.50"), 12.5);
    EXPECT_EQ(amount("USD 12.50"), 12.5);
    EXPECT_EQ(amount("12.50 EUR"), 12.5);
    EXPECT_EQ(amount("€ 3,99"), 3.99);
}

TEST(NormalizeAmount, Negative) {
    EXPECT_EQ(amount("-50"), -50);
    EXPECT_EQ(amount("−50"), -50);  // U+2212
    EXPECT_EQ(amount("▲50"), -50);
    EXPECT_EQ(amount("△50"), -50);
    EXPECT_EQ(amount("(50)"), -50);
    EXPECT_EQ(amount("(1,080.50)"), -1080.5);
    EXPECT_EQ(amount("-¥50"), -50);
    EXPECT_EQ(amount("¥-50"), -50);
    EXPECT_EQ(amount("1.00-"), -1);  // trailing minus without yen
    EXPECT_EQ(amount("-0"), 0);
    EXPECT_FALSE(std::signbit(amount("-0")));
}

TEST(NormalizeAmount, Garbage) {
    for (const char* s : {"",
                          " ",
                          "abc",
                          "nan",
                          "NaN",
                          "inf",
                          "-inf",
                          "1e308",
                          "1O8O",
                          "12abc34",
                          "1,0800",
                          "1,2,3",
                          "1..2",
                          "12.",
                          "(50",
                          "50)",
                          "1080 1080",
                          "0x10",
                          "1,080,50",
                          "--",
                          "¥",
                          "1e5",
                          "99999999999999999999",
                          "1,000,000,000,000,000"}) {
        EXPECT_FALSE(ex::normalize_amount(s).has_value()) << s;
    }
    EXPECT_FALSE(ex::normalize_amount(std::string(100000, '9')).has_value());
    EXPECT_EQ(amount("999999999999"), 999999999999.0);
}

TEST(NormalizeQuantity, Forms) {
    auto q = [](const std::string& s) { return ex::normalize_quantity(s).value_or(NAN); };
    EXPECT_EQ(q("2"), 2);
    EXPECT_EQ(q("1.5"), 1.5);
    EXPECT_EQ(q("0,5"), 0.5);
    EXPECT_EQ(q("x2"), 2);
    EXPECT_EQ(q("×2"), 2);
    EXPECT_EQ(q("2x"), 2);
    EXPECT_EQ(q("2個"), 2);
    EXPECT_EQ(q("2 pcs"), 2);
    EXPECT_EQ(q("1.250kg"), 1.25);
    EXPECT_EQ(q("-1"), -1);
    EXPECT_TRUE(std::isnan(q("two")));
    EXPECT_TRUE(std::isnan(q("2 x 3")));
    EXPECT_TRUE(std::isnan(q("99999999")));
}

TEST(NormalizeCurrency, CodesAndSymbols) {
    auto c = [](const std::string& s) { return ex::normalize_currency(s).value_or("<none>"); };
    EXPECT_EQ(c("JPY"), "JPY");
    EXPECT_EQ(c(" jpy "), "JPY");
    EXPECT_EQ(c("¥"), "JPY");
    EXPECT_EQ(c("円"), "JPY");
    EXPECT_EQ(c("RM"), "MYR");
    EXPECT_EQ(c("S$"), "SGD");
    EXPECT_EQ(c("€"), "EUR");
    EXPECT_EQ(c("$"), "USD");
    EXPECT_EQ(c("ＪＰＹ"), "JPY");
    EXPECT_EQ(c("XYZ"), "<none>");
    EXPECT_EQ(c("yen!"), "<none>");
    EXPECT_EQ(c(""), "<none>");
    EXPECT_TRUE(ex::currency_without_minor_units("JPY"));
    EXPECT_FALSE(ex::currency_without_minor_units("MYR"));
}

TEST(NormalizePhone, Labels) {
    EXPECT_EQ(ex::normalize_phone("TEL 03-1234-5678"), "03-1234-5678");
    EXPECT_EQ(ex::normalize_phone("Tel. 03-1234-5678"), "03-1234-5678");
    EXPECT_EQ(ex::normalize_phone("電話：03(1234)5678"), "03(1234)5678");
    EXPECT_EQ(ex::normalize_phone("☎ 0120-123-456"), "0120-123-456");
    EXPECT_EQ(ex::normalize_phone("Phone: +60 3-1234 5678"), "+60 3-1234 5678");
    EXPECT_EQ(ex::normalize_phone("(03) 1234-5678"), "(03) 1234-5678");
    EXPECT_EQ(ex::normalize_phone("ＴＥＬ　０３－１２３４－５６７８"), "03-1234-5678");
    EXPECT_EQ(ex::normalize_phone("03ー1234ー5678"), "03-1234-5678");
    EXPECT_EQ(ex::normalize_phone("TEL 03-1234-5678 FAX 03-1234-5679"), "03-1234-5678");
    EXPECT_EQ(ex::normalize_phone("03-1234-5678(代)"), "03-1234-5678");
    EXPECT_EQ(ex::normalize_phone("TEL"), "");
    EXPECT_EQ(ex::normalize_phone("12"), "");
}

TEST(NormalizeText, SpaceBeforeAQuantityOcrJoined) {
    EXPECT_EQ(ex::space_before_quantity("明治おいしい牛乳200ml"), "明治おいしい牛乳 200ml");
    EXPECT_EQ(ex::space_before_quantity("冷凍うどん5食"), "冷凍うどん 5食");
    EXPECT_EQ(ex::space_before_quantity("米 コシヒカリ5kg"), "米 コシヒカリ 5kg");
    EXPECT_EQ(ex::space_before_quantity("トイレットペーパー12R 特売"), "トイレットペーパー 12R 特売");
    // Already spaced, after ASCII, no unit, or a unit that does not end the word: unchanged.
    EXPECT_EQ(ex::space_before_quantity("牛乳 1000ml"), "牛乳 1000ml");
    EXPECT_EQ(ex::space_before_quantity("日焼け止め SPF50"), "日焼け止め SPF50");
    EXPECT_EQ(ex::space_before_quantity("ドラクエ12"), "ドラクエ12");
    EXPECT_EQ(ex::space_before_quantity("食パン6枚切"), "食パン6枚切");
    EXPECT_EQ(ex::space_before_quantity("缶12345ml"), "缶12345ml");  // five digits: no quantity
    EXPECT_EQ(ex::space_before_quantity(""), "");
}

TEST(NormalizeText, HeaderLineMergedIntoAnItemRow) {
    namespace ex = receipt::extract;
    EXPECT_EQ(ex::without_merged_header_line("20/01/04 6時49分 日焼け止め SPF50"), "日焼け止め SPF50");
    EXPECT_EQ(ex::without_merged_header_line("月27日 水曜日 12時14分 絆創膏 30枚"), "絆創膏 30枚");
    EXPECT_EQ(ex::without_merged_header_line("2007/Z5 9時57分 洗濯洗剤 アタック"), "洗濯洗剤 アタック");
    EXPECT_EQ(ex::without_merged_header_line("18時45 じゃがりこ サラダ"), "じゃがりこ サラダ");  // 分 lost
    EXPECT_EQ(ex::without_merged_header_line("商品名 数量 金 じゃがりこ サラダ"), "じゃがりこ サラダ");
    EXPECT_EQ(ex::without_merged_header_line("商品名 数量 金額"), "商品名 数量 金額");  // nothing after the header
    EXPECT_EQ(ex::without_merged_header_line("ー11-07 12:04 ｶﾚｰﾙｰ 中辛"), "ｶﾚｰﾙｰ 中辛");
    // Not a date before the time, no time, or nothing after it: as it is.
    EXPECT_EQ(ex::without_merged_header_line("ランチ 12:00 限定"), "ランチ 12:00 限定");
    EXPECT_EQ(ex::without_merged_header_line("(木) 12:00 弁当"), "(木) 12:00 弁当");
    EXPECT_EQ(ex::without_merged_header_line("緑茶 2L"), "緑茶 2L");
    EXPECT_EQ(ex::without_merged_header_line("2024/05/01 12:04 "), "2024/05/01 12:04 ");
    // A 時/分 time alone in front, its hour a look-alike ("g" for 9); a clerk line.
    EXPECT_EQ(ex::without_merged_header_line("g時24分 絆創膏 30枚"), "絆創膏 30枚");
    EXPECT_EQ(ex::without_merged_header_line("当者 高橋 ティッシュ 5箱"), "ティッシュ 5箱");
    EXPECT_EQ(ex::without_merged_header_line("担当:佐藤 緑茶 2L"), "緑茶 2L");
    EXPECT_EQ(ex::without_merged_header_line("担:高橋 かしわ天"), "かしわ天");  // 当 lost
    EXPECT_EQ(ex::without_merged_header_line("担々麺 大盛"), "担々麺 大盛");
    EXPECT_EQ(ex::without_merged_header_line("担当者 高橋"), "担当者 高橋");  // nothing after it
    EXPECT_EQ(ex::without_merged_header_line("12:00 弁当"), "12:00 弁当");   // H:MM alone: a product may say so
    // The receipt's bracketed title; another bracketed word stays.
    EXPECT_EQ(ex::without_merged_header_line("【領収証】 お惣菜 コロッケ"), "お惣菜 コロッケ");
    EXPECT_EQ(ex::without_merged_header_line("【特価】 たまご 10個入"), "【特価】 たまご 10個入");
    EXPECT_EQ(ex::without_merged_header_line("【領収書】 "), "【領収書】 ");
}

TEST(NormalizeText, Address) {
    EXPECT_EQ(ex::normalize_address("〒160-0023 東京都新宿区西新宿1-1-1"), "東京都新宿区西新宿1-1-1");
    EXPECT_EQ(ex::normalize_address("〒１６０－００２３\n東京都新宿区\n西新宿1-1-1"), "東京都新宿区 西新宿1-1-1");
    EXPECT_EQ(ex::normalize_address("東京都 〒1600023 新宿区"), "東京都 新宿区");
    EXPECT_EQ(ex::normalize_address("No 1, Jalan  Besar,\n50000 Kuala Lumpur"),
              "No 1, Jalan Besar, 50000 Kuala Lumpur");
    EXPECT_EQ(ex::normalize_text("  a \t b\r\n c  "), "a b c");
    EXPECT_EQ(ex::normalize_text("a\xff"), "a\xEF\xBF\xBD");
}

TEST(PublicApi, Normalisers) {
    EXPECT_EQ(receipt::normalize_date("令和6年5月1日"), "2024-05-01");
    EXPECT_EQ(receipt::normalize_date("24/05/01", true), "2024-05-01");
    EXPECT_EQ(receipt::normalize_date("garbage"), "");
    EXPECT_EQ(receipt::normalize_time("2:05 PM"), "14:05");
    EXPECT_EQ(receipt::normalize_amount("¥1,080").value_or(0), 1080);
    EXPECT_FALSE(receipt::normalize_amount("nan").has_value());
    EXPECT_EQ(receipt::normalize_phone("TEL 03-1234-5678"), "03-1234-5678");
    EXPECT_EQ(receipt::normalize_currency("円"), "JPY");
    EXPECT_EQ(receipt::normalize_currency("??"), "");
    EXPECT_EQ(receipt::receipt_field_names().size(), 10u);
    EXPECT_EQ(receipt::receipt_field_names().front(), "supplier_name");
}

TEST(NormalizeDate, PrintedWeekdayAndWeekdayOfADate) {
    EXPECT_EQ(receipt::extract::printed_weekday("202/09/14(土) 7時52分"), 6);
    EXPECT_EQ(receipt::extract::printed_weekday("2021年5月9日日曜日"), 0);
    EXPECT_EQ(receipt::extract::printed_weekday("2021/05/09"), std::nullopt);
    // The closing bracket lost: before a space or at the end.
    EXPECT_EQ(receipt::extract::printed_weekday("2024/03/29(金 12:50"), 5);
    EXPECT_EQ(receipt::extract::printed_weekday("2024/03/29(金\n12:50"), 5);
    EXPECT_EQ(receipt::extract::printed_weekday("2024/03/29(金"), 5);
    EXPECT_EQ(receipt::extract::printed_weekday("(月) (火)"), std::nullopt);
    EXPECT_EQ(receipt::extract::weekday_of("2024-09-14"), 6);
    EXPECT_EQ(receipt::extract::weekday_of("2022-09-14"), 3);
    EXPECT_EQ(receipt::extract::weekday_of("2000-02-29"), 2);
    EXPECT_EQ(receipt::extract::weekday_of("2021-02-29"), std::nullopt);
    EXPECT_EQ(receipt::extract::weekday_of("2021-13-01"), std::nullopt);
    EXPECT_EQ(receipt::extract::weekday_of(""), std::nullopt);
}

TEST(NormalizeDate, DatesWithAYearDigitLost) {
    const std::vector<std::string> d = receipt::extract::dates_with_year_digit_lost("202/09/14(土) 7時52分");
    EXPECT_EQ(d.size(), 19u);  // 2002, 2012, 2022, ..., 2092 and 2020..2029, 2022 once
    EXPECT_NE(std::find(d.begin(), d.end(), "2024-09-14"), d.end());
    EXPECT_NE(std::find(d.begin(), d.end(), "2002-09-14"), d.end());
    EXPECT_EQ(receipt::extract::dates_with_year_digit_lost("202年10月02日(木)").front(), "2002-10-02");
    EXPECT_TRUE(receipt::extract::dates_with_year_digit_lost("2024/09/14").empty());     // four digits
    EXPECT_TRUE(receipt::extract::dates_with_year_digit_lost("東京都中央区1-202/3/4").empty());  // an address
    EXPECT_TRUE(receipt::extract::dates_with_year_digit_lost("202/02/30").empty());       // no such day
    EXPECT_TRUE(receipt::extract::dates_with_year_digit_lost("T1202/09/14").empty());     // a longer number
}

TEST(NormalizeDate, DatesWithAMonthOrDayDigitLost) {
    namespace ex = receipt::extract;
    const auto has = [](const std::vector<std::string>& v, const char* d) {
        return std::find(v.begin(), v.end(), d) != v.end();
    };
    // "2020/08/7(木)": 2020-08-27 is a Thursday; the printed reading 2020-08-07 is not offered again.
    const std::vector<std::string> day = ex::dates_with_digit_lost("2020/08/7(木) 21:0:25");
    EXPECT_TRUE(has(day, "2020-08-27"));
    EXPECT_TRUE(has(day, "2020-08-17"));
    EXPECT_FALSE(has(day, "2020-08-07"));
    // A month lost whole: one digit put back gives months 1-9.
    const std::vector<std::string> month = ex::dates_with_digit_lost("2024年月7日 木曜日");
    EXPECT_TRUE(has(month, "2024-03-07"));
    EXPECT_FALSE(has(month, "2024-11-07"));
    EXPECT_TRUE(ex::dates_with_digit_lost("2020/08/7 21:05").empty());              // no weekday printed
    // The weekday in a box of its own, on the next line.
    EXPECT_TRUE(has(ex::dates_with_digit_lost("2024年3月日\n月曜日 09:32"), "2024-03-04"));
    EXPECT_TRUE(ex::dates_with_digit_lost("東京都中央区1-2-3 (木)").empty());          // an address line
}

TEST(NormalizeDate, JapaneseNumericDatesAreYearFirst) {
    namespace ex = receipt::extract;
    // House numbers on an address line without its marks are no dates; dates are read year first.
    EXPECT_EQ(ex::normalize_date("大久保8-27-16"), std::nullopt);
    EXPECT_EQ(ex::normalize_date("八丁堀1-4-1"), std::nullopt);
    EXPECT_EQ(ex::normalize_date("日付 24/04/01"), "2024-04-01");
    receipt::extract::DateHints ja;
    ja.japanese = true;
    EXPECT_EQ(ex::printed_dates("24/04/1", ja), std::vector<std::string>({"2024-04-01"}));
    EXPECT_TRUE(ex::printed_dates("24/04/1").empty());  // without the hint: a one-digit year, OCR cut it short
    EXPECT_TRUE(ex::printed_dates("0-04-18\n06/11/1\n").empty());
    // A digit look-alike between date marks.
    const std::vector<std::string> d = ex::printed_dates("2022年11月I日 火曜日");
    EXPECT_NE(std::find(d.begin(), d.end(), "2022-11-01"), d.end());
    // ... and between an era name and 年.
    EXPECT_EQ(ex::printed_dates("令和b年11月22日\n"), std::vector<std::string>({"2024-11-22"}));
}

TEST(NormalizeDate, DatesWithADayDigitLost) {
    namespace ex = receipt::extract;
    const std::vector<std::string> d = ex::dates_with_day_digit_lost("2022-12-2");
    EXPECT_NE(std::find(d.begin(), d.end(), "2022-12-22"), d.end());
    EXPECT_NE(std::find(d.begin(), d.end(), "2022-12-02"), d.end());
    EXPECT_EQ(std::find(d.begin(), d.end(), "2022-12-32"), d.end());  // no such day
    EXPECT_FALSE(ex::dates_with_day_digit_lost("20/07/3(金)").empty());
    EXPECT_TRUE(ex::dates_with_day_digit_lost("2022-12-12").empty());  // two-digit day
    EXPECT_TRUE(ex::dates_with_day_digit_lost("2022-1-2").empty());    // month not padded: printed so
    EXPECT_TRUE(ex::dates_with_day_digit_lost("2022-12-2 12:03").size() > 0);
    EXPECT_TRUE(ex::dates_with_day_digit_lost("12:03:2").empty());
}

TEST(NormalizeDate, SeparatorsOrTheEraYearMarkLost) {
    namespace ex = receipt::extract;
    EXPECT_EQ(ex::normalize_date("202101/01(金)"), "2021-01-01");
    EXPECT_EQ(ex::normalize_date("2021/0101"), "2021-01-01");
    EXPECT_EQ(ex::normalize_date("令和36月1日 05:50:49"), "2021-06-01");  // 令和3 年 6月
    EXPECT_EQ(ex::normalize_date("令和312月1日"), "2021-12-01");
    EXPECT_EQ(ex::normalize_date("令和11月1日"), std::nullopt);  // the era year or its 年 lost: unknown
    EXPECT_EQ(ex::normalize_date("202113/01"), std::nullopt);    // no month 13
    // A two-digit year with a separator lost: a Japanese line that starts with it only.
    ex::DateHints ja;
    ja.japanese = true;
    EXPECT_EQ(ex::normalize_date("22/0703", ja), "2022-07-03");
    EXPECT_EQ(ex::normalize_date("2207/03 07:00", ja), "2022-07-03");
    EXPECT_EQ(ex::normalize_date("22/0703"), std::nullopt);
    EXPECT_EQ(ex::normalize_date("No 22/0703", ja), std::nullopt);
    EXPECT_EQ(ex::normalize_date("22/1332", ja), std::nullopt);
    EXPECT_EQ(ex::normalize_date("03-1024-6846", ja), std::nullopt);  // a phone number
    EXPECT_EQ(ex::normalize_date("03/1024-6846", ja), std::nullopt);
    // A year-last date that lost a separator, at its line's start: printed dates in the hinted order (evidence
    // only: normalize_date does not report it).
    using Dates = std::vector<std::string>;
    EXPECT_EQ(ex::printed_dates("2105/2023"), Dates({"2023-05-21"}));
    EXPECT_EQ(ex::printed_dates("7/122021 02:52PM"), Dates({"2021-12-07", "2021-07-12"}));
    EXPECT_EQ(ex::printed_dates("7/122021", ex::DateHints{false, true}), Dates({"2021-07-12", "2021-12-07"}));
    EXPECT_EQ(ex::normalize_date("12/012019 9:12:20 AM"), std::nullopt);
    EXPECT_TRUE(ex::printed_dates("INV 1105/2023").empty());  // a number inside a line
    EXPECT_TRUE(ex::printed_dates("2113/2023").empty());       // no month 13
    EXPECT_EQ(ex::date_apart_from_time("2021-11-0506:04:40"), "2021-11-05 06:04:40");
    EXPECT_EQ(ex::date_apart_from_time("2021/11/05 06:04"), "2021/11/05 06:04");
    // A two-digit year with a time in 時 and 分; not with a colon, where "20/09/2013:26" may be a year 2013.
    EXPECT_EQ(ex::date_apart_from_time("21/09/0210時01分"), "21/09/02 10時01分");
    EXPECT_EQ(ex::date_apart_from_time("20/09/2013:26"), "20/09/2013:26");
}

TEST(NormalizeDate, MonthAbbreviationOcrDamaged) {
    EXPECT_EQ(date("26 AP 2023"), "2023-04-26");      // one letter lost: only APR holds A, P
    EXPECT_EQ(date("28 AU 2023 15:00"), "2023-08-28");
    EXPECT_EQ(date("29 UL 2023"), "2023-07-29");
    EXPECT_EQ(date("13 FE8 2022"), "2022-02-13");     // 8 for B
    EXPECT_EQ(date("0CT 5, 2021"), "2021-10-05");     // 0 for O, month first
    EXPECT_EQ(date("31 JU 2021"), "<none>");          // JUN or JUL
    EXPECT_EQ(date("12 MA 2021"), "<none>");          // MAR or MAY
    EXPECT_EQ(date("12 AM 2023"), "<none>");          // no month holds A, M in that order
    EXPECT_EQ(date("31 AP 2023"), "<none>");          // no April 31
    EXPECT_EQ(date("12 A8 2023"), "<none>");          // mostly digits
    EXPECT_EQ(date("26 AP 23"), "<none>");            // a two-digit year is too little to go on
}

TEST(NormalizeDate, DayInABoxOfItsOwn) {
    // OCR put the day on a line of its own above the month and year: read together.
    EXPECT_EQ(ex::printed_dates("GST ID NO : 897874851\n18\nAUG 2016 19:54\nSERVED BY: 13202\n"),
              std::vector<std::string>({"2016-08-18"}));
    EXPECT_EQ(ex::printed_dates("27\nSE Z023 08:41M\n"), std::vector<std::string>({"2023-09-27"}));
    // Not a count above an item line, nor on a Japanese receipt (which prints its dates year first).
    EXPECT_TRUE(ex::printed_dates("2\nMILO 1KG 26.91\n").empty());
    EXPECT_TRUE(ex::printed_dates("18\nAUG 2016\n店\n", ex::DateHints{true, false}).empty());
}

TEST(Currency, PrintsYenAmounts) {
    EXPECT_TRUE(ex::prints_yen_amounts("アサヒスーパードライ 350ml\n\\248\n小 計\n\\248"));
    EXPECT_TRUE(ex::prints_yen_amounts("お茶\n98円\n合計\n98円"));
    EXPECT_TRUE(ex::prints_yen_amounts("ヨーグルト ¥155"));
    EXPECT_FALSE(ex::prints_yen_amounts("TOTAL ¥155"));          // no Japanese text
    EXPECT_FALSE(ex::prints_yen_amounts("お問い合わせ\n円滑に"));  // 円 after no amount
    EXPECT_FALSE(ex::prints_yen_amounts(""));
}

TEST(Utf8, InvalidOffset) {
    EXPECT_EQ(ex::invalid_utf8_offset(""), std::string::npos);
    EXPECT_EQ(ex::invalid_utf8_offset("合計 ¥1,080\nTOTAL"), std::string::npos);
    EXPECT_EQ(ex::invalid_utf8_offset("ab\xff"), 2u);
    EXPECT_EQ(ex::invalid_utf8_offset("\x8d\x87\x8c\x76"), 0u);     // 合計 in Shift_JIS
    EXPECT_EQ(ex::invalid_utf8_offset("x\xe5\x90"), 1u);              // truncated 3-byte sequence
    EXPECT_EQ(ex::invalid_utf8_offset("\xc0\xaf"), 0u);               // overlong '/'
    EXPECT_EQ(ex::invalid_utf8_offset("ok \xed\xa0\x80"), 3u);       // a surrogate
}
