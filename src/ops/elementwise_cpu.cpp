#include <algorithm>
#include <cmath>

#include "ops/elementwise.h"
#include "ops/linear.h"

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
    const float k = 0.7978845608028654f;  // sqrt(2/pi)
#pragma omp parallel for num_threads(cpu_threads()) schedule(static) if (n > 16384)
    for (int64_t i = 0; i < n; ++i) {
        const float v = a[i];
        const float g = 0.5f * v * (1.0f + std::tanh(k * (v + 0.044715f * v * v * v)));
        a[i] = g * b[i];
    }
}

void gated_relu_cpu(float* a, const float* b, int64_t n) {
#pragma omp parallel for num_threads(cpu_threads()) schedule(static) if (n > 65536)
    for (int64_t i = 0; i < n; ++i) a[i] = (a[i] > 0.0f ? a[i] : 0.0f) * b[i];
}

void softmax_row(float* x, int64_t n) {
    float mx = -INFINITY;
    for (int64_t i = 0; i < n; ++i) mx = std::max(mx, x[i]);
    if (mx == -INFINITY) {  // every key masked: HF yields a uniform row (finfo.min everywhere)
        for (int64_t i = 0; i < n; ++i) x[i] = 1.0f / n;
        return;
    }
    float sum = 0.0f;
    for (int64_t i = 0; i < n; ++i) {
        x[i] = std::exp(x[i] - mx);
        sum += x[i];
    }
    const float inv = 1.0f / sum;
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
