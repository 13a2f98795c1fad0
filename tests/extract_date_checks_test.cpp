// Dates and times that lost a digit to OCR (extract/unreadable_date_time.h) and the date / time checks that
// report none for them (extract/date_checks.h).
#include <gtest/gtest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "extract/date_checks.h"
#include "extract/normalize_date.h"
#include "extract/normalize_time.h"
#include "extract/ocr_digits.h"
#include "extract/unreadable_date_time.h"

namespace ex = receipt::extract;

namespace {

nlohmann::ordered_json fields(const char* date, const char* time) {
    nlohmann::ordered_json f = {{"receipt_date", nullptr}, {"purchase_time", nullptr},
                                {"warnings", nlohmann::ordered_json::array()}};
    if (date) f["receipt_date"] = date;
    if (time) f["purchase_time"] = time;
    return f;
}

bool warned(const nlohmann::ordered_json& f, const std::string& code) {
    return f["warnings"].dump().find(code) != std::string::npos;
}

}  // namespace

TEST(TimeWithLostDigit, MinuteOrHourCutToOneDigit) {
    EXPECT_EQ(ex::time_with_lost_digit("ローソン\n15:4\n"), "15:4");
    EXPECT_EQ(ex::time_with_lost_digit("2022-06-27 20:2"), "20:2");
    EXPECT_EQ(ex::time_with_lost_digit("2020/08/7(木) 21:0:25"), "21:0");
    EXPECT_EQ(ex::time_with_lost_digit("21/03/09 21時6分"), "21時6分");
    EXPECT_EQ(ex::time_with_lost_digit("g時2分"), "g時2分");  // an hour look-alike: still the minute's loss
    EXPECT_EQ(ex::time_with_lost_digit("2022年08月19日(金) 2:59:11"), "2:59:11");
    EXPECT_EQ(ex::time_with_lost_digit("1:43"), "1:43");
    // Whole times, and the pieces of longer numbers or colon chains, are not.
    for (const char* whole : {"14:05", "14:05:33", "14時05分", "2時59分", "12:05:3", "15:2404", "1時25分",
                              "I0:07:42", "S7:42", "午後2:05", "2:05 PM", "TEL 03-1234-5678", "48:5"})
        EXPECT_FALSE(ex::time_with_lost_digit(whole)) << whole;
}

// The look-alike string that the time reader's regex uses names exactly the letters confusion_digit reads.
TEST(OcrDigits, LookalikeStringIsWhatConfusionDigitReads) {
    for (int c = 1; c < 128; ++c)
        EXPECT_EQ(ex::kDigitLookalikes.find(char(c)) != std::string_view::npos, ex::confusion_digit(char(c)) != 0)
            << "character " << c;
}

TEST(TimeWithLostDigit, LatinScriptTimes) {
    // Hours are printed unpadded; a minute cut to one digit, a lost hour and a 12-hour hour 0 are damage.
    EXPECT_EQ(ex::time_with_lost_digit("TAMAN\n15:0\n", false), "15:0");
    EXPECT_EQ(ex::time_with_lost_digit("10:3AM", false), "10:3");
    EXPECT_EQ(ex::time_with_lost_digit(":39:56 PM", false), ":39:56 PM");
    EXPECT_EQ(ex::time_with_lost_digit("4/5/2O17 :23:09 AM", false), ":23:09 AM");
    EXPECT_EQ(ex::time_with_lost_digit("17/7/2023 0:14PM", false), "0:14PM");
    for (const char* whole : {"7:39", "1:33AM", "12:2Z:56 PM", "TIME :12:30", "2:05 PM", "14:05:33", "RATIO 1:25"})
        EXPECT_FALSE(ex::time_with_lost_digit(whole, false)) << whole;
    // A minute digit before a digit look-alike is no cut minute on either kind of receipt.
    EXPECT_FALSE(ex::time_with_lost_digit("09:1g:36"));
}

TEST(TimeWithLostDigit, UnpaddedMinuteReading) {
    EXPECT_TRUE(ex::unpadded_minute_reading("14時7分", "14:07"));
    EXPECT_TRUE(ex::unpadded_minute_reading("9時2分", "09:02"));
    EXPECT_FALSE(ex::unpadded_minute_reading("14時7分", "14:47"));
    EXPECT_FALSE(ex::unpadded_minute_reading("15:4", "15:04"));  // a colon time is printed padded
}

TEST(TimeWithLostDigit, TimesKeptWhole) {
    EXPECT_EQ(ex::times_kept_whole("店\n2022-06-27 20:2\n12:30 受付\n"), "店\n12:30 受付\n");
    // "15:4:18" is a time whose minute was cut, not 4:18.
    EXPECT_TRUE(ex::printed_times("15:4:18").empty());
}

