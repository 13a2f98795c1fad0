// Printed subtotal, tax and total that add up (extract/latin_totals.h).
#include "extract/latin_totals.h"

#include <algorithm>
#include <cmath>
#include <regex>
#include <utility>
#include <vector>

#include "extract/dropped_digit.h"
#include "extract/latin_row_lines.h"
#include "extract/printed_amounts.h"
#include "extract/utf8.h"

namespace receipt::extract {

namespace {

constexpr size_t kMaxLineBytes = 200;  // bytes of a line the regexes look at (bounds std::regex's recursion)
constexpr double kRateSlack = 0.015;   // a tax computed from a printed rate may be off this much (rounding)

// Whether `line` holds nothing but a colon and a currency code or sign: the boxes that OCR read between a label and
// its amount on SROIE receipts ("SUB TOTAL" / ":" / "RM" / "68.87"). With `bracket_open` (the label's line left a
// bracket open), also the label's rest that closes it ("TOTAL SALES (EXCLUDING" / "GST)" / "RM134.95").
bool separator_line(const std::string& line, bool bracket_open) {
    static const std::regex re(R"(\s*:?\s*(RM|MYR|\$|\xC2\xA3|\xE2\x82\xAC)?\s*:?\s*)", std::regex::icase);
    static const std::regex closing(R"(\s*[A-Za-z .&]{0,12}\)\s*:?\s*)");
    if (line.size() > 16) return false;
    try {
        return std::regex_match(line, re) || (bracket_open && std::regex_match(line, closing));
    } catch (...) {
        return false;
    }
}

// The first amount with cents of lines[i] from byte `at` on (no rate, usable), else the one number of the next line
// when it is such an amount; at most two separator lines (":", "RM") may come between.
std::optional<double> cents_amount_at(const std::vector<std::string>& lines, size_t i, size_t at) {
    for (const PrintedNumber& n : printed_numbers(lines[i]))
        if (n.begin >= at && n.usable && !n.percent) return n.cents ? std::optional<double>(n.value) : std::nullopt;
    constexpr size_t kMaxSeparatorLines = 2;
    const auto count = [&](char c) { return std::count(lines[i].begin(), lines[i].end(), c); };
    bool bracket_open = count('(') > count(')');
    size_t next = i + 1;
    while (next < lines.size() && next - i <= kMaxSeparatorLines && separator_line(lines[next], bracket_open)) {
        if (lines[next].find(')') != std::string::npos) bracket_open = false;
        ++next;
    }
    if (next >= lines.size()) return std::nullopt;
    const std::vector<PrintedNumber> below = printed_numbers(lines[next]);
    if (below.size() != 1 || !below[0].usable || below[0].percent || !below[0].cents) return std::nullopt;
    return below[0].value;
}

// printed_lines(text) with a comma read as the decimal point of an amount with two decimals ("£0,40", "$19,62": OCR
// reads '.' as ','; a thousands comma has three digits after it), so that the readers below see its cents.
std::vector<std::string> latin_lines(const std::string& text) {
    static const std::regex comma_cents(R"((^|[^0-9,.])(\d{1,6}),(\d\d)(?![0-9,.]))");
    std::vector<std::string> lines = printed_lines(text);
    for (std::string& l : lines) {
        if (l.size() > kMaxLineBytes || l.find(',') == std::string::npos) continue;
        try {
            l = std::regex_replace(l, comma_cents, "$1$2.$3");
        } catch (...) {
        }
    }
    return lines;
}

// Where the keyword of `re` ends on `line` (its first 200 bytes), or nullopt when it does not match.
std::optional<size_t> keyword_end(const std::string& line, const std::regex& re) {
    const std::string head(utf8_prefix(line, kMaxLineBytes));
    std::smatch m;
    try {
        if (!std::regex_search(head, m, re)) return std::nullopt;
    } catch (...) {
        return std::nullopt;
    }
    return size_t(m.position(0) + m.length(0));
}

// The subtotal keyword: SUBTOTAL, SUB TOTAL, SUB-TOTAL (its S read as 5 or lost, its B as 8, its O as 0 by OCR), TOTAL
// SALES (EXCLUDING ...) (its T lost, a letter of SALES lost; the bracket ends before an amount when OCR lost the
// closing one).
const std::regex& subtotal_re() {
    static const std::regex re(
        R"(\b[S5]?U[B8]\s*-?\s*T[O0]T\w*|\bT?OTAL\s+(SALES|SALS|SAES|SLES|ALES)\s*\(?\s*E?XCL\w*[^)$\xC2\xA30-9]*\)?)",
        std::regex::icase);
    return re;
}

// The first line of `lines` that holds the subtotal keyword, and where the keyword ends on it; nullopt when none does.
std::optional<std::pair<size_t, size_t>> first_subtotal_keyword(const std::vector<std::string>& lines) {
    for (size_t i = 0; i < lines.size(); ++i)
        if (const auto at = keyword_end(lines[i], subtotal_re())) return std::make_pair(i, *at);
    return std::nullopt;
}

// A tax line: the tax word first (TAX with a letter lost too) and a rate in % (skipped as a percent), or a total
// of the tax.
const std::regex& tax_re() {
    static const std::regex re(R"(^\s*(SALES\s+)?(TAX|TA|VAT|SST|GST|TX)\b[^%]*%|^\s*TOTAL\s+(GST|TAX|SST|VAT)\b)",
                               std::regex::icase);
    return re;
}

// The rate in % a tax line prints ("GST SR@0%" -> 0, "TX @8.875%" -> 8.875), or nullopt.
std::optional<double> printed_rate(const std::string& line) {
    static const std::regex rate(R"((\d+(?:\.\d+)?)\s*%)");
    const std::string head(utf8_prefix(line, kMaxLineBytes));
    std::smatch m;
    try {
        if (std::regex_search(head, m, rate)) return std::stod(m[1].str());
    } catch (...) {
    }
    return std::nullopt;
}

// Whether `tax` is `rate` % of an amount with cents printed in `lines` (tax added to a net amount) or of one
// that includes it (VAT included in a total), within kRateSlack.
bool tax_of_printed_amount(const std::vector<std::string>& lines, double tax, double rate) {
    for (const std::string& line : lines)
        for (const PrintedNumber& n : printed_numbers(line))
            if (n.usable && !n.percent && n.cents &&
                (std::fabs(n.value * rate / 100 - tax) <= kRateSlack ||
                 std::fabs(n.value * rate / (100 + rate) - tax) <= kRateSlack))
                return true;
    return false;
}

// Whether `line` prints `value` as an amount with cents, or with a comma for the decimal point ("$320,15").
bool prints_cents_amount(const std::string& line, double value) {
    for (const PrintedNumber& n : printed_numbers(line))
        if (n.usable && !n.percent && n.cents && std::fabs(n.value - value) < 0.005) return true;
    static const std::regex comma_cents(R"((^|[^0-9,.])(\d{1,6}),(\d\d)(?![0-9]))");
    const std::string head(utf8_prefix(line, kMaxLineBytes));
    try {
        for (std::sregex_iterator it(head.begin(), head.end(), comma_cents), end; it != end; ++it)
            if (std::fabs(std::stod((*it)[2].str() + "." + (*it)[3].str()) - value) < 0.005) return true;
    } catch (...) {
    }
    return false;
}

// The one amount with cents that lines[i] holds, alone or beside a currency sign or code; nullopt otherwise.
std::optional<double> lone_cents_amount(const std::string& line) {
    const std::vector<PrintedNumber> nums = printed_numbers(line);
    if (nums.size() != 1 || !nums[0].usable || nums[0].percent || !nums[0].cents) return std::nullopt;
    return nums[0].value;
}

}  // namespace

std::optional<double> printed_tax_line_amount(const std::string& text) {
    if (has_cjk(text)) return std::nullopt;
    const std::vector<std::string> lines = latin_lines(text);
    std::optional<double> found;
    for (size_t i = 0; i < lines.size(); ++i) {
        const auto at = keyword_end(lines[i], tax_re());
        if (!at) continue;
        const auto v = cents_amount_at(lines, i, *at);
        if (!v) return std::nullopt;  // a tax line whose amount is not read: undecided
        // A rate's amount must be that rate of a printed amount: "GST 6%" / "15.00" in a tax summary is the amount
        // taxed, "GST SR@0%" / "7.16" the amount taxed at 0%.
        if (const auto rate = printed_rate(lines[i]); rate && !(*rate > 0 && tax_of_printed_amount(lines, *v, *rate)))
            continue;
        if (found && std::fabs(*found - *v) >= 0.005) return std::nullopt;
        found = v;
    }
    if (found && *found <= 0) return std::nullopt;
    return found;
}

std::optional<double> printed_subtotal(const std::string& text) {
    if (has_cjk(text)) return std::nullopt;
    const std::vector<std::string> lines = latin_lines(text);
    const auto sub = first_subtotal_keyword(lines);
    if (!sub) return std::nullopt;
    return cents_amount_at(lines, sub->first, sub->second);
}

std::optional<PrintedTotals> printed_totals_that_add_up(const std::string& text) {
    if (has_cjk(text)) return std::nullopt;
    const std::vector<std::string> lines = latin_lines(text);
    const auto sub = first_subtotal_keyword(lines);
    if (!sub) return std::nullopt;
    const size_t i = sub->first;
    std::optional<size_t> tax_line;
    std::optional<double> tax_amount;
    std::optional<double> net = cents_amount_at(lines, i, sub->second);
    if (!net && i + 1 < lines.size() && keyword_end(lines[i + 1], tax_re())) {
        // "SUB TOTAL" / "SST 6%" / "RM38.95" / "RM2.34": the two keywords, then their amounts.
        if (i + 3 < lines.size()) {
            net = lone_cents_amount(lines[i + 2]);
            tax_amount = lone_cents_amount(lines[i + 3]);
            tax_line = i + 3;
        }
        // "$53.54" / "SUB TOTAL" / "TAX @7%" / "$3.75": the subtotal's amount printed above its keyword (OCR put
        // its box first); the sum printed below decides, as for the other layouts.
        if ((!net || !tax_amount) && i > 0) {
            if (const auto above = lone_cents_amount(lines[i - 1])) {
                net = above;
                tax_amount = cents_amount_at(lines, i + 1, *keyword_end(lines[i + 1], tax_re()));
                tax_line = i + 1;
            }
        }
    } else {
        if (!net) return std::nullopt;
        for (size_t j = i + 1; j < lines.size(); ++j)
            if (const auto tat = keyword_end(lines[j], tax_re())) {
                tax_line = j;
                tax_amount = cents_amount_at(lines, j, *tat);
                break;
            }
    }
    if (!net || !tax_amount || *tax_amount <= 0) return std::nullopt;
    const double sum = std::round((*net + *tax_amount) * 100) / 100;
    for (size_t k = *tax_line + 1; k < lines.size(); ++k)
        if (prints_cents_amount(lines[k], sum)) return PrintedTotals{*net, *tax_amount, sum};
    return std::nullopt;
}

bool states_tax(const std::string& text) {
    // A rate in % with at most two amounts after it (a tax summary's amount taxed and tax), each with a currency
    // sign of up to 3 bytes ("RM", "£").
    static const std::regex rate_line(R"(\d\s*%(\s*[^\s\d]{0,3}\d[\d.,]*){0,2}\s*$)");
    static const std::regex word(R"((^|[^A-Za-z0-9])(SALES\s*TAX|TAX|VAT|GST|SST|TX)(?![A-Za-z]))", std::regex::icase);
    static const std::regex not_stated(R"(^\W*(N[O0]\b|N[O0]\.|ID|REG|INV|NUMBER|#|\)))", std::regex::icase);
    static const std::regex note(R"(INCL|EXCL)", std::regex::icase);
    static const std::regex any_rate(R"(\d\s*%)");
    const std::vector<std::string> lines = split_lines(text);
    try {
        for (size_t i = 0; i < lines.size(); ++i) {
            const std::string head(utf8_prefix(lines[i], kMaxLineBytes));
            if (std::regex_search(head, rate_line)) return true;
            if (std::regex_search(head, note)) {
                // "TOTAL INCLUDES 6% GST", "(BILL INCLUSIVE OF 6% GST : RM2.21)" state it; "(Inclusive GST)" does not.
                if (std::regex_search(head, any_rate) && std::regex_search(head, word)) return true;
                continue;
            }
            const std::string next = i + 1 < lines.size() ? std::string(utf8_prefix(lines[i + 1], kMaxLineBytes)) : "";
            for (std::sregex_iterator it(head.begin(), head.end(), word), end; it != end; ++it) {
                const size_t after = size_t(it->position(0) + it->length(0));
                const std::string rest = head.substr(after) + (trim(head.substr(after)).empty() ? " " + next : "");
                if (!std::regex_search(rest, not_stated)) return true;
            }
        }
    } catch (...) {
        return true;  // unread: the model's tax stands
    }
    return false;
}

namespace {

constexpr double kMaxRounding = 0.02;  // a cash rounding adjustment (to 5 cents) is at most 2 cents

// Whether some line of `lines` prints `value` as an amount with cents.
bool printed_cents(const std::vector<std::string>& lines, double value) {
    for (const std::string& line : lines)
        if (prints_cents_amount(line, value)) return true;
    return false;
}

}  // namespace

std::optional<double> latin_total_digit_back(const std::string& text, double total, const std::optional<double>& net,
                                             double tax) {
    if (has_cjk(text) || !(total >= 0) || !(tax > 0)) return std::nullopt;
    const std::vector<std::string> lines = latin_lines(text);
    if (!printed_cents(lines, total) || !printed_cents(lines, tax)) return std::nullopt;
    const std::string shorter = cents_digits(total);
    if (net) {
        // Tax added to the net: the total is their sum.
        const double sum = std::round((*net + tax) * 100) / 100;
        if (sum > total && printed_cents(lines, *net) && one_digit_inserted(shorter, cents_digits(sum))) return sum;
        return std::nullopt;
    }
    // Tax included in the total at a printed rate r: tax = total x r / (100 + r) within kRateSlack.
    std::vector<double> rates;
    for (const std::string& line : lines)
        if (keyword_end(line, tax_re()))
            if (const auto r = printed_rate(line); r && *r > 0) rates.push_back(*r);
    std::optional<double> found;
    for (size_t at = 0; at <= shorter.size(); ++at)
        for (char d = '0'; d <= '9'; ++d) {
            const std::string longer = shorter.substr(0, at) + d + shorter.substr(at);
            if (!one_digit_inserted(shorter, longer)) continue;
            const double v = std::stod(longer) / 100;
            for (double r : rates)
                if (std::fabs(v * r / (100 + r) - tax) <= kRateSlack) {
                    if (found && std::fabs(*found - v) >= 0.005) return std::nullopt;  // two readings fit
                    found = v;
                }
        }
    return found;
}

std::optional<double> latin_net_digit_back(const std::string& text, double net, double total, double tax) {
    if (has_cjk(text) || !(net > 0) || !(total > net) || !(tax > 0)) return std::nullopt;
    const std::vector<std::string> lines = latin_lines(text);
    if (!printed_cents(lines, net) || !printed_cents(lines, total) || !printed_cents(lines, tax)) return std::nullopt;
    const bool rounded = std::any_of(lines.begin(), lines.end(), [](const std::string& line) {
        return ascii_upper(line).find("ROUND") != std::string::npos;
    });
    const std::string shorter = cents_digits(net);
    std::optional<double> found;
    for (const double base : {total - tax, total})
        for (int cents = rounded ? -2 : 0; cents <= (rounded ? 2 : 0); ++cents) {
            const double v = std::round(base * 100 + cents) / 100;
            if (v <= net || !one_digit_inserted(shorter, cents_digits(v))) continue;
            if (found && std::fabs(*found - v) >= 0.005) return std::nullopt;  // two readings fit
            found = v;
        }
    return found;
}

std::optional<double> latin_tax_from_totals(const std::string& text, double net, double total) {
    if (has_cjk(text) || !(net > 0) || !(total > net)) return std::nullopt;
    const double tax = std::round((total - net) * 100) / 100;
    if (tax <= kMaxRounding || tax > 0.3 * net) return std::nullopt;
    const std::vector<std::string> lines = latin_lines(text);
    if (!printed_cents(lines, net) || !printed_cents(lines, total)) return std::nullopt;
    // Printed within two lines of a tax word (not a change or rounding amount that happens to be the difference).
    static const std::regex tax_word(R"(\b(TAX|VAT|GST|SST)\b(?!\s*(INVOICE|ID|REG|NO\b|NO\.|SUMMARY)))",
                                     std::regex::icase);
    for (size_t i = 0; i < lines.size(); ++i) {
        if (!prints_cents_amount(lines[i], tax)) continue;
        for (size_t j = i >= 2 ? i - 2 : 0; j < lines.size() && j <= i + 2; ++j)
            if (keyword_end(lines[j], tax_word)) return tax;
    }
    for (const std::string& line : lines)
        if (keyword_end(line, tax_re()))
            if (const auto r = printed_rate(line); r && *r > 0 && std::fabs(net * *r / 100 - tax) <= kRateSlack)
                return tax;
    return std::nullopt;
}

}  // namespace receipt::extract
