// The text of a yen receipt's item rows: where a row's description ends and its amount part begins, which boxes
// belong to the description (a size, a model number, a stamp's face value) and the marks around it. Used by the
// row reading of extract/item_rows.h.
#pragma once

#include <string>

namespace receipt::extract {

// The tax and sale marks printed before or after a description, or in a box of their own.
inline constexpr const char* kMarks[] = {"※", "*", "＊", "☆", "★", "◎", "軽"};

// True when `s` starts with a product size ("450g", "525ml", "2L", "12R", "3個入"), a part of the description.
bool starts_with_size(const std::string& s);

// True when `box` (a line as printed) is a product size alone: a number and a unit of weight, volume, length or
// capacity ("450g", "500ml", "1m", "128GB", "128B" with the G lost).
bool size_box(const std::string& box);

// True when `s` is an amount written with 円 and nothing after it but a tax mark ("218円", "5,980円軽").
bool glued_yen_amount(const std::string& s);

// True when `rest` is a model number, 4 or more digits without a thousands comma, then a space and an amount written
// with a yen sign or 円 ("10000 3,990円" of "Anker PowerCore 10000 3,990円"): the number is part of the description.
bool model_number_before_amount(const std::string& rest);

// `line` without a trailing amount part that starts after a space or at a yen sign ("冷凍うどん 5食 514軽" ->
// "冷凍うどん 5食", "ボールペン 黒¥170" -> "ボールペン 黒", "料理酒218円" -> "料理酒"): the longest such suffix that
// holds only row characters and a digit, never starting at a stamp's face value ("切手 84円 168円" -> "切手 84円") or
// a model number ("Anker PowerCore 10000 3,990円" -> "Anker PowerCore 10000"); the line itself (trimmed) when there
// is none.
// `as_is`: the line as printed (printed_lines_as_is, same length), where a size that the look-alike reading of
// `line` turned into a number ("ﾏﾖﾈｰｽﾞ 450g ¥740軽" read as "ﾏﾖﾈｰｽﾞ 4509 ¥740軽") still shows its unit: the
// amount part never starts at a size.
std::string description_of(const std::string& line, const std::string& as_is);

// A description as the item is named: without a leading product code ("8680 米 コシヒカリ 5kg"; also with a digit
// or the space lost to OCR: "822 食器用洗剤", "0189牛乳 1000ml") and without the tax and sale marks printed before
// or after it ("※しょうゆ", "生卵 *", and "Xバナナ": ※ as OCR read it).
std::string clean_description(std::string d);

}  // namespace receipt::extract
