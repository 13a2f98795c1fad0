// The net amount and total of a yen receipt checked by their arithmetic (extract/yen_totals.h).
#include "extract/yen_totals.h"

#include <cmath>
#include <vector>

#include "extract/dropped_digit.h"
#include "extract/name_constraint.h"
#include "extract/printed_amounts.h"
#include "extract/printed_tax.h"

namespace receipt::extract {

namespace {

// How many times lines [from, end) print `value` as a usable amount (not a rate).
int printed_count(const std::vector<std::string>& lines, size_t from, double value) {
    int count = 0;
    for (size_t i = from; i < lines.size(); ++i)
        for (const PrintedNumber& n : printed_numbers(lines[i]))
            count += n.usable && !n.percent && std::fabs(n.value - value) < 0.005;
    return count;
}

// The sums of the per-rate tax lines' bases and of their taxes.
struct TaxLineSums {
    double bases = 0, taxes = 0;
};

TaxLineSums sums_of(const std::vector<PrintedTaxLine>& tax_lines) {
    TaxLineSums s;
    for (const PrintedTaxLine& l : tax_lines) s.bases += l.base, s.taxes += l.tax;
    return s;
}

}  // namespace

std::optional<double> yen_total_from_net(const std::string& text, double net, const std::optional<double>& tax) {
    if (!(net > 0)) return std::nullopt;
    const std::vector<std::string> lines = printed_lines(text);
    size_t sub = lines.size();
    for (size_t i = 0; i < lines.size() && sub == lines.size(); ++i)
        if (strip_spaces(lines[i]).find("小計") != std::string::npos) sub = i;
    if (sub == lines.size()) return std::nullopt;
    // The subtotal prints net once itself: net as the total must be printed once more.
    if (tax && *tax > 0 && printed_count(lines, sub, net + *tax) > 0) return net + *tax;
    if (printed_count(lines, sub, net) > 1) return net;
    return std::nullopt;
}

std::optional<double> yen_total_digit_back(const std::string& text, double total, const std::optional<double>& net,
                                           const std::optional<double>& added_tax) {
    if (!(total > 0)) return std::nullopt;
    std::vector<double> candidates;
    if (net && *net > 0) {
        candidates.push_back(added_tax && *added_tax > 0 ? *net + *added_tax : *net);
    } else if (const auto tax_lines = printed_tax_lines(text); tax_lines && !tax_lines->empty()) {
        const TaxLineSums sums = sums_of(*tax_lines);
        candidates = {sums.bases, sums.bases + sums.taxes};
    }
    const std::vector<std::string> lines = printed_lines(text);
    const std::string digits = amount_digits(total);
    std::optional<double> found;
    for (double c : candidates) {
        if (!one_digit_inserted(digits, amount_digits(c)) || printed_count(lines, 0, c) == 0) continue;
        if (found) return std::nullopt;  // both fit: the arithmetic cannot tell
        found = c;
    }
    return found;
}

std::optional<double> yen_total_from_bases(const std::string& text, bool adds_tax) {
    const auto tax_lines = printed_tax_lines(text);
    if (!tax_lines || tax_lines->empty()) return std::nullopt;
    const TaxLineSums sums = sums_of(*tax_lines);
    const double total = adds_tax ? sums.bases + sums.taxes : sums.bases;
    int as_base = 0;  // tax lines whose own base is the amount (a single rate prints the total as its base)
    for (const PrintedTaxLine& l : *tax_lines) as_base += std::fabs(l.base - total) < 0.005;
    if (!(total > 0) || printed_count(printed_lines(text), 0, total) <= as_base) return std::nullopt;
    return total;
}

std::optional<double> yen_net_from_total(const std::string& text, double total, double tax) {
    if (!(tax > 0) || !(total > tax)) return std::nullopt;
    if (printed_count(printed_lines(text), 0, total - tax) == 0) return std::nullopt;
    return total - tax;
}

std::optional<double> yen_net_from_bases(const std::string& text, double total) {
    if (!(total > 0)) return std::nullopt;
    // The bases add up to the total, or to the total less the 外税 amounts when the receipt adds its tax.
    const std::optional<double> added = labelled_tax_total(text);
    const auto lines = printed_tax_lines(text, {added ? total - *added : total});
    if (!lines || lines->empty()) return std::nullopt;
    const TaxLineSums sums = sums_of(*lines);
    if (std::fabs(sums.bases - total) < 0.5 || std::fabs(sums.bases + sums.taxes - total) < 0.5) return sums.bases;
    return std::nullopt;
}

}  // namespace receipt::extract
