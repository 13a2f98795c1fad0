// A Japanese address copied as the receipt prints it. The schema's supplier_address joins the printed address lines
// with one space ("北海道札幌市中央区" / "南2条西1-11-14" -> "北海道札幌市中央区 南2条西1-11-14") and keeps a line's own
// spaces; the model adds or drops spaces at will, and now and then swaps the digits of a house number
// ("心斎橋筋5-27-5" for the printed "心斎橋筋5-25-7").
#pragma once

#include <optional>
#include <string>

namespace receipt::extract {

// The printed spelling of `address` when it differs from it: the printed text that matches the address (spaces aside)
// from a printed word start to a word end, with one space wherever the receipt puts a space or a line break. When no
// such text is printed, a printed text that differs from it only inside its digit runs, with at least as many digits in
// all (the model garbled a house number or dropped one of its digits), and the first such; else one whose house numbers
// (digits joined by '-') differ from the model's, digit count as above ("本町11-24" for the printed "本町1-14-22");
// else one with the same digits where one or two kanji or kana in a row differ, none an OCR look-alike of the other
// (the model wrote another town of the city: "国分町5丁目37番13号" for the printed "一番町5丁目37番13号"); else one
// with the same digits whose town after the ward or city mark is another town of two characters or more that shares no
// character with the model's ("高島2-35-21" for the printed "みなとみらい2-35-21"; OCR drops a character or two of a
// town, it does not replace all); else one whose digits are the model's with one left out ("心斎橋筋3-30-1" for the
// model's "心斎橋筋3-30-13": the model added a digit, which it cannot know for an address it never saw; a digit OCR
// lost is lost), unless a printed run of digits is 0 or starts with 0 ("1-0-24": OCR lost a digit of it, and the
// model's guess is kept). When the address is not printed as one span (OCR put its lines out of order), each of its
// words with a digit and a kanji or kana, or of four characters or more with a kanji or kana (a building), is matched
// so on its own; else each such word's town and house number after its last ward or city mark, where the print of the
// place before it differs ("愛知県名古屋市中区大須4-7-16" for the printed "愛知県名古市中区大須4-17-6" ->
// "...名古屋市中区大須4-17-6"). A space the model wrote before a floor token ("駅ビル 2F", "ビル 3階") stays where the
// OCR text joins it to the building (OCR drops spaces). nullopt when nothing matches or the address is printed so.
std::optional<std::string> address_as_printed(const std::string& text, const std::string& address);

}  // namespace receipt::extract
