// The vectorised row scans of the host's greedy choice (generate/row_scan.h) against plain scalar loops, and
// greedy_choose() against the scalar argmax / runner-up / log-softmax it replaced.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "cuda/device_guess.h"
#include "generate/row_scan.h"
#include "generate/search.h"

using namespace receipt;

namespace {

std::vector<float> random_row(int n, unsigned seed) {
    std::mt19937 g(seed);
    std::normal_distribution<float> d(0.0f, 4.0f);
    std::vector<float> x(static_cast<size_t>(n));
    for (float& v : x) v = d(g);
    return x;
}

// The scalar loops greedy_choose() used before (argmax with the lowest id among equal maxima, the runner-up's
// value, log-softmax of the choice in double precision here).
struct Reference {
    int id = 0;
    double logp = 0;
    float margin = 0;
};
Reference reference_choice(const std::vector<float>& row) {
    Reference r;
    float best = row[0], second = -INFINITY;
    for (size_t i = 1; i < row.size(); ++i) {
        if (row[i] > best) {
            second = best;
            best = row[i];
            r.id = int(i);
        } else if (row[i] > second) {
            second = row[i];
        }
    }
    double sum = 0;
    for (float v : row) sum += std::exp(double(v) - double(best));
    r.logp = -std::log(sum);
    r.margin = second == -INFINITY ? INFINITY : best - second;
    return r;
}

}  // namespace

TEST(RowScan, MaxAndFirstIndexAtEveryLength) {
    for (int n : {0, 1, 7, 8, 9, 31, 32, 33, 100, 8100}) {
        std::vector<float> x = random_row(n, unsigned(n) + 1);
        float want = -INFINITY;
        for (float v : x) want = v > want ? v : want;
        EXPECT_EQ(row_max(x.data(), n), want) << n;
        int first = -1;
        for (int i = 0; i < n && first < 0; ++i)
            if (x[size_t(i)] == want) first = i;
        EXPECT_EQ(first_index_of(x.data(), n, want), first) << n;
        EXPECT_EQ(first_index_of(x.data(), n, 1e30f), -1) << n;
    }
}

TEST(RowScan, MaxPassesOverNanAndMinusInfinity) {
    std::vector<float> x(40, -INFINITY);
    EXPECT_EQ(row_max(x.data(), 40), -INFINITY);
    x[3] = NAN;
    x[37] = NAN;
    EXPECT_EQ(row_max(x.data(), 40), -INFINITY);
    x[21] = -5.0f;
    x[38] = -7.0f;
    EXPECT_EQ(row_max(x.data(), 40), -5.0f);
    EXPECT_EQ(first_index_of(x.data(), 40, -5.0f), 21);
}

TEST(RowScan, SumExpMatchesStdExp) {
    for (int n : {1, 5, 8, 17, 8100}) {
        std::vector<float> x = random_row(n, 7u * unsigned(n));
        const float m = row_max(x.data(), n);
        double want = 0;
        for (float v : x) want += std::exp(double(v) - double(m));
        EXPECT_NEAR(sum_exp_shifted(x.data(), n, m), want, 1e-5 * want) << n;  // f32 sums of ~1,000 terms a lane
    }
    // Every single term over the range, including the cut at exp(-87) and -inf (a forbidden token).
    for (float d = -100.0f; d <= 0.0f; d += 0.01f) {
        const double want = d < -87.0f ? 0.0 : std::exp(double(d));
        EXPECT_NEAR(sum_exp_shifted(&d, 1, 0.0f), want, 3e-7 * want + 1e-38) << d;
    }
    const float minus_inf[3] = {0.0f, -INFINITY, -INFINITY};
    EXPECT_EQ(sum_exp_shifted(minus_inf, 3, 0.0f), 1.0f);
    const float nan[2] = {0.0f, NAN};
    EXPECT_TRUE(std::isnan(sum_exp_shifted(nan, 2, 0.0f)));
}

TEST(RowScan, GreedyChooseMatchesTheScalarChoice) {
    SearchTokens tok;
    tok.eos = 1;
    GenerationOptions o;
    const std::vector<int> generated;
    for (unsigned seed = 0; seed < 40; ++seed) {
        std::vector<float> row = random_row(8100, seed);
        if (seed % 4 == 1) row[size_t(seed * 97 % 8100)] = row[size_t(seed * 89 % 8100)] = 30.0f;  // a tied maximum
        if (seed % 4 == 2)
            for (size_t i = 0; i < row.size(); i += 3) row[i] = -INFINITY;  // a processor's ban
        const Reference want = reference_choice(row);
        std::vector<float> work = row;
        const GreedyChoice got = greedy_choose(work.data(), int(work.size()), 5, o, tok, 0, generated);
        EXPECT_EQ(got.id, want.id) << seed;
        EXPECT_EQ(got.margin, want.margin) << seed;
        EXPECT_NEAR(got.logp, want.logp, 1e-5) << seed;
        EXPECT_EQ(work, row) << seed;  // no processor, t >= min_new_tokens: the row is left as it was
        EXPECT_EQ(cuda::device_guess(row.data(), int(row.size()), false, tok.eos), want.id) << seed;
    }
    // Every token forbidden: EOS, log-probability -inf.
    std::vector<float> banned(50, -INFINITY);
    const GreedyChoice c = greedy_choose(banned.data(), 50, 0, o, tok, 0, generated);
    EXPECT_EQ(c.id, tok.eos);
    EXPECT_EQ(c.logp, -INFINITY);
    EXPECT_EQ(cuda::device_guess(banned.data(), 50, false, tok.eos), 0);
}

TEST(RowScan, DeviceGuessMasksEos) {
    std::vector<float> row = random_row(100, 3);
    row[1] = 50.0f;  // EOS would win
    row[60] = 40.0f;
    EXPECT_EQ(cuda::device_guess(row.data(), 100, false, 1), 1);
    EXPECT_EQ(cuda::device_guess(row.data(), 100, true, 1), 60);
    row[0] = 40.0f;  // tie before EOS: the lower id
    EXPECT_EQ(cuda::device_guess(row.data(), 100, true, 1), 0);
    EXPECT_EQ(cuda::device_guess(row.data(), 100, true, 500), 1);  // an EOS id past the row masks nothing
}
