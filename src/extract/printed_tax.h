// The total tax read from a receipt's per-rate tax lines. Receipts with two tax rates (Japan's 8 % reduced rate
// and 10 %) print a base and a tax amount per rate ("8%  ¥474  ¥35", "(10%対象 ¥683 内税 ¥62)", "SR @ 6% 40.57
// 2.43"), and the schema's total_tax_amount is the sum over the rates. A model trained from scratch often picks
// the wrong number of such a table or does not add the parts; the arithmetic identifies them exactly:
//   tax = base * r / (100 + r)   (tax included in the base: 内税)   or   tax = base * r / 100   (外税, GST on net)
// up to one unit of the last printed digit (floor, round or ceil).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "extract/printed_amounts.h"

namespace receipt::extract {

// One tax rate's printed base and tax amount, in the receipt's major unit (yen, dollars).
struct PrintedTaxLine {
    double rate = 0;  // percent
    double base = 0;
    double tax = 0;
};

// True when `tax` is the tax of `base` at `rate` percent: |tax - base r / (100 + r)| or |tax - base r / 100| within
// one unit of the last printed digit (both in cents or both whole), 0 < tax < base; or a tax of 0 on a base too
// small to carry one unit of tax included.
bool is_tax_of(const PrintedNumber& base, const PrintedNumber& tax, double rate);

// The tax of `base` at `rate` percent that a tax printed with one digit lost (`printed`) is with that digit put
// back: the one value of base r / (100 + r) and base r / 100, rounded down or to nearest (and up when
// `rounded_up_too`), below the base, whose digits are the printed tax's with one digit more ("内税 ¥14" after a base
// of ¥2,628 at 8 %: 194; extract/dropped_digit.h). nullopt when none or two are: rounded up, "4,72" under 51,980 at
// 10 % is 4,725 or 4,726. `included_only` tries base r / (100 + r) alone (a line that says the tax is included).
std::optional<double> tax_with_lost_digit(double base, double printed, double rate, bool rounded_up_too,
                                          bool included_only = false);

// Lines after a rate's line that may hold its base and tax amount (OCR puts each box on its own line).
inline constexpr int kTaxWindowLines = 3;

// The per-rate tax lines of `text`, first rate printed first, one per rate, or nullopt when they do not add up to
// a confident total: no rate is resolved, or a rate printed in a tax context with amounts after it has no pair.
// A rate is "d%" or "d.d%" (1 to 30) on a line with a tax word (税, 対象, TAX, GST, SST, VAT), after a line with
// one (a summary table's header), or at the start of a line (a tax table row "8% ¥474 ¥35"). Its pair is two adjacent amounts (base, tax), among the amounts after it
// on its line and on the next kTaxWindowLines lines (stopping at another rate's line), with tax within one unit
// of the formulas above, 0 < tax < base. OCR look-alikes next to digits are read as digits ("1b4" = 164).
// On a Japanese receipt a '%' that OCR left without its digit ("(%対象 237 内税 17)") is paired as 8 % or 10 %,
// and a rate printed without its '%' after 税 ("外税10") is no amount. Without a pair after the rate, a tax printed
// before its base ("8% / 44 / 598") is paired too (Japanese receipts only). A rate with only its base after it
// whose tax box OCR moved past the next rate ("8% / ¥88 / 10% / ¥6 / ¥468 / ¥42") is paired with the one amount left
// before that rate's pair that is the tax of one of its amounts.
std::optional<std::vector<PrintedTaxLine>> printed_tax_lines(const std::string& text);

// The same, where one rate with amounts and no pair (OCR damaged its base: "8% / ¥86 / ¥61" for ¥836) is paired
// with the base that one of `base_totals` (the receipt's subtotal or total, which its bases add up to) less the
// other rates' bases leaves, when an amount after the rate is that base's tax.
std::optional<std::vector<PrintedTaxLine>> printed_tax_lines(const std::string& text,
                                                             const std::vector<double>& base_totals);

// The sum of printed_tax_lines(text, base_totals)'s tax amounts, rounded to cents, or nullopt.
std::optional<double> printed_tax_total(const std::string& text, const std::vector<double>& base_totals = {});

// The sum of the amounts printed after each 外税 label ("外税8% / ¥421 / 外税10% / ¥297"): the first usable amount
// after the label and its rate, on its line or the next kTotalAmountLines lines. A receipt that adds the tax to
// the subtotal prints no per-rate base to check it by, so the caller checks subtotal + this = total. nullopt when
// no 外税 label is printed or one has no amount. A rate printed without its '%' ("外税10 / 513") is no amount.
std::optional<double> labelled_tax_total(const std::string& text);

// The tax included in a Japanese receipt's total over all its rates, printed after a 内消費税等 label ("(内消費税等
// ¥68)", also "内消税等" with a character lost, or "内費悦" with 消, 等 lost and 税 read as 悦): the first usable
// amount after the label on its line, or the one amount of the next line (OCR puts the box on its own line); without
// such a label, the sum of the amounts after each per-rate 内消費税 label ("(内消費税8% ¥531)", "(内消費税10% ¥228)").
// A parenthesised 内消費税等 amount may also stand two lines below its label with a payment's name between
// ("(内消費税等 / 楽天Edy / 102)"), and 税 may be read as its look-alike 悦 ("内消費悦等"). nullopt when there is no
// such label, one has no amount, or two 内消費税等 amounts disagree.
std::optional<double> included_tax_total(const std::string& text);

// True when `tax` can be the tax included in `total` at Japan's rates, 8 % to 10 %, within one yen:
// floor(total 8 / 108) - 1 <= tax <= ceil(total 10 / 110) + 1.
bool included_tax_fits(double tax, double total);

// included_tax_total read against the receipt's `total`: an amount that OCR cut short by one digit is put back
// where the arithmetic gives exactly one value for it ("(内消費税等 ¥24)" under a total of ¥2,756: ¥204, 8/108 of
// it; "(内消費税10% / ¥7)" after "10%対象計 / ¥794": ¥72). A 内消費税等 amount is the total's tax at 8 % or 10 %;
// a per-rate amount that of the base after its "8%対象" / "10%対象" label, or of the total when one rate is printed.
// Amounts that the arithmetic confirms, or cannot check, are kept as printed. nullopt as included_tax_total.
std::optional<double> included_tax_for_total(const std::string& text, double total);

// True when `text` prints 税, or its OCR look-alike 悦 in a tax label (消費悦, 悦等, 悦率, 悦額, 内悦, 外悦, 内費悦,
// 内消悦), or 内消等 (内消費税等 that lost 費税).
bool prints_tax_word(const std::string& text);

// True when `text` says its tax is included: 内税 or 内消費税, also with 消 or 費 lost to OCR (内消税, 内費税), and
// 税 read as 悦 then (内費悦, 内消悦), and 内消等 (費税 lost).
bool prints_tax_included(const std::string& text);

// True when `text` prints `v` as a tax: an amount after 税 on its line ("内税 25"), or on the line after one that
// holds 税 ("外税8" / "168円"), that line itself holding neither 税 nor 対象 (a base: "(10%対象 / ¥4)").
bool printed_as_tax(const std::string& text, double v);

}  // namespace receipt::extract
