// The registered company a Malaysian receipt prints near its top ("VIVOPAC MARKETING SDN BHD (1070687-M)",
// "OWN BY: CHEF LEE SDN BHD"). Receipts there name the legal entity, often below a brand or mall line
// ("HARVEY NORMAN" / "ELITETRAX MARKETING SDN BHD"), and the supplier is that entity; a model trained from scratch
// picks the brand, the mall or a piece of the address instead.
#pragma once

#include <optional>
#include <string>

namespace receipt::extract {

// Lines from the top of a receipt in which the company line is looked for.
inline constexpr int kCompanyLines = 6;

// True when the upper-cased header line `upper` is a document title, phone, tax or registration line ("TAX
// INVOICE", "TEL: 03-1234", "(65351-M)"): no store name.
bool title_or_id_line(const std::string& upper);

// True when `name` holds a company suffix: SDN BHD (SDN. BHD., SDN.BHD), S/B or BERHAD, in any case.
bool has_company_suffix(const std::string& name);

// The first of the first kCompanyLines lines of `text` that holds a company suffix (or ends in SDN with BHD
// starting the next line), cut after the suffix (the registration number after it goes) and without a leading
// "... BY:" label ("OWN BY:", "OPERATED BY:"); nullopt when none does. A line whose name closes a parenthesis
// opened on a line above ("ENTERPRISE (SETIA" / "ALAM) SDN BHD") starts on that line.
std::optional<std::string> company_line(const std::string& text);

// The first of the first kCompanyLines lines of `text` that can name a shop: not empty, not a document title
// (TAX INVOICE, RECEIPT, CASH BILL, ...), not a registration, phone or tax line, and holding a letter; nullopt
// when none does. For a name the model took from inside the address ("RIMBUNAN" of "JALAN RIMBUNAN RAYA").
std::optional<std::string> header_name_line(const std::string& text);

// `name` without a trailing company registration number ("YONG SOON FATT S/B (81497-P)" -> "YONG SOON FATT S/B"),
// and without what follows one after a company suffix (the name pass ran on into the address line below:
// "BROADVIEW MARKETING SDN BHD (728384-M) NO. 9-G, JALAN DINAR D U3/D" -> "BROADVIEW MARKETING SDN BHD").
std::string without_registration_number(const std::string& name);

// A company name (one with a company suffix; Latin script) spaced as such names are printed: a space before an
// opening and after a closing bracket that OCR joined to a word ("POPULAR BOOK CO.(M)SDN BHD" -> "POPULAR BOOK CO.
// (M) SDN BHD", "BAKERIES(KL)"), and SDN BHD as two words ("SDNBHD"). `name` unchanged otherwise.
std::string company_name_spaced(const std::string& name);

// The company line of `text` when `name` (spaces aside, any case) is its end: the model copied only the end of the
// line ("TELECOMMUNICATIONS SDN BHD" of "DIGI TELECOMMUNICATIONS SDN BHD") or dropped its spaces ("MR. D.I.Y."
// for "MR. D. I. Y."); nullopt otherwise.
std::optional<std::string> company_line_ending_with(const std::string& text, const std::string& name);

// The company line of a Latin-script `text` when the model's company `name` is not printed (name_is_printed) and more
// than a third of its characters (spaces aside, look-alikes read) differ from the line's: a company the model made
// up or recalled ("BAMINIDA (M) SDN BHD" over the printed "GARDENIA BKERIES (KL) SDN BHD"). nullopt otherwise: a
// name that reads a damaged company line ("GARDENIA BAKERIES" for "GARDENIA BKERIES") stays.
std::optional<std::string> company_line_for_unprinted(const std::string& text, const std::string& name);

}  // namespace receipt::extract
