// T5LayerNorm (RMSNorm without mean subtraction or bias) with the residual add fused.
// Mirrors transformers T5LayerNorm: variance = mean(x^2) in f32; y = w * (x * rsqrt(variance + eps)).
#include "cuda/cuda_check.h"
#include "ops/cuda_common.cuh"
#include "ops/cuda_launch.cuh"
#include "ops/t5_ops_cuda.h"

namespace receipt::cuda {

// resid: [n, D] f32 (updated in place when delta != null); delta: [n, D] T or null; w: [D] f32; y: [n, D] T.
//   r = resid (+ delta);  y = r * rsqrt(sum(r^2)/D + eps) * w
// grid: n blocks, one row each; block: 256 threads. Two passes over the row (the second hits L1/L2).
template <typename T>
__global__ void rmsnorm_residual_kernel(float* resid, const T* delta, const float* w, int D, float eps, T* y) {
    __shared__ float red[32];
    pdl_wait();  // resid / delta come from the previous kernels; y may still be read by the one before
    pdl_launch_dependents();
    const int64_t base = int64_t(blockIdx.x) * D;
    float ss = 0.0f;
    for (int d = threadIdx.x; d < D; d += blockDim.x) {
        float r = resid[base + d];
        if (delta) {
            r += to_f32(delta[base + d]);
            resid[base + d] = r;
        }
        ss += r * r;
    }
    ss = block_sum(ss, red);
    const float rs = rsqrtf(ss / float(D) + eps);
    for (int d = threadIdx.x; d < D; d += blockDim.x) y[base + d] = from_f32<T>(resid[base + d] * rs * w[d]);
}

void rmsnorm_cuda(DType dt, float* resid, const void* delta, const float* w, int n, int D, float eps, void* y,
                  cudaStream_t stream) {
    if (n <= 0) return;
    RECEIPT_DISPATCH_DTYPE(
        dt, T, launch_kernel(rmsnorm_residual_kernel<T>, n, 256, 0, stream, resid, (const T*)delta, w, D, eps, (T*)y));
}

}  // namespace receipt::cuda
