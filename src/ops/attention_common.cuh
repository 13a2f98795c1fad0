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

}  // namespace receipt::cuda
