#include "model/t5_weights.h"

#include <string>

namespace receipt {

namespace {

LinearWeight linear_weight(const Model& m, const std::string& name) {
    return LinearWeight{m.weight(name).data, m.weight_f16(name)};
}

AttentionWeights attention(const Model& m, const std::string& p) {
    AttentionWeights a;
    a.q = linear_weight(m, p + ".q.weight");
    a.k = linear_weight(m, p + ".k.weight");
    a.v = linear_weight(m, p + ".v.weight");
    a.o = linear_weight(m, p + ".o.weight");
    return a;
}

FfnWeights ffn(const Model& m, const std::string& p) {
    FfnWeights f;
    if (m.config().feed_forward == FeedForward::kRelu) {
        f.wi = linear_weight(m, p + ".wi.weight");
    } else {
        f.wi_0 = linear_weight(m, p + ".wi_0.weight");
        f.wi_1 = linear_weight(m, p + ".wi_1.weight");
    }
    f.wo = linear_weight(m, p + ".wo.weight");
    return f;
}

}  // namespace

T5Weights::T5Weights(const Model& m) {
    const auto& c = m.config();
    shared = m.weight("shared.weight").data;
    lm_head = linear_weight(m, "lm_head.weight");
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
