// KV-cache row reordering for beam search (and for dropping finished rows): new row r continues old row sel[r].
#include "cuda/cuda_check.h"
#include "ops/cuda_common.cuh"
#include "ops/cuda_launch.cuh"
#include "ops/t5_ops_cuda.h"

namespace receipt::cuda {

// src, dst: [n_lk, R_max, H, T_max, K] T; sel: [R]. For every (lk, r, h): dst[lk, r, h, 0:t, :] = src[lk, sel[r],
// h, 0:t, :]. grid: (R, n_lk, H); block: 256 threads copying 16-byte words when possible.
template <typename T>
__global__ void kv_gather_rows_kernel(const T* src, T* dst, const int* sel, int R_max, int H, int T_max, int K,
                                      int t) {
    pdl_wait();
    pdl_launch_dependents();
    const int r = blockIdx.x, lk = blockIdx.y, h = blockIdx.z;
    const int s = sel[r];
    if (s < 0 || s >= R_max) return;
    const int64_t head = int64_t(T_max) * K;
    const T* from = src + ((int64_t(lk) * R_max + s) * H + h) * head;
    T* to = dst + ((int64_t(lk) * R_max + r) * H + h) * head;
    const int64_t n = int64_t(t) * K;
    if ((n * sizeof(T)) % 16 == 0 && (head * sizeof(T)) % 16 == 0) {
        const uint4* f4 = reinterpret_cast<const uint4*>(from);
        uint4* t4 = reinterpret_cast<uint4*>(to);
        for (int64_t i = threadIdx.x; i < int64_t(n * sizeof(T) / 16); i += blockDim.x) t4[i] = f4[i];
    } else {
        for (int64_t i = threadIdx.x; i < n; i += blockDim.x) to[i] = from[i];
    }
}

void kv_gather_rows_cuda(DType dt, const void* src, void* dst, const int* sel, int n_lk, int R, int R_max, int H,
                         int T_max, int K, int t, cudaStream_t stream) {
    if (R <= 0 || t <= 0) return;
    const dim3 grid(R, n_lk, H);
    RECEIPT_DISPATCH_DTYPE(dt, T,
                           launch_kernel(kv_gather_rows_kernel<T>, grid, 256, 0, stream, (const T*)src, (T*)dst, sel,
                                         R_max, H, T_max, K, t));
}

}  // namespace receipt::cuda
