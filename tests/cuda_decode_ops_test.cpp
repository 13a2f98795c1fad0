// CUDA decode-step kernels vs the fp32 CPU ops (label: cuda): the small-M GEMM (gemv_cuda, alone and as routed by
// GemmLt), split-K decode attention against the single-pass kernels and the CPU, the streaming decode attention,
// the absorbed cross-attention and the beam candidates; and the switches' level parser (host only).
// Without RECEIPT_WITH_CUDA it compiles to one skipped test.
#include <gtest/gtest.h>

#include <cstdlib>
#include <utility>

#include "receipt/engine.h"

#if defined(RECEIPT_WITH_CUDA)
#include "cuda/gemm_lt.h"
#include "cuda_test_util.h"
#include "ops/attention.h"
#include "ops/elementwise.h"
#include "ops/t5_ops_cuda.h"
#include "receipt/errors.h"

using namespace cuda_test;

namespace {

// ---- small-M GEMM (gemv_cuda) ----------------------------------------------------------------------------------
// y[m, n] (+)= alpha x[m, k] . w[n, k]^T for m = 1..8 against a double-precision CPU reference on the same rounded
// inputs. Output tolerance (relative to the largest |reference| value): f32 outputs carry only f32 summation
// error (f16 / bf16 products are exact in f32), f16 / bf16 outputs one rounding to the storage type.
float out_tol(DType out) { return out == DType::kF32 ? 1e-4f : out == DType::kF16 ? 1.5e-3f : 8e-3f; }

TEST_F(CudaOps, GemvMatchesCpuOnOddShapes) {
    // Each shape exercises one path of the launcher (see gemv_cuda in src/ops/gemv_cuda.cu):
    struct Shape { int n, k; const char* path; };
    const Shape shapes[] = {
        {37, 24, "vector, 1 column / warp"},
        {19, 13, "scalar (k % 8 != 0)"},
        {70, 2056, "vector, 4 warps split k, k tiled with a partial last tile at m > 4"},
        {45, 1037, "scalar, warps split k, several k tiles at m > 4"},
        {4501, 72, "vector, 4 columns / warp, last block partly past n"},
        {2300, 40, "vector, 2 columns / warp"},
    };
    // variant 0: dense (ld = k, ldy = n); 1: padded row strides; 2: x misaligned by one element (scalar path even
    // when k % 8 == 0).
    const char* variant_name[] = {"dense", "padded strides", "x misaligned"};
    // mode: output type, accumulate, relu, alpha
    struct Mode { bool out_f32, accumulate, relu; float alpha; const char* what; };
    const Mode modes[] = {{false, false, false, 1.0f, "T out"},
                          {false, false, true, -1.25f, "T out, relu, alpha -1.25"},
                          {false, true, false, 0.75f, "T out += , alpha 0.75"},
                          {true, true, false, 0.044f, "f32 out +=, alpha 0.044"},
                          {true, true, true, -0.5f, "f32 out +=, relu, alpha -0.5"}};
    const int kMaxM = rc::kGemvMaxM;
    for (DType dt : kTypes)
        for (const Shape& sh : shapes)
            for (int variant = 0; variant < 3; ++variant) {
                const int n = sh.n, k = sh.k, es = rc::dtype_size(dt);
                const int ldx = variant == 1 ? k + 8 : k, ldw = variant == 1 ? k + 16 : k;
                const int ldy = variant == 1 ? n + 3 : n;
                const int x_off = variant == 2 ? 1 : 0;  // elements before x[0, 0]
                // x: [kMaxM, ldx] (the first m rows are used), w: [n, ldw]; padding holds random values too.
                auto x = rounded(randn(size_t(x_off) + size_t(kMaxM) * ldx, 21), dt);
                auto w = rounded(randn(size_t(n) * ldw, 22), dt);
                auto dx = to_device(x, dt), dw = to_device(w, dt);
                const void* px = static_cast<const char*>(dx.get()) + size_t(x_off) * es;
                for (int m = 1; m <= kMaxM; ++m)
                    for (const Mode& md : modes) {
                        const DType out = md.out_f32 || dt == DType::kF32 ? DType::kF32 : dt;
                        const std::string what = std::string(name(dt)) + " m=" + std::to_string(m) + " n=" +
                                                 std::to_string(n) + " k=" + std::to_string(k) + " (" + sh.path +
                                                 ", " + variant_name[variant] + ", " + md.what + ")";
                        // y: [kMaxM, ldy]; everything outside [0:m, 0:n] must stay as it was.
                        const auto y0 = rounded(randn(size_t(kMaxM) * ldy, 23 + m), out);
                        auto dy = to_device(y0, out);
                        try {
                            rc::gemv_cuda(dt, m, n, k, px, ldx, dw.get(), ldw, dy.get(), ldy, md.alpha, md.out_f32,
                                          md.accumulate, md.relu, nullptr);
                            RECEIPT_CUDA_CHECK(cudaDeviceSynchronize());
                        } catch (const receipt::Error& e) {
                            ADD_FAILURE() << what << ": " << e.what();
                            continue;
                        }
                        const auto got = to_host(dy, y0.size(), out);
                        expect_gemm({m, n, k, ldx, ldw, ldy, md.alpha, md.accumulate, md.relu}, x, size_t(x_off), w,
                                    y0, got, kMaxM, out_tol(out), what);
                    }
            }
}

TEST_F(CudaOps, GemvNormPrologueMatchesRmsnormThenGemvExactly) {
    // The decode step's fused LayerNorm + small-M GEMM must equal rmsnorm_cuda followed by gemv_cuda bit for bit
    // (the prologue reproduces the norm kernel's reduction order), for every row count, width and epilogue.
    for (DType dt : kTypes)
        for (int k : {512, 768, 200})
            for (int m = 1; m <= rc::kGemvMaxM; ++m)
                for (int mode = 0; mode < 3; ++mode) {
                    if (k > rc::gemv_norm_max_k(m)) continue;
                    const int n = 96;
                    const bool relu = mode == 1, acc = mode == 2, out_f32 = mode == 2 || dt == DType::kF32;
                    const DType out = out_f32 ? DType::kF32 : dt;
                    auto resid = randn(size_t(m) * k, 41, 3.0f);
                    auto ln = randn(size_t(k), 42);
                    auto w = rounded(randn(size_t(n) * k, 43), dt);
                    auto dres = to_device(resid, DType::kF32), dln = to_device(ln, DType::kF32), dw = to_device(w, dt);
                    const auto y0 = rounded(randn(size_t(m) * n, 44), out);
                    auto y1 = to_device(y0, out), y2 = to_device(y0, out);
                    rc::DeviceBuffer dx(size_t(m) * k * 4);
                    rc::rmsnorm_cuda(dt, dres.as<float>(), nullptr, dln.as<float>(), m, k, 1e-6f, dx.get(), nullptr);
                    rc::gemv_cuda(dt, m, n, k, dx.get(), k, dw.get(), k, y1.get(), n, 1.0f, out_f32, acc, relu, nullptr);
                    const rc::GemvNorm norm{dres.as<float>(), dln.as<float>(), 1e-6f};
                    rc::gemv_cuda(dt, m, n, k, nullptr, k, dw.get(), k, y2.get(), n, 1.0f, out_f32, acc, relu, nullptr,
                                  &norm);
                    RECEIPT_CUDA_CHECK(cudaDeviceSynchronize());
                    const auto a = to_host(y1, y0.size(), out), b = to_host(y2, y0.size(), out);
                    int n_diff = 0;
                    for (size_t i = 0; i < a.size(); ++i) n_diff += a[i] != b[i];
                    EXPECT_EQ(n_diff, 0) << name(dt) << " m=" << m << " k=" << k << " mode " << mode;
                }
    // k beyond one shared-memory tile is refused, not computed wrong.
    rc::DeviceBuffer r(4 * 8192), lnw(4 * 8192), wt(2 * 8192), y(4 * 8);
    const rc::GemvNorm big{r.as<float>(), lnw.as<float>(), 1e-6f};
    const int k_big = rc::gemv_norm_max_k(8) + 256;
    EXPECT_THROW(rc::gemv_cuda(DType::kF16, 8, 1, k_big, nullptr, k_big, wt.get(), k_big, y.get(), 1, 1.0f, true,
                               false, false, nullptr, &big),
                 receipt::InvalidInput);
}

TEST_F(CudaOps, GemvRejectsBadShapes) {
    rc::DeviceBuffer b(1 << 16);
    EXPECT_THROW(rc::gemv_cuda(DType::kF16, 9, 8, 8, b.get(), 8, b.get(), 8, b.get(), 8, 1.0f, false, false, false,
                               nullptr),
                 receipt::InvalidInput);  // m > kGemvMaxM
    EXPECT_THROW(rc::gemv_cuda(DType::kF16, 1, 8, 16, b.get(), 8, b.get(), 16, b.get(), 8, 1.0f, false, false, false,
                               nullptr),
                 receipt::InvalidInput);  // ldx < k
    EXPECT_THROW(rc::gemv_cuda(DType::kF16, 0, 8, 8, b.get(), 8, b.get(), 8, b.get(), 8, 1.0f, false, false, false,
                               nullptr),
                 receipt::InvalidInput);  // m = 0
}

// The decode-step GEMMs of t5-small through GemmLt::run (which routes m <= 2, n <= 8192 to gemv_cuda and the rest
// to cuBLASLt): the same result as the CPU reference and as cuBLASLt alone (small-M kernel off), and tune() must
// plan exactly the shapes that run on cuBLASLt.
TEST_F(CudaOps, GemmLtSmallMUsesGemvForDecodeShapes) {
    struct Case { int n, k; bool out_f32, accumulate; rc::Epilogue epi; float alpha; const char* what; };
    const float lm_scale = 1.0f / std::sqrt(512.0f);
    const Case cases[] = {{1536, 512, false, false, rc::Epilogue::kNone, 1.0f, "qkv"},
                          {512, 512, true, true, rc::Epilogue::kNone, 1.0f, "o (+= residual)"},
                          {2048, 512, false, false, rc::Epilogue::kRelu, 1.0f, "wi relu"},
                          {512, 2048, true, true, rc::Epilogue::kNone, 1.0f, "wo (+= residual)"},
                          {32128, 512, true, false, rc::Epilogue::kNone, lm_scale, "lm_head (f32 logits, scaled)"}};
    rc::GemmLt gemms[2];  // [0]: cuBLASLt for every m, [1]: the default routing (small-M kernel, tensor-core kernel)
    gemms[0].set_use_gemv(false);
    gemms[0].set_use_mma(false);
    gemms[1].set_use_gemv(true);
    for (DType dt : {DType::kF16, DType::kBF16})
        for (const Case& c : cases)
            for (int m : {1, 3, 8}) {
                const std::string what = std::string(name(dt)) + " " + c.what + " m=" + std::to_string(m);
                const DType out = c.out_f32 ? DType::kF32 : dt;
                const auto x = rounded(randn(size_t(m) * c.k, 31), dt);
                const auto w = rounded(randn(size_t(c.n) * c.k, 32, 0.05f), dt);
                const auto y0 = rounded(randn(size_t(m) * c.n, 33), out);
                auto dx = to_device(x, dt), dw = to_device(w, dt);
                const rc::GemmSpec spec{m, c.n, c.k, c.k, c.k, c.n, dt, c.out_f32, c.accumulate, c.epi};
                std::vector<float> got[2];
                for (int use_gemv = 0; use_gemv < 2; ++use_gemv) {
                    auto dy = to_device(y0, out);
                    gemms[use_gemv].run(spec, dx.get(), dw.get(), dy.get(), c.alpha, nullptr);
                    RECEIPT_CUDA_CHECK(cudaDeviceSynchronize());
                    got[use_gemv] = to_host(dy, y0.size(), out);
                }
                std::vector<float> want(y0.size());
                for (int i = 0; i < m; ++i)
                    for (int j = 0; j < c.n; ++j) {
                        double acc = 0;
                        for (int q = 0; q < c.k; ++q) acc += double(x[size_t(i) * c.k + q]) * w[size_t(j) * c.k + q];
                        double v = c.alpha * acc + (c.accumulate ? y0[size_t(i) * c.n + j] : 0.0);
                        if (c.epi == rc::Epilogue::kRelu) v = std::max(v, 0.0);
                        want[size_t(i) * c.n + j] = float(v);
                    }
                expect_close(want, got[1], out_tol(out), what + " gemv vs CPU");
                expect_close(got[0], got[1], 2 * out_tol(out), what + " gemv vs cuBLASLt");
            }
    // Planning: small-M shapes are not timed or planned, the cuBLASLt ones are.
    rc::GemmLt gemm;
    rc::DeviceBuffer bx(80 * 512 * 2), bw(1536 * 512 * 2), by(80 * 1536 * 2);
    const rc::GemmSpec small{2, 1536, 512, 512, 512, 1536, DType::kF16, false, false};
    const rc::PlanGemm p = gemm.tune(small, bx.get(), bw.get(), by.get(), nullptr);
    EXPECT_EQ(p.m, 2);
    EXPECT_EQ(p.workspace, 0u);
    EXPECT_TRUE(gemm.tuned().empty()) << "a small-M shape was added to the plan";
    const rc::GemmSpec mid{8, 1536, 512, 512, 512, 1536, DType::kF16, false, false};
    gemm.tune(mid, bx.get(), bw.get(), by.get(), nullptr);
    EXPECT_TRUE(gemm.tuned().empty()) << "a shape of the tensor-core decode kernel was added to the plan";
    const rc::GemmSpec big{80, 1536, 512, 512, 512, 1536, DType::kF16, false, false};
    gemm.tune(big, bx.get(), bw.get(), by.get(), nullptr);
    ASSERT_EQ(gemm.tuned().size(), 1u);
    EXPECT_EQ(gemm.tuned()[0].m, 80);
}

// ---- split-K decode attention (SplitScratch: cuda_test_util.h) -----------------------------------------------------

// Split vs single-pass on the GPU: both sum in f32 in different orders, then round once to T.
float split_vs_single_tol(DType d) { return d == DType::kF32 ? 1e-5f : d == DType::kF16 ? 2e-3f : 1.6e-2f; }

TEST_F(CudaOps, CrossAttentionSplitKMatchesSinglePassAndCpu) {
    // Source lengths 1, 37, 384, 513 (S = S_max = 513); each config maps rows to sources and picks n_sm so the
    // launcher uses 2 .. 32 splits. Launches of 2+ rows of d_kv 64 take the streaming kernel by default
    // (cross_attention_pipelined_level); RECEIPT_CUDA_CROSS_PIPE=0 runs them on the one-query kernel.
    const int B = 4, S = 513, H = 8, L = 2, l = 1;
    const std::vector<int> lens = {1, 37, 384, 513};
    struct Config { std::vector<int> rows; int n_sm; };
    const Config configs[] = {{{3}, 132}, {{2}, 132}, {{1}, 132}, {{0}, 132}, {{0, 1, 2, 3}, 132},
                              {{3, 2, 1, 0}, 64}, {{3, 3}, 4096}, {{2, 0, 3, 1, 3, 2, 1, 0}, 132}};
    for (DType dt : kTypes)
        for (int K : {64, 20}) {  // vector and scalar paths
            const int HK = H * K;
            const int64_t stride = int64_t(L) * 2 * HK;
            auto kv = rounded(randn(size_t(B) * S * stride, 41, 0.5f), dt);
            auto dkv = to_device(kv, dt);
            std::vector<float> k(size_t(B) * S * HK), v(k.size());
            for (int r = 0; r < B * S; ++r)
                for (int c = 0; c < HK; ++c) {
                    k[size_t(r) * HK + c] = kv[size_t(r) * stride + l * 2 * HK + c];
                    v[size_t(r) * HK + c] = kv[size_t(r) * stride + l * 2 * HK + HK + c];
                }
            rc::DeviceBuffer dlen(B * 4), ds(sizeof(rc::DecodeState));
            const rc::DecodeState st{0, S, 0, 0, 0, 0};
            RECEIPT_CUDA_CHECK(cudaMemcpy(dlen.get(), lens.data(), B * 4, cudaMemcpyHostToDevice));
            RECEIPT_CUDA_CHECK(cudaMemcpy(ds.get(), &st, sizeof(st), cudaMemcpyHostToDevice));
            for (const Config& cf : configs) {
                const int N = int(cf.rows.size());
                std::string what = std::string(name(dt)) + " K=" + std::to_string(K) + " rows->sources {";
                for (int r : cf.rows) what += std::to_string(r) + "(len " + std::to_string(lens[size_t(r)]) + ") ";
                what += "} n_sm=" + std::to_string(cf.n_sm);
                auto q = rounded(randn(size_t(N) * HK, 42 + N), dt);
                auto dq = to_device(q, dt);
                rc::DeviceBuffer drow(N * 4), dsingle(size_t(N) * HK * 4), dsplit(size_t(N) * HK * 4);
                RECEIPT_CUDA_CHECK(cudaMemcpy(drow.get(), cf.rows.data(), N * 4, cudaMemcpyHostToDevice));
                SplitScratch sc(N, H, K, cf.n_sm);
                const int n_split = rc::decode_attn_n_split(&sc.split, N, H, K);
                ASSERT_GT(n_split, 1) << what << ": the launcher would not split";
                what += " n_split=" + std::to_string(n_split);
                auto launch = [&](void* ctx, const rc::DecodeAttnSplit* split) {
                    rc::cross_attention_cuda(dt, dq.get(), dkv.get(), stride, int64_t(l) * 2 * HK,
                                             int64_t(l) * 2 * HK + HK, drow.as<int>(), dlen.as<int>(), N, H, K, S,
                                             ds.as<rc::DecodeState>(), ctx, nullptr, split);
                    RECEIPT_CUDA_CHECK(cudaDeviceSynchronize());
                };
                launch(dsingle.get(), nullptr);
                launch(dsplit.get(), &sc.split);
                const auto single = to_host(dsingle, size_t(N) * HK, dt), split1 = to_host(dsplit, single.size(), dt);
                EXPECT_EQ(sc.n_nonzero_counters(N * H), 0) << what << ": counters not reset";
                launch(dsplit.get(), &sc.split);  // a replay on the same scratch gives the same bits
                const auto split2 = to_host(dsplit, single.size(), dt);
                EXPECT_EQ(sc.n_nonzero_counters(N * H), 0) << what << ": counters not reset after the replay";
                int n_diff = 0;
                for (size_t i = 0; i < split1.size(); ++i) n_diff += std::memcmp(&split1[i], &split2[i], 4) != 0;
                EXPECT_EQ(n_diff, 0) << what << ": second launch differs from the first";
                std::vector<float> want(single.size());
                receipt::ops::cross_attention_cpu(q.data(), k.data(), v.data(), cf.rows.data(), lens.data(), N, S, H,
                                                  K, want.data());
                expect_close(want, split1, tol(dt), what + ": split vs CPU");
                expect_close(single, split1, split_vs_single_tol(dt), what + ": split vs single pass");
            }
        }
}

TEST_F(CudaOps, CrossAttentionPipelinedMatchesCpu) {
    // The streaming kernel (cross_attention_pipelined_cuda: 64-key chunks, online softmax) called directly, as
    // cross_attention_cuda routes a wide single-pass launch (40 rows x 8 heads over 16 SMs), and split into key
    // ranges. Source lengths 1, 37,
    // 128 (two whole chunks) and 513 (eight and one key); rows mapped to sources in a mixed order; K/V in the
    // engine's layout (layer 1 of 2 in one row of keys and values).
    const int B = 4, S = 513, H = 8, K = 64, L = 2, l = 1, HK = H * K, N = 40;
    const int64_t stride = int64_t(L) * 2 * HK;
    const std::vector<int> lens = {1, 37, 128, 513};
    std::vector<int> rows(N);
    for (int r = 0; r < N; ++r) rows[size_t(r)] = (r * 3 + r / 5) % B;
    for (DType dt : {DType::kF16, DType::kBF16, DType::kF32}) {  // f32: the fp16-a32 precisions' decoder
        const std::string what = name(dt);
        ASSERT_TRUE(
            rc::cross_attention_pipelined_supports(dt, K, stride, int64_t(l) * 2 * HK, int64_t(l) * 2 * HK + HK));
        auto kv = rounded(randn(size_t(B) * S * stride, 61, 0.5f), dt);
        auto q = rounded(randn(size_t(N) * HK, 62), dt);
        auto dkv = to_device(kv, dt), dq = to_device(q, dt);
        std::vector<float> k(size_t(B) * S * HK), v(k.size());
        for (int r = 0; r < B * S; ++r)
            for (int c = 0; c < HK; ++c) {
                k[size_t(r) * HK + c] = kv[size_t(r) * stride + l * 2 * HK + c];
                v[size_t(r) * HK + c] = kv[size_t(r) * stride + l * 2 * HK + HK + c];
            }
        rc::DeviceBuffer dlen(B * 4), drow(N * 4), ds(sizeof(rc::DecodeState)), d1(size_t(N) * HK * 4),
            d2(size_t(N) * HK * 4);
        const rc::DecodeState st{0, S, 0, 0, 0, 0};
        RECEIPT_CUDA_CHECK(cudaMemcpy(dlen.get(), lens.data(), B * 4, cudaMemcpyHostToDevice));
        RECEIPT_CUDA_CHECK(cudaMemcpy(drow.get(), rows.data(), N * 4, cudaMemcpyHostToDevice));
        RECEIPT_CUDA_CHECK(cudaMemcpy(ds.get(), &st, sizeof(st), cudaMemcpyHostToDevice));
        rc::cross_attention_pipelined_cuda(dt, dq.get(), dkv.get(), stride, int64_t(l) * 2 * HK,
                                           int64_t(l) * 2 * HK + HK, drow.as<int>(), dlen.as<int>(), N, H, K, S,
                                           ds.as<rc::DecodeState>(), d1.get(), nullptr);
        SplitScratch sc(N, H, K, 16);
        ASSERT_EQ(rc::decode_attn_n_split(&sc.split, N, H, K), 1) << what << ": wide launches do not split";
        rc::cross_attention_cuda(dt, dq.get(), dkv.get(), stride, int64_t(l) * 2 * HK, int64_t(l) * 2 * HK + HK,
                                 drow.as<int>(), dlen.as<int>(), N, H, K, S, ds.as<rc::DecodeState>(), d2.get(),
                                 nullptr, &sc.split);
        RECEIPT_CUDA_CHECK(cudaDeviceSynchronize());
        std::vector<float> want(size_t(N) * HK);
        receipt::ops::cross_attention_cpu(q.data(), k.data(), v.data(), rows.data(), lens.data(), N, S, H, K,
                                          want.data());
        const auto direct = to_host(d1, want.size(), dt), routed = to_host(d2, want.size(), dt);
        expect_close(want, direct, tol(dt), what + ": pipelined vs CPU");
        expect_close(want, routed, tol(dt), what + ": routed wide launch vs CPU");
        // Split-K: the first 1 and 4 rows (sources 0, 3, 2, 1: 1 .. 513 keys) over 132 SMs (5 to 17 key ranges,
        // some shorter than a chunk, some empty), twice on one scratch.
        for (int n : {1, 4}) {
            SplitScratch sp(n, H, K, 132);
            const int n_split = rc::decode_attn_n_split(&sp.split, n, H, K);
            ASSERT_GT(n_split, 1) << what;
            for (int rep = 0; rep < 2; ++rep)
                rc::cross_attention_pipelined_cuda(dt, dq.get(), dkv.get(), stride, int64_t(l) * 2 * HK,
                                                   int64_t(l) * 2 * HK + HK, drow.as<int>(), dlen.as<int>(), n, H, K,
                                                   S, ds.as<rc::DecodeState>(), d1.get(), nullptr, &sp.split);
            RECEIPT_CUDA_CHECK(cudaDeviceSynchronize());
            EXPECT_EQ(sp.n_nonzero_counters(n * H), 0) << what << ": counters not reset";
            const std::vector<float> want_n(want.begin(), want.begin() + size_t(n) * HK);
            expect_close(want_n, to_host(d1, want_n.size(), dt), tol(dt),
                         what + ": " + std::to_string(n) + " rows, n_split=" + std::to_string(n_split));
        }
    }
}

TEST_F(CudaOps, CrossAttentionAbsorbedMatchesCpu) {
    // q'_h = Wk_h^T q_h, c'_h = softmax_j(q'_h . e_j) e_j, ctx_h = Wv_h c'_h against the CPU cross-attention over
    // K = e Wk^T and V = e Wv^T (f32 from the same rounded inputs). Shapes: t5-small and t5-base heads, the receipt
    // model's d_model 384, and 20 heads of 32 (two head groups, the second partial); source lengths 1, 33 and S
    // (S not a multiple of the 32- or 64-key tile, and more tiles than pipeline stages); 40 rows mapped to sources
    // in a mixed order. This runs the kernel configuration the device gets (absorbed_config); run it with
    // RECEIPT_CUDA_CROSS_ABSORB_WIDE=0 in the environment for the narrow one.
    struct Shape { int D, H, K; };
    const int B = 3, S = 300;
    const std::vector<int> lens = {S, 33, 1};
    std::vector<int> rows(40);
    for (int r = 0; r < 40; ++r) rows[size_t(r)] = (r * 7 + r / 3) % B;
    const int R = int(rows.size());
    for (const Shape& sh : {Shape{512, 8, 64}, Shape{768, 12, 64}, Shape{384, 6, 64}, Shape{256, 20, 32}})
        for (DType dt : {DType::kF16, DType::kBF16}) {
            const int D = sh.D, H = sh.H, K = sh.K, HK = H * K;
            const std::string what = std::string(name(dt)) + " D=" + std::to_string(D) + " H=" + std::to_string(H) +
                                     " K=" + std::to_string(K);
            ASSERT_TRUE(rc::cross_attention_absorbed_supports(dt, D, K)) << what;
            auto enc = rounded(randn(size_t(B) * S * D, 51), dt);
            auto wk = rounded(randn(size_t(HK) * D, 52, 0.06f), dt), wv = rounded(randn(size_t(HK) * D, 53, 0.06f), dt);
            auto q = rounded(randn(size_t(R) * HK, 54), dt);
            std::vector<float> wk_t(size_t(HK) * D);
            for (int h = 0; h < H; ++h)
                for (int i = 0; i < D; ++i)
                    for (int c = 0; c < K; ++c) wk_t[(size_t(h) * D + i) * K + c] = wk[(size_t(h) * K + c) * D + i];
            auto denc = to_device(enc, dt), dwk_t = to_device(wk_t, dt), dwv = to_device(wv, dt), dq = to_device(q, dt);
            rc::DeviceBuffer dlen(B * 4), drow(R * 4), ds(sizeof(rc::DecodeState));
            rc::DeviceBuffer dqp(size_t(R) * H * D * 2), dcp(size_t(R) * H * D * 2), dctx(size_t(R) * HK * 2);
            const rc::DecodeState st{0, S, 0, 0, 0, 0};
            RECEIPT_CUDA_CHECK(cudaMemcpy(dlen.get(), lens.data(), B * 4, cudaMemcpyHostToDevice));
            RECEIPT_CUDA_CHECK(cudaMemcpy(drow.get(), rows.data(), R * 4, cudaMemcpyHostToDevice));
            RECEIPT_CUDA_CHECK(cudaMemcpy(ds.get(), &st, sizeof(st), cudaMemcpyHostToDevice));
            // Single pass, then split over key ranges (scratch for 8 ranges; 1056 SMs, so that every shape and
            // configuration splits: up to 8 ranges, some of them empty).
            const int groups = (H + 15) / 16;
            const size_t n_part = size_t(R) * groups * 8 * 16 * (D + 2);
            rc::DeviceBuffer dpart(n_part * 4), dcount(size_t(R) * groups * 4), dctx2(size_t(R) * HK * 2);
            RECEIPT_CUDA_CHECK(cudaMemset(dcount.get(), 0, dcount.size()));
            const rc::DecodeAttnSplit split{dpart.as<float>(), dcount.as<int>(), n_part, R * groups, 8, 1056};
            const int n_split = rc::absorbed_n_split(split, R, groups, D);
            ASSERT_GT(n_split, 1) << what;
            rc::cross_attention_absorbed_cuda(dt, dq.get(), denc.get(), dwk_t.get(), dwv.get(), drow.as<int>(),
                                              dlen.as<int>(), R, H, K, D, S, ds.as<rc::DecodeState>(), dqp.get(),
                                              dcp.get(), dctx.get(), nullptr);
            for (int rep = 0; rep < 2; ++rep)  // the second launch finds the counters reset by the first
                rc::cross_attention_absorbed_cuda(dt, dq.get(), denc.get(), dwk_t.get(), dwv.get(), drow.as<int>(),
                                                  dlen.as<int>(), R, H, K, D, S, ds.as<rc::DecodeState>(), dqp.get(),
                                                  dcp.get(), dctx2.get(), nullptr, &split);
            RECEIPT_CUDA_CHECK(cudaDeviceSynchronize());
            std::vector<int> counts(size_t(R) * groups);
            RECEIPT_CUDA_CHECK(cudaMemcpy(counts.data(), dcount.get(), counts.size() * 4, cudaMemcpyDeviceToHost));
            EXPECT_EQ(std::count(counts.begin(), counts.end(), 0), int(counts.size()))
                << what << ": counters not reset";
            std::vector<float> k(size_t(B) * S * HK), v(k.size());
            for (int j = 0; j < B * S; ++j)
                for (int o = 0; o < HK; ++o) {
                    double sk = 0.0, sv = 0.0;
                    for (int i = 0; i < D; ++i) {
                        sk += double(enc[size_t(j) * D + i]) * wk[size_t(o) * D + i];
                        sv += double(enc[size_t(j) * D + i]) * wv[size_t(o) * D + i];
                    }
                    k[size_t(j) * HK + o] = float(sk);
                    v[size_t(j) * HK + o] = float(sv);
                }
            std::vector<float> want(size_t(R) * HK);
            receipt::ops::cross_attention_cpu(q.data(), k.data(), v.data(), rows.data(), lens.data(), R, S, H, K,
                                              want.data());
            expect_close(want, to_host(dctx, want.size(), dt), tol(dt), what + " single pass");
            expect_close(want, to_host(dctx2, want.size(), dt), tol(dt),
                         what + " n_split=" + std::to_string(n_split));
        }
}

// One decoder self-attention step at position t: a random KV cache [N, H, T_max, K], qkv [N, 3, H, K] (rounded to
// dt; seeds seed + t, seed + 1 + t, seed + 2 + t) and bias [H, T_max] (seed + 3), on the host and on the device,
// with the DecodeState at step t.
struct SelfAttnStep {
    std::vector<float> cache_k, cache_v, qkv, bias;
    rc::DeviceBuffer dk, dv, dq, db, ds;
    SelfAttnStep(DType dt, int N, int H, int K, int T_max, int t, int seed)
        : cache_k(rounded(randn(size_t(N) * H * T_max * K, seed + t, 0.5f), dt)),
          cache_v(rounded(randn(cache_k.size(), seed + 1 + t), dt)),
          qkv(rounded(randn(size_t(N) * 3 * H * K, seed + 2 + t, 0.5f), dt)),
          bias(randn(size_t(H) * T_max, seed + 3)),
          dk(to_device(cache_k, dt)), dv(to_device(cache_v, dt)), dq(to_device(qkv, dt)),
          db(to_device(bias, DType::kF32)), ds(sizeof(rc::DecodeState)) {
        const rc::DecodeState st{t, 0, 0, 0, 0, 0};
        RECEIPT_CUDA_CHECK(cudaMemcpy(ds.get(), &st, sizeof(st), cudaMemcpyHostToDevice));
    }
    // The CPU reference output [N, H*K]; appends position t to the host cache first, as the kernels must.
    std::vector<float> want(int N, int H, int K, int T_max, int t) {
        const auto q = take_q_append_kv(qkv, N, H, K, T_max, t, cache_k, cache_v);
        std::vector<float> out(q.size());
        receipt::ops::decoder_self_attention_cpu(q.data(), cache_k.data(), cache_v.data(), bias.data(), N, H, K,
                                                 T_max, t, out.data());
        return out;
    }
};

TEST_F(CudaOps, DecoderSelfAttentionSplitKAppendsAndMatchesCpu) {
    // (The single-pass launches with d_kv 64 in 16 bits take the streaming kernel by default,
    // self_attention_pipelined_level; RECEIPT_CUDA_SELF_PIPE=0 keeps them on the one-query kernel.)
    // Positions t = 0, 36, 383, 512 (1, 37, 384, 513 keys) in a T_max = 520 cache; N = 1 (17 splits at 132 SMs)
    // and N = 2 (9 splits).
    const int H = 8, T_max = 520;
    for (DType dt : kTypes)
        for (int K : {64, 20})
            for (int N : {1, 2})
                for (int t : {0, 36, 383, 512}) {
                    const int HK = H * K;
                    const std::string what = std::string(name(dt)) + " K=" + std::to_string(K) + " N=" +
                                             std::to_string(N) + " t=" + std::to_string(t);
                    SelfAttnStep in(dt, N, H, K, T_max, t, 50);
                    rc::DeviceBuffer dsingle(size_t(N) * HK * 4), dsplit(size_t(N) * HK * 4);
                    SplitScratch sc(N, H, K, 132);
                    ASSERT_GT(rc::decode_attn_n_split(&sc.split, N, H, K), 1) << what;
                    auto launch = [&](void* ctx, const rc::DecodeAttnSplit* split) {
                        rc::decoder_self_attention_cuda(dt, in.dq.get(), in.dk.get(), in.dv.get(), in.db.as<float>(),
                                                        N, H, K, T_max, in.ds.as<rc::DecodeState>(), ctx, nullptr,
                                                        split);
                        RECEIPT_CUDA_CHECK(cudaDeviceSynchronize());
                    };
                    launch(dsplit.get(), &sc.split);  // split first: it alone must append position t
                    const auto split1 = to_host(dsplit, size_t(N) * HK, dt);
                    const auto got_k = to_host(in.dk, in.cache_k.size(), dt);
                    const auto got_v = to_host(in.dv, in.cache_v.size(), dt);
                    EXPECT_EQ(sc.n_nonzero_counters(N * H), 0) << what << ": counters not reset";
                    launch(dsingle.get(), nullptr);
                    const auto single = to_host(dsingle, split1.size(), dt);
                    const auto want = in.want(N, H, K, T_max, t);
                    expect_close(want, split1, tol(dt), what + ": split vs CPU");
                    expect_close(single, split1, split_vs_single_tol(dt), what + ": split vs single pass");
                    expect_close(in.cache_k, got_k, 1e-6f, what + ": K cache after the split launch");
                    expect_close(in.cache_v, got_v, 1e-6f, what + ": V cache after the split launch");
                }
}

TEST_F(CudaOps, SelfAttentionPipelinedAppendsAndMatchesCpu) {
    // The streaming self-attention (self_attention_pipelined_cuda: cached rows through shared memory in 64-key
    // chunks, position t from qkv) at t = 0 (only the new key), 63 and 64 (the new key last in a chunk / first of
    // the next), 200 and 512, for 3 rows: output against the CPU, and the cache after the append.
    const int H = 8, K = 64, T_max = 520, N = 3, HK = H * K;
    for (DType dt : {DType::kF16, DType::kBF16, DType::kF32})  // f32: the fp16-a32 precisions' decoder
        for (int t : {0, 63, 64, 200, 512}) {
            const std::string what = std::string(name(dt)) + " t=" + std::to_string(t);
            ASSERT_TRUE(rc::self_attention_pipelined_supports(dt, K));
            SelfAttnStep in(dt, N, H, K, T_max, t, 70);
            rc::DeviceBuffer dout(size_t(N) * HK * 4);
            rc::self_attention_pipelined_cuda(dt, in.dq.get(), in.dk.get(), in.dv.get(), in.db.as<float>(), N, H, K,
                                              T_max, in.ds.as<rc::DecodeState>(), dout.get(), nullptr, 132);
            RECEIPT_CUDA_CHECK(cudaDeviceSynchronize());
            const auto got = to_host(dout, size_t(N) * HK, dt);
            const auto got_k = to_host(in.dk, in.cache_k.size(), dt), got_v = to_host(in.dv, in.cache_v.size(), dt);
            const auto want = in.want(N, H, K, T_max, t);
            expect_close(want, got, tol(dt), what + ": vs CPU");
            expect_close(in.cache_k, got_k, 1e-6f, what + ": K cache after the append");
            expect_close(in.cache_v, got_v, 1e-6f, what + ": V cache after the append");
        }
}

// Beam candidates on the GPU (beam_topk_cuda) against a host reference: log_softmax over the whole row, the
// masked id left out, the k best by value with the lower id first among equal values (quantised logits: ties).
TEST_F(CudaOps, BeamTopKMatchesHostSelection) {
    const int R = 5, V = 3001;
    auto logits = randn(size_t(R) * V, 41, 3.0f);
    for (float& x : logits) x = std::round(x * 4.0f) / 4.0f;
    logits[2 * size_t(V) + 7] = -INFINITY;  // -inf logits stay candidates (last)
    auto dl = to_device(logits, DType::kF32);
    for (int k : {1, 8, 64})
        for (int masked : {-1, 1}) {
            rc::DeviceBuffer dv(size_t(R) * k * 4), di(size_t(R) * k * 4);
            rc::beam_topk_cuda(dl.as<float>(), R, V, k, masked, dv.as<float>(), di.as<int>(), nullptr);
            std::vector<float> vals(size_t(R) * k);
            std::vector<int> ids(size_t(R) * k);
            RECEIPT_CUDA_CHECK(cudaMemcpy(vals.data(), dv.get(), vals.size() * 4, cudaMemcpyDeviceToHost));
            RECEIPT_CUDA_CHECK(cudaMemcpy(ids.data(), di.get(), ids.size() * 4, cudaMemcpyDeviceToHost));
            std::vector<float> lp(logits.size());
            receipt::ops::log_softmax_cpu(logits.data(), R, V, lp.data());
            for (int r = 0; r < R; ++r) {
                const float* row = lp.data() + size_t(r) * V;
                std::vector<int> idx;
                for (int v = 0; v < V; ++v)
                    if (v != masked) idx.push_back(v);
                std::partial_sort(idx.begin(), idx.begin() + k, idx.end(),
                                  [&](int a, int b) { return row[a] > row[b] || (row[a] == row[b] && a < b); });
                for (int c = 0; c < k; ++c) {
                    EXPECT_EQ(ids[size_t(r) * k + c], idx[size_t(c)]) << "row " << r << " k " << k << " rank " << c;
                    EXPECT_NEAR(vals[size_t(r) * k + c], row[idx[size_t(c)]], 1e-5f) << "row " << r << " rank " << c;
                }
            }
        }
}

// The switches' level parser (host only: runs without a GPU).
TEST(CudaSwitches, EnvLevelTakesOneDigitInRange) {
    const char* name = "RECEIPT_TEST_ENV_LEVEL";
    ::unsetenv(name);
    EXPECT_EQ(rc::env_level(name, 3, 2), 2) << "unset";
    const std::pair<const char*, int> cases[] = {{"0", 0}, {"1", 1}, {"3", 3}, {"4", 2}, {"", 2},
                                                 {"12", 2}, {"x", 2}, {" 1", 2}, {"-1", 2}};
    for (const auto& [value, want] : cases) {
        ::setenv(name, value, 1);
        EXPECT_EQ(rc::env_level(name, 3, 2), want) << "'" << value << "'";
    }
    ::unsetenv(name);
}

}  // namespace

#else  // !RECEIPT_WITH_CUDA

TEST(CudaDecodeOps, NotBuilt) {
    GTEST_SKIP() << "cuda_decode_ops_test was built without RECEIPT_WITH_CUDA (see docs/numerics.md, Testing)";
}

#endif
