// OCR look-alikes between katakana and kanji in Japanese text. OCR of a thermal receipt reads the katakana ト as
// the kanji 卜, ー as 一 or '-', ロ as 口 (and back), so a name copied from the printed text reads "東急ス卜ア" or
// "センタ-店". The context decides: katakana surround a katakana word, kanji a kanji word.
#pragma once

#include <string>

namespace receipt::extract {

// `s` (UTF-8) with look-alikes replaced by what their neighbours say they are:
//   * a kanji look-alike of a katakana (卜 口 力 工 二 八 夕) with a full-width katakana just before it, or with no
//     kanji before it and a katakana just after it, becomes that katakana; 一 becomes ー (the long-vowel mark)
//     after a katakana and not before a kanji (the 一 of "キリン一番搾り" stays);
//   * '-' (ASCII hyphen) or '－' right after a full-width katakana becomes ー ("センタ-店", "ジョ-シン"), except
//     between ン and a katakana (the hyphen of "セブン-イレブン" stays);
//   * a katakana look-alike of a kanji (ロ カ エ ニ ハ タ ト) between two kanji becomes that kanji ("東ロ店");
//   * ー with no kana before it and a kanji after it becomes the numeral 一 ("ー番町中央店").
// Other text is left as it is; invalid UTF-8 is returned unchanged.
std::string fix_kana_lookalikes(const std::string& s);

// The kanji that the katakana `kana` looks like (口 for ロ, 八 for ハ; ロ カ エ ニ ハ タ ト, the pairs above), or 0 for
// any other character (ー too: its 一 is a numeral).
char32_t kanji_of_lookalike(char32_t kana);

// Whether the printed character `printed` may be OCR's reading of the katakana (or long-vowel mark) `kana`: itself,
// one of the kanji look-alikes above (卜 for ト, 一 for ー, ...), or a hyphen ('-', '－') for ー.
bool reads_as_katakana(char32_t printed, char32_t kana);

}  // namespace receipt::extract
