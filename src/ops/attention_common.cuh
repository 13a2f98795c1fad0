// Device helpers shared by the attention kernels (attention_cuda.cu, encoder_attention_cuda.cu,
// cross_attention_pipelined_cuda.cu): row prefetch, q . k dot products, and the split-K bookkeeping.
#pragma once

#include <algorithm>

#include "ops/cuda_common.cuh"
#include "ops/t5_ops_cuda.h"

namespace receipt::cuda {

constexpr int kMaxHeadDim = 256;  // K <= 256: 8 accumulators per lane in the P.V loop

// Asks this SM's L1 to fetch rows j = threadIdx.x, threadIdx.x + blockDim.x, ... < n of K elements at
// base + j * stride (prefetch.global.L1 per 128-byte line: a hint that loads no register). The decode kernels call
// it before pdl_wait() on K / V rows that an earlier decode step or the request's setup wrote, so the trip to HBM
// overlaps the kernel before them; they keep the rows inside their buffers by clamping the indices they use.
template <typename T>
__device__ __forceinline__ void prefetch_rows_l1(const T* base, int64_t stride, int n, int K) {
    const int row_bytes = K * int(sizeof(T));
    for (int j = threadIdx.x; j < n; j += blockDim.x) {
        const char* row = reinterpret_cast<const char*>(base + j * stride);
        for (int off = 0; off < row_bytes; off += 128) prefetch_l1(row + off);
    }
}

// dot(sq[0:K] f32, k[0:K] T). kVec: K % 8 == 0 and k 16-byte aligned (checked by the launcher).
template <typename T, bool kVec>
__device__ __forceinline__ float dot_q_k(const float* sq, const T* k, int K) {
    float s = 0.0f;
    if constexpr (kVec) {
#pragma unroll 4
        for (int d = 0; d < K; d += 8) {
            float kv[8];
            load8(k + d, kv);
#pragma unroll
            for (int u = 0; u < 8; ++u) s += sq[d + u] * kv[u];
        }
    } else {
        for (int d = 0; d < K; ++d) s += sq[d] * to_f32(k[d]);
    }
    return s;
}

// dot(sq, ka) and, when has_b, dot(sq, kb) for 16-bit T and K = 8 NC: the 16-byte loads of both keys are all
// issued before any arithmetic, so one trip to memory serves two keys (the decode kernels at batch 64 wait on
// memory, with few warps per SM). Same operations in the same order as dot_q_k<T, true>. ka, kb 16-byte aligned.
template <typename T, int NC>
__device__ __forceinline__ void dot_q_k_pair(const float* sq, const T* ka, const T* kb, bool has_b, float& sa,
                                             float& sb) {
    static_assert(sizeof(T) == 2, "8 elements per 16-byte load");
    uint4 ra[NC], rb[NC];
#pragma unroll
    for (int c = 0; c < NC; ++c) ra[c] = reinterpret_cast<const uint4*>(ka)[c];
    if (has_b) {
#pragma unroll
        for (int c = 0; c < NC; ++c) rb[c] = reinterpret_cast<const uint4*>(kb)[c];
    }
    sa = 0.0f;
#pragma unroll
    for (int c = 0; c < NC; ++c) {
        const T* e = reinterpret_cast<const T*>(&ra[c]);
#pragma unroll
        for (int u = 0; u < 8; ++u) sa += sq[c * 8 + u] * to_f32(e[u]);
    }
    sb = 0.0f;
    if (has_b) {
#pragma unroll
        for (int c = 0; c < NC; ++c) {
            const T* e = reinterpret_cast<const T*>(&rb[c]);
#pragma unroll
            for (int u = 0; u < 8; ++u) sb += sq[c * 8 + u] * to_f32(e[u]);
        }
    }
}

// ---- split-K helpers (see DecodeAttnSplit in t5_ops_cuda.h) --------------------------------------------------
// Keys [j0, j1) of split z of n_split over n_keys keys: n_used = min(n_split, ceil(n_keys / kMinSplitKeys))
// splits of chunk = ceil(n_keys / n_used) keys; the splits past the end are empty (j0 = j1). n_split = 1: all keys.
// A split never holds more than max(kMinSplitKeys, ceil(n_max / n_split)) keys (split_keys_max).
__device__ __forceinline__ void split_range(int n_keys, int n_split, int z, int& j0, int& j1) {
    if (n_split <= 1) {
        j0 = 0, j1 = n_keys;
        return;
    }
    const int n_used = max(1, min(n_split, (n_keys + kMinSplitKeys - 1) / kMinSplitKeys));
    const int chunk = (n_keys + n_used - 1) / n_used;
    j0 = min(z * chunk, n_keys);
    j1 = min(j0 + chunk, n_keys);
}
inline int split_keys_max(int n_max, int n_split) {
    return n_split <= 1 ? n_max : std::max(kMinSplitKeys, (n_max + n_split - 1) / n_split);
}

// Called by all threads of a split block after it wrote its partial result. Publishes the result (fence), counts
// the block in and returns true in the last of the n_split blocks of this (row, head) to arrive; that block has
// reset the counter to 0 for the next launch and may read every split's result.
__device__ __forceinline__ bool split_arrive_last(int* counter, int n_split) {
    __shared__ int s_last;
    __threadfence();
    __syncthreads();
    if (threadIdx.x == 0) {
        s_last = atomicAdd(counter, 1) == n_split - 1;
        if (s_last) atomicExch(counter, 0);  // all n_split blocks have arrived: nobody else touches it this launch
    }
    __syncthreads();
    const bool last = s_last;
    if (last) __threadfence();
    return last;
}

// out[0:K] (T) from the n_split partials part[s] = (m_s, l_s, o_s[0:K]) ([n_split, K + 2] f32, written by other
// blocks: read through L2 with __ldcg). M = max_s m_s over non-empty splits (l_s > 0);
// out = sum_s exp(m_s - M) o_s / sum_s exp(m_s - M) l_s; 0 when every split is empty. smem: >= 2 n_split floats.
template <typename T>
__device__ void combine_splits(const float* part, int n_split, int K, float* smem, T* out) {
    float* sm = smem;            // [n_split] m_s
    float* sw = smem + n_split;  // [n_split] l_s
    const int row = K + 2;
    for (int s = threadIdx.x; s < n_split; s += blockDim.x) {
        sm[s] = __ldcg(part + s * row);
        sw[s] = __ldcg(part + s * row + 1);
    }
    __syncthreads();
    float mx = -INFINITY;
    for (int s = 0; s < n_split; ++s)
        if (sw[s] > 0.0f) mx = fmaxf(mx, sm[s]);
    float den = 0.0f;
    for (int s = 0; s < n_split; ++s)
        if (sw[s] > 0.0f) den += expf(sm[s] - mx) * sw[s];
    const float inv = den > 0.0f ? 1.0f / den : 0.0f;
    for (int d = threadIdx.x; d < K; d += blockDim.x) {
        float o = 0.0f;
        for (int s = 0; s < n_split; ++s)
            if (sw[s] > 0.0f) o += expf(sm[s] - mx) * __ldcg(part + s * row + 2 + d);
        out[d] = from_f32<T>(o * inv);
    }
}

// Partial-result slot ([K + 2] f32) of split z of (row r, head h) in part [R, H, n_split, K + 2]; null without
// split-K (n_split = 1).
__device__ __forceinline__ float* split_slot(float* part, int r, int H, int h, int n_split, int z, int K) {
    return n_split > 1 ? part + ((int64_t(r) * H + h) * n_split + z) * (K + 2) : nullptr;
}

// After attend_one_query wrote this block's slot: the last of the n_split blocks of (r, h) to arrive combines every
// split's slot into out. No-op without split-K.
template <typename T>
__device__ void finish_split(float* part, int* counter, int r, int H, int h, int n_split, int K, float* smem, T* out) {
    if (n_split > 1 && split_arrive_last(counter + int64_t(r) * H + h, n_split))
        combine_splits<T>(split_slot(part, r, H, h, n_split, 0, K), n_split, K, smem, out);
}

}  // namespace receipt::cuda
