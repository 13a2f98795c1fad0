// The net amount and total of a yen receipt checked by their arithmetic. A receipt adds its tax to the subtotal
// (外税: total = net + tax) or includes it (内税: total = net), so the total is never below the net amount, and
// the amount paid (the payment line under the totals: "WAON決済 ¥1341", "交通系IC決済 8,745円") prints it again.
// OCR often damages the total or subtotal line itself ("お買上計 ¥131" for ¥1341, "合計 8,75円", "¥871 / 小 計" with
// the amount moved above its keyword), so the keyword readings of extract/printed_amounts.h go wrong there.
#pragma once

#include <optional>
#include <string>

namespace receipt::extract {

// The total of a yen receipt whose total is missing or below its net amount `net` (the subtotal): net + `tax`
// (the tax added to it, when given and positive) when that amount is tendered less change (yen_paid_amount), or is
// printed from the subtotal line (小計) on (with a digit OCR lost, too, when `tax` is the receipt's 外税 amount), else
// net when it is printed there twice (the subtotal and the total or payment line). nullopt otherwise, or when no
// subtotal line is printed.
std::optional<double> yen_total_from_net(const std::string& text, double net, const std::optional<double>& tax);

// The total of a yen receipt whose printed total lost one digit to OCR ("お買上計 / 39円" for 739, "合計金額 / ¥30"
// for 304): what the arithmetic makes of it, when `total` is that amount with one digit dropped
// (extract/dropped_digit.h) and the amount is printed on the receipt, or is tendered less change as well (an amount
// of the arithmetic below that the payment lines make, yen_paid_amount's from_change, or the per-rate bases of a
// receipt that prints its tax included: "合計 / ,715円" with "8%対象 1,389円 内税 102円", "10%対象 1,326円 内税 120円"
// is 2,715). The arithmetic: net + `added_tax` (the 外税
// amounts) when both are given, net when only it is; without a net amount, the sum of the per-rate bases (tax
// included) or of the bases and their taxes (extract/printed_tax.h); and the amount paid (yen_paid_amount, "PayPay
// ¥14,328" under "合 計 ¥1,328"), printed, or tendered less change where the receipt's 内消費税 amount is that amount's tax
// at 8-10 % and not the printed total's ("¥67" / "(内消費税等 ¥61)" / 現金 ¥1000 / おつり ¥323: 677). Exactly one of
// them must fit; nullopt when none or several do.
std::optional<double> yen_total_digit_back(const std::string& text, double total, const std::optional<double>& net,
                                           const std::optional<double>& added_tax);

// The total of a yen receipt that the model and the total keyword left without one, from its per-rate tax lines
// (extract/printed_tax.h): the sum of their bases (tax included), or of their bases and taxes when the receipt
// adds 外税 (`adds_tax`), when that amount is printed once more than the tax lines print it themselves (the payment
// line "PayPay ¥13,692"). nullopt otherwise.
std::optional<double> yen_total_from_bases(const std::string& text, bool adds_tax);

// True when the per-rate tax lines of a yen receipt make `total` as yen_total_from_bases adds them up, printed or
// not.
bool tax_bases_make(const std::string& text, double total, bool adds_tax);

// The amount a yen receipt says was paid, read from its payment lines: the amount after a cashless payment word
// (決済, 支払, クレジット, カード, 交通系, PayPay, 楽天Edy, iD, QUICPay, nanaco, WAON, Suica, 電子マネー, ...) on its
// line or alone on the next one, and the amount tendered (預, 現金) less the change (釣, おつり) printed after it. `printed`
// counts how often the receipt prints the amount (the total line prints it too, when OCR left it whole). nullopt
// when there is no reading or the readings disagree.
struct PaidAmount {
    double value = 0;
    bool from_change = false;  // tendered minus change, not printed as such
    int printed = 0;           // times the receipt prints `value` as an amount
};
std::optional<PaidAmount> yen_paid_amount(const std::string& text);

// The net amount of a yen receipt that adds `tax` (its 外税 amounts) to it: total - tax when that amount is
// printed on the receipt (as a number on its own or after a label) and tax > 0; nullopt otherwise.
std::optional<double> yen_net_from_total(const std::string& text, double total, double tax);

// The net amount of a yen receipt read from its per-rate tax lines (extract/printed_tax.h): the sum of their
// bases when it is the total (tax included, 内税) or the total less their taxes (外税). OCR damages the subtotal
// line ("小計 (2点) / ¥25" for ¥225, "小計 / ¥,648") more often than both the bases and the total. nullopt when no
// tax lines are read or they do not add up so.
std::optional<double> yen_net_from_bases(const std::string& text, double total);

}  // namespace receipt::extract
