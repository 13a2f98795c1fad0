// Resolved pointers to a T5 model's fp32 host weights, per layer (no copies; the Model owns the data).
#pragma once

#include <cstdint>
#include <vector>

#include "ops/linear.h"
#include "receipt/model.h"

namespace receipt {

// One Linear weight [out, in]: its f32 values, and the same tensor as stored when the file holds it as IEEE halves
// (Model::weight_f16; the f32 values are exactly these), else null.
struct LinearWeight {
    const float* f32 = nullptr;
    const uint16_t* f16 = nullptr;
};

// y[M, N] = x[M, Kin] . w^T + beta * y through ops::linear_cpu, with the halves where the file stores them (the
// few-row path streams them instead of the f32 copy: the same y from half the memory traffic).
inline void linear(const float* x, int64_t M, int64_t Kin, const LinearWeight& w, int64_t N, float* y,
                   float beta = 0.0f) {
    ops::linear_cpu(x, M, Kin, w.f32, N, y, beta, w.f16);
}

// One attention block's projections; HF Linear layout [out, in]: q, k, v: [H*K, D]; o: [D, H*K].
struct AttentionWeights {
    LinearWeight q, k, v, o;
};

// Feed-forward weights: relu uses wi [F, D]; gated uses wi_0, wi_1 [F, D]; wo: [D, F].
struct FfnWeights {
    LinearWeight wi, wi_0, wi_1, wo;
};

struct EncoderLayerWeights {
    const float* ln_attn = nullptr;  // [D]
    AttentionWeights self;
    const float* ln_ffn = nullptr;   // [D]
    FfnWeights ffn;
};

struct DecoderLayerWeights {
    const float* ln_self = nullptr;   // [D]
    AttentionWeights self;
    const float* ln_cross = nullptr;  // [D]
    AttentionWeights cross;
    const float* ln_ffn = nullptr;    // [D]
    FfnWeights ffn;
};

// Every weight T5 uses, by role.
struct T5Weights {
    const float* shared = nullptr;     // [V, D] embedding table
    LinearWeight lm_head;              // [V, D] (f32 == shared when tied)
    std::vector<EncoderLayerWeights> encoder;
    const float* encoder_final_ln = nullptr;
    std::vector<DecoderLayerWeights> decoder;
    const float* decoder_final_ln = nullptr;

    // Resolves every pointer through Model::weight (which already validated names and shapes).
    explicit T5Weights(const Model& model);
};

}  // namespace receipt
