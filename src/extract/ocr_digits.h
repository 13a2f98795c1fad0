// OCR confusions of digits: letters that OCR reads in place of a digit ("1,2O0", "20Z4/12/01", "2021/01/3I").
#pragma once

#include <algorithm>
#include <string>
#include <string_view>

#include "extract/utf8.h"

namespace receipt::extract {

// The digit an OCR look-alike stands for (O/o/D -> 0, l/I/| -> 1, Z -> 2, S -> 5, b -> 6, B -> 8, g -> 9), or 0.
char confusion_digit(char c);

// The letters confusion_digit reads, as one string (for regex character classes).
inline constexpr std::string_view kDigitLookalikes = "OoDlI|ZSbBg";

// `s` with every look-alike that stands next to an ASCII digit replaced by its digit, read left to right (a
// look-alike after one so read counts as after a digit: "1,5OO" -> "1,500"), and one right before a thousands
// group after no letter ("Z,416" -> "2,416", "¥l.790" -> "¥1.790"), and one alone between two slashes with digits
// beyond them ("20/I/2015" -> "20/1/2015"), and one before the point and two-digit cents of an amount after a
// currency sign, a space, a minus sign or at the line start ("$Z.20" -> "$2.20", "I.05" -> "1.05"); same length.
std::string read_digit_confusions(const std::string& s);

// `s` (after read_digit_confusions) with OCR look-alikes of the yen signs read as the signs: a "Y" that starts an
// amount ("Y416軽", "¥178" read as "Y178"; at the line start, after a space or after a minus sign as in "-Y150";
// followed by digits and commas up to the line end, a space or a tax mark) becomes a backslash (the one-byte yen
// sign), and "門" right after a digit ("99門" for 99円) becomes "円"; same length (byte offsets stay valid).
std::string read_sign_confusions(const std::string& s);

// Calls fn(line) for each line of a receipt text (its first max_bytes bytes, made valid UTF-8, full-width folded),
// first as printed, then with OCR look-alikes read as digits. A line on which fn throws (std::regex giving up on
// it) is skipped; the others are still read.
template <typename Fn>
void for_each_line_reading(std::string_view text, size_t max_bytes, Fn&& fn) {
    for (size_t i = 0; i <= text.size();) {
        const size_t j = std::min(text.find('\n', i), text.size());
        try {
            const std::string line = fold_fullwidth(sanitize_utf8(utf8_prefix(text.substr(i, j - i), max_bytes)));
            fn(line);
            fn(read_digit_confusions(line));
        } catch (...) {
        }
        i = j + 1;
    }
}

}  // namespace receipt::extract
