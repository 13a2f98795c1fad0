// Line items whose description is not printed (extract/unprinted_items.h).
#include "extract/unprinted_items.h"

#include <algorithm>
#include <cstdint>
#include <vector>

#include "extract/utf8.h"

namespace receipt::extract {

namespace {

// Code points of `s` with full-width ASCII folded and whitespace removed; empty for invalid UTF-8.
std::vector<uint32_t> folded_points(const std::string& s) {
    auto cps = code_points(fold_fullwidth(sanitize_utf8(s)));
    if (!cps) return {};
    std::vector<uint32_t> out;
    out.reserve(cps->size());
    for (uint32_t c : *cps)
        if (!(c < 128 && is_ascii_space(char(c)))) out.push_back(c);
    return out;
}

// Length of the longest common subsequence of a and b: O(|a| |b|) time, O(|b|) memory.
size_t lcs_length(const std::vector<uint32_t>& a, const std::vector<uint32_t>& b) {
    std::vector<size_t> prev(b.size() + 1, 0), cur(b.size() + 1, 0);
    for (uint32_t ca : a) {
        for (size_t j = 0; j < b.size(); ++j)
            cur[j + 1] = ca == b[j] ? prev[j] + 1 : std::max(prev[j + 1], cur[j]);
        std::swap(prev, cur);
    }
    return prev[b.size()];
}

}  // namespace

double printed_share(const std::string& text, const std::string& description) {
    const std::vector<uint32_t> d = folded_points(description);
    if (d.empty()) return 1.0;
    size_t best = 0;
    size_t start = 0;
    while (start <= text.size() && best < d.size()) {
        size_t end = text.find('\n', start);
        if (end == std::string::npos) end = text.size();
        const std::vector<uint32_t> line = folded_points(text.substr(start, end - start));
        if (!line.empty()) best = std::max(best, lcs_length(d, line));
        start = end + 1;
    }
    return double(best) / double(d.size());
}

void drop_unprinted_items(const std::string& text, nlohmann::ordered_json& fields) {
    try {
        auto& items = fields["line_items"];
        if (!items.is_array()) return;
        nlohmann::ordered_json kept = nlohmann::ordered_json::array();
        std::string dropped;
        for (size_t i = 0; i < items.size(); ++i) {
            const auto& it = items[i];
            if (it.is_object() && it.contains("description") && it["description"].is_string() &&
                printed_share(text, it["description"].get<std::string>()) < kPrintedItemShare) {
                if (!dropped.empty()) dropped += ", ";
                dropped += std::to_string(i + 1);
                dropped += " (";
                dropped += it["description"].get<std::string>();
                dropped += ")";
                continue;
            }
            kept.push_back(it);
        }
        if (dropped.empty()) return;
        items = std::move(kept);
        if (!fields["warnings"].is_array()) fields["warnings"] = nlohmann::ordered_json::array();
        fields["warnings"].push_back("line_item_not_printed: items " + dropped +
                                     " have descriptions the receipt does not print; left out");
    } catch (...) {  // a malformed object: leave the items as they are
    }
}

}  // namespace receipt::extract
