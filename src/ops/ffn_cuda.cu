// Gated feed-forward activation of T5 v1.1 / flan: wo(act(wi_0 x) * wi_1 x). The two input projections run as one
// GEMM with the weights stacked [wi_0; wi_1], so h = [wi_0 x | wi_1 x]. (The relu FFN of v1.0 uses cuBLASLt's
// RELU epilogue instead and needs no kernel.) Decode steps on the tensor-core GEMM apply the activation in its
// epilogue instead (MmaFusion::gate, gemm_mma_cuda.cu), with the same f32 math; gelu_tanh is in cuda_common.cuh.
#include "cuda/cuda_check.h"
#include "ops/cuda_common.cuh"
#include "ops/cuda_launch.cuh"
#include "ops/t5_ops_cuda.h"

namespace receipt::cuda {

// h: [n, 2F] T; y: [n, F] T.  y[i, f] = act(h[i, f]) * h[i, F + f]  (f32 math; f16 output saturates)
// grid-stride over n*F elements.
template <typename T, bool kGelu>
__global__ void gated_act_kernel(const T* h, int64_t n, int F, T* y) {
    pdl_wait();
    pdl_launch_dependents();
    const int64_t total = n * F;
    for (int64_t e = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; e < total; e += int64_t(gridDim.x) * blockDim.x) {
        const int64_t i = e / F;
        const int f = int(e - i * F);
        const float a = to_f32(h[i * 2 * F + f]);
        const float b = to_f32(h[i * 2 * F + F + f]);
        const float act = kGelu ? gelu_tanh(a) : fmaxf(a, 0.0f);
        y[e] = from_f32<T>(act * b);
    }
}

void gated_act_cuda(DType dt, const void* h, int n, int F, bool gelu, void* y, cudaStream_t stream) {
    if (n <= 0) return;
    const int64_t total = int64_t(n) * F;
    const int threads = 256;
    const int blocks = int(std::min<int64_t>((total + threads - 1) / threads, 132 * 16));
    RECEIPT_DISPATCH_DTYPE(dt, T, {
        auto kern = gelu ? gated_act_kernel<T, true> : gated_act_kernel<T, false>;
        launch_kernel(kern, blocks, threads, 0, stream, (const T*)h, int64_t(n), F, (T*)y);
    });
}

}  // namespace receipt::cuda
