// The date scanner shared by extract/normalize_date.cpp and extract/dates_with_digit_lost.cpp: the dates a piece
// of receipt text prints, each with its position and the priority of the pattern that read it. Internal to the
// date readers; extract/normalize_date.h is the interface.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "extract/normalize_date.h"

namespace receipt::extract::date_scan {

inline constexpr size_t kMaxDateBytes = 200;  // dates are short; the cap also bounds std::regex's recursion

// A calendar date: year, month 1-12, day 1-31.
struct Ymd {
    int y = 0, m = 0, d = 0;
};

// One date read from the text: its byte position, the priority of its pattern (higher wins), the date and the
// byte after the whole match.
struct Candidate {
    size_t pos;
    int priority;
    Ymd ymd;
    size_t end = 0;
};

// True for a real calendar date of the years 1900-2100.
bool is_valid(const Ymd& v);

// Parses up to 4 ASCII digits; "元" (first year of an era) is 1.
int to_int(const std::string& s);

// A year as printed: four digits as they are, two digits 20yy (below 70) or 19yy; -1 for three digits.
int expand_year(const std::string& s);

// "YYYY-MM-DD".
std::string iso(const Ymd& v);

// Every date of the (folded, at most kMaxDateBytes) text `s`, in pattern order. An all-numeric date gives its
// preferred reading, or with `all_readings` each valid reading (preferred first, same position).
std::vector<Candidate> scan(const std::string& s, DateHints hints, bool all_readings);

}  // namespace receipt::extract::date_scan
