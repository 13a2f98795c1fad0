// The place of a store's branch spelled as its address prints it (extract/branch_place.h).
#include "extract/branch_place.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "extract/kana_lookalikes.h"
#include "extract/name_constraint.h"
#include "extract/utf8.h"

namespace receipt::extract {

bool japanese_address_unit(uint32_t c) {
    for (const uint32_t d : {0x90FDu, 0x9053u, 0x5E9Cu, 0x770Cu, 0x5E02u, 0x533Au, 0x90E1u, 0x6751u})
        if (c == d) return true;
    return false;
}

namespace {

// True for the code point of an ASCII digit.
bool ascii_digit(uint32_t c) { return c >= '0' && c <= '9'; }

// True when `hay` holds `needle` (code points) starting at `at`.
bool matches_at(const std::vector<uint32_t>& hay, size_t at, const std::vector<uint32_t>& needle) {
    if (at + needle.size() > hay.size()) return false;
    return std::equal(needle.begin(), needle.end(), hay.begin() + std::ptrdiff_t(at));
}

}  // namespace

std::optional<std::string> branch_place_from_address(const std::string& name, const std::string& address) {
    const std::string n = trim(sanitize_utf8(name));
    const size_t sp = n.rfind(' ');
    if (sp == std::string::npos) return std::nullopt;
    // Both are sanitised, so they decode.
    const std::vector<uint32_t> branch = code_points(n.substr(sp + 1)).value_or(std::vector<uint32_t>());
    const std::vector<uint32_t> addr = code_points(strip_spaces(sanitize_utf8(address))).value_or(std::vector<uint32_t>());
    if (branch.size() < 3 || addr.empty()) return std::nullopt;
    auto rebuilt = [&](const std::vector<uint32_t>& place, size_t from) {
        return n.substr(0, sp + 1) + utf8_of(place, 0, place.size()) + utf8_of(branch, from, branch.size());
    };
    // The branch with its first `len` characters spelled as the address span of len + 1 characters that is them with
    // one kanji or kana added inside, among the spans starting where `accept(at)` holds: the one such spelling;
    // `ambiguous` when two spans spell it differently.
    auto with_one_added = [&](size_t len, auto&& accept, bool& ambiguous) -> std::optional<std::string> {
        std::optional<size_t> found;
        for (size_t at = 0; at + len + 1 <= addr.size(); ++at) {
            if (!accept(at)) continue;
            for (size_t k = 1; k < len; ++k)  // the added character sits at span position k
                if (kanji_or_kana(addr[at + k]) &&
                    std::equal(branch.begin(), branch.begin() + std::ptrdiff_t(k), addr.begin() + std::ptrdiff_t(at)) &&
                    std::equal(branch.begin() + std::ptrdiff_t(k), branch.begin() + std::ptrdiff_t(len),
                               addr.begin() + std::ptrdiff_t(at + k + 1))) {
                    ambiguous |= found && utf8_of(addr, *found, *found + len + 1) != utf8_of(addr, at, at + len + 1);
                    found = at;
                    break;
                }
        }
        if (!found || ambiguous) return std::nullopt;
        return n.substr(0, sp + 1) + utf8_of(addr, *found, *found + len + 1) + utf8_of(branch, len, branch.size());
    };
    // OCR read a kanji of the place as its katakana look-alike ("ハ丁堀駅前店" with the address "...中区八丁堀7-31-6"):
    // the longest leading part (two characters or more) that, with the katakana next to a kanji read as the kanji
    // (ロ カ エ ニ ハ タ ト as 口 力 工 二 八 夕 卜), the address prints, where it does not print the part as written.
    {
        auto kanji = [](uint32_t c) { return c >= 0x4E00 && c <= 0x9FFF; };
        std::vector<uint32_t> read = branch;
        for (size_t i = 0; i < read.size(); ++i)
            if (const char32_t k = kanji_of_lookalike(char32_t(branch[i]));
                k && ((i > 0 && kanji(branch[i - 1])) || (i + 1 < branch.size() && kanji(branch[i + 1]))))
                read[i] = k;
        if (read != branch)
            for (size_t len = branch.size() - 1; len >= 2; --len) {
                const std::vector<uint32_t> part(read.begin(), read.begin() + std::ptrdiff_t(len));
                if (std::equal(part.begin(), part.end(), branch.begin())) break;  // no look-alike read in it
                bool printed = false, as_written = false;
                for (size_t at = 0; at + len <= addr.size(); ++at) {
                    printed |= matches_at(addr, at, part);
                    as_written |= std::equal(branch.begin(), branch.begin() + std::ptrdiff_t(len),
                                             addr.begin() + std::ptrdiff_t(at));
                }
                if (as_written) break;
                if (printed) return rebuilt(part, len);
            }
    }
    // OCR dropped a character of a city-and-ward place ("大阪北本店", "京都市京北口店" with the addresses
    // "大阪府大阪市北区...", "京都府京都市下京区..."): the longest leading part B (three characters or more) that the
    // address prints with one kanji or kana more inside it, as a span that starts the address or follows 都 道 府 県,
    // holds the city mark 市 and ends right before the ward mark 区; the one such spelling.
    auto prefecture_mark = [](uint32_t c) { return c == U'都' || c == U'道' || c == U'府' || c == U'県'; };
    for (size_t len = branch.size() - 1; len >= 3; --len) {
        auto city_and_ward = [&](size_t at) {
            return at + len + 2 <= addr.size() && addr[at + len + 1] == U'区' &&
                   (at == 0 || prefecture_mark(addr[at - 1])) &&
                   std::find(addr.begin() + std::ptrdiff_t(at), addr.begin() + std::ptrdiff_t(at + len + 1),
                             uint32_t(U'市')) != addr.begin() + std::ptrdiff_t(at + len + 1);
        };
        bool ambiguous = false;
        const std::optional<std::string> spelled = with_one_added(len, city_and_ward, ambiguous);
        if (ambiguous) return std::nullopt;
        if (spelled) return spelled;
    }
    // OCR dropped the first character of the place: a leading part B that the address prints as the end of a
    // place (one kanji or kana X, itself none of these marks, before it, right after 都 道 府 県 市 区 郡 村 or the
    // start, and a house number right after it: "魚町6-17-10" for the branch "町本店", "角田町3-5-10" for
    // "田町二丁目店"; or, B of two characters or more, the mark of a city or ward: "仙台市青葉区" for
    // "台市青葉駅東口店") is X B. Elsewhere the address may print B only after that same X (a building named after
    // the place: "一番町6丁目27番28号 一番町駅ビル" for "番町駅東口店"); a B printed with another kanji or kana
    // before it only, nowhere as a place's end, is left to a shorter B. Not when the address also prints B after
    // anything else ("新宿" in "東京都新宿区西新宿").
    {
        for (size_t len = branch.size() - 1; len >= 1; --len) {
            const std::vector<uint32_t> part(branch.begin(), branch.begin() + std::ptrdiff_t(len));
            std::optional<uint32_t> added;
            std::vector<uint32_t> inside;  // the characters before B where it is printed inside a word
            bool otherwise = false, several = false;
            for (size_t at = 0; at + len <= addr.size(); ++at) {
                if (!matches_at(addr, at, part)) continue;
                const bool after_kana = at >= 1 && kanji_or_kana(addr[at - 1]) && !japanese_address_unit(addr[at - 1]);
                // A place of one character ends at a ward or city mark too ("豊島区" for the branch "島中央店").
                const bool ends_place = at + len < addr.size() &&
                                        (ascii_digit(addr[at + len]) || (len >= 2 && japanese_address_unit(addr[at + len])) ||
                                         (len == 1 && (addr[at + len] == U'区' || addr[at + len] == U'市')));
                const bool place_end = after_kana && (at == 1 || japanese_address_unit(addr[at - 2])) && ends_place;
                if (!after_kana) {
                    otherwise = true;
                    break;
                }
                if (!place_end) {
                    inside.push_back(addr[at - 1]);
                    continue;
                }
                several |= added && *added != addr[at - 1];
                added = addr[at - 1];
            }
            if (otherwise) break;  // printed as it is: the checks below decide
            if (!added) continue;
            if (several || std::any_of(inside.begin(), inside.end(), [&](uint32_t c) { return c != *added; }))
                return std::nullopt;
            return n.substr(0, sp + 1) + utf8_of(std::vector<uint32_t>{*added}, 0, 1) + utf8_of(branch, 0, branch.size());
        }
    }
    // OCR dropped the last character of the place: a leading part B that the address prints only as the start of
    // a place (right after 都 道 府 県 市 区 郡 村 or the start) followed by one kanji or kana X (none of those marks)
    // and a house number ("日本橋3-27-29" for the branch "日本駅東口店", "呉服町1-4-24" for "呉服北口店"), or, B of
    // two characters or more, X and the mark of a ward or city ("川崎市中原区" for "川崎市中本店"), and never
    // followed by a house number itself, is B X; the longest such B, and one X only. A longer B that starts a place
    // of the address without such an X ends the search (the place is printed as written, "名古屋市" of
    // 名古屋市中村区).
    {
        for (size_t len = branch.size() - 1; len >= 1; --len) {
            const std::vector<uint32_t> part(branch.begin(), branch.begin() + std::ptrdiff_t(len));
            std::optional<uint32_t> added;
            bool whole = false, several = false, starts = false;
            for (size_t at = 0; at + len < addr.size(); ++at) {
                if (!matches_at(addr, at, part) || (at > 0 && !japanese_address_unit(addr[at - 1]))) continue;
                starts = true;
                whole |= ascii_digit(addr[at + len]);
                const uint32_t x = addr[at + len];
                if (kanji_or_kana(x) && !japanese_address_unit(x) && x != branch[len] && at + len + 1 < addr.size() &&
                    (ascii_digit(addr[at + len + 1]) || (len >= 2 && japanese_address_unit(addr[at + len + 1])))) {
                    several |= added && *added != x;
                    added = x;
                }
            }
            if (whole) break;  // the address prints the place as written
            if (!added && starts) break;  // a longer place starts with B ("名古屋市" of 名古屋市中村区): not B's
            if (!added) continue;
            if (several) return std::nullopt;
            return n.substr(0, sp + 1) + utf8_of(part, 0, len) + utf8_of(std::vector<uint32_t>{*added}, 0, 1) +
                   utf8_of(branch, len, branch.size());
        }
    }
    // OCR dropped a character inside a whole town of the address ("博多中央街南店" with "...博多区博多駅中央街2-32-16"
    // -> "博多駅中央街南店"): the longest leading part B of four characters or more that the address prints with one
    // kanji or kana more inside it, as a span that starts the address or follows 都 道 府 県 市 区 郡 村, holds none of
    // them and ends right before a house number; the one such spelling. Checked before a shorter part printed as it is
    // ("博多" of 博多区), which the whole town shows to be no place of the branch's own.
    for (size_t len = branch.size() - 1; len >= 4; --len) {
        auto whole_town = [&](size_t at) {
            // After a unit mark, before a house number, and no ward or city inside it ("千葉市中央区中央").
            return (at == 0 || japanese_address_unit(addr[at - 1])) && at + len + 1 < addr.size() &&
                   ascii_digit(addr[at + len + 1]) &&
                   std::none_of(addr.begin() + std::ptrdiff_t(at), addr.begin() + std::ptrdiff_t(at + len + 1),
                                japanese_address_unit);
        };
        bool ambiguous = false;
        const std::optional<std::string> spelled = with_one_added(len, whole_town, ambiguous);
        if (ambiguous) return std::nullopt;
        if (spelled) return spelled;
    }
    // A leading part the address prints as it is at the end of a place (before a house number, a mark of a ward
    // or city, or the address's end): the branch's place is printed as written ("千葉市中央中央店" with the address
    // "千葉県千葉市中央区中央7-2-18" names its place 千葉市中央, not 千葉市中央区). One printed inside a longer word
    // ("みな" of みなとみらい for "みなみらい二丁目店") is no place of its own.
    for (size_t len = 2; len < branch.size(); ++len) {
        const std::vector<uint32_t> part(branch.begin(), branch.begin() + std::ptrdiff_t(len));
        for (size_t at = 0; at + len <= addr.size(); ++at)
            if (matches_at(addr, at, part) &&
                (at + len == addr.size() || ascii_digit(addr[at + len]) || japanese_address_unit(addr[at + len])))
                return std::nullopt;
    }
    // Leading parts B of the branch, longest first (the whole branch less its last character, 店, at most), with one
    // character added inside them anywhere in the address.
    for (size_t len = branch.size() - 1; len >= 2; --len) {
        bool ambiguous = false;
        const std::optional<std::string> spelled = with_one_added(len, [](size_t) { return true; }, ambiguous);
        if (ambiguous) return std::nullopt;
        if (spelled) return spelled;
    }
    return std::nullopt;
}

}  // namespace receipt::extract
