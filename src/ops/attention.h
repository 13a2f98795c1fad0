// T5 attention on the CPU, fp32. T5 does not scale scores by 1/sqrt(K) (the scale is folded into its init).
// Letters: B batch, N decoder rows (batch x beams), S source length, T target positions, H heads, K d_kv.
#pragma once

#include <cstdint>
#include <vector>

namespace receipt::ops {

// Encoder self-attention with relative position bias and key padding mask.
// q, k, v: [B, S, H*K]; bias: [H, S, S]; lengths: [B] valid positions per sequence; ctx: [B, S, H*K].
// ctx[b, i, h] = softmax_j(q[b,i,h] . k[b,j,h] + bias[h,i,j], j < len_b) . v[b,:,h] for i < len_b; padded rows 0.
void encoder_attention_cpu(const float* q, const float* k, const float* v, const float* bias, const int* lengths,
                           int B, int S, int H, int K, float* ctx, std::vector<float>& scratch);

// Decoder self-attention of the token at position t over the KV cache (causal, keys 0..t).
// q: [N, H*K]; k_cache, v_cache: [N, H, T_max, K]; bias_by_dist: [H, T_max] (bias for distance t - j);
// out: [N, H*K].
void decoder_self_attention_cpu(const float* q, const float* k_cache, const float* v_cache, const float* bias_by_dist,
                                int N, int H, int K, int T_max, int t, float* out);

// Decoder self-attention of M query rows at their own positions (speculative decoding feeds several positions of
// one cache row at once): query m attends to cache row cache_row[m], keys 0..pos[m] (causal).
// q: [M, H*K]; k_cache, v_cache: [rows, H, T_max, K]; bias_by_dist: [H, T_max]; cache_row, pos: [M];
// out: [M, H*K]. Per query the same arithmetic as decoder_self_attention_cpu at t = pos[m].
void decoder_self_attention_rows_cpu(const float* q, const float* k_cache, const float* v_cache,
                                     const float* bias_by_dist, int M, int H, int K, int T_max, const int* cache_row,
                                     const int* pos, float* out);

// Cross-attention of N decoder rows over their source's precomputed K/V (no position bias).
// q: [N, H*K]; k, v: [B, S, H*K]; row_src: [N] source index of each row; lengths: [B]; out: [N, H*K].
void cross_attention_cpu(const float* q, const float* k, const float* v, const int* row_src, const int* lengths,
                         int N, int S, int H, int K, float* out);

}  // namespace receipt::ops
