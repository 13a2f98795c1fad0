// A Japanese address copied as printed (extract/japanese_address.h).
#include "extract/japanese_address.h"

#include <algorithm>
#include <vector>

#include "extract/kana_lookalikes.h"
#include "extract/name_constraint.h"
#include "extract/dropped_digit.h"
#include "extract/ocr_digits.h"
#include "extract/utf8.h"

namespace receipt::extract {

namespace {

bool digit(char c) { return c >= '0' && c <= '9'; }

// How the digits of an address may differ from the print in a match.
enum class Runs {
    kExact,    // not at all
    kDigits,   // a run of digits matches any run of digits ("5-27-5" / "5-25-7")
    kNumbers,  // a house number (digits joined by '-') matches any house number ("11-24" / "1-14-22")
    kPlace,    // digits exactly, and one or two kanji / kana in a row may be others ("国分町" / "一番町")
    kTown,     // digits exactly, and the town after a ward mark may be another town, none of its characters shared
               // ("西区高島2-35-21" / "西区みなとみらい2-35-21")
    kWard,     // digits exactly, and the ward and town after a city mark may be another ward and town
               // ("名古屋市中区大須1-11-21" / "名古屋市中村区椿町1-11-21")
};

constexpr size_t kMaxPlaceSubstitutions = 2;  // characters of a place word kPlace lets differ

// The code point of the 3-byte UTF-8 character at s[i] when it is a kanji or kana (kanji_or_kana), else 0.
char32_t cjk_at(const std::string& s, size_t i) {
    if (i + 3 > s.size() || (static_cast<unsigned char>(s[i]) & 0xF0) != 0xE0) return 0;
    const auto cps = code_points(s.substr(i, 3));
    return cps && cps->size() == 1 && kanji_or_kana((*cps)[0]) ? char32_t((*cps)[0]) : 0;
}

// The end of the run at s[i] (digits, or with kNumbers digits with single '-' between them).
size_t run_end(const std::string& s, size_t i, Runs runs) {
    while (i < s.size() && (digit(s[i]) ||
                            (runs == Runs::kNumbers && s[i] == '-' && i + 1 < s.size() && digit(s[i + 1]))))
        ++i;
    return i;
}

// The end offset in c.text of a match of `v` (spaces removed) starting at p, or npos. Digit runs match as `runs`
// says; `digits` counts the text's digits in the match.
size_t match_at(const CompactText& c, size_t p, const std::string& v, Runs runs, size_t& digits) {
    size_t i = p, k = 0;
    digits = 0;
    // kPlace: the characters substituted so far, and the offset in v right after the last one.
    size_t substituted = 0, last_sub = std::string::npos;
    while (k < v.size() && i < c.text.size()) {
        if ((runs == Runs::kDigits || runs == Runs::kNumbers) && digit(v[k]) && digit(c.text[i])) {
            k = run_end(v, k, runs);
            // The printed run ends at its word's end: the compact text joins "万代8-21-11" to the next line's "2F".
            size_t e = run_end(c.text, i, runs);
            for (size_t q = i + 1; q < e; ++q)
                if (c.word_start(q)) {
                    e = q;
                    break;
                }
            digits += size_t(std::count_if(c.text.begin() + std::ptrdiff_t(i), c.text.begin() + std::ptrdiff_t(e), digit));
            i = e;
            continue;
        }
        // kPlace: one run of at most kMaxPlaceSubstitutions kanji / kana differs, none an OCR look-alike of the
        // other (compared whole at their first byte: 北 and 南 share it).
        const char32_t a = runs == Runs::kPlace ? cjk_at(v, k) : 0, b = a ? cjk_at(c.text, i) : 0;
        if (a && b && a != b) {
            if (reads_as_katakana(a, b) || reads_as_katakana(b, a) || substituted == kMaxPlaceSubstitutions ||
                (substituted > 0 && last_sub != k))
                return std::string::npos;
            ++substituted;
            k += 3, i += 3;
            last_sub = k;
            continue;
        }
        // kTown: the kanji / kana run right after a ward or city mark, up to a house number on both sides, is
        // another town: two characters or more on each side and no character in common (a town OCR damaged keeps
        // most of its characters; the model wrote another town of the ward).
        if (runs == Runs::kTown && substituted == 0 && k >= 3 && (v.compare(k - 3, 3, "区") == 0 ||
                                                                  v.compare(k - 3, 3, "市") == 0) &&
            cjk_at(v, k) && cjk_at(c.text, i) && cjk_at(v, k) != cjk_at(c.text, i)) {
            std::u32string mine, theirs;
            size_t kv = k, ki = i;
            for (; cjk_at(v, kv); kv += 3) mine += cjk_at(v, kv);
            for (; cjk_at(c.text, ki); ki += 3) theirs += cjk_at(c.text, ki);
            const bool shared = std::any_of(mine.begin(), mine.end(),
                                            [&](char32_t x) { return theirs.find(x) != std::u32string::npos; });
            if (mine.size() < 2 || theirs.size() < 2 || shared || kv >= v.size() || !digit(v[kv]) ||
                ki >= c.text.size() || !digit(c.text[ki]))
                return std::string::npos;
            substituted = 1;
            k = kv, i = ki;
            continue;
        }
        // kWard: the kanji / kana run right after a city mark, up to a house number on both sides, is another
        // ward (区) with another town, no character of the towns shared: the model wrote another ward and town of
        // the city, and the city before and the house number after tell the printed line. (A ward or town that
        // OCR damaged keeps most of its characters: the model's reading of it stands.)
        if (runs == Runs::kWard && substituted == 0 && k >= 3 && v.compare(k - 3, 3, "市") == 0 && cjk_at(v, k) &&
            cjk_at(c.text, i)) {
            // The ward (up to its 区) and the town after it, of the model's run and of the printed one.
            auto split = [](const std::string& s, size_t from, size_t& end) {
                size_t ward = std::string::npos;
                for (end = from; cjk_at(s, end); end += 3)
                    if (ward == std::string::npos && end > from && s.compare(end, 3, "区") == 0) ward = end + 3;
                return ward;
            };
            size_t kv = 0, ki = 0;
            const size_t ward_v = split(v, k, kv), ward_t = split(c.text, i, ki);
            if (ward_v == std::string::npos || ward_t == std::string::npos || ward_v >= kv || ward_t >= ki ||
                kv >= v.size() || !digit(v[kv]) || ki >= c.text.size() || !digit(c.text[ki]) ||
                v.compare(k, ward_v - k, c.text, i, ward_t - i) == 0)
                return std::string::npos;
            for (size_t a = ward_v; a < kv; a += 3)
                for (size_t b = ward_t; b < ki; b += 3)
                    if (cjk_at(v, a) == cjk_at(c.text, b)) return std::string::npos;
            substituted = 1;
            k = kv, i = ki;
            continue;
        }
        if (v[k] != c.text[i]) return std::string::npos;
        digits += digit(c.text[i]);
        ++i, ++k;
    }
    return k == v.size() ? i : std::string::npos;
}

// A floor token at `i` of s: 1-2 ASCII digits, then "F" or "階", then the end or a space. Its length, or 0.
size_t floor_token(const std::string& s, size_t i) {
    size_t k = i;
    while (k < s.size() && k - i < 3 && digit(s[k])) ++k;
    if (k == i || k - i > 2) return 0;
    size_t end = 0;
    if (k < s.size() && s[k] == 'F') end = k + 1;
    else if (s.compare(k, 3, "階") == 0) end = k + 3;
    if (end == 0 || (end < s.size() && s[end] != ' ')) return 0;
    return end - i;
}

// `printed` with a space put back before each floor token that the model wrote spaced ("駅ビル 2F") and the OCR
// text joins to the word before it ("駅ビル2F"): OCR loses spaces now and then, and a floor follows its building
// after a space (the labels of every synthetic receipt; a building name never ends in a digit). Floor tokens are
// matched by their text, first to first.
std::string keep_floor_spaces(const std::string& model, std::string printed) {
    size_t from = 0;
    for (size_t i = 1; i < model.size(); ++i) {
        if (model[i - 1] != ' ' || (i >= 2 && (model[i - 2] == ' ' || digit(model[i - 2])))) continue;
        const size_t n = floor_token(model, i);
        if (n == 0) continue;
        const std::string tok = model.substr(i, n);
        for (size_t j = printed.find(tok, from); j != std::string::npos; j = printed.find(tok, j + 1)) {
            if (j == 0 || printed[j - 1] == ' ' || digit(printed[j - 1])) continue;
            if (floor_token(printed, j) != n) continue;
            printed = printed.substr(0, j) + " " + printed.substr(j);  // (insert() trips GCC 12's -Wrestrict)
            from = j + n + 1;
            break;
        }
    }
    return printed;
}

// `line` with the OCR look-alikes of digits inside a house number read as digits ("6-b-21" -> "6-6-21", "4-15-IS"
// -> "4-15-15", "三宮町Z丁目" -> "三宮町2丁目", "24番I号" -> "24番1号"): a look-alike with a digit, '-', 丁目, 番 or 号
// on its left (or any CJK character when 丁目 or 番, or a '-' and a digit follow: "名駅I-33-8") and a digit, a
// look-alike, '-', 丁目, 番, 号, a space or the line end on its right, not between two digits. Same length.
std::string read_house_number_confusions(std::string line) {
    auto at = [&](size_t i, const char* mark) { return line.compare(i, std::string(mark).size(), mark) == 0; };
    auto ends = [&](size_t i, const char* mark) {
        const size_t n = std::string(mark).size();
        return i >= n && line.compare(i - n, n, mark) == 0;
    };
    for (size_t i = 0; i < line.size(); ++i) {
        if (!confusion_digit(line[i])) continue;
        const size_t r = i + 1;
        const bool counter_after = at(r, "丁目") || at(r, "番");
        const bool right = r == line.size() || digit(line[r]) || confusion_digit(line[r]) || line[r] == '-' ||
                           line[r] == ' ' || counter_after || at(r, "号");
        const bool cjk_before = i > 0 && (static_cast<unsigned char>(line[i - 1]) & 0x80);
        // After a kanji or kana too when a '-' and a digit follow ("名駅I-33-8"): a house number's first digit.
        const bool dash_after = r + 1 < line.size() && line[r] == '-' && digit(line[r + 1]);
        const bool left = i > 0 && (digit(line[i - 1]) || line[i - 1] == '-' || ends(i, "丁目") || ends(i, "番") ||
                                    ends(i, "号") || (cjk_before && (counter_after || dash_after)));
        // Not between two digits: "6-7Z9" may be a hyphen lost as well ("6-7-29"), which the digit count misses.
        const bool between_digits = i > 0 && digit(line[i - 1]) && r < line.size() && digit(line[r]);
        if (left && right && !between_digits) line[i] = confusion_digit(line[i]);
    }
    return line;
}

// `line` with a 丁目 that lost one of its two characters between digits put back whole ("明神町2目35番12号",
// "池袋8丁33番3号" -> "2丁目35番", "8丁目33番"): a digit, then 目 or 丁 alone, then a digit.
std::string lost_chome_mark_restored(const std::string& line) {
    const size_t n = std::string("丁").size();  // 丁 and 目: three bytes each
    std::string out;
    for (size_t i = 0; i < line.size(); ++i) {
        const bool half = line.compare(i, n, "丁") == 0 || line.compare(i, n, "目") == 0;
        if (half && i > 0 && digit(line[i - 1]) && i + n < line.size() && digit(line[i + n])) {
            out += "丁目";
            i += n - 1;
        } else {
            out += line[i];
        }
    }
    return out;
}

// `text` with each line that holds a house number ("6-b-21", "2丁目", "9番3号") read by read_house_number_confusions
// and lost_chome_mark_restored.
std::string house_numbers_read(const std::string& text) {
    std::string out;
    bool first = true;
    for (std::string& line : split_lines(text)) {
        if (line.find("丁目") != std::string::npos || line.find("番") != std::string::npos ||
            line.find('-') != std::string::npos)
            line = lost_chome_mark_restored(read_house_number_confusions(line));
        if (!first) out += '\n';
        out += line;
        first = false;
    }
    return out;
}

}  // namespace

namespace {

// True when a run of digits of s is 0 or starts with 0 ("1-0-24", "5-07-3"): no house number is printed so.
bool zero_run(const std::string& s) {
    for (size_t i = 0; i < s.size(); ++i)
        if (s[i] == '0' && (i == 0 || !digit(s[i - 1]))) return true;
    return false;
}

// The printed text that `v` (spaces removed) matches from a printed word start to a word end, spaced as printed:
// as it is, else by digit runs, else by house numbers, each with at least as many digits printed (the place, town
// and ward passes too), else with one digit the model added. nullopt when none is printed.
std::optional<std::string> printed_match(const CompactText& c, const std::string& v) {
    const size_t want_digits = size_t(std::count_if(v.begin(), v.end(), digit));
    for (const Runs runs : {Runs::kExact, Runs::kDigits, Runs::kNumbers, Runs::kPlace, Runs::kTown, Runs::kWard}) {
        for (int p : c.word_starts) {
            size_t digits = 0;
            const size_t e = match_at(c, size_t(p), v, runs, digits);
            if (e == std::string::npos || (e < c.text.size() && !c.word_start(e))) continue;
            if (runs != Runs::kExact && digits < want_digits) continue;
            return c.spaced(size_t(p), e);
        }
    }
    // Else the print with one digit fewer in one run, the model's digits with that one left out ("3-30-13" for
    // the printed "3-30-1"): the model added it. It cannot restore a digit OCR lost from an address it never saw,
    // and on the development sets its extra digit was never the right one. Not where the print is no house number
    // ("1-0-24": no block or lot is 0 or starts with 0): OCR lost a digit there, and the model's guess stands.
    for (int p : c.word_starts) {
        size_t digits = 0;
        const size_t e = match_at(c, size_t(p), v, Runs::kDigits, digits);
        if (e == std::string::npos || (e < c.text.size() && !c.word_start(e)) || digits + 1 != want_digits) continue;
        const std::string printed = c.text.substr(size_t(p), e - size_t(p));
        if (one_digit_inserted(ascii_digits(printed), ascii_digits(v)) && !zero_run(printed))
            return c.spaced(size_t(p), e);
    }
    return std::nullopt;
}

// The model's address word `w` (spaces removed, a house number in it) with its town and house number as printed,
// where the print of the part before them differs ("愛知県名古屋市中区大須4-7-16" with the printed
// "愛知県名古市中区大須4-17-6" -> "愛知県名古屋市中区大須4-17-6": OCR dropped 屋, and the model swapped the house
// number's digits). The tail after the last ward or city mark (区 市 郡) before the first digit is matched as
// printed_match's digit passes do (runs of digits, then house numbers, at least as many digits printed), right
// after the same mark with the same character before it ("中区"), up to a printed word end; the part before the
// tail stays the model's. nullopt when no such tail is printed, or it is printed as the model wrote it.
std::optional<std::string> tail_as_printed(const CompactText& c, const std::string& w) {
    const size_t first_digit = size_t(std::find_if(w.begin(), w.end(), digit) - w.begin());
    size_t mark = std::string::npos;  // byte offset of the last mark before the first digit
    for (const char* m : {"区", "市", "郡"})
        if (const size_t at = w.rfind(m, first_digit); at != std::string::npos && at + 3 <= first_digit &&
                                                       (mark == std::string::npos || at > mark))
            mark = at;
    if (mark == std::string::npos || mark < 3 || first_digit == w.size()) return std::nullopt;
    const std::string before = w.substr(mark - 3, 6);  // the mark and the character before it
    const std::string tail = w.substr(mark + 3);
    if (tail.empty() || !cjk_at(tail, 0)) return std::nullopt;  // a town before the house number
    const size_t want_digits = size_t(std::count_if(tail.begin(), tail.end(), digit));
    for (const Runs runs : {Runs::kDigits, Runs::kNumbers})
        for (size_t p = before.size(); p < c.text.size(); ++p) {
            if (c.text.compare(p - before.size(), before.size(), before) != 0) continue;
            size_t digits = 0;
            const size_t e = match_at(c, p, tail, runs, digits);
            if (e == std::string::npos || (e < c.text.size() && !c.word_start(e)) || digits < want_digits) continue;
            const std::string printed = c.spaced(p, e);
            if (printed == tail) return std::nullopt;
            return w.substr(0, mark + 3) + printed;
        }
    return std::nullopt;
}

// `a` with each of its space-separated words that `replace` gives another spelling for so spelled; nullopt when it
// gives none.
template <class Replace>
std::optional<std::string> words_replaced(const std::string& a, Replace&& replace) {
    std::string joined;
    bool changed = false;
    for (size_t i = 0; i <= a.size();) {
        const size_t j = std::min(a.find(' ', i), a.size());
        std::string word = a.substr(i, j - i);
        if (auto w = replace(word)) {
            word = *w;
            changed = true;
        }
        joined += (joined.empty() ? "" : " ") + word;
        i = j + 1;
    }
    return changed ? std::optional<std::string>(joined) : std::nullopt;
}

}  // namespace

std::optional<std::string> address_as_printed(const std::string& text, const std::string& address) {
    const std::string a = trim(sanitize_utf8(address));
    const std::string v = strip_spaces(a);
    if (v.empty()) return std::nullopt;
    const CompactText c = compact_text(house_numbers_read(sanitize_utf8(text)));
    std::optional<std::string> out = printed_match(c, v);
    // Not printed as one span (OCR put the address lines out of order: "南2条西3丁目4番18号" /
    // "北海道札幌市中央区"): each of the model's words that holds a digit and a kanji or kana, matched on its own.
    if (!out && a.find(' ') != std::string::npos)
        out = words_replaced(a, [&](const std::string& word) -> std::optional<std::string> {
            // A word with a digit (not a bare floor: "1F"), or a building of four characters or more.
            const auto cps = code_points(word);
            if (!has_cjk(word) || !(std::any_of(word.begin(), word.end(), digit) || (cps && cps->size() >= 4)))
                return std::nullopt;
            auto w = printed_match(c, word);
            return w && w->find(' ') == std::string::npos && *w != word ? w : std::nullopt;
        });
    // Nor word by word: the town and house number of a word, printed after a ward or city mark whose place
    // before it OCR damaged (tail_as_printed).
    if (!out)
        out = words_replaced(a, [&](const std::string& word) -> std::optional<std::string> {
            if (!has_cjk(word) || std::none_of(word.begin(), word.end(), digit)) return std::nullopt;
            return tail_as_printed(c, word);
        });
    if (!out) return std::nullopt;
    std::string spaced = keep_floor_spaces(a, *out);
    if (spaced == a) return std::nullopt;
    return spaced;
}

}  // namespace receipt::extract
