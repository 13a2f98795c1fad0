#include "model/t5_ffn_cpu.h"

#include "ops/elementwise.h"
#include "ops/linear.h"

namespace receipt {

void t5_ffn_cpu(const FfnWeights& w, FeedForward kind, const float* h, int64_t M, int64_t D, int64_t F, float* x,
                std::vector<float>& a, std::vector<float>& b) {
    if (a.size() < size_t(M * F)) a.resize(size_t(M * F));
    if (kind == FeedForward::kRelu) {
        linear(h, M, D, w.wi, F, a.data(), 0.0f);
        ops::relu_cpu(a.data(), M * F);
    } else {
        if (b.size() < size_t(M * F)) b.resize(size_t(M * F));
        linear(h, M, D, w.wi_0, F, a.data(), 0.0f);
        linear(h, M, D, w.wi_1, F, b.data(), 0.0f);
        if (kind == FeedForward::kGatedGelu) {
            ops::gated_gelu_cpu(a.data(), b.data(), M * F);
        } else {
            ops::gated_relu_cpu(a.data(), b.data(), M * F);
        }
    }
    linear(a.data(), M, F, w.wo, D, x, 1.0f);  // residual add folded into beta = 1
}

}  // namespace receipt
