// Store name + branch line (extract/store_branch.h).
#include <gtest/gtest.h>

#include <string>

#include "extract/branch_place.h"
#include "extract/store_branch.h"

namespace ex = receipt::extract;

TEST(StoreBranch, AppendsTheBranchLineUnderTheChain) {
    const std::string text = "ナチュラルローソン\n巣鴨ショッピングセンター店\n〒170-3591 東京都豊島区巣鴨7-1-2\n電話";
    EXPECT_EQ(ex::name_with_branch(text, "ナチュラルローソン", 4), "ナチュラルローソン 巣鴨ショッピングセンター店");
    // Spaces in the model's name do not matter; the chain may be under a first line.
    EXPECT_EQ(ex::name_with_branch("〒600-0521\nサミット\n小杉町本店\n", "サ ミット", 4), "サ ミット 小杉町本店");
    // The branch after the chain on the same line.
    EXPECT_EQ(ex::name_with_branch("サミット 芝浦店\n株式会社アオバ商事\n", "サミット", 4), "サミット 芝浦店");
    // The address line between, its postcode read with OCR's look-alikes of digits ("16O-3D07").
    EXPECT_EQ(ex::name_with_branch("吉野家\n〒16O-3D07東京都新宿区新宿6丁目24番18号\n新宿駅西口店\n", "吉野家", 4,
                                   "東京都新宿区新宿6丁目24番18号"),
              "吉野家 新宿駅西口店");
    EXPECT_EQ(ex::name_with_branch("サミット 芝浦 ビル\n", "サミット 芝浦", 4), std::nullopt);  // no 店
    // OCR moved the branch box above the chain line.
    EXPECT_EQ(ex::name_with_branch("川崎市中原中央店\nローソン\n(株)ヒカリ商事\n", "ローソン", 4),
              "ローソン 川崎市中原中央店");
    EXPECT_EQ(ex::name_with_branch("領収書\n川崎市中原中央店\nローソン\n", "ローソン", 4), std::nullopt);  // not the first line
    // An address line with its postcode between the chain and the branch.
    EXPECT_EQ(ex::name_with_branch("日高屋\n〒150-2574 東京都渋谷区恵比寿南1丁目3番4号\n恵比寿南口店\n", "日高屋", 4,
                                   "東京都渋谷区恵比寿南1丁目3番4号"),
              "日高屋 恵比寿南口店");
}

