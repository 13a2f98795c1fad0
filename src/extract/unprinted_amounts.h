// Amounts the receipt does not print. The copy constraint (extract/copy_constraint.h) keeps the model's digits on
// the printed ones while they continue a printed number, but lets it go where it has already left them; on a text
// that prints no number at all, or one that prints nothing like the amount, the model writes another receipt's
// (a total of 27500 for the text "x"). For a service that pays for receipts such an amount is worse than none.
// The test is loose, so that the model's reading of OCR damage ("127.2" printed for 127.27) and its sums (a
// subtotal added up from printed amounts, a total tax from a rate) stand.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace receipt::extract {

// The digit strings a receipt prints, for amount_printed_loosely: digit_runs(text) (extract/copy_constraint.h), and
// every number with its separators left out, a decimal comma's too ("$320,15" gives "32015"), as printed and with
// look-alikes read (printed_lines, extract/printed_amounts.h).
std::vector<std::string> printed_digit_strings(const std::string& text);

// Whether the amount `v` is printed, loosely, among `printed` (printed_digit_strings): its digits (|v| with two
// decimals without the point, "9950" for 99.50; a whole amount also as it is, "27500") are part of one, or are one
// edit (a digit lost, added or changed) from one with its point left out.
bool amount_printed_loosely(double v, const std::vector<std::string>& printed);

// Sets to null, with an "<key>_not_printed" warning: net_amount and total_amount when not printed loosely
// (amount_printed_loosely) nor the sum of two or three printed amounts; all of net_amount, total_tax_amount and
// total_amount on a receipt that prints no total keyword and no payment word (CASH, CARD, BALANCE, ...; 計, 合,
// 現金, ... on a Japanese receipt: its bottom cut off); and the total tax of a Japanese receipt that prints neither
// 税 nor a rate in %. A text that prints no digit at all has no amounts, so its line items lose theirs (quantity,
// unit price and amount) too, and its currency goes when no amount is left. Returns true when it changed anything;
// never throws.
bool drop_unprinted_amounts(const std::string& text, nlohmann::ordered_json& fields);

// Whether `code`, a currency without minor units (JPY, IDR, KRW, VND, ...; currency_without_minor_units), is made
// up for `text`: the text prints amounts with cents ("5.00") but no CJK, none of the currency's signs or its code
// (¥ 円 YEN, Rp, ₩ 원 WON, ₫ đ), and no amount grouped in thousands ("25.000", "5,000"), the way such amounts are
// printed. A cut-off US receipt is no yen receipt; bare amounts ("Tunai 15000") say nothing. False for other codes;
// never throws.
bool minor_unit_free_currency_unprinted(const std::string& text, const std::string& code);

}  // namespace receipt::extract