TEST(DateWithLostDigit, PartsThatLostADigit) {
    auto d = ex::date_with_lost_digit("電話03-1234-5678\n23/0/12 15:18\n");
    ASSERT_TRUE(d);
    EXPECT_EQ(d->printed, "23/0/12");
    EXPECT_EQ(d->readings.size(), 10u);  // 2023-01-12 .. 2023-10-12
    d = ex::date_with_lost_digit("令和2年月31日");
    ASSERT_TRUE(d);
    EXPECT_EQ(d->printed, "令和2年月31日");
    EXPECT_EQ(d->readings.size(), 5u);  // one digit: the months 1-9 of 31 days
    d = ex::date_with_lost_digit("24/04/1");
    ASSERT_TRUE(d);
    EXPECT_GT(d->readings.size(), 1u);
    d = ex::date_with_lost_digit("2024年3月日 木曜日");
    ASSERT_TRUE(d);
    EXPECT_EQ(d->readings.size(), 9u);  // 2024-03-01 .. 09
    // One digit put back gives one date only: month 9 is 09.
    d = ex::date_with_lost_digit("2024-9-09");
    ASSERT_TRUE(d);
    EXPECT_EQ(d->readings, std::vector<std::string>{"2024-09-09"});
    d = ex::date_with_lost_digit("24/2/05");
    ASSERT_TRUE(d);
    EXPECT_EQ(d->readings, (std::vector<std::string>{"2024-02-05", "2024-12-05"}));
    // Whole dates, look-alikes (read elsewhere), unpadded dates, house numbers: none.
    for (const char* whole : {"2024/04/15(月)", "令和6年4月15日", "2024年3月5日 火曜日", "2021-04-2B", "22/05/1I",
                              "21/10/I7", "2023-05-0l 22:56", "南2条西5-13-15", "東京都港区赤坂2-2-07", "2022-12-2"})
        EXPECT_FALSE(ex::date_with_lost_digit(whole)) << whole;
}

TEST(DateChecks, UsReceiptsPrintTheMonthFirst) {
    auto f = fields("2016-08-02", nullptr);
    f["currency"] = "USD";
    ex::check_date_and_time("SAFEWAY\nAustin, TX 78701\n2/8/16\n$2.14\n", f);
    EXPECT_EQ(f["receipt_date"], "2016-02-08");
    EXPECT_TRUE(warned(f, "receipt_date_month_first")) << f["warnings"].dump();
    // Pounds: day first stands; a date with one valid reading stands.
    auto g = fields("2016-08-02", nullptr);
    g["currency"] = "GBP";
    ex::check_date_and_time("WAITROSE\n2/8/16\n", g);
    EXPECT_EQ(g["receipt_date"], "2016-08-02");
    auto h = fields("2016-08-25", nullptr);
    h["currency"] = "USD";
    ex::check_date_and_time("SAFEWAY\n8/25/16\n", h);
    EXPECT_EQ(h["receipt_date"], "2016-08-25");
}

TEST(DateChecks, DateOrderOfTheReceiptsRegion) {
    // No currency read, but a US city, state and ZIP code printed: month first.
    auto f = fields("2016-04-07", nullptr);
    ex::check_date_and_time("TARGET\n7304 High Street\nColumbus, OH 43215\n07/04/2016\n13:10:45\n", f);
    EXPECT_EQ(f["receipt_date"], "2016-07-04");
    EXPECT_TRUE(warned(f, "receipt_date_month_first")) << f["warnings"].dump();
    // Ringgit (pounds, euros, Singapore dollars): the model's month-first reading is the day-first one.
    auto g = fields("2015-07-10", nullptr);
    g["currency"] = "MYR";
    ex::check_date_and_time("POPULAR BOOK\n43000 KAJANG,\n07/10/2015\n18:41\n", g);
    EXPECT_EQ(g["receipt_date"], "2015-10-07");
    EXPECT_TRUE(warned(g, "receipt_date_day_first")) << g["warnings"].dump();
    // No currency and no US address: the model's reading stands.
    auto h = fields("2015-07-10", nullptr);
    ex::check_date_and_time("SHOP\n07/10/2015\n", h);
    EXPECT_EQ(h["receipt_date"], "2015-07-10");
}

