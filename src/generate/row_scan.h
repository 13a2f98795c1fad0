// Scans over one row of logits ([n] f32) that the host's greedy choice makes every decode step: the maximum, where
// it first occurs, and the softmax denominator. Written as plain loops over independent lanes so the compiler
// vectorises them (a step of the CUDA engine's host loop scans B rows of V logits: at V = 8100 the scalar loops
// took ~40 µs per row, which bound wide batches on the host).
#pragma once

namespace receipt {

// max_i x[i] over the values that compare (NaN is passed over, as `x[i] > m` does); -inf when n <= 0 or
// every value is -inf or NaN.
float row_max(const float* x, int n);

// The first i < n with x[i] == v, or -1.
int first_index_of(const float* x, int n, float v);

// sum_i exp(x[i] - shift) for x[i] <= shift (the row's maximum), with exp evaluated as 2^k * p(r),
// x - shift = k ln 2 + r (ops::vec::exp_nonpositive, degree-7 polynomial): relative error below 2e-7 per term;
// terms below exp(-87) (1.6e-38) count as 0. NaN in, NaN out.
float sum_exp_shifted(const float* x, int n, float shift);

}  // namespace receipt
