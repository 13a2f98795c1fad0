// Receipt goldens: the bundled model on CPU turns tests/receipts/<name>.txt into <name>.expected.json.
// These are regression goldens of the shipped model's output (not ground truth; examples/*.json hold the truth):
// any change in tokenizer, engine, parser or model that alters an extraction shows up here.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "receipt/errors.h"
#include "receipt/extractor.h"
#include "receipt/model.h"
#include "receipt/receipt_schema.h"
#include "test_files.h"

using namespace receipt;
namespace fs = std::filesystem;

namespace {

const std::string kModel = std::string(RECEIPT_SOURCE_DIR) + "/models/receipt-t5-small";
const std::string kDir = std::string(RECEIPT_SOURCE_DIR) + "/tests/receipts";

using receipt::test::read_file;

class ReceiptGoldens : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        if (!fs::exists(fs::path(kModel) / "model.safetensors")) return;
        EngineOptions eo;
        eo.device = Device::kCpu;
        eo.n_threads = 2;
        extractor_ = new Extractor(Model::load(kModel), eo);
    }
    static void TearDownTestSuite() {
        delete extractor_;
        extractor_ = nullptr;
    }
    void SetUp() override {
        if (!extractor_) GTEST_SKIP() << "bundled model not found at " << kModel;
    }
    static Extractor* extractor_;
};
Extractor* ReceiptGoldens::extractor_ = nullptr;

TEST_F(ReceiptGoldens, ExtractionsMatchGoldens) {
    std::vector<std::string> names, texts;
    for (const auto& e : fs::directory_iterator(kDir))
        if (e.path().extension() == ".txt") names.push_back(e.path().stem().string());
    std::sort(names.begin(), names.end());
    ASSERT_FALSE(names.empty());
    for (const auto& n : names) texts.push_back(read_file(fs::path(kDir) / (n + ".txt")));
    const auto results = extractor_->extract(texts);  // one batch of mixed lengths
    for (size_t i = 0; i < names.size(); ++i) {
        const auto got = nlohmann::json::parse(results[i].fields_json);
        const auto want = nlohmann::json::parse(read_file(fs::path(kDir) / (names[i] + ".expected.json")));
        EXPECT_EQ(got, want) << names[i] << ": model output was: " << results[i].target_text;
    }
}

TEST_F(ReceiptGoldens, OutputIsSchemaShaped) {
    const auto r = extractor_->extract({read_file(fs::path(kDir) / "receipt-en.txt")});
    const auto j = nlohmann::json::parse(r[0].fields_json);
    for (const auto& k : receipt_field_names()) EXPECT_TRUE(j.contains(k)) << k;
    EXPECT_TRUE(j["line_items"].is_array());
    EXPECT_TRUE(j["warnings"].is_array());
    for (const char* k : {"net_amount", "total_tax_amount", "total_amount"})
        EXPECT_TRUE(j[k].is_null() || j[k].is_number()) << k;
    EXPECT_GT(r[0].n_input_tokens, 10);
    EXPECT_GT(r[0].n_output_tokens, 0);
}

TEST_F(ReceiptGoldens, TruncationWarnsOrRejects) {
    std::string longtext;
    for (int i = 0; i < 400; ++i) longtext += "ITEM " + std::to_string(i) + " 1.00\n";
    ExtractOptions o;
    o.generation.max_new_tokens = 8;
    const auto r = extractor_->extract({longtext}, o);
    EXPECT_EQ(r[0].n_input_tokens, extractor_->max_input_tokens());
    EXPECT_NE(r[0].fields_json.find("input_truncated"), std::string::npos);
    o.truncate = false;
    EXPECT_THROW(extractor_->extract({longtext}, o), InvalidInput);
    EXPECT_THROW(extractor_->extract({"   \n "}, o), InvalidInput);
}

}  // namespace
