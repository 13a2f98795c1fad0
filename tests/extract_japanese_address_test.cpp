// A Japanese address copied as printed (extract/japanese_address.h).
#include <gtest/gtest.h>

#include <string>

#include "extract/japanese_address.h"

namespace ex = receipt::extract;

TEST(JapaneseAddress, SpacedAsPrinted) {
    // One space per printed break; none where the receipt prints none.
    EXPECT_EQ(ex::address_as_printed("店\n〒060-9333 北海道札幌市中央区\n南2条西1-11-14\nTEL", "北海道札幌市中央区南2条西1-11-14"),
              "北海道札幌市中央区 南2条西1-11-14");
    EXPECT_EQ(ex::address_as_printed("〒160-5818\n東京都新宿区高田馬場2-5-5\n", "東京都新宿区 高田馬場2-5-5"),
              "東京都新宿区高田馬場2-5-5");
    // Already as printed.
    EXPECT_EQ(ex::address_as_printed("東京都港区\n芝浦6-2-6\n", "東京都港区 芝浦6-2-6"), std::nullopt);
}

TEST(JapaneseAddress, GarbledHouseNumberFromThePrint) {
    EXPECT_EQ(ex::address_as_printed("〒542-1234\n大阪府大阪市中央区心斎橋筋5-25-7\n", "大阪府大阪市中央区心斎橋筋5-27-5"),
              "大阪府大阪市中央区心斎橋筋5-25-7");
    // A digit the model added is dropped: it cannot know one that OCR lost ("3-30-13" for the printed "3-30-1").
    EXPECT_EQ(ex::address_as_printed("東京都港区芝浦6-2-6\n", "東京都港区芝浦6-32-6"), "東京都港区芝浦6-2-6");
    EXPECT_EQ(ex::address_as_printed("心斎橋筋3-30-1\n心斎橋筋駅ビル 3F\n", "心斎橋筋3-30-13 心斎橋筋駅ビル 3F"),
              "心斎橋筋3-30-1 心斎橋筋駅ビル 3F");
    // Not when the print is no house number (a block of 0): OCR lost a digit there, and the model's guess stands.
    EXPECT_EQ(ex::address_as_printed("新潟県新潟市中央区花園1-0-24\n", "新潟県新潟市中央区花園1-30-24"), std::nullopt);
    // Not when the model's other digits differ from the print as well, and other words do not match.
    EXPECT_EQ(ex::address_as_printed("東京都港区芝浦6-2-6\n", "東京都港区芝浦6-33-7"), std::nullopt);
    EXPECT_EQ(ex::address_as_printed("北海道札幌市中央区 南2条西1-11-14\n", "北海道札幌市中央区 北1条西2-11-14"),
              std::nullopt);
    // A digit the model dropped comes back from the print ("6-20-1" for the printed "6-20-10").
    EXPECT_EQ(ex::address_as_printed("東京都港区芝浦6-2-67\n", "東京都港区芝浦6-2-6"), "東京都港区芝浦6-2-67");
    // Not printed to a word end.
    EXPECT_EQ(ex::address_as_printed("東京都港区芝浦6-2-6号室\n", "東京都港区芝浦6-2-6"), std::nullopt);
    EXPECT_EQ(ex::address_as_printed("", ""), std::nullopt);
}

TEST(JapaneseAddress, FloorKeepsTheModelsSpaceWhereOcrJoinedIt) {
    // OCR lost the space between building and floor: the model's spaced floor stays, the rest follows the print.
    EXPECT_EQ(ex::address_as_printed("〒730-9515 広島県広島市中区八丁堀7丁目32番6号\n八丁堀駅ビル2F\nTEL",
                                     "広島県広島市中区八丁堀7丁目32番6号 八丁堀駅ビル 2F"),
              std::nullopt);
    EXPECT_EQ(ex::address_as_printed("東京都八王子市\n横山町8-36-27\n横山町ハイツ5F\n",
                                     "東京都八王子市 横山町8-36-27横山町ハイツ 5F"),
              "東京都八王子市 横山町8-36-27 横山町ハイツ 5F");
    EXPECT_EQ(ex::address_as_printed("大阪府大阪市北区梅田1-2-3 梅田ビル12階\n", "大阪府大阪市北区梅田1-2-3梅田ビル 12階"),
              "大阪府大阪市北区梅田1-2-3 梅田ビル 12階");
    // A model that joins them gets the print's spacing, as before; digits before the floor are not touched.
    EXPECT_EQ(ex::address_as_printed("横山町ハイツ 5F\n", "横山町ハイツ5F"), "横山町ハイツ 5F");
    EXPECT_EQ(ex::address_as_printed("横山町8-36-275F\n", "横山町8-36-27 5F"), "横山町8-36-275F");
}

