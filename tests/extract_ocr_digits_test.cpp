// OCR confusions of digits (extract/ocr_digits.h).
#include <gtest/gtest.h>

#include <string>

#include "extract/ocr_digits.h"

namespace ex = receipt::extract;

TEST(OcrDigits, LookalikesNextToDigits) {
    EXPECT_EQ(ex::read_digit_confusions("1,2O0"), "1,200");
    EXPECT_EQ(ex::read_digit_confusions("1,5OO"), "1,500");  // the second O follows the first, read as 0
    EXPECT_EQ(ex::read_digit_confusions("20Z4/12/01"), "2024/12/01");
    EXPECT_EQ(ex::read_digit_confusions("Z,416"), "2,416");    // before a thousands group
    EXPECT_EQ(ex::read_digit_confusions("No.123"), "No.123");  // a word's last letter stays
}

TEST(OcrDigits, AloneBetweenTwoSlashes) {
    EXPECT_EQ(ex::read_digit_confusions("2O/I/2015"), "20/1/2015");
    EXPECT_EQ(ex::read_digit_confusions("2023/l/05"), "2023/1/05");
    // Not without digits beyond both slashes, nor a word between them.
    EXPECT_EQ(ex::read_digit_confusions("A/I/B"), "A/I/B");
    EXPECT_EQ(ex::read_digit_confusions("S/B"), "S/B");
    EXPECT_EQ(ex::read_digit_confusions("12/IS/05"), "12/IS/05");
    // A month of two look-alikes after a four-digit year ("2021-Db-22"); not after a shorter number.
    EXPECT_EQ(ex::read_digit_confusions("2021-Db-22"), "2021-06-22");
    EXPECT_EQ(ex::read_digit_confusions("2024/lO/05"), "2024/10/05");
    EXPECT_EQ(ex::read_digit_confusions("21-Db-22"), "21-Db-22");
}

TEST(OcrDigits, UnitsDigitAfterACurrencySign) {
    EXPECT_EQ(ex::read_digit_confusions("TAX 10.1% $Z.20"), "TAX 10.1% $2.20");
    EXPECT_EQ(ex::read_digit_confusions("£l.50"), "£1.50");
    EXPECT_EQ(ex::read_digit_confusions("RMS,40"), "RM5,40");
    // Not a word after the sign, nor a number without two decimals.
    EXPECT_EQ(ex::read_digit_confusions("$OFF.50"), "$OFF.50");
    EXPECT_EQ(ex::read_digit_confusions("$S.5 CUP"), "$S.5 CUP");
}

TEST(OcrDigits, UnitsDigitStartingAnAmount) {
    // At the line start, after a space or a minus sign, before the point and two-digit cents.
    EXPECT_EQ(ex::read_digit_confusions("I.05"), "1.05");
    EXPECT_EQ(ex::read_digit_confusions("PROMO -S.20"), "PROMO -5.20");
    EXPECT_EQ(ex::read_digit_confusions("1 X l,40 T"), "1 X 1,40 T");
    // Not inside a word, nor with one decimal.
    EXPECT_EQ(ex::read_digit_confusions("NO.12"), "NO.12");
    EXPECT_EQ(ex::read_digit_confusions("S.5"), "S.5");
}

TEST(OcrDigits, CountAfterTheSignOfAUnitPrice) {
    // A row's count alone at the line end after "@unit x".
    EXPECT_EQ(ex::read_digit_confusions("@3599 x Z"), "@3599 x 2");
    EXPECT_EQ(ex::read_digit_confusions("@120 X S"), "@120 X 5");
    // Not without the unit price, nor a word after the sign.
    EXPECT_EQ(ex::read_digit_confusions("MAX Z"), "MAX Z");
    EXPECT_EQ(ex::read_digit_confusions("@120 x IS"), "@120 x IS");
}

TEST(OcrDigits, YenSignLookalikeBeforeAPointedThousandsGroup) {
    EXPECT_EQ(ex::read_sign_confusions("Y1.890"), "\\1.890");
    EXPECT_EQ(ex::read_sign_confusions("Y1.890軽"), "\\1.890軽");
    // Not before cents or a rate.
    EXPECT_EQ(ex::read_sign_confusions("Y1.89"), "Y1.89");
    EXPECT_EQ(ex::read_sign_confusions("Y1.8901"), "Y1.8901");
}
