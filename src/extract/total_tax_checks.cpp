// The total tax of a receipt checked against its print (extract/total_tax_checks.h).
#include "extract/total_tax_checks.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <vector>

#include "extract/dropped_digit.h"
#include "extract/field_edits.h"
#include "extract/printed_amounts.h"
#include "extract/printed_tax.h"
#include "extract/tax_table.h"
#include "extract/utf8.h"

namespace receipt::extract {

namespace {

// The per-rate taxes the model wrote in its output's tax field ("tax: 168 + 16" -> {168, 16}); one value or none
// when it wrote a single amount or no tax field.
std::vector<double> written_tax_parts(const std::string& target) {
    std::vector<double> parts;
    size_t at = std::string::npos;  // the tag at the start or after a space, as the target format writes it
    for (size_t p = target.find("tax:"); p != std::string::npos && at == std::string::npos; p = target.find("tax:", p + 1))
        if (p == 0 || target[p - 1] == ' ') at = p;
    if (at == std::string::npos) return parts;
    const size_t end = std::min(target.find('|', at), target.size());
    const std::string value = target.substr(at + 4, end - at - 4);
    for (size_t i = 0; i <= value.size();) {
        const size_t j = std::min(value.find('+', i), value.size());
        char* stop = nullptr;
        const std::string part = trim(value.substr(i, j - i));
        const double v = std::strtod(part.c_str(), &stop);
        if (part.empty() || stop != part.c_str() + part.size()) return {};
        parts.push_back(v);
        i = j + 1;
    }
    return parts;
}

}  // namespace

void check_total_tax(const std::string& text, const std::string& target, bool yen,
                     const std::optional<double>& yen_subtotal, const std::optional<double>& yen_total,
                     const std::optional<double>& labelled_tax, nlohmann::ordered_json& f) {
    auto& tax = f["total_tax_amount"];
    // In yen, one rate whose base OCR damaged is paired by the base that the total leaves (tax included), or
    // the net amount when the receipt adds 外税 to it.
    std::vector<double> base_totals;
    if (const char* key = labelled_tax ? "net_amount" : "total_amount"; yen && f[key].is_number())
        base_totals.push_back(f[key].get<double>());
    std::optional<double> printed = printed_tax_total(text, base_totals);
    // ... or, on a Japanese receipt, a table whose boxes OCR put out of order, read as a set
    // (extract/tax_table.h): also over a reading in the printed order that differs from it, which can leave out a
    // rate whose boxes OCR moved away ("税額 / 155 / ¥2,101 / 8% / 10% / ¥439 / ¥39" read as 39 alone); the set
    // pairs every rate and its bases add up to the total.
    if (yen && !base_totals.empty() && has_cjk(text))
        if (const auto table = tax_table_total(text, base_totals[0]); table && !(printed && *printed == *table))
            printed = table;
    // A yen receipt that adds 外税 to the subtotal: the labelled taxes, when subtotal + their sum = total; also over
    // a reading of the tax lines that does not add up so (a rate's line paired with boxes of the other's: "外税8% /
    // \31 / \3) / (10%対象 / 税10% / \0" read as 31 + 3).
    if (yen_subtotal && yen_total && labelled_tax && std::fabs(*yen_subtotal + *labelled_tax - *yen_total) < 0.5 &&
        !(printed && std::fabs(*yen_subtotal + *printed - *yen_total) < 0.5))
        printed = labelled_tax;
    // ... or their difference, where it is the printed 外税 amount with one digit put back ("外税8% ¥3" between
    // a subtotal of ¥421 and a total of ¥454: ¥33; extract/dropped_digit.h) and at most 10% of the subtotal.
    std::string printed_from = "the receipt's per-rate tax lines add up to ";  // for the warning below
    if (!printed && yen_subtotal && yen_total && labelled_tax && *yen_total > *yen_subtotal)
        if (const double d = *yen_total - *yen_subtotal;
            d <= 0.1 * *yen_subtotal + 1 && one_digit_inserted(amount_digits(*labelled_tax), amount_digits(d))) {
            printed = d;
            printed_from = "the receipt prints 外税 " + json_amount(*labelled_tax).dump() +
                           " with a digit lost; total less subtotal is ";
        }
    // ... or, the 外税 amounts unread (labels side by side: "外税8% / 外税10% / 191 / 48"; look-alikes: "b円"),
    // total less subtotal where that is 8-10 % of the subtotal: the receipt adds its tax to the subtotal.
    if (!printed && yen && yen_subtotal && yen_total && *yen_total > *yen_subtotal &&
        text.find("外税") != std::string::npos && !prints_tax_included(text) && f["net_amount"].is_number() &&
        f["total_amount"].is_number() && f["net_amount"].get<double>() == *yen_subtotal &&
        f["total_amount"].get<double>() == *yen_total)
        if (const double d = *yen_total - *yen_subtotal;
            d >= std::floor(0.08 * *yen_subtotal) - 1 && d <= std::ceil(0.1 * *yen_subtotal) + 1) {
            printed = d;
            printed_from = "the receipt adds 外税 to its subtotal; total less subtotal is ";
        }
    // The model wrote one tax per rate ("tax: 168 + 16"), the tax lines read only one of them (OCR damaged
    // another's rate: "外税8 / 168円"), and the others are printed as taxes: the model's sum stands.
    if (printed && yen && tax.is_number()) {
        const std::vector<double> parts = written_tax_parts(target);
        double sum = 0;
        bool parts_printed = parts.size() >= 2;
        for (double p : parts) {  // the rates the tax lines did not read: printed as a tax
            sum += p;
            if (std::fabs(p - *printed) >= 0.005) parts_printed = parts_printed && printed_as_tax(text, p);
        }
        if (parts_printed && std::fabs(sum - tax.get<double>()) < 0.005 && *printed < sum &&
            std::any_of(parts.begin(), parts.end(), [&](double p) { return std::fabs(p - *printed) < 0.005; }))
            printed.reset();
    }
    // A yen receipt with no tax lines read that prints the tax included ("(内消費税等 ¥68)", or one label per
    // rate; extract/printed_tax.h): that amount, when the model wrote none or one the receipt does not print.
    // With the total, an amount OCR cut short is put back where the arithmetic confirms it; and the model's
    // value gives way, printed or not, when the total's tax at 8-10 % holds the printed amount and not it.
    if (!printed && yen)
        if (const auto included = f["total_amount"].is_number()
                                      ? included_tax_for_total(text, f["total_amount"].get<double>())
                                      : included_tax_total(text);
            included && (!(tax.is_number() && printed_count(printed_lines(text), 0, tax.get<double>()) > 0) ||
                         (f["total_amount"].is_number() &&
                          included_tax_fits(*included, f["total_amount"].get<double>()) &&
                          !included_tax_fits(tax.get<double>(), f["total_amount"].get<double>())))) {
            if (!(tax.is_number() && std::fabs(tax.get<double>() - *included) < 0.005)) {
                f["warnings"].push_back("total_tax_amount_from_included_tax_line: the model wrote " + written(tax) +
                                        ", the receipt's 内消費税 lines print " + json_amount(*included).dump());
                tax = json_amount(*included);
                revalidate(f);
            }
        }
    if (printed && !(tax.is_number() && std::fabs(tax.get<double>() - *printed) < 0.005)) {
        f["warnings"].push_back("total_tax_amount_from_tax_lines: the model wrote " + written(tax) + ", " +
                                printed_from + json_amount(*printed).dump());
        tax = json_amount(*printed);
        revalidate(f);
    }
}

}  // namespace receipt::extract
