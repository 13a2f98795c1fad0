// Name constraint: compact text, "is this name printed", and which tokens the name pass allows.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "extract/name_constraint.h"
#include "extract/target_tokens.h"
#include "receipt/errors.h"
#include "receipt/tokenizer.h"
#include "shipped_tokenizer.h"

namespace ex = receipt::extract;
using receipt::Tokenizer;
using receipt::TokenizerMode;

namespace {

const std::string kReceipt = "ナチュラルローソン\n六本木駅東口店\n〒106-0032 東京都港区六本木1-2-3\nTEL 03-1234-5678\n合計 ¥1,200";

class NameConstraintTest : public ::testing::Test {
protected:
    NameConstraintTest() : tok(kShippedSpiece, TokenizerMode::kSentencePiece), texts(ex::token_texts(tok, kShippedVocab)) {}
    // The text of every token allowed after `generated` (logits all 0 before process()).
    std::vector<std::string> allowed(const ex::NameConstraint& c, const std::string& generated) const {
        std::vector<float> logits(kShippedVocab, 0.0f);
        c.process(0, tok.encode(generated, false), logits.data(), kShippedVocab);
        std::vector<std::string> out;
        for (int id = 0; id < kShippedVocab; ++id)
            if (std::isfinite(logits[size_t(id)])) out.push_back(id == tok.eos_id() ? "</s>" : texts[size_t(id)]);
        return out;
    }
    Tokenizer tok;
    std::vector<std::string> texts;
};

}  // namespace

TEST(CompactText, DropsWhitespaceAndKeepsWordAndLineStarts) {
    const auto c = ex::compact_text("AB CD\n　EF\tG");
    EXPECT_EQ(c.text, "ABCDEFG");
    EXPECT_EQ(c.word_starts, (std::vector<int>{0, 2, 4, 6}));
    EXPECT_EQ(c.line_starts, (std::vector<int>{0, 4}));
    EXPECT_EQ(ex::strip_spaces(" a b\n"), "ab");
}

TEST(NameIsPrinted, WordAlignedWithinTwoLines) {
    EXPECT_TRUE(ex::name_is_printed(kReceipt, "ナチュラルローソン"));
    EXPECT_TRUE(ex::name_is_printed(kReceipt, "ナチュラルローソン 六本木駅東口店"));
    EXPECT_TRUE(ex::name_is_printed(kReceipt, "ナチュラルローソン六本木駅東口店"));  // spaces are free
    EXPECT_FALSE(ex::name_is_printed(kReceipt, "ナチョラルソルラーメン 六本木駅東口店"));
    EXPECT_FALSE(ex::name_is_printed(kReceipt, "チュラルローソン"));    // not from a word start
    EXPECT_FALSE(ex::name_is_printed(kReceipt, "ナチュラルロー"));      // not to a word end
    EXPECT_FALSE(ex::name_is_printed(kReceipt, "ナチュラルローソン 六本木駅東口店 〒106-0032"));  // three lines
    EXPECT_FALSE(ex::name_is_printed(kReceipt, ""));
}

TEST_F(NameConstraintTest, StartsAtAPrintedWord) {
    ex::NameConstraint c(tok, kShippedVocab, {kReceipt});
    const auto a = allowed(c, "name:");
    ASSERT_FALSE(a.empty());
    for (const auto& t : a) {
        const std::string s = ex::strip_spaces(t);
        if (s.empty() || s[0] == '|' || t == "</s>") continue;
        EXPECT_TRUE(ex::name_is_printed(kReceipt, s) || kReceipt.find(s) != std::string::npos) << t;
    }
    EXPECT_FALSE(has(a, "</s>"));  // an empty name cannot end: v is empty, not at a word end
}

TEST_F(NameConstraintTest, ContinuesOnlyWithPrintedText) {
    ex::NameConstraint c(tok, kShippedVocab, {kReceipt});
    const auto a = allowed(c, "name: ナチュラル");
    ASSERT_FALSE(a.empty());
    for (const auto& t : a) {
        const std::string s = ex::strip_spaces(t);
        ASSERT_FALSE(s.empty()) << "no space inside a printed word";
        EXPECT_EQ(std::string("ローソン").compare(0, s.size(), s), 0) << t;
        EXPECT_NE(t[0], ' ') << t;
    }
    // At a word end the name may end or go on to the next printed line.
    const auto b = allowed(c, "name: ナチュラルローソン");
    EXPECT_TRUE(has(b, "</s>"));
    bool bar = false, next_line = false;
    for (const auto& t : b) {
        bar |= ex::strip_spaces(t).rfind('|', 0) == 0;
        next_line |= ex::strip_spaces(t).rfind("六", 0) == 0;
    }
    EXPECT_TRUE(bar);
    EXPECT_TRUE(next_line);
}

TEST_F(NameConstraintTest, StopsAfterTheNameAndLeavesUnprintedNamesAlone) {
    ex::NameConstraint c(tok, kShippedVocab, {kReceipt});
    EXPECT_EQ(allowed(c, "name: ナチュラルローソン | addr:"), std::vector<std::string>{"</s>"});
    EXPECT_EQ(allowed(c, "").size(), size_t(kShippedVocab));                // before "name:" the model is free
    EXPECT_EQ(allowed(c, "name: セブン").size(), size_t(kShippedVocab));     // not printed: nothing to copy
}