TEST(StoreBranch, BranchLineThatLostItsMark) {
    // OCR dropped the branch's 店: the line under the chain is a place the address prints, with branch words.
    EXPECT_EQ(ex::name_with_branch("丸亀製麺\n西新宿南\n株式会社ミド商事\n〒160-4545 東京都新宿区\n西新宿7-15-18\n", "丸亀製麺",
                                   4, "東京都新宿区 西新宿7-15-18"),
              "丸亀製麺 西新宿南店");
    EXPECT_EQ(ex::name_with_branch("日高屋\n八王子\n〒192-2494\n東京都八王子市\n", "日高屋", 4, "東京都八王子市 旭町4丁目2番23号"),
              "日高屋 八王子店");
    EXPECT_EQ(ex::name_with_branch("サミット\n紺屋町駅西口\n静岡県静岡市葵区\n", "サミット", 4, "静岡県静岡市葵区 紺屋町3-35-26"),
              "サミット 紺屋町駅西口店");
    // Its ショッピングセンター lost a character too (セ); the post-check's branch word pass spells it whole after.
    EXPECT_EQ(ex::name_with_branch("サミット\n新町ショッピングンター\n〒260-9089 千葉県千葉市中央区\n", "サミット", 4,
                                   "千葉県千葉市中央区 新町8-29-9"),
              "サミット 新町ショッピングンター店");
    EXPECT_EQ(ex::name_with_branch("サミット\n新町ションター\n", "サミット", 4, "千葉県千葉市中央区 新町8-29-9"),
              std::nullopt);  // three lost
    // On the chain's line after the chain that lost characters to OCR, which the model wrote whole.
    EXPECT_EQ(ex::name_with_branch("ビックカラ 中央\n〒260-7032\n", "ビックカメラ", 4, "千葉県千葉市中央区中央4-30-1"),
              "ビックカメラ 中央店");
    EXPECT_EQ(ex::name_with_branch("ビックカラ 新宿西口店\n", "ビックカメラ", 4, ""), "ビックカメラ 新宿西口店");
    EXPECT_EQ(ex::name_with_branch("ビカ 中央\n", "ビックカメラ", 4, "千葉県千葉市中央区中央4-30-1"), std::nullopt);  // 4 lost
    // On the chain's line after the chain printed whole.
    EXPECT_EQ(ex::name_with_branch("エディオン 京都市下京中央\n〒600-6230 京都府京都市下京区四条通8-3-19\n", "エディオン", 4,
                                   "京都府京都市下京区四条通8-3-19"),
              "エディオン 京都市下京中央店");
    // A place of one character where the address prints it between a ward mark and a house number.
    EXPECT_EQ(ex::name_with_branch("東急ストア\n栄中央\n〒460-1976\n", "東急ストア", 4, "愛知県名古屋市中区栄3-23-14"),
              "東急ストア 栄中央店");
    EXPECT_EQ(ex::name_with_branch("東急ストア\n栄中央\n", "東急ストア", 4, "愛知県名古屋市中区錦3-23-14"), std::nullopt);
    EXPECT_EQ(ex::name_with_branch("東急ストア\n栄中央\n", "東急ストア", 4, "愛知県名古屋市中区栄町ビル 2F"), std::nullopt);
    // Not an address line (an address unit at its end), not a line the address does not start, not other words.
    EXPECT_EQ(ex::name_with_branch("日高屋\n東京都八王子市\n", "日高屋", 4, "東京都八王子市 旭町4丁目2番23号"), std::nullopt);
    EXPECT_EQ(ex::name_with_branch("日高屋\nいらっしゃいませ\n", "日高屋", 4, "東京都八王子市 旭町4丁目2番23号"), std::nullopt);
    EXPECT_EQ(ex::name_with_branch("日高屋\n八王子ビル\n", "日高屋", 4, "東京都八王子市 旭町4丁目2番23号"), std::nullopt);
}

TEST(StoreBranch, KeepsTheNameOtherwise) {
    const std::string text = "ナチュラルローソン\n巣鴨ショッピングセンター店\n";
    // Already with its branch, not a printed line, or a branch beyond the lines looked at.
    EXPECT_EQ(ex::name_with_branch(text, "ナチュラルローソン 巣鴨ショッピングセンター店", 4), std::nullopt);
    EXPECT_EQ(ex::name_with_branch(text, "ローソン", 4), std::nullopt);
    EXPECT_EQ(ex::name_with_branch("A\nB\nC\nD\nイオン\n本店\n", "イオン", 4), std::nullopt);
    // The next line is an address, a phone line or no branch.
    EXPECT_EQ(ex::name_with_branch("イオン\n〒650-7579 神戸市中央区加納町 本店\n", "イオン", 4), std::nullopt);
    EXPECT_EQ(ex::name_with_branch("イオン\nTEL 078-000-0000\n", "イオン", 4), std::nullopt);
    EXPECT_EQ(ex::name_with_branch("CoCo壱番屋\n南2条西1-11-14\n", "CoCo壱番屋", 4), std::nullopt);
    EXPECT_EQ(ex::name_with_branch("SHOP\n", "SHOP", 4), std::nullopt);
    EXPECT_EQ(ex::name_with_branch("", "", 4), std::nullopt);
}

