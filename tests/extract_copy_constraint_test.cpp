// Copy constraint: digit runs of OCR text, the field the output is in, and which tokens it forbids.
#include <gtest/gtest.h>

#include <algorithm>

#include <cmath>
#include <string>
#include <vector>

#include "extract/copy_constraint.h"
#include "receipt/tokenizer.h"
#include "shipped_tokenizer.h"

namespace ex = receipt::extract;
using receipt::Tokenizer;
using receipt::TokenizerMode;

namespace {

class CopyConstraintTest : public ::testing::Test {
protected:
    CopyConstraintTest() : tok(kShippedSpiece, TokenizerMode::kSentencePiece) {}
    std::vector<int> ids(const std::string& s) const { return tok.encode(s, false); }
    int id_of(const std::string& piece) const {
        for (int i = 0; i < tok.piece_count(); ++i)
            if (tok.id_to_piece(i) == piece) return i;
        return -1;
    }
    // Logits (all 0) after process(); -inf marks a forbidden token.
    std::vector<float> run(const ex::CopyConstraint& c, const std::string& generated) const {
        std::vector<float> logits(kShippedVocab, 0.0f);
        c.process(0, ids(generated), logits.data(), kShippedVocab);
        return logits;
    }
    Tokenizer tok;
};

}  // namespace

TEST(DigitRuns, GroupsThousandsFullWidthAndConfusions) {
    const auto runs = ex::digit_runs("TEL 045-717-0476\n合計 ¥1,200\n１２３\n小計 1,2O0\n12.50");
    for (const char* r : {"045", "717", "0476", "1", "200", "1200", "123", "12", "50", "2"})
        EXPECT_TRUE(has(runs, r)) << r;
    EXPECT_FALSE(has(runs, "1250"));   // "12.50" has two decimals, not a thousands group
    EXPECT_TRUE(has(runs, "12.50"));
    const auto money = ex::digit_runs("TOTAL RM 1,234.50");
    for (const char* r : {"1234.50", "234.50", "1234", "50"}) EXPECT_TRUE(has(money, r)) << r;
    EXPECT_FALSE(has(runs, "0450"));
    EXPECT_TRUE(ex::digit_runs("no digits here").empty());
}

TEST_F(CopyConstraintTest, FieldAt) {
    ex::CopyConstraint c(tok, kShippedVocab, {"x"});
    EXPECT_EQ(c.field_at({}), "");
    EXPECT_EQ(c.field_at(ids("name: A | tel: 045-7")), "tel");
    EXPECT_EQ(c.field_at(ids("name: A | te")), "");
    EXPECT_EQ(c.field_at(ids("cur: JPY | item: お茶 ; 1 ; 100 ; 1")), "item:3");
    EXPECT_EQ(c.field_at(ids("item: お茶 ; 1 ; 10")), "item:2");
    EXPECT_EQ(c.field_at(ids("item: A ; 1 ; 1 ; 1 | total: 5")), "total");
}

TEST_F(CopyConstraintTest, ForbidsDigitsThatLeaveThePrintedRuns) {
    ex::CopyConstraint c(tok, kShippedVocab, {"店\nTEL 045-717-0476\n合計 ¥1,200\n"});
    const int d2 = id_of("2"), d7 = id_of("7"), d4 = id_of("4"), dash = id_of("-");
    ASSERT_GE(d2, 0);
    ASSERT_GE(d7, 0);
    ASSERT_GE(dash, 0);
    // r = "1": a printed run, continued only by "12..." (1200); "17" is not printed.
    auto l = run(c, "tel: 045-1");
    EXPECT_EQ(l[d2], 0.0f);
    EXPECT_TRUE(std::isinf(l[d7]));
    EXPECT_EQ(l[dash], 0.0f);  // "1" is complete: the number may end
    // r = "71": not printed; must continue to "717", nothing else.
    l = run(c, "tel: 045-71");
    EXPECT_EQ(l[d7], 0.0f);
    EXPECT_TRUE(std::isinf(l[d2]));
    EXPECT_TRUE(std::isinf(l[dash]));
    EXPECT_TRUE(std::isinf(l[1]));  // nor EOS
    // Amounts too; "4" starts no printed run of this receipt.
    l = run(c, "tel: 045-717-0476 | total: ");
    EXPECT_EQ(l[id_of("1")], 0.0f);
    EXPECT_TRUE(std::isinf(l[d4]));
}

