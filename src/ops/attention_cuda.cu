// T5 decode attention kernels: decoder self-attention over the KV cache (cache append fused) and cross-attention
// over per-request precomputed K/V (encoder self-attention: encoder_attention_cuda.cu).
// Mirrors transformers T5Attention: scores = q . k^T + position_bias (+ mask), NOT scaled by 1/sqrt(K);
// softmax in f32; cross-attention has no position bias. All math is f32; storage T.
#include <algorithm>

#include "cuda/cuda_check.h"
#include "ops/attention_common.cuh"
#include "ops/cuda_common.cuh"
#include "ops/cuda_launch.cuh"
#include "ops/stream_attention.cuh"
#include "ops/t5_ops_cuda.h"

namespace receipt::cuda {

// Partial P.V rows of the decode kernels: 4 warps x K (scalar path) or 128 threads x 8 values (vector path).
__host__ __device__ inline int part_floats(int K) { return 4 * K > 1024 ? 4 * K : 1024; }

// ---- one decoder query over n keys, one block of 128 threads ------------------------------------------------
// q: [K] T; keys k_j = kbase + j*pos_stride, values v_j = vbase + j*pos_stride ([K] T each); bias (nullable):
// bias[t - j]; out: [K] T.  out = softmax_j(q . k_j + bias[t-j]) . v
// With part_out (a split of the split-K path) nothing is normalised: part_out[0] = m = max_j s_j,
// part_out[1] = l = sum_j exp(s_j - m), part_out[2 + d] = sum_j exp(s_j - m) v_j[d] (f32); out is not written.
// n_keys = 0 gives out = 0, or (m, l, o) = (-inf, 0, 0).
// Shared memory: sq [K] | sp [n_max] | part [part_floats(K)] | red [32] floats.
// Threads score keys j = tid, tid+128, ...; block max/sum; then P.V: with 16-byte loads (K % 8 == 0) thread
// (group, chunk) sums 8 dims over keys j = group, group + 128/(K/8), ...; else each warp sums over j = warp,
// warp+4, ... with lanes over the K dims. The partial rows are added at the end.
// acc[0:8] += sum_j p_j v_j[0:8] over keys j = j0, j0 + step, ... < n_keys (v: one 8-value chunk of key 0's value
// row, rows pos_stride apart; p: the probabilities in shared memory), kUnroll loads in flight per thread.
template <typename T, int kUnroll>
__device__ __forceinline__ void pv_chunk(const float* sp, const T* v, int64_t pos_stride, int j0, int step, int n_keys,
                                         float (&acc)[8]) {
#pragma unroll kUnroll
    for (int j = j0; j < n_keys; j += step) {
        float v8[8];
        load8(v + j * pos_stride, v8);
        const float p = sp[j];
#pragma unroll
        for (int u = 0; u < 8; ++u) acc[u] += p * v8[u];
    }
}

// kIlp (16-bit T, kVec, K = 64; see decode_launch): more loads in flight per thread (two keys per trip in the
// scores, 8 value rows in P.V) at the price of registers (about 126 per thread against 40-70), so at most 4 blocks
// per SM. Same arithmetic in the same order either way.
template <typename T, bool kVec, bool kIlp>
__device__ void attend_one_query(const T* q, const T* kbase, const T* vbase, int64_t pos_stride, int n_keys,
                                 const float* bias, int t, int K, int n_max, float* smem, float* part_out, T* out,
                                 bool v_l2 = false) {
    float* sq = smem;
    float* sp = sq + K;
    float* part = sp + n_max;
    float* red = part + part_floats(K);
    const int tid = threadIdx.x, warp = tid >> 5, lane = tid & 31, n_warps = blockDim.x >> 5;
    for (int d = tid; d < K; d += blockDim.x) sq[d] = to_f32(q[d]);
    __syncthreads();
    float mx = -INFINITY;
    bool scored = false;
    if constexpr (kIlp && kVec && sizeof(T) == 2) {
        if (K == 64) {  // T5's d_kv: a thread's keys j and j + blockDim.x from one trip to memory
            for (int j = tid; j < n_keys; j += 2 * blockDim.x) {
                const int j2 = j + blockDim.x;
                float s, s2;
                dot_q_k_pair<T, 8>(sq, kbase + j * pos_stride, kbase + int64_t(j2) * pos_stride, j2 < n_keys, s, s2);
                if (v_l2) {  // this thread's value rows, for the P.V loop after the block reductions (one line each)
                    prefetch_l2(vbase + j * pos_stride);
                    if (j2 < n_keys) prefetch_l2(vbase + int64_t(j2) * pos_stride);
                }
                if (bias) s += bias[t - j];
                sp[j] = s;
                mx = fmaxf(mx, s);
                if (j2 < n_keys) {
                    if (bias) s2 += bias[t - j2];
                    sp[j2] = s2;
                    mx = fmaxf(mx, s2);
                }
            }
            scored = true;
        }
    }
    for (int j = tid; !scored && j < n_keys; j += blockDim.x) {
        float s = dot_q_k<T, kVec>(sq, kbase + j * pos_stride, K);
        if (bias) s += bias[t - j];
        sp[j] = s;
        mx = fmaxf(mx, s);
    }
    mx = block_max(mx, red);
    float sum = 0.0f;
    for (int j = tid; j < n_keys; j += blockDim.x) {
        const float e = expf(sp[j] - mx);
        sp[j] = e;
        sum += e;
    }
    sum = block_sum(sum, red);  // its barriers also publish sp[]
    const float inv = sum > 0.0f ? 1.0f / sum : 0.0f;

    // P.V into partial rows part[0 .. n_parts-1][0:K], then their sum.
    int n_parts;
    if constexpr (kVec) {
        // Thread = group * n_chunks + chunk: 16-byte value loads, keys j = group, group + n_groups, ...
        const int n_chunks = K / 8, n_groups = blockDim.x / n_chunks;
        const int chunk = tid % n_chunks, group = tid / n_chunks;
        if (group < n_groups) {
            float acc[8] = {0, 0, 0, 0, 0, 0, 0, 0};
            const T* v = vbase + chunk * 8;
            if constexpr (kIlp) pv_chunk<T, 8>(sp, v, pos_stride, group, n_groups, n_keys, acc);  // 8 loads in flight
            else pv_chunk<T, 4>(sp, v, pos_stride, group, n_groups, n_keys, acc);
#pragma unroll
            for (int u = 0; u < 8; ++u) part[group * K + chunk * 8 + u] = acc[u];
        }
        n_parts = n_groups;
    } else {
        float acc[kMaxHeadDim / 32];
#pragma unroll
        for (int c = 0; c < kMaxHeadDim / 32; ++c) acc[c] = 0.0f;
        for (int j = warp; j < n_keys; j += n_warps) {
            const float p = sp[j];
            const T* v = vbase + j * pos_stride;
#pragma unroll
            for (int c = 0; c < kMaxHeadDim / 32; ++c)
                if (lane + 32 * c < K) acc[c] += p * to_f32(v[lane + 32 * c]);
        }
#pragma unroll
        for (int c = 0; c < kMaxHeadDim / 32; ++c)
            if (lane + 32 * c < K) part[warp * K + lane + 32 * c] = acc[c];
        n_parts = n_warps;
    }
    __syncthreads();
    for (int d = tid; d < K; d += blockDim.x) {
        float o = 0.0f;
        for (int g = 0; g < n_parts; ++g) o += part[g * K + d];
        if (part_out)
            part_out[2 + d] = o;
        else
            out[d] = from_f32<T>(o * inv);
    }
    if (part_out && tid == 0) part_out[0] = mx, part_out[1] = sum;
}

inline size_t decode_smem_bytes(int K, int n_max) { return size_t(K + n_max + part_floats(K) + 32) * sizeof(float); }

// Launch shape of a decode attention kernel over at most n_max keys: the split count, the keys one block holds
// (which sizes its shared memory), the split scratch (null when n_split = 1) and whether the blocks prefetch their
// keys and values before pdl_wait(): only when the R H (row, head) pairs are at most one per SM. With more, the rows
// the blocks fetch early exceed L1 and evict each other (H200, t5-small batch 64: 3% slower with the prefetch).
// ilp: the kernel variant with more loads in flight (attend_one_query's kIlp) when all blocks fit in one wave at
// its 4 blocks per SM (H200, fp16: cross-attention at t5-small batch 64, 512 blocks, 24.2 -> 22.7 us per call; at
// t5-base batch 64, 768 blocks, a second wave made the whole run 14% slower).
struct DecodeLaunch {
    int n_split = 1, n_keys_max = 0;
    int prefetch = 0;  // kPrefetchL1 / kPrefetchVL2 / 0
    bool ilp = false;
    size_t smem = 0;
    float* part = nullptr;
    int* counter = nullptr;
};

constexpr int kPrefetchL1 = 1;   // K / V rows into L1 before pdl_wait()
constexpr int kPrefetchVL2 = 2;  // value rows into L2 while scoring (kIlp path, prefetch_level() 3)
constexpr int kIlpBlocksPerSm = 4;  // blocks of the kIlp variant one SM holds (its registers: 126 x 128 threads)

inline DecodeLaunch decode_launch(const DecodeAttnSplit* split, int R, int H, int K, int n_max) {
    DecodeLaunch l;
    l.n_split = decode_attn_n_split(split, R, H, K);
    l.n_keys_max = split_keys_max(n_max, l.n_split);
    l.smem = decode_smem_bytes(K, l.n_keys_max);
    if (split && prefetch_enabled())
        l.prefetch = int64_t(R) * H <= split->n_sm ? kPrefetchL1 : prefetch_level() >= 3 ? kPrefetchVL2 : 0;
    const int64_t n_blocks = int64_t(R) * H * l.n_split;
    l.ilp = K == 64 && n_blocks <= int64_t(kIlpBlocksPerSm) * (split ? split->n_sm : device_sm_count());
    if (l.n_split > 1) {
        l.part = split->part;
        l.counter = split->counter;
    }
    return l;
}

// qkv: [R, 3, H, K] T; cache_k/v: [R_max, H, T_max, K] T; bias: [H, T_max] f32 by distance; ctx: [R, H, K] T.
// grid: (H, R, n_split); block: 128. Appends k, v of position t = state->step, then attends over positions 0..t.
// n_split = 1: one block per (head, row) attends over all keys. n_split > 1 (split-K): block z takes keys
// split_range(t + 1, n_split, z) (n_keys_max = split_keys_max(T_max, n_split) sizes its shared memory) and writes
// part[(r H + h) n_split + z] ([K + 2] f32); the last block of the (row, head) combines into ctx. Only the block
// whose range holds position t appends it (no other block reads position t), so there is no cross-block race.
template <typename T, bool kVec, bool kIlp>
__global__ void decoder_self_attention_kernel(const T* qkv, T* cache_k, T* cache_v, const float* bias, int H, int K,
                                              int T_max, int n_keys_max, const DecodeState* state, float* split_part,
                                              int* split_counter, int prefetch, T* ctx) {
    extern __shared__ float smem[];
    const int h = blockIdx.x, r = blockIdx.y, z = blockIdx.z, n_split = gridDim.z, HK = H * K;
    T* ck = cache_k + (int64_t(r) * H + h) * T_max * K;
    T* cv = cache_v + (int64_t(r) * H + h) * T_max * K;
    if (prefetch == kPrefetchL1) {
        // The cached keys and values of the earlier positions were written by earlier steps: prefetch this
        // block's share of them (below position t; clamped: state->step is only a hint before pdl_wait).
        const int t_hint = min(max(state->step, 0), T_max - 1);
        int p0, p1;
        split_range(t_hint, n_split, z, p0, p1);
        prefetch_rows_l1(ck + int64_t(p0) * K, K, p1 - p0, K);
        prefetch_rows_l1(cv + int64_t(p0) * K, K, p1 - p0, K);
    }
    // qkv comes from the previous GEMM, state->step from the previous step's advance; the split counters must
    // be back at zero from the previous launch that shares them.
    pdl_wait();
    pdl_launch_dependents();
    const int t = state->step;
    T* out = ctx + int64_t(r) * HK + h * K;
    if (t < 0 || t >= T_max) {  // cannot happen when the host checks max_new_tokens; never write out of bounds
        if (z == 0)             // t is the same for every split: none of them counts in, the counter stays 0
            for (int d = threadIdx.x; d < K; d += blockDim.x) out[d] = from_f32<T>(0.0f);
        return;
    }
    const T* row = qkv + int64_t(r) * 3 * HK;
    int j0, j1;
    split_range(t + 1, n_split, z, j0, j1);
    if (j0 <= t && t < j1) {
        for (int d = threadIdx.x; d < K; d += blockDim.x) {
            ck[int64_t(t) * K + d] = row[HK + h * K + d];
            cv[int64_t(t) * K + d] = row[2 * HK + h * K + d];
        }
    }
    __syncthreads();
    // Keys j0..j1-1 relative to j0: bias[t - j] = (bias + j0 offset)[(t - j0) - (j - j0)].
    attend_one_query<T, kVec, kIlp>(row + h * K, ck + int64_t(j0) * K, cv + int64_t(j0) * K, K, j1 - j0,
                              bias + int64_t(h) * T_max, t - j0, K, n_keys_max, smem,
                              split_slot(split_part, r, H, h, n_split, z, K), out);
    finish_split<T>(split_part, split_counter, r, H, h, n_split, K, smem, out);
}

void decoder_self_attention_cuda(DType dt, const void* qkv, void* cache_k, void* cache_v, const float* bias, int R,
                                 int H, int K, int T_max, const DecodeState* state, void* ctx, cudaStream_t stream,
                                 const DecodeAttnSplit* split) {
    if (R <= 0) return;
    RECEIPT_CHECK(K <= kMaxHeadDim, InvalidInput, "decoder_self_attention_cuda: d_kv > 256 is not supported");
    const bool vec = K % 8 == 0;
    const DecodeLaunch l = decode_launch(split, R, H, K, T_max);
    // Single-pass launches whose blocks fit one wave (every launch at level 2) stream their cached K/V instead.
    // H200, streaming against the one-query kernel: t5-small batch 1 -6%, batch 8 -5%, batch 64 -3%; t5-base
    // batch 1 -6%, batch 8 -2%, but batch 64 (768 blocks, two waves of the streaming kernel) +2%.
    const int level = self_attention_pipelined_level();
    const int n_sm = split ? split->n_sm : device_sm_count();
    const int per_sm = dt == DType::kF32 ? stream::kBlocksPerSmF32 : stream::kBlocksPerSm;
    const bool one_wave = n_sm > 0 && int64_t(R) * H <= int64_t(per_sm) * n_sm;
    if (l.n_split == 1 && (level >= 2 || (level == 1 && one_wave)) &&
        self_attention_pipelined_supports(dt, K) && aligned16(qkv) && aligned16(cache_k) && aligned16(cache_v) &&
        aligned16(ctx)) {
        self_attention_pipelined_cuda(dt, qkv, cache_k, cache_v, bias, R, H, K, T_max, state, ctx, stream, n_sm);
        return;
    }
    RECEIPT_DISPATCH_DTYPE(dt, T, {
        auto kern = !vec   ? decoder_self_attention_kernel<T, false, false>
                    : l.ilp ? decoder_self_attention_kernel<T, true, true>
                            : decoder_self_attention_kernel<T, true, false>;
        allow_dynamic_smem(kern, l.smem);
        launch_kernel(kern, dim3(H, R, l.n_split), 128, l.smem, stream, (const T*)qkv, (T*)cache_k, (T*)cache_v, bias,
                      H, K, T_max, l.n_keys_max, state, l.part, l.counter, l.prefetch, (T*)ctx);
    });
}

// Speculative step (draft_self_attention_cuda): grid (H, B*Q); block 128. Block (h, r = b*Q + j) first writes the
// keys and values of its sequence's rows 0..j (positions pos[b] .. t = pos[b] + j) into cache row b: the blocks of
// one sequence write equal values to the same places, and each block writes every cached position >= pos[b] it
// reads before its barrier, so no order between blocks is needed. Then it attends over positions 0..t.
template <typename T, bool kVec>
__global__ void draft_self_attention_kernel(const T* qkv, T* cache_k, T* cache_v, const float* bias, int H, int K,
                                            int T_max, int Q, const int* pos, T* ctx) {
    extern __shared__ float smem[];
    const int h = blockIdx.x, r = blockIdx.y, b = r / Q, j = r % Q, HK = H * K;
    pdl_wait();  // qkv comes from the previous GEMM, pos from the previous step's select
    pdl_launch_dependents();
    const int p = pos[b], t = p + j;
    T* out = ctx + int64_t(r) * HK + h * K;
    if (p < 0 || t >= T_max) {  // a draft row past the cache (never accepted): no write out of bounds
        for (int d = threadIdx.x; d < K; d += blockDim.x) out[d] = from_f32<T>(0.0f);
        return;
    }
    T* ck = cache_k + (int64_t(b) * H + h) * T_max * K;
    T* cv = cache_v + (int64_t(b) * H + h) * T_max * K;
    for (int i = threadIdx.x; i < (j + 1) * K; i += blockDim.x) {
        const int q = i / K, d = i % K;
        const T* row = qkv + int64_t(b * Q + q) * 3 * HK;
        ck[int64_t(p + q) * K + d] = row[HK + h * K + d];
        cv[int64_t(p + q) * K + d] = row[2 * HK + h * K + d];
    }
    __syncthreads();
    attend_one_query<T, kVec, false>(qkv + int64_t(r) * 3 * HK + h * K, ck, cv, K, t + 1, bias + int64_t(h) * T_max, t,
                                     K, T_max, smem, nullptr, out);
}

void draft_self_attention_cuda(DType dt, const void* qkv, void* cache_k, void* cache_v, const float* bias, int B,
                               int Q, int H, int K, int T_max, const int* pos, void* ctx, cudaStream_t stream) {
    if (B <= 0 || Q <= 0) return;
    RECEIPT_CHECK(K <= kMaxHeadDim, InvalidInput, "draft_self_attention_cuda: d_kv > 256 is not supported");
    const size_t smem = decode_smem_bytes(K, T_max);
    RECEIPT_DISPATCH_DTYPE(dt, T, {
        auto kern = K % 8 == 0 ? draft_self_attention_kernel<T, true> : draft_self_attention_kernel<T, false>;
        allow_dynamic_smem(kern, smem);
        launch_kernel(kern, dim3(H, B * Q), 128, smem, stream, (const T*)qkv, (T*)cache_k, (T*)cache_v, bias, H, K,
                      T_max, Q, pos, (T*)ctx);
    });
}

// q: [R, H, K] T; cross_kv: [B*S, row_stride] T (S = state->src_stride), keys at column k_off + h*K, values at
// v_off + h*K; src_row: [R]; src_len: [B]; ctx: [R, H, K] T.  grid: (H, R, n_split); block: 128.
// n_split > 1: block z takes keys split_range(len, n_split, z) and the last block combines, as in the
// self-attention kernel (n_keys_max = split_keys_max(S_max, n_split)).
template <typename T, bool kVec, bool kIlp>
__global__ void cross_attention_kernel(const T* q, const T* cross_kv, int64_t row_stride, int64_t k_off, int64_t v_off,
                                       const int* src_row, const int* src_len, int H, int K, int S_max, int n_keys_max,
                                       const DecodeState* state, float* split_part, int* split_counter, int prefetch,
                                       T* ctx) {
    extern __shared__ float smem[];
    const int h = blockIdx.x, r = blockIdx.y, z = blockIdx.z, n_split = gridDim.z, HK = H * K;
    // The request's setup wrote the cross K/V, the source map and lengths before the first decode step, so this
    // block's keys and values can be fetched before waiting for the kernel before (a hint: indices are clamped).
    const int S = min(max(state->src_stride, 0), S_max);
    const int src = src_row[r];
    const int len = min(max(src_len[src], 0), S);
    int j0, j1;
    split_range(len, n_split, z, j0, j1);
    const T* base = cross_kv + (int64_t(src) * S + j0) * row_stride;
    if (prefetch == kPrefetchL1) {
        prefetch_rows_l1(base + k_off + h * K, row_stride, j1 - j0, K);
        prefetch_rows_l1(base + v_off + h * K, row_stride, j1 - j0, K);
    }
    pdl_wait();  // q comes from the previous GEMM; the split scratch is shared with the previous launch
    pdl_launch_dependents();
    T* out = ctx + int64_t(r) * HK + h * K;
    attend_one_query<T, kVec, kIlp>(q + int64_t(r) * HK + h * K, base + k_off + h * K, base + v_off + h * K, row_stride,
                              j1 - j0, nullptr, 0, K, n_keys_max, smem, split_slot(split_part, r, H, h, n_split, z, K),
                              out, prefetch == kPrefetchVL2);
    finish_split<T>(split_part, split_counter, r, H, h, n_split, K, smem, out);
}

void cross_attention_cuda(DType dt, const void* q, const void* cross_kv, int64_t row_stride, int64_t k_off,
                          int64_t v_off, const int* src_row, const int* src_len, int R, int H, int K, int S_max,
                          const DecodeState* state, void* ctx, cudaStream_t stream, const DecodeAttnSplit* split) {
    if (R <= 0) return;
    RECEIPT_CHECK(K <= kMaxHeadDim, InvalidInput, "cross_attention_cuda: d_kv > 256 is not supported");
    const bool vec = K % 8 == 0 && row_stride % 8 == 0 && k_off % 8 == 0 && v_off % 8 == 0;
    const DecodeLaunch l = decode_launch(split, R, H, K, S_max);
    // Launches of 2+ rows stream their K/V instead (cross_attention_pipelined_level; at level 1 only single-pass
    // launches of more (row, head) blocks than SMs, batch 17-64 at 8 heads; at 3 every launch), and single-row
    // launches where the engine plan measured that faster (split->stream_single_row).
    const int n_sm = split ? split->n_sm : device_sm_count();
    const int level = cross_attention_pipelined_level();
    const bool wide = l.n_split == 1 && n_sm > 0 && int64_t(R) * H > n_sm;
    const bool streamed = level >= 3 || (level == 2 && (R >= 2 || (split && split->stream_single_row))) ||
                          (level >= 1 && wide);
    if (streamed && cross_attention_pipelined_supports(dt, K, row_stride, k_off, v_off) &&
        aligned16(q) && aligned16(cross_kv) && aligned16(ctx)) {
        cross_attention_pipelined_cuda(dt, q, cross_kv, row_stride, k_off, v_off, src_row, src_len, R, H, K, S_max,
                                       state, ctx, stream, split);
        return;
    }
    RECEIPT_DISPATCH_DTYPE(dt, T, {
        auto kern = !vec   ? cross_attention_kernel<T, false, false>
                    : l.ilp ? cross_attention_kernel<T, true, true>
                            : cross_attention_kernel<T, true, false>;
        allow_dynamic_smem(kern, l.smem);
        launch_kernel(kern, dim3(H, R, l.n_split), 128, l.smem, stream, (const T*)q, (const T*)cross_kv, row_stride,
                      k_off, v_off, src_row, src_len, H, K, S_max, l.n_keys_max, state, l.part, l.counter,
                      l.prefetch, (T*)ctx);
    });
}

}  // namespace receipt::cuda
