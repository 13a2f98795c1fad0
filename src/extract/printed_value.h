// The receipt date and time must be printed on the receipt. A model trained from scratch slips on digits
// (25/12/2018 -> 2018-05-12, 18-10-17 -> 2017-01-18, 15:51 -> 15:15); when the value it wrote is not one of the
// receipt's printed dates (times), the printed one closest to it is used instead.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace receipt::extract {

// Levenshtein distance between two byte strings (on "YYYY-MM-DD" strings: the number of digit edits).
int edit_distance(const std::string& a, const std::string& b);

// The least edit distance between `needle` and any substring of `hay` (bytes; 0 when needle is printed in hay).
int substring_edit_distance(const std::string& needle, const std::string& hay);

// Edits within which a printed date of another year may still replace the model's date.
inline constexpr int kMaxDateEdits = 2;

// The date to report for a receipt whose model output has `model_date` ("YYYY-MM-DD"), given the receipt's
// printed dates (printed_dates(text), first printed first). nullopt keeps the model's date: it is printed, or
// no printed date is close to it. Otherwise, among the printed dates of the same year or at most kMaxDateEdits
// edits away, the one at the smallest edit distance, the first printed on a tie. When the model wrote no date,
// the first printed date (the schema's receipt_date is the first date printed).
std::optional<std::string> printed_date_for(const std::vector<std::string>& printed,
                                            const std::optional<std::string>& model_date);

// Edits within which a printed time may replace the model's time ("HH:MM": at most 3 of its 4 digits).
inline constexpr int kMaxTimeEdits = 3;

// The time to report for a receipt whose model output has `model_time` ("HH:MM"), given the receipt's printed
// times (printed_times(text)). nullopt keeps the model's time: it is printed, or the receipt prints several
// times and none within kMaxTimeEdits edits. Otherwise the closest printed time within kMaxTimeEdits, the first
// printed on a tie, or the receipt's only printed time however far (the model misread it: "6:02:25" written
// 20:25, "1時25分" written 12:52). When the model wrote none (its output cut short), the receipt's only printed
// time; none when it prints several (opening hours, a validity time).
std::optional<std::string> printed_time_for(const std::vector<std::string>& printed,
                                            const std::optional<std::string>& model_time);

}  // namespace receipt::extract
