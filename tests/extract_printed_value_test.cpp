// Printed dates and times of a receipt text and their repair in extraction (extract/printed_value.h).
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "extract/normalize_date.h"
#include "extract/normalize_time.h"
#include "extract/printed_value.h"

namespace ex = receipt::extract;
using V = std::vector<std::string>;

TEST(PrintedDates, EveryReadingOfEveryLineInOrder) {
    // Day-first reading first, then month-first; an impossible reading (month 25) is dropped; repeats once.
    EXPECT_EQ(ex::printed_dates("SHOP\nDATE: 06/12/2016 20:09\nTOTAL 12.00\n25/12/2018\n06/12/2016"),
              (V{"2016-12-06", "2016-06-12", "2018-12-25"}));
    // Two-digit years: d-m-y, m-d-y, then y-m-d.
    EXPECT_EQ(ex::printed_dates("18-10-17 15:16"), (V{"2017-10-18", "2018-10-17"}));
    // Japanese eras and month names are read as in normalize_date.
    EXPECT_EQ(ex::printed_dates("令和5年2月8日(水)\n13 MAY 2018 18:26"), (V{"2023-02-08", "2018-05-13"}));
    // OCR look-alikes next to digits are also read as digits.
    const V noisy = ex::printed_dates("20Z4/12/01(日) 21時11分");
    EXPECT_NE(std::find(noisy.begin(), noisy.end(), "2024-12-01"), noisy.end());
    EXPECT_TRUE(ex::printed_dates("TOTAL 12.50\nTEL 03-1234-5678\n").empty());
    EXPECT_TRUE(ex::printed_dates("").empty());
    // A Japanese address's house number is no date; its era date is.
    EXPECT_EQ(ex::printed_dates("広島県広島市中区本通6-1-25\n大阪府堺市堺区三国ヶ丘御幸通5-8-29\n令和5年11月9日(木)\n"),
              (V{"2023-11-09"}));
    // A date and a time that OCR ran together give no date (not 2013-09-20).
    EXPECT_TRUE(ex::printed_dates("20/09/2013:26\n").empty());
}

TEST(PrintedDateFor, KeepsPrintedDatesAndRepairsOthers) {
    const V printed = {"2017-10-18", "2018-10-17"};
    EXPECT_EQ(ex::printed_date_for(printed, std::string("2018-10-17")), std::nullopt);  // printed: kept
    EXPECT_EQ(ex::printed_date_for(printed, std::string("2017-01-18")), "2017-10-18");  // one digit off
    EXPECT_EQ(ex::printed_date_for({}, std::string("2017-01-18")), std::nullopt);       // nothing printed
    EXPECT_EQ(ex::printed_date_for(printed, std::nullopt), "2017-10-18");               // no date: the first printed
    EXPECT_EQ(ex::printed_date_for({}, std::nullopt), std::nullopt);
    // A printed date of another year more than kMaxDateEdits away is no candidate (a house number "3-10-10");
    // one of the same year is, however far.
    EXPECT_EQ(ex::printed_date_for({"2010-03-10"}, std::string("2022-06-11")), std::nullopt);
    EXPECT_EQ(ex::printed_date_for({"2016-12-06"}, std::string("2016-06-21")), "2016-12-06");
    EXPECT_EQ(ex::printed_date_for({"2018-02-07"}, std::string("2017-02-08")), "2018-02-07");  // 2 edits
    // A tie goes to the first printed date.
    EXPECT_EQ(ex::printed_date_for({"2018-01-02", "2018-01-03"}, std::string("2018-01-09")), "2018-01-02");
}

TEST(EditDistance, CountsEdits) {
    EXPECT_EQ(ex::edit_distance("2018-12-25", "2018-12-25"), 0);
    EXPECT_EQ(ex::edit_distance("2018-05-12", "2018-12-25"), 4);
    EXPECT_EQ(ex::edit_distance("", "abc"), 3);
    EXPECT_EQ(ex::edit_distance("kitten", "sitting"), 3);
}

