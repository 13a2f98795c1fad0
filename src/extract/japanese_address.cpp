// A Japanese address copied as printed (extract/japanese_address.h).
#include "extract/japanese_address.h"

#include <algorithm>
#include <vector>

#include "extract/name_constraint.h"
#include "extract/utf8.h"

namespace receipt::extract {

namespace {

bool digit(char c) { return c >= '0' && c <= '9'; }

// The end offset in c.text of a match of `v` (spaces removed) starting at p, or npos. With `digit_runs`, a run of
// digits in v matches any run of digits in the text; `digits` counts the text's digits in the match.
size_t match_at(const CompactText& c, size_t p, const std::string& v, bool digit_runs, size_t& digits) {
    size_t i = p, k = 0;
    digits = 0;
    while (k < v.size() && i < c.text.size()) {
        if (digit_runs && digit(v[k]) && digit(c.text[i])) {
            while (k < v.size() && digit(v[k])) ++k;
            while (i < c.text.size() && digit(c.text[i])) ++i, ++digits;
            continue;
        }
        if (v[k] != c.text[i]) return std::string::npos;
        digits += digit(c.text[i]);
        ++i, ++k;
    }
    return k == v.size() ? i : std::string::npos;
}

}  // namespace

std::optional<std::string> address_as_printed(const std::string& text, const std::string& address) {
    const std::string a = trim(sanitize_utf8(address));
    const std::string v = strip_spaces(a);
    if (v.empty()) return std::nullopt;
    const size_t want_digits = size_t(std::count_if(v.begin(), v.end(), digit));
    const CompactText c = compact_text(sanitize_utf8(text));
    for (const bool digit_runs : {false, true}) {
        for (int p : c.word_starts) {
            size_t digits = 0;
            const size_t e = match_at(c, size_t(p), v, digit_runs, digits);
            if (e == std::string::npos || (e < c.text.size() && !c.word_start(e))) continue;
            if (digit_runs && digits < want_digits) continue;
            std::string out = c.spaced(size_t(p), e);
            if (out == a) return std::nullopt;
            return out;
        }
    }
    return std::nullopt;
}

}  // namespace receipt::extract
