// The currency of a receipt that prints no currency sign, read from the country its address is in, and the
// currency of the one kind of sign a receipt prints. A photo cut off
// above the totals, or a receipt that prints its amounts bare ("TOTAL 12.50"), leaves the model to guess the
// currency, and it guesses from its training mix (MYR, GBP, JPY for a Texas receipt); the address tells.
#pragma once

#include <optional>
#include <string>

namespace receipt::extract {

// Whether the text prints a currency sign or code: $ £ € ¥ ￥ ₩ ₫ 円, RM or Rp (alone or before a digit), or an ISO
// 4217 code of the receipts this product reads (USD, GBP, EUR, MYR, SGD, JPY, IDR, ...). Never throws.
bool prints_currency_sign(const std::string& text);

// The currency of the one country whose address form a Latin-script text prints, when it prints no currency sign
// (prints_currency_sign): a US state code before a ZIP code ("Austin, TX 78701") -> USD; a UK postcode ("LS1 4DY",
// "SW1A 1AA") -> GBP; a Malaysian postcode before a state or city ("47400 PETALING JAYA", "81100 JOHOR BAHRU") or a
// "SDN BHD" company -> MYR; "SINGAPORE 123456" -> SGD. nullopt when it prints a sign, CJK, none or more than one of
// these. Never throws.
std::optional<std::string> currency_of_printed_country(const std::string& text);

// The currency of the one kind of currency sign a Latin-script text prints before (or, for €, after) an amount:
// "$12.50" -> USD where the address is in the US (SGD in Singapore; elsewhere, or with no address read, "$" names
// no currency: Malaysian receipts print it for ringgit), "£3.04" -> GBP, "€5" / "5 €" -> EUR, "RM9.00" -> MYR.
// nullopt for CJK text, no such sign, or signs of two currencies. Never throws.
std::optional<std::string> currency_of_printed_sign(const std::string& text);

// Whether `currency` (ISO 4217, "" for none) stands beside the one kind of sign whose currency is `sign_currency`
// (currency_of_printed_sign): the same currency, two dollars (USD, SGD, AUD, CAD, NZD, HKD, TWD), or a code the
// text prints as a word ("GBP 3.04"). Never throws.
bool currency_fits_sign(const std::string& text, const std::string& currency, const std::string& sign_currency);

}  // namespace receipt::extract
