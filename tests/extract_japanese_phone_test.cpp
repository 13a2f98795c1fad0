// The phone number of a Japanese receipt as printed (extract/japanese_phone.h).
#include <gtest/gtest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "extract/japanese_area_code.h"
#include "extract/japanese_phone.h"
#include "extract/post_checks.h"
#include "receipt/extractor.h"

namespace ex = receipt::extract;

TEST(JapanesePhone, TheLabelledNumberWhenTheModelsIsNotPrinted) {
    const std::string text = "丸亀製麺 巣鴨南店\n〒170-6617 東京都豊島区巣鴨3丁目39番27号\n電話03-7114-3764\n23/06/23\n";
    EXPECT_EQ(ex::labelled_phone_for(text, "03-170"), "03-7114-3764");
    EXPECT_EQ(ex::labelled_phone_for(text, ""), "03-7114-3764");  // the model wrote none
    EXPECT_FALSE(ex::labelled_phone_for(text, "03-7114-3764").has_value());  // printed: it stands
    // On the line after a bare label, with the area code in brackets; a mobile number has 11 digits.
    EXPECT_EQ(ex::labelled_phone_for("店\nTEL\n(072)802-8096\n", "(072)802-009"), "(072)802-8096");
    EXPECT_EQ(ex::labelled_phone_for("店\nTEL:090-1234-5678\n", "090-1234"), "090-1234-5678");
    // A bracket lost: the opening one ("093)269-5669"), or the closing one, the model copying the print without
    // the bracket left open ("042879-7752").
    EXPECT_EQ(ex::labelled_phone_for("店\nTel.\n093)269-5669\n", "(093)269-6"), "(093)269-5669");
    EXPECT_EQ(ex::labelled_phone_for("店\n☎(042879-7752\n", "042879-7752"), "(042)879-7752");
}

TEST(JapanesePhone, NoneWhenThePrintedNumberIsCutShortOrThereAreTwo) {
    // OCR dropped a digit of the printed number (9 digits): the model's reading may be the better one.
    EXPECT_FALSE(ex::labelled_phone_for("店\nTEL 03-5075-294\n", "03-5075-2940").has_value());
    // Two labelled numbers (a phone and a fax): which one is the shop's is not for this check to say.
    EXPECT_FALSE(ex::labelled_phone_for("店\nTEL 03-1111-2222\nFAX 03-1111-2223 TEL 03-1111-2224\n", "03-1").has_value());
    // No label: a postal code or a registration number is no phone.
    EXPECT_FALSE(ex::labelled_phone_for("店\n〒170-6617\nT1596778140661\n", "03-170").has_value());
    // Part of a longer digit run.
    EXPECT_FALSE(ex::labelled_phone_for("店\nTEL 103-7114-37645\n", "x").has_value());
}

TEST(JapanesePhone, ALeadingZeroOrTheLastHyphenThatOCRDropped) {
    // The leading 0 dropped; the model took a registration number's digits (13 digits: no phone number).
    EXPECT_EQ(ex::labelled_phone_for("店\n電話:48-447-5774\n登録番号 T0849244812514\n", "0849244812514"),
              "048-447-5774");
    // The last hyphen dropped: the model copied the damaged print, which gets its hyphen back.
    EXPECT_EQ(ex::labelled_phone_for("店\n電話:022-6697022\n", "022-6697022"), "022-669-7022");
    // The number's box above its label.
    EXPECT_EQ(ex::labelled_phone_for("店\n03-17646052\nTEL\n登録番号 T4528604522613\n", "03-270-634"), "03-1764-6052");
    // Nine digits with a leading 0 lost another digit: no reading.
    EXPECT_FALSE(ex::labelled_phone_for("店\nTEL 03-462-2879\n", "x").has_value());
    // An address with a house number in its own line above a label is no phone.
    EXPECT_FALSE(ex::labelled_phone_for("店\n本町3-22-15\nTEL\n", "x").has_value());
}

