// Resolved pointers to a T5 model's fp32 host weights, per layer (no copies; the Model owns the data).
#pragma once

#include <cstdint>
#include <vector>

#include "receipt/model.h"

namespace receipt {

// One attention block's projections; HF Linear layout [out, in]: q, k, v: [H*K, D]; o: [D, H*K].
// *_f16: the same tensors as stored when the file holds them as IEEE halves (Model::weight_f16), else null.
struct AttentionWeights {
    const float* q = nullptr;
    const float* k = nullptr;
    const float* v = nullptr;
    const float* o = nullptr;
    const uint16_t* q_f16 = nullptr;
    const uint16_t* k_f16 = nullptr;
    const uint16_t* v_f16 = nullptr;
    const uint16_t* o_f16 = nullptr;
};

// Feed-forward weights: relu uses wi [F, D]; gated uses wi_0, wi_1 [F, D]; wo: [D, F]. *_f16 as above.
struct FfnWeights {
    const float* wi = nullptr;
    const float* wi_0 = nullptr;
    const float* wi_1 = nullptr;
    const float* wo = nullptr;
    const uint16_t* wi_f16 = nullptr;
    const uint16_t* wi_0_f16 = nullptr;
    const uint16_t* wi_1_f16 = nullptr;
    const uint16_t* wo_f16 = nullptr;
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
    const uint16_t* lm_head_f16 = nullptr;  // lm_head as stored, when IEEE halves
    std::vector<EncoderLayerWeights> encoder;
    const float* encoder_final_ln = nullptr;
    std::vector<DecoderLayerWeights> decoder;
    const float* decoder_final_ln = nullptr;

    // Resolves every pointer through Model::weight (which already validated names and shapes).
    explicit T5Weights(const Model& model);
};

}  // namespace receipt
