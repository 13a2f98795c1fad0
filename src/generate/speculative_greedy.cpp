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
    std::vector<int> last(B, tokens.decoder_start);  // each row's token to feed next (at position |ids|)
    std::vector<int> feed, counts, pos, offsets;
    std::vector<std::vector<int>> drafts(B);
    std::vector<float> logits;
    std::vector<char> done;

    while (!row_source.empty()) {
        const int N = static_cast<int>(row_source.size());
        feed.clear();
        counts.assign(N, 1);
        pos.resize(N);
        offsets.resize(N);
        for (int r = 0; r < N; ++r) {
            const int s = row_source[r];
            const int emitted = static_cast<int>(results[s].ids.size());
            // Positions past max_new_tokens - 1 are never needed: the row ends there.
            const int room = std::min(n_drafts, options.max_new_tokens - emitted - 1);
            drafts[r] = prompt_lookup_drafts(sources[s], results[s].ids, room, &options.draft_context);
            offsets[r] = static_cast<int>(feed.size());
            pos[r] = emitted;
            counts[r] = 1 + static_cast<int>(drafts[r].size());
            feed.push_back(last[r]);
            feed.insert(feed.end(), drafts[r].begin(), drafts[r].end());
        }
        logits.resize(feed.size() * size_t(V));
        stepper.step_tokens(feed, counts, pos, logits.data());
        if (stats) ++stats->steps;
        done.assign(N, 0);
#pragma omp parallel for num_threads(ops::cpu_threads()) schedule(dynamic) if (N > 1)
        for (int r = 0; r < N; ++r) {
            const int s = row_source[r];
            GenerationResult& res = results[s];
            for (int j = 0; j < counts[r]; ++j) {
                const int t = static_cast<int>(res.ids.size());
                const GreedyChoice c = greedy_choose(logits.data() + size_t(offsets[r] + j) * V, V, t, options,
                                                     tokens, source_offset + s, res.ids);
                res.score += c.logp;
                res.min_margin = std::min(res.min_margin, c.margin);
                res.ids.push_back(c.id);
                last[r] = c.id;
                if (c.id == tokens.eos || t + 1 >= options.max_new_tokens) {
                    done[r] = 1;
                    break;
                }
                if (j + 1 < counts[r] && drafts[r][j] != c.id) break;  // draft j+1 was fed on a wrong prefix
            }
        }
        std::vector<int> keep, next_source, next_last;
        int t_cached = 0;  // the most positions a kept row has cached
        for (int r = 0; r < N; ++r) {
            if (done[r]) continue;
            keep.push_back(r);
            next_source.push_back(row_source[r]);
            next_last.push_back(last[r]);
            t_cached = std::max(t_cached, static_cast<int>(results[row_source[r]].ids.size()));
        }
        if (static_cast<int>(keep.size()) != N && !keep.empty()) stepper.select_rows(keep, t_cached);
        row_source.swap(next_source);
        last.swap(next_last);
    }
    if (stats)
        for (const auto& r : results) stats->tokens += static_cast<long long>(r.ids.size());
    return results;
}

}  // namespace receipt
