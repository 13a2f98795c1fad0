// Whether a reading of a receipt's printed item rows (extract/latin_item_rows.h, extract/latin_table_rows.h) adds up
// to a total the receipt prints, putting back the amount of a row that OCR damaged or cut one digit short when that
// is what makes it add up.
#pragma once

#include <optional>
#include <utility>
#include <vector>

#include "extract/latin_item_rows.h"

namespace receipt::extract {

// Whether the rows of `reading` add up to `target` (within half a cent; never for a target of 0 or less). A reading
// with a damaged row does when the amount target - (the other rows) has the digits printed for it with at most two
// lost, in order, and its sign ("1.8" -> 1.68, ".00" -> 16.00): that row then gets the amount (and a unit price:
// the amount over its count). With `lost_digit`, one without does when exactly one row's amount is short by a
// digit OCR lost, the digits of amount + (target - sum) with one left out ("2.00" for 12.00): that row gets it (of
// several such rows, the one whose count times unit price is that amount: "6 X 2.00" / "2.00" for 12.00).
bool rows_add_up_to(LatinItemRows& reading, double target, bool lost_digit = false);

// The first of `readings` whose rows add up (rows_add_up_to) to one of its targets, tried in this order: its
// end_amount, `targets`, its later_totals; every reading without a lost digit first, then with one. The reading as
// rows_add_up_to left it (a damaged row's amount filled in) and the target; nullopt when none adds up.
std::optional<std::pair<LatinItemRows, double>> first_reading_adding_up(const std::vector<LatinItemRows>& readings,
                                                                        const std::vector<double>& targets);


}  // namespace receipt::extract