TEST(JapaneseAddress, HouseNumberOfAnotherShapeAndLinesOutOfOrder) {
    // The model wrote two groups for the printed three: the printed house number, which has more digits.
    EXPECT_EQ(ex::address_as_printed("ナチュラルローソン\n〒273-4773千葉県船橋市\n本町1-14-22\n", "千葉県船橋市 本町11-24"),
              "千葉県船橋市 本町1-14-22");
    // One digit fewer printed, the rest alike: the model added it, and the print stands.
    EXPECT_EQ(ex::address_as_printed("〒460-7752 愛知県名古屋市中区\n錦8-20-2\n", "愛知県名古屋市中区 錦8-20-28"),
              "愛知県名古屋市中区 錦8-20-2");
    // OCR put the street line above the city line: each word with a digit is matched on its own, in the model's order.
    EXPECT_EQ(ex::address_as_printed("業務スーパー\n南2条西3丁目4番18号\n〒060-176 北海道札幌市中央区\n",
                                     "北海道札幌市中央区 南2条西3丁目14番8号"),
              "北海道札幌市中央区 南2条西3丁目4番18号");
    // A printed house number ends its line: the next line's floor ("2F", OCR put it above its building) does not run
    // on into its last digit group.
    EXPECT_EQ(ex::address_as_printed("〒950-6541\n新潟県新潟市中央区\n万代8-21-11\n2F\n万代ハイツ\n",
                                     "新潟県新潟市中央区 万代8-21-12 万代ハイツ 2F"),
              "新潟県新潟市中央区 万代8-21-11 万代ハイツ 2F");
    // A bare floor is not matched on its own (another floor printed elsewhere).
    EXPECT_EQ(ex::address_as_printed("東京都港区\n芝浦1-2-3 5F\nビル 3F\n", "芝浦1-2-3 ビル 1F"), std::nullopt);
}

TEST(JapaneseAddress, HouseNumberLookAlikesReadAsDigits) {
    // "6-b-21": b is 6; the model's swapped digits give way to the print read so.
    EXPECT_EQ(ex::address_as_printed("〒420-6549 静岡県静岡市葵区呉服町6-b-21\n呉服町駅ビル 4F\n",
                                     "静岡県静岡市葵区呉服町6-6-12 呉服町駅ビル 4F"),
              "静岡県静岡市葵区呉服町6-6-21 呉服町駅ビル 4F");
    // "4-15-IS" is 4-15-15, which has more digits than the model's 4-1-5.
    EXPECT_EQ(ex::address_as_printed("沖縄県那覇市\n松山4-15-IS\n松山ステーションビル 1F\n",
                                     "沖縄県那覇市 松山4-1-5 松山ステーションビル 1F"),
              "沖縄県那覇市 松山4-15-15 松山ステーションビル 1F");
    // Between two digits a look-alike may stand for a lost hyphen as well: the model's house number stands.
    EXPECT_EQ(ex::address_as_printed("大阪府堺市堺区\n中瓦町6-7Z9\n", "大阪府堺市堺区 中瓦町6-7-29"), std::nullopt);
}

