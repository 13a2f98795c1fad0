// The T5 feed-forward block of a one- or two-row decode step in one kernel (contract in t5_ops_cuda.h):
//   out[i, :] += act(T5LayerNorm(resid[i, :]) . wi^T) . wo^T      (gated: act(x . wi_0^T) * (x . wi_1^T))
// Why: at batch 1-2 a decode step is a chain of short kernels, each waiting for the whole output of the one before
// (docs/benchmarks.md); the FFN's wi GEMV and wo GEMV are two links of it. Here block b owns U consecutive hidden
// units j0 = b U .. j0 + U - 1: it computes their h from the normalised row (the wi rows of its units), then its
// share of the output, p[d] = sum_{j in its units} h[j] wo[d, j] for every d, and adds p into `out` with 64-bit
// integer atomics in fixed point (gemv_common.cuh). Integer addition is associative, so the sum is the same
// whatever order the blocks finish in; the next kernels add `out` into the f32 residual. No block waits for
// another, so the block is one phase of the chain instead of two.
//
// The block's weight slices are constant, so they are copied into shared memory (cp.async) before the kernel waits
// for the one before it (PDL): the weight traffic overlaps that kernel's tail and what remains after the wait is
// the norm, two short products from shared memory and the atomics.
//
// grid: ceil(F / U) blocks, U a multiple of 8 (~one block per SM); block: 256 threads. Shared memory: the wi rows
// [U or 2U, D] and wo pieces [D, U] in T, the normalised rows xs [m, D] f32 and h [m, U] f32.
#include <algorithm>
#include <cstdlib>
#include <string>

#include "cuda/cuda_check.h"
#include "ops/cuda_common.cuh"
#include "ops/cuda_launch.cuh"
#include "ops/gemv_common.cuh"
#include "ops/t5_ops_cuda.h"

