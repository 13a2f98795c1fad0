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
    auto is_branch = [](const std::string& b) {
        const int n = utf8_chars(b);
        return ends_with(b, "店") && n >= 2 && n <= kMaxBranchChars && b.find("〒") == std::string::npos &&
               ascii_lower(b).find("tel") == std::string::npos && b.find("電話") == std::string::npos;
    };
    for (size_t k = 0; k < lines.size() && int(k) < max_lines; ++k) {
        // The branch printed after the chain on the same line, one space between ("サミット 芝浦店").
        const size_t sp = lines[k].rfind(' ');
        if (sp != std::string::npos && strip_spaces(lines[k].substr(0, sp)) == want) {
            const std::string branch = trim(lines[k].substr(sp + 1));
            if (is_branch(branch)) return trim(name) + " " + branch;
        }
    }
    for (size_t k = 0; k + 1 < lines.size() && int(k) < max_lines; ++k) {
        if (strip_spaces(lines[k]) != want) continue;
        const std::string& branch = lines[k + 1];
        if (!is_branch(branch)) return std::nullopt;
        return trim(name) + " " + branch;
    }
    return std::nullopt;
}

}  // namespace receipt::extract
