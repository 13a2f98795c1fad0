// A Japanese per-rate tax table whose boxes OCR put out of order, read by its arithmetic. The table under a
// "税率 対象額 税額" header prints, for each rate, a base and the tax in it; OCR emits each box on a line of its own
// and now and then moves one past its neighbours: a rate's tax above the rate ("8円 / 8% / 120円 / 10% / 85円 /
// 7円"), a rate after its own base and tax ("8% / ¥778 / ¥57 / ¥23 / ¥258 / 10%"), or a rate without its '%'
// ("8 ¥2,045 ¥151 / 10% / ¥8 / ¥0"). printed_tax_lines() reads a table in the printed order and gives up on these.
// Here the boxes are read as a set: every rate printed gets a base and a tax (the tax of the base at that rate),
// no box serves twice, and the bases add up to the receipt's total (tax included) or net amount (外税 added).
#pragma once

#include <optional>
#include <string>

namespace receipt::extract {

// Lines after the table's header line that may hold its boxes.
inline constexpr int kTaxTableLines = 10;

// The total tax of the per-rate table of `text` (Japanese receipts), from the first line that holds 税率, 対象額 or
// 税額 (悦率, 悦額 as OCR reads them too; with no amount of its own) through the lines that hold amounts, rates or the header's words, at most
// kTaxTableLines. The rates are the table's 8 % and 10 % (also "8" or "10" alone at a line's start, OCR having dropped
// the '%'); the amounts, every other usable number of those lines, and a box whose thousands group lost a digit
// ("\1,77"), which serves only as a tax, the tax of its base with the lost digit put back. Every assignment of a (base,
// tax) pair of distinct amounts to each rate with is_tax_of(base, tax, rate) and the bases adding up to `base_total`
// (within one yen) is tried; the sum of its taxes when every such assignment gives the same one, else nullopt.
std::optional<double> tax_table_total(const std::string& text, double base_total);

}  // namespace receipt::extract
