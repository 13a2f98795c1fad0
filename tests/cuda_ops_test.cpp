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

namespace rc = receipt::cuda;
using receipt::DType;

namespace {

const DType kTypes[] = {DType::kF32, DType::kF16, DType::kBF16};
const char* name(DType d) { return d == DType::kF16 ? "f16" : d == DType::kBF16 ? "bf16" : "f32"; }
float tol(DType d) { return d == DType::kF32 ? 2e-4f : d == DType::kF16 ? 2e-2f : 8e-2f; }

std::vector<float> randn(size_t n, unsigned seed, float scale = 1.0f) {
    std::mt19937 g(seed);
    std::normal_distribution<float> d(0.0f, scale);
    std::vector<float> v(n);
    for (float& x : v) x = d(g);
    return v;
}

// Device copy of `v` in dtype dt (via the convert kernel), and back to f32 on the host.
rc::DeviceBuffer to_device(const std::vector<float>& v, DType dt) {
    rc::DeviceBuffer f(v.size() * 4 + 4), out(v.size() * rc::dtype_size(dt) + 4);
    RECEIPT_CUDA_CHECK(cudaMemcpy(f.get(), v.data(), v.size() * 4, cudaMemcpyHostToDevice));
    rc::convert_f32_cuda(dt, f.as<float>(), out.get(), int64_t(v.size()), nullptr);
    RECEIPT_CUDA_CHECK(cudaDeviceSynchronize());
    return out;
}
std::vector<float> to_host(const rc::DeviceBuffer& b, size_t n, DType dt) {
    // Convert T -> f32 on the host side by copying raw bits.
    std::vector<float> out(n);
    if (dt == DType::kF32) {
        RECEIPT_CUDA_CHECK(cudaMemcpy(out.data(), b.get(), n * 4, cudaMemcpyDeviceToHost));
        return out;
    }
    std::vector<uint16_t> raw(n);
    RECEIPT_CUDA_CHECK(cudaMemcpy(raw.data(), b.get(), n * 2, cudaMemcpyDeviceToHost));
    for (size_t i = 0; i < n; ++i) {
        uint32_t bits;
        if (dt == DType::kBF16) {
            bits = uint32_t(raw[i]) << 16;
        } else {  // IEEE half -> float
            const uint32_t h = raw[i], s = (h & 0x8000u) << 16, e = (h >> 10) & 0x1f, m = h & 0x3ff;
            if (e == 0) {
                const float f = std::ldexp(float(m), -24);
                std::memcpy(&bits, &f, 4);
                bits |= s;
            } else if (e == 31) {
                bits = s | 0x7f800000u | (m << 13);
            } else {
                bits = s | ((e + 112) << 23) | (m << 13);
            }
        }
        std::memcpy(&out[i], &bits, 4);
    }
    return out;
}
// The values the GPU actually sees after rounding to dt (so references use the same inputs).
std::vector<float> rounded(const std::vector<float>& v, DType dt) { return to_host(to_device(v, dt), v.size(), dt); }

void expect_close(const std::vector<float>& want, const std::vector<float>& got, float rtol, const std::string& what) {
    ASSERT_EQ(want.size(), got.size()) << what;
    float scale = 1e-6f;
    for (float w : want) scale = std::max(scale, std::fabs(w));
    int n_bad = 0;
    for (size_t i = 0; i < want.size(); ++i) {
        if (!(std::fabs(want[i] - got[i]) <= rtol * scale)) {
            if (++n_bad <= 5)
                ADD_FAILURE() << what << ": [" << i << "] want " << want[i] << " got " << got[i] << " (tol "
                              << rtol * scale << ")";
        }
    }
    EXPECT_EQ(n_bad, 0) << what << ": " << n_bad << " of " << want.size() << " values off";
}

class CudaOps : public ::testing::Test {
protected:
    void SetUp() override {
        if (!receipt::cuda_available()) GTEST_SKIP() << "no usable CUDA GPU";
    }
};

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
        std::vector<float> q(size_t(N) * HK);
        for (int r = 0; r < N; ++r)
            for (int c = 0; c < HK; ++c) {
                q[size_t(r) * HK + c] = qkv[size_t(r) * 3 * HK + c];
                const int h = c / K, d = c % K;
                cache_k[((size_t(r) * H + h) * T_max + t) * K + d] = qkv[size_t(r) * 3 * HK + HK + c];
                cache_v[((size_t(r) * H + h) * T_max + t) * K + d] = qkv[size_t(r) * 3 * HK + 2 * HK + c];
            }
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
    rc::greedy_advance_cuda(ds.as<rc::DecodeState>(), nullptr);
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
    EXPECT_EQ(st.step, 3);
    EXPECT_EQ(st.all_finished, 0);
    // Row 0's log-prob: two equal maxima share the mass -> about -log(2).
    EXPECT_NEAR(sc[0], -std::log(2.0f), 1e-3f);
}

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
                        std::vector<float> want, got_valid;
                        int n_clobbered = 0;
                        for (int i = 0; i < kMaxM; ++i)
                            for (int j = 0; j < ldy; ++j) {
                                const size_t iy = size_t(i) * ldy + j;
                                if (i >= m || j >= n) {
                                    n_clobbered += got[iy] != y0[iy];
                                    continue;
                                }
                                double acc = 0;
                                for (int q = 0; q < k; ++q)
                                    acc += double(x[x_off + size_t(i) * ldx + q]) * w[size_t(j) * ldw + q];
                                double v = double(md.alpha) * acc + (md.accumulate ? y0[iy] : 0.0);
                                if (md.relu) v = std::max(v, 0.0);
                                want.push_back(float(v));
                                got_valid.push_back(got[iy]);
                            }
                        EXPECT_EQ(n_clobbered, 0) << what << ": wrote outside y[0:m, 0:n]";
                        expect_close(want, got_valid, out_tol(out), what);
                    }
            }
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
    rc::GemmLt gemms[2];  // [0]: cuBLASLt for every m, [1]: m <= 8 on the small-M kernel (the default)
    gemms[0].set_use_gemv(false);
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
    rc::DeviceBuffer bx(16 * 512 * 2), bw(1536 * 512 * 2), by(16 * 1536 * 2);
    const rc::GemmSpec small{2, 1536, 512, 512, 512, 1536, DType::kF16, false, false};
    const rc::PlanGemm p = gemm.tune(small, bx.get(), bw.get(), by.get(), nullptr);
    EXPECT_EQ(p.m, 2);
    EXPECT_EQ(p.workspace, 0u);
    EXPECT_TRUE(gemm.tuned().empty()) << "a small-M shape was added to the plan";
    const rc::GemmSpec big{8, 1536, 512, 512, 512, 1536, DType::kF16, false, false};
    gemm.tune(big, bx.get(), bw.get(), by.get(), nullptr);
    ASSERT_EQ(gemm.tuned().size(), 1u);
    EXPECT_EQ(gemm.tuned()[0].m, 8);
}

