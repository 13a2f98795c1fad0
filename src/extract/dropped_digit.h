// A line-item amount that lost one digit to OCR, found by the receipt's arithmetic. Thermal-receipt OCR drops
// characters, and a dropped digit turns "¥120" into "¥10" or "1,298円" into "1.28円" (the comma read as a point):
// the printed amount is then short of the subtotal by exactly what the missing digit was worth. When exactly one
// item's amount can take back one digit so that the items add up, that is the amount printed before OCR.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace receipt::extract {

// The digits of an amount as printed: 1298 -> "1298"; a yen amount read with a fraction, 1.28 -> "128" (OCR read
// its thousands comma as a decimal point). Empty for a negative or non-finite amount.
std::string amount_digits(double amount);

// True when `longer` is `shorter` with one digit inserted somewhere ("10" -> "120", "128" -> "1298"), and has no
// leading zero.
bool one_digit_inserted(const std::string& shorter, const std::string& longer);

// One repaired amount: the item at `index` becomes `amount`.
struct DroppedDigit {
    size_t index = 0;
    double amount = 0;
};

// The item whose amount lost one digit, when `amounts` (the items' amounts, discounts negative) add up to `target`
// (the subtotal or total, whole yen) with exactly one positive amount a replaced by a + (target - sum) whose digits
// are a's with one digit inserted. nullopt when they already add up, when no amount fits, or when more than one
// does (the arithmetic cannot tell which row lost the digit).
std::optional<DroppedDigit> find_dropped_digit(const std::vector<double>& amounts, double target);

}  // namespace receipt::extract
