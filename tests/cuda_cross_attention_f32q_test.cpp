// Streaming cross-attention with f32 queries and context over half-precision K/V (cross_attention_f32q_cuda: the
// fp16-a32 decoder with its cross K/V stored in f16 / bf16) against the f32 kernel over the same K/V rounded to that
// type: the kernels differ only in the type the keys and values are read as, so the outputs agree to the order of
// f32 sums. Single pass over 40 rows (wide) and split-K over 1 and 4 rows, source lengths 1, 37, 128 and 513.
// Skips without a usable GPU (label: cuda).
#include <gtest/gtest.h>

#if defined(RECEIPT_WITH_CUDA)

#include <cstdlib>
#include <filesystem>
#include <memory>
#include <unistd.h>

#include "cuda_test_util.h"
#include "ops/attention.h"
#include "receipt/model.h"
#include "shipped_examples.h"
#include "test_processors.h"

using namespace cuda_test;

namespace {

TEST_F(CudaOps, CrossAttentionF32QueryOverHalfKvMatchesF32) {
    const int B = 4, S = 513, H = 8, K = 64, L = 2, l = 1, HK = H * K, N = 40;
    const int64_t stride = int64_t(L) * 2 * HK, k_off = int64_t(l) * 2 * HK, v_off = k_off + HK;
    const std::vector<int> lens = {1, 37, 128, 513};
    std::vector<int> rows(N);
    for (int r = 0; r < N; ++r) rows[size_t(r)] = (r * 3 + r / 5) % B;
    rc::DeviceBuffer dlen(B * 4), drow(N * 4), ds(sizeof(rc::DecodeState));
    const rc::DecodeState st{0, S, 0, 0, 0, 0};
    RECEIPT_CUDA_CHECK(cudaMemcpy(dlen.get(), lens.data(), B * 4, cudaMemcpyHostToDevice));
    RECEIPT_CUDA_CHECK(cudaMemcpy(drow.get(), rows.data(), N * 4, cudaMemcpyHostToDevice));
    RECEIPT_CUDA_CHECK(cudaMemcpy(ds.get(), &st, sizeof(st), cudaMemcpyHostToDevice));
    const auto q = randn(size_t(N) * HK, 72);  // f32 queries, not rounded
    auto dq = to_device(q, DType::kF32);
    for (DType kv_dt : {DType::kF16, DType::kBF16}) {
        const std::string what = std::string("kv ") + name(kv_dt);
        const auto kv = rounded(randn(size_t(B) * S * stride, 71, 0.5f), kv_dt);  // exactly representable
        auto dkv_half = to_device(kv, kv_dt), dkv_f32 = to_device(kv, DType::kF32);
        // Wide single pass, and the same through the split launcher at one and four rows.
        rc::DeviceBuffer dmixed(size_t(N) * HK * 4), dref(size_t(N) * HK * 4);
        rc::cross_attention_f32q_cuda(kv_dt, dq.get(), dkv_half.get(), stride, k_off, v_off, drow.as<int>(),
                                      dlen.as<int>(), N, H, K, S, ds.as<rc::DecodeState>(), dmixed.get(), nullptr);
        rc::cross_attention_pipelined_cuda(DType::kF32, dq.get(), dkv_f32.get(), stride, k_off, v_off,
                                           drow.as<int>(), dlen.as<int>(), N, H, K, S, ds.as<rc::DecodeState>(),
                                           dref.get(), nullptr);
        RECEIPT_CUDA_CHECK(cudaDeviceSynchronize());
        const auto mixed = to_host(dmixed, size_t(N) * HK, DType::kF32);
        const auto ref = to_host(dref, size_t(N) * HK, DType::kF32);
        expect_close(ref, mixed, 1e-5f, what + ": wide, vs f32 K/V");
        // And the CPU reference over the same K/V.
        std::vector<float> k(size_t(B) * S * HK), v(k.size()), want(size_t(N) * HK);
        for (int r = 0; r < B * S; ++r)
            for (int c = 0; c < HK; ++c) {
                k[size_t(r) * HK + c] = kv[size_t(r) * stride + k_off + c];
                v[size_t(r) * HK + c] = kv[size_t(r) * stride + v_off + c];
            }
        receipt::ops::cross_attention_cpu(q.data(), k.data(), v.data(), rows.data(), lens.data(), N, S, H, K,
                                          want.data());
        expect_close(want, mixed, 2e-4f, what + ": wide, vs CPU");
        for (int n : {1, 4}) {
            SplitScratch sp(n, H, K, 132);
            ASSERT_GT(rc::decode_attn_n_split(&sp.split, n, H, K), 1) << what;
            for (int rep = 0; rep < 2; ++rep)
                rc::cross_attention_f32q_cuda(kv_dt, dq.get(), dkv_half.get(), stride, k_off, v_off, drow.as<int>(),
                                              dlen.as<int>(), n, H, K, S, ds.as<rc::DecodeState>(), dmixed.get(),
                                              nullptr, &sp.split);
            RECEIPT_CUDA_CHECK(cudaDeviceSynchronize());
            EXPECT_EQ(sp.n_nonzero_counters(n * H), 0) << what << ": counters not reset";
            const auto got = to_host(dmixed, size_t(n) * HK, DType::kF32);
            const std::vector<float> want_n(want.begin(), want.begin() + size_t(n) * HK);
            expect_close(want_n, got, 2e-4f, what + ": split over " + std::to_string(n) + " rows, vs CPU");
        }
    }
    // f32 K/V or another head size is refused with a message, not launched.
    rc::DeviceBuffer dout(size_t(N) * HK * 4);
    const auto* state = ds.as<rc::DecodeState>();
    EXPECT_THROW(rc::cross_attention_f32q_cuda(DType::kF32, dq.get(), dout.get(), stride, k_off, v_off,
                                               drow.as<int>(), dlen.as<int>(), N, H, K, S, state, dout.get(), nullptr),
                 receipt::InvalidInput);
    EXPECT_THROW(rc::cross_attention_f32q_cuda(DType::kF16, dq.get(), dout.get(), stride, k_off, v_off,
                                               drow.as<int>(), dlen.as<int>(), N, H, 32, S, state, dout.get(), nullptr),
                 receipt::InvalidInput);
}

// The engine with RECEIPT_CUDA_A32_CROSS_KV=16 (fp16-a32, the cross K/V stored in fp16) on the shipped model at
// serving sizes: the CPU reference's tokens on the three example receipts, with the argmax on the GPU and on the
// host (as serving with the copy constraints runs).
TEST_F(CudaOps, ShippedModelA32WithHalfCrossKvMatchesCpu) {
    const std::string dir = std::string(RECEIPT_SOURCE_DIR) + "/models/receipt-t5-small";
    if (!std::filesystem::exists(dir + "/model.safetensors")) GTEST_SKIP() << "no shipped model at " << dir;
    auto model = receipt::Model::load(dir);
    const std::vector<std::vector<int>> inputs = receipt::test::example_inputs(*model);
    receipt::GenerationOptions o;
    o.max_new_tokens = 64;
    const auto want = receipt::make_engine(model, receipt::test::cpu_reference_options(64))->generate(inputs, o);
    receipt::EngineOptions eo;
    eo.device = receipt::Device::kCuda;
    eo.dtype = DType::kF16;
    eo.f32_activations = true;
    eo.max_batch_size = 64;
    eo.max_input_tokens = 512;
    eo.max_total_tokens = 513;
    eo.plan_path = (std::filesystem::temp_directory_path() / ("receipt_kv16_" + std::to_string(::getpid()) + ".plan"))
                       .string();
    ::setenv("RECEIPT_CUDA_A32_CROSS_KV", "16", 1);
    auto engine = receipt::make_engine(model, eo);
    ::unsetenv("RECEIPT_CUDA_A32_CROSS_KV");
    EXPECT_NE(engine->describe().find("cross K/V fp16"), std::string::npos) << engine->describe();
    for (bool host : {false, true}) {
        receipt::GenerationOptions og = o;
        if (host) og.logits_processor = std::make_shared<receipt_test::IdentityProcessor>();
        const auto got = engine->generate(inputs, og);
        ASSERT_EQ(got.size(), want.size());
        for (size_t i = 0; i < want.size(); ++i)
            EXPECT_EQ(want[i].ids, got[i].ids) << "receipt " << i << (host ? ", host argmax" : ", device argmax");
    }
    std::filesystem::remove(eo.plan_path);
}

}  // namespace

#else  // !RECEIPT_WITH_CUDA

TEST(CudaCrossAttentionF32Q, Skipped) { GTEST_SKIP() << "built without RECEIPT_WITH_CUDA"; }

#endif
