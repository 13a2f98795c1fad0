// Item rows of a Latin-script receipt read from its printed lines (extract/latin_item_rows.h).
#include "extract/latin_item_rows.h"

#include <cmath>
#include <regex>

#include "extract/printed_amounts.h"
#include "extract/utf8.h"

namespace receipt::extract {

namespace {

constexpr size_t kMaxLineBytes = 200;  // bytes of a line the regexes look at (bounds std::regex's recursion)

// A money amount with two decimals: optional sign and currency sign, thousands commas, a point or a comma before
// the cents ("$70.56", "RM136.38", "-5,88", "£ 7.09", "1,234.50").
const char* const kMoney = R"((-\s*)?(?:\$|£|€|RM|MYR|USD|GBP)?\s*(-\s*)?(\d{1,3}(?:,\d{3})+|\d+)[.,](\d{2}))";

std::optional<double> money_of(const std::smatch& m, size_t first) {
    // groups: first = sign, first+1 = sign after the currency, first+2 = integer part, first+3 = cents
    std::string whole = m[first + 2].str();
    std::string digits;
    for (char c : whole)
        if (c != ',') digits += c;
    if (digits.empty() || digits.size() > 9) return std::nullopt;
    const double v = std::stod(digits) + std::stod(m[first + 3].str()) / 100.0;
    const bool negative = m[first].matched || m[first + 1].matched;
    return std::round((negative ? -v : v) * 100.0) / 100.0;
}

// The line that ends the item rows: a subtotal or total keyword at its start, or a tax line ("TAX 7%", "VAT 20%";
// not the "TAX INVOICE" title or a "GST ID NO" / "VAT No." registration line of the header).
bool is_end_line(const std::string& upper) {
    static const std::regex end(R"(^(SUB[\s-]*TOTAL|TOTAL|BALANCE\s+DUE|GRAND\s+TOTAL|AMOUNT\s+DUE|NET\s+TOTAL))");
    static const std::regex tax(R"(^(VAT|TAX|GST|SST)\b(?!\s*(INVOICE|ID|REG|NO\b|NO\.|NUMBER|SUMMARY)))");
    return std::regex_search(upper, end) || std::regex_search(upper, tax);
}

// A header line above the item rows: a date or time, a cashier / operator / transaction label, a table heading.
bool is_header_line(const std::string& upper) {
    static const std::regex time(R"(\b\d{1,2}:\d{2})");
    static const std::regex date(R"(\b\d{1,2}[/.-]\d{1,2}[/.-]\d{2,4}\b|\b\d{4}[/.-]\d{1,2}[/.-]\d{1,2}\b)");
    static const std::regex month(R"(\b(JAN|FEB|MAR|APR|MAY|JUN|JUL|AUG|SEP|OCT|NOV|DEC)[A-Z]*\.?\s+\d{1,2},?\s+\d{4}\b)");
    static const std::regex label(
        R"(^(QTY|DESC|DESCRIPTION|PRICE|AMOUNT|AMT|ITEM|ITEMS|CASHIER|OPERATOR|SERVED\s+BY|TRANS|TXN|TABLE|RECEIPT|TAX\s+INVOICE|INVOICE|CASH\s+BILL|BILL|DATE|TIME)\b|^(RM|MYR|USD|GBP|EUR)$)");
    // A label that OCR damaged, with the number after it ("OERATOR 59874", "SERVED Y: 36806").
    static const std::regex label_number(R"(^[A-Z][A-Z .]{2,}:?\s*#?\d{4,}$)");
    return std::regex_search(upper, time) || std::regex_search(upper, date) || std::regex_search(upper, month) ||
           std::regex_search(upper, label) || std::regex_match(upper, label_number);
}

}  // namespace

std::optional<LatinItemRows> read_latin_item_rows(const std::string& text) {
    const std::vector<std::string> read = printed_lines(text);      // look-alikes read as digits: amounts
    const std::vector<std::string> as_is = printed_lines_as_is(text);  // descriptions
    if (read.size() != as_is.size() || read.size() > kMaxItemRowLines) return std::nullopt;
    std::vector<std::string> lines, printed, upper;
    // A tax code after an amount ("2.85 T", "41.95 SR") marks the item's tax rate: the amount alone is read.
    static const std::regex tax_code(R"(^(.*\d[.,]\d{2})\s+(T|S|SR|ZR|Z|E|N|X|\*)$)");
    for (size_t i = 0; i < read.size(); ++i) {
        lines.push_back(trim(read[i].substr(0, kMaxLineBytes)));
        printed.push_back(trim(as_is[i].substr(0, kMaxLineBytes)));
        std::smatch code;
        if (std::regex_match(lines.back(), code, tax_code) && lines.back().size() == printed.back().size()) {
            lines.back() = code[1].str();
            printed.back() = printed.back().substr(0, lines.back().size());
        }
        upper.push_back(ascii_upper(printed.back()));
    }
    // The rows end at the first subtotal / total line; they start after the last header line above it.
    size_t end = 0;
    while (end < lines.size() && !is_end_line(upper[end])) ++end;
    if (end == lines.size()) return std::nullopt;
    size_t begin = 0;
    for (size_t i = 0; i < end; ++i)
        if (is_header_line(upper[i])) begin = i + 1;
    static const std::regex id(R"(^#?\d{4,}$)");
    while (begin < end && std::regex_match(lines[begin], id)) ++begin;  // the cashier's or the transaction's number

    static const std::regex amount_line(std::string("^") + kMoney + "$");
    static const std::regex qty_at(std::string(R"(^(\d{1,3})\s*(?:@|x|X|×)\s*)") + kMoney + "$");
    static const std::regex at_only(std::string(R"(^(?:@|x|X|×)\s*)") + kMoney + "$");
    static const std::regex qty_at_amount(std::string(R"(^(\d{1,3})\s*(?:@|x|X|×)\s*)") + kMoney + R"(\s+)" + kMoney +
                                          "$");
    static const std::regex product_code(R"(^\d{6,14}$)");
    static const std::regex desc_at_unit(std::string(R"(^(.*?\S)\s*@\s*)") + kMoney + "$");
    static const std::regex count(R"(^\d{1,3}$)");
    static const std::regex count_at(R"(^(\d{1,3})\s*(?:@|x|X|×)$)");
    static const std::regex qty_desc(R"(^(\d{1,3})\s*[xX]\s+(.+)$)");
    static const std::regex desc_amounts(std::string(R"(^(?:(\d{1,3})\s+)?(.*?\S)\s+)") + kMoney + R"((?:\s+)" +
                                         kMoney + ")?$");

    LatinItemRows out;
    std::string desc;                   // description read so far (lines joined by a space)
    std::optional<double> qty, unit;    // a count (and unit price) printed before the amount
    std::optional<int> bare_count;      // a count alone on its line ("3" then "@ 1.31", or a table's QTY box)
    std::optional<int> count_then_unit; // "3 @" on its line: the unit price follows on the next
    bool last_counted = true;           // the last row already has its printed count
    auto emit = [&](double amount) {
        ItemRow r;
        r.description = desc;
        r.amount = amount;
        if (amount > 0) {
            if (!qty && unit && *unit > 0) {  // "description @unit" / amount: the count the unit price divides in
                const double q = std::round(amount / *unit);
                if (q >= 1 && std::fabs(q * *unit - amount) <= 0.005) qty = q;
            }
            r.quantity = qty ? *qty : 1.0;
            r.unit_price = unit ? *unit : qty && *qty > 0 ? std::round(amount / *qty * 100.0) / 100.0 : amount;
        }
        last_counted = qty.has_value();
        out.rows.push_back(r);
        desc.clear();
        qty.reset();
        unit.reset();
        bare_count.reset();
    };
    // A count and unit price after a row's amount belong to that row when they multiply to it.
    auto count_last_row = [&](double q, double u) {
        if (out.rows.empty() || last_counted || !desc.empty()) return false;
        ItemRow& r = out.rows.back();
        if (r.amount <= 0 || std::fabs(q * u - r.amount) > 0.005) return false;
        r.quantity = q;
        r.unit_price = u;
        last_counted = true;
        return true;
    };
    std::smatch m;
    for (size_t i = begin; i < end; ++i) {
        const std::string& line = lines[i];
        if (line.empty()) continue;
        if (std::regex_match(line, m, amount_line)) {
            const std::optional<double> a = money_of(m, 1);
            if (!a) return std::nullopt;
            if (count_then_unit) {  // "3 @" / "23.52": the unit price of the row above or below
                const double q = *count_then_unit;
                count_then_unit.reset();
                if (count_last_row(q, *a)) continue;
                if (desc.empty()) return std::nullopt;
                qty = q;
                unit = *a;
                continue;
            }
            if (desc.empty()) return std::nullopt;  // an amount with no description before it
            // A table row: count, description, unit price, amount ("1" / "MEE GORENG" / "7.20" / "7.20").
            std::smatch next;
            if (qty && !unit && i + 1 < end && std::regex_match(lines[i + 1], next, amount_line)) {
                const std::optional<double> b = money_of(next, 1);
                if (b && std::fabs(*qty * *a - *b) <= 0.005) {
                    unit = *a;
                    ++i;
                    emit(*b);
                    continue;
                }
            }
            emit(*a);
            continue;
        }
        if (std::regex_match(line, product_code)) continue;  // an EAN / article number above its description
        if (std::regex_match(line, m, qty_at_amount)) {  // "1 X 14.05 14.05": count, unit price and amount
            const double q = std::stod(m[1].str());
            const std::optional<double> u = money_of(m, 2), a = money_of(m, 6);
            if (!u || !a || desc.empty() || std::fabs(q * *u - *a) > 0.005) return std::nullopt;
            qty = q;
            unit = *u;
            emit(*a);
            continue;
        }
        if (std::regex_match(line, m, qty_at)) {
            const double q = std::stod(m[1].str());
            const std::optional<double> u = money_of(m, 2);
            if (!u) return std::nullopt;
            if (count_last_row(q, *u)) continue;
            qty = q;
            unit = *u;
            continue;
        }
        if (std::regex_match(line, m, at_only)) {
            const std::optional<double> u = money_of(m, 1);
            if (!u || !bare_count) return std::nullopt;
            const double q = *bare_count;
            bare_count.reset();
            if (count_last_row(q, *u)) continue;
            qty = q;
            unit = *u;
            continue;
        }
        if (std::regex_match(line, m, count_at)) {
            count_then_unit = std::stoi(m[1].str());
            continue;
        }
        if (std::regex_match(line, count)) {  // the next row's count (a table's QTY box), or this one's ("1" / "X 21.80")
            bare_count = std::stoi(line);
            continue;
        }
        if (std::regex_match(line, m, desc_at_unit) && has_ascii_letter(m[1].str())) {  // "FISHBALL NOODLE @7.00"
            const std::optional<double> u = money_of(m, 2);
            if (!u) return std::nullopt;
            desc += (desc.empty() ? "" : " ") + trim(printed[i].substr(size_t(m.position(1)), size_t(m.length(1))));
            if (bare_count && !qty) qty = double(*bare_count);
            bare_count.reset();
            unit = *u;
            continue;
        }
        if (std::regex_match(line, m, desc_amounts) && has_ascii_letter(m[2].str())) {
            const std::optional<double> first = money_of(m, 3);
            std::optional<double> second;
            if (m[9].matched) second = money_of(m, 7);  // group 9: the second amount's digits
            if (!first) return std::nullopt;
            const size_t from = size_t(m.position(2)), len = size_t(m.length(2));
            desc += (desc.empty() ? "" : " ") + trim(printed[i].substr(from, len));
            if (m[1].matched) qty = std::stod(m[1].str());
            else if (bare_count) qty = double(*bare_count);
            if (second) {
                if (qty && std::fabs(*qty * *first - *second) > 0.005) return std::nullopt;
                unit = *first;
                emit(*second);
            } else {
                emit(*first);
            }
            continue;
        }
        if (std::regex_match(line, m, qty_desc) && has_ascii_letter(m[2].str())) {
            if (!desc.empty()) return std::nullopt;
            qty = std::stod(m[1].str());
            desc = trim(printed[i].substr(size_t(m.position(2)), size_t(m.length(2))));
            continue;
        }
        if (!has_ascii_letter(line)) return std::nullopt;  // a line this reading does not know
        if (bare_count && !qty) qty = double(*bare_count);
        bare_count.reset();
        desc += (desc.empty() ? "" : " ") + printed[i];
    }
    if (!desc.empty() || out.rows.empty()) return std::nullopt;  // a description with no amount after it
    // The subtotal / total printed on the end line or the line after it.
    static const std::regex end_amount(std::string(kMoney) + "$");
    if (std::regex_search(lines[end], m, end_amount)) out.end_amount = money_of(m, 1);
    else if (end + 1 < lines.size() && std::regex_match(lines[end + 1], m, amount_line)) out.end_amount = money_of(m, 1);
    return out;
}

}  // namespace receipt::extract
