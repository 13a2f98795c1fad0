// The interface between the search algorithms (greedy, beam) and a backend's incremental decoder.
#pragma once

#include <vector>

#include "receipt/errors.h"

namespace receipt {

// A decoder with per-row state (self-attention KV cache). Rows are decoder sequences (batch x beams); each row
// belongs to one source sequence whose encoder output / cross K/V the backend already holds.
class DecoderStepper {
public:
    virtual ~DecoderStepper() = default;
    // V: logits per row.
    virtual int vocab_size() const = 0;
    // Current number of rows N.
    virtual int n_rows() const = 0;
    // Feeds tokens[N] at decoder position t (0 = the decoder start token) and writes logits [N, V] (fp32).
    // Positions 0..t-1 must already be cached for every row.
    virtual void step(const std::vector<int>& tokens, int t, float* logits) = 0;
    // Whether step_top_k() can return k candidates per row (a backend that picks them where the logits live, so
    // that beam search copies k values per row instead of V). The default: no.
    virtual bool supports_top_k(int /*k*/) const { return false; }
    // Like step(), but writes per row the k largest log_softmax(logits) values, descending (equal values: lower id
    // first), to logp [N, k] and their ids to ids [N, k]; id `masked` (>= 0) is left out of the candidates, not out
    // of the softmax. Rows with fewer than k candidates end in (-inf, -1). Only called when supports_top_k(k).
    virtual void step_top_k(const std::vector<int>& /*tokens*/, int /*t*/, int /*k*/, int /*masked*/, float* /*logp*/,
                            int* /*ids*/) {
        RECEIPT_CHECK(false, InvalidInput, "DecoderStepper::step_top_k: this backend has no top-k step");
    }
    // The most tokens step_tokens() takes per row (speculative decoding's last token + drafts); 1 = this backend
    // feeds one token per row per step only.
    virtual int max_tokens_per_row() const { return 1; }
    // Feeds counts[r] tokens for row r (1 <= counts[r] <= max_tokens_per_row(); `tokens` holds them row after
    // row) at positions pos[r] .. pos[r] + counts[r] - 1, each attending to the row's cached positions and to the
    // row's tokens before it in this call. Row r's cache must hold positions 0 .. pos[r] - 1; what it holds past
    // them is overwritten. Writes logits [sum counts, V] (fp32) in the order of `tokens`.
    virtual void step_tokens(const std::vector<int>& /*tokens*/, const std::vector<int>& /*counts*/,
                             const std::vector<int>& /*pos*/, float* /*logits*/) {
        RECEIPT_CHECK(false, InvalidInput, "DecoderStepper::step_tokens: this backend feeds one token per row");
    }
    // Replaces the rows: new row r continues old row src[r] (src may repeat rows and may be shorter than N, which
    // drops rows). Copies the cached positions 0..t_cached-1.
    virtual void select_rows(const std::vector<int>& src, int t_cached) = 0;
};

}  // namespace receipt
