// Whether a reading of printed item rows adds up to a printed total (extract/latin_rows_add_up.h).
#include "extract/latin_rows_add_up.h"

#include <cmath>

#include "extract/dropped_digit.h"
#include "extract/latin_row_lines.h"

namespace receipt::extract {

bool rows_add_up_to(LatinItemRows& reading, double target, bool lost_digit) {
    if (target <= 0) return false;
    double sum = 0;
    for (const ItemRow& r : reading.rows) sum += r.amount;
    if (!reading.damaged_row) {
        if (std::fabs(sum - target) <= 0.005) return true;
        if (!lost_digit) return false;
        // One row's amount lost a digit: "2.00" printed for 12.00 (its digits with one lost), the only row that fits.
        // Of several rows that fit, the one whose count times unit price is the amount with the digit back.
        std::optional<size_t> fits, counted;
        size_t n_fit = 0, n_counted = 0;
        for (size_t k = 0; k < reading.rows.size(); ++k) {
            const ItemRow& r = reading.rows[k];
            const double amount = std::round((r.amount + target - sum) * 100.0) / 100.0;
            if (r.amount <= 0 || amount <= r.amount ||
                !one_digit_inserted(cents_digits(r.amount), cents_digits(amount)))
                continue;
            fits = k, ++n_fit;
            if (r.quantity && r.unit_price && std::fabs(*r.quantity * *r.unit_price - amount) <= 0.005)
                counted = k, ++n_counted;
        }
        if (n_fit > 1) fits = n_counted == 1 ? counted : std::nullopt;  // else the arithmetic cannot tell which
        if (!fits) return false;
        ItemRow& r = reading.rows[*fits];
        r.amount = std::round((r.amount + target - sum) * 100.0) / 100.0;
        if (!(r.quantity && r.unit_price && std::fabs(*r.quantity * *r.unit_price - r.amount) <= 0.005)) {
            r.quantity = 1.0;
            r.unit_price = r.amount;
        }
        return true;
    }
    if (*reading.damaged_row >= reading.rows.size()) return false;
    const double amount = std::round((target - sum) * 100.0) / 100.0;
    if (!digits_fit(reading.damaged_print, amount)) return false;
    ItemRow& r = reading.rows[*reading.damaged_row];
    r.amount = amount;
    if (amount > 0) {
        if (!r.quantity || *r.quantity <= 0) r.quantity = 1.0;
        if (!r.unit_price) r.unit_price = std::round(amount / *r.quantity * 100.0) / 100.0;
    } else {
        r.quantity.reset();
        r.unit_price.reset();
    }
    reading.damaged_row.reset();
    reading.damaged_print.clear();
    return true;
}

std::optional<std::pair<LatinItemRows, double>> first_reading_adding_up(const std::vector<LatinItemRows>& readings,
                                                                        const std::vector<double>& targets) {
    for (const bool lost_digit : {false, true})
        for (const LatinItemRows& reading : readings) {
            std::vector<std::optional<double>> candidates{reading.end_amount};
            candidates.insert(candidates.end(), targets.begin(), targets.end());
            candidates.insert(candidates.end(), reading.later_totals.begin(), reading.later_totals.end());
            for (const auto& c : candidates) {
                if (!c) continue;
                LatinItemRows read = reading;
                if (rows_add_up_to(read, *c, lost_digit)) return std::make_pair(std::move(read), *c);
            }
        }
    return std::nullopt;
}

}  // namespace receipt::extract
