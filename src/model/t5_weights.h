// Resolved pointers to a T5 model's fp32 host weights, per layer (no copies; the Model owns the data).
#pragma once

#include <vector>

#include "receipt/model.h"

namespace receipt {

// One attention block's projections; HF Linear layout [out, in]: q, k, v: [H*K, D]; o: [D, H*K].
struct AttentionWeights {
    const float* q = nullptr;
    const float* k = nullptr;
    const float* v = nullptr;
    const float* o = nullptr;
};

// Feed-forward weights: relu uses wi [F, D]; gated uses wi_0, wi_1 [F, D]; wo: [D, F].
struct FfnWeights {
    const float* wi = nullptr;
    const float* wi_0 = nullptr;
    const float* wi_1 = nullptr;
    const float* wo = nullptr;
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
    const float* lm_head = nullptr;    // [V, D] (== shared when tied)
    std::vector<EncoderLayerWeights> encoder;
    const float* encoder_final_ln = nullptr;
    std::vector<DecoderLayerWeights> decoder;
    const float* decoder_final_ln = nullptr;

    // Resolves every pointer through Model::weight (which already validated names and shapes).
    explicit T5Weights(const Model& model);
};

}  // namespace receipt
