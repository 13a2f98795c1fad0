// OCR look-alikes between katakana and kanji (extract/kana_lookalikes.h).
#include "extract/kana_lookalikes.h"

#include <cstdint>
#include <vector>

#include "extract/utf8.h"

namespace receipt::extract {

namespace {

struct Pair {
    char32_t kanji, kana;
};
// Kanji (or symbol) and the katakana it looks like.
constexpr Pair kPairs[] = {{U'一', U'ー'}, {U'卜', U'ト'}, {U'口', U'ロ'}, {U'力', U'カ'}, {U'工', U'エ'},
                           {U'二', U'ニ'}, {U'八', U'ハ'}, {U'夕', U'タ'}};

bool katakana(char32_t c) { return c >= 0x30A1 && c <= 0x30FA; }  // ァ..ヺ, without ー
bool kana_or_mark(char32_t c) { return katakana(c) || c == U'ー'; }
bool hiragana(char32_t c) { return c >= 0x3041 && c <= 0x3096; }  // ぁ..ゖ
bool kanji(char32_t c) { return (c >= 0x4E00 && c <= 0x9FFF) || (c >= 0x3400 && c <= 0x4DBF); }

}  // namespace

bool reads_as_katakana(char32_t printed, char32_t kana) {
    if (printed == kana) return true;
    if ((printed == U'-' || printed == U'－') && kana == U'ー') return true;
    for (const Pair& p : kPairs)
        if (printed == p.kanji && kana == p.kana) return true;
    return false;
}

char32_t kanji_of_lookalike(char32_t kana) {
    for (const Pair& p : kPairs)
        if (kana == p.kana && p.kana != U'ー') return p.kanji;
    return 0;
}

std::string fix_kana_lookalikes(const std::string& s) {
    std::optional<std::vector<uint32_t>> decoded = code_points(s);
    if (!decoded) return s;
    std::vector<uint32_t>& cs = *decoded;
    bool changed = false;
    for (size_t i = 0; i < cs.size(); ++i) {
        const char32_t prev = i ? cs[i - 1] : 0, next = i + 1 < cs.size() ? cs[i + 1] : 0;
        const char32_t c = cs[i];
        char32_t to = c;
        // Between two katakana only after a vowel sound: no word puts the long-vowel mark after ン, so the hyphen
        // of "セブン-イレブン" stays while "ジョ-シン" and "ミネラルウォ-ター" get theirs back.
        if ((c == U'-' || c == U'－') && kana_or_mark(prev) && (!katakana(next) || prev != U'ン')) {
            to = U'ー';
        } else if (c == U'ー' && !kana_or_mark(prev) && !hiragana(prev) && kanji(next)) {
            to = U'一';  // no kana sound before it to lengthen, a kanji after it: the numeral ("ー番町")
        } else {
            for (const Pair& p : kPairs) {
                if (c == p.kanji) {
                    const bool as_kana = p.kana == U'ー' ? kana_or_mark(prev) && !kanji(next)
                                                         : kana_or_mark(prev) || (!kanji(prev) && kana_or_mark(next));
                    if (as_kana) to = p.kana;
                } else if (c == p.kana && p.kana != U'ー' && kanji(prev) && kanji(next)) {
                    to = p.kanji;
                }
            }
        }
        if (to != c) cs[i] = to, changed = true;
    }
    return changed ? utf8_of(cs) : s;
}

}  // namespace receipt::extract
