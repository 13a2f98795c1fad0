// Beam search with the exact semantics of transformers' (>= 4.50) vectorised GenerationMixin._beam_search.
// Notation per source: K = num_beams, g = tokens generated so far, cur_len = 1 + g (the decoder start counts).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>

#include "generate/search.h"
#include "ops/elementwise.h"
#include "receipt/errors.h"

namespace receipt {

namespace {

constexpr float kNegBig = -1.0e9f;  // HF's "very large negative" for masked candidates

struct Hyp {
    float score = kNegBig;
    std::vector<int> ids;
    bool finished = false;
};

struct SourceState {
    std::vector<float> running_score;         // [K], sorted descending after the first step
    std::vector<std::vector<int>> running;    // [K] generated ids
    std::vector<Hyp> done;                    // [K] best finished hypotheses, sorted descending
    bool improvable = true;                   // HF is_early_stop_heuristic_unsatisfied
    bool frozen = false;                      // no candidate can change `done` any more
};

// Indices of the k largest values, descending; ties keep the lower index first.
std::vector<int> top_k(const std::vector<float>& v, int k) {
    std::vector<int> idx(v.size());
    std::iota(idx.begin(), idx.end(), 0);
    std::partial_sort(idx.begin(), idx.begin() + k, idx.end(), [&](int a, int b) {
        return v[a] > v[b] || (v[a] == v[b] && a < b);
    });
    idx.resize(k);
    return idx;
}

}  // namespace

std::vector<GenerationResult> beam_search(DecoderStepper& stepper, int B, const GenerationOptions& options,
                                          const SearchTokens& tokens) {
    const int K = options.num_beams;
    const int V = stepper.vocab_size();
    const int K2 = 2 * K;  // beams_to_keep = max(2, 1 + n_eos) * K with one EOS id
    RECEIPT_CHECK(K >= 1 && K2 <= int64_t(K) * V, InvalidInput, "num_beams too large for the vocabulary");
    const bool early = options.early_stopping;
    const float lp = options.length_penalty;

    std::vector<SourceState> src(B);
    for (auto& s : src) {
        s.running_score.assign(K, kNegBig);
        s.running_score[0] = 0.0f;  // only beam 0 is live at the start (HF: scores[:, 1:] = -1e9)
        s.running.assign(K, {});
        s.done.assign(K, Hyp{});
    }
    std::vector<int> active(B);  // sources still decoding, in stepper order (K rows each)
    std::iota(active.begin(), active.end(), 0);

    // Candidates: the whole [rows, V] log-softmax on the host, or (a backend that supports it) the K2 best of
    // each row, picked where the logits live. The top K2 of a source's K x V candidates (log-prob + the beam's
    // running score, one shift per row) are always among its rows' top K2, so both give the same choice.
    const bool row_top = stepper.supports_top_k(K2);
    std::vector<float> logits(row_top ? 0 : size_t(B) * K * V), logp(row_top ? size_t(B) * K * K2 : size_t(B) * K * V);
    std::vector<int> row_ids(row_top ? size_t(B) * K * K2 : 0);
    std::vector<int> feed(size_t(B) * K, tokens.decoder_start);
    std::vector<float> cand(row_top ? size_t(K) * K2 : size_t(K) * V);
    std::vector<int> cand_flat(row_top ? size_t(K) * K2 : 0);  // k * V + token of each candidate

    for (int g = 0; g < options.max_new_tokens && !active.empty(); ++g) {
        const int n_act = static_cast<int>(active.size());
        const bool mask_eos = g < options.min_new_tokens;
        if (row_top) {
            stepper.step_top_k(feed, g, K2, mask_eos ? tokens.eos : -1, logp.data(), row_ids.data());
        } else {
            stepper.step(feed, g, logits.data());
            ops::log_softmax_cpu(logits.data(), int64_t(n_act) * K, V, logp.data());
        }
        const bool at_max = g + 1 >= options.max_new_tokens;  // MaxLengthCriteria hits every candidate
        const float len_div = static_cast<float>(std::pow(double(g + 1), double(lp)));

        std::vector<int> rows;  // stepper rows for the next step
        std::vector<int> next_feed;
        std::vector<int> still_active;
        for (int a = 0; a < n_act; ++a) {
            SourceState& s = src[active[a]];
            std::vector<int> top(K2);  // flat candidate indices k * V + token, best first
            std::vector<float> top_score(K2), run_score(K2), fin_score(K2);
            if (row_top) {
                const float* lpa = logp.data() + size_t(a) * K * K2;
                const int* ida = row_ids.data() + size_t(a) * K * K2;
                for (int k = 0; k < K; ++k)
                    for (int c = 0; c < K2; ++c) {
                        const size_t e = size_t(k) * K2 + c;
                        const bool ok = ida[e] >= 0;
                        cand[e] = ok ? lpa[e] + s.running_score[k] : -INFINITY;
                        // A row short of candidates (NaN logits) pads with beam 0's EOS at -inf: it can only be
                        // picked when a source has fewer than K2 real candidates, and then ends the beam.
                        cand_flat[e] = ok ? k * V + ida[e] : INT32_MAX;
                    }
                // Order of the full path: larger score first, then lower flat index.
                std::vector<int> order(cand.size());
                std::iota(order.begin(), order.end(), 0);
                std::partial_sort(order.begin(), order.begin() + K2, order.end(), [&](int x, int y) {
                    return cand[x] > cand[y] || (cand[x] == cand[y] && cand_flat[x] < cand_flat[y]);
                });
                for (int i = 0; i < K2; ++i) {
                    const bool ok = cand_flat[order[i]] != INT32_MAX;
                    top[i] = ok ? cand_flat[order[i]] : tokens.eos;
                    top_score[i] = ok ? cand[order[i]] : -INFINITY;
                }
            } else {
                const float* lpa = logp.data() + size_t(a) * K * V;
                for (int k = 0; k < K; ++k)
                    for (int v = 0; v < V; ++v) {
                        float x = lpa[size_t(k) * V + v];
                        if (mask_eos && v == tokens.eos) x = -INFINITY;
                        cand[size_t(k) * V + v] = x + s.running_score[k];
                    }
                top = top_k(cand, K2);
                for (int i = 0; i < K2; ++i) top_score[i] = cand[top[i]];
            }
            std::vector<int> top_beam(K2), top_tok(K2);
            std::vector<bool> hits(K2);
            const bool all_done = std::all_of(s.done.begin(), s.done.end(), [](const Hyp& h) { return h.finished; });
            for (int i = 0; i < K2; ++i) {
                top_beam[i] = top[i] / V;
                top_tok[i] = top[i] % V;
                hits[i] = top_tok[i] == tokens.eos || at_max;
                run_score[i] = top_score[i] + (hits[i] ? kNegBig : 0.0f);
                float f = top_score[i] / len_div;
                if (all_done && early) f += kNegBig;
                if (!s.improvable) f += kNegBig;
                if (!(hits[i] && i < K)) f += kNegBig;
                fin_score[i] = f;
            }
            // Finished hypotheses: merge the K kept ones with the 2K candidates, keep the best K.
            std::vector<float> merged(K + K2);
            for (int k = 0; k < K; ++k) merged[k] = s.done[k].score;
            for (int i = 0; i < K2; ++i) merged[K + i] = fin_score[i];
            std::vector<Hyp> new_done(K);
            const std::vector<int> best = top_k(merged, K);
            for (int k = 0; k < K; ++k) {
                int m = best[k];
                if (m < K) {
                    new_done[k] = s.done[m];
                } else {
                    int i = m - K;
                    new_done[k].score = fin_score[i];
                    new_done[k].ids = s.running[top_beam[i]];
                    new_done[k].ids.push_back(top_tok[i]);
                    new_done[k].finished = hits[i] && i < K;
                }
            }
            // Running beams: the best K candidates that did not finish.
            const std::vector<int> keep = top_k(run_score, K);
            std::vector<std::vector<int>> new_running(K);
            std::vector<float> new_score(K);
            for (int k = 0; k < K; ++k) {
                const int i = keep[k];
                new_running[k] = s.running[top_beam[i]];
                new_running[k].push_back(top_tok[i]);
                new_score[k] = run_score[i];
                rows.push_back(a * K + top_beam[i]);
                next_feed.push_back(top_tok[i]);
            }
            s.done = std::move(new_done);
            s.running = std::move(new_running);
            s.running_score = std::move(new_score);

            // Early-stop heuristic (early_stopping=False/True): best running score at the current length vs the
            // worst finished one; any unfinished slot counts as -1e9.
            float worst = INFINITY;
            for (const Hyp& h : s.done) worst = std::min(worst, h.score);
            bool any_better = false;
            for (const Hyp& h : s.done) {
                const float w = h.finished ? worst : kNegBig;
                if (s.running_score[0] / len_div > w) any_better = true;
            }
            s.improvable = s.improvable && any_better;
            const bool full = std::all_of(s.done.begin(), s.done.end(), [](const Hyp& h) { return h.finished; });
            s.frozen = !s.improvable || (early && full) || at_max;
            if (!s.frozen) still_active.push_back(a);
        }
        if (g + 1 >= options.max_new_tokens) break;
        if (still_active.empty()) break;
        // Keep the rows of the sources that continue, reordered by their chosen beams.
        std::vector<int> sel;
        std::vector<int> sel_feed;
        std::vector<int> new_active;
        for (int a : still_active) {
            for (int k = 0; k < K; ++k) {
                sel.push_back(rows[size_t(a) * K + k]);
                sel_feed.push_back(next_feed[size_t(a) * K + k]);
            }
            new_active.push_back(active[a]);
        }
        stepper.select_rows(sel, g + 1);
        active.swap(new_active);
        feed.swap(sel_feed);
    }

    std::vector<GenerationResult> out(B);
    for (int b = 0; b < B; ++b) {
        const Hyp& h = src[b].done[0];
        out[b].ids = h.ids;
        out[b].score = h.score;
    }
    return out;
}

}  // namespace receipt
