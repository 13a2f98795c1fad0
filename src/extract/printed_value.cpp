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

int substring_edit_distance(const std::string& needle, const std::string& hay) {
    // Sellers' algorithm: like edit_distance(needle, hay) with a free start and end in hay. row[j] = the least
    // distance between needle[0:i] and a substring of hay ending at j.
    std::vector<int> row(hay.size() + 1, 0);
    for (size_t i = 1; i <= needle.size(); ++i) {
        int diag = row[0];
        row[0] = int(i);
        for (size_t j = 1; j <= hay.size(); ++j) {
            const int up = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (needle[i - 1] == hay[j - 1] ? 0 : 1)});
            diag = up;
        }
    }
    return needle.empty() ? 0 : *std::min_element(row.begin(), row.end());
}

namespace {

// nullopt when `wrote` is printed; else the printed value nearest to it (edit distance, the first printed on a tie)
// among those `near(p, d)` accepts (d = the distance), or nullopt when it accepts none.
template <typename Near>
std::optional<std::string> closest_printed(const std::vector<std::string>& printed, const std::string& wrote,
                                           Near&& near) {
    if (std::find(printed.begin(), printed.end(), wrote) != printed.end()) return std::nullopt;
    const std::string* best = nullptr;
    int best_d = 0;
    for (const std::string& p : printed) {
        const int d = edit_distance(wrote, p);
        if (!near(p, d)) continue;
        if (!best || d < best_d) best = &p, best_d = d;
    }
    if (!best) return std::nullopt;
    return *best;
}

}  // namespace

std::optional<std::string> printed_date_for(const std::vector<std::string>& printed,
                                            const std::optional<std::string>& model_date) {
    if (printed.empty()) return std::nullopt;
    if (!model_date) return printed.front();
    // Only dates that could be the one meant: the same year, or at most kMaxDateEdits digits away. Other printed
    // numbers that read as dates (house numbers "3-10-10", a mangled "20/09/2013:26") are too far off.
    return closest_printed(printed, *model_date, [&](const std::string& p, int d) {
        return p.compare(0, 4, *model_date, 0, 4) == 0 || d <= kMaxDateEdits;
    });
}

std::optional<std::string> printed_time_for(const std::vector<std::string>& printed,
                                            const std::optional<std::string>& model_time) {
    if (printed.empty()) return std::nullopt;
    if (!model_time) return printed.size() == 1 ? std::optional<std::string>(printed.front()) : std::nullopt;
    const auto near =
        closest_printed(printed, *model_time, [](const std::string&, int d) { return d <= kMaxTimeEdits; });
    if (near || printed.size() != 1 || printed.front() == *model_time) return near;
    return printed.front();  // far from the receipt's only printed time: the model misread that one
}

}  // namespace receipt::extract
