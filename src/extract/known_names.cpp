// Store names known from training (extract/known_names.h).
#include "extract/known_names.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "extract/name_constraint.h"
#include "extract/utf8.h"
#include "receipt/errors.h"

namespace receipt::extract {

namespace {

// Spaces and punctuation: ASCII other than letters and digits, Latin-1's symbols (U+0080..U+00BF, U+00D7, U+00F7),
// general punctuation (U+2000..U+206F), CJK symbols and punctuation (U+3000..U+303F), the katakana middle dot, and
// the full- and half-width forms' punctuation.
bool letter_or_digit(uint32_t cp) {
    if (cp < 0x80) return (cp >= '0' && cp <= '9') || (cp >= 'A' && cp <= 'Z') || (cp >= 'a' && cp <= 'z');
    if (cp <= 0xBF || cp == 0xD7 || cp == 0xF7) return false;
    if (cp >= 0x2000 && cp <= 0x206F) return false;
    if (cp >= 0x3000 && cp <= 0x303F) return false;
    if (cp == 0x30FB) return false;
    if ((cp >= 0xFF01 && cp <= 0xFF0F) || (cp >= 0xFF1A && cp <= 0xFF20) || (cp >= 0xFF3B && cp <= 0xFF40) ||
        (cp >= 0xFF5B && cp <= 0xFF65))
        return false;
    return true;
}

// The letters and digits of s as code points (name_letters).
std::u32string letters(std::string_view s) {
    std::u32string out;
    for_each_code_point(s, [&](uint32_t cp) {
        if (letter_or_digit(cp)) out.push_back(char32_t(cp));
    });
    return out;
}

// A digit, ASCII or full-width.
bool is_digit(char32_t c) { return (c >= U'0' && c <= U'9') || (c >= U'\uFF10' && c <= U'\uFF19'); }

// True when a is b with some letters (not digits) left out. A digit OCR dropped is not put back: a size, a house
// number or a branch number that differs by one is another item, address or store ("500ml" is no "1500ml" with its
// "1" lost). Matching each code point of b as early as it can be is enough: only letters may be skipped.
bool letters_dropped(const std::u32string& a, const std::u32string& b) {
    size_t j = 0;
    for (char32_t c : b) {
        if (j < a.size() && a[j] == c)
            ++j;
        else if (is_digit(c))
            return false;
    }
    return j == a.size();
}

// The one candidate to take (indices into names, which are sorted most frequent first): the only one, or the first
// when it is at least 5 times as frequent as the second. nullopt otherwise.
std::optional<size_t> clear_winner(const std::vector<size_t>& candidates, const std::vector<KnownName>& names) {
    if (candidates.empty()) return std::nullopt;
    if (candidates.size() == 1) return candidates[0];
    if (names[candidates[0]].count >= 5 * names[candidates[1]].count) return candidates[0];
    return std::nullopt;
}

}  // namespace

std::string name_letters(std::string_view s) {
    std::string out;
    for (char32_t c : letters(s)) append_utf8(out, uint32_t(c));
    return out;
}

bool KnownNames::knows(std::string_view name) const { return has_letters(letters(name)); }

KnownNames KnownNames::parse(std::string_view content, const std::string& source) {
    KnownNames k;
    const auto lines = split_lines(content);
    for (size_t n = 0; n < lines.size(); ++n) {
        std::string line = lines[n];
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (line.find_first_not_of(" \t") == std::string::npos || line[0] == '#') continue;
        const std::string where = source + ":" + std::to_string(n + 1) + ": ";
        RECEIPT_CHECK(invalid_utf8_offset(line) == std::string::npos, ModelError, where + "not valid UTF-8");
        const size_t tab = line.find('\t');
        RECEIPT_CHECK(tab != std::string::npos && tab > 0 && tab + 1 < line.size(), ModelError,
                      where + "expected COUNT<TAB>NAME");
        const std::string count_s = line.substr(0, tab);
        char* stop = nullptr;
        errno = 0;
        const long count = std::strtol(count_s.c_str(), &stop, 10);
        RECEIPT_CHECK(errno == 0 && stop == count_s.c_str() + count_s.size() && count > 0 &&
                          count_s.find_first_not_of("0123456789") == std::string::npos,
                      ModelError, where + "count '" + count_s + "' is not a positive integer");
        KnownName name{line.substr(tab + 1), {}, count, false};
        name.letters = letters(name.name);
        name.cjk = has_cjk(name.name);
        if (name.letters.empty()) continue;
        k.letters_.insert(name.letters);
        k.names_.push_back(std::move(name));
    }
    std::stable_sort(k.names_.begin(), k.names_.end(),
                     [](const KnownName& a, const KnownName& b) { return a.count > b.count; });
    return k;
}

KnownNames KnownNames::load(const std::string& path) {
    std::error_code ec;
    const auto status = std::filesystem::status(path, ec);
    if (status.type() == std::filesystem::file_type::not_found) return {};
    RECEIPT_CHECK(!ec && std::filesystem::is_regular_file(status), ModelError, "cannot read " + path + ": not a file");
    std::ifstream in(path, std::ios::binary);
    RECEIPT_CHECK(in.is_open(), ModelError, "cannot read " + path);
    std::ostringstream s;
    s << in.rdbuf();
    RECEIPT_CHECK(!in.bad(), ModelError, "cannot read " + path);
    return parse(s.str(), path);
}

KnownLists KnownLists::load(const std::string& model_dir) {
    return {KnownNames::load(model_dir + "/known_names.txt"), KnownNames::load(model_dir + "/known_items.txt"),
            KnownNames::load(model_dir + "/known_addresses.txt"),
            KnownNames::load(model_dir + "/known_address_words.txt")};
}

int max_dropped_letters(size_t n_letters, bool cjk) { return n_letters < (cjk ? 6u : 8u) ? 1 : 2; }

namespace {

// Indices into known.names() (most frequent first) of the entries of at least min_letters letters and digits that
// are `model` with 1 to max_dropped_letters of their letters left out, in order (letters_dropped).
std::vector<size_t> with_letters_dropped(const std::u32string& model, const KnownNames& known, size_t min_letters) {
    const auto& names = known.names();
    std::vector<size_t> out;
    for (size_t i = 0; i < names.size(); ++i) {
        const auto& key = names[i].letters;
        if (key.size() < min_letters || key.size() <= model.size()) continue;
        if (key.size() - model.size() > size_t(max_dropped_letters(key.size(), names[i].cjk))) continue;
        if (letters_dropped(model, key)) out.push_back(i);
    }
    return out;
}

// True when `printed` is `known` (both without spaces) with some of its ASCII punctuation dropped, or a point and
// a comma read for each other, and nothing else changed.
bool punctuation_lost(const std::string& printed, const std::string& known) {
    const auto punct = [](char c) { return c > ' ' && c < 0x7f && !std::isalnum(static_cast<unsigned char>(c)); };
    size_t i = 0, j = 0;
    bool changed = false;
    while (j < known.size()) {
        if (i < printed.size() && printed[i] == known[j]) {
            ++i, ++j;
        } else if (punct(known[j])) {
            const bool swapped = i < printed.size() && (printed[i] == '.' || printed[i] == ',') &&
                                 (known[j] == '.' || known[j] == ',');
            i += swapped;
            ++j;
            changed = true;
        } else {
            return false;
        }
    }
    return changed && i == printed.size();
}

// The two readings known_name_for, known_item_for and known_address_for share, for `piece` (a chain, a name, a
// description or an address) with letters `model`: its known spelling with spaces OCR dropped (respell_spaces), or
// the one known piece it is with letters dropped. `decided` is set when either applies (a known letters match decides
// even when it keeps the piece).
std::optional<std::string> known_spelling(const std::string& piece, const std::u32string& model,
                                          const KnownNames& known, bool respell_spaces, bool& decided) {
    const auto& names = known.names();
    decided = true;
    if (known.has_letters(model)) {
        if (!respell_spaces) return std::nullopt;
        // Known letters: respelled only where OCR dropped spaces ("POPULARBOOK CO." for "POPULAR BOOK CO.").
        const auto spaces = [](const std::string& s) { return std::count(s.begin(), s.end(), ' '); };
        const std::string bare = strip_spaces(piece);
        for (const auto& k : names)
            if (k.letters == model && strip_spaces(k.name) == bare && spaces(k.name) > spaces(piece)) return k.name;
        return std::nullopt;
    }
    // OCR dropped letters of a known one.
    const std::vector<size_t> dropped = with_letters_dropped(model, known, 0);
    decided = !dropped.empty();
    if (auto w = clear_winner(dropped, names)) return names[*w].name;
    return std::nullopt;
}

// True when the ASCII digit d and the letter l are OCR look-alikes: 0 / O o D, 1 / I l L, 2 / Z, 5 / S s, 6 / G b,
// 8 / B, 9 / g.
bool digit_lookalike(char32_t d, char32_t l) {
    switch (d) {
        case U'0': return l == U'O' || l == U'o' || l == U'D';
        case U'1': return l == U'I' || l == U'l' || l == U'L';
        case U'2': return l == U'Z';
        case U'5': return l == U'S' || l == U's';
        case U'6': return l == U'G' || l == U'b';
        case U'8': return l == U'B';
        case U'9': return l == U'g';
        default: return false;
    }
}

// True when `model` is `known` with 1 to 3 of its characters read as their look-alikes, a digit for a letter or a
// letter for a digit ("PROM0" for PROMO, "MAGGICURRY55" for MAGGICURRY5S), and at most max_dropped of its letters
// (no digit) lost ("ILOIKG" for MILO1KG), the others the same. Greedy as letters_dropped, a look-alike taken where
// the characters differ.
bool lookalikes_of(const std::u32string& model, const std::u32string& known, size_t max_dropped) {
    if (model.size() > known.size() || known.size() - model.size() > max_dropped) return false;
    size_t j = 0;
    int read = 0;
    for (char32_t c : known) {
        if (j < model.size() && model[j] == c) {
            ++j;
        } else if (j < model.size() && (digit_lookalike(model[j], c) || digit_lookalike(c, model[j]))) {
            if (++read > 3) return false;
            ++j;
        } else if (is_digit(c)) {
            return false;
        }
    }
    return j == model.size() && read > 0;
}

// The known word that `run` (ASCII letters and digits, at least 3, at least 2 letters) is with its digits read as the
// letters they look like (0 O, 1 I, 2 Z, 5 S, 6 G, 8 B; in the case of the letter before them, or after them at the
// start, and also upper case at the start: "5an" -> "San"); nullopt when it holds no digit, another digit, or no
// reading is known.
std::optional<std::string> known_word_with_lookalikes(const std::string& run, const KnownNames& words) {
    static constexpr std::string_view kDigits = "012568", kUpper = "OIZSGB";
    const auto letter = [](char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'); };
    const size_t n_letters = size_t(std::count_if(run.begin(), run.end(), letter));
    if (run.size() < 3 || n_letters < 2 || n_letters == run.size()) return std::nullopt;
    std::string read = run;
    for (size_t k = 0; k < run.size(); ++k) {
        if (letter(run[k])) continue;
        const size_t at = kDigits.find(run[k]);
        if (at == std::string_view::npos) return std::nullopt;
        char near = 0;  // the letter before it, else the one after it
        for (size_t b = k; b > 0 && !near;) near = letter(run[--b]) ? run[b] : 0;
        for (size_t a = k + 1; a < run.size() && !near; ++a) near = letter(run[a]) ? run[a] : 0;
        const bool lower = near >= 'a' && near <= 'z';
        read[k] = lower ? char(std::tolower(static_cast<unsigned char>(kUpper[at]))) : kUpper[at];
    }
    std::string capital = read;
    capital[0] = char(std::toupper(static_cast<unsigned char>(capital[0])));
    for (const std::string& r : {read, capital})  // letters only: a known word's letters are the word
        if (words.has_letters(letters(r))) return r;
    return std::nullopt;
}

// The space-separated words of `s` (space_words), sorted.
std::vector<std::string> sorted_words(const std::string& s) {
    std::vector<std::string> out = space_words(s);
    std::sort(out.begin(), out.end());
    return out;
}

}  // namespace

std::optional<std::string> known_item_for(const std::string& description, const KnownNames& items) {
    const std::u32string model = letters(description);
    if (items.empty() || model.size() < 3) return std::nullopt;
    const auto& names = items.names();
    // A description whose punctuation OCR dropped or changed ("MILK 2 GAL" for MILK 2% GAL, "COCA COLA 1,5L" for
    // COCA COLA 1.5L), unless it is a known one as it is. (Not store names: SROIE labels them as printed.)
    if (items.has_letters(model)) {
        const std::string bare = strip_spaces(description);
        if (std::none_of(names.begin(), names.end(), [&](const auto& k) { return strip_spaces(k.name) == bare; }))
            for (const auto& k : names)
                if (k.letters == model && punctuation_lost(bare, strip_spaces(k.name))) return k.name;
    }
    bool decided = false;
    if (auto k = known_spelling(description, model, items, true, decided); k || decided) return k;
    const bool cjk = has_cjk(description);
    auto with_lookalikes = [&](const std::u32string& m, bool letters_lost) {
        std::vector<size_t> out;  // indices, most frequent first
        for (size_t i = 0; i < names.size(); ++i) {
            const size_t lost = letters_lost ? size_t(max_dropped_letters(names[i].letters.size(), cjk)) : 0;
            if (lookalikes_of(m, names[i].letters, lost)) out.push_back(i);
        }
        return out;
    };
    // No known item it is or lost letters of: one whose letters and digits it holds with OCR look-alikes ("PROM0",
    // "SDｶｰﾄﾞ 64G8"), else with letters lost as well ("ILO IKG" for MILO 1KG, "炭水 5D0ml" for 炭酸水 500ml).
    std::vector<size_t> found = with_lookalikes(model, false);
    if (found.empty()) found = with_lookalikes(model, true);
    if (auto w = clear_winner(found, names)) return names[*w].name;
    if (!found.empty() || cjk) return std::nullopt;
    // Latin script: after a count OCR left in front of it without its "x" ("1 5UNSCREEN SPF50"), one it is exactly
    // or with look-alikes.
    const size_t at = description.find_first_not_of(' ');
    const size_t count_end = description.find_first_not_of("0123456789", at);
    if (at == std::string::npos || count_end == std::string::npos || count_end == at || count_end - at > 2 ||
        description[count_end] != ' ')
        return std::nullopt;
    const std::u32string rest = letters(description.substr(count_end));
    if (rest.size() < 4) return std::nullopt;
    for (size_t i = 0; i < names.size(); ++i)
        if (names[i].letters == rest || lookalikes_of(rest, names[i].letters, 0)) found.push_back(i);
    if (auto w = clear_winner(found, names)) return names[*w].name;
    return std::nullopt;
}

std::optional<std::string> known_item_reordered(const std::string& description, const KnownNames& items) {
    const std::u32string model = letters(description);
    if (items.empty() || items.has_letters(model)) return std::nullopt;
    const std::vector<std::string> words = sorted_words(description);
    if (words.size() < 2) return std::nullopt;
    const auto& names = items.names();
    std::optional<size_t> only;
    bool several = false;
    for (size_t i = 0; i < names.size(); ++i) {
        if (names[i].letters.size() != model.size() || sorted_words(names[i].name) != words) continue;
        several = several || (only && names[*only].name != names[i].name);
        only = i;
    }
    if (only && !several) return names[*only].name;
    return std::nullopt;
}

std::optional<std::string> repeated_item_for(const std::string& description, const std::vector<std::string>& others,
                                             const KnownNames& known_items) {
    const std::u32string model = letters(description);
    if (model.size() < 3 || known_items.has_letters(model)) return std::nullopt;
    const auto words = [](const std::string& s) {
        std::vector<std::u32string> out;
        std::istringstream in(s);
        for (std::string w; in >> w;)
            if (auto l = letters(w); !l.empty()) out.push_back(std::move(l));
        return out;
    };
    const std::vector<std::u32string> model_words = words(description);
    const std::string bare = strip_spaces(description);
    const auto spaces = [](const std::string& s) { return std::count(s.begin(), s.end(), ' '); };
    // Distinct spellings and how often each is written among `others`, most frequent first.
    std::vector<KnownName> seen;
    for (const auto& o : others) {
        if (o == description) continue;
        auto at = std::find_if(seen.begin(), seen.end(), [&](const KnownName& k) { return k.name == o; });
        if (at != seen.end()) {
            ++at->count;
        } else {
            seen.push_back({o, letters(o), 1, has_cjk(o)});
        }
    }
    std::stable_sort(seen.begin(), seen.end(), [](const KnownName& a, const KnownName& b) { return a.count > b.count; });
    std::vector<size_t> respaced, dropped;
    for (size_t i = 0; i < seen.size(); ++i) {
        const auto& k = seen[i];
        if (k.letters == model) {
            if (strip_spaces(k.name) == bare && spaces(k.name) > spaces(description)) respaced.push_back(i);
            continue;
        }
        if (k.letters.size() <= model.size() ||
            k.letters.size() - model.size() > size_t(max_dropped_letters(k.letters.size(), k.cjk)))
            continue;
        const std::vector<std::u32string> known_words = words(k.name);
        if (known_words.size() != model_words.size()) continue;
        bool fits = true;
        for (size_t w = 0; w < known_words.size() && fits; ++w) {
            const auto& m = model_words[w];
            fits = m == known_words[w] || (m.size() >= 2 && letters_dropped(m, known_words[w]));
        }
        if (fits) dropped.push_back(i);
    }
    if (auto w = clear_winner(respaced, seen)) return seen[*w].name;
    if (!respaced.empty()) return std::nullopt;
    if (auto w = clear_winner(dropped, seen)) return seen[*w].name;
    return std::nullopt;
}

std::optional<std::string> known_address_for(const std::string& address, const KnownNames& addresses) {
    const std::u32string model = letters(address);
    if (addresses.empty() || model.size() < 10) return std::nullopt;
    bool decided = false;
    return known_spelling(address, model, addresses, false, decided);
}

std::optional<std::string> known_address_words_for(const std::string& address, const KnownNames& words) {
    if (words.empty() || has_cjk(address)) return std::nullopt;
    const auto ascii_letter = [](char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'); };
    const auto digit_at = [&](size_t k) { return k < address.size() && is_ascii_digit(address[k]); };
    const auto& known = words.names();
    std::string out;
    bool changed = false;
    for (size_t i = 0; i < address.size();) {
        // A run of letters and digit look-alikes that reads as a known word ("ANG5A", "8INTANG", "5an").
        if (i == 0 || !std::isalnum(static_cast<unsigned char>(address[i - 1]))) {
            size_t end = i;
            while (end < address.size() && std::isalnum(static_cast<unsigned char>(address[end]))) ++end;
            if (const auto read = known_word_with_lookalikes(address.substr(i, end - i), words)) {
                out += *read;
                changed = true;
                i = end;
                continue;
            }
        }
        if (!ascii_letter(address[i])) {
            out += address[i++];
            continue;
        }
        size_t end = i;
        while (end < address.size() && ascii_letter(address[end])) ++end;
        const std::string word = address.substr(i, end - i);
        // A run touching a digit is a piece of a token OCR garbled ("ANG5A", "8INTANG"), not a word.
        const bool touches_digit = digit_at(end) || (i > 0 && digit_at(i - 1));
        i = end;
        const std::u32string model = letters(word);
        if (model.size() < 3 || touches_digit || words.has_letters(model)) {
            out += word;
            continue;
        }
        // Known words of 4+ letters that are this one with letters dropped (by OCR).
        if (auto w = clear_winner(with_letters_dropped(model, words, 4), known)) {
            out += known[*w].name;
            changed = true;
        } else {
            out += word;
        }
    }
    if (!changed) return std::nullopt;
    return out;
}

std::optional<std::string> known_name_for(const std::string& text, const std::string& name, const KnownNames& known) {
    if (known.empty()) return std::nullopt;
    const bool cjk = has_cjk(name);
    // The chain and the branch after it (Japanese names), or the whole name.
    const size_t space = cjk ? name.find(' ') : std::string::npos;
    const std::string chain = name.substr(0, space);
    const std::string branch = space == std::string::npos ? "" : name.substr(space);
    const std::u32string model = letters(chain);
    // Three letters do in Japanese (kana and kanji carry more than Latin letters: "ローン" of ローソン, "成城井").
    if (model.size() < (cjk ? 3u : 4u)) return std::nullopt;
    const auto& names = known.names();
    bool decided = false;
    if (auto k = known_spelling(chain, model, known, true, decided)) return *k + branch;
    if (decided) return std::nullopt;
    if (cjk) {
        // The model read a printed hyphen as the prolonged sound mark ("セブーイレブン" for the printed "セブ-イレブン",
        // which lost ン): the printed spelling's letters are the ones to restore.
        const std::string mark = "ー";
        std::string printed_chain;
        for (size_t i = 0; i < chain.size();) {
            const bool at_mark = chain.compare(i, mark.size(), mark) == 0;
            printed_chain += at_mark ? std::string("-") : chain.substr(i, 1);
            i += at_mark ? mark.size() : 1;
        }
        if (printed_chain == chain) return std::nullopt;
        bool printed = false;
        for (const auto& line : first_lines(text, 6)) printed |= line.find(printed_chain) != std::string::npos;
        const std::u32string printed_letters = letters(printed_chain);
        bool decided_printed = false;
        if (printed && printed_letters.size() >= 4)
            if (auto k = known_spelling(printed_chain, printed_letters, known, true, decided_printed)) return *k + branch;
        return std::nullopt;
    }

    // A known name the model took a piece of: the rest of it is one of the first lines, or two or three
    // consecutive ones ("THE" / "ROTI" / "MAN" / "BAKERY").
    std::vector<std::u32string> lines, heads;
    for (const auto& line : first_lines(text, 6)) {
        auto l = letters(line);
        if (!l.empty()) lines.push_back(std::move(l));
    }
    for (size_t i = 0; i < lines.size(); ++i) {
        std::u32string joined_lines;
        for (size_t j = i; j < std::min(lines.size(), i + 3); ++j) heads.push_back(joined_lines += lines[j]);
    }
    // The same runs, and two adjacent lines in swapped order, for the reading with letters dropped below.
    std::vector<std::u32string> windows = heads;
    for (size_t i = 0; i + 1 < lines.size(); ++i) windows.push_back(lines[i + 1] + lines[i]);
    std::vector<size_t> joined;
    for (size_t i = 0; i < names.size(); ++i) {
        const auto& key = names[i].letters;
        if (key.size() <= model.size()) continue;
        const std::u32string before = key.substr(0, key.size() - model.size());
        const std::u32string after = key.substr(model.size());
        const bool ends = key.compare(key.size() - model.size(), model.size(), model) == 0;
        const bool starts = key.compare(0, model.size(), model) == 0;
        for (const auto& h : heads)
            if ((ends && h == before) || (starts && h == after)) {
                joined.push_back(i);
                break;
            }
    }
    if (auto w = clear_winner(joined, names)) return names[*w].name;

    // A known name printed over lines with letters OCR dropped, of which the model took a piece ("KDAI RUNCIT SRI"
    // of "KDAI RUNCIT SRI" / "JAYA"): one to three consecutive first lines, or two adjacent ones in swapped order
    // (OCR put them out of order: "JOE'S" / "TRADE"), that hold the model's letters and are the known name's with
    // at most max_dropped_letters left out.
    std::vector<size_t> spread;
    for (size_t i = 0; i < names.size(); ++i) {
        const auto& key = names[i].letters;
        const size_t most = size_t(max_dropped_letters(key.size(), false));
        for (const auto& w : windows)
            if (w.size() <= key.size() && key.size() - w.size() <= most && w.find(model) != std::u32string::npos &&
                letters_dropped(w, key)) {
                spread.push_back(i);
                break;
            }
    }
    if (auto w = clear_winner(spread, names)) return names[*w].name;

    // A known name with 1 to 3 OCR digit look-alikes read, letters dropped as above ("Co-opF0od" for Co-op Food).
    std::vector<size_t> looks;
    for (size_t i = 0; i < names.size() && !cjk; ++i)
        if (lookalikes_of(model, names[i].letters, size_t(max_dropped_letters(names[i].letters.size(), false))))
            looks.push_back(i);
    if (auto w = clear_winner(looks, names)) return names[*w].name;
    return std::nullopt;
}

}  // namespace receipt::extract
