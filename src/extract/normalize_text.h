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

// A Japanese item description with a space put back before a quantity with its unit that OCR joined to the word
// before it: "明治おいしい牛乳200ml" -> "明治おいしい牛乳 200ml", "冷凍うどん5食" -> "冷凍うどん 5食". The quantity is
// 1-4 digits and one of the units ml, L, g, kg, 枚, 個入, 個, 本, 食, 缶, 箱, 錠, R, GB, 袋, ending the text or
// followed by a space; the character before it is neither ASCII nor a space (so "SPF50", "5-2" and "1000ml" stay).
std::string space_before_quantity(const std::string& description);

// A Japanese item description without the header line that OCR merged into its row: the date and time ("20/01/04
// 6時49分 日焼け止め SPF50" -> "日焼け止め SPF50", "月27日 水曜日 12時14分 絆創膏 30枚" -> "絆創膏 30枚": a time (H:MM,
// H:MM:SS, H時M分) followed by a space and more text, with only date-like text before it: digits, OCR digit
// look-alikes, / - . ( ), 年 月 日 曜, weekday names, the long-vowel mark OCR reads for a hyphen; or a H時M分 time alone,
// its hour possibly a look-alike and its 分 possibly lost, "g時24分 絆創膏 30枚", "18時45 じゃがりこ サラダ"), or the clerk
// line ("当者 高橋 ティッシュ 5箱": 担当者, 当者 or 担当, a name, a space), or the receipt's bracketed title ("【領収証】
// お惣菜 コロッケ": 【...】 holding 領収 or レシート, a space), or the item table's header ("商品名 数量 金 じゃがりこ
// サラダ": 商品名 and the column words 数量 単価 金額 after it). The description as it is otherwise.
std::string without_merged_header_line(const std::string& description);

}  // namespace receipt::extract