// ---- split-K decode attention -------------------------------------------------------------------------------------
// Split scratch for R rows, H heads of width K, sized for kMaxDecodeSplits; n_sm steers how many splits the
// launchers pick (decode_attn_n_split).
struct SplitScratch {
    rc::DeviceBuffer part, counter;
    rc::DecodeAttnSplit split;
    SplitScratch(int R, int H, int K, int n_sm)
        : part(size_t(R) * H * rc::kMaxDecodeSplits * (K + 2) * 4), counter(size_t(R) * H * 4) {
        RECEIPT_CUDA_CHECK(cudaMemset(counter.get(), 0, counter.size()));
        const size_t n_part = size_t(R) * H * rc::kMaxDecodeSplits * (K + 2);
        split = rc::DecodeAttnSplit{part.as<float>(), counter.as<int>(), n_part, R * H, rc::kMaxDecodeSplits, n_sm};
    }
    // Every launch must leave all counters at zero (graph replays reuse them without a reset).
    int n_nonzero_counters(int n) const {
        std::vector<int> c(static_cast<size_t>(n));
        RECEIPT_CUDA_CHECK(cudaMemcpy(c.data(), counter.get(), size_t(n) * 4, cudaMemcpyDeviceToHost));
        int nz = 0;
        for (int v : c) nz += v != 0;
        return nz;
    }
};

