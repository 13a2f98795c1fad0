// Printed dates of a receipt text and the date repair of extraction (extract/printed_date.h).
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "extract/normalize_date.h"
#include "extract/printed_date.h"

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
}

TEST(PrintedDateFor, KeepsPrintedDatesAndRepairsOthers) {
    const V printed = {"2017-10-18", "2018-10-17"};
    EXPECT_EQ(ex::printed_date_for(printed, std::string("2018-10-17")), std::nullopt);  // printed: kept
    EXPECT_EQ(ex::printed_date_for(printed, std::string("2017-01-18")), "2017-10-18");  // one digit off
    EXPECT_EQ(ex::printed_date_for({}, std::string("2017-01-18")), std::nullopt);       // nothing printed
    EXPECT_EQ(ex::printed_date_for(printed, std::nullopt), std::nullopt);               // no date: none made up
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
