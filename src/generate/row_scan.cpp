// Vectorisable row scans for the greedy choice (generate/row_scan.h). The lanes are GCC / Clang vector types of
// 8 floats (one AVX2 register on x86-64-v3; other targets get them split), so the loops do not depend on the
// auto-vectoriser, which leaves float reductions alone without -ffast-math.
#include "generate/row_scan.h"

#include <cmath>
#include <cstdint>
#include <cstring>

namespace receipt {

namespace {

constexpr int kW = 8;
typedef float f8 __attribute__((vector_size(kW * sizeof(float))));
typedef int32_t i8 __attribute__((vector_size(kW * sizeof(int32_t))));

inline f8 load(const float* p) {
    f8 v;
    std::memcpy(&v, p, sizeof v);
    return v;
}

inline f8 splat(float x) { return f8{} + x; }

// Lane-wise select: m ? a : b, with m a comparison result (all bits set where true).
inline f8 select(i8 m, f8 a, f8 b) {
    i8 ai, bi;
    std::memcpy(&ai, &a, sizeof ai);
    std::memcpy(&bi, &b, sizeof bi);
    const i8 r = (ai & m) | (bi & ~m);
    f8 out;
    std::memcpy(&out, &r, sizeof out);
    return out;
}

// exp(d) lane-wise for d <= 0 as described in the header: 2^k * p(r), d = k ln 2 + r.
inline f8 exp_nonpositive(f8 d) {
    const i8 tiny = d < splat(-87.0f);
    const f8 c = select(tiny, splat(-87.0f), d);
    // k = round(c / ln 2) by the 1.5 * 2^23 trick (|k| < 2^22), r = c - k ln 2 in two parts.
    const f8 kf = (c * 1.44269504f + 12582912.0f) - 12582912.0f;
    const f8 r = (c - kf * 0.693145752f) - kf * 1.42860677e-6f;
    f8 p = splat(1.0f / 720.0f);
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

float exp_nonpositive(float d) {
    f8 v = splat(d);
    return exp_nonpositive(v)[0];
}

}  // namespace

float row_max(const float* x, int n) {
    f8 m = splat(-INFINITY);
    int i = 0;
    for (; i + kW <= n; i += kW) {
        const f8 v = load(x + i);
        m = select(v > m, v, m);  // NaN compares false: passed over
    }
    float best = -INFINITY;
    for (int l = 0; l < kW; ++l) best = m[l] > best ? m[l] : best;
    for (; i < n; ++i) best = x[i] > best ? x[i] : best;
    return best;
}

int first_index_of(const float* x, int n, float v) {
    const f8 want = splat(v);
    int i = 0;
    // Blocks of 4 vectors: one horizontal test per 32 values.
    for (; i + 4 * kW <= n; i += 4 * kW) {
        const i8 eq = (load(x + i) == want) | (load(x + i + kW) == want) | (load(x + i + 2 * kW) == want) |
                      (load(x + i + 3 * kW) == want);
        int any = 0;
        for (int l = 0; l < kW; ++l) any |= eq[l];
        if (any) break;
    }
    for (; i < n; ++i)
        if (x[i] == v) return i;
    return -1;
}

float sum_exp_shifted(const float* x, int n, float shift) {
    f8 s = splat(0.0f);
    const f8 sh = splat(shift);
    int i = 0;
    for (; i + kW <= n; i += kW) s += exp_nonpositive(load(x + i) - sh);
    float sum = 0.0f;
    for (int l = 0; l < kW; ++l) sum += s[l];
    for (; i < n; ++i) sum += exp_nonpositive(x[i] - shift);
    return sum;
}

}  // namespace receipt
