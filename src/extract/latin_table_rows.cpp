// Item rows of a receipt's item table written one box per line (extract/latin_table_rows.h).
#include "extract/latin_table_rows.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <regex>

#include "extract/latin_row_lines.h"
#include "extract/latin_rows_add_up.h"
#include "extract/latin_table_cells.h"
#include "extract/utf8.h"

namespace receipt::extract {

namespace {

using table::Cell;
using table::counts_items;
using table::heading_kind;
using table::is_text;
using table::Line;
using table::no_item;
using table::row_of;
using table::Run;
using table::table_headings;

constexpr size_t kLaterTotalLines = 12;  // lines below the end line whose total lines give later_totals
constexpr size_t kMaxSections = 4;       // sections of rows, each above a subtotal line, read as one
constexpr size_t kHeaderBegins = 2;      // header lines whose next line the rows may start on, the last ones

// Numbered rows ("1. 7002-0014" / "SONOFAX - EC THERMAL ROLL" / "(BLUE)" / "1 X 35.0000" / "35.00" / "SR" / "2. ..."):
// each row runs from its number to the next (1, 2, 3, ...), its description the text after the number unless that
// is a code, and every line up to the first number cell (text or not: '3.5"X6"'), its numbers the rest. nullopt
// without a row 1, with an amount above it, or with text after a row's numbers.
std::optional<std::vector<ItemRow>> numbered_rows(const std::vector<Line>& lines, size_t begin, size_t end) {
    static const std::regex discount_label(R"(^(?:DISC|DISCOUNT)\b.*)", std::regex::icase);
    static const std::regex price_like(R"(@|\d[.,]\d{2}\b)");
    size_t i = begin;
    while (i < end && !(lines[i].cell == Cell::kRowNumber && lines[i].value == 1)) {
        if (lines[i].cell == Cell::kMoney) return std::nullopt;
        ++i;
    }
    if (i == end) return std::nullopt;
    std::vector<ItemRow> rows;
    for (double number = 1; i < end; ++number) {
        size_t next = i + 1;
        while (next < end && !(lines[next].cell == Cell::kRowNumber && lines[next].value == number + 1)) ++next;
        Run desc{true, {}}, numbers{false, {}};
        if (!lines[i].after_number.empty()) desc.lines.push_back(Line{Cell::kText, 0, 0, lines[i].after_number, {}});
        for (size_t k = i + 1; k < next; ++k) {
            const Line& c = lines[k];
            if (c.cell == Cell::kSkip) continue;
            // (a line without letters is the description's too, '3.5"X6"', unless it holds a price: "1 @")
            const bool words = c.cell == Cell::kText || c.cell == Cell::kRowNumber ||
                               (c.cell == Cell::kOther && !std::regex_search(c.text, price_like));
            if (words && !numbers.lines.empty()) {
                if (std::regex_match(c.text, discount_label)) continue;  // "DISC" / "-28.00" among the numbers
                return std::nullopt;
            }
            (words ? desc : numbers).lines.push_back(c);
        }
        const std::optional<ItemRow> r = row_of(desc, numbers);
        if (!r || r->description.empty() || no_item(r->description)) return std::nullopt;
        rows.push_back(*r);
        i = next;
    }
    return rows;
}

// Rows of a count and description, the amount on the line below, and parts of a set printed without one ("QTY ITEM" /
// "TOTAL" / "1 BM 2HOTCAKES" / "10.00" / "1 L COKE" / "2 CHICMCMUFFIN" / "11.00"): each text line is a row, an
// amount below it its amount; a row without one is a part of a set (amount 0) when it starts with a count, else a
// note on the row above ("LESS ICE"). nullopt unless every run of text lines starts with a count, one run holds two
// counted lines (a set and its parts, which the text-first order would make one description) or the last row is
// such a part, some row has an amount and some counted row none; nullopt too when an amount has no row of its own
// above it or other numbers come between.
std::optional<std::vector<ItemRow>> counted_rows(const std::vector<Line>& lines, size_t begin, size_t end) {
    static const std::regex counted(R"(^(\d{1,2})\s+(\S.*[A-Za-z].*)$)");
    std::vector<ItemRow> rows;
    std::vector<bool> priced, counted_row;
    std::smatch m;
    bool run_start = true, two_counted = false;  // a text line after numbers; two counted lines in one run
    size_t run_counted = 0;
    for (size_t i = begin; i < end; ++i) {
        const Line& c = lines[i];
        if (c.cell == Cell::kSkip || c.cell == Cell::kOther) continue;  // "1P"
        if (c.cell == Cell::kText) {
            ItemRow r;
            const bool has_count = std::regex_match(c.text, m, counted);
            if (!has_count && run_start) return std::nullopt;  // every run of text lines starts with a count
            run_counted = run_start ? 1 : run_counted + has_count;
            two_counted = two_counted || run_counted >= 2;
            run_start = false;
            r.description = has_count ? m[2].str() : c.text;
            r.quantity = has_count ? std::stod(m[1].str()) : 1.0;
            rows.push_back(r);
            priced.push_back(false);
            counted_row.push_back(has_count);
            continue;
        }
        if (c.cell != Cell::kMoney || rows.empty() || priced.back()) return std::nullopt;
        run_start = true;
        ItemRow& r = rows.back();
        r.amount = c.value;
        priced.back() = true;
        const double q = r.quantity.value_or(1.0);
        const double each = std::round(r.amount / q * 100.0) / 100.0;
        if (r.amount >= 0 && q > 0 && std::fabs(each * q - r.amount) < 0.005) r.unit_price = each;
        if (r.amount < 0) r.quantity.reset();
    }
    bool some_priced = false, some_part = false;
    std::vector<ItemRow> out;
    for (size_t k = 0; k < rows.size(); ++k) {
        if (no_item(rows[k].description)) return std::nullopt;
        some_priced = some_priced || priced[k];
        if (priced[k] || counted_row[k]) {
            if (!priced[k]) {
                some_part = true;
                rows[k].unit_price = 0.0;
            }
            out.push_back(rows[k]);
        } else if (!out.empty()) {
            out.back().description += " " + rows[k].description;  // a note on the row above: "LESS ICE"
        }
    }
    const bool last_part = !priced.empty() && !priced.back() && counted_row.back();  // "1 L COKE" above the total
    if (!some_priced || !some_part || !(two_counted || last_part)) return std::nullopt;
    return out;
}

// The number of negative amounts a run of numbers starts with (a discount of the row above).
size_t leading_negatives(const Run& numbers) {
    size_t n = 0;
    while (n < numbers.lines.size() && numbers.lines[n].cell == Cell::kMoney && numbers.lines[n].value < 0) ++n;
    return n;
}

// The rows of runs of number and text lines, each row's numbers before its description (with `last_text_line`, the
// last line of its text run). Rows read below the header (`last_text_line`) may have header lines above their first
// numbers ("SHOPPING HOURS" / "1X 000001888854" / "0.20SR" / "PLASTICS BAG"): when every run of numbers starts with
// a count or a product code, that text is left out (but for its last line, the start of the first description, when
// some row has no product code) and descriptions keep every line of their run. Negative amounts
// at the start of a run of numbers, or alone after the last description, are the discount of the row above,
// described by that row's last text line ("KIT KAT SHARE B" / "ITEM PROMO @9.99" / "-5.00" / "1X" / ...).
std::optional<std::vector<ItemRow>> numbers_first_rows(std::vector<Run> runs, bool last_text_line) {
    size_t k = 0;
    bool coded = true;         // every row's numbers hold a product code
    std::optional<Line> lead;  // the first row's description line above its numbers
    if (!runs.empty() && runs[0].text && last_text_line) {
        for (size_t j = 1; j < runs.size(); j += 2) {
            const size_t first = leading_negatives(runs[j]);
            const std::vector<Line>& c = runs[j].lines;
            if (first == c.size() && j + 1 == runs.size()) continue;  // the last row's discount
            if (first == c.size() || (c[first].cell != Cell::kCount && c[first].cell != Cell::kCode))
                return std::nullopt;
            coded = coded &&
                    std::any_of(c.begin(), c.end(), [](const Line& x) { return x.cell == Cell::kCode || x.with_code; });
        }
        // Without a product code in every row the last line above is the first row's description too, printed over
        // its numbers ("M03. THAI MILK TEA - CHA" / "1" / "8.90" / "8.90" / "SR" / "YEN").
        if (!coded) lead = runs[0].lines.back();
        k = 1, last_text_line = false;
    }
    if (last_text_line)
        for (Run& r : runs)
            if (r.text) r.lines.erase(r.lines.begin(), r.lines.end() - 1);
    // (description, numbers) pairs; a discount's numbers split off the run they start
    std::vector<std::pair<Run, Run>> pairs;
    for (; k < runs.size(); k += 2) {
        if (runs[k].text) return std::nullopt;
        Run numbers = runs[k];
        const size_t negatives = leading_negatives(numbers);
        const bool last = k + 1 == runs.size();
        if (negatives > 0 && !pairs.empty() && pairs.back().first.lines.size() >= 2 &&
            (negatives < numbers.lines.size() || last)) {
            Run promo{true, {pairs.back().first.lines.back()}}, amounts{false, {}};
            pairs.back().first.lines.pop_back();
            amounts.lines.assign(numbers.lines.begin(), numbers.lines.begin() + long(negatives));
            numbers.lines.erase(numbers.lines.begin(), numbers.lines.begin() + long(negatives));
            pairs.emplace_back(promo, amounts);
        }
        if (last && numbers.lines.empty()) break;
        if (last || !runs[k + 1].text) return std::nullopt;
        pairs.emplace_back(runs[k + 1], numbers);
        if (lead && pairs.size() == 1) pairs[0].first.lines.insert(pairs[0].first.lines.begin(), *lead);
    }
    if (pairs.empty()) return std::nullopt;
    std::vector<ItemRow> rows;
    for (const auto& [desc, numbers] : pairs) {
        const std::optional<ItemRow> r = row_of(desc, numbers);
        if (!r || no_item(r->description)) return std::nullopt;
        rows.push_back(*r);
    }
    return rows;
}

// The rows of runs of text and number lines, each row's description before its numbers. A description is its text
// run from the last line that starts with a count: the lines above it are notes on the row above, added to its
// description ("#4-COMBO FAJITAS" / "22.95" / "Chicken" / "Shrimp" / "1 #34-BURRITO SUPREME" / "14.95"). With
// `last_text_line` (rows below the header) the first row's description is the last line of its run that is no header
// label OCR moved ("CASHIER:"): header lines can only be above the first row. The numbers after a row's last money
// amount (counts, codes) are the next row's, printed before its description ("1" / "BUTA SHOGA YAKI SET" / "19.90" /
// "1" / "ICED GREEN TEA" / "1.00"), and so are numbers without a money amount before the first description; but a count
// and unit price that make the row's amount stay with it ("1.14" / "2 @ 0.57").
std::optional<std::vector<ItemRow>> text_first_rows(std::vector<Run> runs, bool last_text_line) {
    static const std::regex counted(R"(^\d{1,2}\s+\S)");
    Run* above = nullptr;  // the text run of the row above
    for (Run& r : runs) {
        if (!r.text) continue;
        size_t from = 0;
        if (last_text_line && !above) {
            from = r.lines.size() - 1;
            while (from > 0 && is_header_line(ascii_upper(r.lines[from].text))) --from;
            r.lines.resize(from + 1);
        }
        for (size_t i = r.lines.size(); i-- > from + 1;)
            if (std::regex_search(r.lines[i].text, counted)) {
                from = i;
                break;
            }
        if (above) above->lines.insert(above->lines.end(), r.lines.begin(), r.lines.begin() + long(from));
        r.lines.erase(r.lines.begin(), r.lines.begin() + long(from));
        above = &r;
    }
    std::vector<ItemRow> rows;
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
        // The numbers after the amount are the next row's unless they are this row's count and unit price.
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

// How rows_between pairs a row's description and numbers.
enum class Order { kNumbersFirst, kTextFirst, kNumbered, kCounted };

// The rows of lines [begin, end) (`lines`: each line of the receipt classified), in `order`; nullopt when the lines do
// not pair into rows (see the header). `last_text_line`: rows read without a heading, below header lines the reading
// does not know.
std::optional<std::vector<ItemRow>> rows_between(const std::vector<Line>& lines, size_t begin, size_t end, Order order,
                                                 bool last_text_line) {
    if (order == Order::kNumbered) return numbered_rows(lines, begin, end);
    if (order == Order::kCounted) return counted_rows(lines, begin, end);
    std::vector<Run> runs;
    for (size_t i = begin; i < end; ++i) {
        const Line& c = lines[i];
        if (c.cell == Cell::kSkip) continue;
        const bool text = is_text(c);
        if (runs.empty() || runs.back().text != text) runs.push_back(Run{text, {}});
        runs.back().lines.push_back(c);
    }
    return order == Order::kNumbersFirst ? numbers_first_rows(std::move(runs), last_text_line)
                                         : text_first_rows(std::move(runs), last_text_line);
}

// The readings of the rows from line `begin` (below a table heading when `headed`, else below the header) to the end
// lines after it.
std::vector<LatinItemRows> readings_from(const LatinRowLines& l, const std::vector<Line>& lines,
                                         const std::vector<bool>& heading, size_t begin, bool headed) {
    std::vector<LatinItemRows> out;
    const size_t n = l.upper.size();
    // A gross or net amount line ends the rows too ("GROSS AMT :").
    static const std::regex gross_net(R"(^(GROSS|NET)\s+(AMT|AMOUNT|TOTAL)\b)");
    // A "QTY" line below the first amount, its count and the total after it, counts the items ("QTY" / "8" /
    // "19.20"), though it reads as a heading.
    static const std::regex count_alone(R"(^\d{1,3}(?:\.0{1,3})?$)");
    size_t first_money = begin;
    while (first_money < n && lines[first_money].cell != Cell::kMoney) ++first_money;
    auto qty_count = [&](size_t i) {
        return i > first_money && i + 1 < n && l.upper[i] == "QTY" && std::regex_match(l.read[i + 1], count_alone);
    };
    // A rounding line ends the rows too ("ROUNDING :" / "0.02" / "TOTAL" / ":" / "180.10").
    static const std::regex rounding(R"(^ROUNDING\b|^ROUND\s+ADJ)");
    std::vector<size_t> ends;  // the subtotal / total lines below the heading, at most kMaxSections
    for (size_t i = begin; i < n && ends.size() < kMaxSections; ++i)
        if ((!heading[i] && (is_end_line(l.upper[i]) || counts_items(l.upper[i]) ||
                             std::regex_search(l.upper[i], gross_net) || std::regex_search(l.upper[i], rounding))) ||
            qty_count(i))
            ends.push_back(i);
    if (ends.empty()) return out;
    for (size_t i = begin; i < ends[0] && i < first_money; ++i)  // a heading line OCR damaged is left above the rows
        if (heading[i]) begin = i + 1;                           // ("DISG(%)"); not a tax code "S" below them
    // The subtotal / total printed on line e or the line after it; on a line that counts the items, after the count
    // ("TOTAL QTY:" / "2" / "101.76").
    // After a rounding line, the total below it (within 4 lines, its amount on its line or one of the next two)
    // less the rounding: what the rows add up to.
    auto amount_at = [&](size_t e) -> std::optional<double> {
        if (std::regex_search(l.upper[e], rounding)) {
            const std::optional<double> r = end_line_amount(l, e);
            for (size_t t = e + 1; r && t < n && t <= e + 4; ++t) {
                if (!is_end_line(l.upper[t])) continue;
                for (size_t k = t; k < n && k <= t + 1; ++k)
                    if (const std::optional<double> total = end_line_amount(l, k))
                        return std::round((*total - *r) * 100.0) / 100.0;
                break;
            }
            return std::nullopt;
        }
        if (const std::optional<double> a = end_line_amount(l, e)) return a;
        if (e + 2 < n && (counts_items(l.upper[e]) || qty_count(e)) && std::regex_match(l.read[e + 1], count_alone))
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
    for (const Order order : {Order::kNumbered, Order::kNumbersFirst, Order::kCounted, Order::kTextFirst}) {
        const std::optional<std::vector<ItemRow>> first = rows_between(lines, begin, ends[0], order, !headed);
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
                const std::optional<std::vector<ItemRow>> more = rows_between(lines, from, ends[k], order, !headed);
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

// A fuel sale: the litres, the fuel, the amount with its tax letter, the price per litre ("35.10 LITRE PUMP # 02" /
// "V-POWER 97" / "RM" / "86.00 A" / "2.450" / "RM" / "/LITRE" / "TOTAL" / "RM" / "86.00"): one row, its count the
// litres and its unit price the price per litre, when they make the amount (within 5 sen: the pump rounds); its end
// amount the first amount within two lines below the next TOTAL line.
std::optional<LatinItemRows> fuel_reading(const LatinRowLines& l) {
    static const std::regex litres(R"(^(\d{1,4}\.\d{2})\s*L+ITRES?\b)");  // "LLITRE": OCR doubled a letter
    static const std::regex amount(R"(^(?:RM\s*)?(\d{1,5}\.\d{2})(?:\s+[A-Z])?$)");
    static const std::regex per_litre(R"(^(\d{1,2}\.\d{3})(?:\s|$))");
    const size_t n = l.upper.size();
    std::smatch m;
    for (size_t i = 0; i < n; ++i) {
        if (!std::regex_search(l.upper[i], m, litres)) continue;
        const double volume = std::stod(m[1].str());
        ItemRow row;
        std::optional<double> price;
        size_t j = i + 1;
        for (; j < n && j <= i + 8 && !price; ++j) {
            const std::string& u = l.upper[j];
            if (row.description.empty()) {
                const auto letters = std::count_if(u.begin(), u.end(), [](char c) { return c >= 'A' && c <= 'Z'; });
                if (u != "RM" && letters >= 2) row.description = l.printed[j];
            } else if (row.amount == 0 && std::regex_match(u, m, amount)) {
                row.amount = std::stod(m[1].str());
            } else if (row.amount > 0 && std::regex_search(u, m, per_litre)) {
                price = std::stod(m[1].str());
            }
        }
        if (!price || std::fabs(volume * *price - row.amount) > 0.05) return std::nullopt;
        row.quantity = volume;
        row.unit_price = *price;
        LatinItemRows reading;
        reading.rows.push_back(row);
        for (; j < n && !reading.end_amount; ++j) {
            if (!is_end_line(l.upper[j])) continue;
            for (size_t k = j + 1; k < n && k <= j + 2 && !reading.end_amount; ++k)
                if (std::regex_match(l.upper[k], m, amount)) reading.end_amount = std::stod(m[1].str());
            break;
        }
        return reading;
    }
    return std::nullopt;
}

// The readings below the first table heading (a run of heading lines) that gives any, heading after heading (a
// receipt can print a heading line in its header, "ITEM" / "QTY"), above a tax summary ("GST SUMMARY" / "AMOUNT(RM)"
// / "TAX(RM)"); else those below the header.
std::vector<LatinItemRows> readings(const LatinRowLines& as_read, bool text_line_cells) {
    const table::TableLines table = table::table_lines(as_read, text_line_cells);
    const LatinRowLines& l = table.lines;
    const std::vector<Line>& lines = table.cells;  // each line classified once, for every reading tried
    const size_t n = l.upper.size();
    const std::vector<bool> heading = table_headings(l);
    if (std::optional<LatinItemRows> fuel = fuel_reading(l)) return {*fuel};
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
    // Below each header line, the last first; not below a line under the first amount ("ITEM PROMO @9.99" / "-5.00"
    // names a row, not a column) unless no header line is above it.
    size_t first_money = 0;
    while (first_money < end && lines[first_money].cell != Cell::kMoney) ++first_money;
    std::vector<size_t> begins, below_money;  // the lines after header lines, the last first
    for (size_t i = end; i-- > 0;) {
        const std::string& u = l.upper[i];
        const size_t a = u.find_first_not_of("-=*# "), b = u.find_last_not_of("-=*# ");
        const std::string bare = a == std::string::npos ? std::string() : u.substr(a, b - a + 1);  // "-INVOICE-"
        const bool heading_words = heading_kind(u) > 0 && bare.size() >= 2;  // "RM", "CODE"; not a tax mark "*S"
        if (is_header_line(u) || (!bare.empty() && is_header_line(bare)) || heading_words)
            (i < first_money ? begins : below_money).push_back(i + 1);
    }
    if (begins.empty()) begins = below_money;
    // A description that reads as a header label with its number ("STORAGE BOX 70581") is the first row's: the
    // readings from below the header line above it follow.
    std::vector<LatinItemRows> out;
    for (size_t k = 0; k < begins.size() && k < kHeaderBegins; ++k) {
        std::vector<LatinItemRows> more = readings_from(l, lines, heading, begins[k], false);
        for (LatinItemRows& r : more) out.push_back(std::move(r));
    }
    return out;
}

}  // namespace

std::vector<LatinItemRows> latin_table_row_readings(const std::string& text, bool text_line_cells) {
    try {
        const std::optional<LatinRowLines> l = latin_row_lines(text);
        if (!l) return {};
        return readings(*l, text_line_cells);
    } catch (const std::exception&) {  // std::regex giving up on a pathological line, or a number out of range
        return {};
    }
}

}  // namespace receipt::extract
