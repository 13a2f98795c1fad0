// Greedy search with prompt-lookup drafts on the host (any DecoderStepper with step_tokens). Per step, row r feeds
// its last token and drafts d_1..d_m at positions p..p+m; the logits of fed token j give greedy_choose()'s choice
// c_j (processor included, on the prefix ids ++ c_0..c_{j-1}). c_0 is always emitted; c_j (j >= 1) is emitted
// while every d_i (i <= j) equalled c_{i-1}, since only then were its logits computed on greedy search's prefix.
#include <algorithm>

#include "generate/prompt_lookup.h"
#include "generate/search.h"
#include "ops/linear.h"
#include "receipt/errors.h"

namespace receipt {

bool accept_speculative_rows(float* logits, int V, const int* fed, int j0, int n_rows, const GenerationOptions& options,
                             const SearchTokens& tokens, int source, GenerationResult& res,
                             const std::function<void(int j, const float* row, int t)>& inspect) {
    for (int j = j0; j < n_rows; ++j) {
        float* row = logits + size_t(j) * V;
        const int t = static_cast<int>(res.ids.size());
        if (inspect) inspect(j, row, t);
        const GreedyChoice c = greedy_choose(row, V, t, options, tokens, source, res.ids);
        res.score += c.logp;
        res.min_margin = std::min(res.min_margin, c.margin);
        res.ids.push_back(c.id);
        if (c.id == tokens.eos || t + 1 >= options.max_new_tokens) return true;
        if (j + 1 < n_rows && fed[j + 1] != c.id) return false;  // the next row was fed a rejected draft
    }
    return false;
}

std::vector<GenerationResult> speculative_greedy_search(DecoderStepper& stepper,
                                                        const std::vector<std::vector<int>>& sources,
                                                        const GenerationOptions& options, const SearchTokens& tokens,
                                                        int n_drafts, int source_offset, SpeculationStats* stats) {
    const int B = static_cast<int>(sources.size());
    const int V = stepper.vocab_size();
    RECEIPT_CHECK(stepper.n_rows() == B, InvalidInput, "speculative greedy: stepper rows != sources");
    n_drafts = std::clamp(n_drafts, 0, stepper.max_tokens_per_row() - 1);
    std::vector<GenerationResult> results(B);
    std::vector<int> row_source(B);  // active row -> source index
    for (int b = 0; b < B; ++b) row_source[b] = b;
    std::vector<int> feed, counts, pos, offsets;
    std::vector<float> logits;
    std::vector<char> done;

    while (!row_source.empty()) {
        const int N = static_cast<int>(row_source.size());
        feed.clear();
        counts.resize(N);
        pos.resize(N);
        offsets.resize(N);
        for (int r = 0; r < N; ++r) {
            const std::vector<int>& ids = results[row_source[r]].ids;
            const int emitted = static_cast<int>(ids.size());
            // Positions past max_new_tokens - 1 are never needed: the row ends there.
            const int room = std::min(n_drafts, options.max_new_tokens - emitted - 1);
            const std::vector<int> drafts =
                prompt_lookup_drafts(sources[row_source[r]], ids, room, &options.draft_context);
            offsets[r] = static_cast<int>(feed.size());
            pos[r] = emitted;
            counts[r] = 1 + static_cast<int>(drafts.size());
            feed.push_back(emitted > 0 ? ids.back() : tokens.decoder_start);  // the token at position |ids|
            feed.insert(feed.end(), drafts.begin(), drafts.end());
        }
        logits.resize(feed.size() * size_t(V));
        stepper.step_tokens(feed, counts, pos, logits.data());
        if (stats) ++stats->steps;
        done.assign(N, 0);
#pragma omp parallel for num_threads(ops::cpu_threads()) schedule(dynamic) if (N > 1)
        for (int r = 0; r < N; ++r) {
            const int s = row_source[r];
            done[r] = accept_speculative_rows(logits.data() + size_t(offsets[r]) * V, V, feed.data() + offsets[r], 0,
                                              counts[r], options, tokens, source_offset + s, results[s]);
        }
        std::vector<int> keep, next_source;
        int t_cached = 0;  // the most positions a kept row has cached
        for (int r = 0; r < N; ++r) {
            if (done[r]) continue;
            keep.push_back(r);
            next_source.push_back(row_source[r]);
            t_cached = std::max(t_cached, static_cast<int>(results[row_source[r]].ids.size()));
        }
        if (static_cast<int>(keep.size()) != N && !keep.empty()) stepper.select_rows(keep, t_cached);
        row_source.swap(next_source);
    }
    if (stats)
        for (const auto& r : results) stats->tokens += static_cast<long long>(r.ids.size());
    return results;
}

}  // namespace receipt
