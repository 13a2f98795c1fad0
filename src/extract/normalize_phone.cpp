#include "extract/normalize_phone.h"

#include "extract/utf8.h"

namespace receipt::extract {

namespace {

constexpr size_t kMaxPhoneBytes = 200;
constexpr int kMinDigits = 4;

}  // namespace

std::string fold_dashes(const std::string& s, bool between_digits) {
    static constexpr std::string_view kDashes[] = {
        "\xE2\x80\x90",  // ‐ U+2010
        "\xE2\x80\x91",  // ‑ U+2011
        "\xE2\x80\x92",  // ‒ U+2012
        "\xE2\x80\x93",  // – U+2013
        "\xE2\x80\x94",  // — U+2014
        "\xE2\x80\x95",  // ― U+2015
        "\xE2\x88\x92",  // − U+2212
        "\xE3\x83\xBC",  // ー U+30FC (katakana long vowel mark)
        "\xEF\xBD\xB0",  // ｰ U+FF70
    };
    std::string out;
    for (size_t i = 0; i < s.size();) {
        bool replaced = false;
        for (std::string_view d : kDashes) {
            if (s.compare(i, d.size(), d) != 0) continue;
            if (between_digits &&
                !(i > 0 && is_ascii_digit(s[i - 1]) && i + d.size() < s.size() && is_ascii_digit(s[i + d.size()])))
                break;
            out += '-';
            i += d.size();
            replaced = true;
            break;
        }
        if (!replaced) out += s[i++];
    }
    return out;
}

std::string normalize_phone(std::string_view text) {
    const std::string s = fold_dashes(fold_fullwidth(sanitize_utf8(utf8_prefix(text, kMaxPhoneBytes))));
    // The number starts at the first digit, or at a '+' / '(' directly before one.
    size_t begin = 0;
    while (begin < s.size() && !is_ascii_digit(s[begin])) ++begin;
    if (begin == s.size()) return "";
    while (begin > 0 && (s[begin - 1] == '+' || s[begin - 1] == '(')) --begin;

    std::string out;
    int n_digits = 0, depth = 0;
    for (size_t i = begin; i < s.size(); ++i) {
        const char c = s[i];
        if (is_ascii_digit(c)) {
            ++n_digits;
        } else if (c == '(') {
            // Only a parenthesis that opens digits ("(03)"), not a note such as "(代)".
            if (i + 1 >= s.size() || !is_ascii_digit(s[i + 1])) break;
            ++depth;
        } else if (c == ')') {
            if (depth == 0) break;
            --depth;
        } else if (c == '+' || c == '-' || c == '.' || c == '/' || c == ' ' || c == '\t') {
            // separators are kept as printed
        } else {
            break;
        }
        out += c == '\t' ? ' ' : c;
    }
    // Drop trailing separators and an unclosed '(' group.
    while (!out.empty() && depth > 0) {
        const char c = out.back();
        out.pop_back();
        if (c == '(') --depth;
    }
    while (!out.empty() && !is_ascii_digit(out.back()) && out.back() != ')') out.pop_back();
    if (n_digits < kMinDigits) return "";
    return collapse_whitespace(out);
}

}  // namespace receipt::extract
