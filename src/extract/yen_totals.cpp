// The net amount and total of a yen receipt checked by their arithmetic (extract/yen_totals.h).
#include "extract/yen_totals.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "extract/dropped_digit.h"
#include "extract/name_constraint.h"
#include "extract/printed_amounts.h"
#include "extract/printed_tax.h"

namespace receipt::extract {

namespace {

// The sums of the per-rate tax lines' bases and of their taxes.
struct TaxLineSums {
    double bases = 0, taxes = 0;
};

TaxLineSums sums_of(const std::vector<PrintedTaxLine>& tax_lines) {
    TaxLineSums s;
    for (const PrintedTaxLine& l : tax_lines) s.bases += l.base, s.taxes += l.tax;
    return s;
}

// The digits of a line that holds one amount and nothing else but a yen sign or 円, its separators dropped
// ("\1,19" -> "119": OCR lost a digit of "\1,197", which no longer reads as a number). Empty otherwise.
std::string bare_amount_digits(const std::string& line) {
    std::string s = strip_spaces(line);
    for (const char* sign : {"\\", "\xC2\xA5"})
        if (s.rfind(sign, 0) == 0) s = s.substr(std::strlen(sign));
    if (s.size() >= 3 && s.compare(s.size() - 3, 3, "円") == 0) s.resize(s.size() - 3);
    std::string digits;
    for (char c : s) {
        if (c >= '0' && c <= '9') digits += c;
        else if (c != ',' && c != '.') return "";
    }
    return digits;
}

// True when lines [from, end) print `value` with one digit OCR lost, as a number or a bare amount ("\1,19" for
// 1,197).
bool printed_with_digit_lost(const std::vector<std::string>& lines, size_t from, double value) {
    const std::string digits = amount_digits(value);
    for (size_t i = from; i < lines.size(); ++i) {
        if (const std::string bare = bare_amount_digits(lines[i]); !bare.empty() && one_digit_inserted(bare, digits))
            return true;
        for (const PrintedNumber& n : printed_numbers(lines[i]))
            if (n.usable && !n.percent && one_digit_inserted(amount_digits(n.value), digits)) return true;
    }
    return false;
}

}  // namespace

std::optional<double> yen_total_from_net(const std::string& text, double net, const std::optional<double>& tax) {
    if (!(net > 0)) return std::nullopt;
    // Tendered less change is net + tax: the payment lines confirm it whatever OCR did to the total and subtotal
    // lines ("計(9点) / ¥4,391 / ... / 合計 / ¥4,74 / 現金 / ¥5,000 / おつり / ¥253").
    if (tax && *tax > 0)
        if (const auto paid = yen_paid_amount(text); paid && paid->from_change && std::fabs(paid->value - (net + *tax)) < 0.5)
            return net + *tax;
    const std::vector<std::string> lines = printed_lines(text);
    size_t sub = lines.size();
    for (size_t i = 0; i < lines.size() && sub == lines.size(); ++i) {
        std::string line = strip_spaces(lines[i]);
        if (line == "小" && i + 1 < lines.size()) line += strip_spaces(lines[i + 1]);  // "小" / "計": two boxes
        if (line.find("小計") != std::string::npos) sub = i;
    }
    if (sub == lines.size()) return std::nullopt;
    // The subtotal prints net once itself: net as the total must be printed once more.
    if (tax && *tax > 0 && printed_count(lines, sub, net + *tax) > 0) return net + *tax;
    // With the tax printed after a 外税 label, net + tax printed there with a digit OCR lost ("外税8% / \88 /
    // お買上計 / \1,19" under a subtotal of \1,109): a 対象 line prints the net again, which is no total.
    if (const auto added = labelled_tax_total(text);
        tax && *tax > 0 && added && std::fabs(*added - *tax) < 0.5 && printed_with_digit_lost(lines, sub, net + *tax))
        return net + *tax;
    if (printed_count(lines, sub, net) > 1) return net;
    return std::nullopt;
}

std::optional<double> yen_total_digit_back(const std::string& text, double total, const std::optional<double>& net,
                                           const std::optional<double>& added_tax) {
    if (!(total > 0)) return std::nullopt;
    std::vector<double> candidates;
    std::optional<double> included_bases;  // the per-rate bases of a tax-included receipt: its total, printed or not
    if (net && *net > 0) {
        candidates.push_back(added_tax && *added_tax > 0 ? *net + *added_tax : *net);
    } else if (const auto tax_lines = printed_tax_lines(text); tax_lines && !tax_lines->empty()) {
        const TaxLineSums sums = sums_of(*tax_lines);
        candidates = {sums.bases, sums.bases + sums.taxes};
        if (prints_tax_included(text) && !added_tax && !labelled_tax_total(text)) included_bases = sums.bases;
    }
    // The amount paid prints the total again ("合 計 ¥1,328" / "PayPay ¥14,328"); when it and the arithmetic both fit
    // and differ, nothing is put back.
    const size_t from_arithmetic = candidates.size();
    const auto paid = yen_paid_amount(text);
    if (paid && std::find(candidates.begin(), candidates.end(), paid->value) == candidates.end())
        candidates.push_back(paid->value);
    const std::vector<std::string> lines = printed_lines(text);
    const std::string digits = amount_digits(total);
    std::optional<double> found;
    for (size_t k = 0; k < candidates.size(); ++k) {
        const double c = candidates[k];
        // Printed somewhere, or an amount of the arithmetic that tendered less change makes too ("合 計 / 123" with
        // 小計 1130, 外税 32 and 72, お預り 2000, お釣 766).
        const bool paid_so = k < from_arithmetic && paid && paid->from_change && paid->value == c;
        // Tendered less change alone, where the included tax the receipt prints is that amount's at 8-10 % and not
        // the printed total's ("¥67" / "(内消費税等 ¥61)" / 現金 ¥1000 / おつり ¥323: 677).
        auto taxed_so = [&] {
            const auto included = included_tax_total(text);
            return k >= from_arithmetic && paid->from_change && included && included_tax_fits(*included, c) &&
                   !included_tax_fits(*included, total);
        };
        const bool bases_so = k < from_arithmetic && included_bases && *included_bases == c;
        if (!one_digit_inserted(digits, amount_digits(c)) ||
            (printed_count(lines, 0, c) == 0 && !paid_so && !bases_so && !taxed_so()))
            continue;
        if (found) return std::nullopt;  // both fit: the arithmetic cannot tell
        found = c;
    }
    return found;
}

namespace {

// The amount the per-rate tax lines make: their bases, plus their taxes where the receipt adds them.
double bases_total(const std::vector<PrintedTaxLine>& tax_lines, bool adds_tax) {
    const TaxLineSums sums = sums_of(tax_lines);
    return adds_tax ? sums.bases + sums.taxes : sums.bases;
}

}  // namespace

bool tax_bases_make(const std::string& text, double total, bool adds_tax) {
    const auto tax_lines = printed_tax_lines(text);
    return tax_lines && !tax_lines->empty() && total > 0 &&
           std::fabs(bases_total(*tax_lines, adds_tax) - total) < 0.005;
}

std::optional<double> yen_total_from_bases(const std::string& text, bool adds_tax) {
    const auto tax_lines = printed_tax_lines(text);
    if (!tax_lines || tax_lines->empty()) return std::nullopt;
    const double total = bases_total(*tax_lines, adds_tax);
    int as_base = 0;  // tax lines whose own base is the amount (a single rate prints the total as its base)
    for (const PrintedTaxLine& l : *tax_lines) as_base += std::fabs(l.base - total) < 0.005;
    if (!(total > 0) || printed_count(printed_lines(text), 0, total) <= as_base) return std::nullopt;
    return total;
}

namespace {

// Words that name a cashless payment on a Japanese receipt's payment line ("iD決済", "PayPay", "交通系IC支払").
constexpr const char* kPaymentWords[] = {"決済",   "支払",    "クレジット", "カード", "交通系", "PayPay", "Edy",
                                         "iD",     "QUICPay", "nanaco",    "WAON",   "Suica",  "PASMO",  "ICOCA",
                                         "電子マネー", "d払い", "au PAY", "メルペイ"};

}  // namespace

std::optional<PaidAmount> yen_paid_amount(const std::string& text) {
    const std::vector<std::string> lines = printed_lines(text);
    std::vector<double> readings;
    double tendered = -1;  // the amount tendered, -1 when none is read yet (a plain double: GCC's
                           // maybe-uninitialized misfires on an optional here)
    bool from_change = false;
    for (size_t i = 0; i < lines.size(); ++i) {
        const std::string& line = lines[i];
        if (line.find("残高") != std::string::npos || line.find("ポイント") != std::string::npos) continue;
        size_t p = line.find("預");
        if (p == std::string::npos) p = line.find("現金");
        if (p != std::string::npos) {
            tendered = amount_on_or_below(lines, i, p, NextLine::kBareAmount).value_or(-1);
            continue;
        }
        size_t q = line.find("釣");
        if (q == std::string::npos) q = line.find("おつり");
        if (q != std::string::npos) {
            const std::optional<double> change = amount_on_or_below(lines, i, q, NextLine::kBareAmount);
            if (tendered > 0 && change && tendered > *change) {
                readings.push_back(tendered - *change);
                from_change = true;
            }
            tendered = -1;
            continue;
        }
        // A payment word starts the line, or 決済 / 支払 is on it ("SDカード 64GB" names an item).
        const size_t lead = line.find_first_not_of(' ');
        size_t at = std::string::npos;
        for (const char* w : kPaymentWords)
            if (const size_t q = line.find(w);
                q != std::string::npos && (q == lead || std::strcmp(w, "決済") == 0 || std::strcmp(w, "支払") == 0))
                at = std::min(at, q + std::strlen(w));
        if (at == std::string::npos) continue;
        if (const auto v = amount_on_or_below(lines, i, at, NextLine::kBareAmount); v && *v > 0) readings.push_back(*v);
    }
    if (readings.empty()) return std::nullopt;
    for (double r : readings)
        if (std::fabs(r - readings[0]) > 0.005) return std::nullopt;
    PaidAmount paid;
    paid.value = readings[0];
    paid.from_change = from_change && readings.size() == 1;
    paid.printed = printed_count(lines, 0, paid.value);
    return paid;
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
    // A receipt that prints 外税 adds its tax: bases equal to the total are the total read as a base ("外税8% /
    // ¥76 / 合計金額 / ¥1,037": 76 is 8/108 of 1,037 as well as 8 % of the net 961), not the net amount.
    if ((!added && std::fabs(sums.bases - total) < 0.5) || std::fabs(sums.bases + sums.taxes - total) < 0.5)
        return sums.bases;
    return std::nullopt;
}

}  // namespace receipt::extract
