// Device helpers shared by the attention kernels (attention_cuda.cu, encoder_attention_cuda.cu).
#pragma once

#include "ops/cuda_common.cuh"

namespace receipt::cuda {

constexpr int kMaxHeadDim = 256;  // K <= 256: 8 accumulators per lane in the P.V loop

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
