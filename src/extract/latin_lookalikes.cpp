// OCR look-alikes of letters in Latin-script names (extract/latin_lookalikes.h).
#include "extract/latin_lookalikes.h"

#include <cctype>
#include <regex>

#include "extract/utf8.h"

namespace receipt::extract {

namespace {

bool is_alnum(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; }
bool is_upper(char c) { return c >= 'A' && c <= 'Z'; }
bool is_lower(char c) { return c >= 'a' && c <= 'z'; }

// Whether the letters of `s` from `at` to `e` are a unit that follows a number ("5KG", "500ML", "10PCS").
bool unit_after(const std::string& s, size_t at, size_t e) {
    std::string u;
    for (size_t i = at; i < e; ++i) u += char(std::toupper(static_cast<unsigned char>(s[i])));
    for (const char* unit : {"KG", "G", "GM", "MG", "ML", "L", "LT", "CM", "MM",  "M",  "PC", "PCS",
                             "PK", "S", "CT", "W",  "V",  "X", "OZ", "LB", "LBS", "GB", "TB", "MB"})
        if (u == unit) return true;
    return false;
}

// The letters of one word [b, e) of `s` read back into `out` (same positions), when the word qualifies; with
// `interior_only`, only digits with a letter on both sides.
void read_word(const std::string& s, size_t b, size_t e, std::string& out, bool interior_only) {
    int letters = 0, digits = 0, upper = 0, lower_after_first = 0;
    for (size_t i = b; i < e; ++i) {
        const char c = s[i];
        if (is_ascii_digit(c)) {
            if (c != '0' && c != '1' && c != '5' && c != '8') return;
            ++digits;
        } else {
            ++letters;
            if (is_upper(c)) ++upper;
            if (is_lower(c) && i > b) ++lower_after_first;
        }
    }
    if (digits == 0 || e - b < 3 || letters < 2 || letters < digits) return;
    // As many letters as digits: only with the two mixed ("8O0K"), not a code of letters then digits ("KL08").
    if (letters == digits) {
        int switches = 0;
        for (size_t i = b + 1; i < e; ++i) switches += is_ascii_digit(s[i]) != is_ascii_digit(s[i - 1]);
        if (switches < 2) return;
    }
    // Ordinals: digits then ST / ND / RD / TH, any case.
    size_t k = b;
    while (k < e && is_ascii_digit(s[k])) ++k;
    if (k > b && e - k == 2) {
        std::string suf{char(std::toupper(static_cast<unsigned char>(s[k]))),
                        char(std::toupper(static_cast<unsigned char>(s[k + 1])))};
        if (suf == "ST" || suf == "ND" || suf == "RD" || suf == "TH") return;
    }
    const bool upper_word = lower_after_first == 0 && upper >= 2;
    const bool lower_word = !upper_word && upper <= 1 && (upper == 0 || is_upper(s[b]));
    if (!upper_word && !lower_word) return;  // mixed case ("iPh0ne" aside): leave it
    for (size_t i = b; i < e; ++i) {
        const char c = s[i];
        if (interior_only &&
            (i == b || i + 1 == e || is_ascii_digit(s[i - 1]) || is_ascii_digit(s[i + 1]) || unit_after(s, i + 1, e)))
            continue;
        if (upper_word) {
            if (c == '0') out[i] = 'O';
            if (c == '1') out[i] = 'I';
            if (c == '5') out[i] = 'S';
            if (c == '8') out[i] = 'B';
        } else if (i == b && (c == '0' || c == '5' || c == '8')) {
            out[i] = c == '0' ? 'O' : c == '5' ? 'S' : 'B';  // the capital of a capitalised word ("8oots", "0ak")
        } else {
            if (c == '0') out[i] = 'o';
            if (c == '1') out[i] = 'l';
        }
    }
}

// Calls fn(b, e) for each word [b, e) of `s`: a maximal run of ASCII letters and digits.
template <typename Fn>
void for_each_word(const std::string& s, Fn&& fn) {
    for (size_t i = 0; i < s.size();) {
        if (!is_alnum(s[i])) {
            ++i;
            continue;
        }
        size_t j = i;
        while (j < s.size() && is_alnum(s[j])) ++j;
        fn(i, j);
        i = j;
    }
}

// read_letter_confusions, or with `interior_only` only digits between two letters.
std::string read_letters(const std::string& s, bool interior_only) {
    std::string out = s;
    for_each_word(s, [&](size_t b, size_t e) { read_word(s, b, e, out, interior_only); });
    return out;
}

// The edges of description words that OCR misread (same length): a word-initial 8 or 0 before four or more capital
// letters is B or O ("8ANANAS", "0RANGE"; not "8PCS"); a word-initial I, l or Z before digits and a unit is 1 or 2
// ("I0S" for 10S, "Z00ML"), and a Z alone before "%" is 2 ("MILK Z% GAL").
std::string read_word_edges(const std::string& s) {
    std::string out = s;
    for_each_word(s, [&](size_t b, size_t e) {
        const char c = s[b];
        size_t letters = b + 1, digits = b + 1;
        while (letters < e && is_upper(s[letters])) ++letters;
        while (digits < e && is_ascii_digit(s[digits])) ++digits;
        if ((c == '8' || c == '0') && letters == e && e - b >= 5) out[b] = c == '8' ? 'B' : 'O';
        if ((c == 'I' || c == 'l' || c == 'Z') && digits > b + 1 && digits < e && unit_after(s, digits, e))
            out[b] = c == 'Z' ? '2' : '1';
        if (c == 'Z' && e == b + 1 && e < s.size() && s[e] == '%') out[b] = '2';
    });
    return out;
}

}  // namespace

std::string read_letter_confusions(const std::string& s) { return read_letters(s, false); }

std::string latin_item_description_read(const std::string& s) {
    // "1x ", "Ix ", "lx ", "12 x ": a count OCR left in front of the description (the quantity holds it); "x "
    // alone when OCR lost its digit; "1xTISSUE": a count whose space OCR lost, before three capitals.
    static const std::regex count_prefix(R"(^\s*(?:(?:[0-9Il]{1,2}\s?[xX]|x)\s+(?=\S)|[0-9Il]{1,2}x(?=[A-Z]{3})))");
    // "BATTERY AA 4S 1 X 7.80": the count and unit price of the row's next box that OCR joined to it.
    static const std::regex count_price_suffix(R"(\s+[0-9Il]{1,2}\s*[xX@]\s*(?:\$|RM|£)?\s*\d+[.,]\d{2}\s*$)");
    std::string out = s;
    if (s.size() <= 200) {
        try {
            out = std::regex_replace(s, count_prefix, "", std::regex_constants::format_first_only);
            out = std::regex_replace(out, count_price_suffix, "");
        } catch (...) {
        }
    }
    out = read_letters(out, true);
    return read_word_edges(out);
}

std::string repaired_company_suffix(const std::string& s) {
    // One letter lost from SDN BHD, after a word: SD / SN / DN for SDN, BD / BH for BHD (not both damaged).
    static const std::regex lost_sdn(R"((\w[.)]?\s+)(SD|SN|DN)(\s+BHD\b))"), lost_bhd(R"((\w[.)]?\s+SDN\s+)(BD|BH)\b)");
    // A one- to three-letter bracket before the suffix that lost one of its brackets.
    static const std::regex open_only(R"(\(([A-Z]{1,3})(\s+SDN\b))"), close_only(R"((^|\s)([A-Z]{1,3})\)(\s+SDN\b))");
    // CO. with its period read as a comma or its O as a zero, before a bracket or at the end ("AEON CO, (M) BHD").
    static const std::regex co_comma(R"(\bC(?:O,|0[.,])(\s*\(|\s*$))");
    if (s.size() > 200) return s;  // bounds std::regex's recursion
    try {
        std::string out = std::regex_replace(s, lost_sdn, "$1SDN$3");
        out = std::regex_replace(out, lost_bhd, "$1BHD");
        out = std::regex_replace(out, open_only, "($1)$2");
        out = std::regex_replace(out, close_only, "$1($2)$3");
        out = std::regex_replace(out, co_comma, "CO.$1");
        return out;
    } catch (...) {
        return s;
    }
}

}  // namespace receipt::extract
