// Device helpers shared by the small-M decode kernels (gemv_cuda.cu, ffn_gemv_cuda.cu): the T5LayerNorm scale of
// one residual row, bit for bit rmsnorm_cuda's, and the fixed-point residual deltas that ffn_gemv_cuda adds up
// with integer atomics (t5_ops_cuda.h, FfnPending).
#pragma once

#include <cstdint>

#include "ops/cuda_common.cuh"

namespace receipt::cuda {

// Fixed point of the FFN output deltas: value = integer * 2^-kFfnFixedBits. Each addend is clamped to
// +-kFfnFixedClamp first, so up to 2^63 / (kFfnFixedClamp 2^32) ~ 2^39 addends never overflow the int64 sum; the
// rounding error per addend is at most 2^-33 (far below an f32 ulp of any residual value above 2^-9).
constexpr double kFfnFixedScale = 4294967296.0;  // 2^32
constexpr float kFfnFixedClamp = 16777216.0f;    // 2^24

__device__ __forceinline__ unsigned long long to_fixed(float v) {
    v = fminf(fmaxf(v, -kFfnFixedClamp), kFfnFixedClamp);
    return static_cast<unsigned long long>(__double2ll_rn(double(v) * kFfnFixedScale));
}
__device__ __forceinline__ float from_fixed(long long a) { return float(double(a) * (1.0 / kFfnFixedScale)); }

// Residual value d of a row: r[d], plus the pending fixed-point delta when there is one (the sum rounded once).
__device__ __forceinline__ float resid_at(const float* row, const long long* pend, int d) {
    return pend ? row[d] + from_fixed(pend[d]) : row[d];
}

// The rsqrt scale of rmsnorm_residual_kernel (rmsnorm_cuda.cu) for one row of D floats (each r[d] + pend[d] when
// pend is set), bit for bit: that kernel runs 256 threads, thread t summing r_d^2 over d = t, t + 256, ..., then
// block_sum (a shuffle butterfly per warp of 32, then one over the 8 warp sums). A block of kThreads = 128 threads
// plays threads t and t + 128 (warps w and w + 4); with 256 it is that kernel's. The same butterflies run in the
// same order. All threads get the scale. red: 8 floats of shared memory. Needs blockDim.x == kThreads.
template <int kThreads = 128>
__device__ __forceinline__ float rmsnorm_scale(const float* row, const long long* pend, int D, float eps, float* red) {
    static_assert(kThreads == 128 || kThreads == 256, "rmsnorm_scale: 128 or 256 threads");
    constexpr int kHalves = 256 / kThreads;
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    float ss[kHalves];
#pragma unroll
    for (int half = 0; half < kHalves; ++half) {
        float acc = 0.0f;
        for (int d = threadIdx.x + half * 128; d < D; d += 256) {
            const float r = resid_at(row, pend, d);
            acc += r * r;
        }
        ss[half] = warp_sum(acc);
    }
    __syncthreads();  // red may still be read from a previous row
    if (lane == 0) {
        red[warp] = ss[0];
        if constexpr (kHalves == 2) red[warp + 4] = ss[1];
    }
    __syncthreads();
    const float v = warp_sum(lane < 8 ? red[lane] : 0.0f);
    return rsqrtf(v / float(D) + eps);
}

}  // namespace receipt::cuda
