#include <algorithm>
#include <cmath>

#include "ops/elementwise.h"
#include "ops/linear.h"
#include "ops/vec_math.h"

namespace receipt::ops {

void rms_norm_cpu(const float* x, const float* w, int64_t M, int64_t D, float eps, float* y) {
#pragma omp parallel for num_threads(cpu_threads()) schedule(static) if (M * D > 16384)
    for (int64_t m = 0; m < M; ++m) {
        const float* xr = x + m * D;
        float* yr = y + m * D;
        double ss = 0.0;  // HF: variance = x.float().pow(2).mean(-1)
        for (int64_t i = 0; i < D; ++i) ss += double(xr[i]) * xr[i];
        const float inv = 1.0f / std::sqrt(static_cast<float>(ss / D) + eps);
        for (int64_t i = 0; i < D; ++i) yr[i] = w[i] * (xr[i] * inv);
    }
}

void relu_cpu(float* x, int64_t n) {
#pragma omp parallel for num_threads(cpu_threads()) schedule(static) if (n > 65536)
    for (int64_t i = 0; i < n; ++i) x[i] = x[i] > 0.0f ? x[i] : 0.0f;
}

void gated_gelu_cpu(float* a, const float* b, int64_t n) {
    // gelu_new as x * sigmoid(2u) on 8-float lanes (ops/vec_math.h): the libm tanh took ~14% of a CPU extraction.
    using namespace vec;
    const int64_t n_vec = n / kW;
#pragma omp parallel for num_threads(cpu_threads()) schedule(static) if (n > 16384)
    for (int64_t j = 0; j < n_vec; ++j) {
        const int64_t i = j * kW;
        store(a + i, gelu_new(load(a + i)) * load(b + i));
    }
    for (int64_t i = n_vec * kW; i < n; ++i) a[i] = gelu_new(a[i]) * b[i];
}

void gated_relu_cpu(float* a, const float* b, int64_t n) {
#pragma omp parallel for num_threads(cpu_threads()) schedule(static) if (n > 65536)
    for (int64_t i = 0; i < n; ++i) a[i] = (a[i] > 0.0f ? a[i] : 0.0f) * b[i];
}

void softmax_row(float* x, int64_t n) {
    const float mx = vec::max_of(x, n);
    if (mx == -INFINITY) {  // every key masked: HF yields a uniform row (finfo.min everywhere)
        for (int64_t i = 0; i < n; ++i) x[i] = 1.0f / n;
        return;
    }
    // exp(x - max) in place (exp_nonpositive: within ~2e-7 of exp; masked -inf keys give 0) and their sum.
    const float inv = 1.0f / vec::exp_shifted_sum(x, n, mx, x);
    for (int64_t i = 0; i < n; ++i) x[i] *= inv;
}

void log_softmax_cpu(const float* x, int64_t R, int64_t V, float* out) {
#pragma omp parallel for num_threads(cpu_threads()) schedule(static) if (R > 1)
    for (int64_t r = 0; r < R; ++r) {
        const float* xr = x + r * V;
        float* o = out + r * V;
        float mx = -INFINITY;
        for (int64_t i = 0; i < V; ++i) mx = std::max(mx, xr[i]);
        double sum = 0.0;
        for (int64_t i = 0; i < V; ++i) sum += std::exp(double(xr[i]) - mx);
        const float lse = mx + static_cast<float>(std::log(sum));
        for (int64_t i = 0; i < V; ++i) o[i] = xr[i] - lse;
    }
}

void scale_cpu(float* x, int64_t n, float s) {
    for (int64_t i = 0; i < n; ++i) x[i] *= s;
}

}  // namespace receipt::ops
