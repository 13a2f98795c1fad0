// Small-M GEMM ("GEMV") for decode steps: y[m, n] (+)= alpha * x[m, k] . w[n, k]^T for 1 <= m <= 8, the same
// contract as GemmLt::run (src/cuda/gemm_lt.h): f32 accumulation, y in the storage type or f32, optional
// accumulate (beta = 1) and ReLU epilogue applied last, as cuBLASLt does: y = relu(alpha x.w^T + beta y).
// At m <= 8 the GEMM is a pass over w (the weight, n x k): every weight element is read once, 16 bytes at a time
// and coalesced along k, and used for all m rows; x (a few KiB) is staged in shared memory as f32. x may be f32
// while w is f16 / bf16 (x_f32: the fp16-a32 precisions), which makes every product and sum plain f32 math.
#include <algorithm>
#include <cstdint>
#include <string>

#include "cuda/cuda_check.h"
#include "ops/cuda_common.cuh"
#include "ops/cuda_launch.cuh"
#include "ops/t5_ops_cuda.h"

namespace receipt::cuda {

namespace {

constexpr int kWarps = 4;           // warps per block (128 threads)
constexpr int kVecStep = 256;       // k elements one warp covers per vector step: 32 lanes x 8
constexpr int kTileFloats = 8192;   // x tile in shared memory: kM * tile f32 <= 32 KiB
constexpr int kTargetBlocks = 264;  // ~2 blocks per SM on a 132-SM H100 / H200: enough to hide latency

struct GemvArgs {
    const void* x;  // [m, k] TX (T, or f32 with x_f32), row stride ldx
    const void* w;  // [n, k] T, row stride ldw
    void* y;        // [m, n] T or f32, row stride ldy
    int m, n, k, ldx, ldw, ldy;
    int tile;  // k elements of x staged per pass: a multiple of 256
    int n_kw;  // warps that split k for one column group: 1, 2 or 4 (divides kWarps)
    float alpha;
    bool out_f32, accumulate, relu;
    bool preload;   // load the first kPreSteps weight vectors before pdl_wait() (prefetch_level() >= 1)
    bool l1_rest;   // and prefetch the rest of the first tile's weights into L1 (prefetch_level() >= 2)
    GemvNorm norm;  // norm.resid set: x is the T5LayerNorm of resid (k <= tile: one tile), x itself is unused
};

// The rsqrt scale of rmsnorm_residual_kernel (rmsnorm_cuda.cu) for one row of D floats, bit for bit: that kernel
// runs 256 threads, thread t summing r_d^2 over d = t, t + 256, ..., then block_sum (a shuffle butterfly per warp
// of 32, then one over the 8 warp sums). Here the 128 threads each play threads t and t + 128 (warps w and w + 4)
// and the same butterflies run in the same order. All threads get the scale. red: 8 floats of shared memory.
__device__ __forceinline__ float rmsnorm_scale(const float* row, int D, float eps, float* red) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    float ss[2];
#pragma unroll
    for (int half = 0; half < 2; ++half) {
        float acc = 0.0f;
        for (int d = threadIdx.x + half * 128; d < D; d += 256) {
            const float r = row[d];
            acc += r * r;
        }
        ss[half] = warp_sum(acc);
    }
    __syncthreads();  // red may still be read from a previous row
    if (lane == 0) {
        red[warp] = ss[0];
        red[warp + 4] = ss[1];
    }
    __syncthreads();
    const float v = warp_sum(lane < 8 ? red[lane] : 0.0f);
    return rsqrtf(v / float(D) + eps);
}

// x value (as f32) of row i, column kk: the staged input, or the T5LayerNorm of the residual rounded to TX, the
// type rmsnorm_cuda would have written it in.
template <typename TX>
__device__ __forceinline__ float norm_x(const GemvArgs& a, int i, int kk, float rs) {
    return to_f32(from_f32<TX>(a.norm.resid[int64_t(i) * a.k + kk] * rs * a.norm.w[kk]));
}

// grid: ceil(n / (kC * kWarps / n_kw)); block: 128 = kWarps warps; dynamic shared memory: kM * tile f32.
// Warp `warp` = group * n_kw + kw computes the kC output columns n0 .. n0+kC-1 (n0 = (block * groups + group) * kC)
// for all kM rows over its share of k: k-steps kw, kw + n_kw, ... of 256 elements (vector path: lane reads
// w[col, k0 + 256 s + 8 lane .. +8] with one 16-byte load per column) or of 32 elements (scalar path: one element
// per lane). acc[i][c] = sum_k x[i, k] w[n0 + c, k] is warp-reduced with shuffles, then across the n_kw warps of
// a group through shared memory. Rows i >= m are zeros in the x tile and never stored; columns >= n read column
// n - 1 (in bounds) and are never stored.
// Vector-path x tile layout (bank-conflict-free float4 reads): element kk of a tile row lives at
//   (kk & ~255) + ((kk & 255) >> 3) * 4 + (kk & 3) + ((kk >> 2) & 1) * 128,
// i.e. within each 256-element chunk the first 4 of lane l's 8 values sit at [4l, 4l+4) and the last 4 at
// [128 + 4l, 128 + 4l + 4), so a warp's float4 reads of one half are 512 contiguous bytes.
// 8 consecutive weight elements as loaded (16 bytes for 16-bit T, 32 for f32), converted by cvt8 when used.
template <typename T>
struct Raw8 {
    uint4 u;
};
template <>
struct Raw8<float> {
    float4 a, b;
};
template <typename T>
__device__ __forceinline__ Raw8<T> ld_raw8(const T* p) {
    return Raw8<T>{*reinterpret_cast<const uint4*>(p)};
}
template <>
__device__ __forceinline__ Raw8<float> ld_raw8<float>(const float* p) {
    return Raw8<float>{*reinterpret_cast<const float4*>(p), *reinterpret_cast<const float4*>(p + 4)};
}
template <typename T>
__device__ __forceinline__ void cvt8(const Raw8<T>& r, float* out) {
    const T* e = reinterpret_cast<const T*>(&r.u);
#pragma unroll
    for (int i = 0; i < 8; ++i) out[i] = to_f32(e[i]);
}
template <>
__device__ __forceinline__ void cvt8<float>(const Raw8<float>& r, float* out) {
    out[0] = r.a.x, out[1] = r.a.y, out[2] = r.a.z, out[3] = r.a.w;
    out[4] = r.b.x, out[5] = r.b.y, out[6] = r.b.z, out[7] = r.b.w;
}

// acc[i][c] += sum_u x[i, kk + u] w[c][u] over u = 0..7 for the vector step at kk of the staged tile (the
// bank-conflict-free layout below): the one place the vector path multiplies, so the preloaded and the plain steps
// sum in the same order.
template <int kM, int kC>
__device__ __forceinline__ void fma_step(const float* xs, int tile, int kk, int lane, const float (&wv)[kC][8],
                                         float (&acc)[kM][kC]) {
    const float* xb = xs + (kk & ~255) + lane * 4;  // kk & 255 == 8 * lane
#pragma unroll
    for (int i = 0; i < kM; ++i) {
        const float4 lo = *reinterpret_cast<const float4*>(xb + i * tile);
        const float4 hi = *reinterpret_cast<const float4*>(xb + i * tile + 128);
#pragma unroll
        for (int c = 0; c < kC; ++c) {
            float s = acc[i][c];
            s = fmaf(lo.x, wv[c][0], s);
            s = fmaf(lo.y, wv[c][1], s);
            s = fmaf(lo.z, wv[c][2], s);
            s = fmaf(lo.w, wv[c][3], s);
            s = fmaf(hi.x, wv[c][4], s);
            s = fmaf(hi.y, wv[c][5], s);
            s = fmaf(hi.z, wv[c][6], s);
            s = fmaf(hi.w, wv[c][7], s);
            acc[i][c] = s;
        }
    }
}

constexpr int kPreSteps = 2;  // vector steps of the first tile whose weights are loaded before pdl_wait()

template <typename T, typename TX, int kM, int kC, bool kVec>
__global__ void __launch_bounds__(kWarps * 32) gemv_kernel(GemvArgs a) {
    extern __shared__ float xs[];            // [kM, tile] f32
    __shared__ float red[kWarps * kM * kC];  // per-warp sums when n_kw > 1
    const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
    const int kw = warp % a.n_kw, group = warp / a.n_kw, n_groups = kWarps / a.n_kw;
    const int n0 = (blockIdx.x * n_groups + group) * kC;
    const TX* x = static_cast<const TX*>(a.x);
    const T* wrow[kC];
#pragma unroll
    for (int c = 0; c < kC; ++c) wrow[c] = static_cast<const T*>(a.w) + int64_t(min(n0 + c, a.n - 1)) * a.ldw;

    float acc[kM][kC];
#pragma unroll
    for (int i = 0; i < kM; ++i)
#pragma unroll
        for (int c = 0; c < kC; ++c) acc[i][c] = 0.0f;

    // The weights are constant, so this lane's first kPreSteps vector steps of them are loaded before waiting for
    // the kernel before (PDL): their trip to HBM overlaps that kernel's tail instead of following it.
    const int kk_first = (kw * 32 + lane) * 8, kk_stride = kVecStep * a.n_kw;
    Raw8<T> wpre[kPreSteps][kC];
    const int n_pre = a.preload ? kPreSteps : 0;
    if constexpr (kVec) {
        const int kt0 = min(a.tile, a.k);
#pragma unroll
        for (int p = 0; p < kPreSteps; ++p)
#pragma unroll
            for (int c = 0; c < kC; ++c)
                if (p < n_pre && kk_first + p * kk_stride < kt0)
                    wpre[p][c] = ld_raw8(wrow[c] + kk_first + p * kk_stride);
        // The rest of the lane's first tile is asked of L1 (prefetch.global.L1, no registers): one lane per 128-byte
        // line (a warp's vector step reads 32 consecutive 8-element pieces of each weight row).
        if (n_pre > 0 && a.l1_rest && ((kk_first * int(sizeof(T))) & 127) == 0)
            for (int kk = kk_first + kPreSteps * kk_stride; kk < kt0; kk += kk_stride)
#pragma unroll
                for (int c = 0; c < kC; ++c) prefetch_l1(wrow[c] + kk);
    }

    // x (and y when accumulating) come from the previous kernels and y may still be read by them, so every other
    // global access below waits for them (PDL, cuda_launch.cuh).
    pdl_wait();
    pdl_launch_dependents();
    // T5LayerNorm prologue: one scale per row (rows >= m are zeros and never stored).
    __shared__ float norm_red[8];
    float rs[kM];
#pragma unroll
    for (int i = 0; i < kM; ++i)
        rs[i] =
            a.norm.resid && i < a.m ? rmsnorm_scale(a.norm.resid + int64_t(i) * a.k, a.k, a.norm.eps, norm_red) : 0.0f;
    for (int k0 = 0; k0 < a.k; k0 += a.tile) {
        const int kt = min(a.tile, a.k - k0);
        __syncthreads();  // every warp is done with the previous tile
        if constexpr (kVec) {
            const int n_vec = kt >> 3;  // kt % 8 == 0 on this path
            for (int e = threadIdx.x; e < kM * n_vec; e += blockDim.x) {
                const int i = e / n_vec, kk = (e - i * n_vec) * 8;
                float v[8] = {0, 0, 0, 0, 0, 0, 0, 0};
                if (i < a.m && a.norm.resid) {
#pragma unroll
                    for (int u = 0; u < 8; ++u) v[u] = norm_x<TX>(a, i, k0 + kk + u, rs[i]);
                } else if (i < a.m) {
                    load8(x + int64_t(i) * a.ldx + k0 + kk, v);
                }
                float* dst = xs + i * a.tile + (kk & ~255) + ((kk & 255) >> 3) * 4;
                *reinterpret_cast<float4*>(dst) = make_float4(v[0], v[1], v[2], v[3]);
                *reinterpret_cast<float4*>(dst + 128) = make_float4(v[4], v[5], v[6], v[7]);
            }
        } else {
            for (int e = threadIdx.x; e < kM * kt; e += blockDim.x) {
                const int i = e / kt, kk = e - i * kt;
                xs[i * a.tile + kk] = i >= a.m       ? 0.0f
                                      : a.norm.resid ? norm_x<TX>(a, i, k0 + kk, rs[i])
                                                     : to_f32(x[int64_t(i) * a.ldx + k0 + kk]);
            }
        }
        __syncthreads();

        if constexpr (kVec) {
            int kk = kk_first;
            if (k0 == 0) {  // the preloaded steps, in the order the loop below would take them
#pragma unroll
                for (int p = 0; p < kPreSteps; ++p, kk += kk_stride) {
                    if (p >= n_pre || kk >= kt) break;
                    float wv[kC][8];
#pragma unroll
                    for (int c = 0; c < kC; ++c) cvt8(wpre[p][c], wv[c]);
                    fma_step<kM, kC>(xs, a.tile, kk, lane, wv, acc);
                }
            }
#pragma unroll 2
            for (; kk < kt; kk += kk_stride) {
                float wv[kC][8];
#pragma unroll
                for (int c = 0; c < kC; ++c) load8(wrow[c] + k0 + kk, wv[c]);
                fma_step<kM, kC>(xs, a.tile, kk, lane, wv, acc);
            }
        } else {
            for (int kk = kw * 32 + lane; kk < kt; kk += 32 * a.n_kw) {
                float wv[kC];
#pragma unroll
                for (int c = 0; c < kC; ++c) wv[c] = to_f32(wrow[c][k0 + kk]);
#pragma unroll
                for (int i = 0; i < kM; ++i) {
                    const float xv = xs[i * a.tile + kk];
#pragma unroll
                    for (int c = 0; c < kC; ++c) acc[i][c] = fmaf(xv, wv[c], acc[i][c]);
                }
            }
        }
    }

#pragma unroll
    for (int i = 0; i < kM; ++i)
#pragma unroll
        for (int c = 0; c < kC; ++c) acc[i][c] = warp_sum(acc[i][c]);
    if (a.n_kw > 1) {  // block-uniform
        if (lane == 0)
#pragma unroll
            for (int i = 0; i < kM; ++i)
#pragma unroll
                for (int c = 0; c < kC; ++c) red[(warp * kM + i) * kC + c] = acc[i][c];
        __syncthreads();
        if (kw != 0) return;  // no barrier below
#pragma unroll
        for (int i = 0; i < kM; ++i)
#pragma unroll
            for (int c = 0; c < kC; ++c) {
                float s = 0.0f;
                for (int q = 0; q < a.n_kw; ++q) s += red[((group * a.n_kw + q) * kM + i) * kC + c];
                acc[i][c] = s;
            }
    }
    // Lane i * kC + c stores (row i, column n0 + c): kM * kC <= 32.
#pragma unroll
    for (int i = 0; i < kM; ++i)
#pragma unroll
        for (int c = 0; c < kC; ++c)
            if (lane == i * kC + c && i < a.m && n0 + c < a.n)
                store_gemm_out<T>(a.y, a.ldy, i, n0 + c, acc[i][c], a.alpha, a.out_f32, a.accumulate, a.relu);
}

template <typename T, typename TX, int kM>
void launch_m(const GemvArgs& a, int n_cols, bool vec, cudaStream_t stream) {
    const int n_cols_per_block = n_cols * kWarps / a.n_kw;
    const int n_blocks = (a.n + n_cols_per_block - 1) / n_cols_per_block;
    const size_t smem = size_t(kM) * a.tile * sizeof(float);
    auto kern = !vec          ? gemv_kernel<T, TX, kM, 1, false>
                : n_cols == 4 ? gemv_kernel<T, TX, kM, 4, true>
                : n_cols == 2 ? gemv_kernel<T, TX, kM, 2, true>
                              : gemv_kernel<T, TX, kM, 1, true>;
    launch_kernel(kern, n_blocks, kWarps * 32, smem, stream, a);
}

template <typename T, typename TX>
void launch_rows(const GemvArgs& a, int kM, int n_cols, bool vec, cudaStream_t stream) {
    switch (kM) {
        case 1:
            launch_m<T, TX, 1>(a, n_cols, vec, stream);
            break;
        case 2:
            launch_m<T, TX, 2>(a, n_cols, vec, stream);
            break;
        case 4:
            launch_m<T, TX, 4>(a, n_cols, vec, stream);
            break;
        default:
            launch_m<T, TX, 8>(a, n_cols, vec, stream);
            break;
    }
}

}  // namespace

