// Line items whose description is not printed (extract/unprinted_items.h).
#include "extract/unprinted_items.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <regex>
#include <vector>

#include "extract/body_line_values.h"
#include "extract/normalize_date.h"
#include "extract/normalize_time.h"
#include "extract/ocr_digits.h"
#include "extract/printed_amounts.h"
#include "extract/unprinted_amounts.h"
#include "extract/utf8.h"

namespace receipt::extract {

namespace {

// Code points of `s` (valid UTF-8) without whitespace, ASCII letters lower-cased (the model writes "White Rice"
// for a printed "WHITE RICE"); empty for invalid UTF-8.
std::vector<uint32_t> points_without_spaces(const std::string& s) {
    std::vector<uint32_t> out;
    if (auto cps = code_points(s))
        for (uint32_t c : *cps)
            if (!(c < 128 && is_ascii_space(char(c)))) out.push_back(c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c);
    return out;
}

// points_without_spaces of `s` made valid UTF-8 with full-width ASCII folded: what the shares compare.
std::vector<uint32_t> points_of(const std::string& s) { return points_without_spaces(fold_fullwidth(sanitize_utf8(s))); }

// Length of the longest common subsequence of a and b: O(|a| |b|) time, O(|b|) memory.
size_t lcs_length(const std::vector<uint32_t>& a, const std::vector<uint32_t>& b) {
    std::vector<size_t> prev(b.size() + 1, 0), cur(b.size() + 1, 0);
    for (uint32_t ca : a) {
        for (size_t j = 0; j < b.size(); ++j)
            cur[j + 1] = ca == b[j] ? prev[j] + 1 : std::max(prev[j + 1], cur[j]);
        std::swap(prev, cur);
    }
    return prev[b.size()];
}

// The receipt's lines as printed_share compares them: printed_lines_as_is (valid UTF-8, full-width ASCII folded)
// without whitespace.
std::vector<std::vector<uint32_t>> share_lines(const std::string& text) {
    std::vector<std::vector<uint32_t>> out;
    for (const std::string& line : printed_lines_as_is(text)) out.push_back(points_without_spaces(line));
    return out;
}

double share_in(const std::vector<std::vector<uint32_t>>& lines, const std::string& description) {
    const std::vector<uint32_t> d = points_of(description);
    if (d.empty()) return 1.0;
    size_t best = 0;
    for (const auto& line : lines) {
        if (best == d.size()) break;
        if (!line.empty()) best = std::max(best, lcs_length(d, line));
    }
    return double(best) / double(d.size());
}

}  // namespace

double printed_share(const std::string& text, const std::string& description) {
    return share_in(share_lines(text), description);
}

namespace {

// printed_share_anywhere over the text's points (points_of(text)), taken once for several values.
double share_anywhere(const std::vector<uint32_t>& text_points, const std::string& value) {
    const std::vector<uint32_t> v = points_of(value);
    return v.empty() ? 1.0 : double(lcs_length(v, text_points)) / double(v.size());
}

}  // namespace

double printed_share_anywhere(const std::string& text, const std::string& value) {
    return share_anywhere(points_of(text), value);
}

bool drop_unprinted_fields(const std::string& text, const std::vector<std::string>& keys,
                           nlohmann::ordered_json& fields) {
    bool any = false;
    try {
        const std::vector<uint32_t> text_points = points_of(text);
        for (const std::string& key : keys) {
            auto it = fields.find(key);
            if (it == fields.end() || !it->is_string()) continue;
            const std::string value = it->get<std::string>();
            if (share_anywhere(text_points, value) >= kPrintedFieldShare) continue;
            *it = nullptr;
            if (!fields["warnings"].is_array()) fields["warnings"] = nlohmann::ordered_json::array();
            fields["warnings"].push_back(key + "_not_printed: the model wrote '" + value +
                                         "', which the receipt does not print; left out");
            any = true;
        }
    } catch (...) {  // a malformed object: leave it as it is
    }
    return any;
}

bool drop_unprinted_items(const std::string& text, nlohmann::ordered_json& fields) {
    try {
        auto& items = fields["line_items"];
        if (!items.is_array()) return false;
        const auto lines = share_lines(text);
        const bool latin = !has_cjk(text);
        std::vector<std::string> digit_strings;  // read once, for the first item that needs them
        bool digits_read = false;
        std::optional<PrintedWords> printed_words;  // likewise
        // A Latin-script text's item whose description shares no word with the text (a long line holds 40% of
        // most descriptions' letters in order) and whose amount is not printed either; or one in a script the
        // text does not print.
        auto latin_unprinted = [&](const nlohmann::ordered_json& it, const std::string& desc) {
            if (!latin) return false;
            if (has_cjk(desc)) return true;
            if (!printed_words) printed_words.emplace(text);
            if (printed_words->share(desc) > 0) return false;
            if (!it.contains("amount") || !it["amount"].is_number()) return true;
            if (!digits_read) digit_strings = printed_digit_strings(text), digits_read = true;
            return !amount_printed_loosely(it["amount"].get<double>(), digit_strings);
        };
        nlohmann::ordered_json kept = nlohmann::ordered_json::array();
        std::string dropped;
        for (size_t i = 0; i < items.size(); ++i) {
            const auto& it = items[i];
            if (it.is_object() && it.contains("description") && it["description"].is_string() &&
                (share_in(lines, it["description"].get<std::string>()) < kPrintedItemShare ||
                 latin_unprinted(it, it["description"].get<std::string>()))) {
                if (!dropped.empty()) dropped += ", ";
                dropped += std::to_string(i + 1);
                dropped += " (";
                dropped += it["description"].get<std::string>();
                dropped += ")";
                continue;
            }
            kept.push_back(it);
        }
        if (dropped.empty()) return false;
        items = std::move(kept);
        if (!fields["warnings"].is_array()) fields["warnings"] = nlohmann::ordered_json::array();
        fields["warnings"].push_back("line_item_not_printed: items " + dropped +
                                     " have descriptions the receipt does not print; left out");
        return true;
    } catch (...) {  // a malformed object: leave the items as they are
    }
    return false;
}

namespace {

// Whether `s` holds a letter of any script: an ASCII letter, or a code point from U+00C0 up that is no punctuation,
// currency sign or symbol (U+2000-U+2BFF, U+3000-U+303F, the full-width ASCII punctuation U+FF00-U+FF20, ￡ ￥).
bool has_letter(const std::string& s) {
    bool found = false;
    for_each_code_point(s, [&](uint32_t c) {
        if (found) return;
        if (c < 0x80) found = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
        else found = c >= 0xC0 && !(c >= 0x2000 && c <= 0x2BFF) && !(c >= 0x3000 && c <= 0x303F) &&
                     !(c >= 0xFF00 && c <= 0xFF20) && c != 0xFFE1 && c != 0xFFE5;
    });
    return found;
}

}  // namespace

bool starts_with_body_label(const std::string& line) {
    // An English label only before a colon, a number sign, a digit or the end ("TIME LESS KITCHENETTE" is a name).
    static const std::regex label(
        R"(^\W*((TRANS|CASHIER|SERVED(\s*BY)?|SERVEDBY|OPERATOR|OPERTOR|STAFF|TABLE|QTY|DESC|PRICE|AMOUNT|TIME|)"
        R"(DATE|POS)\s*([:#\d]|$)|担当|レジ\s*([#\d]|No)|数量|商品名|金額|責No|テーブル))",
        std::regex::icase);
    try {
        return std::regex_search(line, label);
    } catch (...) {  // std::regex giving up: no label
        return false;
    }
}

bool drop_non_header_values(const std::vector<std::string>& keys, nlohmann::ordered_json& fields) {
    // What a date or time line holds besides digits and separators.
    static const std::regex date_words(
        R"((^|[^A-Za-z])(jan(uary)?|feb(ruary)?|mar(ch)?|apr(il)?|may|june?|july?|aug(ust)?|sept?(ember)?|)"
        R"(oct(ober)?|nov(ember)?|dec(ember)?|monday|tuesday|wednesday|thursday|friday|saturday|sunday)(?![A-Za-z])|)"
        R"((^|[^A-Za-z])[ap]\.?m\.?(?![A-Za-z])|年|月|日|時|分|秒|曜|火|水|木|金|土)",
        std::regex::icase);
    // Yen signs and marks after an amount, and counters after a number ("461円", "¥425軽", "3本").
    static const std::regex amount_marks("円|軽|※|本|個|点|枚");
    bool any = false;
    try {
        for (const std::string& key : keys) {
            if (key != "supplier_name" && key != "supplier_address") continue;
            auto it = fields.find(key);
            if (it == fields.end() || !it->is_string()) continue;
            const std::string value = it->get<std::string>();
            // OCR look-alikes next to digits read as digits ("6/3/20I6", "5741b").
            const std::string read = read_digit_confusions(value);
            const std::string rest = std::regex_replace(read, date_words, "$1");
            // A date or time line that goes on with a body label ("2022年11月22日(火) レジ0008").
            const size_t first_letter = rest.find_first_not_of(" 0123456789/-.:;,()[]");
            const char* what = nullptr;
            if (!has_letter(read)) what = "no letter";
            else if (!has_letter(rest)) what = "a date or time";
            else if (!has_letter(std::regex_replace(rest, amount_marks, ""))) what = "an amount or a count";
            else if (starts_with_body_label(value) || starts_with_body_label(rest) ||
                     (first_letter != std::string::npos && starts_with_body_label(rest.substr(first_letter))))
                what = "a label of the receipt's body";
            if (!what) continue;
            *it = nullptr;
            if (!fields["warnings"].is_array()) fields["warnings"] = nlohmann::ordered_json::array();
            fields["warnings"].push_back(key + "_not_a_header: the model wrote '" + value + "', " + what +
                                         "; left out");
            any = true;
        }
    } catch (...) {  // a malformed object, or std::regex giving up: leave the rest as it is
    }
    return any;
}

}  // namespace receipt::extract
