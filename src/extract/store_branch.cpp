// Store name + branch line (extract/store_branch.h).
#include "extract/store_branch.h"

#include <algorithm>
#include <vector>

#include "extract/name_constraint.h"
#include "extract/utf8.h"

namespace receipt::extract {

namespace {

bool ends_with(const std::string& s, const std::string& suffix) {
    return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// Code points of a valid UTF-8 string.
int utf8_chars(const std::string& s) {
    int n = 0;
    for (unsigned char c : s) n += (c & 0xC0) != 0x80;
    return n;
}

}  // namespace

std::optional<std::string> name_with_branch(const std::string& text, const std::string& name, int max_lines) {
    const std::string want = strip_spaces(fold_fullwidth(sanitize_utf8(name)));
    if (want.empty() || ends_with(want, "店")) return std::nullopt;
    std::vector<std::string> lines = first_lines(text, size_t(std::max(max_lines, 0)) + 1);
    for (std::string& line : lines) line = trim(fold_fullwidth(line));
    for (size_t k = 0; k + 1 < lines.size() && int(k) < max_lines; ++k) {
        if (strip_spaces(lines[k]) != want) continue;
        const std::string& branch = lines[k + 1];
        const std::string upper = ascii_lower(branch);
        const int n = utf8_chars(branch);
        if (!ends_with(branch, "店") || n < 2 || n > kMaxBranchChars || branch.find("〒") != std::string::npos ||
            upper.find("tel") != std::string::npos || branch.find("電話") != std::string::npos)
            return std::nullopt;
        return trim(name) + " " + branch;
    }
    return std::nullopt;
}

}  // namespace receipt::extract