TEST(StoreBranch, PlaceSpelledAsTheAddressPrintsIt) {
    // OCR dropped one character of the branch's place; the address prints the place whole.
    EXPECT_EQ(ex::branch_place_from_address("すき家 仙市青葉本店", "宮城県仙台市青葉区中央8丁目1番7号"),
              "すき家 仙台市青葉本店");
    EXPECT_EQ(ex::branch_place_from_address("CoCo壱番屋 博駅前中央店", "福岡県福岡市博多区博多駅前3-31-8"),
              "CoCo壱番屋 博多駅前中央店");
    EXPECT_EQ(ex::branch_place_from_address("イオン 加町駅西口店", "兵庫県神戸市中央区 加納町4丁目25番28号"),
              "イオン 加納町駅西口店");
    // The first character dropped: the address prints the place only with one more character before it, right
    // after the ward, and its house number after it.
    EXPECT_EQ(ex::branch_place_from_address("デイリーヤマザキ 田町駅前店", "大阪府大阪市北区角田町6-11-5"),
              "デイリーヤマザキ 角田町駅前店");
    EXPECT_EQ(ex::branch_place_from_address("CoCo壱番屋 町本店", "福岡県北九州市小倉北区魚町6-17-10"), "CoCo壱番屋 魚町本店");
    EXPECT_EQ(ex::branch_place_from_address("デイリーヤマザキ 池袋本店", "東京都豊島区 西池袋6-34-24"),
              "デイリーヤマザキ 西池袋本店");
    // The last character dropped: the address prints the place right after the ward with one more character and
    // its house number; the kanji repeat mark 々 counts as a kanji inside a place.
    EXPECT_EQ(ex::branch_place_from_address("エディオン 日本駅東口店", "大阪府大阪市中央区日本橋3-27-29"),
              "エディオン 日本橋駅東口店");
    EXPECT_EQ(ex::branch_place_from_address("デイリーヤマザキ 呉服北口店", "静岡県静岡市葵区呉服町1-4-24 呉服町センタービル 7F"),
              "デイリーヤマザキ 呉服町北口店");
    EXPECT_EQ(ex::branch_place_from_address("ココカラファイン 代木駅前店", "東京都渋谷区代々木1-34-16"),
              "ココカラファイン 代々木駅前店");
    // A place before the mark of a ward or city (a city and ward named whole, without 区) lost its first or last
    // character; a place that is the first part of a longer word lost one inside it.
    EXPECT_EQ(ex::branch_place_from_address("ナチュラルローソン 台市青葉駅東口店", "宮城県仙台市青葉区中央8-38-16"),
              "ナチュラルローソン 仙台市青葉駅東口店");
    EXPECT_EQ(ex::branch_place_from_address("デイリーヤマザキ 川崎市中本店", "神奈川県川崎市中原区木月2-19-11"),
              "デイリーヤマザキ 川崎市中原本店");
    EXPECT_EQ(ex::branch_place_from_address("デイリーヤマザキ みなみらい二丁目店", "神奈川県横浜市西区みなとみらい6-36-19"),
              "デイリーヤマザキ みなとみらい二丁目店");
    // A city-and-ward place that lost a character inside it, 市 or another ("大阪市北" of 大阪市北区).
    EXPECT_EQ(ex::branch_place_from_address("コスモス薬品 大阪北本店", "大阪府大阪市北区角田町1-25-24"),
              "コスモス薬品 大阪市北本店");
    EXPECT_EQ(ex::branch_place_from_address("ジョーシン 京都市京北口店", "京都府京都市下京区 四条通7-11-29"),
              "ジョーシン 京都市下京北口店");
    // A ward's name of two characters that lost its first ("島" of 豊島区).
    EXPECT_EQ(ex::branch_place_from_address("CoCo壱番屋 島中央店", "東京都豊島区南池袋1-15-1"), "CoCo壱番屋 豊島中央店");
    // A kanji of the place read as its katakana look-alike (ハ for 八).
    EXPECT_EQ(ex::branch_place_from_address("ナチュラルローソン ハ丁堀駅前店", "広島県広島市中区 八丁堀7-31-6"),
              "ナチュラルローソン 八丁堀駅前店");
    // The first character dropped, the address also naming a building after the place.
    EXPECT_EQ(ex::branch_place_from_address("丸亀製麺 番町駅東口店", "宮城県仙台市青葉区 一番町6丁目27番28号 一番町駅ビル 7F"),
              "丸亀製麺 一番町駅東口店");
    // Not when a longer leading part starts a place of the address ("名古屋市" of 名古屋市中村区, whatever 名駅 is).
    EXPECT_EQ(ex::branch_place_from_address("ローソン 名古屋市中村駅前店", "愛知県名古屋市中村区名駅3-7-2"),
              std::nullopt);
}

