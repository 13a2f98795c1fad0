// Free-text receipt fields (supplier name, address, item description) -> clean one-line strings.
// Pure functions; thread-safe; never throw.
#pragma once

#include <string>
#include <string_view>

namespace receipt::extract {

// Repairs invalid UTF-8 (U+FFFD), joins lines and collapses whitespace runs to one space, trims.
std::string normalize_text(std::string_view text);

// normalize_text plus removal of Japanese postal codes: "〒160-0023 東京都新宿区西新宿1-1-1" ->
// "東京都新宿区西新宿1-1-1". A "〒" mark is dropped together with the "NNN-NNNN" / "NNNNNNN" code that follows it.
std::string normalize_address(std::string_view text);

}  // namespace receipt::extract