TEST(JapanesePhone, AWholeNumberInTheHeaderWhenOcrDamagedTheLabel) {
    // "TE:" / "TE" for TEL: a whole number in the header lines still counts.
    EXPECT_EQ(ex::labelled_phone_for("ケーズデンキ 本町南店\n大阪府大阪市中央区\nTE:06-4658-4907\n22/12/11\n", ""),
              "06-4658-4907");
    EXPECT_EQ(ex::labelled_phone_for("ケーズデンキ\n東京都港区\nTE03-7532-5769\n赤坂2-7-17\n", "03-5769-2-7532"),
              "03-7532-5769");
    // Not below the header (a date or amount line ends it), not a number that OCR damaged, not one of two.
    EXPECT_FALSE(ex::labelled_phone_for("店\n2024/05/01\nお問合せ 03-7532-5769\n", "").has_value());
    EXPECT_FALSE(ex::labelled_phone_for("店\n¥500\n03-7532-5769\n", "").has_value());
    EXPECT_FALSE(ex::labelled_phone_for("店\nTE 48-447-5774\n", "").has_value());
    EXPECT_FALSE(ex::labelled_phone_for("店\n03-7532-5769\n03-1111-2222\n", "").has_value());
}

TEST(JapanesePhone, DashesLookAlikesAndBracketsAsOcrPrintsThem) {
    EXPECT_EQ(ex::labelled_phone_for("店\n☎075ー301-9524\n", ""), "075-301-9524");    // ー for a hyphen
    EXPECT_EQ(ex::labelled_phone_for("店\nTel.078-293-21B3\n", ""), "078-293-2183");  // B for 8
    EXPECT_EQ(ex::labelled_phone_for("店\nTEL\n(052)2349090\n", "(052)2349090"), "(052)234-9090");  // hyphen lost
    EXPECT_EQ(ex::labelled_phone_for("店\n電話\n(3)3557-0419\n", "(000)3557-0419"), "(03)3557-0419");  // 0 lost
    EXPECT_FALSE(ex::labelled_phone_for("店\n電話\n(3)357-0419\n", "").has_value());  // and another digit
}

TEST(JapanesePhone, PostCheckOnYenReceipts) {
    const receipt::ExtractOptions opts;
    nlohmann::ordered_json f = {{"supplier_name", "丸亀製麺 巣鴨南店"}, {"supplier_phone", "03-170"},
                                {"currency", "JPY"},                 {"line_items", nlohmann::ordered_json::array()},
                                {"warnings", nlohmann::ordered_json::array()}};
    ex::apply_post_checks("丸亀製麺 巣鴨南店\n〒170-6617 東京都豊島区巣鴨3丁目39番27号\n電話03-7114-3764\n", "", opts, f);
    EXPECT_EQ(f["supplier_phone"], "03-7114-3764");
    EXPECT_NE(f["warnings"].dump().find("supplier_phone_not_printed"), std::string::npos) << f["warnings"].dump();
}

TEST(JapanesePhone, FirstHyphenLost) {
    // Six digits before the subscriber's four: the area code of three digits (two for 03 and 06) split off.
    EXPECT_EQ(ex::labelled_phone_for("TEL048829-9239\n", "048829-9239"), "048-829-9239");
    EXPECT_EQ(ex::labelled_phone_for("電話:031234-5678\n", ""), "03-1234-5678");
    // After an opening bracket the closing one was lost.
    EXPECT_EQ(ex::labelled_phone_for("TEL (072214-7620\n", ""), "(072)214-7620");
    EXPECT_EQ(ex::labelled_phone_for("☎(06I786-1239\n", "(06)176"), "(06)1786-1239");
}

TEST(JapanesePhone, DigitGuessedIntoANumberThatLostOne) {
    // Nine digits printed, the model's ten put one back: a guess.
    EXPECT_TRUE(ex::phone_with_guessed_digit("TEL:043-18-4935\n", "043-185-4935"));
    EXPECT_TRUE(ex::phone_with_guessed_digit("電話\n011-50-7156\n", "011-504-7156"));
    // A damaged label: a header line.
    EXPECT_TRUE(ex::phone_with_guessed_digit("店\nTE (045)12-5433\n2024/01/02\n", "(045)127-5433"));
    EXPECT_FALSE(ex::phone_with_guessed_digit("店\n2024/01/02\n合計\n(045)12-5433\n", "(045)127-5433"));
    // Printed whole, another number, or a leading 0 dropped (which leaves no doubt): no guess.
    EXPECT_FALSE(ex::phone_with_guessed_digit("TEL:043-185-4935\n", "043-185-4935"));
    EXPECT_FALSE(ex::phone_with_guessed_digit("TEL:043-18-4935\n", "045-111-2222"));
    EXPECT_FALSE(ex::phone_with_guessed_digit("TEL:48-447-5774\n", "048-447-5774"));
}

