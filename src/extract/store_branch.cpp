// Store name + branch line (extract/store_branch.h).
#include "extract/store_branch.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <regex>
#include <vector>

#include "extract/branch_place.h"
#include "extract/date_evidence.h"
#include "extract/kana_lookalikes.h"
#include "extract/name_constraint.h"
#include "extract/normalize_phone.h"
#include "extract/ocr_digits.h"
#include "extract/unprinted_items.h"
#include "extract/utf8.h"

namespace receipt::extract {

namespace {

// The words that name a branch after its place (駅前店, 東口店, 中央店, 本店, 二丁目店, ショッピングセンター店).
constexpr const char* kBranchWords[] = {"ショッピングセンター", "駅", "前", "口", "東", "西", "南", "北", "中央", "本",
                                        "丁目", "一", "二", "三", "四", "五", "六", "七", "八", "九", "十"};

bool ends_with(const std::string& s, const std::string& suffix) {
    return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// Whether `word` (no spaces) is printed on one of the first `max_lines` lines of `text`, read without spaces and
// with full-width forms folded.
bool printed_in_lines(const std::string& text, const std::string& word, int max_lines) {
    for (const std::string& line : first_lines(text, size_t(std::max(max_lines, 0))))
        if (strip_spaces(fold_fullwidth(line)).find(word) != std::string::npos) return true;
    return false;
}

// Code points of a valid UTF-8 string.
int utf8_chars(const std::string& s) {
    int n = 0;
    for (unsigned char c : s) n += (c & 0xC0) != 0x80;
    return n;
}

// True when `shorter` is `longer` with one or two of its characters lost (in order, two characters left at least).
bool chars_lost(const std::string& shorter, const std::string& longer) {
    const auto s = code_points(shorter), l = code_points(longer);
    if (!s || !l || s->size() < 2 || s->size() >= l->size() || l->size() - s->size() > 2) return false;
    size_t j = 0;
    for (size_t i = 0; i < l->size() && j < s->size(); ++i) j += (*l)[i] == (*s)[j];
    return j == s->size();
}

// True when `line` (spaces aside) is a branch line that lost its 店 to OCR: kanji and kana only (2 to kMaxBranchChars
// characters), a place that `address` (spaces aside) prints, at least its first two characters, followed only by the
// words that name a branch after its place (駅, 前, 口, 東西南北, 中央, 本, 丁目 with a kanji number,
// ショッピングセンター, also with one or two of its characters lost), not ending in an address unit (都 道 府 県 市 区
// 町 村 郡), and no company line.
bool branch_without_mark(const std::string& line, const std::string& address) {
    const std::optional<std::vector<uint32_t>> cps = code_points(line);
    if (!cps || cps->size() < 2 || cps->size() > size_t(kMaxBranchChars) || address.empty() ||
        japanese_company_line(line))
        return false;
    for (uint32_t c : *cps)
        if (!((c >= 0x3041 && c <= 0x30FF) || (c >= 0x4E00 && c <= 0x9FFF))) return false;  // kana, kanji
    for (const char* unit : {"都", "道", "府", "県", "市", "区", "町", "村", "郡", "店"})
        if (ends_with(line, unit)) return false;
    // The longest leading part (two characters or more) that the address prints: the place.
    size_t place = 0;
    for (size_t n = 2; n <= cps->size(); ++n)
        if (address.find(utf8_of(*cps, 0, n)) != std::string::npos)
            place = n;
    // A place of one character ("栄" of "栄中央") only where the address prints it as a whole place: right after
    // a ward, city or town mark and before a house number ("...名古屋市中区栄3-23-14").
    if (place == 0) {
        const std::string one = utf8_of(*cps, 0, 1);
        for (const char* unit : {"区", "市", "町", "村", "郡"}) {
            const std::string at = std::string(unit) + one;
            for (size_t i = address.find(at); i != std::string::npos; i = address.find(at, i + 1)) {
                const size_t after = i + at.size();
                if (after < address.size() && std::isdigit(static_cast<unsigned char>(address[after]))) place = 1;
            }
        }
    }
    if (place == 0) return false;
    std::string rest = utf8_of(*cps, place);
    for (bool again = true; again && !rest.empty();) {
        again = false;
        for (const char* w : kBranchWords)
            if (rest.rfind(w, 0) == 0) {
                rest = rest.substr(std::string(w).size());
                again = true;
                break;
            }
    }
    // ... or a ショッピングセンター that lost one or two characters as well ("新町ショッピングンター").
    return rest.empty() || chars_lost(rest, "ショッピングセンター");
}

}  // namespace

std::optional<std::string> name_with_branch(const std::string& text, const std::string& name, int max_lines,
                                            const std::string& address) {
    const std::string want = strip_spaces(fold_fullwidth(sanitize_utf8(name)));
    if (want.empty() || ends_with(want, "店")) return std::nullopt;
    // The branch written after the chain, its 店 lost ("コスモス薬品 新宿本"): 店 put back.
    if (const std::string n = trim(fold_fullwidth(sanitize_utf8(name))); n.rfind(' ') != std::string::npos)
        if (branch_without_mark(n.substr(n.rfind(' ') + 1), strip_spaces(fold_fullwidth(sanitize_utf8(address)))))
            return n + "店";
    std::vector<std::string> lines = first_lines(text, size_t(std::max(max_lines, 0)) + 1);
    for (std::string& line : lines) line = trim(fold_fullwidth(line));
    auto is_branch = [](const std::string& b) {
        const int n = utf8_chars(b);
        return ends_with(b, "店") && n >= 2 && n <= kMaxBranchChars && b.find("〒") == std::string::npos &&
               ascii_lower(b).find("tel") == std::string::npos && b.find("電話") == std::string::npos;
    };
    const std::string addr = strip_spaces(fold_fullwidth(sanitize_utf8(address)));
    for (size_t k = 0; k < lines.size() && int(k) < max_lines; ++k) {
        // The branch printed after the chain on the same line, one space between ("サミット 芝浦店"); also after
        // the chain with one or two characters lost to OCR, which the model wrote whole, and with the branch's 店
        // lost ("ビックカラ 中央" for "ビックカメラ", address "千葉県千葉市中央区中央4-30-1").
        const size_t sp = lines[k].rfind(' ');
        if (sp == std::string::npos) continue;
        const std::string chain = strip_spaces(lines[k].substr(0, sp));
        const std::string branch = trim(lines[k].substr(sp + 1));
        if (chain == want && is_branch(branch)) return trim(name) + " " + branch;
        // The chain whole and its branch without 店 ("エディオン 京都市下京中央").
        if (chain == want && branch_without_mark(branch, addr)) return trim(name) + " " + branch + "店";
        if (chars_lost(chain, want)) {
            if (is_branch(branch)) return trim(name) + " " + branch;
            if (branch_without_mark(branch, addr)) return trim(name) + " " + branch + "店";
        }
    }
    auto in_address = [&](const std::string& line) {
        std::string l = strip_spaces(line);
        // The address leaves out the postcode ("〒150-2574 東京都渋谷区...", also with OCR's look-alikes of digits
        // in it: "〒16O-3D07東京都新宿区...").
        if (l.rfind("〒", 0) == 0) {
            static const std::string kLongMark = "ー";  // the dash as OCR reads it ("〒330ー7185")
            size_t e = std::string("〒").size();
            while (e < l.size()) {
                if (std::isdigit(static_cast<unsigned char>(l[e])) || l[e] == '-' || confusion_digit(l[e])) ++e;
                else if (l.compare(e, kLongMark.size(), kLongMark) == 0) e += kLongMark.size();
                else break;
            }
            l = l.substr(e);
        }
        return !addr.empty() && !l.empty() && addr.find(l) != std::string::npos;
    };
    // A postcode alone ("〒530-5964", "530-5964": OCR may drop the mark, or read the dash as ー).
    auto postcode_line = [](const std::string& line) {
        std::string l = fold_dashes(strip_spaces(line), true);
        if (l.rfind("〒", 0) == 0) l = l.substr(std::string("〒").size());
        return l.size() == 8 && l[3] == '-' &&
               std::all_of(l.begin(), l.end(), [](char c) { return c == '-' || std::isdigit(static_cast<unsigned char>(c)); });
    };
    for (size_t k = 0; k + 1 < lines.size() && int(k) < max_lines; ++k) {
        // The chain on line k, or over lines k and k + 1 ("スターバックス" / "コーヒー" / "栄中央店").
        size_t e = k;
        if (strip_spaces(lines[k]) != want) {
            if (k + 2 >= lines.size() || strip_spaces(lines[k] + lines[k + 1]) != want) continue;
            e = k + 1;
        }
        size_t b = e + 1;
        while (b + 1 < lines.size() && int(b) <= max_lines &&
               (in_address(lines[b]) || postcode_line(lines[b]) || japanese_company_line(lines[b])))
            ++b;  // address, postcode and company lines between
        const std::string& branch = lines[b];
        if (is_branch(branch)) return trim(name) + " " + branch;
        // OCR put the branch box above the chain, as the receipt's first line ("川崎市中原中央店" / "ローソン").
        if (k == 1 && is_branch(lines[0])) return trim(name) + " " + lines[0];
        // OCR dropped the branch's 店 ("丸亀製麺" / "西新宿南" / "〒160-4545 東京都新宿区" / "西新宿7-15-18").
        if (e + 1 < lines.size() && branch_without_mark(strip_spaces(lines[e + 1]), addr))
            return trim(name) + " " + strip_spaces(lines[e + 1]) + "店";
        return std::nullopt;
    }
    return std::nullopt;
}

bool japanese_company_line(const std::string& line) {
    for (const char* k : {"株式会社", "有限会社", "合同会社", "(株)", "(有)", "（株）", "（有）", "㈱", "㈲"})
        if (line.find(k) != std::string::npos) return true;
    return false;
}

std::optional<std::string> name_without_run_on(const std::string& name, const std::string& address) {
    const std::string n = trim(sanitize_utf8(name));
    const size_t sp = n.find(' ');
    if (sp == std::string::npos) return std::nullopt;
    const std::string chain = n.substr(0, sp), tail = trim(n.substr(sp + 1));
    if (japanese_company_line(chain) || !has_cjk(chain)) return std::nullopt;
    const std::string t = strip_spaces(fold_fullwidth(tail));
    const std::string a = strip_spaces(fold_fullwidth(sanitize_utf8(address)));
    const bool company = japanese_company_line(tail);
    const bool in_address = has_ascii_digit(t) && !a.empty() && a.find(t) != std::string::npos;
    if (!company && !in_address) return std::nullopt;
    return chain;
}

std::optional<std::string> name_without_address_words(const std::string& name, const std::string& address) {
    const std::vector<std::string> words = space_words(collapse_whitespace(sanitize_utf8(name)));
    if (words.size() < 2 || !has_cjk(words.front())) return std::nullopt;
    const std::string a = strip_spaces(fold_fullwidth(sanitize_utf8(address)));
    auto address_word = [&](const std::string& w) {
        if (w.rfind("〒", 0) == 0) return true;  // a postcode
        if (a.empty() || ends_with(w, "店") || a.find(fold_fullwidth(w)) == std::string::npos) return false;
        const auto cps = code_points(w);  // naming a prefecture, city, ward or town
        return cps && std::any_of(cps->begin(), cps->end(),
                                  [](uint32_t c) { return japanese_address_unit(c) || c == U'町'; });
    };
    std::string out = words.front();
    bool dropped = false;
    for (size_t i = 1; i < words.size(); ++i) {
        if (address_word(words[i])) {
            dropped = true;
            continue;
        }
        out += " " + words[i];
    }
    return dropped ? std::optional<std::string>(out) : std::nullopt;
}

std::optional<std::string> branch_for_chain_with_mark(const std::string& text, const std::string& name, int max_lines,
                                                      const std::string& address) {
    const std::string n = trim(sanitize_utf8(name));
    const std::string want = strip_spaces(fold_fullwidth(n));
    if (n.find(' ') != std::string::npos || !ends_with(want, "店") || utf8_chars(want) < 3 ||
        printed_in_lines(text, want, max_lines))
        return std::nullopt;
    const std::string chain = want.substr(0, want.size() - std::string("店").size());
    return name_with_branch(text, chain, max_lines, address);
}

std::optional<std::string> chain_run_past_final_n(const std::string& text, const std::string& name, int max_lines) {
    const std::string n = trim(sanitize_utf8(name));
    const size_t sp = std::min(n.find(' '), n.size());
    const auto word = code_points(n.substr(0, sp));
    if (!word || word->size() < 4 || (*word)[word->size() - 2] != U'ン') return std::nullopt;
    const std::string cut = utf8_of(*word, 0, word->size() - 1);
    bool cut_printed = false;
    for (const std::string& line : first_lines(text, size_t(std::max(max_lines, 0)))) {
        for (const std::string& w : space_words(fold_fullwidth(sanitize_utf8(line)))) {
            if (w == n.substr(0, sp)) return std::nullopt;  // the whole word is printed
            cut_printed = cut_printed || w == cut;
        }
    }
    if (!cut_printed) return std::nullopt;
    return cut + n.substr(sp);
}

namespace {

// A line that can name a chain: no digit, no postcode or phone label, no company form, no document title; no
// branch (店) unless `branch_ok`.
bool chain_like_line(const std::string& line, bool branch_ok = false) {
    const std::string l = strip_spaces(fold_fullwidth(line));
    if (l.empty() || has_ascii_digit(l) || japanese_company_line(l) || (!branch_ok && l.find("店") != std::string::npos))
        return false;
    for (const char* k : {"〒", "電話", "☎", "登録番号", "領収書", "レシート", "お買上明細", "明細"})
        if (l.find(k) != std::string::npos) return false;
    return ascii_lower(l).find("tel") == std::string::npos;
}

}  // namespace

std::optional<std::string> chain_before_branch(const std::string& text, const std::string& name, int max_lines) {
    const std::string want = strip_spaces(fold_fullwidth(sanitize_utf8(name)));
    if (want.empty() || !ends_with(want, "店") || trim(name).find(' ') != std::string::npos) return std::nullopt;
    std::vector<std::string> lines = first_lines(text, size_t(std::max(max_lines, 0)));
    for (std::string& line : lines) line = trim(fold_fullwidth(line));
    for (size_t k = 0; k < lines.size(); ++k) {
        const size_t sp = lines[k].rfind(' ');
        if (sp != std::string::npos && strip_spaces(lines[k].substr(sp + 1)) == want) {
            const std::string chain = trim(lines[k].substr(0, sp));
            return chain_like_line(chain) ? std::optional<std::string>(chain + " " + trim(name)) : std::nullopt;
        }
        if (strip_spaces(lines[k]) == want) {
            if (k > 0) return chain_like_line(lines[k - 1]) ? std::optional<std::string>(lines[k - 1] + " " + trim(name))
                                                            : std::nullopt;
            // The receipt's first line: OCR moved the branch's box above the chain ("用賀ショッピングセンター店" /
            // "CoCo壱番屋").
            if (lines.size() < 2 || !chain_like_line(lines[1])) return std::nullopt;
            for (const char* mark : {"都", "道", "府", "県", "市", "区", "町", "村"})  // a place line ("千葉県")
                if (lines[1].find(mark) != std::string::npos) return std::nullopt;
            return lines[1] + " " + trim(name);
        }
    }
    return std::nullopt;
}

std::optional<std::string> printed_chain_of_branch(const std::string& text, const std::string& name, int max_lines) {
    const std::string n = trim(sanitize_utf8(name));
    const size_t sp = n.find(' ');
    if (sp == std::string::npos || !has_cjk(n.substr(0, sp))) return std::nullopt;
    const std::string chain = strip_spaces(fold_fullwidth(n.substr(0, sp)));
    for (const std::string& line : first_lines(text, size_t(std::max(max_lines, 0)))) {
        const std::string l = strip_spaces(fold_fullwidth(sanitize_utf8(line)));
        if (l.find(chain) != std::string::npos || fix_kana_lookalikes(l).find(chain) != std::string::npos)
            return std::nullopt;
    }
    const auto printed = chain_before_branch(text, n.substr(n.rfind(' ') + 1), max_lines);
    if (!printed || strip_spaces(*printed).find(chain) != std::string::npos) return std::nullopt;
    return printed;
}

std::optional<std::string> japanese_header_name_line(const std::string& text, int max_lines) {
    for (std::string line : first_lines(text, size_t(std::max(max_lines, 0)))) {
        line = trim(fold_fullwidth(line));
        if (prints_date_like(line)) break;  // the body starts: a receipt whose header was cut off names no store
        if (starts_with_body_label(line)) continue;
        if (has_cjk(line) && chain_like_line(line, true)) return line;
    }
    return std::nullopt;
}

std::optional<std::string> branch_word_restored(const std::string& name) {
    const std::string n = trim(sanitize_utf8(name));
    const size_t sp = n.rfind(' ');
    if (sp == std::string::npos || !ends_with(n, "店")) return std::nullopt;
    const size_t mark = std::string("店").size();
    const std::optional<std::vector<uint32_t>> cps = code_points(n.substr(sp + 1, n.size() - sp - 1 - mark));
    if (!cps || cps->size() < 2) return std::nullopt;
    const std::vector<uint32_t>& b = *cps;  // the branch without its 店
    const std::string head = n.substr(0, sp + 1);
    // 中央 that lost its 中: "央" ends the branch after a place of two characters or more.
    if (b.back() == 0x592E && b.size() >= 3 && b[b.size() - 2] != 0x4E2D)  // 央, 中
        return head + utf8_of(b, 0, b.size() - 1) + "中央店";
    const std::vector<uint32_t> word = code_points("ショッピングセンター").value_or(std::vector<uint32_t>());
    if (b.size() >= word.size() && std::equal(word.begin(), word.end(), b.end() - std::ptrdiff_t(word.size())))
        return std::nullopt;  // spelled whole
    // A suffix of the branch of |word| - 0, 1 or 2 characters that is `word` with those characters dropped (a
    // subsequence of it that starts within its first three and ends at its end), after a place of two or more;
    // its characters may be OCR's look-alikes of the katakana ("センタ一店": 一 for ー, which the kana reading
    // leaves before a kanji).
    for (size_t drop = 0; drop <= 2; ++drop) {
        const size_t len = word.size() - drop;
        if (b.size() < len + 2) continue;
        const size_t from = b.size() - len;
        size_t m = 0, first = word.size();
        for (size_t w = 0; w < word.size() && m < len; ++w)
            if (reads_as_katakana(b[from + m], word[w])) {
                if (m == 0) first = w;
                ++m;
            }
        if (m == len && first <= 2 && reads_as_katakana(b.back(), word.back()))
            return head + utf8_of(b, 0, from) + utf8_of(word, 0, word.size()) + "店";
    }
    return std::nullopt;
}

std::optional<std::string> name_spaced_as_printed(const std::string& text, const std::string& name, int max_lines) {
    const std::string n = trim(sanitize_utf8(name));
    if (n.empty() || n.find(' ') != std::string::npos || n.find("\xE3\x80\x80") != std::string::npos)
        return std::nullopt;
    const CompactText c = compact_text(text);
    const auto span = printed_span(c, n, std::max(max_lines, 1));
    if (!span) return std::nullopt;
    std::string out = c.spaced(span->first, span->second);
    if (out == n) return std::nullopt;  // printed as one word
    return out;
}

std::optional<std::string> name_split_at_branch_place(const std::string& text, const std::string& name,
                                                      const std::string& address, int max_lines) {
    const std::string n = trim(fold_fullwidth(sanitize_utf8(name)));
    const std::string a = strip_spaces(fold_fullwidth(sanitize_utf8(address)));
    if (n.find(' ') != std::string::npos || !ends_with(n, "店") || a.empty() || !has_cjk(n) ||
        !printed_in_lines(text, n, max_lines))  // printed as one word
        return std::nullopt;
    const auto cps = code_points(n);
    if (!cps || cps->size() < 5) return std::nullopt;
    auto in_address = [&](size_t begin, size_t end) { return a.find(utf8_of(*cps, begin, end)) != std::string::npos; };
    // The branch: from the first character where a place of the address starts (its first two characters printed
    // there, not with the character before them) to 店; the chain before it: two characters or more, no piece of
    // the address.
    for (size_t p = 2; p + 2 < cps->size(); ++p) {
        if (!in_address(p, p + 2) || in_address(p - 1, p + 1)) continue;
        if (in_address(0, p) || japanese_address_unit((*cps)[p - 1])) return std::nullopt;
        return utf8_of(*cps, 0, p) + " " + utf8_of(*cps, p);
    }
    return std::nullopt;
}

std::optional<std::string> address_place_from_branch(const std::string& text, const std::string& name,
                                                     const std::string& address) try {
    // The branch's place: the last word without 店 and the branch words after the place.
    const std::string n = trim(fold_fullwidth(sanitize_utf8(name)));
    if (n.rfind(' ') == std::string::npos || !ends_with(n, "店")) return std::nullopt;
    std::string place = n.substr(n.rfind(' ') + 1);
    place = place.substr(0, place.size() - std::string("店").size());
    for (bool again = true; again;) {
        again = false;
        for (const char* w : kBranchWords)
            if (place.size() > std::string(w).size() && ends_with(place, w)) {
                place = place.substr(0, place.size() - std::string(w).size());
                again = true;
                break;
            }
    }
    const auto pcs = code_points(place);
    if (!pcs || pcs->size() < 2 || !has_cjk(place)) return std::nullopt;
    for (uint32_t c : *pcs)
        if (!kanji_or_kana(c) || japanese_address_unit(c)) return std::nullopt;
    const std::string a = trim(fold_fullwidth(sanitize_utf8(address)));
    if (strip_spaces(a).find(place) != std::string::npos) return std::nullopt;
    // The model's place and house number: the text after the last address unit or space, up to the first digit.
    static const std::regex kHouse(R"(([0-9]+(?:丁目[0-9]+番(?:地)?(?:[0-9]+号?)?|(?:-[0-9]+)+)))");
    std::smatch m;
    if (!std::regex_search(a, m, kHouse)) return std::nullopt;
    const std::string house = m[1].str();
    const size_t house_at = size_t(m.position(1));
    size_t place_at = 0;
    for (const char* unit : {"都", "道", "府", "県", "市", "区", "郡", " "})
        if (const size_t u = a.rfind(unit, house_at); u != std::string::npos && u < house_at)
            place_at = std::max(place_at, u + std::string(unit).size());
    const std::string wrote = a.substr(place_at, house_at - place_at);
    if (wrote.empty() || wrote == place) return std::nullopt;
    const std::string printed = strip_spaces(fold_dashes(fold_fullwidth(sanitize_utf8(text)), true));
    // The model's place is printed: it stands, unless it is the branch's place with one character lost before its
    // end, as OCR left the print ("茂地1丁目18番15号" under "久茂地店"; not "角田町" under "角田町中店", where the
    // branch adds a word after the town).
    const auto wrote_cps = code_points(wrote);
    const bool wrote_lost_one = wrote_cps && wrote_cps->size() + 1 == pcs->size() && chars_lost(wrote, place) &&
                                place.rfind(wrote, 0) != 0;
    if (printed.find(wrote + house) != std::string::npos && !wrote_lost_one) return std::nullopt;
    // The branch's place printed before the house number, whole or with one character lost.
    // ... where a place starts: at the text's start, or after an address unit or a character that is no kanji/kana.
    auto place_starts = [&](size_t at) {
        if (at == 0) return true;
        size_t b = at - 1;
        while (b > 0 && (static_cast<unsigned char>(printed[b]) & 0xC0) == 0x80) --b;
        const auto before = code_points(printed.substr(b, at - b));
        return !before || before->empty() || !kanji_or_kana(before->back()) || japanese_address_unit(before->back());
    };
    // Whether the text prints the branch's place followed by `after`: whole, or with one character lost (there
    // only where a place starts, when `at_place_start`).
    auto place_printed_before = [&](const std::string& after, bool at_place_start) {
        if (printed.find(place + after) != std::string::npos) return true;
        for (size_t k = 0; k < pcs->size(); ++k) {
            std::vector<uint32_t> lost = *pcs;
            lost.erase(lost.begin() + std::ptrdiff_t(k));
            const std::string p = utf8_of(lost) + after;
            for (size_t at = printed.find(p); at != std::string::npos; at = printed.find(p, at + 1))
                if (!at_place_start || place_starts(at)) return true;
        }
        return false;
    };
    if (!place_printed_before(house, /*at_place_start=*/true)) return std::nullopt;
    // A building named after the model's place ("湊町第一ビル") is named after the branch's when the receipt prints
    // it so, whole or with one character of the place lost ("町第一ビル" for 本町第一ビル).
    std::string tail = a.substr(house_at);
    for (size_t at = tail.find(" " + wrote); at != std::string::npos; at = tail.find(" " + wrote, at + 1)) {
        const size_t b = at + 1 + wrote.size();
        const std::string rest = tail.substr(b, std::min(tail.find(' ', b), tail.size()) - b);
        if (rest.empty() || !has_cjk(rest) || has_ascii_digit(rest)) continue;
        if (printed.find(wrote + rest) != std::string::npos) continue;  // the model's building is printed
        if (place_printed_before(rest, /*at_place_start=*/false)) tail.replace(at + 1, wrote.size(), place);
    }
    return a.substr(0, place_at) + place + tail;
} catch (...) {
    return std::nullopt;  // std::regex giving up: the address as written
}

std::optional<std::string> chome_mark_restored(const std::string& name) {
    static const std::vector<std::string> kNumerals = {"一", "二", "三", "四", "五", "六", "七", "八", "九", "十"};
    for (const std::string mark : {"丁店", "目店"}) {  // 目 lost, or 丁
        const size_t at = name.find(mark);
        if (at == std::string::npos || at < 3) continue;
        const std::string numeral = name.substr(at - 3, 3);
        if (std::find(kNumerals.begin(), kNumerals.end(), numeral) == kNumerals.end()) continue;
        return name.substr(0, at) + "丁目店" + name.substr(at + mark.size());
    }
    return std::nullopt;
}

}  // namespace receipt::extract