TEST(PrintedTimes, EveryTimeOfEveryLine) {
    EXPECT_EQ(ex::printed_times("2021年6月11日 金曜日 22:40:41\nレジ 02:10;40\n14時05分"),
              (V{"22:40", "02:10", "14:05"}));
    EXPECT_EQ(ex::printed_times("12/05/2018 2:15 PM\n"), (V{"14:15"}));  // AM / PM after the time
    EXPECT_EQ(ex::printed_times("I5:5l"), (V{"15:51"}));                  // OCR look-alikes
    // An hour after a look-alike is read whole only: "I0:07:42" is 10:07, not also 00:07.
    EXPECT_EQ(ex::printed_times("2025年8月10日 日曜日 I0:07:42"), (V{"10:07"}));
    // An hour of look-alikes before 時 ("S時35分" for 5時35分, "Ib時00分" for 16時00分); not a longer word ("POS時").
    EXPECT_EQ(ex::printed_times("2022年10月18日 火曜日 S時35分"), (V{"05:35"}));
    EXPECT_EQ(ex::printed_times("20/03/10\nIb時00分\n"), (V{"16:00"}));
    EXPECT_TRUE(ex::printed_times("POS時35分").empty());
    EXPECT_TRUE(ex::printed_times("TOTAL 12.50\n").empty());
    // A time that lost its colon: after the date line's weekday, or alone on the line after a date line.
    EXPECT_EQ(ex::printed_times("2024年12月日 火曜日 0902\nレジ#6\n"), (V{"09:02"}));
    EXPECT_EQ(ex::printed_times("2023年12月19日 火曜日\n1104\nレジ#6\n"), (V{"11:04"}));
    // Not four digits elsewhere, nor ones that make no time.
    EXPECT_TRUE(ex::printed_times("店\n1104\n2023年12月19日 火曜日\n2575\n").empty());
    // A time with seconds that lost its first colon, alone on its line.
    EXPECT_EQ(ex::printed_times("12 JAN 2019\n0809:24\nTRANS# 80497\n"), (V{"08:09"}));
    EXPECT_EQ(ex::printed_times("0209:24 PM\n"), (V{"14:09"}));
    EXPECT_TRUE(ex::printed_times("TRANS 2575:12\n9909:24\n").empty());
    // ... or after a date, with a one-digit hour too; and one that lost its second colon.
    EXPECT_EQ(ex::printed_times("16/03/2018 1058:47\n9.75\n"), (V{"10:58"}));
    EXPECT_EQ(ex::printed_times("Nov 14, 2023 1911:36\nAMOUNT\n"), (V{"19:11"}));
    EXPECT_EQ(ex::printed_times("TAMAN MELAWATI,\n736:42 AM\n"), (V{"07:36"}));
    EXPECT_EQ(ex::printed_times("30/04/2015 18:0324\n"), (V{"18:03"}));
    EXPECT_TRUE(ex::printed_times("TOTAL 1058:47\nREF 18:0324\n").empty());
    // A 12-hour time that lost its colon, alone on its line; AM / PM in a box of its own on the next line.
    EXPECT_EQ(ex::printed_times("SALES RECEIPT\n1138AM\nAMEX\n"), (V{"11:38"}));
    EXPECT_EQ(ex::printed_times("12/05/2018\n5:40:14\nPM\nTOTAL\n"), (V{"17:40"}));
    // An hour of two look-alikes before a colon ("lS" for 15) is read, and the minutes and seconds then are no time.
    EXPECT_EQ(ex::printed_times("lS:17:15\n"), (V{"15:17"}));
    EXPECT_TRUE(ex::printed_times("DATES:12\nTOTAL:\n").empty());
}