TEST(DateChecks, TimeThatLostADigitIsNone) {
    auto f = fields(nullptr, "15:31");
    ex::check_date_and_time("ローソン 新宿店\n2024/03/05(火)\n15:4:18\n合計 ¥500\n", f);
    EXPECT_TRUE(f["purchase_time"].is_null());
    EXPECT_TRUE(warned(f, "purchase_time_digit_lost")) << f["warnings"].dump();
    // The printed one-digit-hour time is no reading of it either.
    auto g = fields(nullptr, "23:59");
    ex::check_date_and_time("ローソン 新宿店\n2022年08月19日(金) 2:59:11\n合計 ¥500\n", g);
    EXPECT_TRUE(g["purchase_time"].is_null()) << g.dump();
    // 14時7分 read as 14:07 stands; a time printed whole elsewhere stands.
    auto h = fields(nullptr, "14:07");
    ex::check_date_and_time("ローソン\n14時7分\n", h);
    EXPECT_EQ(h["purchase_time"], "14:07");
    auto k = fields(nullptr, "12:30");
    ex::check_date_and_time("ローソン\n20:2\n12:30\n", k);
    EXPECT_EQ(k["purchase_time"], "12:30");
    // Not on a Latin receipt: "9:05" is printed so; but a lost hour is damage there too.
    auto e = fields(nullptr, "09:05");
    ex::check_date_and_time("TESCO\n9:05\n", e);
    EXPECT_EQ(e["purchase_time"], "09:05");
    auto l = fields(nullptr, "22:39");
    ex::check_date_and_time("TESCO\n:39:56 PM\n", l);
    EXPECT_TRUE(l["purchase_time"].is_null()) << l.dump();
}

TEST(DateChecks, DateThatLostADigitIsNoneUnlessItsWeekdayOrItsOnlyReadingTells) {
    auto f = fields("2023-01-21", nullptr);
    ex::check_date_and_time("ファミリーマート\n23/0/12 15:18\n合計 ¥500\n", f);
    EXPECT_TRUE(f["receipt_date"].is_null()) << f.dump();
    EXPECT_TRUE(warned(f, "receipt_date_digit_unreadable")) << f["warnings"].dump();
    // The printed weekday confirms the model's date: it stands.
    auto g = fields("2024-03-07", nullptr);
    ex::check_date_and_time("ファミリーマート\n2024年月7日 木曜日\n", g);
    EXPECT_EQ(g["receipt_date"], "2024-03-07");
    // One digit put back gives one date: that date.
    auto h = fields("2024-09-29", nullptr);
    ex::check_date_and_time("ファミリーマート\n2024-9-09\n", h);
    EXPECT_EQ(h["receipt_date"], "2024-09-09");
    // A whole date line printing the model's date: it stands.
    auto k = fields("2024-04-15", nullptr);
    ex::check_date_and_time("ファミリーマート\n2024/04/15\n有効期限 2024年月30日\n", k);
    EXPECT_EQ(k["receipt_date"], "2024-04-15");
}

TEST(DateChecks, PrintedWeekdayAndLookalikes) {
    // A one-digit day after a padded month: the model's date with a digit put back gives way to the printed date
    // when the printed weekday is the printed date's and not the model's (2021-03-02 is a Tuesday, 03-27 not).
    auto f = fields("2021-03-27", nullptr);
    ex::check_date_and_time("スギ薬局\n2021/03/2(火) 21:18\n", f);
    EXPECT_EQ(f["receipt_date"], "2021-03-02") << f.dump();
    // ... and stands where it is on the weekday (2022-12-24 is a Saturday).
    auto g = fields("2022-12-24", nullptr);
    ex::check_date_and_time("スギ薬局\n2022/12/2(土) 21:18\n", g);
    EXPECT_EQ(g["receipt_date"], "2022-12-24") << g.dump();
    // A day that ends in a look-alike ("2g") is read whole, with a weekday that lost its closing bracket.
    auto h = fields(nullptr, nullptr);
    ex::check_date_and_time("サミット\n2024/03/2g(金 12:50\n", h);
    EXPECT_EQ(h["receipt_date"], "2024-03-29") << h.dump();
    // A month of look-alikes after the year.
    auto k = fields("2021-06-22", nullptr);
    ex::check_date_and_time("ビックカメラ\n2021-Db-22\n06:48\n", k);
    EXPECT_EQ(k["receipt_date"], "2021-06-22") << k.dump();
    // An hour of look-alikes before 時.
    auto t = fields(nullptr, "03:55");
    ex::check_date_and_time("NewDays\n2022年10月18日 火曜日 S時35分\n", t);
    EXPECT_EQ(t["purchase_time"], "05:35") << t.dump();
}

TEST(DateWithLostDigit, EraYearLost) {
    auto d = ex::date_with_lost_digit("令和年2月21日");
    ASSERT_TRUE(d);
    EXPECT_TRUE(d->readings.empty());
    auto f = fields("2021-02-21", nullptr);
    ex::check_date_and_time("店\n令和年2月21日\n", f);
    EXPECT_TRUE(f["receipt_date"].is_null());
    EXPECT_FALSE(ex::date_with_lost_digit("令和6年2月21日"));
}

