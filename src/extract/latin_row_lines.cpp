// Lines of a Latin-script receipt's item area, read (extract/latin_row_lines.h).
#include "extract/latin_row_lines.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>

#include "extract/item_rows.h"
#include "extract/latin_lookalikes.h"
#include "extract/printed_amounts.h"
#include "extract/printed_value.h"
#include "extract/utf8.h"

namespace receipt::extract {

namespace {

constexpr size_t kMaxLineBytes = 200;  // bytes of a line the regexes look at (bounds std::regex's recursion)

}  // namespace

const char* const kMoney = R"((-\s*)?(?:\$|£|€|RM|MYR|USD|GBP)?\s*(-\s*)?(\d{1,3}(?:,\d{3})+|\d+)[.,](\d{2}))";
const char* const kUnitMoney = R"((-\s*)?(?:\$|£|€|RM|MYR|USD|GBP)?\s*(-\s*)?(\d{1,3}(?:,\d{3})+|\d+)[.,](\d{2,4}))";

std::optional<double> money_of(const std::smatch& m, size_t first) {
    // groups: first = sign, first+1 = sign after the currency, first+2 = integer part, first+3 = decimals
    std::string whole = m[first + 2].str();
    std::string digits;
    for (char c : whole)
        if (c != ',') digits += c;
    if (digits.empty() || digits.size() > 9) return std::nullopt;
    const double v = std::stod(digits) + std::stod("0." + m[first + 3].str());
    const bool negative = m[first].matched || m[first + 1].matched;
    return std::round((negative ? -v : v) * 100.0) / 100.0;
}

namespace {

// `word` with the OCR look-alike digits 0, 5 and 8 read as O, S and B, and 1 as `one` (L in TOTAL, I in CASHIER).
std::string digits_as_letters(std::string word, char one) {
    for (char& c : word) c = c == '0' ? 'O' : c == '1' ? one : c == '5' ? 'S' : c == '8' ? 'B' : c;
    return word;
}

// A subtotal / total keyword that OCR damaged at the start of `upper`: look-alike digits inside a word read as
// letters ("5UB TOTAL", "SUB-TOTA1") and then at most one letter lost, added or changed ("TOTL SAES", "SUB TOTL").
bool is_damaged_total_keyword(const std::string& upper) {
    std::vector<std::string> words;
    std::string w;
    for (size_t i = 0; i <= upper.size() && words.size() < 2; ++i) {
        const char c = i < upper.size() ? upper[i] : ' ';
        if (c == ' ' || c == '-' || c == ':') {
            if (!w.empty()) words.push_back(w);
            w.clear();
        } else {
            w += c;
        }
    }
    for (std::string& word : words) {
        if (!has_ascii_letter(word)) return false;
        word = digits_as_letters(word, 'L');
    }
    if (words.empty()) return false;
    std::vector<std::string> keys{words[0]};
    if (words.size() > 1) keys.push_back(words[0] + words[1]);
    for (const std::string& k : keys)
        if (k.size() >= 4 && (edit_distance(k, "TOTAL") <= 1 || edit_distance(k, "SUBTOTAL") <= 1)) return true;
    return false;
}

}  // namespace

bool is_end_line(const std::string& upper) {
    // "SUB TOTAL", "Sub-Total", "SubーTotal" (OCR's long vowel mark or a dash for the hyphen)
    // "TAKEOUT TOTAL (INCL GST)", "EAT-IN TOTAL": a restaurant's total by order kind; "ITEM: 3 TOTAL WITH GST" (the
    // item count and the total of a row of text)
    static const std::regex end(
        R"(^(SUB(?:[\s-]|ー|－|–|—)*TOTAL|TOTAL|BALANCE\s+DUE|GRAND\s+TOTAL|AMOUNT\s+DUE|NET\s+TOTAL|)"
        R"((?:TAKE\s*OUT|TAKE\s*AWAY|EAT[\s-]*IN|DINE[\s-]*IN)\s+TOTAL\b|ITEMS?\s*:?\s*\d{1,3}\s+TOTAL\b))");
    static const std::regex tax(R"(^(VAT|TAX|GST|SST)\b(?!\s*(INVOICE|ID|REG|NO\b|NO\.|NUMBER|SUMMARY)))");
    if (std::regex_search(upper, end) || std::regex_search(upper, tax) || is_damaged_total_keyword(upper)) return true;
    // A tax keyword with a look-alike digit in it ("G5T @6%"): its first word read as letters, and so is a short
    // word after it with a letter in it, so that a registration number stays no end line ("G5T N0. 0012").
    const size_t sp = std::min(upper.find(' '), upper.size());
    const std::string first = upper.substr(0, sp);
    if (sp != 3 || !has_ascii_letter(first) || first.find_first_of("0158") == std::string::npos)
        return false;
    std::string rest = upper.substr(sp);
    const size_t b = rest.find_first_not_of(' ');
    const size_t e = b == std::string::npos ? b : std::min(rest.find_first_of(" .:", b), rest.size());
    if (b != std::string::npos && e - b <= 6 && has_ascii_letter(rest.substr(b, e - b)))
        rest.replace(b, e - b, digits_as_letters(rest.substr(b, e - b), 'I'));
    return std::regex_search(digits_as_letters(first, 'I') + rest, tax);
}

// A header line above the item rows: a date or time, a cashier / operator / transaction label, a table heading,
// a restaurant's table number or order kind ("TBL64 / 1", "EAT IN", "TAKE AWAY").
bool is_header_line(const std::string& upper) {
    static const std::regex time(R"(\b\d{1,2}:\d{2})");
    static const std::regex date(R"(\b\d{1,2}[/.-]\d{1,2}[/.-]\d{2,4}\b|\b\d{4}[/.-]\d{1,2}[/.-]\d{1,2}\b)");
    static const std::regex month(
        R"(\b(JAN|FEB|MAR|APR|MAY|JUN|JUL|AUG|SEP|OCT|NOV|DEC)[A-Z]*\.?\s+\d{1,2},?\s+\d{4}\b)");
    static const std::regex label(
        R"(^(QTY|DESC|DESCRIPTION|PRICE|AMOUNT|AMT|ITEM|ITEMS|CASHIER|OPERATOR|SERVED\s+BY|TRANS|TXN|TABLE|TBL\d*|EAT\s+IN|DINE\s+IN|TAKE\s*AWAY|RECEIPT|TAX\s+INVOICE|INVOICE|CASH\s+BILL|BILL|DATE|TIME)\b|^(RM|MYR|USD|GBP|EUR)$)"
        R"(|^SERVED\s*$|^BY\s*:$)");  // "SERVED" / "BY:" (OCR broke the label over two lines)
    // A label that OCR damaged, with the number after it ("OERATOR 59874", "SERVED Y: 36806").
    static const std::regex label_number(R"(^[A-Z][A-Z .]{2,}:?\s*#?\d{4,}$)");
    // A cashier / operator label alone with its colon, one letter lost, added or changed ("CASHIR:", its number
    // printed above it); not a footer label ("TOT QTY:").
    // Look-alike digits read as letters first ("SERVED 8Y:").
    static const std::regex colon_label(R"(^([A-Z][A-Z0-9 .]{2,})[:;]$)");  // ("SERVED B;": a colon read as ;)
    std::smatch cm;
    if (std::regex_match(upper, cm, colon_label)) {
        std::string k = cm[1].str();
        k.erase(std::remove(k.begin(), k.end(), ' '), k.end());
        k = digits_as_letters(k, 'I');
        for (const char* l : {"CASHIER", "OPERATOR", "SERVEDBY", "SALESPERSON"})
            if (edit_distance(k, l) <= 1) return true;
    }
    // A table heading alone on its line with one letter lost, added or changed ("AMOUT", "DESCRIPTON"); not the
    // shorter headings, whose damaged forms are words of descriptions ("PRICE" / "RICE").
    if (upper.size() >= 5 && upper.size() <= 12 && upper.find(' ') == std::string::npos)
        for (const char* l : {"AMOUNT", "DESCRIPTION"})
            if (edit_distance(upper, l) <= 1) return true;
    // A label with OCR look-alike digits in its words reads as the label ("AM0UNT").
    return std::regex_search(upper, time) || std::regex_search(upper, date) || std::regex_search(upper, month) ||
           std::regex_search(upper, label) || std::regex_search(read_letter_confusions(upper), label) ||
           std::regex_match(upper, label_number);
}

// The line after the last header line above `end`, past a cashier's or transaction's number: four digits or
// more, or after a cashier / operator label alone on its line a shorter one, OCR's look-alike letters allowed
// ("OPERATOR" / "13B").
size_t first_row_line(const LatinRowLines& l, size_t end) {
    size_t begin = 0;
    for (size_t i = 0; i < end; ++i)
        if (is_header_line(l.upper[i])) begin = i + 1;
    static const std::regex id(R"(^#?\d{4,}$)");
    static const std::regex staff_label(R"(^(CASHIER|OPERATOR|SERVED\s*BY|SALESPERSON|STAFF)\s*[:#]?$)");
    static const std::regex short_id(R"(^#?(?=(?:[^\d]*\d){2})[\dBOSZIl]{2,8}$)");
    if (begin > 0 && begin < end && std::regex_match(l.upper[begin - 1], staff_label) &&
        std::regex_match(l.read[begin], short_id))
        ++begin;
    while (begin < end && std::regex_match(l.read[begin], id)) ++begin;
    return begin;
}

std::optional<double> end_line_amount(const LatinRowLines& l, size_t e) {
    static const std::regex at_end(std::string(kMoney) + "$");
    static const std::regex alone(std::string("^") + kMoney + "$");
    static const std::regex rm_lost(R"(^M\d[\d,]*[.,]\d{2}$)");  // "M43.72": the R of RM lost
    std::smatch m;
    if (e < l.read.size() && std::regex_search(l.read[e], m, at_end)) return money_of(m, 1);
    // The amount alone on the next line; or on the line after it when the next line finishes the label without a
    // digit ("TOTAL SALES (EXCLUDING" / "GST)" / "RM208.00", "TOTAL" / "SALES (EXCLUDING GST)" / "RM527.47").
    static const std::regex label_rest(R"(^[A-Z][A-Z .()]{0,30}$|^\)$)");
    for (size_t k = e + 1; k < l.read.size() && k <= e + 2; ++k) {
        const std::string next = std::regex_match(l.read[k], rm_lost) ? "RM" + l.read[k].substr(1) : l.read[k];
        if (std::regex_match(next, m, alone)) return money_of(m, 1);
        const std::string& u = l.upper[k];
        const bool rest = std::regex_match(u, label_rest) && u.find_first_of("0123456789") == std::string::npos &&
                          (u.find("GST") != std::string::npos || u.find("SALES") != std::string::npos ||
                           u.find("EXCL") != std::string::npos || u.find("INCL") != std::string::npos);
        if (!rest) break;
    }
    return std::nullopt;
}

std::optional<LatinRowLines> latin_row_lines(const std::string& text) {
    const std::vector<std::string> read = printed_lines(text);
    const std::vector<std::string> as_is = printed_lines_as_is(text);
    if (read.size() != as_is.size() || read.size() > kMaxItemRowLines) return std::nullopt;
    // A tax code after an amount ("2.85 T", "41.95 SR") marks the item's tax rate: the amount alone is read.
    // Also after an amount OCR damaged (".12 T", "4.0 T"), and a T glued to the amount ("51.80T").
    static const std::regex tax_code(R"(^(.*\d[.,]\d{2}|[-$£€RM\s]*\d*[.,]\d{1,2})(?:\s+(T|S|SR|ZR|Z|E|N|X|\*)|T)$)");
    LatinRowLines l;
    for (size_t i = 0; i < read.size(); ++i) {
        l.read.push_back(trim(read[i].substr(0, kMaxLineBytes)));
        l.printed.push_back(trim(as_is[i].substr(0, kMaxLineBytes)));
        std::smatch code;
        if (std::regex_match(l.read.back(), code, tax_code) && l.read.back().size() == l.printed.back().size()) {
            l.read.back() = code[1].str();
            l.printed.back() = l.printed.back().substr(0, l.read.back().size());
        }
        l.upper.push_back(ascii_upper(l.printed.back()));
        for (std::string* line : {&l.read.back(), &l.printed.back(), &l.upper.back()})
            *line = with_run_together_amounts_apart(*line);
    }
    // "SUB" / "TOTAL": a subtotal label that OCR broke over two lines is one end line.
    static const std::regex sub(R"(^SUB[\s-]*$)");
    for (size_t i = 0; i + 1 < l.upper.size(); ++i)
        if (std::regex_match(l.upper[i], sub) && l.upper[i + 1].rfind("TOTAL", 0) == 0) {
            for (auto* lines : {&l.read, &l.printed, &l.upper}) {
                (*lines)[i] += " " + (*lines)[i + 1];
                lines->erase(lines->begin() + long(i) + 1);
            }
        }
    return l;
}

std::optional<LatinRowLines> with_glued_sizes_apart(const LatinRowLines& l) {
    // As printed: a description, a space, a size of 1-4 digits and S (pieces) or g, and the amount run together.
    static const std::regex glued(R"(^(.*[A-Za-z].* \d{1,4}[Sg])(\d{1,4}[.,]\d{2})$)");
    LatinRowLines out = l;
    bool any = false;
    for (size_t i = 0; i < l.printed.size(); ++i) {
        std::smatch m;
        if (l.printed[i].size() != l.read[i].size() || !std::regex_match(l.printed[i], m, glued)) continue;
        const size_t at = size_t(m.length(1));  // where the amount starts
        out.printed[i] = l.printed[i].substr(0, at) + " " + l.printed[i].substr(at);
        out.read[i] = l.printed[i].substr(0, at) + " " + l.read[i].substr(at);
        out.upper[i] = ascii_upper(out.printed[i]);
        any = true;
    }
    return any ? std::optional<LatinRowLines>(std::move(out)) : std::nullopt;
}

std::string with_run_together_amounts_apart(const std::string& line) {
    // A count, a description, then a unit price and an amount with the space between them lost; the description
    // may have lost its space before the price too ("1 BALL PEN BLUE1.101.10").
    static const std::regex row(R"(^(\d{1,2}) (.*[A-Za-z].*?)(\d+\.\d{2})(\d+\.\d{2})$)");
    std::smatch m;
    if (line.size() > kMaxLineBytes || !std::regex_match(line, m, row)) return line;
    const double count = std::stod(m[1].str()), amount = std::stod(m[4].str());
    if (count < 1) return line;
    // The price's whole part is a digit run that may begin inside the description ("4S21.5021.50": 21.50, not
    // 1.50): from the longest run down, the first price that times the count makes the amount.
    const std::string desc = m[2].str(), price = m[3].str();
    const size_t point = price.find('.');
    for (size_t from = 0; from < point; ++from) {
        if (std::fabs(count * std::stod(price.substr(from)) - amount) > 0.005) continue;
        std::string d = desc + price.substr(0, from);
        if (!std::isalnum(static_cast<unsigned char>(d.back())) && d.back() != ' ') return line;
        if (d.back() != ' ') d += ' ';
        return m[1].str() + " " + d + price.substr(from) + " " + m[4].str();
    }
    return line;
}

// An amount that OCR damaged, alone on its line: a number with a point and other than two decimals or no digit
// before it ("1.8", "17.2", ".00", "-2.8"), or four or five digits without one ("1451": the point lost), or three
// from a 0 ("060").
bool is_damaged_amount(const std::string& line) {
    static const std::regex number(R"(^(-\s*)?(?:\$|£|€|RM)?\s*(-\s*)?(\d*)(?:[.,](\d*))?$)");
    std::smatch m;
    if (!std::regex_match(line, m, number)) return false;
    const size_t whole = size_t(m.length(3)), decimals = size_t(m.length(4));
    if (whole + decimals < 2) return false;
    if (m[4].matched) return decimals != 2 || whole == 0;
    return (whole >= 4 && whole <= 5) || (whole == 3 && m[3].str()[0] == '0');  // "060": no count starts with 0
}

// The digits of an amount with its two decimals: 12.00 -> "1200", 0.56 -> "056".
std::string cents_digits(double value) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f", std::fabs(value));
    return ascii_digits(buf);
}

