// T5 relative position buckets (transformers T5Attention._relative_position_bucket) and bias tables.
#pragma once

#include <vector>

#include "receipt/model.h"

namespace receipt {

// Bucket of one relative position rel = key_pos - query_pos.
// bidirectional (encoder): nb = num_buckets/2, bucket += nb when rel > 0, rel = |rel|;
// causal (decoder): rel = -min(rel, 0).
// Then, with max_exact = nb/2: rel < max_exact -> rel; else
// max_exact + int(log(rel/max_exact) / log(max_distance/max_exact) * (nb - max_exact)), capped at nb-1.
// The log ratio is evaluated in float32, as torch does.
int relative_position_bucket(int rel, bool bidirectional, int num_buckets, int max_distance);

// Encoder bias: out[h][i][j] = table[bucket(j - i)][h] for S x S; shape [H, S, S] f32.
void encoder_position_bias(const Model& model, int S, std::vector<float>& out);

// Decoder bias by distance: out[h][d] = table[bucket(-d)][h] for d = t - j in [0, T); shape [H, T] f32.
void decoder_position_bias(const Model& model, int T, std::vector<float>& out);

}  // namespace receipt
