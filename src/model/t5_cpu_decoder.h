// The fp32 CPU incremental T5 decoder: per-row self-attention KV cache + cross K/V computed once per request.
#pragma once

#include <vector>

#include "generate/decoder_stepper.h"
#include "model/t5_weights.h"

namespace receipt {

// Decoder state for one generate() call. Buffers are sized once in reset() and reused; step() allocates nothing.
// Not thread-safe. Shapes: N rows (<= n_rows_max), S source length, T_max positions, H heads, K d_kv, L layers.
class T5CpuDecoder : public DecoderStepper {
public:
    T5CpuDecoder(const Model& model, const T5Weights& weights);

    // Prepares for B sources: enc_out [B, S, D] (final encoder states), lengths [B]; rows_per_source decoder rows
    // per source (num_beams); t_max the most decoder positions; max_tokens_per_row the most tokens step_tokens()
    // feeds per row (speculative decoding: 1 + drafts). Computes cross K/V = enc_out Wk^T, enc_out Wv^T for every
    // decoder layer ([B, S, H*K] each).
    void reset(const float* enc_out, const std::vector<int>& lengths, int S, int rows_per_source, int t_max,
               int max_tokens_per_row = 1);

    int vocab_size() const override { return V_; }
    int n_rows() const override { return static_cast<int>(row_src_.size()); }
    void step(const std::vector<int>& tokens, int t, float* logits) override;
    int max_tokens_per_row() const override { return q_max_; }
    void step_tokens(const std::vector<int>& tokens, const std::vector<int>& counts, const std::vector<int>& pos,
                     float* logits) override;
    void select_rows(const std::vector<int>& src, int t_cached) override;

    // Decoder hidden states of the last step (HF output_hidden_states layout: embeddings, each layer's output
    // except the last, then the final normed output), filled only when capture_hidden is set.
    bool capture_hidden = false;
    std::vector<std::vector<float>> hidden;

private:
    // The decoder over N query rows whose rows and positions are in q_row_ / q_pos_: logits [N, V].
    void forward(const int* tokens, int N, float* logits);

    const Model& model_;
    const T5Weights& w_;
    int D_, HK_, H_, K_, F_, V_, L_;
    float eps_;
    bool gated_;
    bool scale_out_;
    int S_ = 0, t_max_ = 0, n_rows_max_ = 0, q_max_ = 1;
    std::vector<int> lengths_;
    std::vector<int> row_src_;          // [N] source of each row
    std::vector<int> row_src_swap_;     // scratch for select_rows
    std::vector<int> q_row_, q_pos_, q_src_;  // per query row of a step: its row, position and source
    std::vector<float> bias_;           // [H, T_max] self-attention bias by distance
    std::vector<float> cross_k_, cross_v_;  // [L, B, S, H*K]
    std::vector<float> k_cache_, v_cache_;  // [L, N_max, H, T_max, K]
    std::vector<float> k_swap_, v_swap_;    // same shape, for select_rows
    std::vector<float> x_, h_, q_, k_, v_, attn_, ff_a_, ff_b_;  // per-step scratch
};

}  // namespace receipt
