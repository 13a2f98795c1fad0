// Prompt-lookup drafts for speculative greedy decoding (transformers' prompt_lookup_num_tokens): the tokens that
// followed the latest earlier occurrence of the output's last tokens in the source and the output so far. The
// host twin of the lookup in src/ops/speculative_cuda.cu.
#pragma once

#include <vector>

#include "receipt/engine.h"

namespace receipt {

// Longest suffix of the output that is looked up (then shorter ones, down to 1 token).
constexpr int kPromptLookupMaxNgram = 3;

// Up to n_drafts draft tokens for a sequence whose source ids are `source` and whose output so far is `output`.
// Context c = extra ++ source ++ output (N tokens; extra: GenerationOptions::draft_context, at most
// kMaxDraftContext of its ids, or none when null). For n = min(3, |output|) down to 1: the latest start s < N - n with
// c[s .. s+n) == the output's last n tokens; the drafts are c[s + n + (j mod P)] for j < n_drafts, with
// P = N - n - s (past the context's end the occurrence's continuation repeats, as the suffix does). No
// occurrence, an empty output or n_drafts <= 0: no drafts (an empty vector).
std::vector<int> prompt_lookup_drafts(const std::vector<int>& source, const std::vector<int>& output, int n_drafts,
                                      const std::vector<int>* extra = nullptr);

}  // namespace receipt