// Split vs single-pass on the GPU: both sum in f32 in different orders, then round once to T.
float split_vs_single_tol(DType d) { return d == DType::kF32 ? 1e-5f : d == DType::kF16 ? 2e-3f : 1.6e-2f; }

TEST_F(CudaOps, CrossAttentionSplitKMatchesSinglePassAndCpu) {
    // Source lengths 1, 37, 384, 513 (S = S_max = 513); each config maps rows to sources and picks n_sm so the
    // launcher uses 2 .. 32 splits.
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

TEST_F(CudaOps, DecoderSelfAttentionSplitKAppendsAndMatchesCpu) {
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
                    auto cache_k = rounded(randn(size_t(N) * H * T_max * K, 50 + t, 0.5f), dt);
                    auto cache_v = rounded(randn(cache_k.size(), 51 + t), dt);
                    auto qkv = rounded(randn(size_t(N) * 3 * HK, 52 + t, 0.5f), dt);
                    auto bias = randn(size_t(H) * T_max, 53);
                    auto dk = to_device(cache_k, dt), dv = to_device(cache_v, dt), dq = to_device(qkv, dt);
                    auto db = to_device(bias, DType::kF32);
                    const rc::DecodeState st{t, 0, 0, 0, 0, 0};
                    rc::DeviceBuffer ds(sizeof(st)), dsingle(size_t(N) * HK * 4), dsplit(size_t(N) * HK * 4);
                    RECEIPT_CUDA_CHECK(cudaMemcpy(ds.get(), &st, sizeof(st), cudaMemcpyHostToDevice));
                    SplitScratch sc(N, H, K, 132);
                    ASSERT_GT(rc::decode_attn_n_split(&sc.split, N, H, K), 1) << what;
                    auto launch = [&](void* ctx, const rc::DecodeAttnSplit* split) {
                        rc::decoder_self_attention_cuda(dt, dq.get(), dk.get(), dv.get(), db.as<float>(), N, H, K,
                                                        T_max, ds.as<rc::DecodeState>(), ctx, nullptr, split);
                        RECEIPT_CUDA_CHECK(cudaDeviceSynchronize());
                    };
                    launch(dsplit.get(), &sc.split);  // split first: it alone must append position t
                    const auto split1 = to_host(dsplit, size_t(N) * HK, dt);
                    const auto got_k = to_host(dk, cache_k.size(), dt), got_v = to_host(dv, cache_v.size(), dt);
                    EXPECT_EQ(sc.n_nonzero_counters(N * H), 0) << what << ": counters not reset";
                    launch(dsingle.get(), nullptr);
                    const auto single = to_host(dsingle, split1.size(), dt);
                    std::vector<float> q(size_t(N) * HK);
                    for (int r = 0; r < N; ++r)
                        for (int c = 0; c < HK; ++c) {
                            q[size_t(r) * HK + c] = qkv[size_t(r) * 3 * HK + c];
                            const int h = c / K, d = c % K;
                            cache_k[((size_t(r) * H + h) * T_max + t) * K + d] = qkv[size_t(r) * 3 * HK + HK + c];
                            cache_v[((size_t(r) * H + h) * T_max + t) * K + d] = qkv[size_t(r) * 3 * HK + 2 * HK + c];
                        }
                    std::vector<float> want(q.size());
                    receipt::ops::decoder_self_attention_cpu(q.data(), cache_k.data(), cache_v.data(), bias.data(), N,
                                                             H, K, T_max, t, want.data());
                    expect_close(want, split1, tol(dt), what + ": split vs CPU");
                    expect_close(single, split1, split_vs_single_tol(dt), what + ": split vs single pass");
                    expect_close(cache_k, got_k, 1e-6f, what + ": K cache after the split launch");
                    expect_close(cache_v, got_v, 1e-6f, what + ": V cache after the split launch");
                }
}

}  // namespace

#else  // !RECEIPT_WITH_CUDA

TEST(CudaOps, NotBuilt) {
    GTEST_SKIP() << "cuda_ops_test was built without RECEIPT_WITH_CUDA (see docs/numerics.md, Testing)";
}

#endif