TEST(StoreBranch, PlaceThatLostACharacterInsideAWholeTown) {
    // A whole town of the address (after its ward mark, before the house number) with one character more inside:
    // its spelling, though a shorter part (博多 of 博多区) is printed as it is.
    EXPECT_EQ(ex::branch_place_from_address("デイリーヤマザキ 博多中央街南店", "福岡県福岡市博多区博多駅中央街2-32-16"),
              "デイリーヤマザキ 博多駅中央街南店");
    // Not where the span is no whole town (博多駅中央 runs on into 街): the ward's name and a branch word.
    EXPECT_EQ(ex::branch_place_from_address("ローソン 博多中央店", "福岡県福岡市博多区博多駅中央街2-32-16"),
              std::nullopt);
}

TEST(StoreBranch, PlaceKeptWhenPrintedOrNotOneCharacterAway) {
    // The place is printed as written (a leading part of it is).
    EXPECT_EQ(ex::branch_place_from_address("丸亀製麺 紙屋町中央店", "広島県広島市中区紙屋町8-7-8"), std::nullopt);
    // Printed as a place of its own too (新宿区), not only as the end of 西新宿: kept.
    EXPECT_EQ(ex::branch_place_from_address("ローソン 新宿駅前店", "東京都新宿区西新宿1-2-3"), std::nullopt);
    // The character before the place is a ward mark (中村区名駅): no place starts there.
    EXPECT_EQ(ex::branch_place_from_address("すき家 名駅二丁目店", "愛知県名古屋市中村区名駅3-7-2"), std::nullopt);
    // A shorter leading part printed as it is names the place as written: no 区 is added ("千葉市中央" + "中央店").
    EXPECT_EQ(ex::branch_place_from_address("ナチュラルローソン 千葉市中央中央店", "千葉県千葉市中央区 中央7-2-18"),
              std::nullopt);
    EXPECT_EQ(ex::branch_place_from_address("ジョーシン 港本店", "東京都港区 六本木7丁目31番18号"), std::nullopt);
    // One character before a ward mark ("中" of 中原区) adds nothing; a building names the place otherwise.
    EXPECT_EQ(ex::branch_place_from_address("デイリーヤマザキ 中本店", "神奈川県川崎市中原区木月2-19-11"), std::nullopt);
    EXPECT_EQ(ex::branch_place_from_address("丸亀製麺 番町駅東口店", "宮城県仙台市青葉区 一番町6丁目27番28号 二番町駅ビル 7F"),
              std::nullopt);
    // No 八丁堀 or 大阪市北区 in the address.
    EXPECT_EQ(ex::branch_place_from_address("サミット ハ丁堀駅前店", "広島県広島市中区幟町7-31-6"), std::nullopt);
    EXPECT_EQ(ex::branch_place_from_address("コスモス薬品 大阪北本店", "大阪府大阪市中央区難波1-2-3"), std::nullopt);
    // No branch, a digit added, or two different spellings in the address.
    EXPECT_EQ(ex::branch_place_from_address("サミット", "千葉県千葉市中央区"), std::nullopt);
    EXPECT_EQ(ex::branch_place_from_address("サミット 1丁目店", "千葉県12丁目"), std::nullopt);
    EXPECT_EQ(ex::branch_place_from_address("イオン 加町店", "加納町 加藤町"), std::nullopt);
    EXPECT_EQ(ex::branch_place_from_address("", ""), std::nullopt);
}

TEST(StoreBranch, SpacedAsPrinted) {
    EXPECT_EQ(ex::name_spaced_as_printed("ジョーシン\n港本店\n〒105-0211\n", "ジョーシン港本店", 2), "ジョーシン 港本店");
    EXPECT_EQ(ex::name_spaced_as_printed("CoCo壱番屋 恵比寿南北口店\n〒150\n", "CoCo壱番屋恵比寿南北口店", 2),
              "CoCo壱番屋 恵比寿南北口店");
    // Already spaced, printed as one word, not printed, not ending at a word end, or beyond max_lines.
    EXPECT_EQ(ex::name_spaced_as_printed("ジョーシン\n港本店\n", "ジョーシン 港本店", 2), std::nullopt);
    EXPECT_EQ(ex::name_spaced_as_printed("ジョーシン港本店\n", "ジョーシン港本店", 2), std::nullopt);
    EXPECT_EQ(ex::name_spaced_as_printed("イオン\n", "ジョーシン", 2), std::nullopt);
    EXPECT_EQ(ex::name_spaced_as_printed("ジョーシン\n港本店前\n", "ジョーシン港本店", 2), std::nullopt);
    EXPECT_EQ(ex::name_spaced_as_printed("A\nB\nC\n", "ABC", 2), std::nullopt);
    EXPECT_EQ(ex::name_spaced_as_printed("", "", 2), std::nullopt);
}

