// The address a Japanese receipt prints in its header, read without the model. Now and then the model writes no
// address at all (its output broke down after the name: "name: ナチーラルソロン ¥049-..."), while the receipt prints
// it plainly:
//   〒260-0677
//   千葉県千葉市中央区新町5丁目32番10号      <- prefecture, city, town and house number
//   新町第一ビル 8F                          <- building and floor
// The schema's supplier_address joins these lines with one space and leaves out the postcode.
#pragma once

#include <optional>
#include <string>

namespace receipt::extract {

// Lines from the top in which the address is looked for.
inline constexpr int kJapaneseAddressLines = 12;

// The printed address: the first line among the first kJapaneseAddressLines that starts, after a postcode ("〒"
// and/or "NNN-NNNN") if one is printed, with a prefecture (two or three kanji and 都, 道, 府 or 県: 東京都, 北海道,
// 京都府, 神奈川県); then, when that line holds no digit, the next line if it holds the house number (a digit and a
// kanji or kana, no phone or registration label); then a building line printed whole (extract/building_line.h) and
// its floor on the line after it. Lines joined with one space. nullopt when no such line is printed or the house
// number is not found.
std::optional<std::string> japanese_address_block(const std::string& text);

}  // namespace receipt::extract
