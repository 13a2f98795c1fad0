// Numbers as printed on receipt lines ("1,645", "40.57", "8%"), read for the checks that take an amount from the
// text itself: the per-rate tax lines (extract/printed_tax.h) and the total after a total keyword.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace receipt::extract {

// A number printed on a line; [begin, end) are byte offsets in the line.
struct PrintedNumber {
    double value = 0;
    bool cents = false;    // written with two decimals ("40.57")
    bool percent = false;  // followed by '%' (after optional spaces): a rate
    bool usable = true;    // may be an amount: not negative, not part of a date, time, id or code
    size_t begin = 0, end = 0;
};

// The lines of a receipt text as the readers below see them: valid UTF-8, full-width forms folded to ASCII, OCR
// look-alikes next to digits read as digits ("1b4" = 164, "8,54B" = 8,548).
std::vector<std::string> printed_lines(const std::string& text);

// The same lines without the look-alike reading (valid UTF-8, full-width forms folded): each has the byte length
// of its printed_lines() line, so an offset into one is an offset into the other.
std::vector<std::string> printed_lines_as_is(const std::string& text);

// The numbers of one line of printed_lines(), left to right. Thousands groups join ("1,645" = 1645), and so does
// one group after a point in a yen amount, the comma as OCR read it ("¥1.580", "1.580円" = 1580); a number
// with one or three-plus decimals, preceded by '-', '#', ':' or '/', followed by ':', '/' or '-', followed by a
// count unit (点, 個, 品, P), followed by a broken thousands group ("8,75"), or with more than 9 integer digits
// is not usable as an amount.
std::vector<PrintedNumber> printed_numbers(const std::string& line);

// The amount of a box (spaces aside) whose thousands group lost a digit ("1,61", "¥1,46", "2,96円軽"): no amount
// to printed_numbers, read here one digit short (161) for a check to put the digit back (extract/dropped_digit.h);
// nullopt for any other box.
std::optional<double> broken_group_amount(const std::string& box);

// How many times lines [from, end) of printed_lines() print `value` as a usable amount (not a rate).
int printed_count(const std::vector<std::string>& lines, size_t from, double value);

// Which number of the line after a label is the label's amount, for amount_on_or_below.
enum class NextLine {
    kOneNumber,   // the line's one number, whatever else the line holds ("¥68)")
    kBareAmount,  // the line's number when nothing but a yen sign, 円 or '-' stands beside it ("¥3,870", "3,870円")
};

// The amount of the label that ends at byte `at` of lines[i] (printed_lines()): the first usable number that is no
// rate on that line from `at` on, else the usable number of lines[i + 1] as `next` allows. nullopt when none.
std::optional<double> amount_on_or_below(const std::vector<std::string>& lines, size_t i, size_t at, NextLine next);

// Lines after a total keyword's line that may hold its amount.
inline constexpr int kTotalAmountLines = 2;

// The amount printed after the first total keyword (合計, 合 計, お会計, お買上計, 総計, TOTAL; also as OCR damages
// them: 合言, 台計, 買上計, and 合 / 計 in two boxes; not 小計 or SUBTOTAL): the first usable non-rate number after the
// keyword on its line or on the next kTotalAmountLines lines, up to a tender, change or cash line (預, 釣, 現金);
// nullopt when there is no keyword or no such number.
std::optional<double> keyword_total(const std::string& text);

// The same for the subtotal (小計, 小 計, 小言, 小 / 計 in two boxes, SUBTOTAL, SUB TOTAL, SUB-TOTAL; OCR's "計 (4点)",
// and "計 ¥2756" above a total keyword line, 小 lost). `printed`, when
// given, tells whether a subtotal keyword is printed at all (a receipt without one has no net amount).
std::optional<double> keyword_subtotal(const std::string& text, bool* printed = nullptr);

// The amount with cents printed after the first "payable" total line (TOTAL PAYABLE, TOTAL AMT PAYABLE, AMOUNT
// PAYABLE: a line holding PAYABLE and TOTAL, AMOUNT or AMT, any case; or the amount paid with the tax included,
// "AMT PAID INCL GST"), on that line after the keyword or on the next kTotalAmountLines lines; nullopt when there
// is none. The amount due, after discounts, service and rounding.
std::optional<double> payable_total(const std::string& text);

// The amount paid in cash: the amount tendered (a line starting with CASH, CASH RECEIVED, CASH TENDERED, TENDERED,
// TENDER, PAID, TOTAL PAID, AMOUNT PAID or AMOUNT TENDERED) minus the change (a later line starting with CHANGE or
// CHANGE DUE), each an amount with cents after its keyword on the line or alone on one of the next
// kTotalAmountLines lines ("RM", "$", "£", "€" and ':' aside). Only when the difference is positive and printed elsewhere as an
// amount with cents (the total line); else nullopt. On SROIE training receipts it equals the labelled total on 286
// of 290 receipts where it is read (the others: a total labelled before cash rounding, one label of the amount
// before tax).
std::optional<double> cash_paid_total(const std::string& text);

// The total after a cash rounding (Malaysia rounds to 5 sen: "ROUNDING ADJ -0.01", "TOTAL AFTER ROUNDING 100.60"):
// when the text has a line with ROUND (any case), `total` has cents that are not a multiple of 5, and the nearest
// multiple of 0.05 is printed as an amount with two decimals, that amount; else nullopt.
std::optional<double> rounded_total(const std::string& text, double total);

}  // namespace receipt::extract
