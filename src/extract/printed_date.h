// The receipt date must be a date printed on the receipt. A model trained from scratch slips on digits
// (25/12/2018 -> 2018-05-12, 18-10-17 -> 2017-01-18); when the date it wrote is not one of the receipt's printed
// dates, the printed date closest to it is used instead.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace receipt::extract {

// Levenshtein distance between two byte strings (on "YYYY-MM-DD" strings: the number of digit edits).
int edit_distance(const std::string& a, const std::string& b);

// Edits within which a printed date of another year may still replace the model's date.
inline constexpr int kMaxDateEdits = 2;

// The date to report for a receipt whose model output has `model_date` ("YYYY-MM-DD"), given the receipt's
// printed dates (printed_dates(text), first printed first). nullopt keeps the model's date: it is printed, or
// no printed date is close to it. Otherwise, among the printed dates of the same year or at most kMaxDateEdits
// edits away, the one at the smallest edit distance, the first printed on a tie. When the model wrote no date,
// nothing is filled in (nullopt).
std::optional<std::string> printed_date_for(const std::vector<std::string>& printed,
                                            const std::optional<std::string>& model_date);

}  // namespace receipt::extract
