// One try at reading a Latin-script receipt's item rows between a start line and an end line
// (extract/latin_item_rows.cpp), for the readers that start it at several lines and end lines
// (extract/latin_item_row_readings.cpp). Internal to the Latin row reading.
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

#include "extract/latin_item_rows.h"
#include "extract/latin_row_lines.h"

namespace receipt::extract {

// What one try gave: a reading, or where it failed and the rows it read above that line.
struct LatinRowsAttempt {
    std::optional<LatinItemRows> reading;
    std::optional<size_t> restart_after;  // a line read before any certain row that a later start should skip
    std::optional<size_t> failed_at;      // the line the reading could not place, when it failed on one
    std::vector<ItemRow> rows_before;     // the rows read above that line
};

// One reading of lines [begin, end) of `l`, the rows ending at line `end` (a subtotal / total line: is_end_line).
// May throw std::regex_error on a pathological line.
LatinRowsAttempt read_latin_rows_between(const LatinRowLines& l, size_t begin, size_t end);

}  // namespace receipt::extract
