// EncoderCache (LRU by bytes) and the CPU engine's use of it: a source decoded again skips the encoder and gets
// the tokens it got with the cache off.
#include "model/encoder_cache.h"

#include <gtest/gtest.h>

#include <numeric>

#include "golden_util.h"
#include "model/t5_cpu_engine.h"

using namespace receipt;

namespace {

std::vector<float> rows(int L, int D, float base) {
    std::vector<float> r(size_t(L) * D);
    std::iota(r.begin(), r.end(), base);
    return r;
}

size_t entry_bytes(int L, int D) { return size_t(L) * D * sizeof(float) + size_t(L) * sizeof(int); }

}  // namespace

TEST(EncoderCache, FindsWhatWasPutByIds) {
    EncoderCache cache(1 << 20);
    const std::vector<int> a{5, 6, 7, 1}, b{5, 6, 1};
    const auto ra = rows(4, 8, 0.0f);
    cache.put(a, ra.data(), 8);
    EXPECT_EQ(cache.find(b), nullptr);
    EXPECT_EQ(cache.find(std::vector<int>{5, 6, 7, 2}), nullptr);
    const float* got = cache.find(a);
    ASSERT_NE(got, nullptr);
    EXPECT_EQ(std::vector<float>(got, got + ra.size()), ra);
    EXPECT_EQ(cache.hits(), 1);
    EXPECT_EQ(cache.misses(), 2);
    EXPECT_EQ(cache.bytes(), entry_bytes(4, 8));
}

TEST(EncoderCache, PutAgainReplaces) {
    EncoderCache cache(1 << 20);
    const std::vector<int> a{3, 1};
    const auto r1 = rows(2, 4, 0.0f), r2 = rows(2, 4, 100.0f);
    cache.put(a, r1.data(), 4);
    cache.put(a, r2.data(), 4);
    EXPECT_EQ(cache.entries(), 1u);
    EXPECT_EQ(cache.bytes(), entry_bytes(2, 4));
    EXPECT_EQ(cache.find(a)[0], 100.0f);
}

TEST(EncoderCache, EvictsLeastRecentlyUsedToFitCapacity) {
    const int D = 16;
    EncoderCache cache(3 * entry_bytes(2, D));
    const std::vector<int> a{1, 1}, b{2, 1}, c{3, 1}, d{4, 1};
    const auto r = rows(2, D, 0.0f);
    cache.put(a, r.data(), D);
    cache.put(b, r.data(), D);
    cache.put(c, r.data(), D);
    ASSERT_NE(cache.find(a), nullptr);  // a is now the most recent; b the least
    cache.put(d, r.data(), D);
    EXPECT_EQ(cache.entries(), 3u);
    EXPECT_LE(cache.bytes(), 3 * entry_bytes(2, D));
    EXPECT_EQ(cache.find(b), nullptr);
    EXPECT_NE(cache.find(a), nullptr);
    EXPECT_NE(cache.find(c), nullptr);
    EXPECT_NE(cache.find(d), nullptr);
}

TEST(EncoderCache, TooLargeOrZeroCapacityStoresNothing) {
    const auto r = rows(4, 8, 0.0f);
    EncoderCache small(entry_bytes(4, 8) - 1);
    small.put({1, 2, 3, 4}, r.data(), 8);
    EXPECT_EQ(small.entries(), 0u);
    EncoderCache off(0);
    off.put({1, 2, 3, 4}, r.data(), 8);
    EXPECT_EQ(off.find({1, 2, 3, 4}), nullptr);
    EXPECT_EQ(off.bytes(), 0u);
}

// Greedy and beam search on a tiny golden model: the second call mixes a source from the first call (a hit, its
// cached rows in a batch of another padded length) with new ones; every result equals a cache-off engine's.
TEST(EncoderCacheEngine, SecondPassMatchesCacheOff) {
    const auto golden = test::load_golden("t5-tiny-v11");
    if (golden.is_null()) GTEST_SKIP() << "no golden.json for t5-tiny-v11";
    auto model = Model::load(test::golden_dir("t5-tiny-v11"));
    const auto inputs = golden["input_ids"].get<std::vector<std::vector<int>>>();
    ASSERT_GE(inputs.size(), 2u);
    EngineOptions on, off;
    on.n_threads = off.n_threads = 2;
    off.encoder_cache_mib = 0;
    CpuT5Engine cached(model, on), plain(model, off);
    GenerationOptions greedy;
    greedy.max_new_tokens = 12;
    GenerationOptions beam = greedy;
    beam.num_beams = 3;

    const std::vector<std::vector<int>> first{inputs[0]};
    EXPECT_EQ(cached.generate(first, greedy)[0].ids, plain.generate(first, greedy)[0].ids);
    EXPECT_EQ(cached.encoder_cache().hits(), 0);

    // inputs[0] again (a hit), with the other sources (misses, encoded together).
    const std::vector<std::vector<int>>& second = inputs;
    for (const GenerationOptions& o : {greedy, beam}) {
        const auto want = plain.generate(second, o);
        const auto got = cached.generate(second, o);
        ASSERT_EQ(got.size(), want.size());
        for (size_t i = 0; i < got.size(); ++i) EXPECT_EQ(got[i].ids, want[i].ids) << "input " << i;
    }
    EXPECT_GE(cached.encoder_cache().hits(), 1 + long(inputs.size()));  // the second round hits every source
    EXPECT_EQ(plain.encoder_cache().hits(), 0);
    EXPECT_EQ(plain.encoder_cache().entries(), 0u);
}
