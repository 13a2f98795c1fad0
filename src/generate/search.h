// Search algorithms over a DecoderStepper, with Hugging Face generate() semantics.
#pragma once

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

// Beam search for B sources with num_beams rows each (stepper rows b*num_beams .. b*num_beams+num_beams-1 belong to
// source b and start identical). Mirrors transformers' GenerationMixin._beam_search: per source keep the top
// 2*num_beams continuations of (running score + log_softmax), finished candidates among the top num_beams enter the
// hypothesis list with score / generated_len^length_penalty, the best num_beams unfinished ones continue, and
// the search stops per HF's early-stopping heuristic. Returns the best hypothesis per source.
std::vector<GenerationResult> beam_search(DecoderStepper& stepper, int B, const GenerationOptions& options,
                                          const SearchTokens& tokens);

}  // namespace receipt
