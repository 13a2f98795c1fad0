#include "model/t5_weights.h"

#include <string>

namespace receipt {

namespace {

AttentionWeights attention(const Model& m, const std::string& p) {
    AttentionWeights a;
    a.q = m.weight(p + ".q.weight").data;
    a.k = m.weight(p + ".k.weight").data;
    a.v = m.weight(p + ".v.weight").data;
    a.o = m.weight(p + ".o.weight").data;
    a.q_f16 = m.weight_f16(p + ".q.weight");
    a.k_f16 = m.weight_f16(p + ".k.weight");
    a.v_f16 = m.weight_f16(p + ".v.weight");
    a.o_f16 = m.weight_f16(p + ".o.weight");
    return a;
}

FfnWeights ffn(const Model& m, const std::string& p) {
    FfnWeights f;
    if (m.config().feed_forward == FeedForward::kRelu) {
        f.wi = m.weight(p + ".wi.weight").data;
        f.wi_f16 = m.weight_f16(p + ".wi.weight");
    } else {
        f.wi_0 = m.weight(p + ".wi_0.weight").data;
        f.wi_1 = m.weight(p + ".wi_1.weight").data;
        f.wi_0_f16 = m.weight_f16(p + ".wi_0.weight");
        f.wi_1_f16 = m.weight_f16(p + ".wi_1.weight");
    }
    f.wo = m.weight(p + ".wo.weight").data;
    f.wo_f16 = m.weight_f16(p + ".wo.weight");
    return f;
}

}  // namespace

T5Weights::T5Weights(const Model& m) {
    const auto& c = m.config();
    shared = m.weight("shared.weight").data;
    lm_head = m.weight("lm_head.weight").data;
    lm_head_f16 = m.weight_f16("lm_head.weight");
    for (int i = 0; i < c.num_layers; ++i) {
        const std::string b = "encoder.block." + std::to_string(i);
        EncoderLayerWeights l;
        l.ln_attn = m.weight(b + ".layer.0.layer_norm.weight").data;
        l.self = attention(m, b + ".layer.0.SelfAttention");
        l.ln_ffn = m.weight(b + ".layer.1.layer_norm.weight").data;
        l.ffn = ffn(m, b + ".layer.1.DenseReluDense");
        encoder.push_back(l);
    }
    encoder_final_ln = m.weight("encoder.final_layer_norm.weight").data;
    for (int i = 0; i < c.num_decoder_layers; ++i) {
        const std::string b = "decoder.block." + std::to_string(i);
        DecoderLayerWeights l;
        l.ln_self = m.weight(b + ".layer.0.layer_norm.weight").data;
        l.self = attention(m, b + ".layer.0.SelfAttention");
        l.ln_cross = m.weight(b + ".layer.1.layer_norm.weight").data;
        l.cross = attention(m, b + ".layer.1.EncDecAttention");
        l.ln_ffn = m.weight(b + ".layer.2.layer_norm.weight").data;
        l.ffn = ffn(m, b + ".layer.2.DenseReluDense");
        decoder.push_back(l);
    }
    decoder_final_ln = m.weight("decoder.final_layer_norm.weight").data;
}

}  // namespace receipt
