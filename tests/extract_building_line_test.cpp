// The building of a Japanese address as printed (extract/building_line.h).
#include <gtest/gtest.h>

#include <string>

#include "extract/building_line.h"

namespace ex = receipt::extract;

TEST(BuildingLine, DamagedBuildingWordReadWhole) {
    // A character lost ("プザ"): the model's own building gives way to the printed one.
    EXPECT_EQ(ex::address_with_printed_building("〒980-1015 宮城県仙台市青葉区一番町5-24-14\n一番町プザ 2F\n",
                                                "宮城県仙台市青葉区一番町5-24-14 一番町ステーションビル 2F"),
              "宮城県仙台市青葉区一番町5-24-14 一番町プラザ 2F");
    // A look-alike (夕 for タ, '-' for ー).
    EXPECT_EQ(ex::address_with_printed_building("新潟県新潟市中央区\n万代8-12-24\n万代夕ワ- 1F\n",
                                                "新潟県新潟市中央区 万代8-12-24 万代ステーションビル 1F"),
              "新潟県新潟市中央区 万代8-12-24 万代タワー 1F");
    // The printed floor over the model's.
    EXPECT_EQ(ex::address_with_printed_building("東京都新宿区西新宿4-26-24\n西新宿ター 3F\n",
                                                "東京都新宿区西新宿4-26-24 西新宿タワー 4F"),
              "東京都新宿区西新宿4-26-24 西新宿タワー 3F");
    // "駅ル" is 駅ビル, not ビル after a place 巣鴨駅.
    EXPECT_EQ(ex::address_with_printed_building("東京都豊島区\n巣鴨5-10-6\n巣鴨駅ル 2F\n",
                                                "東京都豊島区 巣鴨5-10-6 巣鴨タワー 2F"),
              "東京都豊島区 巣鴨5-10-6 巣鴨駅ビル 2F");
    // A look-alike before 条 in the place reads as its digit ("南Z条西" for 南2条西).
    EXPECT_EQ(ex::address_with_printed_building("北海道札幌市中央区\n南2条西2丁目5番16号\n南Z条西駅ル 8F\n",
                                                "北海道札幌市中央区 南2条西2丁目5番16号 南2条西スクエア 8F"),
              "北海道札幌市中央区 南2条西2丁目5番16号 南2条西駅ビル 8F");
}

TEST(BuildingLine, BuildingOfAnotherPlaceOrAFloorRunIn) {
    // 第一ビル with its 一 read as the long-vowel mark: the model's building of that place gives way.
    EXPECT_EQ(ex::address_with_printed_building("〒16O-4014 東京都新宿区高田馬場1-1-20\n高田馬場第ービル 3F\n",
                                                "東京都新宿区高田馬場1-1-20 高田馬場ハイツ 3F"),
              "東京都新宿区高田馬場1-1-20 高田馬場第一ビル 3F");
    // The floor glued to a building word that lost a character ("錦ハイ7F").
    EXPECT_EQ(ex::address_with_printed_building("愛知県名古屋市中区\n錦1-19-8\n錦ハイ7F\n",
                                                "愛知県名古屋市中区 錦1-19-8 錦ハ 7F"),
              "愛知県名古屋市中区 錦1-19-8 錦ハイツ 7F");
    // The model put the printed building word after another place; the address prints the line's place as its town.
    EXPECT_EQ(ex::address_with_printed_building("福岡県北九州市小倉北区浅野5-15-2\n浅野ハイツ 3F\n",
                                                "福岡県北九州市小倉北区浅野5-15-2 富士見ハイツ 3F"),
              "福岡県北九州市小倉北区浅野5-15-2 浅野ハイツ 3F");
    // ... not when the printed place is only a piece of the town (OCR dropped 浅 of 浅野ハイツ).
    EXPECT_EQ(ex::address_with_printed_building("福岡県北九州市小倉北区浅野5-15-2\n野ハイツ 3F\n",
                                                "福岡県北九州市小倉北区浅野5-15-2 浅野ハイツ 3F"),
              std::nullopt);
}

TEST(BuildingLine, NothingToChange) {
    // Already the printed building.
    EXPECT_EQ(ex::address_with_printed_building("東京都港区\n六本木4丁目15番4号\n六本木スクエア 1F\n",
                                                "東京都港区 六本木4丁目15番4号 六本木スクエア 1F"),
              std::nullopt);
    // The house number word of the same place is no building.
    EXPECT_EQ(ex::address_with_printed_building("宮城県仙台市青葉区\n一番町2丁目8番7号\n一番町ハイツ 4F\n",
                                                "宮城県仙台市青葉区 一番町2丁目8番7号 一番町ハイツ 4F"),
              std::nullopt);
    // No building printed, or none written by the model: unchanged.
    EXPECT_EQ(ex::address_with_printed_building("東京都港区\n芝浦6-2-6\n", "東京都港区 芝浦6-2-6 芝浦タワー 2F"),
              std::nullopt);
    EXPECT_EQ(ex::address_with_printed_building("東京都港区\n芝浦6-2-6\n芝浦タワー 2F\n", "東京都港区 芝浦6-2-6"),
              std::nullopt);
    // The building line lost the last character of its place, which the address prints before its house number:
    // the model's building stands.
    EXPECT_EQ(ex::address_with_printed_building("北海道札幌市中央区大通西6-23-29\n大通第一ビル 1F\n",
                                                "北海道札幌市中央区大通西6-23-29 大通西第一ビル 1F"),
              std::nullopt);
    // A store line ending in 店 is no building line.
    EXPECT_EQ(ex::address_with_printed_building("ローソン 芝浦タワー店\n東京都港区 芝浦6-2-6\n",
                                                "東京都港区 芝浦6-2-6 芝浦プラザ"),
              std::nullopt);
}
