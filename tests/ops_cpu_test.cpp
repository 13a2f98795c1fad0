// CPU ops against naive double-precision references, on odd sizes that exercise every vector tail:
// linear (small-M streaming kernel and the OpenBLAS path), attention (encoder, decoder self, cross), RMSNorm,
// gated activations, softmax and log-softmax.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <tuple>
#include <vector>

#include "model/safetensors.h"
#include "ops/attention.h"
#include "ops/elementwise.h"
#include "ops/linear.h"
#include "test_random.h"

using namespace receipt::ops;
using receipt::test::randn;

namespace {

float max_rel_err(const std::vector<float>& got, const std::vector<double>& want) {
    float m = 0.0f;
    for (size_t i = 0; i < want.size(); ++i)
        m = std::max(m, static_cast<float>(std::fabs(got[i] - want[i]) / (1.0 + std::fabs(want[i]))));
    return m;
}

// linear_cpu over M = 1..17 (streaming kernel up to 16, OpenBLAS above) and K, N with every remainder mod 8.
TEST(LinearCpu, MatchesNaiveOnOddShapes) {
    set_cpu_threads(2);
    for (int M : {1, 2, 3, 5, 8, 9, 16, 17})
        for (int K : {7, 64, 131})
            for (int N : {1, 13, 300}) {
                auto x = randn(size_t(M) * K, 1 + M), w = randn(size_t(N) * K, 2 + K), y0 = randn(size_t(M) * N, 3);
                for (float beta : {0.0f, 1.0f}) {
                    std::vector<float> y = y0;
                    linear_cpu(x.data(), M, K, w.data(), N, y.data(), beta);
                    std::vector<double> want(size_t(M) * N);
                    for (int m = 0; m < M; ++m)
                        for (int n = 0; n < N; ++n) {
                            double s = beta * double(y0[size_t(m) * N + n]);
                            for (int k = 0; k < K; ++k) s += double(x[size_t(m) * K + k]) * w[size_t(n) * K + k];
                            want[size_t(m) * N + n] = s;
                        }
                    EXPECT_LT(max_rel_err(y, want), 1e-5f) << "M=" << M << " K=" << K << " N=" << N << " beta=" << beta;
                }
            }
}

// Half-precision weights (the decoder streams them when the file stores them so): y is bit for bit the y of the
// f32 copy of the same weights, on the streaming path (M <= 16) and the OpenBLAS path (M = 17, which ignores them).
TEST(LinearCpu, HalfWeightsGiveTheF32CopysResult) {
    set_cpu_threads(2);
    for (int M : {1, 3, 8, 16, 17})
        for (int K : {7, 64, 131})
            for (int N : {1, 13, 300}) {
                auto x = randn(size_t(M) * K, 5 + M), y0 = randn(size_t(M) * N, 7);
                // Halves with random sign and mantissa, exponents 2^-5 .. 2^4; w holds their exact f32 values.
                std::vector<uint16_t> w16(size_t(N) * K);
                std::vector<float> w(w16.size());
                uint32_t state = 12345u + uint32_t(K);
                for (size_t i = 0; i < w.size(); ++i) {
                    state = state * 1664525u + 1013904223u;
                    const uint32_t sign = (state >> 31) & 1u, exp = 10u + (state >> 16) % 10u, man = state & 0x3ffu;
                    w16[i] = uint16_t(sign << 15 | exp << 10 | man);
                    w[i] = receipt::half_to_float(w16[i]);
                }
                for (float beta : {0.0f, 1.0f}) {
                    std::vector<float> y32 = y0, y16 = y0;
                    linear_cpu(x.data(), M, K, w.data(), N, y32.data(), beta);
                    linear_cpu(x.data(), M, K, w.data(), N, y16.data(), beta, w16.data());
                    EXPECT_EQ(y32, y16) << "M=" << M << " K=" << K << " N=" << N << " beta=" << beta;
                }
            }
}

// Reference softmax attention of one query over keys [0, L) with optional per-key bias.
std::vector<double> attend(const float* q, const float* k, const float* v, int64_t stride, int L, int K,
                           const float* bias) {
    std::vector<double> s(L), o(K, 0.0);
    double mx = -1e300, sum = 0;
    for (int j = 0; j < L; ++j) {
        double d = bias ? bias[j] : 0.0;
        for (int x = 0; x < K; ++x) d += double(q[x]) * k[j * stride + x];
        s[j] = d;
        mx = std::max(mx, d);
    }
    for (int j = 0; j < L; ++j) sum += (s[j] = std::exp(s[j] - mx));
    for (int j = 0; j < L; ++j)
        for (int x = 0; x < K; ++x) o[x] += s[j] / sum * v[j * stride + x];
    return o;
}

TEST(AttentionCpu, EncoderWithBiasAndPadding) {
    const int B = 3, S = 19, H = 3, K = 12;
    const int64_t HK = H * K;
    auto q = randn(B * S * HK, 11), k = randn(B * S * HK, 12), v = randn(B * S * HK, 13);
    auto bias = randn(size_t(H) * S * S, 14);
    const int lengths[B] = {19, 7, 1};
    std::vector<float> ctx(B * S * HK, 99.0f), scratch;
    encoder_attention_cpu(q.data(), k.data(), v.data(), bias.data(), lengths, B, S, H, K, ctx.data(), scratch);
    for (int b = 0; b < B; ++b)
        for (int i = 0; i < lengths[b]; ++i)
            for (int h = 0; h < H; ++h) {
                const int64_t off = int64_t(b) * S * HK + h * K;
                auto want = attend(q.data() + off + i * HK, k.data() + off, v.data() + off, HK, lengths[b], K,
                                   bias.data() + (int64_t(h) * S + i) * S);
                std::vector<float> got(ctx.begin() + off + i * HK, ctx.begin() + off + i * HK + K);
                EXPECT_LT(max_rel_err(got, want), 1e-5f) << b << " " << i << " " << h;
            }
    for (int i = lengths[1]; i < S; ++i) EXPECT_EQ(ctx[int64_t(1) * S * HK + i * HK], 0.0f) << "padding row " << i;
}

// K = 13 and t = 6 take the one-key-at-a-time loops; K = 64 (every T5 size) and t = 20 the 8-key score blocks and
// the register-held weighted sum, with a tail of 5 keys.
TEST(AttentionCpu, DecoderSelfAttentionOverCache) {
    for (auto [K, T, t] : {std::tuple{13, 9, 6}, std::tuple{64, 24, 20}}) {
        const int N = 3, H = 2;
        auto q = randn(N * H * K, 21), kc = randn(size_t(N) * H * T * K, 22), vc = randn(size_t(N) * H * T * K, 23);
        auto bias = randn(size_t(H) * T, 24);
        std::vector<float> out(N * H * K);
        decoder_self_attention_cpu(q.data(), kc.data(), vc.data(), bias.data(), N, H, K, T, t, out.data());
        for (int n = 0; n < N; ++n)
            for (int h = 0; h < H; ++h) {
                std::vector<float> b(t + 1);
                for (int j = 0; j <= t; ++j) b[j] = bias[size_t(h) * T + (t - j)];  // bias by distance t - j
                const int64_t c = (int64_t(n) * H + h) * T * K;
                auto want = attend(q.data() + (n * H + h) * K, kc.data() + c, vc.data() + c, K, t + 1, K, b.data());
                std::vector<float> got(out.begin() + (n * H + h) * K, out.begin() + (n * H + h + 1) * K);
                EXPECT_LT(max_rel_err(got, want), 1e-5f) << "K=" << K << " t=" << t;
            }
    }
}

TEST(AttentionCpu, CrossAttentionRowsAndHeads) {
    set_cpu_threads(2);
    for (int K : {9, 64}) {  // one key at a time; 8-key blocks (23 = 2 x 8 + 7) and the register-held sum
        const int B = 2, S = 23, H = 3;
        const int64_t HK = H * K;
        auto k = randn(B * S * HK, 31), v = randn(B * S * HK, 32);
        const int lengths[B] = {23, 5};
        for (int N : {1, 4}) {  // fewer rows than threads, and more
            auto q = randn(N * HK, 33 + N);
            std::vector<int> row_src(N);
            for (int n = 0; n < N; ++n) row_src[n] = n % B;
            std::vector<float> out(N * HK);
            cross_attention_cpu(q.data(), k.data(), v.data(), row_src.data(), lengths, N, S, H, K, out.data());
            for (int n = 0; n < N; ++n)
                for (int h = 0; h < H; ++h) {
                    const int b = row_src[n];
                    auto want = attend(q.data() + n * HK + h * K, k.data() + b * S * HK + h * K,
                                       v.data() + b * S * HK + h * K, HK, lengths[b], K, nullptr);
                    std::vector<float> got(out.begin() + n * HK + h * K, out.begin() + n * HK + (h + 1) * K);
                    EXPECT_LT(max_rel_err(got, want), 1e-5f) << "K=" << K << " N=" << N << " n=" << n << " h=" << h;
                }
        }
    }
}

TEST(ElementwiseCpu, RmsNormActivationsSoftmax) {
    const int M = 3, D = 37;
    auto x = randn(M * D, 41, 3.0f), w = randn(D, 42);
    std::vector<float> y(M * D);
    rms_norm_cpu(x.data(), w.data(), M, D, 1e-6f, y.data());
    for (int m = 0; m < M; ++m) {
        double ss = 0;
        for (int i = 0; i < D; ++i) ss += double(x[m * D + i]) * x[m * D + i];
        const double inv = 1.0 / std::sqrt(ss / D + 1e-6);
        for (int i = 0; i < D; ++i) EXPECT_NEAR(y[m * D + i], w[i] * x[m * D + i] * inv, 1e-5);
    }
    auto a = randn(29, 43, 2.0f), b = randn(29, 44);
    std::vector<float> g = a;
    gated_gelu_cpu(g.data(), b.data(), 29);
    for (int i = 0; i < 29; ++i) {
        const double v = a[i];
        const double gelu = 0.5 * v * (1.0 + std::tanh(std::sqrt(2.0 / M_PI) * (v + 0.044715 * v * v * v)));
        EXPECT_NEAR(g[i], gelu * b[i], 1e-5);
    }
    std::vector<float> row = {1.0f, -INFINITY, 3.0f, 2.0f};
    softmax_row(row.data(), 4);
    EXPECT_FLOAT_EQ(row[1], 0.0f);
    EXPECT_NEAR(row[0] + row[2] + row[3], 1.0, 1e-6);
    std::vector<float> masked = {-INFINITY, -INFINITY};
    softmax_row(masked.data(), 2);  // every key masked: uniform, as HF's finfo.min mask gives
    EXPECT_FLOAT_EQ(masked[0], 0.5f);
    std::vector<float> logits = {0.5f, 2.0f, -1.0f}, lp(3);
    log_softmax_cpu(logits.data(), 1, 3, lp.data());
    EXPECT_NEAR(std::exp(lp[0]) + std::exp(lp[1]) + std::exp(lp[2]), 1.0, 1e-6);
}

// The lane-wise gelu_new (x sigmoid(2u)) against double, over 0..12 in magnitude (vector body and tail), and the
// special values.
TEST(ElementwiseCpu, GeluOnLanesMatchesTheTanhForm) {
    const int n = 4001;  // 500 vectors and a tail of 1
    std::vector<float> a(n), b(n, 1.0f);
    for (int i = 0; i < n; ++i) a[i] = -12.0f + 24.0f * float(i) / float(n - 1);
    std::vector<float> g = a;
    gated_gelu_cpu(g.data(), b.data(), n);
    for (int i = 0; i < n; ++i) {
        const double v = a[i];
        const double u = std::sqrt(2.0 / M_PI) * (v + 0.044715 * v * v * v);
        // 0.5 v (1 + tanh(u)) = v / (1 + exp(-2u)), without the tanh form's cancellation (which rounds to 0 in
        // double below v ~ -9 and in float below v ~ -4, where the value is under 1e-6 of |v|).
        const double want = v / (1.0 + std::exp(-2.0 * u));
        // exp(-2u) carries the float rounding of its argument (~6e-8 relative) times |2u|; below 1.6e-38 it is 0.
        EXPECT_NEAR(g[i], want, (4e-7 + 1.5e-7 * std::fabs(2.0 * u)) * std::fabs(want) + 1e-36) << v;
        const double tanh_form = 0.5 * v * (1.0 + std::tanh(u));
        EXPECT_NEAR(g[i], tanh_form, 1e-6 * std::max(1.0, std::fabs(v))) << v;
    }
    std::vector<float> s = {INFINITY, -INFINITY, NAN, 0.0f, -0.0f, 1e20f, -1e20f, 3.0f, 0.5f};
    std::vector<float> one(s.size(), 1.0f);
    gated_gelu_cpu(s.data(), one.data(), int64_t(s.size()));
    EXPECT_EQ(s[0], INFINITY);
    EXPECT_TRUE(std::isnan(s[1]));  // -inf * 0, as 0.5 x (1 + tanh(u)) gives
    EXPECT_TRUE(std::isnan(s[2]));
    EXPECT_EQ(s[3], 0.0f);
    EXPECT_EQ(s[5], 1e20f);
    EXPECT_EQ(s[6], 0.0f);
}

// softmax_row on lanes against double, with masked keys in the vector body and the tail.
TEST(ElementwiseCpu, SoftmaxOnLanesMatchesDouble) {
    for (int n : {1, 7, 8, 9, 37, 385}) {
        auto x = randn(n, 77 + n, 4.0f);
        for (int i = 3; i < n; i += 5) x[i] = -INFINITY;
        std::vector<float> y = x;
        softmax_row(y.data(), n);
        double mx = -INFINITY, sum = 0.0;
        for (float v : x) mx = std::max(mx, double(v));
        for (float v : x) sum += std::exp(double(v) - mx);
        for (int i = 0; i < n; ++i) EXPECT_NEAR(y[i], std::exp(double(x[i]) - mx) / sum, 1e-6) << n << " " << i;
    }
}

}  // namespace
