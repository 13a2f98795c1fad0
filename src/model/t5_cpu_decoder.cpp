#include "model/t5_cpu_decoder.h"

#include <cmath>
#include <cstring>

#include "core/buffer.h"
#include "model/relative_position.h"
#include "model/t5_ffn_cpu.h"
#include "ops/attention.h"
#include "ops/elementwise.h"
#include "ops/linear.h"
#include "receipt/errors.h"

namespace receipt {

T5CpuDecoder::T5CpuDecoder(const Model& model, const T5Weights& weights) : model_(model), w_(weights) {
    const auto& c = model.config();
    D_ = c.d_model;
    H_ = c.num_heads;
    K_ = c.d_kv;
    HK_ = H_ * K_;
    F_ = c.d_ff;
    V_ = c.vocab_size;
    L_ = c.num_decoder_layers;
    eps_ = c.layer_norm_epsilon;
    gated_ = c.feed_forward != FeedForward::kRelu;
    scale_out_ = c.scale_decoder_outputs;
}

void T5CpuDecoder::reset(const float* enc_out, const std::vector<int>& lengths, int S, int rows_per_source,
                         int t_max, int max_tokens_per_row) {
    RECEIPT_CHECK(max_tokens_per_row >= 1, InvalidInput, "decoder reset: max_tokens_per_row must be >= 1");
    q_max_ = max_tokens_per_row;
    const int B = static_cast<int>(lengths.size());
    S_ = S;
    t_max_ = t_max;
    lengths_ = lengths;
    n_rows_max_ = B * rows_per_source;
    row_src_.resize(n_rows_max_);
    for (int r = 0; r < n_rows_max_; ++r) row_src_[r] = r / rows_per_source;
    decoder_position_bias(model_, t_max, bias_);

    const size_t cross = size_t(B) * S * HK_;
    grow(cross_k_, cross * L_);
    grow(cross_v_, cross * L_);
    for (int l = 0; l < L_; ++l) {
        ops::linear_cpu(enc_out, int64_t(B) * S, D_, w_.decoder[l].cross.k.f32, HK_, cross_k_.data() + l * cross);
        ops::linear_cpu(enc_out, int64_t(B) * S, D_, w_.decoder[l].cross.v.f32, HK_, cross_v_.data() + l * cross);
    }
    const size_t cache = size_t(L_) * n_rows_max_ * H_ * t_max * K_;
    grow(k_cache_, cache);
    grow(v_cache_, cache);
    grow(k_swap_, cache);
    grow(v_swap_, cache);
    const size_t N = size_t(n_rows_max_) * q_max_;  // query rows of one step
    grow(x_, N * D_);
    grow(h_, N * D_);
    grow(q_, N * HK_);
    grow(k_, N * HK_);
    grow(v_, N * HK_);
    grow(attn_, N * HK_);
    grow(ff_a_, N * F_);
    if (gated_) grow(ff_b_, N * F_);
    q_row_.reserve(N);
    q_pos_.reserve(N);
    q_src_.reserve(N);
}

void T5CpuDecoder::step(const std::vector<int>& tokens, int t, float* logits) {
    const int N = n_rows();
    RECEIPT_CHECK(static_cast<int>(tokens.size()) == N, InvalidInput, "decoder step: token count != rows");
    RECEIPT_CHECK(t >= 0 && t < t_max_, InvalidInput, "decoder step: position past the preallocated cache");
    q_row_.resize(N);
    q_pos_.assign(N, t);
    for (int n = 0; n < N; ++n) q_row_[n] = n;
    forward(tokens.data(), N, logits);
}

void T5CpuDecoder::step_tokens(const std::vector<int>& tokens, const std::vector<int>& counts,
                               const std::vector<int>& pos, float* logits) {
    const int N = n_rows();
    RECEIPT_CHECK(static_cast<int>(counts.size()) == N && static_cast<int>(pos.size()) == N, InvalidInput,
                  "decoder step_tokens: counts / positions != rows");
    q_row_.clear();
    q_pos_.clear();
    for (int n = 0; n < N; ++n) {
        RECEIPT_CHECK(counts[n] >= 1 && counts[n] <= q_max_, InvalidInput,
                      "decoder step_tokens: tokens per row outside [1, max_tokens_per_row]");
        RECEIPT_CHECK(pos[n] >= 0 && pos[n] + counts[n] <= t_max_, InvalidInput,
                      "decoder step_tokens: position past the preallocated cache");
        for (int j = 0; j < counts[n]; ++j) {
            q_row_.push_back(n);
            q_pos_.push_back(pos[n] + j);
        }
    }
    RECEIPT_CHECK(tokens.size() == q_row_.size(), InvalidInput, "decoder step_tokens: token count != sum of counts");
    forward(tokens.data(), static_cast<int>(q_row_.size()), logits);
}

// Query m: token tokens[m] at position q_pos_[m] of row q_row_[m]. N = M query rows from here on.
void T5CpuDecoder::forward(const int* tokens, int N, float* logits) {
    const size_t cache_layer = size_t(n_rows_max_) * H_ * t_max_ * K_;
    const size_t cross_layer = size_t(lengths_.size()) * S_ * HK_;
    if (capture_hidden) hidden.clear();
    q_src_.resize(N);
    for (int n = 0; n < N; ++n) q_src_[n] = row_src_[q_row_[n]];

    // x[n, :] = shared[token_n]   (T5 does not scale embeddings)
    for (int n = 0; n < N; ++n) {
        RECEIPT_CHECK(tokens[n] >= 0 && tokens[n] < V_, InvalidInput, "decoder step: token id out of range");
        std::memcpy(x_.data() + size_t(n) * D_, w_.shared + size_t(tokens[n]) * D_, sizeof(float) * D_);
    }
    for (int l = 0; l < L_; ++l) {
        if (capture_hidden) hidden.emplace_back(x_.begin(), x_.begin() + size_t(N) * D_);
        const DecoderLayerWeights& lw = w_.decoder[l];
        float* kc = k_cache_.data() + l * cache_layer;
        float* vc = v_cache_.data() + l * cache_layer;

        // Self-attention: q, k, v = h W^T [N, H*K]; k, v written to the cache at each query's row and position.
        ops::rms_norm_cpu(x_.data(), lw.ln_self, N, D_, eps_, h_.data());
        linear(h_.data(), N, D_, lw.self.q, HK_, q_.data(), 0.0f);
        linear(h_.data(), N, D_, lw.self.k, HK_, k_.data(), 0.0f);
        linear(h_.data(), N, D_, lw.self.v, HK_, v_.data(), 0.0f);
        for (int n = 0; n < N; ++n)
            for (int h = 0; h < H_; ++h) {
                const size_t dst = ((size_t(q_row_[n]) * H_ + h) * t_max_ + q_pos_[n]) * K_;
                std::memcpy(kc + dst, k_.data() + size_t(n) * HK_ + h * K_, sizeof(float) * K_);
                std::memcpy(vc + dst, v_.data() + size_t(n) * HK_ + h * K_, sizeof(float) * K_);
            }
        ops::decoder_self_attention_rows_cpu(q_.data(), kc, vc, bias_.data(), N, H_, K_, t_max_, q_row_.data(),
                                             q_pos_.data(), attn_.data());
        linear(attn_.data(), N, HK_, lw.self.o, D_, x_.data(), 1.0f);

        // Cross-attention over the source's precomputed K/V (padding keys excluded, no position bias).
        ops::rms_norm_cpu(x_.data(), lw.ln_cross, N, D_, eps_, h_.data());
        linear(h_.data(), N, D_, lw.cross.q, HK_, q_.data(), 0.0f);
        ops::cross_attention_cpu(q_.data(), cross_k_.data() + l * cross_layer, cross_v_.data() + l * cross_layer,
                                 q_src_.data(), lengths_.data(), N, S_, H_, K_, attn_.data());
        linear(attn_.data(), N, HK_, lw.cross.o, D_, x_.data(), 1.0f);

        // Feed-forward.
        ops::rms_norm_cpu(x_.data(), lw.ln_ffn, N, D_, eps_, h_.data());
        t5_ffn_cpu(lw.ffn, model_.config().feed_forward, h_.data(), N, D_, F_, x_.data(), ff_a_, ff_b_);
    }
    // HF's hidden_states list: the embeddings, the outputs of layers 0..L-2 (each captured above as the next
    // layer's input), then the final normed states.
    ops::rms_norm_cpu(x_.data(), w_.decoder_final_ln, N, D_, eps_, h_.data());
    if (capture_hidden) hidden.emplace_back(h_.begin(), h_.begin() + size_t(N) * D_);
    // T5 with a tied head (scale_decoder_outputs): HF rescales by D^-0.5 before the lm_head projection.
    if (scale_out_) ops::scale_cpu(h_.data(), int64_t(N) * D_, 1.0f / std::sqrt(static_cast<float>(D_)));
    linear(h_.data(), N, D_, w_.lm_head, V_, logits);
}

void T5CpuDecoder::select_rows(const std::vector<int>& src, int t_cached) {
    const int N_new = static_cast<int>(src.size());
    RECEIPT_CHECK(N_new <= n_rows_max_, InvalidInput, "select_rows: more rows than preallocated");
    const size_t row = size_t(H_) * t_max_ * K_;  // one row's cache in one layer
    const size_t cache_layer = size_t(n_rows_max_) * row;
    std::vector<int>& new_src = row_src_swap_;
    new_src.resize(N_new);
    for (int l = 0; l < L_; ++l) {
        for (int r = 0; r < N_new; ++r) {
            const size_t from = l * cache_layer + size_t(src[r]) * row;
            const size_t to = l * cache_layer + size_t(r) * row;
            for (int h = 0; h < H_; ++h) {  // copy positions 0..t_cached-1 of each head
                std::memcpy(k_swap_.data() + to + size_t(h) * t_max_ * K_, k_cache_.data() + from + size_t(h) * t_max_ * K_,
                            sizeof(float) * t_cached * K_);
                std::memcpy(v_swap_.data() + to + size_t(h) * t_max_ * K_, v_cache_.data() + from + size_t(h) * t_max_ * K_,
                            sizeof(float) * t_cached * K_);
            }
        }
    }
    for (int r = 0; r < N_new; ++r) new_src[r] = row_src_[src[r]];
    row_src_.swap(new_src);
    k_cache_.swap(k_swap_);
    v_cache_.swap(v_swap_);
}

}  // namespace receipt