TEST(JapanesePhone, AreaCodeOfTheAddress) {
    EXPECT_EQ(ex::area_code_of("〒170-4163\n東京都豊島区巣鴨8-7-12\n"), "03");
    EXPECT_EQ(ex::area_code_of("京都府京都市下京区\n東塩小路町4-22-8\n"), "075");
    EXPECT_EQ(ex::area_code_of("千葉県千葉市中央区中央5-16-20\n"), "043");
    // Ward names that other cities share count only after 東京都; a city name that ends another's only after its
    // prefecture (木更津市 is no 津市).
    EXPECT_EQ(ex::area_code_of("大阪府大阪市中央区難波1-2-3\n"), "06");
    EXPECT_EQ(ex::area_code_of("東京都中央区銀座1-2-3\n"), "03");
    EXPECT_FALSE(ex::area_code_of("千葉県木更津市富士見1-2-3\n").has_value());
    EXPECT_EQ(ex::area_code_of("三重県津市羽所町1-2\n"), "059");
    // None named, or two places of different codes.
    EXPECT_FALSE(ex::area_code_of("店\nTEL 03-1234-5678\n").has_value());
    EXPECT_FALSE(ex::area_code_of("東京都新宿区西新宿1-1\n横浜市西区南幸2-2\n").has_value());
}

TEST(JapanesePhone, AreaCodeDigitRestored) {
    EXPECT_EQ(ex::with_area_code_restored("0-5770-8671", "03"), "03-5770-8671");
    EXPECT_EQ(ex::with_area_code_restored("03-917-3052", "043"), "043-917-3052");
    EXPECT_EQ(ex::with_area_code_restored("05-720-0823", "075"), "075-720-0823");
    EXPECT_EQ(ex::with_area_code_restored("(07)593-7218", "075"), "(075)593-7218");
    EXPECT_EQ(ex::with_area_code_restored("(0) 5770-8671", "03"), "(03) 5770-8671");
    // The lost digit is not the area code's: the subscriber groups are short, or the group is no part of the code.
    EXPECT_FALSE(ex::with_area_code_restored("03-917-3052", "03").has_value());
    EXPECT_FALSE(ex::with_area_code_restored("043-91-3052", "043").has_value());
    EXPECT_FALSE(ex::with_area_code_restored("06-917-3052", "043").has_value());
    EXPECT_FALSE(ex::with_area_code_restored("03-5770-8671", "03").has_value());  // whole already
    EXPECT_FALSE(ex::with_area_code_restored("0-5770-867", "03").has_value());
}

TEST(JapanesePhone, LabelledNumberWithTheAreaCodesDigitPutBack) {
    const std::string tokyo = "店\n〒170-4163\n東京都豊島区巣鴨8-7-12\n0-5770-8671\n2023-07-12\n";
    EXPECT_EQ(ex::labelled_phone_for(tokyo, ""), "03-5770-8671");  // a header line
    const std::string chiba = "店\n千葉県千葉市中央区中央5-16-20\nTEL 03-917-3052\n";
    EXPECT_EQ(ex::labelled_phone_for(chiba, ""), "043-917-3052");
    // Put back from the address, the digit is no guess; another digit put back is.
    EXPECT_FALSE(ex::phone_with_guessed_digit(chiba, "043-917-3052"));
    EXPECT_TRUE(ex::phone_with_guessed_digit(chiba, "03-9177-3052"));
    // No place named: nine digits stay a number cut short.
    EXPECT_FALSE(ex::labelled_phone_for("店\nTEL 03-917-3052\n", "").has_value());
}

TEST(JapanesePhone, LengthAndGroupsOfAJapaneseNumber) {
    EXPECT_TRUE(ex::japanese_phone_length_ok("03-7114-3764"));
    EXPECT_TRUE(ex::japanese_phone_length_ok("(072)802-8096"));
    EXPECT_TRUE(ex::japanese_phone_length_ok("090-1234-5678"));
    EXPECT_TRUE(ex::japanese_phone_length_ok("0800-123-4567"));
    EXPECT_FALSE(ex::japanese_phone_length_ok("072-879-021"));     // cut short
    EXPECT_FALSE(ex::japanese_phone_length_ok("072-879-9-2021"));  // a run of another number taken in
    EXPECT_FALSE(ex::japanese_phone_length_ok("072-8791-20210"));  // 11 digits, no mobile or 050 number
}
