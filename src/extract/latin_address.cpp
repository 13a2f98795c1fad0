// Latin-script house numbers as printed (extract/latin_address.h).
#include "extract/latin_address.h"

#include <algorithm>
#include <cctype>
#include <regex>
#include <vector>

#include "extract/name_constraint.h"
#include "extract/ocr_digits.h"
#include "extract/printed_value.h"
#include "extract/utf8.h"

namespace receipt::extract {

namespace {

constexpr size_t kAddressHeaderLines = 12;  // lines an address is looked for in
constexpr size_t kMaxLineBytes = 200;       // bytes of a line the regexes look at (bounds std::regex's recursion)
constexpr size_t kStreetKey = 6;            // letters and digits after a house number that identify its street

// The first `n` letters and digits of `s`, upper-cased.
std::string alnum_key(const std::string& s, size_t n) {
    std::string k;
    for (char c : s) {
        if (k.size() == n) break;
        if ((c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'))
            k += char(c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c);
    }
    return k;
}

// Whether the street words after a printed number (`after`) are the model's (`key`, kStreetKey letters and digits):
// the same key, or, for a whole key, one within one edit of the printed words' first 5, 6 or 7 letters and digits
// (OCR dropped or changed a letter: "JAAN ANGSA" for JALAN ANGSA, "Maket St" for Market St).
bool same_street(const std::string& after, const std::string& key) {
    if (alnum_key(after, kStreetKey) == key) return true;
    if (key.size() < kStreetKey) return false;
    for (size_t n = kStreetKey - 1; n <= kStreetKey + 1; ++n)
        if (edit_distance(key, alnum_key(after, n)) <= 1) return true;
    return false;
}

}  // namespace

std::optional<std::string> house_number_as_printed(const std::string& text, const std::string& address) {
    if (has_cjk(address)) return std::nullopt;
    // A leading house number: digits with an optional letter, after an optional NO. / LOT.
    static const std::regex lead(R"(^\s*((?:NO|LOT)\s*[.:]?\s*)?(\d+[A-Za-z]?)\b)", std::regex::icase);
    std::smatch m;
    try {
        if (!std::regex_search(address, m, lead)) return std::nullopt;
    } catch (...) {
        return std::nullopt;
    }
    const std::string wrote = m[2].str();
    const std::string key = alnum_key(m.suffix().str(), kStreetKey);
    if (key.size() < 4) return std::nullopt;
    // Printed numbers followed by the same street words, on their line or the next.
    const std::vector<std::string> lines = first_lines(text, kAddressHeaderLines, kMaxLineBytes);
    static const std::regex number(R"((^|[^0-9A-Za-z])((?:NO|LOT)\s*[.:]?\s*)?(\d+[A-Za-z]?)(?![0-9]))",
                                   std::regex::icase);
    std::optional<std::string> printed;
    for (size_t i = 0; i < 2 * lines.size(); ++i) {
        // Each line as printed, then with digit look-alikes read as digits.
        const size_t li = i / 2;
        const std::string line = i % 2 ? read_digit_confusions(lines[li]) : lines[li];
        try {
            for (std::sregex_iterator it(line.begin(), line.end(), number), end; it != end; ++it) {
                const std::smatch& pm = *it;
                std::string p = pm[3].str();
                std::string after = pm.suffix().str();
                // "529Station": a letter glued to the number starts the street when the rest spells it.
                if (!p.empty() && std::isalpha(static_cast<unsigned char>(p.back())) &&
                    alnum_key(std::string(1, p.back()) + after, kStreetKey) == key) {
                    after = std::string(1, p.back()) + after;
                    p.pop_back();
                }
                if (li + 1 < lines.size()) after += " " + lines[li + 1];
                if (!same_street(after, key)) continue;
                if (p == wrote) return std::nullopt;
                if (printed && *printed != p) return std::nullopt;  // two numbers before the street: undecided
                printed = p;
            }
        } catch (...) {
            return std::nullopt;
        }
    }
    if (!printed) return std::nullopt;
    return address.substr(0, size_t(m.position(2))) + *printed + address.substr(size_t(m.position(2) + m.length(2)));
}

std::vector<std::string> address_words(const std::string& s) {
    std::vector<std::string> out;
    std::string w;
    for (char c : s) {
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ',') {
            if (!w.empty()) out.push_back(w);
            w.clear();
        } else {
            w += c;
        }
    }
    if (!w.empty()) out.push_back(w);
    return out;
}

namespace {

// Whether `a` and `b` differ by one letter (one dropped, added or changed; never a digit) and are 4+ bytes long.
bool one_letter_apart(const std::string& a, const std::string& b) {
    const std::string& l = a.size() >= b.size() ? a : b;
    const std::string& s = a.size() >= b.size() ? b : a;
    if (s.size() < 4 || l.size() - s.size() > 1) return false;
    const auto letter = [](char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0; };
    if (l.size() == s.size()) {  // one changed
        size_t i = 0;
        while (i < s.size() && l[i] == s[i]) ++i;
        return i < s.size() && letter(l[i]) && letter(s[i]) && l.compare(i + 1, std::string::npos, s, i + 1) == 0;
    }
    const std::optional<size_t> k = extra_byte_at(s, l);  // one dropped from l
    return k && letter(l[*k]);
}

// The maximal runs of ASCII digits of `s` as printed, in order (not copy_constraint.h's digit_runs, which adds
// joined thousands groups and look-alike readings).
std::vector<std::string> plain_digit_runs(const std::string& s) {
    std::vector<std::string> out;
    for (size_t i = 0; i < s.size();) {
        if (!is_ascii_digit(s[i])) {
            ++i;
            continue;
        }
        size_t j = i;
        while (j < s.size() && is_ascii_digit(s[j])) ++j;
        out.push_back(s.substr(i, j - i));
        i = j;
    }
    return out;
}

}  // namespace

bool address_reads_print(const std::string& text, const std::string& address) {
    if (has_cjk(text) || address.size() > 400 || text.size() > 20000) return false;
    const std::vector<std::string> words = address_words(address), printed = address_words(text);
    if (words.empty()) return false;
    const std::vector<std::string> runs = plain_digit_runs(text);
    for (const std::string& d : plain_digit_runs(address))
        if (std::find(runs.begin(), runs.end(), d) == runs.end()) return false;
    int not_printed = 0;
    for (const std::string& w : words) {
        if (std::find(printed.begin(), printed.end(), w) != printed.end()) continue;
        if (++not_printed > 2) return false;
        if (std::none_of(printed.begin(), printed.end(), [&](const std::string& p) { return one_letter_apart(w, p); }))
            return false;
    }
    return true;
}

std::optional<std::string> address_numbers_read(const std::string& address) {
    if (address.size() > kMaxLineBytes || has_cjk(address)) return std::nullopt;
    static const std::regex house_no(R"((^|[\s,])N0(?=[.,:]?\s?\d))");
    static const std::regex town_postcode(
        R"((^|[\s,])([0-9DOoZzgbSsIlB]{5})(?=\s+(?!(JALAN|JLN|LORONG|LRG|TAMAN|TMN|LOT|BLOCK|BLK)\b)[A-Z]{3,}))");
    static const std::regex state_zip(R"((\b[A-Z]{2},?\s+)([0-9DOoZzgbSsIlB]{5})(\s*)$)");
    static const std::regex uk_joined(R"((\s)([A-Z]{1,2}\d[A-Z\d]?)(\d[A-Z]{2})(\s*)$)");
    // A postcode with exactly one letter look-alike among four digits, read as digits; else as it is.
    const auto postcode = [](const std::string& p) {
        static constexpr std::string_view kLooks = "DOoIlZzSsbBg", kAs = "000112255689";
        std::string out = p;
        int read = 0;
        for (char& c : out)
            if (const size_t at = kLooks.find(c); at != std::string_view::npos) c = kAs[at], ++read;
        return read == 1 ? out : p;
    };
    try {
        std::string out = std::regex_replace(address, house_no, "$1NO");
        for (const std::regex* re : {&town_postcode, &state_zip}) {
            std::string next;
            auto from = out.cbegin();
            for (std::sregex_iterator it(out.begin(), out.end(), *re), end; it != end; ++it) {
                const std::smatch& m = *it;
                next.append(from, m[2].first);
                next += postcode(m[2].str());
                from = m[2].second;
            }
            next.append(from, out.cend());
            out = next;
        }
        out = std::regex_replace(out, uk_joined, "$1$2 $3$4");
        if (out == address) return std::nullopt;
        return out;
    } catch (...) {
        return std::nullopt;
    }
}

}  // namespace receipt::extract
