// OCR look-alikes between katakana and kanji (extract/kana_lookalikes.h).
#include "extract/kana_lookalikes.h"

#include <cstdint>
#include <vector>

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
bool kanji(char32_t c) { return (c >= 0x4E00 && c <= 0x9FFF) || (c >= 0x3400 && c <= 0x4DBF); }

// UTF-8 to code points; false on invalid input.
bool decode(const std::string& s, std::vector<char32_t>& out) {
    for (size_t i = 0; i < s.size();) {
        const auto b = static_cast<unsigned char>(s[i]);
        const int n = b < 0x80 ? 1 : (b >> 5) == 6 ? 2 : (b >> 4) == 14 ? 3 : (b >> 3) == 30 ? 4 : 0;
        if (!n || i + size_t(n) > s.size()) return false;
        char32_t c = n == 1 ? b : n == 2 ? (b & 0x1F) : n == 3 ? (b & 0x0F) : (b & 0x07);
        for (int k = 1; k < n; ++k) {
            const auto cb = static_cast<unsigned char>(s[i + size_t(k)]);
            if ((cb & 0xC0) != 0x80) return false;
            c = (c << 6) | (cb & 0x3F);
        }
        out.push_back(c);
        i += size_t(n);
    }
    return true;
}

void encode(char32_t c, std::string& out) {
    if (c < 0x80) {
        out += static_cast<char>(c);
    } else if (c < 0x800) {
        out += static_cast<char>(0xC0 | (c >> 6));
        out += static_cast<char>(0x80 | (c & 0x3F));
    } else if (c < 0x10000) {
        out += static_cast<char>(0xE0 | (c >> 12));
        out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (c & 0x3F));
    } else {
        out += static_cast<char>(0xF0 | (c >> 18));
        out += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
        out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (c & 0x3F));
    }
}

}  // namespace

std::string fix_kana_lookalikes(const std::string& s) {
    std::vector<char32_t> cs;
    if (!decode(s, cs)) return s;
    bool changed = false;
    for (size_t i = 0; i < cs.size(); ++i) {
        const char32_t prev = i ? cs[i - 1] : 0, next = i + 1 < cs.size() ? cs[i + 1] : 0;
        const char32_t c = cs[i];
        char32_t to = c;
        if ((c == U'-' || c == U'－') && kana_or_mark(prev) && !katakana(next)) {
            to = U'ー';
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
    if (!changed) return s;
    std::string out;
    out.reserve(s.size());
    for (char32_t c : cs) encode(c, out);
    return out;
}

}  // namespace receipt::extract
