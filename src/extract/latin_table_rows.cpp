// Item rows of a receipt's item table written one box per line (extract/latin_table_rows.h).
#include "extract/latin_table_rows.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <regex>

#include "extract/latin_row_lines.h"
#include "extract/utf8.h"

namespace receipt::extract {

namespace {

constexpr size_t kLaterTotalLines = 12;  // lines below the end line whose total lines give later_totals
constexpr size_t kMaxSections = 4;       // sections of rows, each above a subtotal line, read as one

// What one line of the table holds.
enum class Cell { kSkip, kMoney, kPrice, kCount, kCountPrice, kCode, kTaxCode, kOther, kText };

struct Line {
    Cell cell = Cell::kSkip;
    // kMoney: the amount; kPrice: a unit price of 3-4 decimals ("0.7500"); kCount / kCountPrice: the count
    double value = 0;
    double price = 0;  // kCountPrice: the unit price
    std::string text;  // kText: the line as printed
};

// The words of a table heading line (split at anything but letters and digits): "NO.DESC/CODE", "U.PRICE",
// "AMOUNT(RM)", "ITEM(S)", "S/PRICE", "U/P".
bool heading_word(const std::string& w, bool& strong) {
    static const char* const key[] = {"ITEM", "ITEMS", "QTY", "QNTY", "QUANTITY", "DESC", "DESCRIPTION",
                                      "AMOUNT", "AMT", "PRICE", "RSP", "PARTICULARS"};
    static const char* const other[] = {"S", "B", "CODE", "NO", "U", "P", "UNIT", "TAX", "TOTAL", "RM",
                                        "GST", "DISC", "DISCOUNT", "PRODUCT", "UOM", "INCL", "EXCL", "MYR"};
    for (const char* k : key)
        if (w == k) return strong = true;
    for (const char* k : other)
        if (w == k) return true;
    return false;
}

// 0: not a heading line; 1: heading words only; 2: with a key heading word (ITEM, QTY, DESCRIPTION, PRICE, ...).
// A label with a colon is none ("TOTAL QTY:", "QTY:" count the items below the rows).
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

// Whether a line (upper-cased) counts the items above it: "TOT QTY:", "TOTAL QUANTITY", "QTY:", "ITEM(S) : 2". It
// ends the rows of a table and is no heading line.
bool counts_items(const std::string& upper) {
    static const std::regex count_line(
        R"(^(TOT\.?\s*QTY|TOTAL\s+(QTY|QUANTITY|ITEMS?)|ITEM\s*\(S\)|QTY\s*\(S\)|ITEM COUNT|QTY\s*:))");
    return std::regex_search(upper, count_line);
}

// Whether line i is part of a table heading: a run of heading-word lines with a key word in it ("DESCRIPTION" /
// "QTY" / "U.PRICE" / "TOTAL" / "TAX": the "TOTAL" there is a column, not the end of the rows).
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

Line classify(const std::string& read, const std::string& printed, const std::string& upper) {
    static const std::regex money(std::string("^") + kMoney + R"(\s*(?:SR|ZRL|ZR|S|Z|T|E|N)?$)");
    static const std::regex unit_price(std::string(R"(^(?:(?:@|x|X)\s*)?)") + kUnitMoney + "$");  // "0.7500", "@ 9.23"
    static const std::regex count_price(std::string(R"(^(\d{1,3})\s*(?:@|x|X|\*|×)\s*)") + kUnitMoney + "$");
    // "1", "2 X", "1 PC", "1.00 PKT", "2.00 ROLL", "3 UNIT *" (a count with its unit)
    static const std::regex count(
        R"(^(\d{1,3})(?:\.0{1,3})?\s*(?:X|x|\*|PC|PCS|UNIT|UNITS|EA|PKT|ROLL|SET|BOX|BTL|PAIR|NOS)?(?:\s*\*)?$)");
    // "4060150000005", "FG-A00019", "E8318"; a shelf location with its slot ("EZ10HD05 - 24", "PI12PJ11-4 - 6/300")
    static const std::regex code(R"(^[A-Z]{0,3}-?[A-Z]?\d{4,14}$|^[A-Z0-9][A-Z0-9-]*\d[A-Z0-9-]*\s+-\s+\d+(?:/\d+)?$)");
    static const std::regex tax_code(R"(^(?:SR|ZR|ZRL|S|Z|T|E|D|OS|ES|N)$)");
    Line out;
    std::smatch m;
    if (std::regex_match(read, m, money)) {
        const std::optional<double> v = money_of(m, 1);
        out.cell = v ? Cell::kMoney : Cell::kOther;
        out.value = v.value_or(0);
    } else if (std::regex_match(read, m, unit_price)) {
        const std::optional<double> v = money_of(m, 1);
        out.cell = v ? Cell::kPrice : Cell::kOther;
        out.value = v.value_or(0);
    } else if (std::regex_match(read, m, count_price)) {
        const std::optional<double> v = money_of(m, 2);
        out.cell = v ? Cell::kCountPrice : Cell::kOther;
        out.value = std::stod(m[1].str());
        out.price = v.value_or(0);
    } else if (std::regex_match(upper, code)) {
        out.cell = Cell::kCode;
    } else if (std::regex_match(read, m, count) || std::regex_match(upper, m, count)) {
        out.cell = Cell::kCount;
        out.value = std::stod(m[1].str());
    } else if (std::regex_match(upper, tax_code)) {
        out.cell = Cell::kTaxCode;
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

// A run of lines of one kind: text, or numbers (every other cell).
struct Run {
    bool text = false;
    std::vector<Line> lines;
};

// The row of a description run and a number run; nullopt when the numbers hold no money amount.
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
    static const std::regex count_desc_at(std::string(R"(^(?:(\d{1,3})\s+)?(.*?[A-Za-z].*?)\s*@\s*(?:)") +
                                          kUnitMoney + ")?$");
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
            if (c >= 2 && c <= 999 && std::fabs(c * p - r.amount) < 0.005) count = c;
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

// A row description that is no item: a total, tax or payment line, an item count ("2 ITEM(S)", "ITEM COUNT: 4"), a
// tax summary or line ("GST SUMMARY", "TAX SR @ 6%", Portuguese "IVA", "Troco": change).
bool no_item(const std::string& desc) {
    static const std::regex counts(
        R"(\bITEM\s*\(?S\)?\s*:|\bITEM\(S\)|\bITEM COUNT\b|\bQTY\s*\(S\)|\bTAX\b|\bGST\b|\bSUMMARY\b|)"
        R"(\bIVA\b|\bVAT\b|\bTROCO\b)");
    const std::string upper = ascii_upper(desc);
    return names_no_item(upper) || std::regex_search(upper, counts);
}

// The rows of lines [begin, end) (`lines`: each line of the receipt classified), the numbers of each row before its
// description or after it; nullopt when the lines do not pair into rows (see the header). With `last_text_line` a
// description is the last line of its text run (rows read without a heading: the lines above the first row are
// header lines the reading does not know).
std::optional<std::vector<ItemRow>> rows_between(const std::vector<Line>& lines, size_t begin, size_t end,
                                                 bool numbers_first, bool last_text_line) {
    std::vector<Run> runs;
    for (size_t i = begin; i < end; ++i) {
        const Line& c = lines[i];
        if (c.cell == Cell::kSkip) continue;
        const bool text = c.cell == Cell::kText;
        if (runs.empty() || runs.back().text != text) runs.push_back(Run{text, {}});
        if (text && last_text_line) runs.back().lines.clear();
        runs.back().lines.push_back(c);
    }
    std::vector<ItemRow> rows;
    if (numbers_first) {
        if (runs.empty() || runs.size() % 2 != 0) return std::nullopt;
        for (size_t k = 0; k + 1 < runs.size(); k += 2) {
            if (runs[k].text || !runs[k + 1].text) return std::nullopt;
            const std::optional<ItemRow> r = row_of(runs[k + 1], runs[k]);
            if (!r || no_item(r->description)) return std::nullopt;
            rows.push_back(*r);
        }
        return rows;
    }
    // Text first. The numbers after a row's last money amount (counts, codes) are the next row's, printed before
    // its description ("1" / "BUTA SHOGA YAKI SET" / "19.90" / "1" / "ICED GREEN TEA" / "1.00"); so are numbers
    // without a money amount before the first description.
    Run carried;
    size_t k = 0;
    if (!runs.empty() && !runs[0].text) {
        for (const Line& c : runs[0].lines)
            if (c.cell == Cell::kMoney) return std::nullopt;
        carried = runs[0];
        k = 1;
    }
    if (runs.size() <= k || (runs.size() - k) % 2 != 0) return std::nullopt;
    for (; k + 1 < runs.size(); k += 2) {
        if (!runs[k].text || runs[k + 1].text) return std::nullopt;
        Run numbers = carried;
        carried.lines.clear();
        const std::vector<Line>& cells = runs[k + 1].lines;
        size_t last_money = cells.size();
        for (size_t i = 0; i < cells.size(); ++i)
            if (cells[i].cell == Cell::kMoney) last_money = i;
        if (last_money == cells.size()) return std::nullopt;
        // ... unless they are this row's count and unit price, printed below its amount ("1.14" / "2 @ 0.57").
        bool own_count = false;
        for (size_t i = last_money + 1; i < cells.size(); ++i)
            if (cells[i].cell == Cell::kCountPrice &&
                std::fabs(cells[i].value * cells[i].price - cells[last_money].value) < 0.005)
                own_count = true;
        const bool keep = own_count || k + 2 >= runs.size();  // the last row keeps its numbers
        for (size_t i = 0; i < cells.size(); ++i)
            (i > last_money && !keep ? carried : numbers).lines.push_back(cells[i]);
        const std::optional<ItemRow> r = row_of(runs[k], numbers);
        if (!r || no_item(r->description)) return std::nullopt;
        rows.push_back(*r);
    }
    return rows;
}

// The readings of the rows from line `begin` (below a table heading when `headed`, else below the header) to the end
// lines after it.
std::vector<LatinItemRows> readings_from(const LatinRowLines& l, const std::vector<Line>& lines,
                                         const std::vector<bool>& heading, size_t begin, bool headed) {
    std::vector<LatinItemRows> out;
    const size_t n = l.upper.size();
    // A gross or net amount line ends the rows too ("GROSS AMT :").
    static const std::regex gross_net(R"(^(GROSS|NET)\s+(AMT|AMOUNT|TOTAL)\b)");
    std::vector<size_t> ends;  // the subtotal / total lines below the heading, at most kMaxSections
    for (size_t i = begin; i < n && ends.size() < kMaxSections; ++i)
        if (!heading[i] && (is_end_line(l.upper[i]) || counts_items(l.upper[i]) ||
                            std::regex_search(l.upper[i], gross_net)))
            ends.push_back(i);
    if (ends.empty()) return out;
    for (size_t i = begin; i < ends[0]; ++i)  // a heading line OCR damaged is left above the rows ("DISG(%)")
        if (heading[i]) begin = i + 1;
    // The subtotal / total printed on line e or the line after it; on a line that counts the items, after the count
    // ("TOTAL QTY:" / "2" / "101.76").
    static const std::regex count_alone(R"(^\d{1,3}(?:\.0{1,3})?$)");
    auto amount_at = [&](size_t e) -> std::optional<double> {
        if (const std::optional<double> a = end_line_amount(l, e)) return a;
        if (e + 2 < n && counts_items(l.upper[e]) && std::regex_match(l.read[e + 1], count_alone))
            return end_line_amount(l, e + 1);
        return std::nullopt;
    };
    auto later_totals = [&](size_t end) {
        std::vector<double> t;
        for (size_t e = end + 1; e < n && e <= end + kLaterTotalLines; ++e)
            if (is_end_line(l.upper[e]))
                if (const std::optional<double> a = amount_at(e)) t.push_back(*a);
        return t;
    };
    for (const bool numbers_first : {true, false}) {
        const std::optional<std::vector<ItemRow>> first = rows_between(lines, begin, ends[0], numbers_first, !headed);
        if (!first) continue;
        // More sections of rows below the first, each under the subtotal line of the one before and adding up to
        // the amount of its own ("TOTAL 0% SUPPLIES:" / "23.64" / "KAYA-ORI" / ... / "TOTAL 6% SUPPLIES (EXCL.
        // GST):" / "12.00"): one reading of them all, its end amount the sum of theirs, before the first alone.
        std::vector<ItemRow> all = *first;
        double sections_sum = 0;
        size_t sections = 0;
        for (size_t k = 0; k < ends.size(); ++k) {
            const std::optional<double> own = amount_at(ends[k]);
            if (k > 0) {
                static const std::regex on_line(std::string(kMoney) + "$");  // the end line prints its amount
                const size_t from = ends[k - 1] + (std::regex_search(l.read[ends[k - 1]], on_line) ? 1 : 2);
                if (from >= ends[k]) break;
                const std::optional<std::vector<ItemRow>> more =
                    rows_between(lines, from, ends[k], numbers_first, !headed);
                if (!more || !own || std::fabs(rows_sum(*more) - *own) > 0.005) break;
                all.insert(all.end(), more->begin(), more->end());
            } else if (!own || std::fabs(rows_sum(all) - *own) > 0.005) {
                break;
            }
            sections_sum += *own;
            sections = k + 1;
        }
        if (sections > 1) {
            LatinItemRows reading;
            reading.rows = all;
            reading.end_amount = std::round(sections_sum * 100.0) / 100.0;
            reading.later_totals = later_totals(ends[sections - 1]);
            out.push_back(std::move(reading));
        }
        LatinItemRows reading;
        reading.rows = *first;
        reading.end_amount = amount_at(ends[0]);
        reading.later_totals = later_totals(ends[0]);
        out.push_back(std::move(reading));
    }
    // A reading with no amount above 0 reads no items.
    std::vector<LatinItemRows> kept;
    for (LatinItemRows& r : out)
        if (std::any_of(r.rows.begin(), r.rows.end(), [](const ItemRow& x) { return x.amount > 0; }))
            kept.push_back(std::move(r));
    return kept;
}

// The readings below the first table heading (a run of heading lines) that gives any, heading after heading (a
// receipt can print a heading line in its header, "ITEM" / "QTY"), above a tax summary ("GST SUMMARY" / "AMOUNT(RM)"
// / "TAX(RM)"); else those below the header.
std::vector<LatinItemRows> readings(const LatinRowLines& l) {
    const size_t n = l.upper.size();
    const std::vector<bool> heading = table_headings(l);
    std::vector<Line> lines;  // each line classified once, for every reading tried
    lines.reserve(n);
    for (size_t i = 0; i < n; ++i) lines.push_back(classify(l.read[i], l.printed[i], l.upper[i]));
    for (size_t i = 0; i < n;) {
        if (l.upper[i].find("SUMMARY") != std::string::npos) break;  // a tax summary's table lists no items
        if (!heading[i]) {
            ++i;
            continue;
        }
        while (i < n && heading[i]) ++i;
        std::vector<LatinItemRows> out = readings_from(l, lines, heading, i, true);
        if (!out.empty()) return out;
    }
    // No heading that gives a reading: the rows below the last header line (a date, a cashier label, "-INVOICE-")
    // or heading words ("RM" / "CODE") above the first end line.
    size_t end = 0;
    while (end < n && !is_end_line(l.upper[end]) && !counts_items(l.upper[end])) ++end;
    size_t begin = 0;
    for (size_t i = 0; i < end; ++i) {
        const std::string& u = l.upper[i];
        const size_t a = u.find_first_not_of("-=*# "), b = u.find_last_not_of("-=*# ");
        const std::string bare = a == std::string::npos ? std::string() : u.substr(a, b - a + 1);  // "-INVOICE-"
        const bool heading_words = heading_kind(u) > 0 && bare.size() >= 2;  // "RM", "CODE"; not a tax mark "*S"
        if (is_header_line(u) || (!bare.empty() && is_header_line(bare)) || heading_words) begin = i + 1;
    }
    return begin > 0 ? readings_from(l, lines, heading, begin, false) : std::vector<LatinItemRows>{};
}

}  // namespace

std::vector<LatinItemRows> latin_table_row_readings(const std::string& text) {
    try {
        const std::optional<LatinRowLines> l = latin_row_lines(text);
        if (!l) return {};
        return readings(*l);
    } catch (const std::exception&) {  // std::regex giving up on a pathological line, or a number out of range
        return {};
    }
}

}  // namespace receipt::extract
