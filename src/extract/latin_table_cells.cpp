// The lines of a receipt's item table written one box per line, classified (extract/latin_table_cells.h).
#include "extract/latin_table_cells.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <optional>
#include <regex>

#include "extract/utf8.h"

namespace receipt::extract::table {

namespace {

// The words of a table heading line (split at anything but letters and digits): "NO.DESC/CODE", "U.PRICE",
// "AMOUNT(RM)", "ITEM(S)", "S/PRICE", "U/P".
bool heading_word(const std::string& w, bool& strong) {
    static const char* const key[] = {"ITEM",        "ITEMS",  "QTY", "QNTY",  "QUANTITY", "DESC",
                                      "DESCRIPTION", "AMOUNT", "AMT", "PRICE", "RSP",      "PARTICULARS"};
    static const char* const other[] = {"S",   "B",     "CODE", "NO",  "U",    "P",        "UNIT",
                                        "TAX", "TOTAL", "RM",   "GST", "DISC", "DISCOUNT", "PRODUCT",
                                        "UOM", "INCL",  "EXCL", "MYR", "TX"};
    for (const char* k : key)
        if (w == k) return strong = true;
    for (const char* k : other)
        if (w == k) return true;
    return false;
}

// The ASCII letters of s.
size_t letters_in(const std::string& s) {
    return size_t(
        std::count_if(s.begin(), s.end(), [](char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'); }));
}

}  // namespace

int heading_kind(const std::string& upper) {
    if (upper.find(':') != std::string::npos) return 0;
    bool strong = false, any = false;
    std::string w;
    auto flush = [&]() -> bool {
        if (w.empty()) return true;
        any = true;
        const bool ok = heading_word(w, strong);
        w.clear();
        return ok;
    };
    for (char c : upper) {
        if ((c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) {
            w += c;
        } else if (!flush()) {
            return 0;
        }
    }
    if (!flush() || !any) return 0;
    return strong ? 2 : 1;
}

bool counts_items(const std::string& upper) {
    static const std::regex count_line(
        R"(^(TOT\.?\s*QTY|TOTAL\s+(QTY|QUANTITY|ITEMS?)|ITEM\s*\(S\)|QTY\s*\(S\)|ITEM COUNT|QTY\s*:|)"
        R"(ITEMS?\s*:\s*\d*$|TYPE\s*:?(?:\s*\d+\s+TOTAL)?$|\d{1,3}\s+NOS?\.?$))");
    return std::regex_search(upper, count_line);
}

std::vector<bool> table_headings(const LatinRowLines& l) {
    const size_t n = l.upper.size();
    std::vector<int> kind(n);
    for (size_t i = 0; i < n; ++i) kind[i] = counts_items(l.upper[i]) ? 0 : heading_kind(l.upper[i]);
    std::vector<bool> out(n, false);
    for (size_t i = 0; i < n;) {
        if (kind[i] == 0) {
            ++i;
            continue;
        }
        size_t j = i;
        bool strong = false;
        while (j < n && kind[j] != 0) strong = strong || kind[j] == 2, ++j;
        if (strong)
            for (size_t k = i; k < j; ++k) out[k] = true;
        i = j;
    }
    return out;
}

bool is_text(const Line& c) { return c.cell == Cell::kText || (c.cell == Cell::kRowNumber && !c.after_number.empty()); }

Line classify(const std::string& read, const std::string& printed, const std::string& upper) {
    // "15.00 SR", "6.40 SR*", "D 120.00 SR" (a course letter before it), "RM2.25 ST"
    static const std::regex money(std::string(R"(^(?:[A-Z]\s+)?)") + kMoney +
                                  R"(\s*(?:SR|ZRL|ZR|ST|S|Z|T|E|N)?\*?$)");
    static const std::regex unit_price(std::string(R"(^(?:(?:@|x|X)\s*)?)") + kUnitMoney + "$");  // "0.7500", "@ 9.23"
    static const std::regex whole_money(R"(^(\d{2,6})\s+(?:SR|ZRL|ZR)$)");  // "165 SR": an amount without its cents
    // "1 X 2.10", "@5 X RM 12.50", "122 PCS @ 18.90", "0.434 X 39.90" (kg)
    static const std::regex count_price(
        std::string(R"(^@?\s*(\d{1,3}(?:\.\d{1,3})?)\s*(?:PCS?|UNITS?|EA|BAGS?|PKT|BOX|SET|BTL|CAN)?\s*)") +
        R"((?:@|x|X|\*|×)\s*)" + kUnitMoney + "$");
    static const std::regex price_count(std::string("^") + kUnitMoney +
                                        R"(\s*\*\s*(\d{1,3}(?:\.\d{1,3})?)$)");  // "12.50*2", "10.99*1.306" (kg)
    // "1", "2 X", "1 PC", "1.00 PKT", "2.00 ROLL", "3 UNIT *" (a count with its unit), "1X 000001888854" (and the
    // product's barcode)
    static const std::regex count(
        R"(^(\d{1,3})(?:\.0{1,3})?\s*)"
        R"((?:X|x|\*|PC|PCS|UNIT|UNITS|EA|PKT|ROLL|SET|BOX|BTL|PAIR|NOS|BAG|BAGS|CAN|TIN|PACK|CTN|KG|KGS)?(?:\s*\*)?$|)"
        R"(^(\d{1,3})\s*[Xx]\s+\d{6,14}$)");
    // "4060150000005", "FG-A00019", "E8318", "MFF350", "DIS30"; a shelf location with its slot ("EZ10HD05 - 24",
    // "PI12PJ11-4 - 6/300", "LE51/2 - 12/48"; "WA21 -20"; the slot on the next line: "KH22 -" / "10/500")
    static const std::regex code(R"(^[A-Z]{0,3}-?[A-Z]?\d{4,14}$|^[A-Z]{2,4}\d{2,3}$|)"
                                 R"(^[A-Z0-9][A-Z0-9/-]*\d[A-Z0-9/-]*\s+-(?:\s*\d+(?:/\d+)?)?$|^\d+/\d+$)");
    // A row's number, a product code or the description after it ("1. 7002-0014", "2. MAX 10-1M STAPLES",
    // "2.2012-0011", "1)9557892102639 IBUPROFEN 400MG 10")
    static const std::regex row_number(R"(^(\d{1,3})(?:\.\s+|\.(?=\d{4})|\)\s*)(\S.*)$)");
    static const std::regex leading_code(R"(^\d{4,14}[A-Z]?\s+)");  // a barcode before the description
    // A label without its value inside the table ("ITEM NO. :" above a code, "BARCODE:"), a currency column ("RM")
    static const std::regex bare_label(
        R"(^(?:ITEM\s*NO\.?|BARCODE|CODE|SKU|PLU|REF\.?|ART(?:ICLE)?\s*NO\.?)\s*:$|^(?:RM|MYR)$)");
    static const std::regex tax_code(R"(^(?:SR|ZR|ZRL|ST|S|Z|T|E|D|OS|ES|N)$|^\[(?:SR|ZR|ZRL|S|Z)\]$)");  // "[SR]"
    // A unit column ("EA", "-UNIT")
    static const std::regex unit(
        R"(^-?(?:EA|CS|PC|PCS|UNIT|UNITS|PKT|BOX|SET|BTL|PAIR|NOS|KG|CTN|ROLL|BAG|CAN|TIN|PACK|EAC)$)");
    static const std::regex minus_after(R"(^(\d{1,6})[.,](\d{2})-$)");  // "11.60-": a discount
    Line out;
    std::smatch m;
    // (the print too: a tax code glued to the amount reads as digits, "0.20SR" as "0.205R")
    if (std::regex_match(read, m, money) || std::regex_match(printed, m, money)) {
        const std::optional<double> v = money_of(m, 1);
        out.cell = v ? Cell::kMoney : Cell::kOther;
        out.value = v.value_or(0);
    } else if (std::regex_match(upper, m, whole_money)) {
        out.cell = Cell::kMoney;
        out.value = std::stod(m[1].str());
    } else if (std::regex_match(read, m, minus_after)) {
        out.cell = Cell::kMoney;
        out.value = -(std::stod(m[1].str()) + std::stod(m[2].str()) / 100.0);
    } else if (std::regex_match(read, m, unit_price)) {
        const std::optional<double> v = money_of(m, 1);
        out.cell = v ? Cell::kPrice : Cell::kOther;
        out.value = v.value_or(0);
    } else if (std::regex_match(read, m, price_count)) {
        const std::optional<double> v = money_of(m, 1);
        out.cell = v ? Cell::kCountPrice : Cell::kOther;
        out.value = std::stod(m[5].str());
        out.price = v.value_or(0);
    } else if (std::regex_match(read, m, count_price)) {
        const std::optional<double> v = money_of(m, 2);
        out.cell = v ? Cell::kCountPrice : Cell::kOther;
        out.value = std::stod(m[1].str());
        out.price = v.value_or(0);
    } else if (std::regex_match(upper, code)) {
        out.cell = Cell::kCode;
    } else if (std::regex_match(read, m, count) || std::regex_match(upper, m, count)) {
        out.cell = Cell::kCount;
        out.value = std::stod(m[m[1].matched ? 1 : 2].str());
        out.with_code = !m[1].matched;
    } else if (std::regex_match(upper, tax_code)) {
        out.cell = Cell::kTaxCode;
    } else if (std::regex_match(upper, bare_label)) {
        out.cell = Cell::kSkip;
    } else if (std::regex_match(upper, unit)) {
        out.cell = Cell::kOther;
        out.text = printed;
    } else if (std::regex_match(printed, m, row_number)) {
        out.cell = Cell::kRowNumber;
        out.value = std::stod(m[1].str());
        out.text = printed;
        const std::string rest = std::regex_replace(m[2].str(), leading_code, "");
        if (letters_in(rest) >= 2) out.after_number = rest;  // a description, not a code
    } else {
        size_t letters = 0, alnum = 0;
        for (char c : printed) {
            const bool letter = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
            letters += letter;
            alnum += letter || (c >= '0' && c <= '9');
        }
        out.cell = letters >= 2 ? Cell::kText : alnum == 0 ? Cell::kSkip : Cell::kOther;
        out.text = printed;
    }
    return out;
}

namespace {

// A tax code in brackets or with a mark after a row's amount ("(S)", "(SR)", "SR*"), as a text line of a row
// prints it.
bool bracketed_tax_code(const std::string& upper) {
    static const std::regex code(R"(^\((?:SR|ZR|ZRL|S|Z|T|E|N)\)$|^(?:SR|ZR|ZRL|S|Z)\*$)");
    return std::regex_match(upper, code);
}

// A number cell of a row (not text, a row number or a line to skip).
bool number_cell(const Line& c) {
    return c.cell != Cell::kText && c.cell != Cell::kOther && c.cell != Cell::kSkip && c.cell != Cell::kRowNumber;
}

// Whether a word after a description is a number of the row, not the end of the description: a tax code, or a
// word without letters but "RM", a tax code glued to an amount with cents ("5.90SR") or a count's "X" ("2X"), or an
// amount with cents once OCR's look-alike letters are read as digits ("3.9S", `read` "3.95"). A size or count with
// its unit ("1KG", "10S", "12CT") ends a description.
bool row_number_word(const Line& c, const std::string& read, const std::string& upper) {
    static const std::regex lettered(
        R"(^(?:RM)?-?\d+[.,]\d{2,4}(?:SR|ZRL|ZR|ST|S|Z|T|E|N)?\*?$|^\d{1,3}X$|^X\d{1,3}$)");
    static const std::regex cents(R"(^-?\d+[.,]\d{2}$)");
    if (!number_cell(c)) return false;
    if (c.cell == Cell::kTaxCode || std::regex_match(read, cents)) return true;
    const bool letters =
        std::any_of(upper.begin(), upper.end(), [](char ch) { return ch >= 'A' && ch <= 'Z'; });
    return !letters || std::regex_match(upper, lettered);
}

// The words of a line, split at runs of white space.
std::vector<std::string> words_of(const std::string& line) {
    static const std::regex space(R"(\s+)");
    std::vector<std::string> w;
    for (std::sregex_token_iterator it(line.begin(), line.end(), space, -1), e; it != e; ++it)
        if (it->length() > 0) w.push_back(*it);
    return w;
}

// One line of a table as the readings take it: read, printed and classified.
struct Piece {
    std::string read, printed;
    Line cell;
};

// A text line that holds a whole printed row ("FRIED RICE 3 PAX 1 71.00 (S)", "201019 KAYA PUFF 4 1.60 0",
// "(T02) BRAISED PORK 2.0") as box-per-line OCR writes the row: the description (with a code or count before it),
// then each number after it (a count, price, money amount or tax code) as a line of its own. Words are split at
// spaces, read and printed alike. Empty when the line ends in no number or the description keeps fewer than two
// letters.
std::vector<Piece> text_line_pieces(const std::string& read_line, const std::string& printed_line) {
    const std::vector<std::string> read = words_of(read_line), printed = words_of(printed_line);
    const size_t n = read.size();
    if (n < 2 || n != printed.size()) return {};
    std::vector<Line> cells(n);
    std::vector<bool> numbers(n);
    for (size_t k = 0; k < n; ++k) {
        const std::string upper = ascii_upper(printed[k]);
        cells[k] = classify(read[k], printed[k], upper);
        if (bracketed_tax_code(upper)) cells[k].cell = Cell::kTaxCode;
        numbers[k] = row_number_word(cells[k], read[k], upper);
    }
    size_t trail = n;
    while (trail > 0 && numbers[trail - 1]) --trail;
    if (trail == n || trail == 0) return {};
    Piece desc;
    for (size_t k = 0; k < trail; ++k) {
        desc.read += (k > 0 ? " " : "") + read[k];
        desc.printed += (k > 0 ? " " : "") + printed[k];
    }
    desc.cell = classify(desc.read, desc.printed, ascii_upper(desc.printed));
    if (desc.cell.cell != Cell::kText) return {};
    std::vector<Piece> out{desc};
    for (size_t k = trail; k < n; ++k) out.push_back({read[k], printed[k], cells[k]});
    return out;
}

}  // namespace

TableLines table_lines(const LatinRowLines& l, bool text_line_cells) {
    // "@2 X" / "RM 10.40": a count and unit price that the split of a row into boxes (extract/row_split.h) broke.
    static const std::regex at_count(R"(^@\s*\d{1,3}\s*[Xx]$)");
    TableLines out;
    auto push = [&](const std::string& read, const std::string& printed, const std::string& upper, const Line& cell) {
        out.lines.read.push_back(read), out.lines.printed.push_back(printed), out.lines.upper.push_back(upper);
        out.cells.push_back(cell);
    };
    // A text line as its cells when it holds a whole row (text_line_pieces), else whole.
    auto push_text = [&](const std::string& read, const std::string& printed, const std::string& upper,
                         const Line& cell) {
        const std::vector<Piece> pieces = text_line_pieces(read, printed);
        for (const Piece& p : pieces) push(p.read, p.printed, ascii_upper(p.printed), p.cell);
        if (pieces.empty()) push(read, printed, upper, cell);
    };
    std::optional<Line> next;  // the classification of line i, when the line before already made it
    for (size_t i = 0; i < l.read.size(); ++i) {
        const Line whole = next ? *next : classify(l.read[i], l.printed[i], l.upper[i]);
        next.reset();
        if (i + 1 < l.read.size() && std::regex_match(l.read[i], at_count)) {
            next = classify(l.read[i + 1], l.printed[i + 1], l.upper[i + 1]);
            if (next->cell == Cell::kMoney) {
                const std::string read = l.read[i] + " " + l.read[i + 1],
                                  printed = l.printed[i] + " " + l.printed[i + 1];
                const std::string upper = l.upper[i] + " " + l.upper[i + 1];
                push(read, printed, upper, classify(read, printed, upper));
                next.reset();
                ++i;
                continue;
            }
        }
        // A count that the row split set apart from its description ("1" / "M MCCHICKEN" of "1 M MCCHICKEN 9.50"),
        // in a text in rows: one line again, as box-per-line OCR writes it (then read as its cells when it holds a
        // whole row); not one before a label, an end line or a line that counts the items ("44" / "TYPE: 10 TOTAL").
        static const std::regex bare_count(R"(^\d{1,2}$)");
        if (text_line_cells && i + 1 < l.read.size() && std::regex_match(l.printed[i], bare_count) &&
            std::isalpha(static_cast<unsigned char>(l.printed[i + 1].empty() ? '0' : l.printed[i + 1][0])) &&
            l.printed[i + 1].find(':') == std::string::npos && !counts_items(l.upper[i + 1]) &&
            !is_end_line(l.upper[i + 1])) {
            next = classify(l.read[i + 1], l.printed[i + 1], l.upper[i + 1]);
            if (next->cell == Cell::kText) {
                const std::string read = l.read[i] + " " + l.read[i + 1],
                                  printed = l.printed[i] + " " + l.printed[i + 1], upper = ascii_upper(printed);
                push_text(read, printed, upper, classify(read, printed, upper));
                next.reset();
                ++i;
                continue;
            }
        }
        std::vector<std::string> read = words_of(l.read[i]), printed = words_of(l.printed[i]);
        bool apart = (whole.cell == Cell::kText || whole.cell == Cell::kOther) && read.size() >= 2 &&
                     read.size() <= 8 && read.size() == printed.size();
        // "RM" / "$" and the number after it are one amount; a count, "X" or "@" and a price are one cell.
        auto join_next = [&](size_t k) {  // word k and the word after it as one
            read[k] += " " + read[k + 1], read.erase(read.begin() + long(k) + 1);
            printed[k] += " " + printed[k + 1], printed.erase(printed.begin() + long(k) + 1);
        };
        for (size_t k = 0; apart && k + 1 < read.size();) {
            const std::string u = ascii_upper(printed[k]);
            if (u == "RM" || u == "MYR" || u == "$") {
                join_next(k);
            } else if (k > 0 && (u == "X" || u == "@" || u == "*")) {
                join_next(k - 1), join_next(k - 1);
            } else {
                ++k;
            }
        }
        // A mark after the row's amount ("10.38 *") belongs to it, in a text written in rows.
        if (text_line_cells && apart && read.size() >= 3 && printed.back() == "*") join_next(read.size() - 2);
        std::vector<Line> cells;
        bool money = false;
        for (size_t k = 0; apart && k < read.size(); ++k) {
            cells.push_back(classify(read[k], printed[k], ascii_upper(printed[k])));
            apart = number_cell(cells.back());
            money = money || cells.back().cell == Cell::kMoney;
        }
        if (apart && money) {
            for (size_t k = 0; k < read.size(); ++k) push(read[k], printed[k], ascii_upper(printed[k]), cells[k]);
            continue;
        }
        if (text_line_cells && whole.cell == Cell::kText) push_text(l.read[i], l.printed[i], l.upper[i], whole);
        else push(l.read[i], l.printed[i], l.upper[i], whole);
    }
    return out;
}

std::optional<ItemRow> row_of(const Run& desc, const Run& numbers) {
    std::vector<double> money;
    std::vector<double> counts;
    std::optional<double> count_price;
    std::vector<double> unit_prices;  // of 3-4 decimals
    for (const Line& c : numbers.lines) {
        if (c.cell == Cell::kMoney) money.push_back(c.value);
        if (c.cell == Cell::kPrice) unit_prices.push_back(c.value);
        if (c.cell == Cell::kCount) counts.push_back(c.value);
        if (c.cell == Cell::kCountPrice && !count_price) counts.insert(counts.begin(), c.value), count_price = c.price;
    }
    if (money.empty()) return std::nullopt;
    ItemRow r;
    for (const Line& c : desc.lines) r.description += (r.description.empty() ? "" : " ") + c.text;
    // A count before the description and a unit price after it ("2 GREEN TEA @ 1.00", "1 GARLIC CHAHAN @", "LED TUBE
    // @16.00"): the description between them, the count and price first in line.
    static const std::regex count_desc_at(std::string(R"(^(?:(\d{1,3})\s+)?(.*?[A-Za-z].*?)\s*@\s*(?:)") + kUnitMoney +
                                          ")?$");
    std::smatch m;
    if (std::regex_match(r.description, m, count_desc_at)) {
        if (m[1].matched) counts.insert(counts.begin(), std::stod(m[1].str()));
        if (m[5].matched)
            if (const std::optional<double> p = money_of(m, 3)) money.insert(money.begin(), *p);
        r.description = m[2].str();
    }
    // A count of three decimals before the description ("3,000 REFRIGERANTES", "0,800 ESPETADA/KG": a weight).
    static const std::regex decimal_count(R"(^(\d{1,3})[.,](\d{3})\s+(.*[A-Za-z].*)$)");
    if (std::regex_match(r.description, m, decimal_count)) {
        const double c = std::stod(m[1].str()) + std::stod(m[2].str()) / 1000.0;
        if (c > 0) counts.insert(counts.begin(), c);
        r.description = m[3].str();
    }
    // A count before the description when the numbers print none ("1 STORAGE BOX" / "13.15 T"), or when it times a
    // unit price printed makes the amount ("17 3/4\" ALUMINIUM ROD" / "5.80" / "98.60": not the "44" below them).
    static const std::regex leading_count(R"(^(\d{1,2})\s+([A-Za-z0-9].*[A-Za-z].*)$)");
    if (std::regex_match(r.description, m, leading_count) && std::stod(m[1].str()) > 0) {
        const double c = std::stod(m[1].str());
        bool makes_amount = false;
        for (size_t i = 0; i + 1 < money.size() + unit_prices.size(); ++i) {
            const double p = i < unit_prices.size() ? unit_prices[i] : money[i - unit_prices.size()];
            makes_amount = makes_amount || (c >= 2 && std::fabs(c * p - money.back()) < 0.005);  // not "1 1/2\""
        }
        if (counts.empty() ? std::isalpha(static_cast<unsigned char>(m[2].str()[0])) : makes_amount) {
            counts.insert(counts.begin(), c);
            r.description = m[2].str();
        }
    }
    // The count: of several columns of counts (issued, exchanged, sold), the first that times a unit price makes
    // the amount, else the first above 0.
    std::optional<double> count;
    for (double c : counts)
        if (!count && c > 0) count = c;
    bool fits = false;
    for (size_t k = 0; k < counts.size() && !fits; ++k)
        for (size_t i = 0; i + 1 < money.size() + unit_prices.size() && !fits; ++i) {
            const double p = i < unit_prices.size() ? unit_prices[i] : money[i - unit_prices.size()];
            if (std::fabs(counts[k] * p - money.back()) < 0.005 && money.back() != 0) fits = true, count = counts[k];
        }
    r.amount = money.back();
    if (r.amount < 0) return r;  // a discount: no count, no unit price
    // No count printed: the whole number of units of a unit price printed with the amount ("18.46" / "@ 9.23").
    if (!count)
        for (size_t i = 0; i + 1 < money.size() + unit_prices.size() && !count; ++i) {
            const double p = i < unit_prices.size() ? unit_prices[i] : money[i - unit_prices.size()];
            const double c = p > 0 ? std::round(r.amount / p) : 0;
            // (not from 1.0000, a count printed as a unit price is: "1.0000" / "48.00")
            if (c >= 2 && c <= 999 && p != 1.0 && std::fabs(c * p - r.amount) < 0.005) count = c;
        }
    const double q = count.value_or(1.0);
    r.quantity = q;
    std::vector<double> prices(money.begin(), money.end() - 1);
    prices.insert(prices.begin(), unit_prices.begin(), unit_prices.end());
    if (count_price) prices.insert(prices.begin(), *count_price);
    for (double p : prices)
        if (std::fabs(q * p - r.amount) < 0.005) r.unit_price = p;
    const double each = std::round(r.amount / q * 100.0) / 100.0;  // the amount over the count (above 0), in cents
    if (!r.unit_price && std::fabs(each * q - r.amount) < 0.005) r.unit_price = each;
    if (!r.unit_price && !prices.empty()) r.unit_price = prices.back();  // a price with tax, the amount without
    return r;
}

bool no_item(const std::string& desc) {
    static const std::regex counts(
        R"(\bITEM\s*\(?S\)?\s*:|\bITEM\(S\)|\bITEM COUNT\b|\bQTY\s*\(S\)|\bTAX\b|\bGST\b|\bSUMMARY\b|)"
        R"(\bSUB\s*-?TOTAL\b|\bIVA\b|\bVAT\b|\bTROCO\b)");
    // A label ("MEMBER POINTS :") or a header line with a date or time ("RECEIPT CS00018751 DATE: 20/03/2018").
    static const std::regex label_or_header(
        R"(:\s*$|\b\d{1,2}/\d{1,2}/\d{2,4}\b|\b\d{1,2}[.-]\d{1,2}[.-]\d{4}\b|\b\d{1,2}:\d{2}:\d{2}\b)");
    const std::string upper = ascii_upper(desc);
    return names_no_item(upper) || std::regex_search(upper, counts) || std::regex_search(upper, label_or_header);
}

}  // namespace receipt::extract::table