TEST(TextIsPrinted, AnyFieldWithinItsLines) {
    EXPECT_TRUE(ex::text_is_printed(kReceipt, "東京都港区六本木1-2-3", 4));
    EXPECT_TRUE(ex::text_is_printed(kReceipt, "六本木駅東口店 〒106-0032 東京都港区六本木1-2-3 TEL", 3));
    EXPECT_FALSE(ex::text_is_printed(kReceipt, "六本木駅東口店 〒106-0032 東京都港区六本木1-2-3 TEL", 2));
    EXPECT_FALSE(ex::text_is_printed(kReceipt, "東京都港区赤坂1-2-3", 4));
}

TEST_F(NameConstraintTest, AddressPassRepeatsThePrefixThenCopiesTheAddress) {
    const std::string head = "name: ナチュラルローソン | addr:";
    const std::vector<int> prefix = tok.encode(head, false);
    ASSERT_GE(prefix.size(), 2u);
    ex::NameConstraint c(ex::NameConstraint::make_vocab(tok, kShippedVocab), {kReceipt}, ex::PrintedField{"addr", 4},
                         {prefix});
    // Inside the prefix only its next token is allowed, whatever the field.
    EXPECT_EQ(allowed(c, "").size(), 1u);
    std::vector<float> logits(kShippedVocab, 0.0f);
    c.process(0, std::vector<int>(prefix.begin(), prefix.begin() + 1), logits.data(), kShippedVocab);
    EXPECT_TRUE(std::isfinite(logits[size_t(prefix[1])]));
    EXPECT_EQ(std::count_if(logits.begin(), logits.end(), [](float x) { return std::isfinite(x); }), 1);
    // After it, the address starts at a printed word and may span the lines after it.
    const auto a = allowed(c, head + " 東京都港区六本木1-2-3");
    EXPECT_TRUE(has(a, "</s>"));
    bool next_line = false;
    for (const auto& t : a) next_line |= ex::strip_spaces(t).rfind("TEL", 0) == 0 || ex::strip_spaces(t) == "T";
    EXPECT_TRUE(next_line);
    EXPECT_LT(allowed(c, head + " 東京都").size(), size_t(kShippedVocab));
    // Past the address only EOS.
    EXPECT_EQ(allowed(c, head + " 東京都港区六本木1-2-3 | tel:"), std::vector<std::string>{"</s>"});
    // One prefix per text.
    const auto vocab = ex::NameConstraint::make_vocab(tok, kShippedVocab);
    const std::vector<std::string> two = {kReceipt, kReceipt};
    EXPECT_THROW(ex::NameConstraint(vocab, two, ex::PrintedField{"addr", 4}, {prefix}), receipt::Error);
}

TEST(NamePrintedButOne, OneCharacterTheReceiptLacks) {
    const std::string text = "ファミリーマー\n本町ショッピングセンター店\n千葉県船橋市本町6-19-6\n";
    EXPECT_TRUE(ex::name_printed_but_one(text, "ファミリーマート 本町ショッピングセンター店"));
    EXPECT_TRUE(ex::name_printed_but_one("ジマ 桜木町駅西口店\n", "ノジマ 桜木町駅西口店"));
    // Printed as it is, two characters away, a digit, or too short.
    EXPECT_FALSE(ex::name_printed_but_one(text, "ファミリーマー 本町ショッピングセンター店"));
    EXPECT_FALSE(ex::name_printed_but_one("ファミリー\n", "ファミリーマート"));
    EXPECT_FALSE(ex::name_printed_but_one("SHOP 2\n", "SHOP 12"));
    // Latin names: only when with the letter left out they are a whole line.
    EXPECT_FALSE(ex::name_printed_but_one("YONG SOON FATT S/B\n", "Y SOON FATT S/B"));
    EXPECT_TRUE(ex::name_printed_but_one("TRGET\n1234 Oak Ave\n", "TARGET"));
    EXPECT_TRUE(ex::name_printed_but_one("RSTORAN WAN SHENG\nNO.43, JALAN\n", "RESTORAN WAN SHENG"));
    EXPECT_TRUE(ex::name_printed_but_one("WHOLEFODS MARKET\n", "WHOLE FOODS MARKET"));
    EXPECT_FALSE(ex::name_printed_but_one("TRGET STORE\n", "TARGET"));   // a piece of a line
    EXPECT_FALSE(ex::name_printed_but_one("TGET\n", "TARGET"));          // two letters away
    EXPECT_FALSE(ex::name_printed_but_one("BOOTS\n", "BOOTS"));          // printed as it is
    EXPECT_FALSE(ex::name_printed_but_one("TRGET\nレジ\n", "TARGET"));  // Japanese receipt
    EXPECT_FALSE(ex::name_printed_but_one("AB\n", "ABC"));
    EXPECT_FALSE(ex::name_printed_but_one("", ""));
}
