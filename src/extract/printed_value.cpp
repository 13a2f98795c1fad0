#include "extract/printed_value.h"

#include <algorithm>
#include <numeric>

namespace receipt::extract {

int edit_distance(const std::string& a, const std::string& b) {
    // One row of the (|a|+1) x (|b|+1) table: row[j] = distance(a[0:i], b[0:j]).
    std::vector<int> row(b.size() + 1);
    std::iota(row.begin(), row.end(), 0);
    for (size_t i = 1; i <= a.size(); ++i) {
        int diag = row[0];  // distance(a[0:i-1], b[0:j-1])
        row[0] = int(i);
        for (size_t j = 1; j <= b.size(); ++j) {
            const int up = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
            diag = up;
        }
    }
    return row[b.size()];
}

std::optional<std::string> printed_date_for(const std::vector<std::string>& printed,
                                            const std::optional<std::string>& model_date) {
    if (printed.empty()) return std::nullopt;
    if (!model_date) return printed.front();
    if (std::find(printed.begin(), printed.end(), *model_date) != printed.end()) return std::nullopt;
    // Only dates that could be the one meant: the same year, or at most kMaxDateEdits digits away. Other printed
    // numbers that read as dates (house numbers "3-10-10", a mangled "20/09/2013:26") are too far off.
    const std::string* best = nullptr;
    int best_d = 0;
    for (const std::string& p : printed) {
        const int d = edit_distance(*model_date, p);
        const bool same_year = p.compare(0, 4, *model_date, 0, 4) == 0;
        if (!same_year && d > kMaxDateEdits) continue;
        if (!best || d < best_d) best = &p, best_d = d;
    }
    if (!best) return std::nullopt;
    return *best;
}

std::optional<std::string> printed_time_for(const std::vector<std::string>& printed,
                                            const std::optional<std::string>& model_time) {
    if (!model_time || printed.empty()) return std::nullopt;
    if (std::find(printed.begin(), printed.end(), *model_time) != printed.end()) return std::nullopt;
    const std::string* best = nullptr;
    int best_d = 0;
    for (const std::string& p : printed) {
        const int d = edit_distance(*model_time, p);
        if (d > kMaxTimeEdits) continue;
        if (!best || d < best_d) best = &p, best_d = d;
    }
    if (!best) return std::nullopt;
    return *best;
}

}  // namespace receipt::extract
