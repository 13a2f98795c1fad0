// CUDA kernels and cuBLASLt GEMMs vs the fp32 CPU ops, over {f32, f16, bf16} and odd sizes (label: cuda).
// Needs RECEIPT_WITH_CUDA and the CUDA include path for this test target (see docs/numerics.md, "Testing");
// without them it compiles to one skipped test.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "receipt/engine.h"

#if defined(RECEIPT_WITH_CUDA)
#include <cuda_runtime_api.h>

#include "cuda/cuda_check.h"
#include "cuda/device_buffer.h"
#include "cuda/gemm_lt.h"
#include "ops/attention.h"
#include "ops/elementwise.h"
#include "ops/t5_ops_cuda.h"
#include "cuda_test_util.h"

using namespace cuda_test;

namespace {

TEST_F(CudaOps, GemmOddSizesAllEpilogues) {
    rc::GemmLt gemm;
    struct Shape { int m, n, k; };
    for (DType dt : kTypes)
        for (Shape s : {Shape{1, 64, 48}, Shape{5, 37, 24}, Shape{7, 19, 13}, Shape{64, 96, 128}})
            for (int mode = 0; mode < 3; ++mode) {  // 0: plain, 1: relu epilogue, 2: f32 accumulate (residual)
                const std::string what = std::string(name(dt)) + " m=" + std::to_string(s.m) + " n=" +
                                         std::to_string(s.n) + " k=" + std::to_string(s.k) + " mode " +
                                         std::to_string(mode);
                const auto x = rounded(randn(size_t(s.m) * s.k, 1), dt), w = rounded(randn(size_t(s.n) * s.k, 2), dt);
                auto y0 = randn(size_t(s.m) * s.n, 3);
                auto dx = to_device(x, dt), dw = to_device(w, dt);
                const bool out_f32 = mode == 2;
                rc::DeviceBuffer dy = out_f32 ? to_device(y0, DType::kF32) : rc::DeviceBuffer(y0.size() * 4 + 4);
                rc::GemmSpec spec{s.m, s.n, s.k, s.k, s.k, s.n, dt, out_f32, mode == 2,
                                  mode == 1 ? rc::Epilogue::kRelu : rc::Epilogue::kNone};
                try {
                    gemm.run(spec, dx.get(), dw.get(), dy.get(), 0.5f, nullptr);
                } catch (const receipt::CudaError& e) {
                    ADD_FAILURE() << what << ": " << e.what();
                    continue;
                }
                RECEIPT_CUDA_CHECK(cudaDeviceSynchronize());
                std::vector<float> want(size_t(s.m) * s.n);
                for (int i = 0; i < s.m; ++i)
                    for (int j = 0; j < s.n; ++j) {
                        double acc = 0;
                        for (int k = 0; k < s.k; ++k) acc += double(x[size_t(i) * s.k + k]) * w[size_t(j) * s.k + k];
                        float v = 0.5f * float(acc);
                        if (mode == 1) v = std::max(v, 0.0f);
                        if (mode == 2) v += y0[size_t(i) * s.n + j];
                        want[size_t(i) * s.n + j] = v;
                    }
                expect_close(want, to_host(dy, want.size(), out_f32 ? DType::kF32 : dt), tol(dt), what);
            }
}

// f32 inputs on half-precision weights (GemmSpec::split_x, the fp16-a32 / bf16-a32 precisions): y follows the
// f32 product of x with the (rounded) weights to f32 rounding, far closer than the plain half-precision GEMM, whose
// x is rounded to 11 (f16) or 8 (bf16) bits. Both routes: the small-M kernel reading the f32 x (m <= 2) and the
// split into two half-precision parts on cuBLASLt (m = 5, 64, and every m with the small-M kernel off); the ReLU after
// the sum of both parts, accumulation into y, a row stride ldx > k, and the error for a missing or too small
// scratch.
TEST_F(CudaOps, SplitGemmKeepsF32Inputs) {
    rc::GemmLt gemm;
    struct Shape { int m, n, k; };
    for (bool gemv : {true, false})
    for (DType dt : {DType::kF16, DType::kBF16})
        for (Shape s : {Shape{1, 64, 48}, Shape{2, 96, 512}, Shape{5, 37, 24}, Shape{64, 96, 128}})
            for (int mode = 0; mode < 3; ++mode) {  // 0: plain, 1: relu epilogue, 2: accumulate into y
                gemm.set_use_gemv(gemv);
                const bool split = !gemv || s.m > 2;  // else the small-M kernel (m <= 2), no scratch
                const std::string what = std::string(name(dt)) + " m=" + std::to_string(s.m) + " n=" +
                                         std::to_string(s.n) + " k=" + std::to_string(s.k) + " mode " +
                                         std::to_string(mode) + (split ? " split" : " small-M");
                const int ldx = s.k + 3;
                const auto x = randn(size_t(s.m) * ldx, 11, 3.0f);  // f32 values, not representable in dt
                const auto w = rounded(randn(size_t(s.n) * s.k, 12, 0.1f), dt);
                const auto y0 = randn(size_t(s.m) * s.n, 13);
                auto dx = to_device(x, DType::kF32), dw = to_device(w, dt), dy = to_device(y0, DType::kF32);
                rc::DeviceBuffer scratch(rc::GemmLt::split_scratch_bytes(s.m, s.k, dt));
                rc::GemmSpec spec{s.m, s.n, s.k, ldx, s.k, s.n, dt, true, mode == 2,
                                  mode == 1 ? rc::Epilogue::kRelu : rc::Epilogue::kNone};
                spec.split_x = true;
                if (mode == 0 && split) {  // no scratch, or one byte short: a clear error, no launch
                    gemm.set_split_scratch(nullptr, 0);
                    EXPECT_THROW(gemm.run(spec, dx.get(), dw.get(), dy.get(), 0.5f, nullptr), receipt::InvalidInput)
                        << what;
                    gemm.set_split_scratch(scratch.get(), scratch.size() - 1);
                    EXPECT_THROW(gemm.run(spec, dx.get(), dw.get(), dy.get(), 0.5f, nullptr), receipt::InvalidInput)
                        << what;
                }
                gemm.set_split_scratch(scratch.get(), scratch.size());
                gemm.run(spec, dx.get(), dw.get(), dy.get(), 0.5f, nullptr);
                // The same GEMM on x rounded to dt: the error the split removes.
                const auto xr = rounded(x, dt);
                auto dxr = to_device(xr, dt), dyr = to_device(y0, DType::kF32);
                rc::GemmSpec plain = spec;
                plain.split_x = false;
                gemm.set_use_gemv(false);
                gemm.run(plain, dxr.get(), dw.get(), dyr.get(), 0.5f, nullptr);
                RECEIPT_CUDA_CHECK(cudaDeviceSynchronize());
                const auto got = to_host(dy, size_t(s.m) * s.n, DType::kF32);
                const auto got_plain = to_host(dyr, size_t(s.m) * s.n, DType::kF32);
                // Bound per output: the parts hold x to 2^-22 (f16) / 2^-16 (bf16) relative, f32 accumulation adds
                // about 2^-24 per term; both scale with sum_k |x_k w_k|.
                const double eps = (dt == DType::kF16 ? std::ldexp(1.0, -21) : std::ldexp(1.0, -15)) + std::ldexp(1.0, -19);
                double ratio = 0, err = 0, err_plain = 0;
                for (int i = 0; i < s.m; ++i)
                    for (int j = 0; j < s.n; ++j) {
                        double acc = 0, mag = 0;
                        for (int k = 0; k < s.k; ++k) {
                            const double p = double(x[size_t(i) * ldx + k]) * w[size_t(j) * s.k + k];
                            acc += p;
                            mag += std::fabs(p);
                        }
                        double v = 0.5 * acc;
                        if (mode == 2) v += y0[size_t(i) * s.n + j];
                        if (mode == 1) v = std::max(v, 0.0);
                        const size_t o = size_t(i) * s.n + j;
                        const double tol_o = eps * 0.5 * mag + 1e-6 * std::fabs(v) + 1e-30;
                        err = std::max(err, std::fabs(got[o] - v));
                        err_plain = std::max(err_plain, std::fabs(got_plain[o] - v));
                        ratio = std::max(ratio, std::fabs(got[o] - v) / tol_o);
                    }
                EXPECT_LE(ratio, 1.0) << what << ": max error " << err << " (plain " << name(dt) << " GEMM: " << err_plain
                                      << ")";
                EXPECT_LT(err * 8, err_plain) << what;
            }
}

TEST_F(CudaOps, RmsNormWithResidualAdd) {
    for (DType dt : kTypes)
        for (int D : {77, 512, 1000}) {
            const int n = 3;
            auto resid = randn(size_t(n) * D, 4, 3.0f), w = randn(D, 5), delta = rounded(randn(size_t(n) * D, 6), dt);
            auto dr = to_device(resid, DType::kF32), dd = to_device(delta, dt), dw = to_device(w, DType::kF32);
            rc::DeviceBuffer dy(size_t(n) * D * 4);
            rc::rmsnorm_cuda(dt, dr.as<float>(), dd.get(), dw.as<float>(), n, D, 1e-6f, dy.get(), nullptr);
            RECEIPT_CUDA_CHECK(cudaDeviceSynchronize());
            for (size_t i = 0; i < resid.size(); ++i) resid[i] += delta[i];
            std::vector<float> want(resid.size());
            receipt::ops::rms_norm_cpu(resid.data(), w.data(), n, D, 1e-6f, want.data());
            const std::string what = std::string(name(dt)) + " D=" + std::to_string(D);
            expect_close(resid, to_host(dr, resid.size(), DType::kF32), 1e-6f, what + " residual");
            expect_close(want, to_host(dy, want.size(), dt), tol(dt), what + " norm");
        }
}

TEST_F(CudaOps, GatedGelu) {
    for (DType dt : kTypes) {
        const int n = 5, F = 99;
        auto h = rounded(randn(size_t(n) * 2 * F, 7, 2.0f), dt);
        auto dh = to_device(h, dt);
        rc::DeviceBuffer dy(size_t(n) * F * 4);
        rc::gated_act_cuda(dt, dh.get(), n, F, true, dy.get(), nullptr);
        RECEIPT_CUDA_CHECK(cudaDeviceSynchronize());
        std::vector<float> want(size_t(n) * F);
        for (int i = 0; i < n; ++i) {
            std::vector<float> a(h.begin() + i * 2 * F, h.begin() + i * 2 * F + F);
            std::vector<float> b(h.begin() + i * 2 * F + F, h.begin() + (i + 1) * 2 * F);
            receipt::ops::gated_gelu_cpu(a.data(), b.data(), F);
            std::copy(a.begin(), a.end(), want.begin() + i * F);
        }
        expect_close(want, to_host(dy, want.size(), dt), tol(dt), std::string(name(dt)) + " gated gelu");
    }
}

TEST_F(CudaOps, EncoderAttentionBiasAndMask) {
    for (DType dt : kTypes)
        for (int K : {16, 20}) {  // vectorised and scalar paths
            const int B = 2, S = 13, H = 3, HK = H * K, S_bias = 17;
            const std::vector<int> lens = {13, 7};
            auto qkv = rounded(randn(size_t(B) * S * 3 * HK, 8), dt);
            auto bias = randn(size_t(H) * (2 * S_bias - 1), 9);
            auto dq = to_device(qkv, dt), db = to_device(bias, DType::kF32);
            rc::DeviceBuffer dl(B * 4), dctx(size_t(B) * S * HK * 4);
            RECEIPT_CUDA_CHECK(cudaMemcpy(dl.get(), lens.data(), B * 4, cudaMemcpyHostToDevice));
            rc::encoder_attention_cuda(dt, dq.get(), db.as<float>(), S_bias, dl.as<int>(), B, S, H, K, dctx.get(),
                                       nullptr);
            RECEIPT_CUDA_CHECK(cudaDeviceSynchronize());
            std::vector<float> q(size_t(B) * S * HK), k(q.size()), v(q.size()), full(size_t(H) * S * S);
            for (int r = 0; r < B * S; ++r)
                for (int c = 0; c < HK; ++c) {
                    q[size_t(r) * HK + c] = qkv[size_t(r) * 3 * HK + c];
                    k[size_t(r) * HK + c] = qkv[size_t(r) * 3 * HK + HK + c];
                    v[size_t(r) * HK + c] = qkv[size_t(r) * 3 * HK + 2 * HK + c];
                }
            for (int h = 0; h < H; ++h)
                for (int i = 0; i < S; ++i)
                    for (int j = 0; j < S; ++j)
                        full[(size_t(h) * S + i) * S + j] = bias[size_t(h) * (2 * S_bias - 1) + j - i + S_bias - 1];
            std::vector<float> want(q.size()), scratch;
            receipt::ops::encoder_attention_cpu(q.data(), k.data(), v.data(), full.data(), lens.data(), B, S, H, K,
                                                want.data(), scratch);
            auto got = to_host(dctx, want.size(), dt);
            for (int b = 0; b < B; ++b)  // padded query rows are not compared (never read downstream)
                for (int i = lens[b]; i < S; ++i)
                    for (int c = 0; c < HK; ++c) got[(size_t(b) * S + i) * HK + c] = want[(size_t(b) * S + i) * HK + c];
            expect_close(want, got, tol(dt), std::string(name(dt)) + " K=" + std::to_string(K));
        }
}

TEST_F(CudaOps, EncoderAttentionTiledMatchesPerWarpExactly) {
    // The tiled kernel (K/V staged in shared memory) and the per-warp kernel share the per-query arithmetic: the
    // results must be bit-identical, over several query tiles and a sequence shorter than its padding.
    struct Shape { int S, S_bias, K; };
    for (const Shape& sh : {Shape{150, 160, 64}, Shape{131, 131, 32}})  // the second: S = S_bias, partial tiles
    for (DType dt : {DType::kF16, DType::kBF16}) {
        const int B = 3, S = sh.S, H = 4, K = sh.K, HK = H * K, S_bias = sh.S_bias;
        const std::vector<int> lens = {S, 37, 1};
        auto qkv = rounded(randn(size_t(B) * S * 3 * HK, 21), dt);
        auto bias = randn(size_t(H) * (2 * S_bias - 1), 22);
        auto dq = to_device(qkv, dt), db = to_device(bias, DType::kF32);
        rc::DeviceBuffer dl(B * 4), d1(size_t(B) * S * HK * 2), d2(size_t(B) * S * HK * 2);
        RECEIPT_CUDA_CHECK(cudaMemcpy(dl.get(), lens.data(), B * 4, cudaMemcpyHostToDevice));
        rc::encoder_attention_tiled_cuda(dt, dq.get(), db.as<float>(), S_bias, dl.as<int>(), B, S, H, K, d1.get(),
                                         nullptr);
        rc::encoder_attention_per_warp_cuda(dt, dq.get(), db.as<float>(), S_bias, dl.as<int>(), B, S, H, K, d2.get(),
                                            nullptr);
        RECEIPT_CUDA_CHECK(cudaDeviceSynchronize());
        std::vector<uint16_t> a(size_t(B) * S * HK), b(a.size());
        RECEIPT_CUDA_CHECK(cudaMemcpy(a.data(), d1.get(), a.size() * 2, cudaMemcpyDeviceToHost));
        RECEIPT_CUDA_CHECK(cudaMemcpy(b.data(), d2.get(), b.size() * 2, cudaMemcpyDeviceToHost));
        size_t diff = 0;
        for (int bb = 0; bb < B; ++bb)
            for (int i = 0; i < lens[size_t(bb)]; ++i)
                for (int c = 0; c < HK; ++c) diff += a[(size_t(bb) * S + i) * HK + c] != b[(size_t(bb) * S + i) * HK + c];
        EXPECT_EQ(diff, 0u) << name(dt) << " S=" << S << " K=" << K;
    }
}

TEST_F(CudaOps, EncoderAttentionTensorCoresMatchPerWarp) {
    // The tensor-core kernel sums in another order than the per-warp kernel (f32 arithmetic throughout), so it is
    // compared with a tolerance: within a few storage ulps of the output scale. Covers several query blocks, a
    // last key tile that is partly masked, sequences of 1 and 0 valid keys, large scores (near one-hot softmax)
    // and each supported head size.
    struct Shape { int S, S_bias, K; float scale; };
    for (const Shape& sh : {Shape{150, 160, 64, 1.0f}, Shape{131, 131, 32, 1.0f}, Shape{70, 80, 128, 1.0f},
                            Shape{200, 200, 64, 4.0f}})
    for (DType dt : {DType::kF16, DType::kBF16}) {
        const int B = 4, S = sh.S, H = 3, K = sh.K, HK = H * K, S_bias = sh.S_bias;
        const std::vector<int> lens = {S, 37, 1, 0};
        auto qkv = rounded(randn(size_t(B) * S * 3 * HK, 31, sh.scale), dt);
        auto bias = randn(size_t(H) * (2 * S_bias - 1), 32, 2.0f);
        auto dq = to_device(qkv, dt), db = to_device(bias, DType::kF32);
        rc::DeviceBuffer dl(B * 4), d1(size_t(B) * S * HK * 2), d2(size_t(B) * S * HK * 2);
        RECEIPT_CUDA_CHECK(cudaMemcpy(dl.get(), lens.data(), B * 4, cudaMemcpyHostToDevice));
        ASSERT_TRUE(rc::encoder_attention_mma_supports(dt, K));
        rc::encoder_attention_mma_cuda(dt, dq.get(), db.as<float>(), S_bias, dl.as<int>(), B, S, H, K, d1.get(),
                                       nullptr);
        rc::encoder_attention_per_warp_cuda(dt, dq.get(), db.as<float>(), S_bias, dl.as<int>(), B, S, H, K, d2.get(),
                                            nullptr);
        RECEIPT_CUDA_CHECK(cudaDeviceSynchronize());
        auto got = to_host(d1, size_t(B) * S * HK, dt), want = to_host(d2, got.size(), dt);
        const std::string what = std::string(name(dt)) + " S=" + std::to_string(S) + " K=" + std::to_string(K) +
                                 " scale=" + std::to_string(sh.scale);
        for (int b = 0; b < B; ++b)  // every row, padded query rows included (computed as HF does)
            for (int c = 0; c < S * HK; ++c) ASSERT_TRUE(std::isfinite(got[size_t(b) * S * HK + c])) << what;
        expect_close(want, got, dt == DType::kF16 ? 4e-3f : 2e-2f, what);
        for (int c = 0; c < S * HK; ++c) ASSERT_EQ(got[size_t(3) * S * HK + c], 0.0f) << what << ": no valid keys";
    }
}

TEST_F(CudaOps, EncoderAttentionSplitF32OnTensorCoresMatchesF32) {
    // f32 q / k / v (the fp16-a32 precisions' encoder) on the tensor-core kernel as hi + lo halves: within f32
    // rounding of the f32 per-warp kernel for f16 halves (bf16 halves keep 16 bits), far closer than the plain
    // 16-bit kernel on the inputs rounded to f16. Measured on an H200 (f16 halves): 5.6e-4 of an output scale of
    // 17.6 at scale 4, within the bound below. Query blocks, a partly masked last key tile, 1 and 0 valid keys.
    struct Shape { int S, S_bias, K; float scale; };
    for (const Shape& sh : {Shape{150, 160, 64, 1.0f}, Shape{131, 131, 32, 1.0f}, Shape{200, 200, 64, 4.0f}})
        for (DType half : {DType::kF16, DType::kBF16}) {
            const int B = 4, S = sh.S, H = 3, K = sh.K, HK = H * K, S_bias = sh.S_bias;
            const std::vector<int> lens = {S, 37, 1, 0};
            const auto qkv = randn(size_t(B) * S * 3 * HK, 33, sh.scale);  // f32 values, not representable in half
            auto bias = randn(size_t(H) * (2 * S_bias - 1), 34, 2.0f);
            auto dq = to_device(qkv, DType::kF32), db = to_device(bias, DType::kF32);
            rc::DeviceBuffer dl(B * 4), d1(size_t(B) * S * HK * 4), d2(size_t(B) * S * HK * 4);
            RECEIPT_CUDA_CHECK(cudaMemcpy(dl.get(), lens.data(), B * 4, cudaMemcpyHostToDevice));
            const std::string what = std::string(name(half)) + " halves S=" + std::to_string(S) + " K=" +
                                     std::to_string(K) + " scale=" + std::to_string(sh.scale);
            ASSERT_TRUE(rc::encoder_attention_mma_supports(DType::kF32, K, half)) << what;
            ASSERT_FALSE(rc::encoder_attention_mma_supports(DType::kF32, 128, half)) << what;
            ASSERT_FALSE(rc::encoder_attention_mma_supports(DType::kF32, K)) << what << ": no halves, no split";
            rc::encoder_attention_mma_cuda(DType::kF32, dq.get(), db.as<float>(), S_bias, dl.as<int>(), B, S, H, K,
                                           d1.get(), nullptr, half);
            rc::encoder_attention_per_warp_cuda(DType::kF32, dq.get(), db.as<float>(), S_bias, dl.as<int>(), B, S, H,
                                                K, d2.get(), nullptr);
            // The plain half-precision kernel on q / k / v rounded to f16: the error the split removes.
            auto dr = to_device(rounded(qkv, DType::kF16), DType::kF16);
            rc::DeviceBuffer d3(size_t(B) * S * HK * 2);
            rc::encoder_attention_mma_cuda(DType::kF16, dr.get(), db.as<float>(), S_bias, dl.as<int>(), B, S, H, K,
                                           d3.get(), nullptr);
            RECEIPT_CUDA_CHECK(cudaDeviceSynchronize());
            const auto got = to_host(d1, size_t(B) * S * HK, DType::kF32), want = to_host(d2, got.size(), DType::kF32);
            const auto plain = to_host(d3, got.size(), DType::kF16);
            double err = 0, err_plain = 0, scale = 1e-6;
            for (size_t i = 0; i < got.size(); ++i) {
                ASSERT_TRUE(std::isfinite(got[i])) << what;
                err = std::max(err, double(std::fabs(got[i] - want[i])));
                err_plain = std::max(err_plain, double(std::fabs(plain[i] - want[i])));
                scale = std::max(scale, double(std::fabs(want[i])));
            }
            // Scores grow with scale^2 (|q . k| up to ~100 at scale 4), and so do f32's own rounding errors in them.
            EXPECT_LE(err, (half == DType::kF16 ? 2e-5 * sh.scale * sh.scale : 1e-3) * scale) << what;
            if (half == DType::kF16) EXPECT_LT(err * 20, err_plain) << what << ": no closer than f16 inputs";
            for (int c = 0; c < S * HK; ++c) ASSERT_EQ(got[size_t(3) * S * HK + c], 0.0f) << what << ": no valid keys";
        }
}

TEST_F(CudaOps, DecoderSelfAttentionAppendsAndAttends) {
    for (DType dt : kTypes) {
        const int N = 3, H = 2, K = 16, HK = H * K, T_max = 11, t = 6;
        auto cache_k = rounded(randn(size_t(N) * H * T_max * K, 10), dt);
        auto cache_v = rounded(randn(cache_k.size(), 11), dt);
        auto qkv = rounded(randn(size_t(N) * 3 * HK, 12), dt);
        auto bias = randn(size_t(H) * T_max, 13);
        auto dk = to_device(cache_k, dt), dv = to_device(cache_v, dt), dq = to_device(qkv, dt);
        auto db = to_device(bias, DType::kF32);
        rc::DecodeState st{t, 0, 0, 0, 0, 0};
        rc::DeviceBuffer ds(sizeof(st)), dctx(size_t(N) * HK * 4);
        RECEIPT_CUDA_CHECK(cudaMemcpy(ds.get(), &st, sizeof(st), cudaMemcpyHostToDevice));
        rc::decoder_self_attention_cuda(dt, dq.get(), dk.get(), dv.get(), db.as<float>(), N, H, K, T_max,
                                        ds.as<rc::DecodeState>(), dctx.get(), nullptr);
        RECEIPT_CUDA_CHECK(cudaDeviceSynchronize());
        const auto q = take_q_append_kv(qkv, N, H, K, T_max, t, cache_k, cache_v);
        std::vector<float> want(q.size());
        receipt::ops::decoder_self_attention_cpu(q.data(), cache_k.data(), cache_v.data(), bias.data(), N, H, K, T_max,
                                                 t, want.data());
        expect_close(want, to_host(dctx, want.size(), dt), tol(dt), std::string(name(dt)) + " self-attention");
        expect_close(cache_k, to_host(dk, cache_k.size(), dt), 1e-6f, std::string(name(dt)) + " cache append");
    }
}

TEST_F(CudaOps, CrossAttentionRowsToSources) {
    for (DType dt : kTypes) {
        const int B = 2, S = 9, H = 3, K = 24, HK = H * K, N = 4, L = 2, l = 1, S_max = 12;
        const int64_t stride = int64_t(L) * 2 * HK;
        auto kv = rounded(randn(size_t(B) * S * stride, 14), dt);
        auto q = rounded(randn(size_t(N) * HK, 15), dt);
        const std::vector<int> rows = {1, 0, 1, 1}, lens = {9, 4};
        auto dkv = to_device(kv, dt), dq = to_device(q, dt);
        rc::DeviceBuffer drow(N * 4), dlen(B * 4), ds(sizeof(rc::DecodeState)), dctx(size_t(N) * HK * 4);
        rc::DecodeState st{0, S, 0, 0, 0, 0};
        RECEIPT_CUDA_CHECK(cudaMemcpy(drow.get(), rows.data(), N * 4, cudaMemcpyHostToDevice));
        RECEIPT_CUDA_CHECK(cudaMemcpy(dlen.get(), lens.data(), B * 4, cudaMemcpyHostToDevice));
        RECEIPT_CUDA_CHECK(cudaMemcpy(ds.get(), &st, sizeof(st), cudaMemcpyHostToDevice));
        rc::cross_attention_cuda(dt, dq.get(), dkv.get(), stride, int64_t(l) * 2 * HK, int64_t(l) * 2 * HK + HK,
                                 drow.as<int>(), dlen.as<int>(), N, H, K, S_max, ds.as<rc::DecodeState>(), dctx.get(),
                                 nullptr);
        RECEIPT_CUDA_CHECK(cudaDeviceSynchronize());
        std::vector<float> k(size_t(B) * S * HK), v(k.size());
        for (int r = 0; r < B * S; ++r)
            for (int c = 0; c < HK; ++c) {
                k[size_t(r) * HK + c] = kv[size_t(r) * stride + l * 2 * HK + c];
                v[size_t(r) * HK + c] = kv[size_t(r) * stride + l * 2 * HK + HK + c];
            }
        std::vector<float> want(q.size());
        receipt::ops::cross_attention_cpu(q.data(), k.data(), v.data(), rows.data(), lens.data(), N, S, H, K,
                                          want.data());
        expect_close(want, to_host(dctx, want.size(), dt), tol(dt), std::string(name(dt)) + " cross-attention");
    }
}

TEST_F(CudaOps, GreedySelectTiesMaskAndFinished) {
    const int R = 3, V = 1001, T_max = 8, eos = 1, pad = 0;
    std::vector<float> logits = randn(size_t(R) * V, 16);
    logits[0 * V + 500] = 50.0f;  // row 0: tie between 500 and 700 -> 500
    logits[0 * V + 700] = 50.0f;
    logits[1 * V + eos] = 60.0f;  // row 1: EOS wins but is masked at step < min_new
    logits[1 * V + 3] = 55.0f;
    const std::vector<int> finished0 = {0, 0, 1};
    auto dl = to_device(logits, DType::kF32);
    rc::DeviceBuffer dfin(R * 4), dnext(R * 4), dtok(R * T_max * 4), dsc(R * 4), ds(sizeof(rc::DecodeState));
    RECEIPT_CUDA_CHECK(cudaMemcpy(dfin.get(), finished0.data(), R * 4, cudaMemcpyHostToDevice));
    RECEIPT_CUDA_CHECK(cudaMemset(dsc.get(), 0, R * 4));
    rc::DecodeState st{2, 0, 3, 0, 0, 0};
    RECEIPT_CUDA_CHECK(cudaMemcpy(ds.get(), &st, sizeof(st), cudaMemcpyHostToDevice));
    rc::greedy_select_cuda(dl.as<float>(), R, V, eos, pad, ds.as<rc::DecodeState>(), dfin.as<int>(), dnext.as<int>(),
                           dtok.as<int>(), T_max, dsc.as<float>(), nullptr);
    RECEIPT_CUDA_CHECK(cudaDeviceSynchronize());
    std::vector<int> next(R), fin(R);
    std::vector<float> sc(R);
    RECEIPT_CUDA_CHECK(cudaMemcpy(next.data(), dnext.get(), R * 4, cudaMemcpyDeviceToHost));
    RECEIPT_CUDA_CHECK(cudaMemcpy(fin.data(), dfin.get(), R * 4, cudaMemcpyDeviceToHost));
    RECEIPT_CUDA_CHECK(cudaMemcpy(sc.data(), dsc.get(), R * 4, cudaMemcpyDeviceToHost));
    RECEIPT_CUDA_CHECK(cudaMemcpy(&st, ds.get(), sizeof(st), cudaMemcpyDeviceToHost));
    EXPECT_EQ(next[0], 500);
    EXPECT_EQ(next[1], 3);
    EXPECT_EQ(next[2], pad);
    EXPECT_EQ(fin[0], 0);
    EXPECT_EQ(fin[2], 1);
    EXPECT_EQ(sc[2], 0.0f);
    EXPECT_EQ(st.step, 3);  // the launch closed the step
    EXPECT_EQ(st.all_finished, 0);
    EXPECT_EQ(st.n_unfinished, 0);
    EXPECT_EQ(st.n_selected, 0);
    // Row 0's log-prob: two equal maxima share the mass -> about -log(2).
    EXPECT_NEAR(sc[0], -std::log(2.0f), 1e-3f);

    // Next step (3 >= min_new): row 1's EOS now wins, row 0 keeps going; then with row 0 at EOS too, all finished.
    rc::greedy_select_cuda(dl.as<float>(), R, V, eos, pad, ds.as<rc::DecodeState>(), dfin.as<int>(), dnext.as<int>(),
                           dtok.as<int>(), T_max, dsc.as<float>(), nullptr);
    RECEIPT_CUDA_CHECK(cudaMemcpy(&st, ds.get(), sizeof(st), cudaMemcpyDeviceToHost));
    RECEIPT_CUDA_CHECK(cudaMemcpy(next.data(), dnext.get(), R * 4, cudaMemcpyDeviceToHost));
    EXPECT_EQ(next[1], eos);
    EXPECT_EQ(st.step, 4);
    EXPECT_EQ(st.all_finished, 0);
    logits[0 * V + eos] = 99.0f;
    auto dl2 = to_device(logits, DType::kF32);
    rc::greedy_select_cuda(dl2.as<float>(), R, V, eos, pad, ds.as<rc::DecodeState>(), dfin.as<int>(), dnext.as<int>(),
                           dtok.as<int>(), T_max, dsc.as<float>(), nullptr);
    RECEIPT_CUDA_CHECK(cudaMemcpy(&st, ds.get(), sizeof(st), cudaMemcpyDeviceToHost));
    EXPECT_EQ(st.step, 5);
    EXPECT_EQ(st.all_finished, 1);
    EXPECT_EQ(st.n_selected, 0);
}

}  // namespace

#else  // !RECEIPT_WITH_CUDA

TEST(CudaOps, NotBuilt) {
    GTEST_SKIP() << "cuda_ops_test was built without RECEIPT_WITH_CUDA (see docs/numerics.md, Testing)";
}

#endif