TEST(DateWithLostDigit, EraYears) {
    auto d = ex::date_with_lost_digit("令和6年9月09日");
    ASSERT_TRUE(d);
    EXPECT_EQ(d->readings, std::vector<std::string>{"2024-09-09"});
    d = ex::date_with_lost_digit("平成30年9月09日");
    ASSERT_TRUE(d);
    EXPECT_EQ(d->readings, std::vector<std::string>{"2018-09-09"});
    d = ex::date_with_lost_digit("24年9月09日");  // no era name: 2024
    ASSERT_TRUE(d);
    EXPECT_EQ(d->readings, std::vector<std::string>{"2024-09-09"});
}

TEST(DateChecks, DamagedPrintsReadWhole) {
    // A long-vowel mark read for the date's dash.
    auto a = fields("2023-03-10", nullptr);
    ex::check_date_and_time("ローソン\n2023ー03-13 10:23\n", a);
    EXPECT_EQ(a["receipt_date"], "2023-03-13") << a.dump();
    // 令和 that lost 令 (no receipt prints a 昭和 date), or 和.
    auto b = fields("2022-11-26", nullptr);
    ex::check_date_and_time("東急ストア\n和4年1月16日()\n13:10\n", b);
    EXPECT_EQ(b["receipt_date"], "2022-01-16") << b.dump();
    auto c = fields("2022-11-26", nullptr);
    ex::check_date_and_time("東急ストア\n令4年1月16日\n", c);
    EXPECT_EQ(c["receipt_date"], "2022-01-16") << c.dump();
    // A year that lost a digit and no weekday: the model's year with the month and day printed whole.
    auto d = fields("2024-10-01", nullptr);
    ex::check_date_and_time("ローソン\n202-10-11\n06:51\n", d);
    EXPECT_EQ(d["receipt_date"], "2024-10-11") << d.dump();
    // ... not a year the three digits cannot make.
    auto e = fields("2019-10-01", nullptr);
    ex::check_date_and_time("ローソン\n202-10-11\n06:51\n", e);
    EXPECT_EQ(e["receipt_date"], "2019-10-01") << e.dump();
    // A time that lost its colon after the date alone.
    auto t = fields(nullptr, "21:32");
    ex::check_date_and_time("ローソン\n21/12/27 2231\n", t);
    EXPECT_EQ(t["purchase_time"], "22:31") << t.dump();
}

TEST(DateChecks, DashLookAlikeInADateThatLostADigit) {
    // "2024ー09-1" is read as "2024-09-1" by every date reader: a day that lost a digit, no weekday to tell which.
    auto f = fields("2024-09-13", nullptr), g = fields("2024-09-13", nullptr);
    ex::check_date_and_time("スギ薬局\n2024ー09-1 19:38\n", f);
    ex::check_date_and_time("スギ薬局\n2024-09-1 19:38\n", g);
    EXPECT_EQ(f, g) << f.dump();
    EXPECT_TRUE(f["receipt_date"].is_null()) << f.dump();
    EXPECT_EQ(ex::dates_with_day_digit_lost("2024ー09-1 19:38"), ex::dates_with_day_digit_lost("2024-09-1 19:38"));
    EXPECT_TRUE(ex::date_with_lost_digit("2024ー09-1 19:38"));
}

TEST(DateChecks, DamagedDatesReadThroughTheWeekday) {
    // A month that lost a digit beside a day printed with a look-alike: the look-alike is read before a digit is
    // put back, so only 12-16 falls on the printed Friday.
    auto a = fields("2022-02-16", "11:21");
    ex::check_date_and_time("東急ストア\n2022年2月l6日(金) 11:21\n", a);
    EXPECT_EQ(a["receipt_date"], "2022-12-16") << a.dump();
    // A year that lost a digit and a weekday: the fitting year closest to the model's (2025, not the 2020 closest
    // to the 2002 that "Z02年" reads as).
    auto b = fields("2023-02-18", nullptr);
    ex::check_date_and_time("サミット\nZ02年02月18日(火)\n21:45:O4\n", b);
    EXPECT_EQ(b["receipt_date"], "2025-02-18") << b.dump();
    // The model's date falls on the weekday but is not printed; the month and day printed whole with its year
    // fall on it too.
    auto c = fields("2025-10-08", "20:29");
    ex::check_date_and_time("CoCo壱番屋\n225/01/08(水) 20:29\n", c);
    EXPECT_EQ(c["receipt_date"], "2025-01-08") << c.dump();
    // ... not when they fall on another weekday.
    auto d = fields("2025-10-08", "20:29");
    ex::check_date_and_time("CoCo壱番屋\n225/01/09(水) 20:29\n", d);
    EXPECT_EQ(d["receipt_date"], "2025-10-08") << d.dump();
    // A month lost whole beside a day printed as a look-alike between the date marks: June is the one month whose
    // 8th is a Thursday in 令和5 (2023).
    auto e = fields("2023-07-08", "05:38");
    ex::check_date_and_time("東急ストア\n令和5年月B日(木)\nO5:38\n", e);
    EXPECT_EQ(e["receipt_date"], "2023-06-08") << e.dump();
}
