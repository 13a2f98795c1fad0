// Device helpers shared by the attention kernels (attention_cuda.cu, encoder_attention_cuda.cu).
#pragma once

#include "ops/cuda_common.cuh"

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

}  // namespace receipt::cuda
