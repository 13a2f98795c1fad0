// Element-wise T5 ops on the CPU, fp32. Rows are independent and run in parallel (OpenMP).
#pragma once

#include <cstdint>

namespace receipt::ops {

// T5LayerNorm (RMSNorm, no mean, no bias): y[m, :] = x[m, :] * rsqrt(mean(x[m, :]^2) + eps) * w.
// x, y: [M, D]; w: [D]. y may alias x.
void rms_norm_cpu(const float* x, const float* w, int64_t M, int64_t D, float eps, float* y);

// x = max(x, 0); x: [n].
void relu_cpu(float* x, int64_t n);

// Gated FFN input: a[i] = act(a[i]) * b[i] with act = gelu_new (tanh approximation,
// 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))) or relu. a, b: [n].
void gated_gelu_cpu(float* a, const float* b, int64_t n);
void gated_relu_cpu(float* a, const float* b, int64_t n);

// In-place numerically stable softmax of one row of n values.
void softmax_row(float* x, int64_t n);

// Row-wise log_softmax: out[r, :] = x[r, :] - logsumexp(x[r, :]); x, out: [R, V].
void log_softmax_cpu(const float* x, int64_t R, int64_t V, float* out);

// Scales x[n] by s.
void scale_cpu(float* x, int64_t n, float s);

}  // namespace receipt::ops
