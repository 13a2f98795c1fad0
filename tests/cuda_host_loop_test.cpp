// The CUDA engine's pipelined host greedy loop (CudaT5Engine::generate_greedy_host_pipelined) on the shipped
// receipt model, whose outputs end with EOS at different steps: rows that end on the device's own guess stay in
// the batch until the live rows fit a smaller bucket, and the results stay bit-identical to the unpipelined loop.
// Skips without a usable GPU or without the shipped model.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <set>
#include <string>
#include <unistd.h>
#include <vector>

#include "receipt/engine.h"
#include "receipt/model.h"
#include "receipt/tokenizer.h"
#include "test_files.h"
#include "test_processors.h"

namespace fs = std::filesystem;
using receipt::DType;
using receipt::GenerationOptions;
using receipt::GenerationResult;

namespace {

const std::string kModelDir = std::string(RECEIPT_SOURCE_DIR) + "/models/receipt-t5-small";

using receipt::test::read_file;

// The first n lines of text (all of it when it has fewer).
std::string first_lines(const std::string& text, int n) {
    size_t pos = 0;
    for (int i = 0; i < n && pos != std::string::npos; ++i) {
        pos = text.find('\n', pos);
        if (pos != std::string::npos) ++pos;
    }
    return pos == std::string::npos ? text : text.substr(0, pos);
}

// N from "pipelined host steps S (N run again)" in an engine description; -1 when absent.
long run_again(const std::string& describe) {
    const std::string key = "pipelined host steps ";
    const size_t p = describe.find(key);
    if (p == std::string::npos) return -1;
    const size_t open = describe.find('(', p);
    return open == std::string::npos ? -1 : std::strtol(describe.c_str() + open + 1, nullptr, 10);
}

std::unique_ptr<receipt::Engine> engine(std::shared_ptr<const receipt::Model> m, const std::string& plan_dir) {
    receipt::EngineOptions eo;
    eo.device = receipt::Device::kCuda;
    eo.dtype = DType::kF16;
    eo.max_batch_size = 8;
    eo.max_input_tokens = 512;
    eo.max_total_tokens = 401;
    eo.plan_path = plan_dir + "/host-loop-fp16.plan";
    eo.rebuild_plan = true;
    return receipt::make_engine(std::move(m), eo);
}

}  // namespace

TEST(CudaHostLoopTest, RowsEndingOnTheGuessStayUntilTheBucketShrinks) {
    if (!receipt::cuda_available()) GTEST_SKIP() << "no usable CUDA GPU";
    if (!fs::exists(kModelDir + "/model.safetensors")) GTEST_SKIP() << "no shipped model at " << kModelDir;
    const std::string dir = (fs::temp_directory_path() / ("receipt_host_loop_" + std::to_string(::getpid()))).string();
    fs::create_directories(dir);
    auto model = receipt::Model::load(kModelDir);
    receipt::Tokenizer tok(model->tokenizer_path(), receipt::TokenizerMode::kSentencePiece);
    // Six receipts of different lengths (three examples and the first lines of each), one batch of bucket 8.
    std::vector<std::vector<int>> inputs;
    for (const char* name : {"receipt-en", "receipt-ja-konbini", "receipt-ja-super"}) {
        const std::string text = read_file(std::string(RECEIPT_SOURCE_DIR) + "/examples/" + name + ".txt");
        inputs.push_back(tok.encode(text));
        inputs.push_back(tok.encode(first_lines(text, 6)));
    }
    GenerationOptions o;
    o.max_new_tokens = 400;
    // Changes nothing: every device guess is the host's choice, so only ending rows can cost a step run again.
    o.logits_processor = std::make_shared<receipt_test::IdentityProcessor>();

    auto piped_engine = engine(model, dir);
    const auto piped = piped_engine->generate(inputs, o);
    const std::string described = piped_engine->describe();
    ASSERT_EQ(setenv("RECEIPT_CUDA_HOST_PIPELINE", "0", 1), 0);
    auto plain_engine = engine(model, dir);
    unsetenv("RECEIPT_CUDA_HOST_PIPELINE");
    const auto plain = plain_engine->generate(inputs, o);

    ASSERT_EQ(piped.size(), inputs.size());
    ASSERT_EQ(plain.size(), inputs.size());
    std::set<size_t> lengths;
    for (size_t i = 0; i < plain.size(); ++i) {
        EXPECT_EQ(plain[i].ids, piped[i].ids) << "seq " << i;
        EXPECT_EQ(0, std::memcmp(&plain[i].score, &piped[i].score, 4)) << "seq " << i << " score";
        EXPECT_EQ(0, std::memcmp(&plain[i].min_margin, &piped[i].min_margin, 4)) << "seq " << i << " margin";
        ASSERT_FALSE(piped[i].ids.empty());
        EXPECT_EQ(piped[i].ids.back(), model->config().eos_token_id) << "seq " << i << " did not end";
        lengths.insert(piped[i].ids.size());
    }
    // Rows end at several different steps; with six rows in bucket 8, only the shrinks to buckets 4, 2 and 1 run a
    // step again (each ended row used to).
    EXPECT_GE(lengths.size(), 4u);
    const long again = run_again(described);
    EXPECT_GE(again, 0) << described;
    EXPECT_LE(again, 3) << described;
    fs::remove_all(dir);
}
