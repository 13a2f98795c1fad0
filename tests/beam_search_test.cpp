// beam_search() with a backend that picks each row's best candidates itself (DecoderStepper::step_top_k, as the
// CUDA engine does) must choose exactly what it chooses from the whole log-softmax: same ids, same scores.
// A synthetic stepper derives each row's logits from its token history (quantised, so that ties occur).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <string>

#include "generate/search.h"
#include "ops/elementwise.h"

namespace {

using receipt::GenerationOptions;
using receipt::GenerationResult;

class SyntheticStepper final : public receipt::DecoderStepper {
public:
    SyntheticStepper(int B, int K, int V, bool top_k) : V_(V), top_k_(top_k), hist_(size_t(B) * K) {
        for (size_t r = 0; r < hist_.size(); ++r) hist_[r] = {int(r / size_t(K))};  // the source, then tokens
    }
    int vocab_size() const override { return V_; }
    int n_rows() const override { return int(hist_.size()); }

    void step(const std::vector<int>& tokens, int /*t*/, float* logits) override {
        for (size_t r = 0; r < hist_.size(); ++r) {
            hist_[r].push_back(tokens[r]);
            uint64_t h = 1469598103934665603ull;
            for (int x : hist_[r]) h = (h ^ uint64_t(x + 7)) * 1099511628211ull;
            for (int v = 0; v < V_; ++v) {
                const uint64_t z = (h ^ (uint64_t(v) * 0x9e3779b97f4a7c15ull)) * 0xbf58476d1ce4e5b9ull;
                logits[r * size_t(V_) + v] = float(int((z >> 40) % 24)) * 0.25f;  // 24 levels: many ties
            }
        }
    }

    bool supports_top_k(int k) const override { return top_k_ && k < V_; }

    // The reference selection on the host, from the same logits and log_softmax as the full path.
    void step_top_k(const std::vector<int>& tokens, int t, int k, int masked, float* logp, int* ids) override {
        const size_t N = hist_.size();
        std::vector<float> logits(N * V_), lp(N * V_);
        step(tokens, t, logits.data());
        receipt::ops::log_softmax_cpu(logits.data(), int64_t(N), V_, lp.data());
        for (size_t r = 0; r < N; ++r) {
            std::vector<int> idx;
            for (int v = 0; v < V_; ++v)
                if (v != masked) idx.push_back(v);
            const float* row = lp.data() + r * V_;
            std::partial_sort(idx.begin(), idx.begin() + k, idx.end(),
                              [&](int a, int b) { return row[a] > row[b] || (row[a] == row[b] && a < b); });
            for (int c = 0; c < k; ++c) {
                logp[r * k + c] = row[idx[size_t(c)]];
                ids[r * k + c] = idx[size_t(c)];
            }
        }
    }

    void select_rows(const std::vector<int>& src, int /*t_cached*/) override {
        std::vector<std::vector<int>> next;
        for (int s : src) next.push_back(hist_[size_t(s)]);
        hist_.swap(next);
    }

private:
    int V_;
    bool top_k_;
    std::vector<std::vector<int>> hist_;
};

std::string ids_str(const std::vector<int>& ids) {
    std::string s;
    for (int x : ids) s += std::to_string(x) + " ";
    return s;
}

TEST(BeamSearch, RowTopKCandidatesChooseLikeTheFullLogSoftmax) {
    const receipt::SearchTokens tok{0, 1, 0};
    int n_cases = 0;
    for (int K : {1, 2, 4})
        for (int V : {12, 40})
            for (int min_new : {0, 3})
                for (float lp : {1.0f, 0.6f})
                    for (bool early : {false, true}) {
                        GenerationOptions o;
                        o.num_beams = K;
                        o.max_new_tokens = 10;
                        o.min_new_tokens = min_new;
                        o.length_penalty = lp;
                        o.early_stopping = early;
                        const int B = 3;
                        SyntheticStepper full(B, K, V, false), rowk(B, K, V, true);
                        const auto want = receipt::beam_search(full, B, o, tok);
                        const auto got = receipt::beam_search(rowk, B, o, tok);
                        ASSERT_EQ(want.size(), got.size());
                        for (size_t b = 0; b < want.size(); ++b) {
                            const std::string what = "K=" + std::to_string(K) + " V=" + std::to_string(V) +
                                                     " min=" + std::to_string(min_new) + " lp=" + std::to_string(lp) +
                                                     " early=" + std::to_string(early) + " source " + std::to_string(b);
                            EXPECT_EQ(ids_str(want[b].ids), ids_str(got[b].ids)) << what;
                            EXPECT_EQ(want[b].score, got[b].score) << what;
                        }
                        ++n_cases;
                    }
    EXPECT_EQ(n_cases, 48);
}

}  // namespace
