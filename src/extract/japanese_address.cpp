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

// A floor token at `i` of s: 1-2 ASCII digits, then "F" or "階", then the end or a space. Its length, or 0.
size_t floor_token(const std::string& s, size_t i) {
    size_t k = i;
    while (k < s.size() && k - i < 3 && digit(s[k])) ++k;
    if (k == i || k - i > 2) return 0;
    size_t end = 0;
    if (k < s.size() && s[k] == 'F') end = k + 1;
    else if (s.compare(k, 3, "階") == 0) end = k + 3;
    if (end == 0 || (end < s.size() && s[end] != ' ')) return 0;
    return end - i;
}

// `printed` with a space put back before each floor token that the model wrote spaced ("駅ビル 2F") and the OCR
// text joins to the word before it ("駅ビル2F"): OCR loses spaces now and then, and a floor follows its building
// after a space (the labels of every synthetic receipt; a building name never ends in a digit). Floor tokens are
// matched by their text, first to first.
std::string keep_floor_spaces(const std::string& model, std::string printed) {
    size_t from = 0;
    for (size_t i = 1; i < model.size(); ++i) {
        if (model[i - 1] != ' ' || (i >= 2 && (model[i - 2] == ' ' || digit(model[i - 2])))) continue;
        const size_t n = floor_token(model, i);
        if (n == 0) continue;
        const std::string tok = model.substr(i, n);
        for (size_t j = printed.find(tok, from); j != std::string::npos; j = printed.find(tok, j + 1)) {
            if (j == 0 || printed[j - 1] == ' ' || digit(printed[j - 1])) continue;
            if (floor_token(printed, j) != n) continue;
            printed.insert(j, " ");
            from = j + n + 1;
            break;
        }
    }
    return printed;
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
            std::string out = keep_floor_spaces(a, c.spaced(size_t(p), e));
            if (out == a) return std::nullopt;
            return out;
        }
    }
    return std::nullopt;
}

}  // namespace receipt::extract
