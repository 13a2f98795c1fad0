// Search algorithms over a DecoderStepper, with Hugging Face generate() semantics.
#pragma once

#include <functional>
#include <vector>

#include "generate/decoder_stepper.h"
#include "receipt/engine.h"

namespace receipt {

// Token ids the search needs.
struct SearchTokens {
    int decoder_start = 0;
    int eos = 1;
    int pad = 0;
};

// Greedy search for B rows (one per source, stepper rows 0..B-1 map to sources 0..B-1).
// Each step: logits -> (EOS forbidden while fewer than min_new_tokens) -> argmax. A row stops at EOS; rows that
// finished are dropped from the stepper so later steps cost less. Returns B results in source order.
// options.logits_processor, when set, sees each row as source index source_offset + row.
std::vector<GenerationResult> greedy_search(DecoderStepper& stepper, int B, const GenerationOptions& options,
                                            const SearchTokens& tokens, int source_offset = 0);

// Greedy search with prompt-lookup drafts (speculative decoding with a deterministic draft, Leviathan et al. 2023):
// each step feeds every row its last token and up to n_drafts tokens from prompt_lookup_drafts() over
// options.draft_context, its source (sources[b], the input ids) and its output, through stepper.step_tokens(), and emits the choices of the fed
// tokens up to the first draft that differs from the choice before it (and its choice). Every emitted token is
// greedy_choose()'s on greedy search's own prefix, so ids, score and min_margin are greedy_search's (up to the
// rounding of logits computed in a larger batch), the logits processor included. n_drafts is clamped to
// stepper.max_tokens_per_row() - 1. stats (optional): steps and emitted tokens are added to it.
std::vector<GenerationResult> speculative_greedy_search(DecoderStepper& stepper,
                                                        const std::vector<std::vector<int>>& sources,
                                                        const GenerationOptions& options, const SearchTokens& tokens,
                                                        int n_drafts, int source_offset = 0,
                                                        SpeculationStats* stats = nullptr);

// One sequence's share of a speculative step, accepted as greedy search would: for rows j = j0, j0 + 1, ... <
// n_rows of logits ([n_rows, V], row j computed on the token fed[j]), greedy_choose()'s choice (the row is
// modified in place) is appended to res (ids, score, min_margin), until it is EOS or the max_new_tokens-th token
// (returns true: the sequence ended) or the token fed next, fed[j + 1], is not that choice (returns false).
// inspect (optional) sees each row and its position t before the choice changes the row.
bool accept_speculative_rows(float* logits, int V, const int* fed, int j0, int n_rows, const GenerationOptions& options,
                             const SearchTokens& tokens, int source, GenerationResult& res,
                             const std::function<void(int j, const float* row, int t)>& inspect = nullptr);

// One greedy choice, as greedy_search makes it for a row at step t: EOS forbidden while t < min_new_tokens, then
// the processor (source index `source`, the row's ids so far), then the argmax (first maximum wins, as
// torch.argmax). row: [V] logits, modified in place. id = EOS and logp = -inf when the processor forbade every
// token; margin = the chosen logit minus the runner-up's (+inf when no runner-up).
struct GreedyChoice {
    int id = 0;
    float logp = 0.0f;  // the chosen token's log-probability: best - logsumexp(row)
    float margin = 0.0f;
};
GreedyChoice greedy_choose(float* row, int V, int t, const GenerationOptions& options, const SearchTokens& tokens,
                           int source, const std::vector<int>& generated);

// Beam search for B sources with num_beams rows each (stepper rows b*num_beams .. b*num_beams+num_beams-1 belong to
// source b and start identical). Mirrors transformers' GenerationMixin._beam_search: per source keep the top
// 2*num_beams continuations of (running score + log_softmax), finished candidates among the top num_beams enter the
// hypothesis list with score / generated_len^length_penalty, the best num_beams unfinished ones continue, and
// the search stops per HF's early-stopping heuristic. Returns the best hypothesis per source.
std::vector<GenerationResult> beam_search(DecoderStepper& stepper, int B, const GenerationOptions& options,
                                          const SearchTokens& tokens);

}  // namespace receipt