// Whether `print` (a damaged amount line) holds the digits of `value` in order, with at most two lost, and its sign.
bool digits_fit(const std::string& print, double value) {
    const bool negative = print.find('-') != std::string::npos;
    if (negative != (value < 0) || value == 0) return false;
    const std::string printed = ascii_digits(print), digits = cents_digits(value);
    if (printed.size() > digits.size() || digits.size() - printed.size() > 2) return false;
    size_t k = 0;
    for (char c : digits)
        if (k < printed.size() && printed[k] == c) ++k;
    return k == printed.size();
}

// A description without the row number or product code printed before it ("1. MAX 10-1M STAPLES",
// "910347623 ALMOND CAKE").
std::string without_row_number(const std::string& desc) {
    static const std::regex number(R"(^(\d{1,3}\.|\d{6,14})\s+(?=\S))");
    return std::regex_replace(desc, number, "", std::regex_constants::format_first_only);
}

// A description that names a total, tax, rounding or payment line, not an item ("CASH", "RELIEF GST", "ROUNDING").
bool names_no_item(const std::string& upper) {
    static const std::regex payment(
        R"(^(CASH(?!\s+(BOOK|BOX|REGISTER))|CHANGE|TENDER|ROUNDING|RELIEF|PAYMENT|VISA|MASTERCARD|AMEX|DEBIT|CREDIT|)"
        R"(CARD)\b|\b(GST|VAT|SST)$)");  // ("CASH BOOK 80PGS A4" is an item)
    return is_end_line(upper) || std::regex_search(upper, payment);
}