TEST(JapaneseAddress, AnotherTownOfTheCity) {
    // The model wrote another town (国分町, 北幸) where the print has the same house number: the printed town.
    EXPECT_EQ(ex::address_as_printed("サミット\n宮城県仙台市青葉区\n一番町5丁目37番13号\nTel.022-721-4573\n",
                                     "宮城県仙台市青葉区 国分町5丁目37番13号"),
              "宮城県仙台市青葉区 一番町5丁目37番13号");
    // Lines apart (a title between them): each word, the building too.
    EXPECT_EQ(ex::address_as_printed("神奈川県横浜市西区\n南幸2丁目18番28号\n領収書\n南幸センタービル 7F\n",
                                     "神奈川県横浜市西区 北幸2丁目18番28号 北幸センタービル 7F"),
              "神奈川県横浜市西区 南幸2丁目18番28号 南幸センタービル 7F");
    // A whole town after the ward mark that shares no character with the model's (高島 / みなとみらい, 西新宿 / 六本木).
    EXPECT_EQ(ex::address_as_printed("〒220-3869 神奈川県横浜市西区みなとみらい2-35-21\n", "神奈川県横浜市西区高島2-35-21"),
              "神奈川県横浜市西区みなとみらい2-35-21");
    EXPECT_EQ(ex::address_as_printed("東京都港区\n六本木5-1-2\n", "東京都港区 西新宿5-1-2"), "東京都港区 六本木5-1-2");
    // Not an OCR look-alike (二 for ニ), nor a town that OCR dropped characters of (北幸 / 幸: one shared), nor other
    // digits.
    EXPECT_EQ(ex::address_as_printed("東京都港区\n芝浦ニ丁目\n", "東京都港区 芝浦二丁目"), std::nullopt);
    EXPECT_EQ(ex::address_as_printed("神奈川県横浜市西区幸2-1-3\n", "神奈川県横浜市西区北幸2-1-3"), std::nullopt);
    EXPECT_EQ(ex::address_as_printed("東京都港区\n六本木5-1-3\n", "東京都港区 西新宿5-1-2"), std::nullopt);
    EXPECT_EQ(ex::address_as_printed("宮城県仙台市青葉区\n一番町5丁目7番13号\n", "宮城県仙台市青葉区 国分町5丁目37番13号"),
              std::nullopt);
}

TEST(JapaneseAddress, ChomeMarkThatLostACharacter) {
    // "2目35番12号": 丁 lost; the model's garbled house number gives way to the print read whole.
    EXPECT_EQ(ex::address_as_printed("東京都八王子市\n明神町2目35番12号\n", "東京都八王子市 明神町5丁目32番1号"),
              "東京都八王子市 明神町2丁目35番12号");
    EXPECT_EQ(ex::address_as_printed("東京都豊島区\n東池袋8丁33番3号\n", "東京都豊島区 東池袋8丁目38番3号"),
              "東京都豊島区 東池袋8丁目33番3号");
}

TEST(JapaneseAddress, TownAndHouseNumberWherePlaceBeforeIsDamaged) {
    // OCR dropped 屋 of 名古屋 and the model swapped the house number's digits: the printed town and house number
    // after the same ward mark, the model's spelling before it.
    EXPECT_EQ(ex::address_as_printed("サミット\n〒460-9290 愛知県名古市中区大須4-17-6\n大須駅ビル 2F\n",
                                     "愛知県名古屋市中区大須4-7-16 大須駅ビル 2F"),
              "愛知県名古屋市中区大須4-17-6 大須駅ビル 2F");
    // Not after another ward, nor with fewer digits printed.
    EXPECT_EQ(ex::address_as_printed("愛知県名古市東区大須4-17-6\n", "愛知県名古屋市中区大須4-7-16"), std::nullopt);
    EXPECT_EQ(ex::address_as_printed("愛知県名古市中区大須4-7-6\n", "愛知県名古屋市中区大須4-7-16"), std::nullopt);
    // A look-alike that starts a house number after a kanji, before '-' and a digit ("名駅I-33-8"): spaced as printed.
    EXPECT_EQ(ex::address_as_printed("〒450-3134\n愛知県名古屋市中村区名駅I-33-8\n電話\n",
                                     "愛知県名古屋市中村区 名駅1-33-8"),
              "愛知県名古屋市中村区名駅1-33-8");
}
