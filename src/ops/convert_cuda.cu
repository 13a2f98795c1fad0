// f32 -> storage dtype conversion (weights, once at upload) and the two-part split of f32 GEMM inputs.
#include "cuda/cuda_check.h"
#include "ops/cuda_common.cuh"
#include "ops/cuda_launch.cuh"
#include "ops/t5_ops_cuda.h"

namespace receipt::cuda {

// src: [n] f32; dst: [n] T.  dst = T(src) (f16 saturates at +-65504).
template <typename T>
__global__ void convert_f32_kernel(const float* src, T* dst, int64_t n) {
    pdl_wait();
    pdl_launch_dependents();
    for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n; i += int64_t(gridDim.x) * blockDim.x)
        dst[i] = from_f32<T>(src[i]);
}

void convert_f32_cuda(DType dt, const float* src, void* dst, int64_t n, cudaStream_t stream) {
    if (n <= 0) return;
    const int blocks = int(std::min<int64_t>((n + 255) / 256, 4096));
    RECEIPT_DISPATCH_DTYPE(dt, T, launch_kernel(convert_f32_kernel<T>, blocks, 256, 0, stream, src, (T*)dst, n));
}

// x: [m, k] f32 (row stride ldx); hi, lo: [m, k] T.  hi = T(x), lo = T(x - f32(hi)).
// grid: enough blocks of 256 threads to stride over m * k.
template <typename T>
__global__ void split_f32_kernel(const float* x, int m, int k, int64_t ldx, T* hi, T* lo) {
    pdl_wait();  // x is the previous kernel's output
    pdl_launch_dependents();
    const int64_t n = int64_t(m) * k;
    for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n; i += int64_t(gridDim.x) * blockDim.x) {
        const int64_t r = i / k, c = i - r * k;
        const float v = x[r * ldx + c];
        const T h = from_f32<T>(v);
        hi[i] = h;
        lo[i] = from_f32<T>(v - to_f32(h));
    }
}

void split_f32_cuda(DType dt, const float* x, int m, int k, int ldx, void* hi, void* lo, cudaStream_t stream) {
    RECEIPT_CHECK(dt != DType::kF32, InvalidInput, "split_f32_cuda: the parts must be f16 or bf16");
    RECEIPT_CHECK(m >= 0 && k >= 0 && ldx >= k, InvalidInput, "split_f32_cuda: bad shape");
    const int64_t n = int64_t(m) * k;
    if (n <= 0) return;
    const int blocks = int(std::min<int64_t>((n + 255) / 256, 4096));
    RECEIPT_DISPATCH_DTYPE(dt, T,
                           launch_kernel(split_f32_kernel<T>, blocks, 256, 0, stream, x, m, k, int64_t(ldx), (T*)hi,
                                         (T*)lo));
}

}  // namespace receipt::cuda
