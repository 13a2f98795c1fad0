// UTF-8 helpers for model output and receipt text: repair invalid bytes, fold full-width ASCII, trim and
// collapse whitespace, cut on code point boundaries. Pure functions; thread-safe; never throw.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace receipt::extract {

// Returns `s` with every invalid UTF-8 sequence (stray continuation bytes, overlong forms, surrogates,
// code points > U+10FFFF, truncated sequences) replaced by U+FFFD. `n_replaced` (optional) receives the count.
std::string sanitize_utf8(std::string_view s, int* n_replaced = nullptr);
// Byte offset of the first byte that does not start a valid UTF-8 sequence (decode_one), or npos when s is valid.
size_t invalid_utf8_offset(std::string_view s);

// The code point fold_fullwidth writes for `cp`: a full-width ASCII form (U+FF01..U+FF5E) its ASCII character
// (cp - 0xFEE0), U+3000 (ideographic space) ' ', the minus sign U+2212 '-', any other cp itself.
uint32_t fold_fullwidth_point(uint32_t cp);

// Folds full-width ASCII forms (U+FF01..U+FF5E) to ASCII, U+3000 (ideographic space) to ' ', and the minus
// sign U+2212 to '-' (fold_fullwidth_point). Other text is unchanged. `s` must be valid UTF-8 (see sanitize_utf8).
std::string fold_fullwidth(std::string_view s);

// True for ASCII whitespace (space, \t, \n, \r, \f, \v).
inline bool is_ascii_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

// Strips leading and trailing ASCII whitespace and U+3000.
std::string trim(std::string_view s);

// Trims and replaces every run of whitespace (ASCII whitespace, U+3000) with a single ' '.
std::string collapse_whitespace(std::string_view s);

// The words of `s` between single spaces (' '), empty ones left out.
std::vector<std::string> space_words(std::string_view s);

// The longest prefix of `s` that is at most `max_bytes` long and does not split a UTF-8 sequence.
std::string_view utf8_prefix(std::string_view s, size_t max_bytes);

// ASCII lower-casing (other bytes unchanged).
std::string ascii_lower(std::string_view s);

// ASCII upper-casing (other bytes unchanged).
std::string ascii_upper(std::string_view s);

// True when `c` is an ASCII digit ('0'-'9').
inline bool is_ascii_digit(char c) { return c >= '0' && c <= '9'; }
// True when `s` holds an ASCII digit.
bool has_ascii_digit(std::string_view s);
// The ASCII digits of `s`, in order ("03-1234" -> "031234").
std::string ascii_digits(std::string_view s);
// True when `s` holds an ASCII letter (A-Z, a-z).
bool has_ascii_letter(std::string_view s);
// Where `longer` holds the one byte more than `shorter` (removing it gives `shorter`: "TARGET" and "TRGET" -> 1; in a
// run of equal bytes, the last: "BOOK" and "BOK" -> 2), or nullopt when `longer` is not `shorter` with one byte
// inserted.
std::optional<size_t> extra_byte_at(std::string_view shorter, std::string_view longer);

// The first n lines of `text` ('\n'-separated), each cut to its first max_bytes bytes (whole UTF-8 sequences),
// made valid UTF-8 and trimmed. Fewer when the text has fewer lines.
std::vector<std::string> first_lines(std::string_view text, size_t n, size_t max_bytes = SIZE_MAX);

// Decodes the code point at s[i] (i < s.size()): returns its byte length (1..4) and sets `cp`, or 0 when the bytes
// there are not valid UTF-8 (overlong, surrogate, past U+10FFFF, truncated).
size_t decode_one(std::string_view s, size_t i, uint32_t& cp);

// Calls f(cp) for each code point of `s` in order, skipping bytes that are not valid UTF-8 (decode_one).
template <class F>
void for_each_code_point(std::string_view s, F&& f) {
    for (size_t i = 0; i < s.size();) {
        uint32_t cp = 0;
        const size_t len = decode_one(s, i, cp);
        if (len == 0) {
            ++i;
            continue;
        }
        f(cp);
        i += len;
    }
}

// Appends code point `cp` (at most U+10FFFF) to `out` as UTF-8.
void append_utf8(std::string& out, uint32_t cp);

// The code points of `s`; nullopt when `s` is not valid UTF-8.
std::optional<std::vector<uint32_t>> code_points(std::string_view s);
// Code points cps[begin, min(end, size)) as UTF-8.
std::string utf8_of(const std::vector<uint32_t>& cps, size_t begin = 0, size_t end = SIZE_MAX);

// The lines of `text` (split at '\n', the last one possibly empty), as they are.
std::vector<std::string> split_lines(std::string_view text);

// True when `s` contains a code point in the Hiragana, Katakana or CJK ideograph blocks (half-width katakana too),
// other than the prolonged sound mark and middle dot, which OCR also reads in Latin text for a dash or a dot.
bool has_cjk(std::string_view s);

// True when the code point `c` is a kana (hiragana, full-width katakana and their marks) or a kanji (CJK unified
// ideographs and extension A, and 々, the kanji repeat mark of "代々木").
bool kanji_or_kana(uint32_t c);

}  // namespace receipt::extract
