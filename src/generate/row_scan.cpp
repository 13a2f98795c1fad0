// Vectorised row scans for the greedy choice (generate/row_scan.h), on the 8-float lanes of ops/vec_math.h.
#include "generate/row_scan.h"

#include <cmath>

#include "ops/vec_math.h"

namespace receipt {

using ops::vec::f8;
using ops::vec::i8;
using ops::vec::kW;
using ops::vec::load;
using ops::vec::splat;

float row_max(const float* x, int n) { return ops::vec::max_of(x, n); }

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
    return ops::vec::exp_shifted_sum(x, n, shift, nullptr);
}

}  // namespace receipt
