#include "model/relative_position.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace receipt {

int relative_position_bucket(int rel, bool bidirectional, int num_buckets, int max_distance) {
    int ret = 0;
    int nb = num_buckets;
    if (bidirectional) {
        nb /= 2;
        if (rel > 0) ret += nb;
        rel = std::abs(rel);
    } else {
        rel = -std::min(rel, 0);
    }
    const int max_exact = nb / 2;
    if (rel < max_exact) return ret + rel;
    // torch: log(rel.float() / max_exact) / math.log(max_distance / max_exact) * (nb - max_exact), all float32.
    const float ratio = static_cast<float>(rel) / static_cast<float>(max_exact);
    const float denom = static_cast<float>(std::log(static_cast<double>(max_distance) / max_exact));
    const float scaled = std::log(ratio) / denom * static_cast<float>(nb - max_exact);
    int large = max_exact + static_cast<int>(scaled);
    large = std::min(large, nb - 1);
    return ret + large;
}

void encoder_position_bias(const Model& model, int S, std::vector<float>& out) {
    const auto& c = model.config();
    const HostTensor& table = model.weight("encoder.block.0.layer.0.SelfAttention.relative_attention_bias.weight");
    const int H = c.num_heads;
    out.resize(size_t(H) * S * S);
    std::vector<int> bucket(2 * S - 1);  // by rel + S - 1
    for (int rel = -(S - 1); rel <= S - 1; ++rel)
        bucket[rel + S - 1] =
            relative_position_bucket(rel, true, c.relative_attention_num_buckets, c.relative_attention_max_distance);
    for (int h = 0; h < H; ++h)
        for (int i = 0; i < S; ++i) {
            float* row = out.data() + (size_t(h) * S + i) * S;
            for (int j = 0; j < S; ++j) row[j] = table.data[size_t(bucket[j - i + S - 1]) * H + h];
        }
}

void decoder_position_bias(const Model& model, int T, std::vector<float>& out) {
    const auto& c = model.config();
    const HostTensor& table = model.weight("decoder.block.0.layer.0.SelfAttention.relative_attention_bias.weight");
    const int H = c.num_heads;
    out.resize(size_t(H) * T);
    for (int d = 0; d < T; ++d) {
        int b = relative_position_bucket(-d, false, c.relative_attention_num_buckets, c.relative_attention_max_distance);
        for (int h = 0; h < H; ++h) out[size_t(h) * T + d] = table.data[size_t(b) * H + h];
    }
}

}  // namespace receipt
