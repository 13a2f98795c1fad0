// The total tax of a receipt checked against its print. A receipt that prints a base and a tax amount for each of
// its tax rates gives the total tax exactly (extract/printed_tax.h); the model often takes one rate's tax, a base, or
// a wrong column. Yen receipts also state it by a 外税 label per rate (added to the subtotal) or a 内消費税 label
// (included in the total), which OCR damages in ways the arithmetic of net, tax and total can tell.
#pragma once

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

namespace receipt::extract {

// Replaces `fields`' total_tax_amount, with a warning, by what the print gives (the model's `target` text tells the
// per-rate taxes it wrote): the per-rate tax lines' sum (a rate whose base OCR damaged paired by the base the total,
// or with 外税 the net amount, leaves), else on a Japanese receipt a tax table read as a set (extract/tax_table.h);
// for a yen receipt (`yen`) with a subtotal and total read from its keywords (`yen_subtotal`, `yen_total`), else the
// 外税 amounts (`labelled_tax`) that make subtotal + tax = total, or total less subtotal where it is the 外税 amount
// with a digit lost or, the 外税 amounts unread, 8-10 % of the subtotal; the model's per-rate parts stand when the
// lines read only one of them and the others are printed as taxes. Without any of these, on a yen receipt, the
// 内消費税 amount (extract/printed_tax.h: included_tax_for_total), when the model wrote none or one the receipt does
// not print, or one that is no 8-10 % of the total where the printed amount is.
void check_total_tax(const std::string& text, const std::string& target, bool yen,
                     const std::optional<double>& yen_subtotal, const std::optional<double>& yen_total,
                     const std::optional<double>& labelled_tax, nlohmann::ordered_json& fields);

}  // namespace receipt::extract
