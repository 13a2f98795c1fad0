// The address block of a receipt that prints a 5-digit postal code near its top (Malaysia, the United States):
// the postcode line and the lines just above it, up to the store name or the company and registration lines
//   VIVOPAC MARKETING SDN BHD (1070687-M)
//   14 JALAN MANIS 4 TAMAN SEGAR 56100 KL         <- address
//   TEL: 03-91334364
// Used when the model wrote an address that is not printed: a small model writes the memorised address of
// another shop of the chain, and the printed block is the shop's own.
#pragma once

#include <optional>
#include <string>

namespace receipt::extract {

// Lines from the top in which the postcode line is looked for; most lines of the block above it.
inline constexpr int kAddressSearchLines = 12;
inline constexpr int kAddressBlockLines = 4;

// The block, its lines joined by one space; nullopt when no line among the first kAddressSearchLines (below the
// first, above the first date or time) holds a standalone 5-digit number outside a phone, tax or registration
// line. The block
// starts below the first line, below a line holding `name` (spaces aside), below a company (SDN BHD) or
// registration / phone / tax / document-title line, ends with the postcode line or the Malaysian state lines
// right below it ("SELANGOR DARUL EHSAN."), and spans at most kAddressBlockLines lines.
std::optional<std::string> address_block(const std::string& text, const std::string& name);

}  // namespace receipt::extract
