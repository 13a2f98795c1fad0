// A line-item amount that lost one digit to OCR (extract/dropped_digit.h).
#include "extract/dropped_digit.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "extract/utf8.h"

namespace receipt::extract {

std::string amount_digits(double amount) {
    if (!std::isfinite(amount) || amount < 0 || amount >= 1e15) return {};
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.2f", amount);  // "1298.00", "1.28"
    std::string s(buf);
    s = s.substr(0, s.size() - 3) + (s.substr(s.size() - 2) == "00" ? "" : s.substr(s.size() - 2));
    if (s.size() >= 2 && s.back() == '0' && amount != std::floor(amount)) s.pop_back();  // 1.5 -> "15", not "150"
    return s;
}

bool one_digit_inserted(const std::string& shorter, const std::string& longer) {
    if (longer.empty() || (longer[0] == '0' && longer.size() > 1)) return false;
    const std::optional<size_t> at = extra_byte_at(shorter, longer);
    return at && std::all_of(longer.begin(), longer.begin() + std::ptrdiff_t(*at) + 1, is_ascii_digit);
}

std::optional<DroppedDigit> find_dropped_digit(const std::vector<double>& amounts, double target) {
    if (amounts.empty() || !std::isfinite(target) || target != std::floor(target)) return std::nullopt;
    double sum = 0;
    for (double a : amounts) sum += a;
    std::optional<DroppedDigit> found;
    for (size_t i = 0; i < amounts.size(); ++i) {
        const double a = amounts[i];
        if (!(a > 0)) continue;
        const double repaired = std::round((a + (target - sum)) * 100) / 100;  // sums of hundredths
        // A dropped digit makes the amount smaller; the repaired one is whole yen.
        if (!(repaired > a) || repaired != std::floor(repaired)) continue;
        if (!one_digit_inserted(amount_digits(a), amount_digits(repaired))) continue;
        if (found) return std::nullopt;  // two rows fit: ambiguous
        found = DroppedDigit{i, repaired};
    }
    return found;
}

}  // namespace receipt::extract