TEST_F(CopyConstraintTest, DecimalAmountsFollowThePrintedNumber) {
    ex::CopyConstraint c(tok, kShippedVocab, {"GST ID 001234567890\nTOTAL 476.80\nCASH 500.00\n"});
    const int dot = id_of("."), d8 = id_of("8"), d7 = id_of("7");
    ASSERT_GE(dot, 0);
    // The point after "476" is allowed (476.80 is printed),
    auto l = run(c, "total: 476");
    EXPECT_EQ(l[dot], 0.0f);
    // and after "476." only "8" continues it.
    l = run(c, "total: 476.");
    EXPECT_EQ(l[d8], 0.0f);
    EXPECT_TRUE(std::isinf(l[d7]));
    // A point after "0012" is not printed: forbidden (and "0012" is no complete run, so digits must follow).
    // (net: the total keeps to the numbers near TOTAL, and the GST line is not one of them.)
    l = run(c, "net: 0012");
    EXPECT_TRUE(std::isinf(l[dot]));
    // In a phone number the point is plain text.
    l = run(c, "tel: 476");
    EXPECT_EQ(l[dot], 0.0f);
}

TEST_F(CopyConstraintTest, LeavesOtherFieldsAndLostNumbersAlone) {
    ex::CopyConstraint c(tok, kShippedVocab, {"TEL 045-717-0476\n"});
    for (const char* g : {"name: 045-71", "date: 2024-0", "tel: 045-99", "item: A ; 1"}) {
        const auto l = run(c, g);
        for (float v : l) ASSERT_EQ(v, 0.0f) << g;
    }
    // A source index the processor does not know is ignored, not a crash.
    std::vector<float> logits(kShippedVocab, 0.0f);
    c.process(5, ids("tel: 0"), logits.data(), kShippedVocab);
    for (float v : logits) ASSERT_EQ(v, 0.0f);
}

TEST(TotalWindowRuns, NumbersNearTotalKeywordsOnly) {
    const std::string en = "ITEM A 12.50\nSUBTOTAL\n80.90\nCASH 100.00\nCHANGE 19.10\nTotal Rounded:\n80.90\nTHANK YOU 2";
    const auto runs = ex::total_window_runs(en);
    EXPECT_TRUE(has(runs, "80.90"));
    EXPECT_TRUE(has(runs, "100.00"));   // two lines after SUBTOTAL
    EXPECT_FALSE(has(runs, "12.50"));  // before any keyword
    EXPECT_FALSE(has(runs, "19.10"));  // three lines after SUBTOTAL, and before "Total Rounded"
    const auto ja = ex::total_window_runs("りんご\n¥180\n小計\n¥5,445\n外税8%\n¥424\nお会計\n¥5,882\n預り\n¥6,000");
    EXPECT_TRUE(has(ja, "5882"));
    EXPECT_FALSE(has(ja, "6000"));     // three lines after お会計
    EXPECT_FALSE(has(ja, "180"));
    EXPECT_FALSE(has(ja, "424"));      // 小計 is not a total keyword
    EXPECT_TRUE(ex::total_window_runs("no keyword 12\n34").empty());
}

TEST_F(CopyConstraintTest, TotalKeepsToTheTotalWindow) {
    ex::CopyConstraint c(tok, kShippedVocab, {"ITEM 12.50\nTOTAL\n80.90"});
    const int d1 = id_of("1"), d8 = id_of("8");
    ASSERT_GE(d1, 0);
    ASSERT_GE(d8, 0);
    const auto total = run(c, "name: X | total: ");
    EXPECT_TRUE(std::isinf(total[size_t(d1)]));   // 12.50 is printed, but not near TOTAL
    EXPECT_FALSE(std::isinf(total[size_t(d8)]));
    const auto net = run(c, "name: X | net: ");
    EXPECT_FALSE(std::isinf(net[size_t(d1)]));    // other amounts may use any printed run
}