int gemv_norm_max_k(int m) {
    const int kM = m <= 1 ? 1 : m <= 2 ? 2 : m <= 4 ? 4 : 8;
    return kTileFloats / kM / 256 * 256;
}

void gemv_cuda(DType dt, int m, int n, int k, const void* x, int ldx, const void* w, int ldw, void* y, int ldy,
               float alpha, bool out_f32, bool accumulate, bool relu, cudaStream_t stream, const GemvNorm* norm,
               bool x_f32) {
    RECEIPT_CHECK(m >= 1 && m <= kGemvMaxM && n >= 1 && k >= 1 && ldx >= k && ldw >= k && ldy >= n, InvalidInput,
                  "gemv_cuda: invalid shape m=" + std::to_string(m) + " n=" + std::to_string(n) +
                      " k=" + std::to_string(k) + " ldx=" + std::to_string(ldx) + " ldw=" + std::to_string(ldw) +
                      " ldy=" + std::to_string(ldy) + " (needs 1 <= m <= " + std::to_string(kGemvMaxM) + ")");
    RECEIPT_CHECK(!x_f32 || out_f32 || dt == DType::kF32, InvalidInput, "gemv_cuda: an f32 x needs an f32 y");
    const bool y_f32 = out_f32 || dt == DType::kF32;
    GemvArgs a{x, w, y, m, n, k, ldx, ldw, ldy, 0, 1, alpha, y_f32, accumulate, relu, false, false, {}};
    a.preload = prefetch_level() >= 1;
    a.l1_rest = prefetch_level() >= 2;
    if (norm) {
        RECEIPT_CHECK(norm->resid && norm->w && k <= gemv_norm_max_k(m), InvalidInput,
                      "gemv_cuda: the norm prologue needs resid, w and k <= " + std::to_string(gemv_norm_max_k(m)));
        a.norm = *norm;
    }
    // 16-byte loads along k need every row start 16-byte aligned: k, ldx, ldw multiples of 8 elements.
    const bool vec = k % 8 == 0 && ldx % 8 == 0 && ldw % 8 == 0 && (norm || aligned16(x)) && aligned16(w);
    const int kM = m <= 1 ? 1 : m <= 2 ? 2 : m <= 4 ? 4 : 8;
    // Columns per warp: as many as keep >= kTargetBlocks blocks (more columns = more loads in flight per lane and
    // more reuse of each x value read from shared memory).
    int n_cols = 1;
    if (vec) {
        if ((n + 4 * kWarps - 1) / (4 * kWarps) >= kTargetBlocks)
            n_cols = 4;
        else if ((n + 2 * kWarps - 1) / (2 * kWarps) >= kTargetBlocks)
            n_cols = 2;
    }
    // Too few column groups to fill the GPU: let 2 or 4 warps split k, while each still gets two k-steps.
    const int step = vec ? kVecStep : 32;
    while (a.n_kw < kWarps && (n + n_cols * kWarps / a.n_kw - 1) / (n_cols * kWarps / a.n_kw) < kTargetBlocks &&
           k >= 2 * step * (a.n_kw * 2))
        a.n_kw *= 2;
    a.tile = std::min(kTileFloats / kM, (k + 255) / 256 * 256);
    RECEIPT_DISPATCH_DTYPE(dt, T, {
        if (x_f32)
            launch_rows<T, float>(a, kM, n_cols, vec, stream);
        else
            launch_rows<T, T>(a, kM, n_cols, vec, stream);
    });
}

}  // namespace receipt::cuda