bool names_discount(const std::string& upper) {
    static const std::regex discount(R"(^(MEMBER\s+)?(DISC|DISCOUNT|COUPON|PROMO|VOUCHER)\.?$)");
    return std::regex_match(upper, discount);
}

void totals_below_end(const LatinRowLines& l, size_t end, size_t below, std::vector<double>& later_totals,
                      std::vector<std::string>& damaged_totals) {
    const std::vector<std::string>& lines = l.read;
    static const std::regex damaged_at_end(R"(\s((?:\$|£|€|RM)?\s*[\d.,]+)$)");
    for (size_t e = end; e < lines.size() && e <= end + below; ++e) {
        if (!is_end_line(l.upper[e])) continue;
        const std::optional<double> a = end_line_amount(l, e);
        if (a && e > end) later_totals.push_back(*a);
        if (!a && e + 1 < lines.size() && is_damaged_amount(lines[e + 1]) && !has_ascii_letter(l.printed[e + 1]))
            damaged_totals.push_back(lines[e + 1]);
        std::smatch d;
        if (!a && std::regex_search(lines[e], d, damaged_at_end) && is_damaged_amount(d[1].str()))
            damaged_totals.push_back(d[1].str());
    }
}

void descriptions_from_other_rows(std::vector<ItemRow>& rows) {
    // True when `longer` is `shorter` with one ASCII letter more.
    const auto one_letter_more = [](const std::string& shorter, const std::string& longer) {
        const std::optional<size_t> k = extra_byte_at(shorter, longer);
        return k && has_ascii_letter(std::string_view(longer).substr(*k, 1));
    };
    for (ItemRow& r : rows) {
        if (r.description.size() < 5) continue;
        for (const ItemRow& other : rows)
            if (one_letter_more(r.description, other.description)) {
                r.description = other.description;
                break;
            }
    }
}

}  // namespace receipt::extract