TEST(StoreBranch, BranchAfterTheAddressLines) {
    const std::string text = "サミット\n千葉県千葉市中央区\n富士見二丁目店\n富見8-18-23\n";
    EXPECT_EQ(ex::name_with_branch(text, "サミット", 4, "千葉県千葉市中央区 富士見8-18-23"), "サミット 富士見二丁目店");
    // Without the address, or a line between that the address does not hold.
    EXPECT_EQ(ex::name_with_branch(text, "サミット", 4), std::nullopt);
    EXPECT_EQ(ex::name_with_branch(text, "サミット", 4, "東京都港区"), std::nullopt);
}

TEST(StoreBranch, ChainBeforeABranchWrittenAlone) {
    EXPECT_EQ(ex::chain_before_branch("〒600-0521\n東急ストア 東塩小路町二丁目店\n京都府\n", "東塩小路町二丁目店", 4),
              "東急ストア 東塩小路町二丁目店");
    EXPECT_EQ(ex::chain_before_branch("ファミリーマート\n本町ショッピングセンター店\n千葉県\n", "本町ショッピングセンター店", 4),
              "ファミリーマート 本町ショッピングセンター店");
    // Not a branch, already with a chain, the branch first, or a company / postcode line before it.
    EXPECT_EQ(ex::chain_before_branch("ファミリーマート\nサミット\n", "サミット", 4), std::nullopt);
    EXPECT_EQ(ex::chain_before_branch("ファミリーマート 本町店\n", "ファミリーマート 本町店", 4), std::nullopt);
    EXPECT_EQ(ex::chain_before_branch("本町店\n千葉県\n", "本町店", 4), std::nullopt);
    EXPECT_EQ(ex::chain_before_branch("株式会社アオバ商事\n本町店\n", "本町店", 4), std::nullopt);
    EXPECT_EQ(ex::chain_before_branch("〒600-0521\n本町店\n", "本町店", 4), std::nullopt);
    // The branch as the receipt's first line, its chain below it (OCR moved the box).
    EXPECT_EQ(ex::chain_before_branch("用賀ショッピングセンター店\nCoCo壱番屋\n〒154-4477\n", "用賀ショッピングセンター店", 4),
              "CoCo壱番屋 用賀ショッピングセンター店");
}

TEST(StoreBranch, PrintedChainOfABranch) {
    // The model wrote a chain printed nowhere before the printed branch: the branch's printed chain.
    EXPECT_EQ(ex::printed_chain_of_branch("本町駅前店\nココカラファイン\n千葉県船橋市\n", "セコラファンダ 本町駅前店", 4),
              "ココカラファイン 本町駅前店");
    EXPECT_EQ(ex::printed_chain_of_branch("ケーズデンキ 経堂南店\n〒154-5212\n", "セケーズデンキ 経堂南店", 4),
              "ケーズデンキ 経堂南店");
    // The chain printed, or printed with OCR look-alikes (口 for ロ); no printed chain line for the branch; no branch.
    EXPECT_EQ(ex::printed_chain_of_branch("ケーズデンキ 経堂南店\n", "ケーズデンキ 経堂南店", 4), std::nullopt);
    EXPECT_EQ(ex::printed_chain_of_branch("ナチュラル口ーソン\n本町二丁目店\n", "ナチュラルローソン 本町二丁目店", 4),
              std::nullopt);
    EXPECT_EQ(ex::printed_chain_of_branch("本町駅前店\n千葉県船橋市\n", "セコラファンダ 本町駅前店", 4), std::nullopt);
    EXPECT_EQ(ex::printed_chain_of_branch("ケーズデンキ\n", "セケーズデンキ", 4), std::nullopt);
}