TEST_F(CopyConstraintTest, TaxStaysBelowAShareOfTheNetAmount) {
    ex::CopyConstraint c(tok, kShippedVocab, {"小計\n¥1,200\n消費税\n¥96\nお会計\n¥1,296\n"});
    const int d2 = id_of("2"), d9 = id_of("9");
    ASSERT_GE(d2, 0);
    ASSERT_GE(d9, 0);
    // After "net: 1200 |" the tax may start 96 but not 12.. (1200 and 1296 are above 30% of the net amount).
    EXPECT_FALSE(std::isinf(run(c, "net: 1200 | tax: ")[size_t(d9)]));
    EXPECT_TRUE(std::isinf(run(c, "net: 1200 | tax: 1")[size_t(d2)]));
    // Without a net amount any printed run may be written.
    EXPECT_FALSE(std::isinf(run(c, "tax: 1")[size_t(d2)]));
}

TEST_F(CopyConstraintTest, YenItemAmountsHoldNoLetters) {
    // The OCR printed 385 as "3B5" (digit_runs reads it as 385). In a yen item amount, after "3" the model may go
    // on with "8" or end the amount with a separator, but not copy the letter "B" nor end the output there.
    ex::CopyConstraint c(tok, kShippedVocab, {"りんご\n¥3B5\n3個\n合計\n¥385\n"});
    const int d8 = id_of("8"), bar = id_of("▁|"), sp = id_of("▁"), minus = id_of("-"), letter_b = id_of("B");
    ASSERT_GE(d8, 0);
    ASSERT_GE(bar, 0);
    ASSERT_GE(sp, 0);
    ASSERT_GE(minus, 0);
    ASSERT_GE(letter_b, 0);
    auto l = run(c, "cur: JPY | item: りんご ; 1 ; 385 ; 3");
    EXPECT_EQ(l[size_t(d8)], 0.0f);
    EXPECT_EQ(l[size_t(bar)], 0.0f);  // "3" is printed: the amount may end
    EXPECT_TRUE(std::isinf(l[size_t(letter_b)]));
    EXPECT_TRUE(std::isinf(l[1]));  // nor the output
    // Before the number: the space and a discount's minus, not text.
    l = run(c, "cur: JPY | item: りんご ; 1 ; 385 ;");
    EXPECT_EQ(l[size_t(sp)], 0.0f);
    EXPECT_EQ(l[size_t(minus)], 0.0f);
    EXPECT_TRUE(std::isinf(l[size_t(letter_b)]));
    // Other currencies and other fields keep the letter (and the end) allowed after a printed run.
    l = run(c, "cur: MYR | item: りんご ; 1 ; 385 ; 3");
    EXPECT_EQ(l[size_t(letter_b)], 0.0f);
    EXPECT_EQ(l[1], 0.0f);
    l = run(c, "cur: JPY | total: 385");
    EXPECT_EQ(l[size_t(letter_b)], 0.0f);
}

TEST(TotalFallback, LargestAmountWithCentsNearATotalKeyword) {
    // 80.91 and 84.00 are near TOTAL; 99.99 is not (before any keyword); 2 has no cents.
    EXPECT_EQ(ex::total_fallback("ITEM 99.99\nTOTAL QTY\n2\nTOTAL SALES :\n80.91\nTOTAL\n84.00\n"), 84.0);
    EXPECT_EQ(ex::total_fallback("GRAND TOTAL\nRM1,234.50\n"), 1234.5);
    EXPECT_EQ(ex::total_fallback("合計\n¥3,021\n"), std::nullopt);  // no cents: no guess
    EXPECT_EQ(ex::total_fallback("ITEM 12.50\n"), std::nullopt);   // no total keyword
    // The keyword with a letter lost to OCR.
    EXPECT_EQ(ex::total_fallback("GST 6%\n1.37\nTOTA\n24.25\nVISA\n24.25\n"), 24.25);
    EXPECT_EQ(ex::total_fallback("SUBTTAL\n$50.24\nTAX 6.25%\n$3.14\nTotl\n(Incluive G5T)\n53.38\nCASH\n$73.00\n"), 53.38);
    // The cash given is no total, even next to AMOUNT.
    EXPECT_EQ(ex::total_fallback("TOTAL AMT PAYABLE :\n159.00\nPAID AMOUNT :\n200.00\nCHANGE :\n41.00"), 159.0);
    // The copy constraint's window still holds every keyword line.
    const auto runs = ex::total_window_runs("PAID AMOUNT :\n200.00\n");
    EXPECT_NE(std::find(runs.begin(), runs.end(), "200.00"), runs.end());
    EXPECT_TRUE(ex::total_window_runs("PAID AMOUNT :\n200.00\n", true).empty());
}
