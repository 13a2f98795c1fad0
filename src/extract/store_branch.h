// The branch line of a Japanese store name. Receipts print the chain and the branch on separate lines
// ("ナチュラルローソン" / "巣鴨ショッピングセンター店"), and the schema's supplier_name holds both
// ("ナチュラルローソン 巣鴨ショッピングセンター店"); the model often writes the chain line alone.
#pragma once

#include <optional>
#include <string>

namespace receipt::extract {

// Most characters of a branch line ("三国ヶ丘御幸通駅東口店" has 11).
inline constexpr int kMaxBranchChars = 24;

// The name with its branch when `name` (spaces aside) does not itself end in 店 and is, among the first
// `max_lines` printed lines of `text`, a line followed by a branch after its last space ("サミット 芝浦店"; also
// where that line lost one or two characters of the chain, with the branch whole or without its 店 as below:
// "ビックカラ 中央" for the model's "ビックカメラ"; and the chain whole with its branch without 店: "エディオン
// 京都市下京中央"), or
// a whole line (or two lines: "スターバックス" / "コーヒー") followed by a branch line: a branch ends in 店 (店,
// 本店, 支店, ...), has at most kMaxBranchChars characters and no 〒 or phone label. nullopt otherwise (keep the
// name).
// Lines that the `address` (the receipt's supplier_address, spaces aside) holds whole may stand between the chain
// line and its branch line ("サミット" / "千葉県千葉市中央区" / "富士見二丁目店"), also with the postcode in front
// ("〒150-2574 東京都渋谷区...", its dash read as ー too), and so may a postcode line (with or without its 〒 mark)
// or the operating company's line ("株式会社セブン商事"). A branch line printed as the first line, right above the
// chain line, is the branch too (OCR moved its box: "川崎市中原中央店" / "ローソン"). A line right under the chain that lost its 店 to OCR is the
// branch with 店 put back: kanji and kana only, a place the address prints (two characters or more, or one that it
// prints between a ward, city or town mark and a house number: "栄" of "...中区栄3-23-14") followed only by branch
// words (駅, 口, 東西南北, 中央, 本, ...; "西新宿南" -> "西新宿南店", "栄中央" -> "栄中央店"), not ending in an address unit (都 道 府 県 市 区 町 村 郡); so is
// such a branch that the name itself ends with after its chain ("コスモス薬品 新宿本" -> "コスモス薬品 新宿本店").
std::optional<std::string> name_with_branch(const std::string& text, const std::string& name, int max_lines,
                                            const std::string& address = "");

// The chain alone when a Japanese `name` of two or more words ends, after its first word, in words that are the
// operating company (a company form: "ジョーシン (株)セブン商事") or a piece of the `address` (spaces aside) with a
// digit ("丸亀製麺 大阪府堺市堺区三国ヶ丘御幸通5丁目14番19号"): the name ran on into the next printed line. nullopt
// otherwise.
std::optional<std::string> name_without_run_on(const std::string& name, const std::string& address);

// The chain and its branch spaced where the branch's place starts, when the receipt prints them as one word
// ("東急ストア新丸子町南店" under the address "神奈川県川崎市中原区 新丸子町3丁目29番29号" -> "東急ストア
// 新丸子町南店"): `name` has no space, ends in 店 and is printed so in the first `max_lines` lines; the branch starts
// at the first character where two characters of the `address` start (not with the character before them), and the
// chain before it has two characters or more, is no piece of the address and does not end in an address unit.
// nullopt otherwise.
std::optional<std::string> name_split_at_branch_place(const std::string& text, const std::string& name,
                                                      const std::string& address, int max_lines);

// The model's `address` with the place of its house number spelled as the store's branch names it, when the model wrote
// another place there and OCR dropped a character of the printed one: the branch's place (the name's last word without
// 店 and its branch words: "中洲二丁目店" -> 中洲, "則武中央店" -> 則武; two characters or more) is not in the address,
// whose place before the house number ("博多駅前" of "...博多区博多駅前4丁目19番11号") is not printed with it, while
// `text` prints the branch's place, or it with one character lost, right before that house number ("中4丁目19番11号",
// "則6-36-15"); or the model's place is the printed one that lost a character of the branch's place before its end
// ("茂地1丁目18番15号" under "久茂地店"; not "角田町" under "角田町中店"). A building after it named after the model's
// place takes the branch's place too where `text` prints it so, whole or with one character of the place lost
// ("湊町第一ビル" -> "本町第一ビル" for the printed "町第一ビル"). nullopt otherwise.
std::optional<std::string> address_place_from_branch(const std::string& text, const std::string& name,
                                                     const std::string& address);

// The chain as printed when the model ran one character past a printed chain word that ends in ン
// ("ココカラファインラ", "ココカラファインン" for the printed "ココカラファイン"): the moraic nasal ends a word, and on the
// development sets every name so written was the model's run-on, while names completed past another printed end
// ("ファミリーマー" -> "ファミリーマート", "ローソ" -> "ローソン") were right. `name` with its first word cut so, when
// that word is not printed itself (a word of the first `max_lines` lines); nullopt otherwise.
std::optional<std::string> chain_run_past_final_n(const std::string& text, const std::string& name, int max_lines);

// The chain printed before a branch that the model wrote alone ("東塩小路町二丁目店"): when `name` (spaces aside)
// ends in 店, has no space, and is printed within the first `max_lines` lines as the last word of a line after
// other words, or as a whole line under a chain line, the name with those words or that line before it
// ("東急ストア 東塩小路町二丁目店"); printed as the receipt's first line, the chain line below it (OCR moved its box:
// "用賀ショッピングセンター店" / "CoCo壱番屋"; not a place line there). A chain line holds no digit, no 〒 or phone
// label and no company form (株式会社, 有限会社, (株)). nullopt otherwise.
std::optional<std::string> chain_before_branch(const std::string& text, const std::string& name, int max_lines);

// The chain printed with the branch when the model wrote another chain before it ("セコラファンダ 本町駅前店" for
// the printed "本町駅前店" / "ココカラファイン", "セケーズデンキ 経堂南店" for "ケーズデンキ 経堂南店"): `name` is a chain
// with kanji or kana, a space and a branch; the chain is printed nowhere among the first `max_lines` lines, not
// even with OCR look-alikes read (fix_kana_lookalikes); and chain_before_branch finds a chain line for the branch.
// The caller leaves a chain known from training alone: the model puts back characters OCR dropped from those
// ("セブン-イレブン" for the printed "セブ-イレブン"). `name` with the printed chain; nullopt otherwise.
std::optional<std::string> printed_chain_of_branch(const std::string& text, const std::string& name, int max_lines);

// True when `line` names a company form (株式会社, 有限会社, 合同会社, (株), (有)): the operating company printed in a
// Japanese header, not the store.
bool japanese_company_line(const std::string& line);

// The first of the first `max_lines` lines of a Japanese receipt that can name the store: with text, without a
// digit, a 〒 or phone label, a company form, a document title (領収書, レシート, お買上明細) or a body label (担当,
// 商品名, ...: starts_with_body_label), above the first line that prints a date (prints_date_like: the body; a
// receipt whose header was cut off starts with it). nullopt when none.
std::optional<std::string> japanese_header_name_line(const std::string& text, int max_lines);


// `name` with the 目 (or 丁) of a chōme that OCR dropped before 店 put back: a kanji numeral (一 to 十), then 丁 or 目
// and 店 ("丸亀製麺 宮町二丁店", "広島市中二目店" -> "...二丁目店"; no branch ends in a numbered 丁 or 目 alone).
// nullopt otherwise.
std::optional<std::string> chome_mark_restored(const std::string& name);

// `name` without the words after its first that are a postcode ("〒460ー4081") or a piece of the `address` (spaces
// aside) naming a prefecture, city, ward or town ("東京都世田谷区"; not a branch, which ends in 店): the model copied
// a header line printed after the chain, before its branch ("ナチュラルローソン 東京都世田谷区" for "ナチュラルローソン"
// / "東京都世田谷区" / "北沢駅西口店"). nullopt when there is none.
std::optional<std::string> name_without_address_words(const std::string& name, const std::string& address);

// The chain and its printed branch when the model wrote the chain with 店 right after it ("デイリーヤマザキ店" for
// the printed "デイリーヤマザキ" / "富士見本店"): `name` has no space, ends in 店 and is printed nowhere in the first
// `max_lines` lines, and name_with_branch finds a branch for the chain without that 店. nullopt otherwise.
std::optional<std::string> branch_for_chain_with_mark(const std::string& text, const std::string& name, int max_lines,
                                                      const std::string& address);

// The name with its branch's closing word spelled whole when OCR dropped characters of it: a branch (the name after
// its last space, ending in 店, with a place before the word) ending in ショッピングセンター with one or two of its
// characters lost ("北沢ショッピグセター店" -> "北沢ショッピングセンター店"), or in 央 without the 中 of 中央 ("花園央店" ->
// "花園中央店"). nullopt otherwise (keep the name).
std::optional<std::string> branch_word_restored(const std::string& name);

// The name with a space where the receipt prints a line break or a space inside it, when the name has no space and
// is printed (spaces aside) within the first `max_lines` lines from a printed word start to a word end
// ("ジョーシン港本店" printed as "ジョーシン" / "港本店" -> "ジョーシン 港本店"): copy the name as printed. nullopt when
// the name has a space, is not printed so, or is printed without a break.
std::optional<std::string> name_spaced_as_printed(const std::string& text, const std::string& name, int max_lines);

}  // namespace receipt::extract
