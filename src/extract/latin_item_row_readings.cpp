// The readings of a Latin-script receipt's item rows, each from one start line to one end line
// (extract/latin_item_rows.h); the reading between two lines is latin_rows_attempt.h's.
#include "extract/latin_item_rows.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "extract/latin_row_lines.h"
#include "extract/latin_rows_attempt.h"

namespace receipt::extract {

namespace {

constexpr size_t kMaxEndLines = 4;  // subtotal / total lines tried as the end of the rows
constexpr size_t kMaxRestarts = 8;  // later starts tried per end line
constexpr size_t kMaxSkips = 8;     // lines latin_item_rows_skipping passes over

// The readings of latin_item_row_readings on lines `l`.
std::vector<LatinItemRows> readings_of(const std::optional<LatinRowLines>& l) {
    std::vector<LatinItemRows> out;
    if (!l) return out;
    size_t end_lines = 0, after_end = 0;  // the line after the last end line tried
    for (size_t end = 0; end < l->read.size() && out.empty() && end_lines < kMaxEndLines; ++end) {
        if (!is_end_line(l->upper[end])) continue;
        ++end_lines;
        const size_t begin_here = first_row_line(*l, end);
        // A later end line only past a header line below the one before ("TAX" / "INVOICE" / date / rows).
        if (end_lines > 1 && begin_here <= after_end) break;
        size_t begin = begin_here;
        after_end = end + 1;
        for (size_t k = 0; k <= kMaxRestarts && begin < end; ++k) {
            LatinRowsAttempt a = read_latin_rows_between(*l, begin, end);
            if (a.reading) out.push_back(std::move(*a.reading));
            if (!a.restart_after || *a.restart_after < begin) break;
            begin = *a.restart_after + 1;
        }
    }
    return out;
}

}  // namespace

std::vector<LatinItemRows> latin_item_row_readings(const std::string& text) {
    const std::optional<LatinRowLines> l = latin_row_lines(text);
    std::vector<LatinItemRows> out = readings_of(l);
    // Then with sizes run together with amounts set apart ("MAGGI CURRY 5S6.15"), for when those do not add up.
    if (l)
        for (LatinItemRows& r : readings_of(with_glued_sizes_apart(*l))) out.push_back(std::move(r));
    return out;
}

std::optional<LatinItemRows> latin_item_rows_skipping(const std::string& text) {
    const std::optional<LatinRowLines> l = latin_row_lines(text);
    if (!l) return std::nullopt;
    size_t end_lines = 0;
    for (size_t end = 0; end < l->read.size() && end_lines < kMaxEndLines; ++end) {
        if (!is_end_line(l->upper[end])) continue;
        ++end_lines;
        LatinItemRows joined;
        size_t begin = first_row_line(*l, end);
        for (size_t k = 0; k <= kMaxSkips && begin < end; ++k) {
            LatinRowsAttempt a = read_latin_rows_between(*l, begin, end);
            if (a.reading) {  // the rest reads whole
                const size_t offset = joined.rows.size();
                joined.rows.insert(joined.rows.end(), a.reading->rows.begin(), a.reading->rows.end());
                joined.end_amount = a.reading->end_amount;
                if (a.reading->damaged_row) joined.damaged_row = offset + *a.reading->damaged_row;
                break;
            }
            if (!a.failed_at) break;
            joined.rows.insert(joined.rows.end(), a.rows_before.begin(), a.rows_before.end());
            begin = *a.failed_at + 1;
        }
        // No row above this end line: a header line that reads as one ("VAT" / "No. GB 777 8654 33", "TAX" /
        // "INVOICE"); the next is tried.
        if (joined.rows.empty()) continue;
        descriptions_from_other_rows(joined.rows);
        return joined;
    }
    return std::nullopt;
}

std::optional<LatinItemRows> read_latin_item_rows(const std::string& text) {
    std::vector<LatinItemRows> all = latin_item_row_readings(text);
    if (all.empty()) return std::nullopt;
    return std::move(all.front());
}

}  // namespace receipt::extract
