// Store names and addresses that are lines of a receipt's body (extract/body_line_values.h).
#include "extract/body_line_values.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <regex>
#include <unordered_set>

#include "extract/ocr_digits.h"
#include "extract/printed_value.h"
#include "extract/regex_found.h"
#include "extract/utf8.h"

namespace receipt::extract {

namespace {

// Most bytes of the text whose words and numbers are read (a receipt is a few kB; a pasted book is not).
constexpr size_t kMaxTextBytes = 32 * 1024;

// Runs of ASCII letters of at least `min_letters`, upper-cased.
std::vector<std::string> latin_words(const std::string& s, size_t min_letters) {
    std::vector<std::string> words;
    std::string w;
    for (size_t i = 0; i <= s.size(); ++i) {
        const unsigned char c = i < s.size() ? static_cast<unsigned char>(s[i]) : ' ';
        if (std::isalpha(c) && c < 0x80) {
            w += static_cast<char>(std::toupper(c));
        } else {
            if (w.size() >= min_letters) words.push_back(w);
            w.clear();
        }
    }
    return words;
}

// Runs of ASCII digits.
std::vector<std::string> digit_runs(const std::string& s) {
    std::vector<std::string> runs;
    std::string r;
    for (size_t i = 0; i <= s.size(); ++i) {
        const unsigned char c = i < s.size() ? static_cast<unsigned char>(s[i]) : ' ';
        if (std::isdigit(c)) {
            r += static_cast<char>(c);
        } else {
            if (!r.empty()) runs.push_back(r);
            r.clear();
        }
    }
    return runs;
}

bool within_one_edit(const std::string& a, const std::string& b) {
    return std::abs(static_cast<long>(a.size()) - static_cast<long>(b.size())) <= 1 && edit_distance(a, b) <= 1;
}

// Whether a number of the address is a number of the text, OCR look-alikes read as digits: the same digits below
// five, within one edit from five on (a postcode OCR damaged). The numbers of 3+ digits count where it has any
// (house numbers and postcodes; "24" of "JALAN SS 2/24" is also the cents of many amounts), else those of 2.
bool number_printed(const std::string& text, const std::string& address) {
    const auto text_runs = digit_runs(read_digit_confusions(text));
    const auto runs = digit_runs(read_digit_confusions(address));
    const bool long_ones = std::any_of(runs.begin(), runs.end(), [](const std::string& r) { return r.size() >= 3; });
    for (const auto& d : runs) {
        if (d.size() < (long_ones ? 3u : 2u)) continue;
        for (const auto& t : text_runs)
            if (d.size() >= 5 ? within_one_edit(d, t) : d == t) return true;
    }
    return false;
}

// Whether every word of `value` (2+ letters; at least one) is, within one edit, a word of one item description.
bool words_of_an_item(const std::string& value, const nlohmann::ordered_json& items) {
    const auto words = latin_words(value, 2);
    if (words.empty() || !items.is_array()) return false;
    for (const auto& item : items) {
        if (!item.is_object() || !item.contains("description") || !item["description"].is_string()) continue;
        const auto desc = latin_words(item["description"].get<std::string>(), 2);
        bool all = !desc.empty();
        for (size_t i = 0; all && i < words.size(); ++i) {
            bool found = false;
            for (const auto& d : desc) found = found || within_one_edit(words[i], d);
            all = found;
        }
        if (all) return true;
    }
    return false;
}

std::string without_spaces(const std::string& s) {
    std::string out;
    for (char c : s)
        if (!std::isspace(static_cast<unsigned char>(c))) out += c;
    return out;
}

// Whether `name` (spaces aside; ASCII letters compared upper-cased) is one of the items' descriptions or a run of
// its space-separated words ("緑茶" of "緑茶 2L", "PASTA" of "PASTA PENNE").
bool word_run_of_an_item(const std::string& name, const nlohmann::ordered_json& items) {
    if (!items.is_array()) return false;
    const std::string n = ascii_upper(without_spaces(name));
    if (n.empty()) return false;
    for (const auto& item : items) {
        if (!item.is_object() || !item.contains("description") || !item["description"].is_string()) continue;
        std::vector<std::string> words;
        std::string w;
        for (char c : ascii_upper(item["description"].get<std::string>()) + " ") {
            if (std::isspace(static_cast<unsigned char>(c))) {
                if (!w.empty()) words.push_back(w);
                w.clear();
            } else {
                w += c;
            }
        }
        for (size_t a = 0; a < words.size(); ++a) {
            std::string run;
            for (size_t b = a; b < words.size() && run.size() < n.size(); ++b) {
                run += words[b];
                if (run == n) return true;
            }
        }
    }
    return false;
}

// Whether a line that prints `name` (spaces aside, upper-cased) is no item row: neither it nor the line after it
// ends with an amount with cents (and a tax code), or it is the name alone on the first or second line. A store whose
// items carry its brand ("Agua Pingo Doce 1.5L", "KFC Winger") prints its name in the header too.
bool printed_outside_item_rows(const std::string& text, const std::string& name) {
    static const std::regex cents(R"(\d[.,]\d{2}(\s?[A-Za-z]{1,2})?\s*$)");
    const std::string n = ascii_upper(without_spaces(name));
    const std::vector<std::string> lines = split_lines(text);
    for (size_t k = 0; k < lines.size(); ++k) {
        const std::string line = ascii_upper(without_spaces(lines[k]));
        if (line.find(n) == std::string::npos) continue;
        if (k < 2 && line == n) return true;  // the receipt's first line or the one after it, alone
        if (!regex_found(lines[k], cents) && !(k + 1 < lines.size() && regex_found(lines[k + 1], cents))) return true;
    }
    return false;
}

// Whether the text prints `name` right after 担当 / 担当者 (a colon and spaces between), up to a space or the line end:
// the cashier.
bool is_the_cashier(const std::string& text, const std::string& name) {
    static const std::string label = "担当";
    for (size_t at = text.find(label); at != std::string::npos; at = text.find(label, at + 1)) {
        size_t i = at + label.size();
        for (bool moved = true; moved;) {
            moved = false;
            for (const std::string skip : {"者", ":", "：", " ", "\t", "　"})
                if (text.compare(i, skip.size(), skip) == 0) {
                    i += skip.size();
                    moved = true;
                }
        }
        if (text.compare(i, name.size(), name) == 0) {
            const size_t end = i + name.size();
            if (end == text.size() || text[end] == '\n' || text[end] == ' ' || text[end] == '\r') return true;
        }
    }
    return false;
}

std::optional<std::string> latin_reason(const std::string& text, bool address, const std::string& value,
                                        const nlohmann::ordered_json& items) {
    // Money: a currency sign before an amount with cents; or cents (and a tax code) that end the value.
    static const std::regex money(R"((RM|\$|£|€)\s?\d[\d,]*[.,]\d{2}(?!\d))");
    static const std::regex end_amount(R"(\d[.,]\d{2}(\s?(SR|ZR|[TSZR]))?\s*$)");
    // A quantity: "2x", "1x CHICKEN", "X1.89", "4 @ 16.85".
    static const std::regex quantity(
        R"(^\s*\d{1,3}\s?[xX](\s|$)|(^|\s)[\dlI]{1,2}x\s?[A-Za-z]|[xX]\s?\d+[.,]\d{2}(?!\d)|\d\s?@\s?\d)");
    // A time: "18:01", "9:50:22", "12:15PM"; and the AM / PM that OCR joins to the cashier label after it.
    static const std::regex time(R"((^|[^\w:])\d{1,2}\s?[:;]\s?\d{2}(?!\d)|\d\s?[AP]\.?M\b|[AP]M(OPERATOR|CASHIER))");
    // Words of a receipt's body (upper-cased; OCR drops letters of the labels).
    static const std::regex body_words(
        R"(\b(GRAND\s*TOTAL|SUB\s*TOTAL|CHANGE\s*DUE|THANK\s*YOU|RETURNABLE|REFUNDABLE|TIMES?\s*:|)"
        R"((GST|VAT|SST)\s*\d+(\.\d+)?\s*%|T?R?ANS\s*#|SERVED\s*BY)|\b(O?P?ERAT[O0]R|CASHIER)\s*([:#\d]|$))");
    // A label and at most a number: "SERVD BY: 44134", "TIE:".
    static const std::regex label(R"(^[A-Za-z0-9#. ]{2,14}:\s*\d*\s*$)");
    static const std::regex address_amount(R"((^|[\s@])\d+\.\d{2}(\s|$))");
    static const std::regex address_words(R"(\b(QTY|DESC|PRICE|TOTAL)\b|\bNOT\s+RE[A-Z]*ABLE\b)");

    const std::string read = read_digit_confusions(value);
    const std::string upper = ascii_upper(value);
    if (regex_found(read, money)) return "a money amount";
    if (regex_found(ascii_upper(read), end_amount)) return "an amount at its end";
    if (regex_found(read, quantity)) return "a quantity";
    if (regex_found(ascii_upper(read), time)) return "a time";
    if (regex_found(upper, body_words)) return "a word of the receipt's body";
    if (regex_found(value, label)) return "a label";
    if (has_cjk(value)) return "letters of a script the receipt does not print";
    if (!address) {
        if (word_run_of_an_item(value, items) && !printed_outside_item_rows(text, value))
            return "an item's description";
        return std::nullopt;
    }
    if (regex_found(read, address_amount)) return "an amount";
    if (regex_found(upper, address_words)) return "a column heading or total word";
    if (words_of_an_item(value, items)) return "the words of an item";
    if (printed_word_share(text, value) < 0.5 && !number_printed(text, value))
        return "neither most of its words nor any of its numbers printed";
    return std::nullopt;
}

bool is_cjk_point(uint32_t c) {
    return (c >= 0x3040 && c <= 0x30FF) || (c >= 0x3400 && c <= 0x9FFF) || (c >= 0xF900 && c <= 0xFAFF) ||
           (c >= 0xFF66 && c <= 0xFF9F);
}

// Share of the pairs of adjacent CJK characters of `value` (whitespace aside) that the text prints adjacent
// (whitespace aside); 1 for a value without such pairs. A printed address keeps most pairs through OCR's dropped
// characters (at least 0.4 on the development sets and in the training data); another store's address that the
// model wrote for a receipt whose header is cut off keeps none.
double printed_cjk_pair_share(const std::string& text, const std::string& value) {
    std::vector<uint32_t> points;
    for_each_code_point(value, [&](uint32_t c) {
        if (c != ' ' && c != '\t' && c != '\n' && c != 0x3000) points.push_back(c);
    });
    const std::string joined = without_spaces(text);
    size_t pairs = 0, printed = 0;
    for (size_t i = 0; i + 1 < points.size(); ++i) {
        if (!is_cjk_point(points[i]) || !is_cjk_point(points[i + 1])) continue;
        std::string pair;
        append_utf8(pair, points[i]);
        append_utf8(pair, points[i + 1]);
        ++pairs;
        printed += joined.find(pair) != std::string::npos;
    }
    return pairs == 0 ? 1.0 : static_cast<double>(printed) / static_cast<double>(pairs);
}

std::optional<std::string> japanese_reason(const std::string& text, bool address, const std::string& value,
                                           const nlohmann::ordered_json& items) {
    static const std::regex date_or_time(R"(\d{1,4}/\d{1,2}/\d{1,2}|\d{1,2}:\d{2}|\d\s?時)");
    if (address) {
        if (regex_found(read_digit_confusions(value), date_or_time)) return "a date or time";
        if (printed_cjk_pair_share(text, value) < 0.2) return "the receipt prints none of it";
        return std::nullopt;
    }
    if (word_run_of_an_item(value, items)) return "an item's description";
    if (is_the_cashier(text, value)) return "the cashier's name";
    // An amount in yen ("880円 営業時間"); not the 100円 of "100円ショップ".
    static const std::regex yen_amount(R"((¥|￥|\\)\s?\d|\d\s?円(\s|$))");
    if (regex_found(value, yen_amount)) return "an amount";
    return std::nullopt;
}

}  // namespace

PrintedWords::PrintedWords(const std::string& whole_text) {
    const std::string text(utf8_prefix(whole_text, kMaxTextBytes));
    const auto list = latin_words(text, 3);
    words_.insert(list.begin(), list.end());
    joined_ = ascii_upper(without_spaces(text));
}

double PrintedWords::share(const std::string& value) const {
    const auto words = latin_words(value, 3);
    if (words.empty()) return 1.0;
    size_t printed = 0;
    for (const auto& w : words) {
        bool hit = words_.count(w) > 0 || joined_.find(w) != std::string::npos;
        for (auto it = words_.begin(); !hit && it != words_.end(); ++it) hit = within_one_edit(w, *it);
        printed += hit;
    }
    return static_cast<double>(printed) / static_cast<double>(words.size());
}

double printed_word_share(const std::string& text, const std::string& value) {
    return PrintedWords(text).share(value);
}

std::optional<std::string> body_line_reason(const std::string& text, const std::string& key, const std::string& value,
                                            const nlohmann::ordered_json& items) {
    if (key != "supplier_name" && key != "supplier_address") return std::nullopt;
    const std::string t = sanitize_utf8(utf8_prefix(text, kMaxTextBytes));
    const std::string v = sanitize_utf8(value);
    if (v.empty()) return std::nullopt;
    const bool address = key == "supplier_address";
    // An e-mail address names no store ("support@example.com" of a letter's footer).
    static const std::regex email(R"([A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,})");
    if (!address && regex_found(v, email)) return "an e-mail address";
    return has_cjk(t) ? japanese_reason(t, address, v, items) : latin_reason(t, address, v, items);
}

bool drop_body_line_values(const std::string& text, const std::vector<std::string>& keys,
                           nlohmann::ordered_json& fields) {
    bool any = false;
    try {
        const nlohmann::ordered_json items =
            fields.contains("line_items") ? fields["line_items"] : nlohmann::ordered_json::array();
        for (const std::string& key : keys) {
            auto it = fields.find(key);
            if (it == fields.end() || !it->is_string()) continue;
            const std::string value = it->get<std::string>();
            const auto reason = body_line_reason(text, key, value, items);
            if (!reason) continue;
            *it = nullptr;
            if (!fields["warnings"].is_array()) fields["warnings"] = nlohmann::ordered_json::array();
            fields["warnings"].push_back(key + "_body_line: the model wrote '" + value + "', " + *reason +
                                         "; left out");
            any = true;
        }
    } catch (...) {  // a malformed object: leave the rest as it is
    }
    return any;
}

}  // namespace receipt::extract
