// The address printed in a Japanese receipt's header (extract/japanese_address_block.h).
#include "extract/japanese_address_block.h"

#include <cctype>
#include <cstdint>
#include <vector>

#include "extract/building_line.h"
#include "extract/utf8.h"

namespace receipt::extract {

namespace {

bool kanji(uint32_t c) { return c >= 0x4E00 && c <= 0x9FFF; }

// `line` without a leading postcode: "〒650-0885 兵庫県..." and "650-0885 兵庫県..." -> "兵庫県...".
std::string without_postcode(const std::string& line) {
    std::string l = line;
    if (l.rfind("〒", 0) == 0) l = trim(l.substr(std::string("〒").size()));
    size_t e = 0;
    while (e < l.size() && (std::isdigit(static_cast<unsigned char>(l[e])) || l[e] == '-')) ++e;
    if (e == 8 && l[3] == '-') l = trim(l.substr(e));
    return l;
}

// True when `s` starts with a prefecture: two or three kanji and 都, 道, 府 or 県.
bool starts_with_prefecture(const std::string& s) {
    const auto cps = code_points(s.substr(0, std::min<size_t>(s.size(), 24)));
    if (!cps) return false;
    for (size_t k = 2; k <= 3 && k < cps->size(); ++k) {
        bool all_kanji = true;
        for (size_t i = 0; i < k; ++i) all_kanji &= kanji((*cps)[i]);
        const uint32_t mark = (*cps)[k];
        if (all_kanji && (mark == U'都' || mark == U'道' || mark == U'府' || mark == U'県')) return true;
    }
    return false;
}

bool has_label(const std::string& line) {
    const std::string l = ascii_lower(line);
    for (const char* w : {"tel", "電話", "☎", "登録", "fax"})
        if (l.find(w) != std::string::npos) return true;
    return false;
}

// `s` with a long-vowel mark or kanji one that OCR read for the hyphen between two digits made '-'
// ("6ー31-10" -> "6-31-10").
std::string digit_dashes(const std::string& s) {
    std::string out;
    for (size_t i = 0; i < s.size();) {
        bool dash = false;
        for (const char* d : {"ー", "一", "‐"})
            if (const size_t n = std::string(d).size(); s.compare(i, n, d) == 0 && i > 0 &&
                std::isdigit(static_cast<unsigned char>(s[i - 1])) && i + n < s.size() &&
                std::isdigit(static_cast<unsigned char>(s[i + n]))) {
                out += '-';
                i += n;
                dash = true;
                break;
            }
        if (!dash) out += s[i++];
    }
    return out;
}

}  // namespace

std::optional<std::string> japanese_address_block(const std::string& text) {
    std::vector<std::string> lines = first_lines(text, size_t(kJapaneseAddressLines) + 3, 400);
    for (std::string& l : lines) l = trim(collapse_whitespace(fold_fullwidth(sanitize_utf8(l))));
    for (size_t i = 0; i < lines.size() && i < size_t(kJapaneseAddressLines); ++i) {
        const std::string first = without_postcode(lines[i]);
        if (!starts_with_prefecture(first) || has_label(first)) continue;
        std::string address = first;
        size_t next = i + 1;
        if (!has_ascii_digit(first)) {
            if (next >= lines.size() || !has_ascii_digit(lines[next]) || !has_cjk(lines[next]) || has_label(lines[next]))
                return std::nullopt;
            address += " " + lines[next++];
        }
        bool with_floor = false;
        if (next < lines.size() && printed_building_line(lines[next], &with_floor)) {
            address += " " + lines[next++];
            if (!with_floor && next < lines.size() && floor_line(lines[next])) address += " " + lines[next];
        }
        return digit_dashes(address);
    }
    return std::nullopt;
}

}  // namespace receipt::extract
