// Tokenizer goldens: tests/golden/tokenizer/<model>.{inp,out,dec} made with Hugging Face's T5Tokenizer.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "receipt/errors.h"
#include "receipt/tokenizer.h"

using namespace receipt;

namespace {

std::vector<std::string> lines(const std::string& path) {
    std::ifstream in(path);
    std::vector<std::string> out;
    std::string l;
    while (std::getline(in, l)) out.push_back(l);
    return out;
}

std::vector<int> parse_ids(const std::string& s) {
    std::istringstream ss(s);
    std::vector<int> ids;
    int v;
    while (ss >> v) ids.push_back(v);
    return ids;
}

std::string dir() { return std::string(RECEIPT_SOURCE_DIR) + "/tests/golden/"; }

class TokenizerGolden : public ::testing::TestWithParam<std::string> {};

TEST_P(TokenizerGolden, EncodeMatchesHuggingFace) {
    Tokenizer tok(dir() + GetParam() + "/spiece.model");
    const auto inp = lines(dir() + "tokenizer/" + GetParam() + ".inp");
    const auto out = lines(dir() + "tokenizer/" + GetParam() + ".out");
    ASSERT_FALSE(inp.empty());
    ASSERT_EQ(inp.size(), out.size());
    for (size_t i = 0; i < inp.size(); ++i) EXPECT_EQ(tok.encode(inp[i]), parse_ids(out[i])) << "line " << i + 1 << ": " << inp[i];
}

TEST_P(TokenizerGolden, DecodeMatchesHuggingFace) {
    Tokenizer tok(dir() + GetParam() + "/spiece.model");
    const auto out = lines(dir() + "tokenizer/" + GetParam() + ".out");
    const auto dec = lines(dir() + "tokenizer/" + GetParam() + ".dec");
    ASSERT_EQ(out.size(), dec.size());
    for (size_t i = 0; i < out.size(); ++i) EXPECT_EQ(tok.decode(parse_ids(out[i])), dec[i]) << "line " << i + 1;
    const auto ids = lines(dir() + "tokenizer/" + GetParam() + "-decode.ids");
    const auto want = lines(dir() + "tokenizer/" + GetParam() + "-decode.dec");
    ASSERT_EQ(ids.size(), want.size());
    for (size_t i = 0; i < ids.size(); ++i) EXPECT_EQ(tok.decode(parse_ids(ids[i])), want[i]) << "decode case " << i + 1;
}

INSTANTIATE_TEST_SUITE_P(Models, TokenizerGolden, ::testing::Values("t5-tiny-v10", "t5-tiny-v11"),
                         [](const auto& info) { return info.param == "t5-tiny-v10" ? "v10" : "v11"; });

TEST(Tokenizer, MissingFileIsModelError) { EXPECT_THROW(Tokenizer("/nonexistent/spiece.model"), ModelError); }

TEST(Tokenizer, SentencePieceModeKeepsByteFallback) {
    Tokenizer tok(dir() + "t5-tiny-v11/spiece.model", TokenizerMode::kSentencePiece);
    const std::string text = "領収書 🧾 合計";
    EXPECT_EQ(tok.decode(tok.encode(text)), text);
}

}  // namespace
