// GenerationOptions::logits_processor on the CPU engine: it changes greedy output, sees each input under its index
// in the generate() call (also when the engine splits the call into chunks), and the result does not depend on how
// the call is chunked. The CUDA engine's host-greedy path is checked against this in cuda_engine_test.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <mutex>
#include <set>

#include "golden_util.h"
#include "receipt/engine.h"
#include "receipt/model.h"
#include "test_processors.h"

using receipt::GenerationOptions;
using receipt::GenerationResult;

namespace {

std::unique_ptr<receipt::Engine> cpu(std::shared_ptr<const receipt::Model> m, int max_batch) {
    receipt::EngineOptions eo;
    eo.device = receipt::Device::kCpu;
    eo.max_batch_size = max_batch;
    eo.max_input_tokens = 256;
    eo.max_total_tokens = 40;
    return receipt::make_engine(std::move(m), eo);
}

}  // namespace

TEST(LogitsProcessor, ChangesGreedyOutputAndSeesGlobalSourceIndex) {
    auto model = receipt::Model::load(std::string(RECEIPT_SOURCE_DIR) + "/tests/golden/t5-tiny-v10");
    auto inputs = receipt::test::load_golden("t5-tiny-v10")["input_ids"].get<std::vector<std::vector<int>>>();
    inputs.push_back(inputs[0]);  // 5 inputs: chunks of 2 + 2 + 1 below
    GenerationOptions plain;
    plain.max_new_tokens = 20;
    GenerationOptions with = plain;
    auto proc = std::make_shared<receipt_test::BanByIndexProcessor>(model->config().vocab_size);
    with.logits_processor = proc;

    const auto base = cpu(model, 16)->generate(inputs, plain);
    const auto whole = cpu(model, 16)->generate(inputs, with);
    const auto chunked = cpu(model, 2)->generate(inputs, with);
    ASSERT_EQ(whole.size(), 5u);
    ASSERT_EQ(chunked.size(), 5u);
    int changed = 0;
    for (size_t i = 0; i < 5; ++i) {
        EXPECT_EQ(whole[i].ids, chunked[i].ids) << "seq " << i << " depends on chunking";
        EXPECT_TRUE(std::isfinite(whole[i].score));
        changed += whole[i].ids != base[i].ids;
        // No chosen token is one the processor banned for that source and position.
        for (size_t t = 0; t < whole[i].ids.size(); ++t)
            EXPECT_FALSE(proc->banned(int(i), int(t), whole[i].ids[t])) << "seq " << i << " pos " << t;
    }
    EXPECT_GT(changed, 0) << "the processor never changed the output";
    // Input 4 repeats input 0 but has another index, so another ban pattern.
    EXPECT_EQ(proc->sources_seen(), (std::set<int>{0, 1, 2, 3, 4}));
}

TEST(LogitsProcessor, BeamSearchIgnoresIt) {
    auto model = receipt::Model::load(std::string(RECEIPT_SOURCE_DIR) + "/tests/golden/t5-tiny-v10");
    const auto inputs = receipt::test::load_golden("t5-tiny-v10")["input_ids"].get<std::vector<std::vector<int>>>();
    GenerationOptions beam;
    beam.num_beams = 3;
    beam.max_new_tokens = 12;
    GenerationOptions with = beam;
    with.logits_processor = std::make_shared<receipt_test::BanByIndexProcessor>(model->config().vocab_size);
    auto e = cpu(model, 16);
    const auto a = e->generate(inputs, beam);
    const auto b = e->generate(inputs, with);
    for (size_t i = 0; i < a.size(); ++i) EXPECT_EQ(a[i].ids, b[i].ids) << "seq " << i;
}

// A processor that forbids every token ends the sequence with EOS instead of picking from NaNs.
TEST(LogitsProcessor, ForbiddingEverythingEndsTheSequence) {
    struct BanAll final : receipt::LogitsProcessor {
        void process(int, const std::vector<int>&, float* logits, int vocab) const override {
            for (int i = 0; i < vocab; ++i) logits[i] = -INFINITY;
        }
    };
    auto model = receipt::Model::load(std::string(RECEIPT_SOURCE_DIR) + "/tests/golden/t5-tiny-v10");
    const auto inputs = receipt::test::load_golden("t5-tiny-v10")["input_ids"].get<std::vector<std::vector<int>>>();
    GenerationOptions o;
    o.max_new_tokens = 10;
    o.logits_processor = std::make_shared<BanAll>();
    const auto r = cpu(model, 16)->generate(inputs, o);
    for (const auto& g : r) EXPECT_EQ(g.ids, std::vector<int>{model->config().eos_token_id});
}
