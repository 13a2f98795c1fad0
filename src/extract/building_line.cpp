// The building of a Japanese address as printed (extract/building_line.h).
#include "extract/building_line.h"

#include <regex>
#include <vector>

#include "extract/kana_lookalikes.h"
#include "extract/name_constraint.h"
#include "extract/ocr_digits.h"
#include "extract/utf8.h"

namespace receipt::extract {

namespace {

constexpr size_t kBuildingLines = 16;  // lines of the header read for the building line
constexpr size_t kMaxLineBytes = 200;

// Building words, longest first where one ends another.
const std::vector<std::u32string>& building_words() {
    static const std::vector<std::u32string> kWords = {
        U"ステーションビル", U"ビルディング", U"センタービル", U"第一ビル", U"第二ビル", U"駅ビル", U"スクエア",
        U"プラザ", U"タワー", U"ハイツ", U"ヒルズ", U"ガーデン", U"テラス", U"会館", U"ビル"};
    return kWords;
}

// The length of the end of `body` that reads as `word` (look-alikes allowed; a word of 3 or more characters may
// have lost one), or 0.
size_t damaged_suffix(const std::u32string& body, const std::u32string& word) {
    auto ends_as = [&](size_t n, size_t skip) {  // the last n characters read as word without word[skip]
        if (n > body.size()) return false;
        const size_t start = body.size() - n;
        for (size_t i = 0, k = 0; k < word.size(); ++k) {
            if (k == skip) continue;
            // 一 of 第一ビル printed as the long-vowel mark ー ("第ービル"), as OCR reads it.
            if (!reads_as_katakana(body[start + i], word[k]) && !(word[k] == U'一' && body[start + i] == U'ー'))
                return false;
            ++i;
        }
        return true;
    };
    if (ends_as(word.size(), word.size())) return word.size();
    if (word.size() >= 3)
        for (size_t skip = 0; skip < word.size(); ++skip)
            if (ends_as(word.size() - 1, skip)) return word.size() - 1;
    return 0;
}

std::u32string to_u32(const std::string& s) {
    const auto cps = code_points(s);
    return cps ? std::u32string(cps->begin(), cps->end()) : std::u32string();
}

std::string to_utf8(const std::u32string& s) { return utf8_of(std::vector<uint32_t>(s.begin(), s.end())); }

// Whether `text` prints `place` right before a digit (a town before its house number: "大通西6-23-29").
bool place_before_number(const std::string& text, const std::string& place) {
    for (size_t at = text.find(place); at != std::string::npos; at = text.find(place, at + 1))
        if (const size_t e = at + place.size(); e < text.size() && is_ascii_digit(text[e])) return true;
    return false;
}

// Whether `address` prints `place` as a whole town before its house number: right after a ward, city, town or
// village mark or a space (or first), and before a digit ("...小倉北区浅野5-15-2" for 浅野; not 野).
bool town_before_number(const std::string& address, const std::string& place) {
    for (size_t at = address.find(place); at != std::string::npos; at = address.find(place, at + 1)) {
        const size_t e = at + place.size();
        if (e >= address.size() || !is_ascii_digit(address[e])) continue;
        if (at == 0 || address[at - 1] == ' ') return true;
        for (const std::string unit : {"区", "市", "町", "村", "郡"})
            if (at >= unit.size() && address.compare(at - unit.size(), unit.size(), unit) == 0) return true;
    }
    return false;
}

bool floor_word(const std::string& w) {
    static const std::regex kFloor(R"([0-9]{1,2}(F|階))");
    return std::regex_match(w, kFloor);
}

}  // namespace

bool printed_building_line(const std::string& line, bool* with_floor) {
    std::vector<std::string> words = space_words(collapse_whitespace(fold_fullwidth(sanitize_utf8(line))));
    const bool floor = words.size() >= 2 && floor_word(words.back());
    if (floor) words.pop_back();
    if (with_floor) *with_floor = floor;
    if (words.empty()) return false;
    const std::u32string body = to_u32(words.back());
    for (const std::u32string& word : building_words())
        if (body.size() > word.size() && body.compare(body.size() - word.size(), word.size(), word) == 0)
            return has_cjk(to_utf8(body.substr(0, body.size() - word.size())));
    return false;
}

bool floor_line(const std::string& line) {
    return floor_word(strip_spaces(fold_fullwidth(sanitize_utf8(line))));
}

std::optional<std::string> address_with_printed_building(const std::string& text, const std::string& address) try {
    static const std::regex kGluedFloor(R"((.*[^0-9])([0-9]{1,2}(?:F|階)))");
    const std::vector<std::string> model = space_words(collapse_whitespace(sanitize_utf8(address)));
    for (const std::string& raw : first_lines(text, kBuildingLines, kMaxLineBytes)) {
        // The line: a place and a building word as its last word, then a floor if printed.
        std::vector<std::string> words = space_words(collapse_whitespace(fold_fullwidth(sanitize_utf8(raw))));
        if (words.empty()) continue;
        std::string floor;
        if (words.size() >= 2 && floor_word(words.back())) {
            floor = words.back();
            words.pop_back();
        } else if (std::smatch m; std::regex_match(words.back(), m, kGluedFloor) && has_cjk(m[1].str())) {
            floor = m[2].str();  // OCR dropped the space before the floor ("錦ハイ7F")
            words.back() = m[1].str();
        }
        const std::u32string body = to_u32(words.back());
        for (const std::u32string& word : building_words()) {
            const size_t n = damaged_suffix(body, word);
            if (n == 0) continue;
            std::u32string place = body.substr(0, body.size() - n);
            // A look-alike right before 条 reads as its digit ("南Z条西" for 南2条西: a Sapporo block number).
            for (size_t c = 0; c + 1 < place.size(); ++c)
                if (place[c + 1] == U'条' && place[c] < 0x80 && confusion_digit(char(place[c])))
                    place[c] = char32_t(confusion_digit(char(place[c])));
            if (place.empty() || !has_cjk(to_utf8(place))) break;
            const std::string building = to_utf8(place + word);
            const std::string place8 = to_utf8(place);
            const std::string printed = building + (floor.empty() ? "" : " " + floor);
            // The model's address with its word i (and the floor after it) as the printed line; the model's floor
            // stays where the line prints none.
            auto with_printed_building = [&](size_t i) {
                const bool has_floor = i + 1 < model.size() && floor_word(model[i + 1]);
                const std::string line = floor.empty() && has_floor ? building + " " + model[i + 1] : printed;
                std::string out;
                for (size_t k = 0; k < model.size(); ++k) {
                    if (k == i + 1 && has_floor) continue;
                    out += (out.empty() ? "" : " ") + (k == i ? line : model[k]);
                }
                return out;
            };
            // The model's word of that place, and its floor.
            for (size_t i = 0; i < model.size(); ++i) {
                if (model[i].size() <= place8.size() || model[i].compare(0, place8.size(), place8) != 0) continue;
                const std::string rest = model[i].substr(place8.size());
                if (!has_cjk(rest) || has_ascii_digit(rest)) continue;  // a house number ("6丁目9番7号"), not a building
                // The building line lost the last character of its place, which the model kept: the place with it
                // is printed before a house number ("大通第一ビル" under "大通西6-23-29": 大通西第一ビル stands).
                if (const std::u32string r = to_u32(rest); r.size() == word.size() + 1 && r.substr(1) == word &&
                                                           place_before_number(text, place8 + to_utf8(r.substr(0, 1))))
                    return std::nullopt;
                const bool has_floor = i + 1 < model.size() && floor_word(model[i + 1]);
                const std::string wrote = model[i] + (has_floor ? " " + model[i + 1] : "");
                if (wrote == printed || (floor.empty() && model[i] == building)) return std::nullopt;
                return with_printed_building(i);
            }
            // The model wrote the building word after another place ("富士見ハイツ 3F" for the printed "浅野ハイツ
            // 3F"): the printed building, when the whole word was printed and the address holds the printed place
            // before its house number ("...浅野5-15-2").
            if (n != word.size() || !town_before_number(address, place8)) break;
            const std::string word8 = to_utf8(word);
            for (size_t i = 0; i < model.size(); ++i) {
                if (model[i].size() <= word8.size() || model[i].compare(model[i].size() - word8.size(),
                                                                         word8.size(), word8) != 0 ||
                    !has_cjk(model[i].substr(0, model[i].size() - word8.size())) || has_ascii_digit(model[i]) ||
                    model[i].find(place8) != std::string::npos)
                    continue;
                return with_printed_building(i);
            }
            break;
        }
    }
    return std::nullopt;
} catch (...) {
    return std::nullopt;  // std::regex giving up: the address as the model wrote it
}

}  // namespace receipt::extract
