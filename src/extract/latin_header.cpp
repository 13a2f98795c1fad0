// Latin-script store names and phone numbers as printed (extract/latin_header.h).
#include "extract/latin_header.h"

#include <algorithm>
#include <regex>
#include <vector>

#include "extract/company_name.h"
#include "extract/name_constraint.h"
#include "extract/ocr_digits.h"
#include "extract/printed_value.h"
#include "extract/utf8.h"

namespace receipt::extract {

namespace {

constexpr size_t kNameHeaderLines = 6;    // lines a store name is looked for in
constexpr size_t kPhoneHeaderLines = 12;  // lines a labelled phone number is looked for in
constexpr size_t kMaxLineBytes = 200;     // bytes of a line the regexes look at (bounds std::regex's recursion)

// Upper case without spaces: how names, lines and addresses are compared.
std::string canon(const std::string& s) { return strip_spaces(ascii_upper(s)); }

// Whether `piece` (canon) lies in `hay` (canon) within one edit in eight characters (at least one).
bool fuzzy_piece_of(const std::string& piece, const std::string& hay) {
    if (piece.empty() || hay.empty()) return false;
    const int allowed = std::max<int>(1, int(piece.size() / 8));
    return substring_edit_distance(piece, hay) <= allowed;
}

// The street types a street line ends with, as a regex group ("5450 Market St", "STATION ROAD").
constexpr char kStreetType[] = R"((ST|STREET|AVE|AVENUE|ROAD|RD|LANE|LN|BLVD|DRIVE|DR|WAY)\.?$)";

// Whether a header line (upper case, trimmed) is a house number alone ("141", "700") or a street line with or
// without its number: at most two words before a street type ("2004 HIGH STREET", "STATION ROAD", "ROAD").
bool street_or_number_line(const std::string& upper) {
    static const std::regex re(std::string(R"(^\d{1,5}[A-Z]?$|^(\d{1,5}[A-Z]?\s+)?([A-Z'.]+\s+){0,2})") + kStreetType);
    if (upper.size() > kMaxLineBytes) return false;
    try {
        return std::regex_search(upper, re);
    } catch (...) {
        return false;
    }
}

}  // namespace

std::optional<std::string> name_without_street_lines(const std::string& text, const std::string& name) {
    const std::string n = canon(name);
    if (has_cjk(name) || n.empty()) return std::nullopt;
    const std::vector<std::string> lines = first_lines(text, kNameHeaderLines + 2, kMaxLineBytes);
    for (size_t i = 0; i < lines.size() && i < kNameHeaderLines; ++i) {
        // The lines i..j whose joined text (spaces aside) is the name.
        std::string joined;
        size_t j = i;
        for (; j < lines.size(); ++j) {
            joined += canon(lines[j]);
            if (joined.size() >= n.size()) break;
        }
        if (joined != n || j == i || j >= lines.size()) continue;
        size_t b = i, e = j;
        while (b < e && street_or_number_line(ascii_upper(lines[b]))) ++b;
        while (e > b && street_or_number_line(ascii_upper(lines[e]))) --e;
        if (b == i && e == j) return std::nullopt;
        std::string kept;
        for (size_t k = b; k <= e; ++k) kept += (kept.empty() ? "" : " ") + lines[k];
        if (!has_ascii_letter(kept) || street_or_number_line(ascii_upper(kept))) return std::nullopt;
        return kept;
    }
    return std::nullopt;
}

bool damaged_title(const std::string& c) {
    static const char* const titles[] = {"TAXINVOICE", "SIMPLIFIEDTAXINVOICE", "RECEIPT", "SALESRECEIPT",
                                         "OFFICIALRECEIPT", "CASHBILL", "CASHSALE", "INVOICE"};
    for (const char* t : titles) {
        const std::string title(t);
        if (c == title || (c.size() >= 6 && edit_distance(c, title) <= 1)) return true;
    }
    return false;
}

bool phone_like(const std::string& s) {
    int digits = 0, letters = 0;
    for (unsigned char ch : s) {
        if (ch >= '0' && ch <= '9') ++digits;
        else if ((ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z')) ++letters;
    }
    return digits >= 7 && letters <= 2;
}

std::optional<std::string> name_without_address_run_on(const std::string& text, const std::string& name,
                                                        const std::string& address) {
    if (has_cjk(name) || address.empty()) return std::nullopt;
    const std::string n = canon(name), a = canon(address);
    const std::vector<std::string> lines = first_lines(text, kNameHeaderLines + 2, kMaxLineBytes);
    for (size_t i = 0; i + 1 < lines.size() && i < kNameHeaderLines; ++i) {
        const std::string l = canon(lines[i]);
        if (l.size() < 2 || !has_ascii_letter(l) || n.size() <= l.size() || n.compare(0, l.size(), l) != 0) continue;
        const std::string rest = n.substr(l.size());
        std::string next;  // the following lines, joined
        for (size_t j = i + 1; j < lines.size() && next.size() < rest.size(); ++j) next += canon(lines[j]);
        if (next.compare(0, rest.size(), rest) != 0) continue;
        if (fuzzy_piece_of(rest, a)) return lines[i];
    }
    return std::nullopt;
}

bool name_names_no_shop(const std::string& name, const std::string& address) {
    if (has_cjk(name)) return false;
    const std::string upper = ascii_upper(trim(name)), c = canon(name);
    if (c.empty()) return false;
    if (title_or_id_line(upper) || damaged_title(c) || phone_like(c)) return true;
    static const std::regex house(R"(^(NO|LOT)\s*[.:]?\s*\d)");
    // A street line: a house number, one or two words and a street type ("5450 Market St", "78 HIGH STREET").
    static const std::regex street(std::string(R"(^\d{1,5}[A-Z]?\s+[A-Z'.]+(\s+[A-Z'.]+)?\s+)") + kStreetType);
    try {
        if (std::regex_search(upper, house) || std::regex_search(upper, street)) return true;
    } catch (...) {
    }
    // An address that starts with the name ran on from the name line above it (address_without_name_lines
    // mends the address); the name stands.
    const std::string a = canon(address);
    if (a.compare(0, c.size(), c) == 0) return false;
    return c.size() >= 4 && fuzzy_piece_of(c, a);
}

std::optional<std::string> header_name_line_outside(const std::string& text, const std::string& address) {
    const std::string a = canon(address);
    for (const std::string& line : first_lines(text, kNameHeaderLines, kMaxLineBytes)) {
        const std::string upper = ascii_upper(line), c = canon(line);
        if (!has_ascii_letter(upper) || title_or_id_line(upper) || damaged_title(c) || phone_like(c)) continue;
        if (!a.empty() && fuzzy_piece_of(c, a)) continue;
        return line;
    }
    return std::nullopt;
}

std::optional<std::string> latin_labelled_phone_for(const std::string& text, const std::string& model_phone) {
    if (has_cjk(text)) return std::nullopt;
    // With one letter of TEL or PHONE lost ("TE.", "PHON:", "PHOE").
    static const std::regex label(R"(\b(TEL|PHONE|PH|TL|T|TE|PHON|PHOE|PHNE|PONE|HONE)\b\.?\s*(NO\.?)?\s*[:.]?\s*)",
                                  std::regex::icase);
    // A line that is a phone number alone: digits in groups (brackets, spaces, hyphens), 10 or 11 of them, from a 0
    // or an opening bracket.
    static const std::regex bare(R"(^\s*(\(\d{3}\)\s?\d{3}-\d{4}|0\d{1,4}[- ]\d{3,4}[- ]?\d{3,4})\s*$)");
    std::vector<std::string> unlabelled;
    const std::vector<std::string> lines = first_lines(text, kPhoneHeaderLines, kMaxLineBytes);
    std::vector<std::string> found;
    std::vector<std::string> line_digits;
    for (const std::string& line : lines) {
        const std::string read = read_digit_confusions(line);
        line_digits.push_back(ascii_digits(read));
        std::smatch m;
        try {
            if (!std::regex_search(read, m, label)) {
                const size_t n = line_digits.back().size();  // the digits of `read`
                if (n >= 10 && n <= 11 && std::regex_match(read, bare)) unlabelled.push_back(trim(read));
                continue;
            }
        } catch (...) {
            continue;
        }
        // The number: brackets, digits, spaces, hyphens and dots after the label, up to anything else.
        const std::string rest = m.suffix().str();
        size_t end = 0;
        while (end < rest.size() &&
               (is_ascii_digit(rest[end]) || std::string("()+- .").find(rest[end]) != std::string::npos))
            ++end;
        std::string number = trim(rest.substr(0, end));
        while (!number.empty() && (number.back() == '-' || number.back() == '.' || number.back() == '('))
            number.pop_back();
        number = trim(number);
        const size_t n_digits = ascii_digits(number).size();
        const bool starts_number =
            !number.empty() && (is_ascii_digit(number[0]) || number[0] == '(' || number[0] == '+');
        if (n_digits < 9 || n_digits > 12 || !starts_number) continue;
        // "512) 555-9385": the opening bracket lost.
        const size_t close = number.find(')');
        if (close != std::string::npos && number.find('(') == std::string::npos && close <= 4 &&
            ascii_digits(number.substr(0, close)).size() == close)
            number = "(" + number;
        if (std::find(found.begin(), found.end(), number) == found.end()) found.push_back(number);
    }
    // No labelled number (OCR damaged the label or printed the number alone): the one header line that is a number.
    if (found.empty() && unlabelled.size() == 1) found = unlabelled;
    if (found.size() != 1) return std::nullopt;
    const std::string wrote = ascii_digits(model_phone);
    if (!wrote.empty())
        for (const std::string& d : line_digits)
            if (d.find(wrote) != std::string::npos) return std::nullopt;
    if (found[0] == model_phone) return std::nullopt;
    // The printed number is the model's with one digit lost ("0-1817 5163" for 03-1817 5163): the model put the
    // digit OCR dropped back.
    if (!wrote.empty() && extra_byte_at(ascii_digits(found[0]), wrote)) return std::nullopt;
    return found[0];
}

size_t latin_phone_digits_expected(const std::string& phone, const std::string& currency) {
    std::string digits;  // of the first number: up to a '/' that starts a second one
    for (char c : phone.substr(0, phone.find('/')))
        if (c >= '0' && c <= '9') digits += c;
    if (currency == "GBP" && digits.size() >= 2 && digits[0] == '0' &&
        (digits[1] == '1' || digits[1] == '2' || digits[1] == '7'))
        return 11;
    if (currency == "USD") return digits.size() == 11 && digits[0] == '1' ? 11 : 10;
    if (currency == "MYR" && digits.rfind("03", 0) == 0) return 10;
    return 0;
}

}  // namespace receipt::extract
