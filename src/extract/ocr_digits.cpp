#include "extract/ocr_digits.h"

#include <cctype>

namespace receipt::extract {

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
    const size_t at = s.find('@');  // a unit price's sign
    for (size_t i = 0; i < s.size(); ++i) {
        const char d = confusion_digit(s[i]);
        if (!d) continue;
        const bool prev = i > 0 && is_ascii_digit(out[i - 1]);  // "1,5OO": the second O follows the first, read as 0
        const bool next = i + 1 < s.size() && is_ascii_digit(s[i + 1]);
        // The first digit of an amount before its thousands group ("Z,416", "¥l.790"), not a word's last letter
        // ("No.123").
        const bool group = i + 4 < s.size() && (s[i + 1] == ',' || s[i + 1] == '.') && is_ascii_digit(s[i + 2]) &&
                           is_ascii_digit(s[i + 3]) && is_ascii_digit(s[i + 4]) &&
                           (i + 5 >= s.size() || !is_ascii_digit(s[i + 5])) &&
                           !(i > 0 && std::isalpha(static_cast<unsigned char>(s[i - 1])));
        // A date's month or day alone between two slashes with digits beyond them ("20/I/2015"), or a month of two
        // look-alikes after a four-digit year and before a day, between slashes or dashes ("2021-Db-22"; the
        // second follows the first, read as a digit; not "12/IS/05").
        const bool slashed = i >= 2 && i + 2 < s.size() && s[i - 1] == '/' && s[i + 1] == '/' &&
                             is_ascii_digit(out[i - 2]) && is_ascii_digit(s[i + 2]);
        const auto year_before = [&] {
            if (i < 5 || (i > 5 && is_ascii_digit(s[i - 6]))) return false;
            for (size_t k = i - 5; k < i - 1; ++k)
                if (!is_ascii_digit(s[k])) return false;
            return true;
        };
        const bool two_slashed = i + 3 < s.size() && i >= 5 && (s[i - 1] == '/' || s[i - 1] == '-') &&
                                 confusion_digit(s[i + 1]) && s[i + 2] == s[i - 1] && is_ascii_digit(s[i + 3]) &&
                                 year_before();
        // The units digit of an amount right after its currency sign ("$Z.20", "£l.50"), or starting a word or
        // after a minus sign ("I.05" alone on its line, "-S.20").
        const std::string_view before = std::string_view(s).substr(0, i);
        const bool amount_start = before.ends_with("$") || before.ends_with("£") || before.ends_with("€") ||
                                  before.ends_with("RM") || i == 0 || s[i - 1] == ' ' || s[i - 1] == '-';
        const bool cents = amount_start && i + 3 < s.size() && (s[i + 1] == '.' || s[i + 1] == ',') &&
                           is_ascii_digit(s[i + 2]) && is_ascii_digit(s[i + 3]) &&
                           (i + 4 >= s.size() || !is_ascii_digit(s[i + 4]));
        // A row's count alone after the multiplication sign of its unit price, at the line end ("@3599 x Z").
        size_t b = i;
        while (b > 0 && s[b - 1] == ' ') --b;
        const std::string_view head = before.substr(0, b);
        const bool count = i + 1 == s.size() && at < i && is_ascii_digit(s[at + 1]) && b < i &&
                           (head.ends_with("x") || head.ends_with("X") || head.ends_with("×"));
        if (prev || next || group || slashed || two_slashed || cents || count) out[i] = d;
    }
    return out;
}

std::string read_sign_confusions(const std::string& s) {
    std::string out = s;
    for (size_t i = 0; i < s.size(); ++i) {
        const std::string_view before = std::string_view(s).substr(0, i);
        const bool starts = i == 0 || s[i - 1] == ' ' || s[i - 1] == '-' || before.ends_with("ー") ||
                            before.ends_with("▲");  // an amount's start, a discount's minus sign
        if (s[i] == 'Y' && starts && i + 1 < s.size() && is_ascii_digit(s[i + 1])) {
            size_t e = i + 1;
            // Digits and commas, or one '.' before three digits: a thousands group as OCR read it ("Y1.890").
            while (e < s.size() && (is_ascii_digit(s[e]) || s[e] == ',' ||
                                    (s[e] == '.' && e + 3 < s.size() && is_ascii_digit(s[e + 1]) &&
                                     is_ascii_digit(s[e + 2]) && is_ascii_digit(s[e + 3]) &&
                                     (e + 4 == s.size() || !is_ascii_digit(s[e + 4])))))
                ++e;
            const std::string_view rest = std::string_view(s).substr(e);
            bool ends = rest.empty() || rest[0] == ' ';
            for (const char* mark : {"軽", "※", "*", "＊", "内", "外"})
                ends = ends || rest.substr(0, std::string_view(mark).size()) == mark;
            if (ends) out[i] = '\\';
        }
        // 門 (E9 96 80) after a digit: 円 (E5 86 86), the same three bytes long.
        if (i > 0 && is_ascii_digit(s[i - 1]) && s.compare(i, 3, "\xE9\x96\x80") == 0)
            out.replace(i, 3, "\xE5\x86\x86");
    }
    return out;
}

}  // namespace receipt::extract
