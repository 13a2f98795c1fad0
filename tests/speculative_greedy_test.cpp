// Speculative greedy decoding on the host (prompt-lookup drafts, EngineOptions::draft_tokens) on the CPU engine:
// the lookup itself, then the same tokens as plain greedy search on the tiny golden models (batches, chunking,
// min_new_tokens, a logits processor) and the same extractions from the shipped receipt model in fewer steps.
#include <gtest/gtest.h>

#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>

#include "generate/prompt_lookup.h"
#include "golden_util.h"
#include "receipt/engine.h"
#include "receipt/errors.h"
#include "receipt/extractor.h"
#include "receipt/model.h"
#include "shipped_examples.h"
#include "test_files.h"
#include "test_processors.h"

using receipt::prompt_lookup_drafts;
using V = std::vector<int>;

TEST(PromptLookup, NoOutputOrNoDraftsAsked) {
    EXPECT_TRUE(prompt_lookup_drafts({5, 6, 7}, {}, 4).empty());
    EXPECT_TRUE(prompt_lookup_drafts({5, 6, 7}, {5}, 0).empty());
}

TEST(PromptLookup, ContinuesTheLatestOccurrenceOfTheLongestSuffix) {
    // Output ends in 8 9: the source has "8 9" twice; the latest one is followed by 4 4 1.
    EXPECT_EQ(prompt_lookup_drafts({8, 9, 3, 8, 9, 4, 4, 1}, {7, 8, 9}, 3), (V{4, 4, 1}));
    // The 3-token suffix 7 8 9 wins over a later 2-token match.
    EXPECT_EQ(prompt_lookup_drafts({7, 8, 9, 2, 2, 8, 9, 5}, {7, 8, 9}, 2), (V{2, 2}));
    // Fewer drafts than asked are never padded from elsewhere: past the context's end the continuation repeats.
    EXPECT_EQ(prompt_lookup_drafts({1, 2}, {2}, 3), (V{2, 2, 2}));
    // The output itself is context too: "3 4" occurred earlier in the output.
    EXPECT_EQ(prompt_lookup_drafts({9}, {3, 4, 5, 6, 3, 4}, 4), (V{5, 6, 3, 4}));
}

TEST(PromptLookup, DraftsFromTheExtraContextComeBeforeTheSource) {
    const V extra = {40, 41, 42, 43};
    // "41" occurs only in the extra context: its continuation.
    EXPECT_EQ(prompt_lookup_drafts({1, 2}, {41}, 2, &extra), (V{42, 43}));
    // "2" occurs in the source too, which comes later in the context: the source wins.
    const V extra2 = {2, 9, 9};
    EXPECT_EQ(prompt_lookup_drafts({2, 7, 8}, {2}, 2, &extra2), (V{7, 8}));
    // No extra context: as before.
    EXPECT_TRUE(prompt_lookup_drafts({1, 2}, {41}, 2, nullptr).empty());
}

TEST(PromptLookup, NothingFoundGivesNoDrafts) {
    EXPECT_TRUE(prompt_lookup_drafts({1, 2, 3}, {4}, 5).empty());
}

namespace {

std::unique_ptr<receipt::Engine> cpu_engine(std::shared_ptr<const receipt::Model> m, int max_batch, int drafts) {
    receipt::EngineOptions eo;
    eo.device = receipt::Device::kCpu;
    eo.max_batch_size = max_batch;
    eo.max_input_tokens = 256;
    eo.max_total_tokens = 48;
    eo.draft_tokens = drafts;
    return receipt::make_engine(std::move(m), eo);
}

void expect_same(const std::vector<receipt::GenerationResult>& a, const std::vector<receipt::GenerationResult>& b,
                 const std::string& what) {
    ASSERT_EQ(a.size(), b.size()) << what;
    for (size_t i = 0; i < a.size(); ++i) {
        EXPECT_EQ(a[i].ids, b[i].ids) << what << ", sequence " << i;
        EXPECT_NEAR(a[i].score, b[i].score, 1e-3f * (1.0f + std::abs(a[i].score))) << what << ", sequence " << i;
        if (std::isfinite(a[i].min_margin) || std::isfinite(b[i].min_margin))
            EXPECT_NEAR(a[i].min_margin, b[i].min_margin, 1e-3f) << what << ", sequence " << i;
    }
}

}  // namespace

TEST(SpeculativeGreedyCpu, SameTokensAsGreedyOnTinyGoldens) {
    for (const char* name : {"t5-tiny-v10", "t5-tiny-v11"}) {
        auto model = receipt::Model::load(std::string(RECEIPT_SOURCE_DIR) + "/tests/golden/" + name);
        auto inputs = receipt::test::load_golden(name)["input_ids"].get<std::vector<std::vector<int>>>();
        inputs.push_back(inputs[0]);
        receipt::GenerationOptions plain;
        plain.max_new_tokens = 40;
        receipt::GenerationOptions min_new = plain;
        min_new.min_new_tokens = 30;
        receipt::GenerationOptions processed = plain;
        processed.logits_processor =
            std::make_shared<receipt_test::BanByIndexProcessor>(model->config().vocab_size);
        for (const auto& [label, options] : {std::pair<const char*, receipt::GenerationOptions>{"plain", plain},
                                             {"min_new_tokens", min_new},
                                             {"processor", processed}}) {
            // Chunks of 2 and 1 sequences: the CPU runs drafts for calls of at most kMaxHostSpeculativeBatch.
            for (int max_batch : {receipt::kMaxHostSpeculativeBatch, 1}) {
                const auto base = cpu_engine(model, max_batch, 0)->generate(inputs, options);
                for (int drafts : {1, 3, 7}) {
                    auto e = cpu_engine(model, max_batch, drafts);
                    const auto got = e->generate(inputs, options);
                    expect_same(base, got, std::string(name) + " " + label + ", " + std::to_string(drafts) +
                                               " drafts, max batch " + std::to_string(max_batch));
                    const auto st = e->speculation_stats();
                    long long tokens = 0;
                    for (const auto& r : got) tokens += static_cast<long long>(r.ids.size());
                    EXPECT_EQ(st.tokens, tokens);
                    EXPECT_GT(st.steps, 0);
                }
            }
        }
    }
}

