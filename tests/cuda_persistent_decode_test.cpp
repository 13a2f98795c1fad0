// The one-kernel batch-1 greedy decode (ops/persistent_decode_cuda.h) against the fp32 CPU reference engine:
// tiny golden checkpoints (v1.0 relu, v1.1 gated-gelu) in every precision it serves, one sequence at a time, with
// and without min_new_tokens; the shipped receipt model at serving sizes; and the switch that turns it off.
// Skips when no usable GPU is present (label: cuda).
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <unistd.h>

#include "receipt/engine.h"
#include "receipt/model.h"
#include "rounded_checkpoint.h"
#include "shipped_examples.h"
#include "test_files.h"

namespace fs = std::filesystem;
using receipt::DType;
using receipt::GenerationOptions;
using receipt::GenerationResult;

namespace {

const std::string kGolden = std::string(RECEIPT_SOURCE_DIR) + "/tests/golden/";
const char* kNote = "one-kernel batch-1 greedy";

std::string ids_str(const std::vector<int>& ids) {
    std::string s = "[";
    for (size_t i = 0; i < ids.size(); ++i) s += (i ? " " : "") + std::to_string(ids[i]);
    return s + "]";
}

class CudaPersistentDecodeTest : public ::testing::Test {
protected:
    void SetUp() override {
        if (!receipt::cuda_available()) GTEST_SKIP() << "no usable CUDA GPU";
        dir_ = (fs::temp_directory_path() / ("receipt_persistent_test_" + std::to_string(::getpid()))).string();
        fs::create_directories(dir_);
    }
    void TearDown() override {
        ::unsetenv("RECEIPT_CUDA_PERSISTENT");
        if (!dir_.empty()) fs::remove_all(dir_);
    }
    // A CUDA engine for up to `max_batch` rows, S_max source and T_max positions, made with
    // RECEIPT_CUDA_PERSISTENT=1 (persistent) or =0.
    std::unique_ptr<receipt::Engine> gpu(std::shared_ptr<const receipt::Model> m, DType dt, bool a32, bool persistent,
                                         int S_max = 256, int T_max = 40, int max_batch = 8) {
        receipt::EngineOptions eo;
        eo.device = receipt::Device::kCuda;
        eo.dtype = dt;
        eo.f32_activations = a32;
        eo.max_batch_size = max_batch;
        eo.max_input_tokens = S_max;
        eo.max_total_tokens = T_max;
        eo.plan_path = dir_ + "/" + std::to_string(++n_plans_) + ".plan";
        ::setenv("RECEIPT_CUDA_PERSISTENT", persistent ? "1" : "0", 1);
        auto e = receipt::make_engine(std::move(m), eo);
        ::unsetenv("RECEIPT_CUDA_PERSISTENT");
        return e;
    }
    std::string dir_;
    int n_plans_ = 0;
};

std::unique_ptr<receipt::Engine> cpu(std::shared_ptr<const receipt::Model> m, int S_max = 256, int T_max = 40) {
    receipt::EngineOptions eo;
    eo.device = receipt::Device::kCpu;
    eo.max_input_tokens = S_max;
    eo.max_total_tokens = T_max;
    return receipt::make_engine(std::move(m), eo);
}

// Each input generated alone (batch 1: the persistent path) on both engines; returns how many differ, printing
// them. Scores are compared where the tokens agree.
int compare_one_by_one(receipt::Engine& want_engine, receipt::Engine& got_engine,
                       const std::vector<std::vector<int>>& inputs, const GenerationOptions& o, const std::string& what,
                       float score_tol) {
    int n_diff = 0;
    for (size_t i = 0; i < inputs.size(); ++i) {
        const GenerationResult want = want_engine.generate({inputs[i]}, o).at(0);
        const GenerationResult got = got_engine.generate({inputs[i]}, o).at(0);
        EXPECT_TRUE(std::isfinite(got.score)) << what << " seq " << i;
        if (want.ids != got.ids) {
            ++n_diff;
            std::cout << "  " << what << " seq " << i << " differs\n  want: " << ids_str(want.ids)
                      << "\n  got:  " << ids_str(got.ids) << "\n";
            continue;
        }
        EXPECT_NEAR(want.score, got.score, score_tol * (1.0f + std::fabs(want.score))) << what << " seq " << i;
    }
    return n_diff;
}

GenerationOptions greedy(int max_new, int min_new = 0) {
    GenerationOptions o;
    o.max_new_tokens = max_new;
    o.min_new_tokens = min_new;
    return o;
}

// f32 activations (fp16-a32 / bf16-a32): the CPU engine on the same rounded weights gives the same tokens.
TEST_F(CudaPersistentDecodeTest, TinyA32MatchesCpuOnTheSameWeights) {
    for (const char* name : {"t5-tiny-v10", "t5-tiny-v11"}) {
        for (DType dt : {DType::kF16, DType::kBF16}) {
            auto model = receipt::Model::load(receipt::test::rounded_checkpoint(kGolden + name, dir_, dt));
            const auto inputs =
                nlohmann::json::parse(receipt::test::read_file(kGolden + name + "/golden.json"))["input_ids"]
                    .get<std::vector<std::vector<int>>>();
            auto want = cpu(model);
            auto got = gpu(model, dt, true, true);
            ASSERT_NE(got->describe().find(kNote), std::string::npos) << got->describe();
            const std::string what = std::string(name) + (dt == DType::kF16 ? " fp16-a32" : " bf16-a32");
            EXPECT_EQ(compare_one_by_one(*want, *got, inputs, greedy(20), what, 1e-3f), 0);
            EXPECT_EQ(compare_one_by_one(*want, *got, inputs, greedy(30, 30), what + " min_new 30", 1e-3f), 0);
        }
    }
}

// Half-precision cache and cross K/V: fp16 gives the CPU's tokens on every sequence whose smallest greedy logit
// margin (the Hugging Face dump's) leaves room for that rounding (0.25), as the engine tests ask of the per-op
// kernels; bf16 (8-bit mantissa) moves these random tiny models' logits by more than their margins, so it is only
// run (finite scores).
TEST_F(CudaPersistentDecodeTest, TinyHalfStorageMatchesCpuWhereMarginsAllow) {
    for (const char* name : {"t5-tiny-v10", "t5-tiny-v11"}) {
        for (DType dt : {DType::kF16, DType::kBF16}) {
            auto model = receipt::Model::load(kGolden + name);
            const auto golden = nlohmann::json::parse(receipt::test::read_file(kGolden + name + "/golden.json"));
            const auto all = golden["input_ids"].get<std::vector<std::vector<int>>>();
            const auto margins = golden["greedy"]["min_margin"].get<std::vector<float>>();
            const float needed = dt == DType::kF16 ? 0.25f : 1e9f;
            std::vector<std::vector<int>> robust;
            for (size_t i = 0; i < all.size() && i < margins.size(); ++i)
                if (margins[i] > needed) robust.push_back(all[i]);
            auto one = gpu(model, dt, false, true);
            ASSERT_NE(one->describe().find(kNote), std::string::npos) << one->describe();
            const std::string what = std::string(name) + (dt == DType::kF16 ? " fp16" : " bf16");
            std::cout << what << ": " << robust.size() << " of " << all.size() << " sequences with margin > " << needed
                      << "\n";
            auto ref = cpu(model);
            EXPECT_EQ(compare_one_by_one(*ref, *one, robust, greedy(20), what, dt == DType::kF16 ? 5e-2f : 1e-1f), 0);
        }
    }
}

// The shipped receipt model at serving sizes (512 source tokens, 513 positions), each example receipt alone:
// fp16-a32 (the default precision) equal to the CPU, with EOS allowed and with 200 tokens forced; fp16 on all but
// one receipt.
TEST_F(CudaPersistentDecodeTest, ShippedModelMatchesCpu) {
    const std::string dir = std::string(RECEIPT_SOURCE_DIR) + "/models/receipt-t5-small";
    if (!fs::exists(dir + "/model.safetensors")) GTEST_SKIP() << "no shipped model at " << dir;
    auto model = receipt::Model::load(dir);
    const auto inputs = receipt::test::example_inputs(*model);
    auto ref = receipt::make_engine(model, receipt::test::cpu_reference_options(512));
    for (bool a32 : {true, false}) {
        auto one = gpu(model, DType::kF16, a32, true, 512, 513, 64);
        ASSERT_NE(one->describe().find(kNote), std::string::npos) << one->describe();
        const std::string what = a32 ? "shipped fp16-a32" : "shipped fp16";
        const int allowed = a32 ? 0 : 1;
        EXPECT_LE(compare_one_by_one(*ref, *one, inputs, greedy(512), what, 1e-2f), allowed);
        EXPECT_LE(compare_one_by_one(*ref, *one, inputs, greedy(200, 200), what + " 200 forced", 1e-2f), allowed);
    }
}

// RECEIPT_CUDA_PERSISTENT=0 (the default) keeps batch 1 on the per-op graph; batches of several rows never take the
// kernel, and a batch-1 call between two batched ones leaves them unchanged.
TEST_F(CudaPersistentDecodeTest, SwitchAndBatches) {
    auto model = receipt::Model::load(kGolden + "t5-tiny-v10");
    const auto inputs = nlohmann::json::parse(receipt::test::read_file(kGolden + "t5-tiny-v10/golden.json"))["input_ids"]
                            .get<std::vector<std::vector<int>>>();
    auto off = gpu(model, DType::kF16, true, false);
    EXPECT_EQ(off->describe().find(kNote), std::string::npos) << off->describe();
    auto on = gpu(model, DType::kF16, true, true);
    const auto batched = on->generate(inputs, greedy(20));
    const auto single = on->generate({inputs[0]}, greedy(20));
    const auto again = on->generate(inputs, greedy(20));
    ASSERT_EQ(batched.size(), again.size());
    for (size_t i = 0; i < batched.size(); ++i) EXPECT_EQ(ids_str(batched[i].ids), ids_str(again[i].ids)) << i;
    EXPECT_EQ(ids_str(single[0].ids), ids_str(off->generate({inputs[0]}, greedy(20))[0].ids));
}

}  // namespace
