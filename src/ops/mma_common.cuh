// Tensor-core helpers shared by the mma.sync kernels (gemm_mma_cuda.cu, encoder_attention_mma_cuda.cu,
// cross_attention_absorbed_cuda.cu).
// Fragment layout of mma.m16n8k16 (row.col), lane = 4 g + q (g = lane / 4, q = lane % 4):
//   A [16 x 16]: a0 = (row g, k 2q..2q+1), a1 = (row g+8, k 2q..2q+1), a2 = (row g, k 2q+8..2q+9), a3 = (row g+8, ..)
//   B [16 x 8]:  b0 = (k 2q..2q+1, col g), b1 = (k 2q+8..2q+9, col g)
//   C [16 x 8]:  c0, c1 = (row g, cols 2q, 2q+1), c2, c3 = (row g+8, cols 2q, 2q+1)
// Each register holds two 16-bit values, the lower k (or column) in the low half.
#pragma once

#include <cstdint>
#include <type_traits>

#include "ops/cuda_common.cuh"

namespace receipt::cuda {

// Two f32 -> one 32-bit register of two T (lo in the low half), rounded as from_f32 rounds.
template <typename T>
__device__ __forceinline__ uint32_t pack2(float lo, float hi) {
    const T a = from_f32<T>(lo), b = from_f32<T>(hi);
    const uint16_t ua = *reinterpret_cast<const uint16_t*>(&a), ub = *reinterpret_cast<const uint16_t*>(&b);
    return uint32_t(ua) | (uint32_t(ub) << 16);
}

// Two T at p (4-byte aligned) as one register.
template <typename T>
__device__ __forceinline__ uint32_t ld2(const T* p) {
    return *reinterpret_cast<const uint32_t*>(p);
}

// Two f32 -> (hi, lo) registers of two T each: hi = T(p), lo = T(p - hi); hi + lo keeps about twice T's mantissa
// (the probabilities of the attention kernels' P . V products).
template <typename T>
__device__ __forceinline__ void split2(float p0, float p1, uint32_t& hi, uint32_t& lo) {
    const T h0 = from_f32<T>(p0), h1 = from_f32<T>(p1);
    hi = pack2<T>(to_f32(h0), to_f32(h1));
    lo = pack2<T>(p0 - to_f32(h0), p1 - to_f32(h1));
}

// Multiplies kN accumulator tiles by a per-row factor: c0, c1 (row g) by s_g, c2, c3 (row g + 8) by s_g8 (the
// attention kernels' online-softmax rescale of their output tiles).
template <int kN>
__device__ __forceinline__ void scale_rows(float (&c)[kN][4], float s_g, float s_g8) {
#pragma unroll
    for (int t = 0; t < kN; ++t) {
        c[t][0] *= s_g;
        c[t][1] *= s_g;
        c[t][2] *= s_g8;
        c[t][3] *= s_g8;
    }
}

// c[4] += A[16 x 16] . B[16 x 8] (mma.sync.m16n8k16, row.col, f32 accumulate) for T = __half / __nv_bfloat16.
template <typename T>
__device__ __forceinline__ void mma16816(float (&c)[4], uint32_t a0, uint32_t a1, uint32_t a2, uint32_t a3,
                                         uint32_t b0, uint32_t b1) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    if constexpr (std::is_same_v<T, __half>) {
        asm volatile(
            "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
            "{%0,%1,%2,%3};"
            : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
            : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
    } else {
        asm volatile(
            "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
            "{%0,%1,%2,%3};"
            : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
            : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
    }
#elif defined(__CUDA_ARCH__)
    __trap();  // no mma.sync below sm_80; never reached: the engine refuses GPUs below compute capability 9.0
#endif
}

}  // namespace receipt::cuda
