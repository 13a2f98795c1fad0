#include <immintrin.h>

#include <algorithm>
#include <cmath>
#include <cstring>

#include "ops/attention.h"
#include "ops/elementwise.h"
#include "ops/linear.h"

namespace receipt::ops {

namespace {

// a . b over n floats with AVX2 FMA (8 lanes, then a horizontal sum and the n % 8 tail). Plain loops are not
// vectorised here because a float reduction may not be reordered without -ffast-math.
inline float dot(const float* a, const float* b, int n) {
    __m256 acc = _mm256_setzero_ps();
    int i = 0;
    for (; i + 8 <= n; i += 8) acc = _mm256_fmadd_ps(_mm256_loadu_ps(a + i), _mm256_loadu_ps(b + i), acc);
    __m128 lo = _mm_add_ps(_mm256_castps256_ps128(acc), _mm256_extractf128_ps(acc, 1));
    lo = _mm_add_ps(lo, _mm_movehl_ps(lo, lo));
    lo = _mm_add_ss(lo, _mm_shuffle_ps(lo, lo, 1));
    float d = _mm_cvtss_f32(lo);
    for (; i < n; ++i) d += a[i] * b[i];
    return d;
}

// dot(a, b + r * stride, n) for the 8 keys r = 0..7 (n a multiple of 8), bit for bit: the same 8-lane FMA chain per
// key and the same reduction tree as dot() (lanes l + l+4, then pairs 0+2 / 1+3, then the two halves), done for 8
// keys at once instead of a horizontal sum per key. out: [8].
inline void dot8(const float* a, const float* b, int64_t stride, int n, float* out) {
    __m256 acc[8];
    for (int r = 0; r < 8; ++r) acc[r] = _mm256_setzero_ps();
    for (int i = 0; i < n; i += 8) {
        const __m256 av = _mm256_loadu_ps(a + i);
        for (int r = 0; r < 8; ++r) acc[r] = _mm256_fmadd_ps(av, _mm256_loadu_ps(b + r * stride + i), acc[r]);
    }
    __m256 t[4];  // [lo + hi of key r | of key r + 4]
    for (int r = 0; r < 4; ++r)
        t[r] = _mm256_add_ps(_mm256_permute2f128_ps(acc[r], acc[r + 4], 0x20),
                             _mm256_permute2f128_ps(acc[r], acc[r + 4], 0x31));
    // (t0 + t2, t1 + t3) of keys 0, 1 | 4, 5 and of keys 2, 3 | 6, 7
    const __m256 u01 = _mm256_add_ps(_mm256_shuffle_ps(t[0], t[1], _MM_SHUFFLE(1, 0, 1, 0)),
                                     _mm256_shuffle_ps(t[0], t[1], _MM_SHUFFLE(3, 2, 3, 2)));
    const __m256 u23 = _mm256_add_ps(_mm256_shuffle_ps(t[2], t[3], _MM_SHUFFLE(1, 0, 1, 0)),
                                     _mm256_shuffle_ps(t[2], t[3], _MM_SHUFFLE(3, 2, 3, 2)));
    _mm256_storeu_ps(out, _mm256_add_ps(_mm256_shuffle_ps(u01, u23, _MM_SHUFFLE(2, 0, 2, 0)),
                                        _mm256_shuffle_ps(u01, u23, _MM_SHUFFLE(3, 1, 3, 1))));
}

// s[j] = dot(q, k + j * stride, K) for j = 0..L-1: blocks of 8 keys through dot8, the rest one by one.
inline void scores(const float* q, const float* k, int64_t stride, int L, int K, float* s) {
    int j = 0;
    if (K % 8 == 0)
        for (; j + 8 <= L; j += 8) dot8(q, k + int64_t(j) * stride, stride, K, s + j);
    for (; j < L; ++j) s[j] = dot(q, k + int64_t(j) * stride, K);
}

// o[0..K) = sum_j p[j] v[j * stride + x] over j = 0..L-1 in order: one FMA chain per element, o = fma(p_j, v_j, o)
// from 0, as the plain loop `o[x] += p * v[x]` compiles. K = 64 (every T5 size) keeps o in 8 registers instead
// of loading and storing it for every key.
inline void weighted_sum(const float* p, const float* v, int64_t stride, int L, int K, float* o) {
    if (K == 64) {
        __m256 acc[8];
        for (int r = 0; r < 8; ++r) acc[r] = _mm256_setzero_ps();
        for (int j = 0; j < L; ++j) {
            const __m256 pj = _mm256_set1_ps(p[j]);
            const float* vj = v + int64_t(j) * stride;
            for (int r = 0; r < 8; ++r) acc[r] = _mm256_fmadd_ps(pj, _mm256_loadu_ps(vj + 8 * r), acc[r]);
        }
        for (int r = 0; r < 8; ++r) _mm256_storeu_ps(o + 8 * r, acc[r]);
        return;
    }
    for (int x = 0; x < K; ++x) o[x] = 0.0f;
    for (int j = 0; j < L; ++j) {
        const float pj = p[j];
        const float* vj = v + int64_t(j) * stride;
        for (int x = 0; x < K; ++x) o[x] = std::fma(pj, vj[x], o[x]);
    }
}

// Decoder attention (self and cross) splits over threads from this many multiply-adds (rows x heads x positions x
// head size) per call. A decode step's attention reads K/V that are mostly out of cache, so even ~64k is worth a
// fork-join: with 1 << 19 a batch-1 step's cross-attention over a 300-token receipt ran on one thread while the
// other waited, and one receipt took 7-14% longer on 2 cores (docs/benchmarks.md, "Drafts on the CPU").
constexpr int64_t kAttentionThreadWork = int64_t(1) << 16;

}  // namespace

void encoder_attention_cpu(const float* q, const float* k, const float* v, const float* bias, const int* lengths, int B,
                           int S, int H, int K, float* ctx, std::vector<float>& scratch) {
    const int64_t HK = int64_t(H) * K;
    (void)scratch;  // each (b, h) task keeps its own scores buffer
    // One task per (sequence, head), spread over the threads; the GEMMs inside run single-threaded.
#pragma omp parallel for collapse(2) num_threads(cpu_threads()) schedule(dynamic, 1) if (B * H > 1)
    for (int b = 0; b < B; ++b)
        for (int h = 0; h < H; ++h) {
            const int L = lengths[b];  // only the L x L block is needed: masked keys get exactly zero weight
            const int64_t off = int64_t(b) * S * HK;
            thread_local std::vector<float> scores_buf;
            if (scores_buf.size() < size_t(L) * L) scores_buf.resize(size_t(L) * L);
            float* scores = scores_buf.data();
            // scores[i, j] = q[b, i, h, :] . k[b, j, h, :]      [L, L]
            gemm_nt_cpu(L, L, K, 1.0f, q + off + h * K, HK, k + off + h * K, HK, 0.0f, scores, L);
            const float* bh = bias + int64_t(h) * S * S;
            for (int i = 0; i < L; ++i) {
                float* row = scores + int64_t(i) * L;
                const float* br = bh + int64_t(i) * S;
                for (int j = 0; j < L; ++j) row[j] += br[j];
                softmax_row(row, L);
            }
            // ctx[b, i, h, :] = sum_j p[i, j] v[b, j, h, :]    [L, K]
            gemm_nn_cpu(L, K, L, scores, L, v + off + h * K, HK, 0.0f, ctx + off + h * K, HK);
        }
    for (int b = 0; b < B; ++b) {
        const int L = lengths[b];
        if (L < S) std::memset(ctx + int64_t(b) * S * HK + int64_t(L) * HK, 0, sizeof(float) * (S - L) * HK);
    }
}

// One query row and head over cache positions 0..t: o[K] = softmax_j(q . k_j + bias[t - j]) . v.
static void self_attention_head(const float* qh, const float* kh, const float* vh, const float* bh, int K, int t,
                                float* o) {
    thread_local std::vector<float> scratch;  // grows once, never inside steady-state decoding
    if (scratch.size() < size_t(t) + 1) scratch.resize(size_t(t) + 1);
    float* s = scratch.data();
    scores(qh, kh, K, t + 1, K, s);
    for (int j = 0; j <= t; ++j) s[j] += bh[t - j];
    softmax_row(s, t + 1);
    weighted_sum(s, vh, K, t + 1, K, o);
}

void decoder_self_attention_cpu(const float* q, const float* k_cache, const float* v_cache, const float* bias_by_dist,
                                int N, int H, int K, int T_max, int t, float* out) {
    const int64_t HK = int64_t(H) * K;
    // Threads only from kAttentionThreadWork multiply-adds: an early batch-1 step runs serially.
#pragma omp parallel for collapse(2) num_threads(cpu_threads()) \
    schedule(static) if (int64_t(N) * H * (t + 1) * K >= kAttentionThreadWork)
    for (int n = 0; n < N; ++n)
        for (int h = 0; h < H; ++h)
            self_attention_head(q + n * HK + h * K, k_cache + (int64_t(n) * H + h) * T_max * K,
                                v_cache + (int64_t(n) * H + h) * T_max * K, bias_by_dist + int64_t(h) * T_max, K, t,
                                out + n * HK + h * K);
}

void decoder_self_attention_rows_cpu(const float* q, const float* k_cache, const float* v_cache,
                                     const float* bias_by_dist, int M, int H, int K, int T_max, const int* cache_row,
                                     const int* pos, float* out) {
    const int64_t HK = int64_t(H) * K;
    int64_t work = 0;
    for (int m = 0; m < M; ++m) work += int64_t(H) * (pos[m] + 1) * K;
#pragma omp parallel for collapse(2) num_threads(cpu_threads()) schedule(static) if (work >= kAttentionThreadWork)
    for (int m = 0; m < M; ++m)
        for (int h = 0; h < H; ++h)
            self_attention_head(q + m * HK + h * K, k_cache + (int64_t(cache_row[m]) * H + h) * T_max * K,
                                v_cache + (int64_t(cache_row[m]) * H + h) * T_max * K,
                                bias_by_dist + int64_t(h) * T_max, K, pos[m], out + m * HK + h * K);
}

// One row, every head. The scores walk the source positions once, 8 K rows ([H*K] contiguous floats each) at a
// time for all heads, which streams the cross K; the weighted sums then go head by head with the output in
// registers. Every score and output sums in the same order as a plain per-head loop.
static void cross_attention_row(const float* q, const float* kb, const float* vb, int L, int H, int K, float* o) {
    const int64_t HK = int64_t(H) * K;
    thread_local std::vector<float> s;  // [H, L] scores, then probabilities
    if (s.size() < size_t(H) * L) s.resize(size_t(H) * L);
    int j = 0;
    if (K % 8 == 0)
        for (; j + 8 <= L; j += 8)
            for (int h = 0; h < H; ++h)
                dot8(q + h * K, kb + int64_t(j) * HK + h * K, HK, K, s.data() + size_t(h) * L + j);
    for (; j < L; ++j)
        for (int h = 0; h < H; ++h) s[size_t(h) * L + j] = dot(q + h * K, kb + int64_t(j) * HK + h * K, K);
    for (int h = 0; h < H; ++h) softmax_row(s.data() + size_t(h) * L, L);
    for (int h = 0; h < H; ++h) weighted_sum(s.data() + size_t(h) * L, vb + h * K, HK, L, K, o + h * K);
}

void cross_attention_cpu(const float* q, const float* k, const float* v, const int* row_src, const int* lengths, int N,
                         int S, int H, int K, float* out) {
    const int64_t HK = int64_t(H) * K;
    const bool big = int64_t(N) * H * S * K >= kAttentionThreadWork;  // threads only from so much work, as above
    if (N >= cpu_threads() || !big) {
        // A row per task: all heads of a row read the same source rows.
#pragma omp parallel for num_threads(cpu_threads()) schedule(static) if (big)
        for (int n = 0; n < N; ++n) {
            const int b = row_src[n];
            cross_attention_row(q + n * HK, k + int64_t(b) * S * HK, v + int64_t(b) * S * HK, lengths[b], H, K,
                                out + n * HK);
        }
        return;
    }
    // Fewer rows than threads (batch 1): a (row, head) per task.
#pragma omp parallel for collapse(2) num_threads(cpu_threads()) schedule(static)
    for (int n = 0; n < N; ++n)
        for (int h = 0; h < H; ++h) {
            const int b = row_src[n];
            const int L = lengths[b];
            thread_local std::vector<float> s;
            if (s.size() < size_t(L)) s.resize(size_t(L));
            const float* qh = q + n * HK + h * K;
            const float* kb = k + int64_t(b) * S * HK + h * K;
            const float* vb = v + int64_t(b) * S * HK + h * K;
            scores(qh, kb, HK, L, K, s.data());
            softmax_row(s.data(), L);
            weighted_sum(s.data(), vb, HK, L, K, out + n * HK + h * K);
        }
}

}  // namespace receipt::ops
