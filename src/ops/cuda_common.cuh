// Shared device helpers of the CUDA kernels: L1 / L2 prefetch, cp.async, dtype conversion, vector loads,
// warp/block reductions.
// Compute is always fp32; storage is T in {float, __half, __nv_bfloat16}.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cfloat>
#include <cstdint>

#include "receipt/engine.h"

namespace receipt::cuda {

// Asks this SM's L1 for the 128-byte line holding p (prefetch.global.L1): a hint that loads no register.
__device__ __forceinline__ void prefetch_l1(const void* p) {
#if defined(__CUDA_ARCH__)
    asm volatile("prefetch.global.L1 [%0];" ::"l"(p));
#endif
}

// Asks L2 to fetch the line holding p (prefetch.global.L2): a hint that loads nothing into L1 or registers.
__device__ __forceinline__ void prefetch_l2(const void* p) {
#if defined(__CUDA_ARCH__)
    asm volatile("prefetch.global.L2 [%0];" ::"l"(p));
#endif
}

// Asynchronous 16-byte copy global -> shared (cp.async.cg, bypassing L1; sm_80+). With valid = false no bytes are
// read and the 16 destination bytes are zero-filled. smem and gmem 16-byte aligned.
__device__ __forceinline__ void cp_async16(void* smem, const void* gmem, bool valid) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    const unsigned s = static_cast<unsigned>(__cvta_generic_to_shared(smem));
    const int n = valid ? 16 : 0;  // 0 source bytes: the 16 destination bytes are zero-filled
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" ::"r"(s), "l"(gmem), "r"(n));
#endif
}
// Closes this thread's group of the cp.async copies issued since its last commit.
__device__ __forceinline__ void cp_async_commit() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm volatile("cp.async.commit_group;");
#endif
}
// Waits until at most kN of this thread's committed cp.async groups are still in flight (the oldest complete
// first); other threads' copies become visible after a barrier.
template <int kN>
__device__ __forceinline__ void cp_async_wait() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm volatile("cp.async.wait_group %0;" ::"n"(kN));
#endif
}

template <typename T>
__device__ __forceinline__ float to_f32(T x);
template <>
__device__ __forceinline__ float to_f32<float>(float x) { return x; }
template <>
__device__ __forceinline__ float to_f32<__half>(__half x) { return __half2float(x); }
template <>
__device__ __forceinline__ float to_f32<__nv_bfloat16>(__nv_bfloat16 x) { return __bfloat162float(x); }

// fp32 -> T. For fp16 the value saturates at +-65504 instead of becoming inf (HF clamps T5's fp16 activations
// the same way); NaN stays NaN.
template <typename T>
__device__ __forceinline__ T from_f32(float x);
template <>
__device__ __forceinline__ float from_f32<float>(float x) { return x; }
template <>
__device__ __forceinline__ __half from_f32<__half>(float x) {
    return __float2half_rn(fminf(fmaxf(x, -65504.0f), 65504.0f));
}
template <>
__device__ __forceinline__ __nv_bfloat16 from_f32<__nv_bfloat16>(float x) { return __float2bfloat16_rn(x); }

// Loads 8 consecutive elements as fp32. p must be 16-byte aligned for 16-bit T, 32-byte for float.
template <typename T>
__device__ __forceinline__ void load8(const T* p, float* out) {
    const uint4 u = *reinterpret_cast<const uint4*>(p);
    const T* e = reinterpret_cast<const T*>(&u);
#pragma unroll
    for (int i = 0; i < 8; ++i) out[i] = to_f32(e[i]);
}
template <>
__device__ __forceinline__ void load8<float>(const float* p, float* out) {
    const float4 a = *reinterpret_cast<const float4*>(p);
    const float4 b = *reinterpret_cast<const float4*>(p + 4);
    out[0] = a.x; out[1] = a.y; out[2] = a.z; out[3] = a.w;
    out[4] = b.x; out[5] = b.y; out[6] = b.z; out[7] = b.w;
}

// One output of the decode GEMM kernels: y[row, col] = relu?(alpha * v + (accumulate ? y[row, col] : 0)) in f32,
// stored as f32 (y_f32) or T; ReLU last, as cuBLASLt's RELU epilogue. y: row stride ldy elements. Returns the
// value stored (before rounding to T).
template <typename T>
__device__ __forceinline__ float store_gemm_out(void* y, int ldy, int row, int col, float v, float alpha, bool y_f32,
                                               bool accumulate, bool relu) {
    v *= alpha;
    if (y_f32) {
        float* p = static_cast<float*>(y) + int64_t(row) * ldy + col;
        if (accumulate) v += *p;
        if (relu) v = fmaxf(v, 0.0f);
        *p = v;
    } else {
        T* p = static_cast<T*>(y) + int64_t(row) * ldy + col;
        if (accumulate) v += to_f32(*p);
        if (relu) v = fmaxf(v, 0.0f);
        *p = from_f32<T>(v);
    }
    return v;
}

// transformers NewGELUActivation: 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))).
__device__ __forceinline__ float gelu_tanh(float x) {
    const float k = 0.7978845608028654f;  // sqrt(2/pi)
    return 0.5f * x * (1.0f + tanhf(k * (x + 0.044715f * x * x * x)));
}

__device__ __forceinline__ float warp_sum(float v) {
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
    return v;
}
__device__ __forceinline__ float warp_max(float v) {
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
    return v;
}

// Block-wide sum / max for blockDim.x a multiple of 32 (<= 1024). `red` is 32 floats of shared memory.
// Every thread gets the result. Contains __syncthreads: call from all threads.
__device__ __forceinline__ float block_sum(float v, float* red) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, n_warps = blockDim.x >> 5;
    v = warp_sum(v);
    __syncthreads();
    if (lane == 0) red[warp] = v;
    __syncthreads();
    v = lane < n_warps ? red[lane] : 0.0f;
    return warp_sum(v);
}
__device__ __forceinline__ float block_max(float v, float* red) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, n_warps = blockDim.x >> 5;
    v = warp_max(v);
    __syncthreads();
    if (lane == 0) red[warp] = v;
    __syncthreads();
    v = lane < n_warps ? red[lane] : -INFINITY;
    return warp_max(v);
}

}  // namespace receipt::cuda

// Instantiates `body` with T bound to the storage type of DType `dt`.
#define RECEIPT_DISPATCH_DTYPE(dt, T, ...)                \
    switch (dt) {                                         \
        case ::receipt::DType::kF32: {                    \
            using T = float;                              \
            __VA_ARGS__;                                  \
        } break;                                          \
        case ::receipt::DType::kF16: {                    \
            using T = __half;                             \
            __VA_ARGS__;                                  \
        } break;                                          \
        case ::receipt::DType::kBF16: {                   \
            using T = __nv_bfloat16;                      \
            __VA_ARGS__;                                  \
        } break;                                          \
    }
