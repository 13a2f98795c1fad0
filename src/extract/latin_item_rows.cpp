// Item rows of a Latin-script receipt read from its printed lines between a start line and an end line
// (extract/latin_rows_attempt.h); the readings that try several of those are latin_item_row_readings.cpp's.
#include "extract/latin_item_rows.h"

#include <algorithm>
#include <cmath>
#include <regex>

#include "extract/latin_row_lines.h"
#include "extract/latin_rows_attempt.h"
#include "extract/utf8.h"

namespace receipt::extract {

namespace {

constexpr size_t kLaterTotalLines = 6; // lines below the end line whose total lines give LatinItemRows::later_totals

// The count printed before a description: digits, or a look-alike of one that OCR read ("Zx" for 2x, "lx" for 1x).
double count_of(const std::string& s) {
    if (s == "Z") return 2.0;
    if (s == "l" || s == "I") return 1.0;
    return std::stod(s);
}

}  // namespace

// One reading of lines [begin, end) of `l`, the rows ending at line `end`.
LatinRowsAttempt read_latin_rows_between(const LatinRowLines& l, size_t begin, size_t end) {
    const std::vector<std::string>& lines = l.read;
    const std::vector<std::string>& printed = l.printed;
    static const std::regex amount_line(std::string("^") + kMoney + "$");
    // "2 X 4.34", "l X 9.40" (l for 1)
    static const std::regex qty_at(std::string(R"(^(\d{1,3}|[ZlI])\s*(?:@|x|X|×)\s*)") + kUnitMoney + "$");
    static const std::regex at_only(std::string(R"(^(?:@|x|X|×)\s*)") + kMoney + "$");
    static const std::regex qty_at_amount(std::string(R"(^(\d{1,3}|[ZlI])\s*(?:@|x|X|×)\s*)") + kMoney + R"(\s+)" +
                                          kMoney + "$");
    // "1  3.25": a count and unit price whose "X" OCR lost (the amount after them must be their product)
    static const std::regex count_unit(std::string(R"(^(\d{1,2})\s+)") + kMoney + "$");
    static const std::regex product_code(R"(^\d{6,14}$)");
    static const std::regex desc_at_unit(std::string(R"(^(.*?\S)\s*@\s*)") + kMoney + "$");
    static const std::regex count(R"(^\d{1,3}$)");
    static const std::regex count_at(R"(^(\d{1,3})\s*(?:@|x|X|×)$)");
    // "2x EGGS", "2xEGGS" (glued: a lower-case x before a capital), "ZxSUNSCREEN" / "lx MILK" (look-alikes of 2, 1)
    static const std::regex qty_desc(R"(^(\d{1,3}|[ZlI](?=x))\s*(?:[xX]\s+|x(?=[A-Z]))(.+)$)");
    // "1 X 14.1", "1 X 380": a count and a unit price that OCR damaged (the amount after them must have its digits)
    static const std::regex qty_at_damaged(R"(^(\d{1,3})\s*(?:@|x|X|×)\s*(\d[\d.,]{0,8}|[.,]\d{1,4})$)");
    // "X 2.50 10.00": a unit price and amount whose count OCR lost (the count is amount / unit price)
    static const std::regex at_unit_amount(std::string(R"(^(?:@|x|X|×)\s*)") + kMoney + R"(\s+)" + kMoney + "$");
    // "2 CHICKEN BREAST" on a receipt whose rows print "2x CHICKEN BREAST": the count that lost its x
    static const std::regex count_lost_x(R"(^(\d{1,2})\s+([A-Z]{2}.*)$)");
    // "2 AMERICANO TALL 3.36 6.72", "4x PASTA PENNE 5.64": an optional count, the description, one or two amounts
    static const std::regex desc_amounts(std::string(R"(^(?:(\d{1,3})\s*[xX]?\s+)?(.*?\S)\s+)") + kMoney +
                                         R"((?:\s+)" + kMoney + ")?$");
    static const std::regex desc_glued(std::string(R"(^(?:(\d{1,3})\s*[xX]?\s+)?(.*?[A-Za-z]))") + kMoney + "$");
    static const std::regex count_prefix(R"(^\d{1,3}\s*[xX]?\s+[A-Za-z])");  // "1x ORANGE JUICE", "2 KOPI O"
    // A taxable mark alone on the line after its amount ("9.62" / "T"). Not the GST codes of Malaysian receipts
    // ("S", "SR", "Z"): their rows come in layouts this reading does not know, and the model reads them better.
    static const std::regex tax_mark(R"(^T$)");
    static const std::regex point_lost(R"(^\d{3,5}$)");  // an amount of 1.00-999.99 that lost its point ("750")

    LatinRowsAttempt at;
    LatinItemRows out;
    std::string desc;                   // description read so far (lines joined by a space)
    std::optional<double> qty, unit;    // a count (and unit price) printed before the amount
    std::string unit_print;             // a unit price OCR damaged ("1 X 14.1"): the amount / count must fit it
    bool unit_unchecked = false;        // qty and unit come from a "1  3.25" line: the amount must be their product
    std::optional<int> bare_count;      // a count alone on its line ("3" then "@ 1.31", or a table's QTY box)
    int count_then_unit = 0;            // "3 @" on its line (0: none): the unit price follows (or "1x": a count)
    std::optional<double> pending;      // an amount printed before its description
    struct Queued {
        std::string desc;
        std::optional<double> qty;
    };
    std::optional<Queued> queued;       // a row's description (and count) printed before the next row's, amount after
    bool last_counted = true;           // the last row already has its printed count
    size_t second_line_at = 0;          // where desc's second line starts (0: desc holds one line, or none)
    bool more_lines = false;            // desc joins three lines or more
    size_t certain = 0;                 // rows emitted with an amount as printed
    // Line i is in doubt (a damaged amount, an amount before its description): a later start skips it when no
    // certain row came before it.
    auto doubt = [&](size_t i) {
        if (!at.restart_after && certain == 0) at.restart_after = i;
    };
    // The reading cannot place line i: it ends here, and line i is in doubt.
    auto fail = [&](size_t i) {
        doubt(i);
        at.failed_at = i;
        at.rows_before = out.rows;
        return at;
    };
    auto emit = [&](double amount) {
        ItemRow r;
        r.description = without_row_number(desc);
        if (amount > 0 && !qty && !unit && names_discount(ascii_upper(r.description))) amount = -amount;
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
        ++certain;
        desc.clear();
        qty.reset();
        unit.reset();
        unit_print.clear();
        unit_unchecked = false;
        bare_count.reset();
        second_line_at = 0;
        more_lines = false;
    };
    // The row of desc whose amount OCR damaged (`print`): its amount is what the target leaves (rows_add_up_to).
    auto emit_damaged = [&](size_t i, std::string print) {  // a copy: emit() clears unit_print
        const std::optional<double> q = qty, u = unit;
        emit(0.0);
        --certain;
        doubt(i);
        out.damaged_row = out.rows.size() - 1;
        out.damaged_print = print;
        out.rows.back().quantity = q;
        out.rows.back().unit_price = u;
    };
    // A count and unit price after a row's amount belong to that row when they multiply to it; with no
    // description line between them unless `across_desc` (continue_last_row joins that line to the row).
    auto count_last_row = [&](double q, double u, bool across_desc = false) {
        if (out.rows.empty() || last_counted || (!desc.empty() && !across_desc) || pending) return false;
        ItemRow& r = out.rows.back();
        if (r.amount <= 0 || std::fabs(q * u - r.amount) > 0.005) return false;
        r.quantity = q;
        r.unit_price = u;
        last_counted = true;
        return true;
    };
    // The first line after line i that is not empty (`end` when none is).
    auto next_line = [&](size_t i) {
        size_t n = i + 1;
        while (n < end && lines[n].empty()) ++n;
        return n;
    };
    // "KNORR" / "34.62" / "CHICKEN STOCK" / "2 @ 17.31" / "TOMATO SAUCE": one description line between a row's
    // amount and a count line (line i) that multiplies to it, with no amount after the count line, is the rest of
    // that row's description (OCR put the amount's box between the two lines of its description).
    auto continue_last_row = [&](size_t i, double q, double u) {
        if (desc.empty() || second_line_at != 0 || qty || unit || queued) return false;
        const size_t next = next_line(i);
        if (next < end && (std::regex_match(lines[next], amount_line) || is_damaged_amount(lines[next])))
            return false;
        if (!count_last_row(q, u, /*across_desc=*/true)) return false;
        out.rows.back().description += " " + without_row_number(desc);
        desc.clear();
        return true;
    };
    // "1x KNORR CHICKEN SOCK 17.6" as the last row before the end line or before the next "1x" row: desc ends with
    // an amount OCR damaged (a point in it), which is cut off desc and returned; nullopt (desc unchanged) otherwise.
    auto damaged_tail = [&](size_t i) -> std::optional<std::string> {
        const size_t sp = desc.find_last_of(' ');
        if (sp == std::string::npos || out.damaged_row || qty.value_or(1) != 1 || unit) return std::nullopt;
        const std::string tail = desc.substr(sp + 1);
        if (tail.find_first_of(".,") == std::string::npos || has_ascii_letter(tail) || !is_damaged_amount(tail))
            return std::nullopt;
        const size_t next = next_line(i);
        if (next < end && !std::regex_match(lines[next], qty_desc)) return std::nullopt;
        desc = trim(desc.substr(0, sp));
        return tail;
    };
    // The description `text` of line i completes the row whose amount came before it, unless an amount follows
    // it (then it is more likely that amount's row, and the amount before it belongs to no row read here).
    auto pair_pending = [&](size_t i, const std::string& text) {
        const size_t next = next_line(i);
        if (next < end && (std::regex_match(lines[next], amount_line) || is_damaged_amount(lines[next]))) return false;
        if (!text.empty() && (is_ascii_digit(text[0]) || text[0] == '.') && !std::regex_search(text, count_prefix))
            return false;  // "10.00 ZRL": an amount with its tax code, not a description
        desc = text;
        const double a = *pending;
        pending.reset();
        emit(a);
        return true;
    };
    // Rows that print their count as "2x DESC": a count before a description that lost its x is that row's count.
    static const std::regex x_count_line(R"(^\d{1,3}x\s*[A-Z])");
    static const std::regex lookalike_count_row(std::string(R"(^([ZlI])\s+[A-Za-z].*?\S\s+)") + kMoney + R"(\s+)" +
                                                kMoney + "$");
    // A row that starts with its count (group 1): "1x SHAMPOO", "1xSHAMPOO", "lx MILK".
    static const std::regex row_count(R"(^(\d{1,3}|[ZlI])\s*(?:[xX]\s+|x(?=[A-Z])))");
    bool x_counts = false;
    for (size_t i = begin; i < end && !x_counts; ++i) x_counts = std::regex_search(lines[i], x_count_line);
    // "M58.20": the R of RM lost before an amount.
    static const std::regex rm_lost(R"(^[MR]\d[\d,]*[.,]\d{2}$)");
    std::smatch m;
    for (size_t i = begin; i < end; ++i) {
        std::string line = std::regex_match(lines[i], rm_lost) ? "RM" + lines[i].substr(1) : lines[i];
        if (line.empty()) continue;
        // "I APPLES GALA 4.70 4.70": a table row whose count OCR read as its look-alike letter, when the count
        // times the unit price is the amount.
        if (std::regex_match(line, m, lookalike_count_row)) {
            const std::optional<double> u = money_of(m, 2), a = money_of(m, 6);
            if (u && a && std::fabs(count_of(m[1].str()) * *u - *a) <= 0.005)
                line[0] = m[1].str() == "Z" ? '2' : '1';
        }
        // "750" / "6 @ 1.25": an amount whose point OCR lost, before the count line whose product it prints.
        if (std::regex_match(line, point_lost) && i + 1 < end && std::regex_match(lines[i + 1], m, qty_at))
            if (const std::optional<double> u = money_of(m, 2)) {
                const long cents = std::lround(count_of(m[1].str()) * *u * 100.0);
                if (cents == std::stol(line)) line = std::to_string(cents / 100) + "." + line.substr(line.size() - 2);
            }
        const bool is_amount = std::regex_match(line, m, amount_line);
        if (queued && !is_amount) return fail(i);  // two descriptions in a row are followed by their amounts
        if (is_amount) {
            const std::optional<double> a = money_of(m, 1);
            if (!a) return fail(i);
            if (count_then_unit > 0) {  // "3 @" / "23.52": the unit price of the row above or below
                const double q = count_then_unit;
                count_then_unit = 0;
                if (count_last_row(q, *a)) continue;
                if (desc.empty()) return fail(i);
                qty = q;
                unit = *a;
                continue;
            }
            if (desc.empty()) {  // an amount before its description, or one that belongs nowhere
                if (pending || *a == 0) return fail(i);  // 0.00: a discount or tax column, not a moved row
                pending = *a;
                doubt(i);
                continue;
            }
            if (queued) {  // the amount of the first of two descriptions printed before their amounts
                const std::string second = desc;
                const std::optional<double> second_qty = qty;
                desc = queued->desc;
                qty = queued->qty;
                queued.reset();
                emit(*a);
                desc = second;
                qty = second_qty;
                continue;
            }
            // Two rows printed as both descriptions, then both amounts, with no count before the second
            // ("CHICKEN BREAST" / "TOMATO SAUC" / "8.49" / "£2.29", "1x CHEDDAR CHEESE" / "DISCOUNT" / "4.14" /
            // "-2.07"): the second amount has no row of its own, the next line being a row with its own amount.
            if (second_line_at > 0 && !more_lines && !unit && unit_print.empty() && !unit_unchecked) {
                const size_t j = next_line(i), k = next_line(j);
                std::smatch b_m, row_m;
                const bool row_follows =
                    k < end && has_ascii_letter(printed[k]) &&
                    (std::regex_match(lines[k], row_m, desc_amounts) || std::regex_match(lines[k], row_m, desc_glued) ||
                     (k + 1 < end && std::regex_match(lines[k + 1], amount_line)));
                if (j < end && row_follows && std::regex_match(lines[j], b_m, amount_line))
                    if (const std::optional<double> b = money_of(b_m, 1); b && *b != 0) {
                        const std::string second = desc.substr(second_line_at);
                        desc.resize(second_line_at - 1);
                        emit(*a);
                        desc = second;
                        emit(*b);
                        i = j;
                        continue;
                    }
            }
            if (unit_unchecked && (!qty || !unit || std::fabs(*qty * *unit - *a) > 0.005)) return fail(i);
            if (!unit_print.empty() &&
                (!qty || *qty <= 0 || !digits_fit(unit_print, std::round(*a / *qty * 100.0) / 100.0))) {
                // "1 X 3065" / "0.65": one of a single unit, both damaged; the amount has the unit price's digits.
                const double as_cents = 0.01 * std::stod("0" + ascii_digits(unit_print));
                if (!qty || *qty != 1 || out.damaged_row || !digits_fit(line, as_cents)) return fail(i);
                emit_damaged(i, unit_print);
                continue;
            }
            // A table row whose count box OCR moved below the unit price ("RICE 5KG" / "20.75" / "1" / "20.75"):
            // the amount after the count is their product.
            std::smatch next;
            if (!qty && !unit && i + 2 < end && std::regex_match(lines[i + 1], count) &&
                !has_ascii_letter(printed[i + 1]) && std::regex_match(lines[i + 2], next, amount_line)) {
                const std::optional<double> b = money_of(next, 1);
                const double q = std::stoi(lines[i + 1]);
                if (b && q >= 1 && *a > 0 && std::fabs(q * *a - *b) <= 0.005) {
                    qty = q;
                    unit = *a;
                    i += 2;
                    emit(*b);
                    continue;
                }
            }
            // A table row: count, description, unit price, amount ("1" / "MEE GORENG" / "7.20" / "7.20"); an
            // amount OCR damaged there is the count times unit price when it has its digits ("0.95" / ".95").
            if (qty && !unit && i + 1 < end && std::regex_match(lines[i + 1], next, amount_line)) {
                const std::optional<double> b = money_of(next, 1);
                if (b && std::fabs(*qty * *a - *b) <= 0.005) {
                    unit = *a;
                    ++i;
                    emit(*b);
                    continue;
                }
            }
            if (qty && !unit && *a > 0 && i + 1 < end && is_damaged_amount(lines[i + 1]) &&
                !has_ascii_letter(printed[i + 1]) && digits_fit(lines[i + 1], *qty * *a)) {
                unit = *a;
                ++i;
                emit(std::round(*qty * *a * 100.0) / 100.0);
                continue;
            }
            emit(*a);
            continue;
        }
        if (std::regex_match(line, product_code)) continue;  // an EAN / article number above its description
        if (is_damaged_amount(line) && !has_ascii_letter(printed[i])) {  // not "S00S" read as 5005
            if (desc.empty() || pending) return fail(i);
            if (qty && unit && digits_fit(line, *qty * *unit)) {  // "3 X 0.56" / "1.8": the count times unit price
                emit(std::round(*qty * *unit * 100.0) / 100.0);
                continue;
            }
            // A table row's unit price, the amount after it: "1" / "AMERICANO TALL" / ".40" / "3.40".
            std::smatch next;
            if (!unit && i + 1 < end && std::regex_match(lines[i + 1], next, amount_line)) {
                const std::optional<double> b = money_of(next, 1);
                const double q = qty ? *qty : 1.0;
                if (b && *b > 0 && q >= 1 && digits_fit(line, std::round(*b / q * 100.0) / 100.0)) {
                    qty = q;
                    unit = std::round(*b / q * 100.0) / 100.0;
                    ++i;
                    emit(*b);
                    continue;
                }
            }
            if (out.damaged_row) return fail(i);
            emit_damaged(i, line);
            continue;
        }
        if (std::regex_match(line, m, qty_at_amount)) {  // "1 X 14.05 14.05": count, unit price and amount
            const double q = count_of(m[1].str());
            const std::optional<double> u = money_of(m, 2), a = money_of(m, 6);
            if (!u || !a || desc.empty() || pending || std::fabs(q * *u - *a) > 0.005) return fail(i);
            qty = q;
            unit = *u;
            emit(*a);
            continue;
        }
        if (std::regex_match(line, m, at_unit_amount)) {  // "X 2.50 10.00": the count is amount / unit price
            const std::optional<double> u = money_of(m, 1), a = money_of(m, 5);
            if (!u || !a || *u <= 0 || desc.empty() || pending) return fail(i);
            const double q = std::round(*a / *u);
            if (q < 1 || std::fabs(q * *u - *a) > 0.005 || (qty && *qty != q)) return fail(i);
            qty = q;
            unit = *u;
            emit(*a);
            continue;
        }
        if (std::regex_match(line, m, qty_at) || std::regex_match(line, m, count_unit)) {
            const bool unchecked = line.find_first_of("@xX") == std::string::npos && line.find("×") == std::string::npos;
            const double q = count_of(m[1].str());
            const std::optional<double> u = money_of(m, 2);
            if (!u || pending) return fail(i);
            if (count_last_row(q, *u) || (!unchecked && continue_last_row(i, q, *u))) continue;
            if (unchecked && desc.empty()) return fail(i);
            qty = q;
            unit = *u;
            unit_unchecked = unchecked;
            continue;
        }
        if (std::regex_match(line, m, qty_at_damaged)) {  // "1 X 14.1": the count; the amount must fit the unit price
            // After the row's amount ("3.15" / "3 @ 105"): that row's count, when the unit price fits.
            if (desc.empty() && !pending && !out.rows.empty() && !last_counted && out.rows.back().amount > 0) {
                const double q = std::stod(m[1].str());
                const double u = std::round(out.rows.back().amount / q * 100.0) / 100.0;
                if (q >= 1 && std::fabs(q * u - out.rows.back().amount) <= 0.005 && digits_fit(m[2].str(), u)) {
                    out.rows.back().quantity = q;
                    out.rows.back().unit_price = u;
                    last_counted = true;
                    continue;
                }
            }
            if (desc.empty() || pending || qty || unit) return fail(i);
            qty = std::stod(m[1].str());
            unit_print = m[2].str();
            continue;
        }
        if (std::regex_match(line, m, at_only)) {
            const std::optional<double> u = money_of(m, 1);
            if (!u || !bare_count || pending) return fail(i);
            const double q = *bare_count;
            bare_count.reset();
            if (count_last_row(q, *u)) continue;
            qty = q;
            unit = *u;
            continue;
        }
        if (std::regex_match(line, m, count_at)) {
            if (pending) return fail(i);
            count_then_unit = std::stoi(m[1].str());
            continue;
        }
        // The next row's count (a table's QTY box), or this one's ("1" / "X 21.80"); not "10S" read as 105.
        if (std::regex_match(line, count) && !has_ascii_letter(printed[i])) {
            if (pending) return fail(i);
            bare_count = std::stoi(line);
            continue;
        }
        // A tax code alone on the line after its amount ("9.62" / "T").
        if (desc.empty() && !pending && !out.rows.empty() && std::regex_match(line, tax_mark)) continue;
        if (std::regex_match(line, m, desc_at_unit) && has_ascii_letter(m[1].str())) {  // "FISHBALL NOODLE @7.00"
            const std::optional<double> u = money_of(m, 2);
            if (!u || pending) return fail(i);
            desc += (desc.empty() ? "" : " ") + trim(printed[i].substr(size_t(m.position(1)), size_t(m.length(1))));
            if (bare_count && !qty) qty = double(*bare_count);
            bare_count.reset();
            unit = *u;
            continue;
        }
        if ((std::regex_match(line, m, desc_amounts) || std::regex_match(line, m, desc_glued)) &&
            has_ascii_letter(m[2].str())) {
            const std::optional<double> first = money_of(m, 3);
            std::optional<double> second;
            if (m.size() > 9 && m[9].matched) second = money_of(m, 7);  // group 9: the second amount's digits
            if (!first || pending) return fail(i);
            // A whole row printed between a description and its amount, a box of one row moved into another
            // ("1x PLASTERS" / "1xSHAMPOO 400ML 14.07" / "4.51" / "1x PANADOL 24S"): on a receipt whose rows start
            // with their counts, a row that starts with its own count is not the rest of the description above it.
            const size_t j = next_line(i);
            std::smatch b_m;
            if (x_counts && !desc.empty() && !queued && !unit && unit_print.empty() && !unit_unchecked && !second &&
                std::regex_search(line, row_count) && j < end && std::regex_match(lines[j], b_m, amount_line))
                if (const std::optional<double> b = money_of(b_m, 1); b && *b != 0) {
                    const size_t k = next_line(j);
                    if (k < end && std::regex_search(lines[k], row_count)) {
                        const size_t from = size_t(m.position(2)), len = size_t(m.length(2));
                        std::string row_desc = trim(printed[i].substr(from, len));
                        std::optional<double> row_qty;
                        std::smatch c_m;
                        if (m[1].matched) {
                            row_qty = std::stod(m[1].str());
                        } else if (std::regex_search(row_desc, c_m, row_count)) {  // "1xSHAMPOO 400ML": glued
                            row_qty = count_of(c_m[1].str());
                            row_desc = trim(row_desc.substr(c_m.str().size()));
                        }
                        emit(*b);
                        desc = row_desc;
                        qty = row_qty;
                        emit(*first);
                        i = j;
                        continue;
                    }
                }
            const size_t from = size_t(m.position(2)), len = size_t(m.length(2));
            desc += (desc.empty() ? "" : " ") + trim(printed[i].substr(from, len));
            if (m[1].matched) qty = std::stod(m[1].str());
            else if (bare_count) qty = double(*bare_count);
            if (second) {
                if (qty && std::fabs(*qty * *first - *second) > 0.005) return fail(i);
                unit = *first;
                emit(*second);
            } else {
                if (unit_unchecked && (!qty || !unit || std::fabs(*qty * *unit - *first) > 0.005)) return fail(i);
                emit(*first);
            }
            continue;
        }
        if (std::regex_match(line, m, qty_desc) && has_ascii_letter(m[2].str())) {
            if (!desc.empty()) {  // two rows' descriptions, then their amounts ("1x MILO 1KG" / "1x RICE 5KG" / ...)
                if (queued || pending || unit) return fail(i);
                queued = Queued{desc, qty};
                desc.clear();
            }
            qty = count_of(m[1].str());
            std::string text = trim(printed[i].substr(size_t(m.position(2)), size_t(m.length(2))));
            if (!pending) {
                desc = text;
                if (const auto tail = damaged_tail(i)) emit_damaged(i, *tail);
            } else if (!pair_pending(i, text)) {
                return fail(i);
            }
            continue;
        }
        if (!has_ascii_letter(printed[i])) return fail(i);  // a line this reading does not know
        if (count_then_unit > 0 && desc.empty()) {  // "1x" / "COTTON BUDS": the count of the description below
            qty = double(count_then_unit);
            count_then_unit = 0;
        }
        if (bare_count && !qty) qty = double(*bare_count);
        bare_count.reset();
        std::string text = printed[i];
        if (x_counts && desc.empty() && !qty && std::regex_match(printed[i], m, count_lost_x)) {
            qty = std::stod(m[1].str());
            text = m[2].str();
        }
        if (pending) {
            if (!pair_pending(i, text)) return fail(i);
            continue;
        }
        if (!desc.empty()) {
            more_lines = more_lines || second_line_at > 0;
            second_line_at = desc.size() + 1;
        }
        desc += (desc.empty() ? "" : " ") + text;
        if (const auto tail = damaged_tail(i)) emit_damaged(i, *tail);
    }
    // An amount alone above the end line is the end line's own ("$53.54" / "SUB TOTAL" / "TAX @7%").
    std::optional<double> amount_above_end;
    if (pending && desc.empty()) amount_above_end = pending, pending.reset();
    // A last description whose amount OCR put below an end line without one, above that line's amount
    // ("1x CHEDDAR CHEESE" / "SUBOTAL" / "3.85" / "£40.68").
    static const std::regex end_amount(std::string(kMoney) + "$");
    std::smatch below, below2;
    bool row_below_end = false;
    if (!desc.empty() && !pending && !queued && !std::regex_search(lines[end], end_amount) && end + 2 < lines.size() &&
        std::regex_match(lines[end + 1], below, amount_line) && std::regex_match(lines[end + 2], below2, amount_line))
        if (const auto a = money_of(below, 1), b = money_of(below2, 1); a && b) {
            emit(*a);
            amount_above_end = *b;
            row_below_end = true;
        }
    if (!desc.empty() || pending || queued || certain == 0) return at;  // a line with nothing to pair, or no row
    for (const ItemRow& r : out.rows)
        if (names_no_item(ascii_upper(r.description))) return at;  // rows taken from the totals or the payment
    if (std::none_of(out.rows.begin(), out.rows.end(), [](const ItemRow& r) { return r.amount > 0; })) return at;
    // The subtotal / total printed on the end line or the line after it.
    out.end_amount = end_line_amount(l, end);
    if (amount_above_end) {  // the end line's amount is printed above it; what follows it is the next line's
        if (out.end_amount && !row_below_end) out.later_totals.push_back(*out.end_amount);
        out.end_amount = amount_above_end;
    }
    // The totals printed with the next subtotal / total lines, and the amounts OCR damaged after them.
    totals_below_end(l, end, kLaterTotalLines, out.later_totals, out.damaged_totals);
    descriptions_from_other_rows(out.rows);
    at.reading = std::move(out);
    return at;
}

}  // namespace receipt::extract
