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

// True when `name` holds a company suffix: SDN BHD (SDN. BHD., SDN.BHD), S/B or BERHAD, in any case.
bool has_company_suffix(const std::string& name);

// The first of the first kCompanyLines lines of `text` that holds a company suffix, cut after the suffix (the
// registration number after it goes) and without a leading "... BY:" label ("OWN BY:", "OPERATED BY:"); nullopt
// when none does.
std::optional<std::string> company_line(const std::string& text);

}  // namespace receipt::extract
