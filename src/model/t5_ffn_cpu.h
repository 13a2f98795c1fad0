// T5 feed-forward block on the CPU (shared by encoder and decoder).
#pragma once

#include <vector>

#include "model/t5_weights.h"

namespace receipt {

// x[M, D] += FFN(h[M, D]):  relu:  wo(relu(wi h));  gated-gelu: wo(gelu_new(wi_0 h) * (wi_1 h)).
// a, b: scratch, resized to [M, F].
void t5_ffn_cpu(const FfnWeights& w, FeedForward kind, const float* h, int64_t M, int64_t D, int64_t F, float* x,
                std::vector<float>& a, std::vector<float>& b);

}  // namespace receipt
