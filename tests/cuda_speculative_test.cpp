// Speculative greedy decoding on the GPU (EngineOptions::draft_tokens; label: cuda): the draft-row self-attention
// against the CPU op, and whole generations against the CPU engine's plain greedy search, whose tokens they must
// reproduce exactly (fp32 and fp16-a32). Skips without a usable GPU; without RECEIPT_WITH_CUDA it compiles to one
// skipped test.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <unistd.h>
#include <vector>

#include "receipt/engine.h"
#include "receipt/extractor.h"

#if defined(RECEIPT_WITH_CUDA)
#include "cuda/cuda_engine.h"
#include "cuda_test_util.h"
#include "ops/attention.h"
#include "receipt/model.h"
#include "rounded_checkpoint.h"
#include "shipped_examples.h"
#include "test_processors.h"
#include "test_files.h"

using namespace cuda_test;
namespace fs = std::filesystem;

namespace {

const std::string kGolden = std::string(RECEIPT_SOURCE_DIR) + "/tests/golden/";

// B = 3 sequences of Q = 4 rows at positions pos[b] .. pos[b] + 3 in a cache of T_max = 70: one at the start, one
// in the middle, one whose rows 2 and 3 fall past the cache (their output must be 0 and nothing is written past
// T_max). The CPU side writes each sequence's Q keys / values into its cache, then runs the one-token op per row.
TEST_F(CudaOps, DraftSelfAttentionMatchesCpu) {
    const int B = 3, Q = 4, H = 8, T_max = 70;
    const std::vector<int> pos = {0, 37, 68};
    for (DType dt : kTypes)
        for (int K : {64, 20}) {
            const int HK = H * K, R = B * Q;
            const std::string what = std::string(name(dt)) + " K=" + std::to_string(K);
            auto cache_k = rounded(randn(size_t(B) * H * T_max * K, 3, 0.5f), dt);
            auto cache_v = rounded(randn(cache_k.size(), 4), dt);
            const auto qkv = rounded(randn(size_t(R) * 3 * HK, 5, 0.5f), dt);
            const auto bias = randn(size_t(H) * T_max, 6);
            auto dk = to_device(cache_k, dt), dv = to_device(cache_v, dt), dq = to_device(qkv, dt);
            auto db = to_device(bias, DType::kF32);
            rc::DeviceBuffer dpos(B * 4), dctx(size_t(R) * HK * 4);
            RECEIPT_CUDA_CHECK(cudaMemcpy(dpos.get(), pos.data(), B * 4, cudaMemcpyHostToDevice));
            rc::draft_self_attention_cuda(dt, dq.get(), dk.get(), dv.get(), db.as<float>(), B, Q, H, K, T_max,
                                          dpos.as<int>(), dctx.get(), nullptr);
            RECEIPT_CUDA_CHECK(cudaDeviceSynchronize());
            const auto got = to_host(dctx, size_t(R) * HK, dt);
            const auto got_k = to_host(dk, cache_k.size(), dt);

            std::vector<float> want(size_t(R) * HK, 0.0f);
            const size_t slab = size_t(H) * T_max * K;
            for (int b = 0; b < B; ++b) {
                for (int j = 0; j < Q && pos[b] + j < T_max; ++j)
                    for (int c = 0; c < HK; ++c) {
                        const size_t at = b * slab + (size_t(c / K) * T_max + pos[b] + j) * K + c % K;
                        cache_k[at] = qkv[size_t(b * Q + j) * 3 * HK + HK + c];
                        cache_v[at] = qkv[size_t(b * Q + j) * 3 * HK + 2 * HK + c];
                    }
                for (int j = 0; j < Q; ++j) {
                    const int t = pos[b] + j;
                    if (t >= T_max) continue;
                    const float* q = qkv.data() + size_t(b * Q + j) * 3 * HK;
                    receipt::ops::decoder_self_attention_cpu(q, cache_k.data() + b * slab, cache_v.data() + b * slab,
                                                             bias.data(), 1, H, K, T_max, t,
                                                             want.data() + size_t(b * Q + j) * HK);
                }
            }
            expect_close(want, got, tol(dt), what + ": context");
            expect_close(cache_k, got_k, 1e-6f, what + ": K cache");
        }
}

std::unique_ptr<receipt::Engine> engine(std::shared_ptr<const receipt::Model> m, receipt::Device device, DType dt,
                                        bool a32, int max_batch, int draft_tokens, const std::string& plan_dir,
                                        int max_input = 256, int max_total = 40) {
    receipt::EngineOptions eo;
    eo.device = device;
    eo.dtype = dt;
    eo.f32_activations = a32;
    eo.max_batch_size = max_batch;
    eo.max_input_tokens = max_input;
    eo.max_total_tokens = max_total;
    eo.draft_tokens = draft_tokens;
    eo.plan_path = plan_dir + "/spec-" + std::string(name(dt)) + (a32 ? "-a32-" : "-") + std::to_string(max_batch) +
                   "-" + std::to_string(draft_tokens) + ".plan";
    return receipt::make_engine(std::move(m), eo);
}

class CudaSpeculative : public CudaOps {
protected:
    void SetUp() override {
        CudaOps::SetUp();
        if (IsSkipped()) return;
        dir_ = (fs::temp_directory_path() / ("receipt_spec_test_" + std::to_string(::getpid()))).string();
        fs::create_directories(dir_);
    }
    void TearDown() override {
        if (!dir_.empty()) fs::remove_all(dir_);
    }
    std::string dir_;
};

void expect_same(const std::vector<receipt::GenerationResult>& want, const std::vector<receipt::GenerationResult>& got,
                 const std::string& what) {
    ASSERT_EQ(want.size(), got.size()) << what;
    for (size_t i = 0; i < want.size(); ++i) {
        EXPECT_EQ(want[i].ids, got[i].ids) << what << " seq " << i;
        EXPECT_NEAR(want[i].score, got[i].score, 1e-3f * (1.0f + std::fabs(want[i].score))) << what << " seq " << i;
    }
}

// The tiny golden checkpoints in fp32: batches of 4, 1 and 3 (a padded sequence bucket), with and without
// min_new_tokens, a fixed length, and 5 sources (more than the speculative batch: plain greedy in chunks); 1, 3
// and 7 drafts.
TEST_F(CudaSpeculative, TinyGoldensMatchCpuGreedy) {
    for (const char* name : {"t5-tiny-v10", "t5-tiny-v11"}) {
        auto model = receipt::Model::load(kGolden + name);
        const auto golden = nlohmann::json::parse(receipt::test::read_file(kGolden + name + "/golden.json"));
        const auto inputs = golden["input_ids"].get<std::vector<std::vector<int>>>();
        ASSERT_EQ(inputs.size(), 4u);
        auto cpu = engine(model, receipt::Device::kCpu, DType::kF32, false, 16, 0, dir_);
        for (int drafts : {1, 3, 7}) {
            auto gpu = engine(model, receipt::Device::kCuda, DType::kF32, false, 4, drafts, dir_);
            EXPECT_NE(gpu->describe().find(std::to_string(drafts) + " draft tokens"), std::string::npos);
            for (int min_new : {0, 30}) {
                receipt::GenerationOptions o;
                o.max_new_tokens = 40;
                o.min_new_tokens = min_new;
                const std::string what = std::string(name) + " drafts=" + std::to_string(drafts) +
                                         " min_new=" + std::to_string(min_new);
                expect_same(cpu->generate(inputs, o), gpu->generate(inputs, o), what + " batch 4");
                expect_same(cpu->generate({inputs[2]}, o), gpu->generate({inputs[2]}, o), what + " batch 1");
                const std::vector<std::vector<int>> three = {inputs[3], inputs[0], inputs[1]};
                expect_same(cpu->generate(three, o), gpu->generate(three, o), what + " batch 3");
                std::vector<std::vector<int>> five = inputs;
                five.push_back(inputs[1]);
                expect_same(cpu->generate(five, o), gpu->generate(five, o), what + " batch 5");
            }
            receipt::GenerationOptions fixed;
            fixed.max_new_tokens = fixed.min_new_tokens = 13;
            const auto got = gpu->generate(inputs, fixed);
            for (const auto& r : got) EXPECT_EQ(r.ids.size(), 13u);
            expect_same(cpu->generate(inputs, fixed), got, std::string(name) + " fixed 13");
            const auto st = gpu->speculation_stats();
            EXPECT_GT(st.steps, 0);
            EXPECT_GE(st.tokens, st.steps);
        }
    }
}

// kDraftTokensByDevice (the CLI's and the server's default) is kCudaDraftTokens on the GPU: a one-sequence call
// runs speculative steps and gives the CPU's greedy tokens.
TEST_F(CudaSpeculative, DraftsByDeviceAreThreeOnTheGpu) {
    auto model = receipt::Model::load(kGolden + "t5-tiny-v10");
    const auto golden = nlohmann::json::parse(receipt::test::read_file(kGolden + "t5-tiny-v10/golden.json"));
    const auto inputs = golden["input_ids"].get<std::vector<std::vector<int>>>();
    auto gpu = engine(model, receipt::Device::kCuda, DType::kF32, false, 4, receipt::kDraftTokensByDevice, dir_);
    EXPECT_NE(gpu->describe().find(std::to_string(receipt::kCudaDraftTokens) + " draft tokens"), std::string::npos)
        << gpu->describe();
    receipt::GenerationOptions o;
    o.max_new_tokens = 40;
    auto cpu = engine(model, receipt::Device::kCpu, DType::kF32, false, 4, receipt::kDraftTokensByDevice, dir_);
    expect_same(cpu->generate({inputs[1]}, o), gpu->generate({inputs[1]}, o), "by device, batch 1");
    EXPECT_GT(gpu->speculation_stats().steps, 0);
}

// The shipped receipt model on its example receipts, fp16-a32 (the CLI's default precision) at serving sizes:
// the CPU engine's greedy tokens, in fewer steps than tokens (receipts copy much of their text).
TEST_F(CudaSpeculative, ShippedModelMatchesCpuInFewerSteps) {
    const std::string dir = std::string(RECEIPT_SOURCE_DIR) + "/models/receipt-t5-small";
    if (!fs::exists(dir + "/model.safetensors")) GTEST_SKIP() << "no shipped model at " << dir;
    auto model = receipt::Model::load(dir);
    const auto inputs = receipt::test::example_inputs(*model);
    receipt::GenerationOptions o;
    o.max_new_tokens = 200;
    const auto want = engine(model, receipt::Device::kCpu, DType::kF32, false, 8, 0, dir_, 512, 513)->generate(inputs, o);
    auto gpu = engine(model, receipt::Device::kCuda, DType::kF16, true, 8, 7, dir_, 512, 513);
    expect_same(want, gpu->generate(inputs, o), "shipped fp16-a32 batch");
    for (size_t i = 0; i < inputs.size(); ++i)
        expect_same({want[i]}, gpu->generate({inputs[i]}, o), "shipped fp16-a32 receipt " + std::to_string(i));
    const auto st = gpu->speculation_stats();
    std::cout << "shipped model, 7 drafts: " << st.tokens << " tokens in " << st.steps << " steps ("
              << double(st.tokens) / double(st.steps) << " per step)\n";
    EXPECT_GT(st.tokens, st.steps * 3 / 2);
}

// With a logits processor the drafts are checked on the host (cuda_speculative_host.cpp, pipelined and not): the
// CPU's greedy tokens, margins and scores under the same processor (it bans a third of the vocabulary, so the
// device's own choices are often overruled), batches 1 and 2 (drafts) and 3, 4, 5 (no drafts).
TEST_F(CudaSpeculative, HostCheckedDraftsWithAProcessorMatchCpuGreedy) {
    for (const char* name : {"t5-tiny-v10", "t5-tiny-v11"}) {
        auto model = receipt::Model::load(kGolden + name);
        const auto golden = nlohmann::json::parse(receipt::test::read_file(kGolden + name + "/golden.json"));
        const auto inputs = golden["input_ids"].get<std::vector<std::vector<int>>>();
        auto cpu = engine(model, receipt::Device::kCpu, DType::kF32, false, 16, 0, dir_);
        for (int drafts : {1, 3, 7})
        for (bool piped : {true, false}) {
            // Pipelined (the default) and unpipelined (RECEIPT_CUDA_HOST_PIPELINE=0, read when an engine is made).
            if (!piped) ASSERT_EQ(setenv("RECEIPT_CUDA_HOST_PIPELINE", "0", 1), 0);
            auto gpu = engine(model, receipt::Device::kCuda, DType::kF32, false, 4, drafts, dir_);
            if (!piped) unsetenv("RECEIPT_CUDA_HOST_PIPELINE");
            for (int min_new : {0, 30}) {
                receipt::GenerationOptions o;
                o.max_new_tokens = 40;
                o.min_new_tokens = min_new;
                o.logits_processor = std::make_shared<receipt_test::BanByIndexProcessor>(model->config().vocab_size);
                const std::string what = std::string(name) + (piped ? " pipelined" : " unpipelined") +
                                         " processor drafts=" + std::to_string(drafts) +
                                         " min_new=" + std::to_string(min_new);
                for (const auto& call : {std::vector<std::vector<int>>{inputs[0], inputs[1]},
                                         std::vector<std::vector<int>>{inputs[2], inputs[3]},
                                         std::vector<std::vector<int>>{inputs[3]}}) {  // drafts: batches <= 2
                    const auto want = cpu->generate(call, o);
                    const auto got = gpu->generate(call, o);
                    expect_same(want, got, what + " batch " + std::to_string(call.size()));
                    // The CPU reference's own margins move by ~1.3e-3 with the padded source length of its batch.
                    for (size_t i = 0; i < want.size(); ++i)
                        EXPECT_NEAR(want[i].min_margin, got[i].min_margin, 5e-3f) << what << " seq " << i;
                }
                expect_same(cpu->generate(inputs, o), gpu->generate(inputs, o), what + " batch 4");
                const std::vector<std::vector<int>> three = {inputs[3], inputs[0], inputs[1]};
                expect_same(cpu->generate(three, o), gpu->generate(three, o), what + " batch 3");
                std::vector<std::vector<int>> five = inputs;
                five.push_back(inputs[1]);
                expect_same(cpu->generate(five, o), gpu->generate(five, o), what + " batch 5");
            }
        }
    }
}

// The shipped model through the Extractor (copy constraints = logits processors, extra passes), fp16-a32 with 6
// drafts in calls of 2 receipts against the CPU without drafts: the same JSON for the example receipts and the
// committed training sample.
TEST_F(CudaSpeculative, ShippedModelExtractsLikeTheCpu) {
    const std::string dir = std::string(RECEIPT_SOURCE_DIR) + "/models/receipt-t5-small";
    if (!fs::exists(dir + "/model.safetensors")) GTEST_SKIP() << "no shipped model at " << dir;
    const std::vector<std::string> texts = receipt::test::example_and_sample_texts();
    auto model = receipt::Model::load(dir);
    receipt::EngineOptions eo = receipt::test::cpu_reference_options(512);
    eo.max_batch_size = 8;
    receipt::Extractor cpu(model, eo);
    eo.device = receipt::Device::kCuda;
    receipt::set_precision(eo, "fp16-a32");
    eo.draft_tokens = 6;
    eo.plan_path = dir_ + "/extract.plan";
    receipt::Extractor gpu(model, eo);
    const auto want = cpu.extract(texts);
    std::vector<receipt::Extraction> got;
    const size_t per_call = receipt::kMaxHostSpeculativeBatch;  // calls the drafts run for
    for (size_t i = 0; i < texts.size(); i += per_call) {
        const std::vector<std::string> part(texts.begin() + long(i),
                                            texts.begin() + long(std::min(texts.size(), i + per_call)));
        for (auto& x : gpu.extract(part)) got.push_back(std::move(x));
    }
    ASSERT_EQ(want.size(), got.size());
    for (size_t i = 0; i < want.size(); ++i) {
        EXPECT_EQ(want[i].target_text, got[i].target_text) << "receipt " << i;
        EXPECT_EQ(want[i].fields_json, got[i].fields_json) << "receipt " << i;
    }
    const auto st = gpu.speculation_stats();
    std::cout << "extraction, 6 drafts, batch 2: " << st.tokens << " tokens in " << st.steps << " steps\n";
    EXPECT_GT(st.steps, 0);
}

}  // namespace

#else

TEST(CudaSpeculative, SkippedWithoutCuda) { GTEST_SKIP() << "built without CUDA"; }

#endif