TEST(StoreBranch, ChainOverTwoLines) {
    EXPECT_EQ(ex::name_with_branch("スターバックス\nコーヒー\n栄中央店\n〒460-4975\n", "スターバックス コーヒー", 4),
              "スターバックス コーヒー 栄中央店");
}

TEST(StoreBranch, JapaneseHeaderNameLine) {
    EXPECT_EQ(ex::japanese_header_name_line("CoCo壱番屋\n〒060-9333 北海道札幌市中央区\n南2条西1-11-14\n", 4),
              "CoCo壱番屋");
    EXPECT_EQ(ex::japanese_header_name_line("〒600-0521\n(株)サン商事\n東急ストア 横山町店\n", 4), "東急ストア 横山町店");
    EXPECT_EQ(ex::japanese_header_name_line("領 収 書\nTEL 03-0000-0000\n", 4), std::nullopt);
    // A receipt whose header was cut off starts with its body: its labels and items name no store.
    EXPECT_EQ(ex::japanese_header_name_line("2024年7月31日 水曜日\n担当:山田\n商品名\n緑茶 2L\n", 4), std::nullopt);
    EXPECT_EQ(ex::japanese_header_name_line("担当者 山本\nレジ#4\nローソン\n", 4), "ローソン");
    EXPECT_TRUE(ex::japanese_company_line("有限会社ヒカリ商事"));
    EXPECT_FALSE(ex::japanese_company_line("ヒカリ薬局"));
}

TEST(StoreBranch, BranchWordThatOcrDamaged) {
    EXPECT_EQ(ex::branch_word_restored("マルエツ 北沢ショッピグセター店"), "マルエツ 北沢ショッピングセンター店");
    EXPECT_EQ(ex::branch_word_restored("ナチュラルローソン 三国ヶ丘御幸通ョッピングセンター店"),
              "ナチュラルローソン 三国ヶ丘御幸通ショッピングセンター店");
    EXPECT_EQ(ex::branch_word_restored("ココカラファイン 花園央店"), "ココカラファイン 花園中央店");
    // A look-alike of the katakana: 一 for ー before 店.
    EXPECT_EQ(ex::branch_word_restored("ココカラファイン 小杉町ショッピングセンタ一店"),
              "ココカラファイン 小杉町ショッピングセンター店");
    // Spelled whole, no place before the word, more than two characters lost, or no branch: kept.
    EXPECT_EQ(ex::branch_word_restored("東急ストア 花園ショッピングセンター店"), std::nullopt);
    EXPECT_EQ(ex::branch_word_restored("東急ストア ショッピングセター店"), std::nullopt);
    EXPECT_EQ(ex::branch_word_restored("東急ストア 花園ショッピセター店"), std::nullopt);
    EXPECT_EQ(ex::branch_word_restored("ココカラファイン 中央店"), std::nullopt);
    EXPECT_EQ(ex::branch_word_restored("ココカラファイン"), std::nullopt);
}

TEST(StoreBranch, ChainRunPastItsFinalN) {
    // One character past a printed chain that ends in ン: the printed chain, with the branch kept.
    EXPECT_EQ(ex::chain_run_past_final_n("ココカラファイン\n〒590-6468\n", "ココカラファインラ", 4), "ココカラファイン");
    EXPECT_EQ(ex::chain_run_past_final_n("ココカラファイン\n博多駅前店\n", "ココカラファインン 博多駅前店", 4),
              "ココカラファイン 博多駅前店");
    // A chain completed past another printed end stands ("ローソ" -> "ローソン"), as does a printed word.
    EXPECT_EQ(ex::chain_run_past_final_n("ローソ\n〒590-6468\n", "ローソン", 4), std::nullopt);
    EXPECT_EQ(ex::chain_run_past_final_n("ココカラファインラ\n", "ココカラファインラ", 4), std::nullopt);
    // The printed word must be there.
    EXPECT_EQ(ex::chain_run_past_final_n("ツルハドラッグ\n", "ココカラファインラ", 4), std::nullopt);
}

