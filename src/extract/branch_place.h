// The place of a store's branch spelled as its address prints it, where OCR damaged the printed branch line, and
// the marks that end a place name in a Japanese address. Pure functions; thread-safe; never throw.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace receipt::extract {

// True for an address unit that ends a place name in a Japanese address: 都 道 府 県 市 区 郡 村.
bool japanese_address_unit(uint32_t c);

// The name with its branch's place spelled as the address prints it, when OCR dropped one character of the place
// in the printed branch line ("すき家 仙市青葉本店" with the address "宮城県仙台市青葉区..." -> "すき家 仙台市青葉本店"): a
// branch is named after its place, and the address prints the place too. The branch is the name after its last
// space; its longest leading part B (at least 2 characters) that the address (spaces aside) prints with exactly
// one more character inside it, and no shorter or longer leading part of which the address prints as it is, is
// replaced by the address's spelling; the added character must be a kanji or kana. A first character dropped is
// put back too ("田町二丁目店" with "大阪府大阪市北区角田町3-5-10" -> "角田町二丁目店"), where the address prints the
// longest leading part that it prints at all as the end of a place: one kanji or kana before it (no 都 道 府 県 市
// 区 郡 村 itself) right after one of those marks, and a house number digit right after it (or, for a part of two
// characters or more, a ward or city mark: "台市青葉駅東口店" with "宮城県仙台市青葉区..." -> "仙台市青葉駅東口店");
// elsewhere only after that same character (a building named after the place: "一番町駅ビル"); not where it also
// prints it otherwise ("新宿" in "東京都新宿区西新宿"). A last character dropped is put back too ("日本駅東口店" with
// "大阪府大阪市中央区日本橋3-27-29" -> "日本橋駅東口店"): the address prints the leading part only as the start of a
// place (after a ward mark), followed by one kanji or kana and its house number (or, two characters or more, a
// ward or city mark: "川崎市中本店" with "...川崎市中原区..." -> "川崎市中原本店"). A leading part printed as it is
// before a house number, a ward or city mark or the address's end names the place as written; one printed only
// inside a longer word ("みな" of みなとみらい) does not. Checked before all of these: a katakana look-alike of a kanji
// next to a kanji (ロ カ エ ニ ハ タ ト) read as that kanji where the address prints the place so and not as written
// ("ハ丁堀駅前店" with "...中区八丁堀7-31-6" -> "八丁堀駅前店"), and a city-and-ward place that lost a character
// inside it, the address's span after its prefecture holding 市 and ending before 区 ("大阪北本店" with
// "大阪府大阪市北区..." -> "大阪市北本店"). A first character dropped from a place of two characters is put back
// before a ward or city mark too ("島中央店" with "東京都豊島区..." -> "豊島中央店"); and a leading part of four
// characters or more that lost a character inside a whole town of the address (after a ward mark, before its house
// number: "博多中央街南店" with "...博多区博多駅中央街2-32-16" -> "博多駅中央街南店"), before a shorter part printed
// as it is ("博多") stops the search. nullopt otherwise (keep the name).
std::optional<std::string> branch_place_from_address(const std::string& name, const std::string& address);

}  // namespace receipt::extract
