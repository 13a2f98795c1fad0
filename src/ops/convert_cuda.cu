// f32 -> storage dtype conversion, used once when weights are uploaded.
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

}  // namespace receipt::cuda