TEST(SpeculativeGreedyCpu, BeamSearchIgnoresDrafts) {
    auto model = receipt::Model::load(std::string(RECEIPT_SOURCE_DIR) + "/tests/golden/t5-tiny-v10");
    const auto inputs = receipt::test::load_golden("t5-tiny-v10")["input_ids"].get<std::vector<std::vector<int>>>();
    receipt::GenerationOptions beam;
    beam.num_beams = 3;
    beam.max_new_tokens = 12;
    const auto a = cpu_engine(model, 16, 0)->generate(inputs, beam);
    auto e = cpu_engine(model, 16, 5);
    const auto b = e->generate(inputs, beam);
    for (size_t i = 0; i < a.size(); ++i) EXPECT_EQ(a[i].ids, b[i].ids) << "sequence " << i;
    EXPECT_EQ(e->speculation_stats().steps, 0);
}

TEST(SpeculativeGreedyCpu, RejectsTooManyDrafts) {
    auto model = receipt::Model::load(std::string(RECEIPT_SOURCE_DIR) + "/tests/golden/t5-tiny-v10");
    EXPECT_THROW(cpu_engine(model, 4, receipt::kMaxDraftTokens + 1), receipt::Error);
    EXPECT_THROW(cpu_engine(model, 4, receipt::kDraftTokensByDevice - 1), receipt::Error);
}

// kDraftTokensByDevice (the CLI's and the server's default) is kCpuDraftTokens on the CPU, used for calls of at
// most kMaxHostSpeculativeBatch sequences; a larger call decodes one token per step.
TEST(SpeculativeGreedyCpu, DraftsByDeviceRunForSmallCallsOnTheCpu) {
    auto model = receipt::Model::load(std::string(RECEIPT_SOURCE_DIR) + "/tests/golden/t5-tiny-v10");
    const auto inputs = receipt::test::load_golden("t5-tiny-v10")["input_ids"].get<std::vector<std::vector<int>>>();
    ASSERT_GT(inputs.size(), size_t(receipt::kMaxHostSpeculativeBatch));
    receipt::GenerationOptions o;
    o.max_new_tokens = 12;
    auto e = cpu_engine(model, 16, receipt::kDraftTokensByDevice);
    EXPECT_NE(e->describe().find(std::to_string(receipt::kCpuDraftTokens) + " draft tokens"), std::string::npos)
        << e->describe();
    expect_same(cpu_engine(model, 16, 0)->generate(inputs, o), e->generate(inputs, o), "by device, whole batch");
    EXPECT_EQ(e->speculation_stats().steps, 0);
    const std::vector<std::vector<int>> one{inputs[1]};
    expect_same(cpu_engine(model, 16, 0)->generate(one, o), e->generate(one, o), "by device, one sequence");
    EXPECT_GT(e->speculation_stats().steps, 0);
}

// The shipped model with the extraction's constraints (logits processors, extra passes): identical JSON and raw
// targets with and without drafts, on the example receipts and the committed training sample.
TEST(SpeculativeGreedyCpu, ShippedModelExtractsTheSameInFewerSteps) {
    const std::string dir = std::string(RECEIPT_SOURCE_DIR) + "/models/receipt-t5-small";
    if (!std::filesystem::exists(dir + "/model.safetensors")) GTEST_SKIP() << "bundled model not found";
    const std::vector<std::string> texts = receipt::test::example_and_sample_texts();
    ASSERT_GE(texts.size(), 20u);

    auto model = receipt::Model::load(dir);
    receipt::EngineOptions eo;
    eo.device = receipt::Device::kCpu;
    eo.max_total_tokens = 513;
    eo.max_batch_size = 8;
    receipt::Extractor plain(model, eo);
    eo.draft_tokens = 6;
    receipt::Extractor batched(model, eo);
    eo.max_batch_size = 1;  // one sequence per step: steps are per receipt
    receipt::Extractor single(model, eo);
    const auto a = plain.extract(texts);
    for (receipt::Extractor* ex : {&batched, &single}) {
        const auto b = ex->extract(texts);
        ASSERT_EQ(a.size(), b.size());
        for (size_t i = 0; i < a.size(); ++i) {
            EXPECT_EQ(a[i].target_text, b[i].target_text) << "receipt " << i;
            EXPECT_EQ(a[i].fields_json, b[i].fields_json) << "receipt " << i;
        }
    }
    const auto st = single.speculation_stats();
    ASSERT_GT(st.steps, 0);
    const double per_step = double(st.tokens) / double(st.steps);
    std::printf("shipped model, 6 drafts, batch 1: %lld tokens in %lld steps (every pass) = %.2f tokens per step\n",
                st.tokens, st.steps, per_step);
    EXPECT_GT(per_step, 1.5);  // receipt targets copy much of the receipt
}
