// The house number of an address printed in Latin script (US, UK and Malaysian receipts) as printed. A model
// trained from scratch copies the street and town of an address it has not seen, but garbles the digits of its house
// number: it swaps two ("NO.138" -> "NO.183", "529 Station Road" -> "259 Station Road") or drops one.
#pragma once

#include <optional>
#include <string>

namespace receipt::extract {

// `address` with its leading house number ("529", "NO.138", "LOT 12A") as the receipt prints it before the same
// street words, when the model's number is not printed there: the header lines (digit look-alikes next to digits
// read as digits: "8B86 Station Road") hold exactly one number followed (on its line or the next) by the first
// six letters and digits of what follows the model's number ("STATIO", "JALANS"), and it differs from the model's.
// nullopt otherwise (no house number, the model's number printed, no such number or more than one).
std::optional<std::string> house_number_as_printed(const std::string& text, const std::string& address);

}  // namespace receipt::extract
