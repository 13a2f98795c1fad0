// The subtotal, tax and total of a receipt with cents (US, UK and Malaysian receipts) read from its printed total
// lines when they add up. On layouts it has not seen, the model often writes a garbled number ("60,9.55"), the
// net amount for the total, or the tax rate for the tax; a printed subtotal S, a tax line T and an amount S + T
// printed below them are a reading that checks itself.
#pragma once

#include <optional>
#include <string>

namespace receipt::extract {

// A receipt's printed subtotal, total tax and total, which add up (net + tax = total within half a cent).
struct PrintedTotals {
    double net = 0;    // the amount with cents after the first subtotal keyword (SUBTOTAL, SUB TOTAL, SUB-TOTAL,
                       // TOTAL SALES (EXCLUDING ...)), on its line or alone on the next
    double tax = 0;    // the amount with cents after the first tax line (TAX, VAT, SST, GST or TX with a rate in %,
                       // or TOTAL GST / TAX / SST / VAT) below the subtotal, not its rate
    double total = 0;  // net + tax, printed as an amount with cents on a later line
};

// The printed totals of `text` when it prints a subtotal, a tax line below it and their sum below that (one
// reading each: the first subtotal and the first tax line; a sum printed with a comma for the decimal point
// counts); nullopt otherwise, and for texts in CJK script. Keywords as OCR damages them count too ("5UB TOTAL",
// "TA @6.25%"), and so do two keyword lines followed by their two amounts ("SUB TOTAL" / "SST 6%" / "RM38.95" /
// "RM2.34").
std::optional<PrintedTotals> printed_totals_that_add_up(const std::string& text);

// The amount with cents after the receipt's first subtotal keyword (SUBTOTAL, SUB TOTAL, SUB-TOTAL, "5UB TOTAL"),
// on its line or alone on the next; nullopt when there is none or no such amount is read there, and for texts in
// CJK script.
std::optional<double> printed_subtotal(const std::string& text);

// The amount with cents of the receipt's tax lines (a tax word first and a rate in %, or TOTAL GST / TAX / SST /
// VAT; on the line after the keyword or alone on the next line) when every such line prints the same positive
// amount ("VAT 20%" / "£5.44"); nullopt when there is none, when one has no amount read, or when they differ. A
// line's amount counts only when it is its rate of an amount with cents the receipt prints (a net it is added
// to, or a total that includes it; within 1.5 cents): a tax summary's "GST 6%" / "15.00" is the amount taxed.
std::optional<double> printed_tax_line_amount(const std::string& text);

// The total of a receipt with cents whose printed total lost one digit to OCR ("RM0.85" for 30.85, "£0.16" for
// 70.16): `total` and `tax` are printed amounts, and `total` with one digit put back is net + tax (with `net`,
// printed too), or, without a net, the one amount whose printed tax rate gives `tax` (tax = total x r / (100 + r)
// within 1.5 cents; "VAT 20%" / "£11.69" makes "016" 70.16). nullopt when none or more than one fits, and for texts
// in CJK script.
std::optional<double> latin_total_digit_back(const std::string& text, double total, const std::optional<double>& net,
                                             double tax);

// The net amount of a receipt with cents whose printed subtotal lost one digit to OCR ("RM9.50" for 99.50, "$17.31"
// for 175.31): `net`, `total` and `tax` are printed amounts, and `net` with one digit put back is the total less the
// tax (tax added) or the total (tax included; "Total (Inclusive GST)"), or, with a rounding line printed, one of
// those within 2 cents (the total is the rounded one). nullopt when none or more than one fits, and for texts in CJK
// script.
std::optional<double> latin_net_digit_back(const std::string& text, double net, double total, double tax);

// The tax of a receipt with cents that adds its tax to the net amount: total - net, when `net` and `total` are
// printed amounts, the difference is more than a rounding adjustment (2 cents) and at most 30% of the net, and it is
// printed within two lines of a tax word (TAX, VAT, GST, SST; not "TAX INVOICE", "GST ID") or is a printed tax rate
// of the net (within 1.5 cents; "TAX 7%" / "$18.97" for 17.73 + 1.24). nullopt otherwise, and for texts in CJK
// script.
std::optional<double> latin_tax_from_totals(const std::string& text, double net, double total);

// Whether a Latin-script receipt states a tax anywhere: a line with a rate in % followed by at most two amounts
// ("VAT 20%", "TA @6.25%", "ST 6% RM0.59", "SR @ 6%"; not "MILK 2% GAL"), or a tax word (TAX, VAT, GST, SST, TX)
// that is not an identifier's or the invoice's ("VAT No. GB ...", "GST ID NO :", "GST" / "ID NO :" over two lines,
// "TAX INVOICE") nor a note without a rate that prices include or exclude it ("Total (Inclusive GST)", "(EXCLUDING"
// / "GST)"; "TOTAL INCLUDES 6% GST" states it).
// A receipt that states none has no total_tax_amount: a VAT-inclusive UK receipt without a VAT line may sell
// zero-rated goods, so no share of its total is a tax it states.
bool states_tax(const std::string& text);

}  // namespace receipt::extract