TEST(PrintedTimeFor, KeepsPrintedTimesAndRepairsOthers) {
    EXPECT_EQ(ex::printed_time_for({"15:51"}, std::string("15:51")), std::nullopt);
    EXPECT_EQ(ex::printed_time_for({"15:51"}, std::string("15:15")), "15:51");  // swapped digits
    EXPECT_EQ(ex::printed_time_for({"21:18"}, std::string("12:18")), "21:18");
    // 4 edits from the receipt's only printed time: the model misread it ("6:02:25" written 20:25); 4 edits from
    // each of several: none of them is meant.
    EXPECT_EQ(ex::printed_time_for({"09:47"}, std::string("15:15")), "09:47");
    EXPECT_EQ(ex::printed_time_for({"09:47", "21:00"}, std::string("15:15")), std::nullopt);
    EXPECT_EQ(ex::printed_time_for({}, std::string("15:15")), std::nullopt);
    // The model wrote none: the only printed time, none of several.
    EXPECT_EQ(ex::printed_time_for({"15:51"}, std::nullopt), "15:51");
    EXPECT_EQ(ex::printed_time_for({"09:00", "21:00"}, std::nullopt), std::nullopt);
    EXPECT_EQ(ex::printed_time_for({}, std::nullopt), std::nullopt);
}

TEST(PrintedTimes, DateRunIntoTheTime) {
    // OCR lost the space between the date and the time: both are read, not "04:40" of "06:04:40".
    EXPECT_EQ(ex::printed_times("2021-11-0506:04:40"), V({"06:04"}));
    EXPECT_EQ(ex::printed_dates("2021-11-0506:04:40"), V({"2021-11-05"}));
}

TEST(PrintedTimes, SemicolonBetweenDigitsIsAColon) {
    EXPECT_EQ(ex::printed_times("24/10/10 13;17:15 レジ#1\n"), (V{"13:17"}));
    EXPECT_TRUE(ex::printed_times("A;B 1; 2\n").empty());
}

TEST(SubstringEditDistance, EditsToTheClosestPrintedSubstring) {
    EXPECT_EQ(ex::substring_edit_distance("JALANANGSA", "LOTP.T.2811,JALANANGSA,TAMAN"), 0);
    EXPECT_EQ(ex::substring_edit_distance("JALANWANGSA", "LOTP.T.2811,JALANANGSA,TAMAN"), 1);
    EXPECT_EQ(ex::substring_edit_distance("RAYA,43300", "TAMANRAYA.43300SERI"), 1);
    EXPECT_EQ(ex::substring_edit_distance("XYZ", "ABC"), 3);
    EXPECT_EQ(ex::substring_edit_distance("", "ABC"), 0);
    EXPECT_EQ(ex::substring_edit_distance("AB", ""), 2);
}

TEST(LabelledDates, DatesOnLabelLinesAndTheLineAfter) {
    EXPECT_EQ(ex::labelled_dates("SHOP\nNO 3-10-10 JALAN\nDATE: 2016-07-31 13:48\n"), (V{"2016-07-31"}));
    // The value in the box after the label; an unlabelled date elsewhere is left out.
    EXPECT_EQ(ex::labelled_dates("Date\n11/08/2017\n12/12/2019 promo ends"), (V{"2017-08-11", "2017-11-08"}));
    EXPECT_EQ(ex::labelled_dates("日付 2023年2月8日\n"), (V{"2023-02-08"}));
    EXPECT_TRUE(ex::labelled_dates("TOTAL 12.00\n2016-07-31\n").empty());
    EXPECT_TRUE(ex::labelled_dates("").empty());
}

TEST(LabelledDates, SolePrintedDate) {
    // One date line: its first reading (day first for dd-mm-yy).
    EXPECT_EQ(ex::sole_printed_date("99 SPEED MART\nINVOICE NO : 17881/102/T0298\n07:49PM\n14-12-16\nTOTAL 61.65\n"),
              "2016-12-14");
    // Two date lines, or none: nothing to choose.
    EXPECT_EQ(ex::sole_printed_date("NO 3-10-10 JALAN\n2016-07-31\n"), std::nullopt);
    EXPECT_EQ(ex::sole_printed_date("TOTAL 12.00\n"), std::nullopt);
    EXPECT_EQ(ex::sole_printed_date(""), std::nullopt);
}
