// Token embedding lookup into the f32 residual stream (T5 does not scale embeddings).
#include "cuda/cuda_check.h"
#include "ops/cuda_common.cuh"
#include "ops/cuda_launch.cuh"
#include "ops/t5_ops_cuda.h"

namespace receipt::cuda {

// ids: [n] int; table: [V, D] T; x: [n, D] f32.  x[i, :] = table[ids[i], :]; with ss, ss[i] = sum_d x[i, d]^2
// (the deferred norm's partial sums, one part per row: MmaFusion in t5_ops_cuda.h).
// grid: n blocks, one row each; block: 128 threads striding over D.
template <typename T>
__global__ void embed_gather_kernel(const int* ids, const T* table, int V, int D, float* x, float* ss) {
    __shared__ float red[32];
    pdl_wait();  // ids are written by the previous step's greedy select; x may still be read
    pdl_launch_dependents();
    const int row = blockIdx.x;
    int id = ids[row];
    if (id < 0 || id >= V) id = 0;  // the host validates ids; never read out of bounds
    const T* src = table + int64_t(id) * D;
    float* dst = x + int64_t(row) * D;
    float sq = 0.0f;
    for (int d = threadIdx.x; d < D; d += blockDim.x) {
        const float v = to_f32(src[d]);
        dst[d] = v;
        sq += v * v;
    }
    if (ss) {
        sq = block_sum(sq, red);
        if (threadIdx.x == 0) ss[row] = sq;
    }
}

void embed_cuda(DType dt, const int* ids, const void* table, int V, int n, int D, float* x, cudaStream_t stream,
                float* ss) {
    if (n <= 0) return;
    RECEIPT_DISPATCH_DTYPE(
        dt, T, launch_kernel(embed_gather_kernel<T>, n, 128, 0, stream, ids, (const T*)table, V, D, x, ss));
}

}  // namespace receipt::cuda
