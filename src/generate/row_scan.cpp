// Vectorised row scans for the greedy choice (generate/row_scan.h), on the 8-float lanes of ops/vec_math.h.
#include "generate/row_scan.h"

#include <cmath>

#include "ops/vec_math.h"

namespace receipt {

using ops::vec::exp_nonpositive;
using ops::vec::f8;
using ops::vec::i8;
using ops::vec::kW;
using ops::vec::load;
using ops::vec::select;
using ops::vec::splat;

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
