// The building of a Japanese address as the receipt prints it. An address ends with a building and its floor on a
// line of their own ("一番町プラザ 2F"); OCR drops a character of the building word ("一番町プザ", "巣鴨駅ル",
// "西新宿ター 3F") or reads a katakana as its kanji look-alike ("万代夕ワ-"), and the model, reading the damaged
// line, writes a building of its own ("一番町ステーションビル") or another floor.
#pragma once

#include <optional>
#include <string>

namespace receipt::extract {

// The receipt's building line, read whole: a line (of the first 16) that ends with a building word ("ビル", "駅ビル",
// "センタービル", "ステーションビル", "第一ビル", "タワー", "プラザ", "スクエア", "ハイツ", "ヒルズ", "会館", ...)
// after a place, then its floor if printed ("2F", "3階"); a word of three characters or more may have lost one
// character or be read with look-alikes (夕 for タ, '-' or 一 for ー, ー for 一). Returns `address` with its building
// word (a word that starts with that place; with the floor token after it) replaced by that line, when they differ;
// also the model's building of another place with the printed building word whole ("富士見ハイツ 3F" for the printed
// "浅野ハイツ 3F"), when the address prints the line's place as its town before the house number ("...区浅野5-15-2").
// The floor may be printed glued to the building ("錦ハイ7F"). nullopt otherwise (no building line printed, or the
// model wrote no building of that place).
std::optional<std::string> address_with_printed_building(const std::string& text, const std::string& address);

// True when `line` is a building line printed whole: its last word, after a floor ("2F", "3階") if one is printed,
// is a place of kanji or kana and one of the building words above. `with_floor` (when given) tells whether a floor
// is printed on the line.
bool printed_building_line(const std::string& line, bool* with_floor = nullptr);

// True when `line` is a floor alone ("5F", "3階"), as OCR prints the floor box of a building line.
bool floor_line(const std::string& line);

}  // namespace receipt::extract
