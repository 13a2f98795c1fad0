// A per-rate tax table read by its arithmetic (extract/tax_table.h).
#include "extract/tax_table.h"

#include <cmath>
#include <optional>
#include <set>
#include <vector>

#include "extract/name_constraint.h"
#include "extract/printed_amounts.h"
#include "extract/printed_tax.h"

namespace receipt::extract {

namespace {

// True when `line` names the table's columns: 税率, 対象額 or 税額 (also with 税 read as its look-alike 悦: "悦額").
bool header_words(const std::string& line) {
    for (const char* w : {"税率", "対象額", "税額", "悦率", "悦額"})
        if (line.find(w) != std::string::npos) return true;
    return false;
}

// True when `line` holds nothing but numbers, yen signs, 円, '%', brackets and spaces (a box of the table).
bool only_table_boxes(const std::string& line) {
    std::string rest = line;
    for (const char* drop : {"円", "\xC2\xA5", "(", ")"})
        for (size_t at = rest.find(drop); at != std::string::npos; at = rest.find(drop)) rest.erase(at, std::string(drop).size());
    for (char c : rest)
        if (!((c >= '0' && c <= '9') || c == ',' || c == '.' || c == '%' || c == ' ' || c == '\\')) return false;
    return !rest.empty();
}

// A rate of the table and the amounts its boxes hold.
struct Table {
    std::set<double> rates;
    std::vector<PrintedNumber> amounts;
    std::vector<bool> cut;  // per amount: a box whose thousands group lost a digit ("\1,77"), read one digit short
};

// Every assignment of pairs to rates[r..] from the amounts not yet used: calls `done` with the taxes' sum for each
// complete one whose bases add up to base_total.
template <class Done>
void assign(const Table& t, const std::vector<double>& rates, size_t r, std::vector<bool>& used, double bases,
            double taxes, double base_total, Done&& done) {
    if (r == rates.size()) {
        if (std::fabs(bases - base_total) < 0.5) done(taxes);
        return;
    }
    for (size_t b = 0; b < t.amounts.size(); ++b) {
        if (used[b] || t.cut[b]) continue;  // a box cut short is a tax only
        for (size_t x = 0; x < t.amounts.size(); ++x) {
            if (x == b || used[x]) continue;
            double tax = t.amounts[x].value;
            if (t.cut[x]) {
                const std::optional<double> whole = tax_with_lost_digit(t.amounts[b].value, tax, rates[r], false);
                if (!whole) continue;
                tax = *whole;
            } else if (!is_tax_of(t.amounts[b], t.amounts[x], rates[r])) {
                continue;
            }
            used[b] = used[x] = true;
            assign(t, rates, r + 1, used, bases + t.amounts[b].value, taxes + tax, base_total, done);
            used[b] = used[x] = false;
        }
    }
}

}  // namespace

std::optional<double> tax_table_total(const std::string& text, double base_total) {
    if (!(base_total > 0)) return std::nullopt;
    const std::vector<std::string> lines = printed_lines(text);
    size_t head = lines.size();
    for (size_t i = 0; i < lines.size() && head == lines.size(); ++i)
        if (header_words(lines[i]) && printed_numbers(lines[i]).empty()) head = i;
    if (head == lines.size()) return std::nullopt;
    Table t;
    for (size_t i = head + 1; i < lines.size() && i <= head + size_t(kTaxTableLines); ++i) {
        const std::string& line = lines[i];
        if (header_words(line) && printed_numbers(line).empty()) continue;
        if (!only_table_boxes(line)) break;
        if (const std::optional<double> shortened = broken_group_amount(strip_spaces(line))) {
            PrintedNumber n;
            n.value = *shortened;
            t.amounts.push_back(n);
            t.cut.push_back(true);
            continue;
        }
        const std::vector<PrintedNumber> nums = printed_numbers(line);
        for (size_t k = 0; k < nums.size(); ++k) {
            const PrintedNumber& n = nums[k];
            // A rate: 8 % or 10 %, or 8 / 10 first on a line of more numbers with no sign before it.
            const bool bare_rate = !n.percent && k == 0 && nums.size() >= 3 && (n.value == 8 || n.value == 10) &&
                                   line.find_first_not_of(' ') == n.begin;
            if ((n.percent || bare_rate) && (n.value == 8 || n.value == 10)) {
                t.rates.insert(n.value);
            } else if (n.usable && !n.percent) {
                t.amounts.push_back(n);
                t.cut.push_back(false);
            }
        }
    }
    if (t.rates.empty() || t.amounts.size() > 12) return std::nullopt;
    const std::vector<double> rates(t.rates.begin(), t.rates.end());
    std::vector<bool> used(t.amounts.size(), false);
    std::set<double> sums;
    assign(t, rates, 0, used, 0, 0, base_total, [&](double taxes) { sums.insert(std::round(taxes * 100) / 100); });
    if (sums.size() != 1) return std::nullopt;
    return *sums.begin();
}

}  // namespace receipt::extract
