#include <algorithm>
#include <cmath>

#include "generate/row_scan.h"
#include "generate/search.h"
#include "ops/elementwise.h"
#include "ops/linear.h"

namespace receipt {

GreedyChoice greedy_choose(float* row, int V, int t, const GenerationOptions& options, const SearchTokens& tokens,
                           int source, const std::vector<int>& generated) {
    if (t < options.min_new_tokens) row[tokens.eos] = -INFINITY;
    if (options.logits_processor) options.logits_processor->process(source, generated, row, V);
    GreedyChoice c;
    const float best_v = row_max(row, V);
    if (!(best_v > -INFINITY)) {  // a processor forbade every token: end the sequence
        c.id = tokens.eos;
        c.logp = -INFINITY;
        c.margin = INFINITY;
        return c;
    }
    // The lowest id among equal maxima (as torch.argmax); the runner-up is the largest other value (equal to
    // best_v when the maximum is tied: margin 0).
    const int best = first_index_of(row, V, best_v);
    row[best] = -INFINITY;
    const float second_v = row_max(row, V);
    row[best] = best_v;
    c.id = best;
    c.margin = second_v == -INFINITY ? INFINITY : best_v - second_v;  // +inf: one token left
    c.logp = -std::log(sum_exp_shifted(row, V, best_v));
    return c;
}

std::vector<GenerationResult> greedy_search(DecoderStepper& stepper, int B, const GenerationOptions& options,
                                            const SearchTokens& tokens, int source_offset) {
    const int V = stepper.vocab_size();
    std::vector<GenerationResult> results(B);
    std::vector<int> row_source(B);  // active row -> source index
    for (int b = 0; b < B; ++b) row_source[b] = b;
    std::vector<int> feed(B, tokens.decoder_start);
    std::vector<float> logits(size_t(B) * V);
    std::vector<int> best_ids;
    std::vector<float> best_logp, margin;

    for (int t = 0; t < options.max_new_tokens && !row_source.empty(); ++t) {
        const int N = static_cast<int>(row_source.size());
        stepper.step(feed, t, logits.data());
        // Per row: EOS masked before min_new_tokens (MinNewTokensLengthLogitsProcessor), argmax (first maximum
        // wins, as torch.argmax) and the chosen token's log-probability best - logsumexp(row).
        best_ids.resize(N);
        best_logp.resize(N);
        margin.resize(N);
#pragma omp parallel for num_threads(ops::cpu_threads()) schedule(static) if (N > 1)
        for (int r = 0; r < N; ++r) {
            const GreedyChoice c = greedy_choose(logits.data() + size_t(r) * V, V, t, options, tokens,
                                                 source_offset + row_source[r], results[row_source[r]].ids);
            best_ids[r] = c.id;
            best_logp[r] = c.logp;
            margin[r] = c.margin;
        }
        std::vector<int> keep;
        std::vector<int> next_feed;
        keep.reserve(N);
        for (int r = 0; r < N; ++r) {
            GenerationResult& res = results[row_source[r]];
            res.score += best_logp[r];
            res.min_margin = std::min(res.min_margin, margin[r]);
            res.ids.push_back(best_ids[r]);
            if (best_ids[r] != tokens.eos) {
                keep.push_back(r);
                next_feed.push_back(best_ids[r]);
            }
        }
        if (static_cast<int>(keep.size()) != N && !keep.empty() && t + 1 < options.max_new_tokens) {
            stepper.select_rows(keep, t + 1);
        }
        std::vector<int> new_source;
        new_source.reserve(keep.size());
        for (int r : keep) new_source.push_back(row_source[r]);
        row_source.swap(new_source);
        feed.swap(next_feed);
    }
    return results;
}

}  // namespace receipt
