#include "extract/ocr_digits.h"

#include <cctype>

namespace receipt::extract {

namespace {
bool is_digit(char c) { return c >= '0' && c <= '9'; }
}  // namespace

char confusion_digit(char c) {
    switch (c) {
        case 'O': case 'o': case 'D': return '0';
        case 'l': case 'I': case '|': return '1';
        case 'Z': return '2';
        case 'S': return '5';
        case 'b': return '6';
        case 'B': return '8';
        case 'g': return '9';
        default: return 0;
    }
}

std::string read_digit_confusions(const std::string& s) {
    std::string out = s;
    for (size_t i = 0; i < s.size(); ++i) {
        const char d = confusion_digit(s[i]);
        if (!d) continue;
        const bool prev = i > 0 && is_digit(out[i - 1]);  // "1,5OO": the second O follows the first, read as 0
        const bool next = i + 1 < s.size() && is_digit(s[i + 1]);
        // The first digit of an amount before its thousands group ("Z,416", "¥l.790"), not a word's last letter
        // ("No.123").
        const bool group = i + 4 < s.size() && (s[i + 1] == ',' || s[i + 1] == '.') && is_digit(s[i + 2]) &&
                           is_digit(s[i + 3]) && is_digit(s[i + 4]) && (i + 5 >= s.size() || !is_digit(s[i + 5])) &&
                           !(i > 0 && std::isalpha(static_cast<unsigned char>(s[i - 1])));
        if (prev || next || group) out[i] = d;
    }
    return out;
}

}  // namespace receipt::extract
