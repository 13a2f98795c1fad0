// Printed phone numbers -> the number as printed, without labels. Pure function; thread-safe; never throws.
#pragma once

#include <string>
#include <string_view>

namespace receipt::extract {

// Drops labels and anything before the number ("TEL", "Tel.", "電話", "☎", "℡", "Phone:"), folds full-width
// digits and dash look-alikes (－ ‐ – — ー) to ASCII, and keeps the first number as printed: digits, '+', '-', '.',
// '/', spaces and balanced parentheses ("(03) 1234-5678", "+60 3-1234 5678"). Stops at the first other character,
// so "03-1234-5678 FAX 03-1234-5679" gives "03-1234-5678". Returns "" when fewer than 4 digits are found.
std::string normalize_phone(std::string_view text);

// `s` with the dash look-alikes that OCR and fonts put into phone numbers (‐ ‑ ‒ – — ― − ー ｰ) replaced by '-':
// everywhere, or with `between_digits` only where an ASCII digit stands on both sides ("075ー301-9524"; the ー of a
// katakana word stays).
std::string fold_dashes(const std::string& s, bool between_digits = false);

}  // namespace receipt::extract
