// Lane-wise float math for the CPU ops' inner loops. The lanes are GCC / Clang vector types of 8 floats (one AVX2
// register on x86-64-v3; other targets get them split), so the loops do not depend on the auto-vectoriser, which
// leaves float reductions and libm calls alone without -ffast-math. Internal to src/ (not a public header).
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>

namespace receipt::ops::vec {

inline constexpr int kW = 8;  // lanes
typedef float f8 __attribute__((vector_size(kW * sizeof(float))));
typedef int32_t i8 __attribute__((vector_size(kW * sizeof(int32_t))));

// 8 floats from p (any alignment).
inline f8 load(const float* p) {
    f8 v;
    std::memcpy(&v, p, sizeof v);
    return v;
}

// 8 floats to p (any alignment).
inline void store(float* p, f8 v) { std::memcpy(p, &v, sizeof v); }

// x in every lane.
inline f8 splat(float x) { return f8{} + x; }

// Lane-wise m ? a : b, with m a comparison result (all bits set where true).
inline f8 select(i8 m, f8 a, f8 b) {
    i8 ai, bi;
    std::memcpy(&ai, &a, sizeof ai);
    std::memcpy(&bi, &b, sizeof bi);
    const i8 r = (ai & m) | (bi & ~m);
    f8 out;
    std::memcpy(&out, &r, sizeof out);
    return out;
}

// Lane-wise exp(d) for d <= 0: 2^k * p(r) with d = k ln 2 + r, |r| <= ln 2 / 2 and p the degree-7 Taylor
// polynomial (truncation below 6e-9 relative; with the float rounding of the steps, within ~2e-7 of exp).
// d < -87 (exp below 1.6e-38) gives 0, -inf gives 0, NaN gives NaN. d > 0 is outside the contract.
inline f8 exp_nonpositive(f8 d) {
    const i8 tiny = d < splat(-87.0f);
    const f8 c = select(tiny, splat(-87.0f), d);
    // k = round(c / ln 2) by the 1.5 * 2^23 trick (|k| < 2^22), r = c - k ln 2 in two parts.
    const f8 kf = (c * 1.44269504f + 12582912.0f) - 12582912.0f;
    const f8 r = (c - kf * 0.693145752f) - kf * 1.42860677e-6f;
    f8 p = splat(1.0f / 5040.0f);
    p = p * r + 1.0f / 720.0f;
    p = p * r + 1.0f / 120.0f;
    p = p * r + 1.0f / 24.0f;
    p = p * r + 1.0f / 6.0f;
    p = p * r + 0.5f;
    p = p * r + 1.0f;
    p = p * r + 1.0f;
    const f8 kc = select(kf == kf, kf, splat(0.0f));  // NaN in: p is NaN already; keep the conversion defined
    const i8 bits = (__builtin_convertvector(kc, i8) + 127) << 23;  // 2^k, k in [-126, 0]
    f8 scale;
    std::memcpy(&scale, &bits, sizeof scale);
    return select(tiny, splat(0.0f), p * scale);
}

// The same for one value (lane 0 of a splat), so that tails of a row round exactly as its vector body.
inline float exp_nonpositive(float d) { return exp_nonpositive(splat(d))[0]; }

// Lane-wise gelu_new(x) = 0.5 x (1 + tanh(u)), u = sqrt(2/pi) (x + 0.044715 x^3), evaluated as x * sigmoid(2u)
// (the same function: 0.5 (1 + tanh(u)) = 1 / (1 + exp(-2u))) with exp of -|2u| only, so nothing overflows:
// sigmoid(z) = 1 / (1 + e) for z >= 0 and e / (1 + e) for z < 0, e = exp(-|z|). Within a few float ulps of the
// libm tanh form; +-inf and NaN give what that form gives (inf, NaN, NaN).
inline f8 gelu_new(f8 x) {
    const f8 z = 1.5957691216057308f * (x + 0.044715f * x * x * x);  // 2 sqrt(2/pi) (x + 0.044715 x^3)
    const i8 neg = z < splat(0.0f);
    const f8 e = exp_nonpositive(select(neg, z, -z));
    const f8 sig = select(neg, e, splat(1.0f)) / (1.0f + e);
    return x * sig;
}

// The same for one value.
inline float gelu_new(float x) { return gelu_new(splat(x))[0]; }

// max_i x[i] over the values that compare (NaN is passed over, as `x[i] > m` does); -inf when n <= 0 or every
// value is -inf or NaN. 8 lane maxima, then the tail.
inline float max_of(const float* x, int64_t n) {
    f8 m = splat(-INFINITY);
    int64_t i = 0;
    for (; i + kW <= n; i += kW) {
        const f8 v = load(x + i);
        m = select(v > m, v, m);
    }
    float best = -INFINITY;
    for (int l = 0; l < kW; ++l) best = m[l] > best ? m[l] : best;
    for (; i < n; ++i) best = x[i] > best ? x[i] : best;
    return best;
}

// sum_i exp(x[i] - shift) for x[i] <= shift (exp_nonpositive per term), summed in 8 lanes, then the lanes, then
// the tail in order. When `out` is not null, out[i] = each term (out may be x).
inline float exp_shifted_sum(const float* x, int64_t n, float shift, float* out) {
    f8 s = splat(0.0f);
    const f8 sh = splat(shift);
    int64_t i = 0;
    for (; i + kW <= n; i += kW) {
        const f8 e = exp_nonpositive(load(x + i) - sh);
        if (out) store(out + i, e);
        s += e;
    }
    float sum = 0.0f;
    for (int l = 0; l < kW; ++l) sum += s[l];
    for (; i < n; ++i) {
        const float e = exp_nonpositive(x[i] - shift);
        if (out) out[i] = e;
        sum += e;
    }
    return sum;
}

}  // namespace receipt::ops::vec