TEST(StoreBranch, BranchAfterTheChainThatLostIts店) {
    // The name's own branch word without 店: a place the address prints, then branch words only.
    EXPECT_EQ(ex::name_with_branch("コスモス薬品 新宿本\n〒160-4474 東京都新宿区新宿3-28-26\n", "コスモス薬品 新宿本", 4,
                                   "東京都新宿区新宿3-28-26"),
              "コスモス薬品 新宿本店");
    EXPECT_EQ(ex::name_with_branch("東急ストア 牧志二丁目\n沖縄県那覇市牧志2-3-4\n", "東急ストア 牧志二丁目", 4,
                                   "沖縄県那覇市牧志2-3-4"),
              "東急ストア 牧志二丁目店");
    // Not a place of the address, or an address unit: unchanged.
    EXPECT_EQ(ex::name_with_branch("コスモス薬品 渋谷本\n", "コスモス薬品 渋谷本", 4, "東京都新宿区新宿3-28-26"),
              std::nullopt);
    EXPECT_EQ(ex::name_with_branch("ローソン 新宿区\n", "ローソン 新宿区", 4, "東京都新宿区新宿3-28-26"), std::nullopt);
}

TEST(StoreBranch, AddressPlaceFromTheBranch) {
    // The printed place lost a character; the model wrote another place: the branch's place.
    EXPECT_EQ(ex::address_place_from_branch("ココカラファイン 中洲二丁目店\n〒812-9833\n福岡県福岡市博多区中4丁目19番11号\n",
                                            "ココカラファイン 中洲二丁目店", "福岡県福岡市博多区博多駅前4丁目19番11号"),
              "福岡県福岡市博多区中洲4丁目19番11号");
    EXPECT_EQ(ex::address_place_from_branch("CoCo壱番屋\n則武中央店\n〒450-2385 愛知県名古屋市中村区則6-36-15\n",
                                            "CoCo壱番屋 則武中央店", "愛知県名古屋市中村区椿町6-36-15"),
              "愛知県名古屋市中村区則武6-36-15");
    // Printed whole under another spelling of the city.
    EXPECT_EQ(ex::address_place_from_branch("ジョーシン\n花園北口店\n新潟県新潟中央区花園7-3ー6\n", "ジョーシン 花園北口店",
                                            "新潟県新潟市中央区万代7-3-6"),
              "新潟県新潟市中央区花園7-3-6");
    // The model's place is the printed one, which lost a character of the branch's place.
    EXPECT_EQ(ex::address_place_from_branch("デイリーヤマザキ 久茂地店\n〒900-1762\n沖縄県那覇市茂地1丁目18番15号\n",
                                            "デイリーヤマザキ 久茂地店", "沖縄県那覇市茂地1丁目18番15号"),
              "沖縄県那覇市久茂地1丁目18番15号");
    // ... not a branch that adds a word after the town printed whole ("角田町中店" over "角田町1丁目32番19号").
    EXPECT_EQ(ex::address_place_from_branch("東急ストア 角田町中店\n〒530-1288 大阪府大阪市北区角田町1丁目32番19号\n",
                                            "東急ストア 角田町中店", "大阪府大阪市北区角田町1丁目32番19号"),
              std::nullopt);
    // A building named after the model's place takes the branch's place where the receipt prints it so.
    EXPECT_EQ(ex::address_place_from_branch("サミット\n本町北店\n〒273-7257\n千葉県船橋市\n本町8-1-29\n町第一ビル 2F\n",
                                            "サミット 本町北店", "千葉県船橋市 湊町8-1-29 湊町第一ビル 2F"),
              "千葉県船橋市 本町8-1-29 本町第一ビル 2F");
    // The model's place printed with the house number, or the branch's place already in the address: unchanged.
    EXPECT_EQ(ex::address_place_from_branch("ローソン 中洲店\n福岡県福岡市博多区博多駅前4丁目19番11号\n", "ローソン 中洲店",
                                            "福岡県福岡市博多区博多駅前4丁目19番11号"),
              std::nullopt);
    EXPECT_EQ(ex::address_place_from_branch("ローソン 中洲店\n福岡県福岡市博多区中洲4-1-1\n", "ローソン 中洲店",
                                            "福岡県福岡市博多区中洲4-1-1"),
              std::nullopt);
}

