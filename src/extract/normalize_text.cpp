#include "extract/normalize_text.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <iterator>
#include <regex>

#include "extract/utf8.h"

namespace receipt::extract {

namespace {

constexpr std::string_view kPostalMark = "\xE3\x80\x92";  // 〒

// Length of a postal code "NNN-NNNN" / "NNNNNNN" at s[i] (dash look-alikes already folded), or 0.
size_t postal_code_length(std::string_view s, size_t i) {
    size_t n = 0;
    auto digits = [&](int count) {
        for (int k = 0; k < count; ++k, ++n) {
            if (i + n >= s.size() || !is_ascii_digit(s[i + n])) return false;
        }
        return true;
    };
    if (!digits(3)) return 0;
    if (i + n < s.size() && s[i + n] == '-') ++n;
    if (!digits(4)) return 0;
    if (i + n < s.size() && is_ascii_digit(s[i + n])) return 0;
    return n;
}

}  // namespace

std::string normalize_text(std::string_view text) { return collapse_whitespace(sanitize_utf8(text)); }

std::string normalize_address(std::string_view text) {
    const std::string s = sanitize_utf8(text);
    std::string out;
    for (size_t i = 0; i < s.size();) {
        if (s.compare(i, kPostalMark.size(), kPostalMark) != 0) {
            out += s[i++];
            continue;
        }
        // Skip the mark, spaces, and a code (its digits may be full-width: fold a short window first).
        i += kPostalMark.size();
        while (i < s.size() && is_ascii_space(s[i])) ++i;
        const std::string window = fold_fullwidth(utf8_prefix(s.substr(i), 40));
        const size_t n_code = postal_code_length(window, 0);
        if (n_code > 0) {
            // Map the folded length back onto the original bytes: walk the original until n_code chars passed.
            size_t n_chars = 0;
            while (i < s.size() && n_chars < n_code) {
                const auto b = static_cast<unsigned char>(s[i]);
                i += b < 0x80 ? 1 : (b >= 0xF0 ? 4 : (b >= 0xE0 ? 3 : 2));
                ++n_chars;
            }
        }
        out += ' ';
    }
    return collapse_whitespace(out);
}

std::string space_before_quantity(const std::string& d) {
    static const char* const kUnits[] = {"ml", "L", "kg", "g", "枚", "個入", "個", "本",
                                         "食", "缶", "箱", "錠", "R",  "GB", "袋"};
    std::string out;
    out.reserve(d.size() + 8);
    for (size_t i = 0; i < d.size(); ++i) {
        // A digit run starting at i right after a non-ASCII byte (the last byte of a multi-byte character).
        if (is_ascii_digit(d[i]) && i > 0 && static_cast<unsigned char>(d[i - 1]) >= 0x80) {
            size_t k = i;
            while (k < d.size() && is_ascii_digit(d[k])) ++k;
            if (k - i <= 4)
                for (const char* u : kUnits) {
                    const size_t n = std::string_view(u).size();
                    if (d.compare(k, n, u) == 0 && (k + n == d.size() || d[k + n] == ' ')) {
                        out.push_back(' ');
                        break;
                    }
                }
        }
        out.push_back(d[i]);
    }
    return out;
}

namespace {

// `d` without the date and time that OCR merged in front of it, or `d` (see without_merged_header_line).
std::string without_date_time(const std::string& d) {
    // A clock time; its hour may be an OCR digit look-alike in the 時/分 form ("g時24分").
    static const std::regex kTime(
        "(\\d{1,2}:\\d{1,2}(?::\\d{2})?|[\\dOoDlIZSbBg]{1,2}\xE6\x99\x82\\d{1,2}(?:\xE5\x88\x86)?) +");
    std::smatch m;
    try {
        if (!std::regex_search(d, m, kTime) || size_t(m.position(0) + m.length(0)) >= d.size()) return d;
    } catch (...) {
        return d;
    }
    const std::string before = d.substr(0, size_t(m.position(0)));
    const bool hour_minute = m.str(1).find("\xE6\x99\x82") != std::string::npos;  // "6時49分"
    static const char* const kDateMarks[] = {"年", "月", "日", "曜", "火", "水", "木", "金", "土", "ー"};
    for (size_t i = 0; i < before.size();) {
        const unsigned char c = static_cast<unsigned char>(before[i]);
        if (c < 0x80) {
            if (!std::isalnum(c) && std::string(" /-.()").find(char(c)) == std::string::npos) return d;
            ++i;
            continue;
        }
        bool mark = false;
        for (const char* k : kDateMarks)
            if (before.compare(i, std::strlen(k), k) == 0) {
                i += std::strlen(k);
                mark = true;
                break;
            }
        if (!mark) return d;
    }
    // A date before the time, or a time in the 時/分 form that starts the text (no item name starts so).
    const bool date = before.find_first_of("0123456789") != std::string::npos ||
                      before.find("月") != std::string::npos || before.find("年") != std::string::npos;
    if (!date && !(hour_minute && before.empty())) return d;
    return d.substr(size_t(m.position(0) + m.length(0)));
}

}  // namespace

std::string without_merged_header_line(const std::string& d) {
    std::string out = without_date_time(d);
    // The receipt's bracketed title ("【領収証】 お惣菜 コロッケ").
    if (out.rfind("【", 0) == 0)
        if (const size_t close = out.find("】 "); close != std::string::npos) {
            const std::string title = out.substr(0, close);
            if (title.find("領収") != std::string::npos || title.find("レシート") != std::string::npos) {
                const size_t rest = out.find_first_not_of(' ', close + std::string("】").size());
                if (rest != std::string::npos) return out.substr(rest);
            }
        }
    // The item table's header line ("商品名 数量 金額", OCR may cut a word: "金"): 商品名 and the column words after it.
    if (out.rfind("商品名 ", 0) == 0) {
        static const char* const kColumns[] = {"数量", "単価", "金額", "価格", "金", "額", "数"};
        std::vector<std::string> words = space_words(out);
        size_t k = 1;
        while (k < words.size() && std::find(std::begin(kColumns), std::end(kColumns), words[k]) != std::end(kColumns))
            ++k;
        std::string rest;
        for (size_t i = k; i < words.size(); ++i) rest += (rest.empty() ? "" : " ") + words[i];
        if (!rest.empty()) return rest;
    }
    // The clerk line ("担当者 高橋", "当者 高橋" or "担:高橋" with a character lost, "担当:佐藤"): its label and
    // the name.
    for (const char* label : {"担当者", "当者", "担当", "担:"}) {
        if (out.rfind(label, 0) != 0) continue;
        size_t name = std::strlen(label);
        if (name < out.size() && out[name] == ':') ++name;
        while (name < out.size() && out[name] == ' ') ++name;
        const size_t end = out.find(' ', name);  // the name ends at the next space
        if (end == std::string::npos || end == name) break;
        const size_t rest = out.find_first_not_of(' ', end);
        if (rest != std::string::npos) return out.substr(rest);
        break;
    }
    return out;
}

}  // namespace receipt::extract
