// The text of a yen receipt's item rows: where a row's description ends and its amount begins
// (extract/item_row_text.h).
#include "extract/item_row_text.h"

#include <regex>

#include "extract/name_constraint.h"
#include "extract/printed_items.h"
#include "extract/utf8.h"

namespace receipt::extract {

namespace {

constexpr size_t kMaxLineBytes = 200;  // bytes of a line the regexes look at (bounds std::regex's recursion)

}  // namespace

bool starts_with_size(const std::string& s) {
    static const std::regex size(
        R"(^\d+(\.\d+)?(g|kg|ml|mL|l|L|P|R|W|m|cm|mm|本|枚|個|箱|入|錠|食|缶|袋|包|粒|組|巻|合|形)(\s|$))");
    try {
        return std::regex_search(s.substr(0, kMaxLineBytes), size);
    } catch (...) {
        return false;
    }
}

bool size_box(const std::string& box) {
    static const std::regex size(R"(^\d+(\.\d+)?(g|kg|ml|mL|l|L|m|cm|mm|GB|B|W)$)");
    const std::string s = strip_spaces(box);
    return s.size() <= 16 && std::regex_match(s, size);
}

bool glued_yen_amount(const std::string& s) {
    static const std::regex amount(R"(^\d{1,3}(,\d{3})*円(軽|※|\*)?$|^\d{1,6}円(軽|※|\*)?$)");
    return s.size() <= 32 && std::regex_match(s, amount);
}

bool model_number_before_amount(const std::string& rest) {
    static const std::regex model(R"(^\d{4,}\s+(¥|\\)?\d{1,3}(,\d{3})*(円)?(軽|※|\*)?$)");
    if (rest.size() > 64 || !std::regex_match(rest, model)) return false;
    return rest.find("円") != std::string::npos || rest.find("¥") != std::string::npos ||
           rest.find('\\') != std::string::npos;
}

std::string description_of(const std::string& line, const std::string& as_is) {
    const std::string t = trim(line);
    const std::string a = as_is.size() == line.size() ? trim(as_is) : std::string();
    for (size_t p = 0; p < t.size(); ++p) {
        // A yen sign glued to the description starts the amount part too ("ボールペン 黒¥170").
        if (p > 0 && (t[p] == '\\' || t.compare(p, 2, "¥") == 0) && is_item_row_continuation(t.substr(p)))
            return trim(t.substr(0, p));
        // So does an amount written with 円 glued to a kana or kanji ("料理酒218円", "ﾓﾊﾞｲﾙﾊﾞｯﾃﾘｰ5,980円軽"; not
        // "ヤクルト1000", nor a stamp's face value "切手84円").
        if (p > 0 && is_ascii_digit(t[p]) && static_cast<unsigned char>(t[p - 1]) >= 0x80 &&
            glued_yen_amount(t.substr(p)) && !face_value_before(t.substr(0, p)))
            return trim(t.substr(0, p));
        if (t[p] != ' ') continue;
        if (a.size() == t.size() && starts_with_size(a.substr(p + 1))) continue;
        if (face_value_before(t.substr(0, p))) continue;
        if (model_number_before_amount(t.substr(p + 1))) continue;
        if (is_item_row_continuation(t.substr(p + 1))) return trim(t.substr(0, p));
    }
    return t;
}

std::string clean_description(std::string d) {
    static const std::regex code(R"(^\d{3,13}\s+|^\d{4,13}(?=[\x80-\xff]))");
    if (d.size() > kMaxLineBytes) return d;  // bounds std::regex
    auto strip_marks = [&] {
        for (bool again = true; again;) {
            again = false;
            d = trim(d);
            for (const char* m : kMarks) {
                const size_t n = std::string(m).size();
                if (d.size() <= n) continue;
                if (d.compare(0, n, m) == 0) d = d.substr(n), again = true;
                else if (d.compare(d.size() - n, n, m) == 0) d = d.substr(0, d.size() - n), again = true;
            }
        }
    };
    strip_marks();
    d = std::regex_replace(d, code, "");
    strip_marks();
    // The ※ mark as OCR read it, glued to a kana or kanji ("Xバナナ").
    if (d.size() > 1 && d[0] == 'X' && static_cast<unsigned char>(d[1]) >= 0x80) d = trim(d.substr(1));
    return d;
}

}  // namespace receipt::extract