TEST(StoreBranch, ChomeThatLostItsMark) {
    EXPECT_EQ(ex::chome_mark_restored("丸亀製麺 宮町二丁店"), "丸亀製麺 宮町二丁目店");
    EXPECT_EQ(ex::chome_mark_restored("丸亀製麺 宮町二丁目店"), std::nullopt);
    EXPECT_EQ(ex::chome_mark_restored("のんべい横丁店"), std::nullopt);  // an alley, no numeral
    EXPECT_EQ(ex::chome_mark_restored("丁店"), std::nullopt);
    EXPECT_EQ(ex::chome_mark_restored("ココカラファイン 広島市中二目店"), "ココカラファイン 広島市中二丁目店");  // 丁 lost
    EXPECT_EQ(ex::chome_mark_restored("ローソン 目店"), std::nullopt);  // no numeral
}

TEST(StoreBranch, AddressWordsCopiedIntoTheName) {
    EXPECT_EQ(ex::name_without_address_words("ケーズデンキ 〒460ー4081", "愛知県名古屋市中区 栄2-38-25"), "ケーズデンキ");
    EXPECT_EQ(ex::name_without_address_words("ナチュラル口ーソン 東京都世田谷区", "東京都世田谷区 北沢6-31-3"),
              "ナチュラル口ーソン");
    EXPECT_EQ(ex::name_without_address_words("ケーズデンキ 〒460-4081 名古屋市中駅前店", ""),
              "ケーズデンキ 名古屋市中駅前店");
    // A branch named after the city (it ends in 店), or a word the address does not hold: kept.
    EXPECT_EQ(ex::name_without_address_words("ローソン 札幌市中央店", "北海道札幌市中央区北1条西7-29-3"), std::nullopt);
    EXPECT_EQ(ex::name_without_address_words("スターバックス コーヒー", "東京都港区 芝浦6-2-6"), std::nullopt);
}

TEST(StoreBranch, ChainAndBranchPrintedAsOneWord) {
    const std::string text = "東急ストア新丸子町南店\n神奈川県川崎市中原区\n新丸子町3丁目29番29号\n";
    const std::string address = "神奈川県川崎市中原区 新丸子町3丁目29番29号";
    EXPECT_EQ(ex::name_split_at_branch_place(text, "東急ストア新丸子町南店", address, 8), "東急ストア 新丸子町南店");
    // Not printed so, already spaced, or the part before the place is a piece of the address itself.
    EXPECT_EQ(ex::name_split_at_branch_place(text, "東急ストア新丸子町店", address, 8), std::nullopt);
    EXPECT_EQ(ex::name_split_at_branch_place(text, "東急ストア 新丸子町南店", address, 8), std::nullopt);
    EXPECT_EQ(ex::name_split_at_branch_place("札幌中央店\n北海道札幌市中央区北1条西7-29-3\n", "札幌中央店",
                                             "北海道札幌市中央区北1条西7-29-3", 8),
              std::nullopt);
}

TEST(StoreBranch, ChainWrittenWithTheMarkOfItsBranch) {
    const std::string text = "デイリーヤマザキ\n富士見本店\n〒260-3050\n千葉県千葉市中央区\n富士見6-19-9\n";
    EXPECT_EQ(ex::branch_for_chain_with_mark(text, "デイリーヤマザキ店", 8, "千葉県千葉市中央区 富士見6-19-9"),
              "デイリーヤマザキ 富士見本店");
    // Printed so, or a branch already written: kept.
    EXPECT_EQ(ex::branch_for_chain_with_mark("ローソン店\n富士見本店\n", "ローソン店", 8, ""), std::nullopt);
    EXPECT_EQ(ex::branch_for_chain_with_mark(text, "デイリーヤマザキ 富士見本店", 8, ""), std::nullopt);
    // A postcode whose dash OCR read as ー may stand between the chain and its branch.
    EXPECT_EQ(ex::name_with_branch("セイコーマート\n〒330ー7185 埼玉県さいたま市大宮区\n大門町店\n大門町6丁目38番20号\n",
                                   "セイコーマート", 8, "埼玉県さいたま市大宮区 大門町6丁目38番20号"),
              "セイコーマート 大門町店");
}