namespace receipt::cuda {

namespace {

constexpr int kThreads = 256;
constexpr int kMaxD = 1024;
constexpr int kTargetBlocks = 132;  // one per SM on an H100 / H200
constexpr size_t kMaxSmem = 200 * 1024;  // below the 227 KiB an sm_90 block may have

struct FfnArgs {
    const float* resid;  // [m, D] f32
    const float* ln;     // [D] f32
    float eps;
    const void* wi;  // [F or 2F, D] T
    const void* wo;  // [D, F] T
    long long* out;  // [m, D] fixed point, += the block sums
    long long* zero;  // [2, D] zeroed here, or null
    int D, F, U;
    bool no_atomic;
};

// The value a GEMV output of type TX holds (rounded to the storage type; f32 stays).
template <typename TX>
__device__ __forceinline__ float as_stored(float v) {
    return to_f32(from_f32<TX>(v));
}

template <typename T, typename TX, int kM, bool kGated, bool kGelu>
__global__ void __launch_bounds__(kThreads) ffn_gemv_kernel(FfnArgs a) {
    extern __shared__ __align__(16) unsigned char smem[];
    const int D = a.D, F = a.F, U = a.U;
    const int n_rows = kGated ? 2 * U : U;                // wi rows of this block: its units (then wi_1's)
    T* wis = reinterpret_cast<T*>(smem);                  // [n_rows, D]
    T* wos = wis + size_t(n_rows) * D;                    // [D, U]: wo[d, j0 .. j0 + U - 1]
    float* xs = reinterpret_cast<float*>(wos + size_t(D) * U);  // [kM, D]
    float* hs = xs + kM * D;                              // [kM, U]
    __shared__ float red[8];
    const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
    const int j0 = blockIdx.x * U, units = min(U, F - j0);  // a multiple of 8
    const T* wi = static_cast<const T*>(a.wi);
    const T* wo = static_cast<const T*>(a.wo);

    // The weights are constant: this block's slices of wi and wo go to shared memory (16-byte cp.async pieces)
    // before waiting for the kernel before (PDL), so their trip to memory overlaps its tail. Units past F (the last
    // block) are zero-filled.
    {
        const int row_chunks = D / 8;
        for (int e = threadIdx.x; e < n_rows * row_chunks; e += kThreads) {
            const int r = e / row_chunks, c = e - r * row_chunks;
            const int u = r < U ? r : r - U;
            const int64_t row = (r < U ? 0 : F) + int64_t(j0 + min(u, units - 1));
            cp_async16(wis + size_t(r) * D + c * 8, wi + row * D + c * 8, u < units);
        }
        const int unit_chunks = U / 8;
        for (int e = threadIdx.x; e < D * unit_chunks; e += kThreads) {
            const int d = e / unit_chunks, c = e - d * unit_chunks;
            cp_async16(wos + size_t(d) * U + c * 8, wo + int64_t(d) * F + j0 + min(c * 8, units - 8), c * 8 < units);
        }
        cp_async_commit();
    }
    pdl_wait();
    pdl_launch_dependents();

    if (a.zero)
        for (int e = blockIdx.x * kThreads + threadIdx.x; e < 2 * D; e += gridDim.x * kThreads) a.zero[e] = 0;

    // x = T5LayerNorm(resid), as gemv_cuda's prologue (and rmsnorm_cuda) computes and rounds it.
#pragma unroll
    for (int i = 0; i < kM; ++i) {
        const float* r = a.resid + int64_t(i) * D;
        const float rs = rmsnorm_scale<kThreads>(r, nullptr, D, a.eps, red);
        for (int d = threadIdx.x; d < D; d += kThreads) xs[i * D + d] = as_stored<TX>(r[d] * rs * a.ln[d]);
    }
    cp_async_wait<0>();
    __syncthreads();

    // h: warp w takes units u = w, w + 4, ...; lane l multiplies 8 weights at k = 8 l + 256 s, then the warp sums.
    for (int u = warp; u < U; u += kThreads / 32) {
        const T* w0 = wis + size_t(u) * D;
        const T* w1 = wis + size_t(U + u) * D;
        float s0[kM], s1[kM];
#pragma unroll
        for (int i = 0; i < kM; ++i) s0[i] = s1[i] = 0.0f;
        for (int kk = lane * 8; kk < D; kk += 256) {
            float v0[8], v1[8];
            load8(w0 + kk, v0);
            if constexpr (kGated) load8(w1 + kk, v1);
#pragma unroll
            for (int i = 0; i < kM; ++i)
#pragma unroll
                for (int q = 0; q < 8; ++q) {
                    const float xv = xs[i * D + kk + q];
                    s0[i] = fmaf(xv, v0[q], s0[i]);
                    if constexpr (kGated) s1[i] = fmaf(xv, v1[q], s1[i]);
                }
        }
#pragma unroll
        for (int i = 0; i < kM; ++i) {
            const float h0 = warp_sum(s0[i]);
            const float h1 = kGated ? warp_sum(s1[i]) : 0.0f;
            if (lane == 0) {
                float h;
                if constexpr (kGated) {
                    const float g = as_stored<TX>(h0);
                    h = as_stored<TX>((kGelu ? gelu_tanh(g) : fmaxf(g, 0.0f)) * as_stored<TX>(h1));
                } else {
                    h = as_stored<TX>(fmaxf(h0, 0.0f));
                }
                hs[i * U + u] = u < units ? h : 0.0f;
            }
        }
    }
    __syncthreads();

    // This block's share of every output: p[i, d] = sum_u h[i, u] wo[d, j0 + u], then one integer atomic each.
    // Each block starts at another d, so that the blocks' atomics on one address do not all queue at once.
    const int rot = int((int64_t(blockIdx.x) * kThreads) % D);
    for (int dd = threadIdx.x; dd < D; dd += kThreads) {
        const int d = dd + rot < D ? dd + rot : dd + rot - D;
        const T* wr = wos + size_t(d) * U;
        float p[kM];
#pragma unroll
        for (int i = 0; i < kM; ++i) p[i] = 0.0f;
        for (int u = 0; u < U; u += 8) {
            float v[8];
            load8(wr + u, v);
#pragma unroll
            for (int i = 0; i < kM; ++i)
#pragma unroll
                for (int q = 0; q < 8; ++q) p[i] = fmaf(hs[i * U + u + q], v[q], p[i]);
        }
#pragma unroll
        for (int i = 0; i < kM; ++i) {
            if (a.no_atomic)  // EXPERIMENT: timing only
                a.out[int64_t(i) * D + d] = to_fixed(p[i]);
            else
                atomicAdd(reinterpret_cast<unsigned long long*>(a.out + int64_t(i) * D + d), to_fixed(p[i]));
        }
    }
}

template <typename T, typename TX, int kM>
void launch_act(const FfnArgs& a, int blocks, size_t smem, bool gated, bool gelu, cudaStream_t stream) {
    auto kern = !gated ? ffn_gemv_kernel<T, TX, kM, false, false>
                : gelu ? ffn_gemv_kernel<T, TX, kM, true, true>
                       : ffn_gemv_kernel<T, TX, kM, true, false>;
    allow_dynamic_smem(kern, smem, 8 * sizeof(float));
    launch_kernel(kern, blocks, kThreads, smem, stream, a);
}

template <typename T, typename TX>
void launch_rows(const FfnArgs& a, int m, int blocks, size_t smem, bool gated, bool gelu, cudaStream_t stream) {
    if (m == 1)
        launch_act<T, TX, 1>(a, blocks, smem, gated, gelu, stream);
    else
        launch_act<T, TX, 2>(a, blocks, smem, gated, gelu, stream);
}

// Hidden units per block: a multiple of 8 (16-byte weight pieces along a wo row) giving ~kTargetBlocks blocks.
int units_per_block(int F) { return std::max(8, (F + 8 * kTargetBlocks - 1) / (8 * kTargetBlocks) * 8); }

// The block's weight slices (wi rows, wo pieces) in the weight type (es bytes), then x and h in f32.
size_t smem_bytes(int m, int D, int U, bool gated, size_t es) {
    return size_t((gated ? 2 : 1) * U + U) * D * es + size_t(m) * (D + U) * sizeof(float);
}

}  // namespace

bool ffn_gemv_supports(int m, int D, int F, bool gated) {
    return m >= 1 && m <= 2 && D >= 8 && D % 8 == 0 && D <= kMaxD && F >= 8 && F % 8 == 0 &&
           smem_bytes(m, D, units_per_block(F), gated, 2) <= kMaxSmem;
}

void ffn_gemv_cuda(DType dt, int m, int D, int F, const GemvNorm& norm, const void* wi, const void* wo, bool gated,
                   bool gelu, bool x_f32, long long* out, long long* zero, cudaStream_t stream) {
    RECEIPT_CHECK(ffn_gemv_supports(m, D, F, gated) && dt != DType::kF32, InvalidInput,
                  "ffn_gemv_cuda: unsupported m=" + std::to_string(m) + " D=" + std::to_string(D) +
                      " F=" + std::to_string(F) + " (needs 1 <= m <= 2, D % 8 == 0, D <= 1024, F % 8 == 0, the slices in shared memory, f16 / bf16)");
    RECEIPT_CHECK(norm.resid && norm.w && !norm.pending && out && aligned16(wi) && aligned16(wo), InvalidInput,
                  "ffn_gemv_cuda: needs resid, the norm weight, an output buffer and 16-byte aligned weights");
    const int U = units_per_block(F), blocks = (F + U - 1) / U;
    static const bool no_atomic = std::getenv("RECEIPT_FFN_NO_ATOMIC") != nullptr;
    const FfnArgs a{norm.resid, norm.w, norm.eps, wi, wo, out, zero, D, F, U, no_atomic};
    const size_t smem = smem_bytes(m, D, U, gated, dtype_size(dt));
    RECEIPT_DISPATCH_DTYPE(dt, T, {
        if (x_f32)
            launch_rows<T, float>(a, m, blocks, smem, gated, gelu, stream);
        else
            launch_rows<T, T>(a, m, blocks, smem, gated, gelu, stream);
    });
}

}  // namespace receipt::cuda
