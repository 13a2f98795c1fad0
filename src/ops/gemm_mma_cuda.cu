// Tensor-core GEMM for decode steps of a few dozen rows: y[m, n] (+)= alpha * x[m, k] . w[n, k]^T, the contract
// of GemmLt::run (src/cuda/gemm_lt.h) for f16 / bf16 x and w: f32 accumulation, y in the storage type or f32,
// optional accumulate (beta = 1) and ReLU applied last (y = relu(alpha x.w^T + beta y)); an f16 y saturates at
// +-65504. gemm_mma_batched_cuda runs many such GEMMs of one shape in one launch (grid.z, element strides).
// With x_f32 (the fp16-a32 precisions' split GEMM, GemmSpec::split_x) x is f32: each lane splits its x values
// into hi = T(x) and lo = T(x - hi) in registers, as split_f32_cuda does, and multiplies both with the same
// weight fragments (four mma per chunk instead of two), so y = (x_hi + x_lo) . w^T in f32 without the split
// kernel, its scratch and a second pass over the weights.
//
// Why: at 3-32 decoder rows every GEMM of a T5 step is a few MB of weights read once, and cuBLASLt's kernels
// for these shapes take ~5-7 us each; they are also launched without Programmatic Dependent Launch, so the kernel
// after each of them cannot overlap its launch. This kernel is launched with PDL and loads its first weights before
// waiting for the kernel before it. (A T5LayerNorm prologue inside it, as the small-M kernel has, measured slower
// than rmsnorm_cuda in front: every column block must recompute the norm of its 16 rows, 9 against 5 us at 16 rows
// and n = 1536 on an H200. Three later versions, bit-identical to rmsnorm_cuda (the rows staged in shared memory
// with every load in flight; with cp.async and the weight fetched before the PDL wait; in registers with 29 KB of
// shared memory), were slower end to end as well: t5-small batch 8 4.1-4.3 against 3.5-3.6 ms per receipt,
// bench/results/gpu-mma-norm-prologue-h200.txt; the first and third are in the commits "Experiment: ... norm
// prologue ...".)
//
// Deferred T5LayerNorm (MmaFusion, t5_ops_cuda.h). A GEMM that adds into the f32 residual stream (norm.ss_out:
// the decoder's o, o_cross and wo) also writes, per column block bn and row r, the sum of the squares of the new
// residual values of its columns: ss[bn, r] = sum_{c in block bn} y[r, c]^2 (the columns in order). The next GEMM
// that reads LayerNorm(residual) (norm.ss_in: qkv, q_cross, wi) takes the raw f32 residual as its x: each block
// first sums its 16 rows' partials (8 threads per row, partials p = j, j + 8, ... then a fixed xor tree) into
// rs = rsqrt(sum / k + eps), then scales each x value as the norm kernel does, (x * rs) * w[k], and rounds it to T
// (or splits it into hi + lo for an f32 x). That replaces rmsnorm_cuda's kernel between the two GEMMs with one
// short read of partial sums; the values equal rmsnorm_cuda's up to the order of the sum of squares.
//
// Gated activation (MmaFusion::gate, the v1.1 FFN's wi): blocks of two 8-column tiles, tile 0 columns n0 .. n0 + 7
// of wi_0 (weight rows n0 + g) and tile 1 the same columns of wi_1 (rows n + n0 + g); the epilogue writes
// y[r, c] = act(h0) * h1 from the two tiles' sums, so gated_act_cuda's kernel and the [m, 2n] h round trip go.
//
// Work split. grid (ceil(m / (16 kMT)), ceil(n / (8 kNT))): block (bm, bn) computes rows m0 = 16 kMT bm ..
// m0 + 16 kMT - 1 and columns n0 = 8 kNT bn .. n0 + 8 kNT - 1 (consecutive blocks share their weight rows, which
// then come from L2). Its 4 warps split k into chunks of 32: warp w takes chunks w, w + 4, w + 8, ... and
// multiplies each with two mma.m16n8k16 (f32 accumulate) per (16-row, 8-column) tile; the 4 partial results are
// summed in shared memory in warp order, so the output does not depend on timing.
//
// Fragment trick: lane (g = lane / 4, q = lane % 4) loads 8 consecutive k values, k0 + 8q .. k0 + 8q + 7, of its
// rows (x rows g and g + 8, w row g) with one 16-byte load each. mma.m16n8k16 wants, per lane, the k pairs
// (2q, 2q+1) and (2q+8, 2q+9) of 16; a k permutation applied to both x and w leaves x.w^T unchanged, so the first
// mma takes physical k 8q+0..3 as logical (2q, 2q+1, 2q+8, 2q+9) and the second 8q+4..7. Every weight element is
// read once per m tile, coalesced in 64-byte row pieces, with no shared-memory staging.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <type_traits>

#include "cuda/cuda_check.h"
#include "ops/cuda_common.cuh"
#include "ops/cuda_launch.cuh"
#include "ops/mma_common.cuh"
#include "ops/t5_ops_cuda.h"

namespace receipt::cuda {

namespace {

constexpr int kWarps = 4;    // warps per block (128 threads), splitting k
constexpr int kChunk = 32;   // k elements of one warp step (two mma k16 steps)
constexpr int kMinBlocks = 48;  // two 8-column tiles per block only while the grid keeps this many blocks

struct MmaArgs {
    const void* x;  // [m, k] T (f32 for the x_f32 kernels), row stride ldx
    const void* w;  // [n, k] T, row stride ldw
    void* y;        // [m, n] T or f32, row stride ldy
    int m, n, k, ldx, ldw, ldy;
    float alpha;
    bool out_f32, accumulate, relu;
    bool preload;  // load the first weight chunk before pdl_wait() (prefetch_level() >= 1)
    int64_t sx = 0, sw = 0, sy = 0;  // batched launch: element strides of x, w, y between batch entries (grid.z)
    // Deferred norm (header): ss_in [norm_parts, m] partial sums of squares of x's rows and norm_w [k] the norm
    // weight (kNorm kernels: x is the f32 residual); ss_out [gridDim.y, m] this GEMM's partial sums of y's squares.
    const float* ss_in = nullptr;
    int norm_parts = 0;
    const float* norm_w = nullptr;
    float norm_eps = 0.0f;
    float* ss_out = nullptr;
    int gate = 0;  // MmaGate: w has 2n rows [wi_0; wi_1]; tile 0 of a block is wi_0's columns, tile 1 wi_1's (kNT 2)
};

// Lane's 8 x values of one row at k = kk .. kk + 7: 4 registers of 2 T, or (TX = float) 8 f32 (zeros for rows
// >= m).
template <typename TX>
struct XPiece {
    uint4 v;
};
template <>
struct XPiece<float> {
    float4 a, b;
};

template <typename TX>
__device__ __forceinline__ XPiece<TX> load_x(const MmaArgs& a, int row, int kk) {
    XPiece<TX> p;
    if constexpr (std::is_same_v<TX, float>) {
        if (row >= a.m) {
            p.a = p.b = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
        } else {
            const float* row_x = static_cast<const float*>(a.x) + int64_t(row) * a.ldx + kk;
            const float4* s = reinterpret_cast<const float4*>(row_x);
            p.a = s[0];
            p.b = s[1];
        }
    } else {
        p.v = row >= a.m ? make_uint4(0, 0, 0, 0)
                         : *reinterpret_cast<const uint4*>(static_cast<const TX*>(a.x) + int64_t(row) * a.ldx + kk);
    }
    return p;
}

// The deferred norm of a lane's 8 f32 x values at k = kk .. kk + 7 of one row: (x * rs) * w[k], as rmsnorm_cuda
// computes it; w0, w1 hold w[kk .. kk + 7].
__device__ __forceinline__ void norm_piece(XPiece<float>& p, float rs, const float4& w0, const float4& w1) {
    p.a.x = p.a.x * rs * w0.x, p.a.y = p.a.y * rs * w0.y, p.a.z = p.a.z * rs * w0.z, p.a.w = p.a.w * rs * w0.w;
    p.b.x = p.b.x * rs * w1.x, p.b.y = p.b.y * rs * w1.y, p.b.z = p.b.z * rs * w1.z, p.b.w = p.b.w * rs * w1.w;
}

// An f32 piece rounded to T, as from_f32 rounds (the norm kernel's T output).
template <typename T>
__device__ __forceinline__ XPiece<T> round_piece(const XPiece<float>& f) {
    XPiece<T> p;
    p.v = make_uint4(pack2<T>(f.a.x, f.a.y), pack2<T>(f.a.z, f.a.w), pack2<T>(f.b.x, f.b.y), pack2<T>(f.b.z, f.b.w));
    return p;
}

// acc += the lane's 16-row x 8-column share of x[rows g, g + 8; its 8 k] . w[row g; its 8 k] (fragment trick
// in the header): two mma.m16n8k16 on T x; on f32 x, the same two for x's hi parts, then for its lo parts.
template <typename T>
__device__ __forceinline__ void mma_piece(float (&acc)[4], const XPiece<T>& xa, const XPiece<T>& xb, const uint4& wb) {
    mma16816<T>(acc, xa.v.x, xb.v.x, xa.v.y, xb.v.y, wb.x, wb.y);
    mma16816<T>(acc, xa.v.z, xb.v.z, xa.v.w, xb.v.w, wb.z, wb.w);
}
template <typename T>
__device__ __forceinline__ void mma_piece(float (&acc)[4], const XPiece<float>& xa, const XPiece<float>& xb,
                                          const uint4& wb) {
    uint4 ah, al, bh, bl;  // hi / lo parts of rows g (a) and g + 8 (b), packed as XPiece<T>::v
    split2<T>(xa.a.x, xa.a.y, ah.x, al.x);
    split2<T>(xa.a.z, xa.a.w, ah.y, al.y);
    split2<T>(xa.b.x, xa.b.y, ah.z, al.z);
    split2<T>(xa.b.z, xa.b.w, ah.w, al.w);
    split2<T>(xb.a.x, xb.a.y, bh.x, bl.x);
    split2<T>(xb.a.z, xb.a.w, bh.y, bl.y);
    split2<T>(xb.b.x, xb.b.y, bh.z, bl.z);
    split2<T>(xb.b.z, xb.b.w, bh.w, bl.w);
    mma16816<T>(acc, ah.x, bh.x, ah.y, bh.y, wb.x, wb.y);
    mma16816<T>(acc, ah.z, bh.z, ah.w, bh.w, wb.z, wb.w);
    mma16816<T>(acc, al.x, bl.x, al.y, bl.y, wb.x, wb.y);
    mma16816<T>(acc, al.z, bl.z, al.w, bl.w, wb.z, wb.w);
}

// TX: x's type, T or (the split GEMM) float. kNorm: x is the f32 residual, normalised on the fly (deferred norm,
// header; kMT = 1), then rounded to T (TX = T) or split (TX = float).
template <typename T, typename TX, int kMT, int kNT, bool kNorm = false>
__global__ void __launch_bounds__(kWarps * 32) gemm_mma_kernel(MmaArgs a) {
    static_assert(!kNorm || kMT == 1, "the deferred norm takes one m tile per block");
    using XIn = std::conditional_t<kNorm, float, TX>;  // what the loads hold: f32 residual values under kNorm
    if (blockIdx.z > 0) {  // batch entry z: its own x, w, y (constant offsets; nothing read yet)
        a.x = static_cast<const TX*>(a.x) + blockIdx.z * a.sx;
        a.w = static_cast<const T*>(a.w) + blockIdx.z * a.sw;
        a.y = static_cast<char*>(a.y) + blockIdx.z * a.sy * (a.out_f32 ? 4 : int64_t(sizeof(T)));
    }
    constexpr int kGroup = kMT == 1 ? 4 : 2;  // chunks a warp loads before multiplying (loads in flight)
    __shared__ float part[kWarps][kMT][kNT][4][32];  // each warp's accumulators, summed in warp order
    const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31, g = lane >> 2, q = lane & 3;
    const bool gated = kNT == 2 && a.gate != 0;
    const int m0 = blockIdx.x * (16 * kMT), n0 = blockIdx.y * (gated ? 8 : 8 * kNT);
    const int n_chunks = a.k / kChunk;

    // This lane's weight rows n0 + 8 nt + g (columns past n read row n - 1, in bounds, and are never stored),
    // starting at its 8-element piece of a chunk; gated: rows n0 + g of wi_0 (tile 0) and of wi_1 (tile 1).
    const T* wrow[kNT];
#pragma unroll
    for (int nt = 0; nt < kNT; ++nt) {
        const int wr = gated ? nt * a.n + min(n0 + g, a.n - 1) : min(n0 + 8 * nt + g, a.n - 1);
        wrow[nt] = static_cast<const T*>(a.w) + int64_t(wr) * a.ldw + 8 * q;
    }

    // The weights are constant: the warp's first chunk is loaded before waiting for the kernel before (PDL).
    uint4 wpre[kNT];
    const bool pre = a.preload && warp < n_chunks;
    if (pre) {
#pragma unroll
        for (int nt = 0; nt < kNT; ++nt) wpre[nt] = *reinterpret_cast<const uint4*>(wrow[nt] + warp * kChunk);
    }
    pdl_wait();  // x / y come from earlier kernels, and y may still be read by the one before
    pdl_launch_dependents();

    float acc[kMT][kNT][4];
#pragma unroll
    for (int mt = 0; mt < kMT; ++mt)
#pragma unroll
        for (int nt = 0; nt < kNT; ++nt) acc[mt][nt][0] = acc[mt][nt][1] = acc[mt][nt][2] = acc[mt][nt][3] = 0.0f;

    // A group: kGroup chunks of weights and x loaded together (in flight at once), then multiplied.
    // x rows of m tile mt: m0 + 16 mt + g (x0) and + 8 (x1).
    uint4 wv[kGroup][kNT];
    XPiece<XIn> x0[kGroup][kMT], x1[kGroup][kMT];
    float4 nw[kGroup][kNorm ? 2 : 1];  // deferred norm: w[k] of the lane's 8 k values
    float rs0 = 1.0f, rs1 = 1.0f;      // deferred norm: rsqrt(mean square + eps) of rows m0 + g and m0 + g + 8
    const auto load_group = [&](int c0) {
#pragma unroll
        for (int u = 0; u < kGroup; ++u) {
            const int c = c0 + u * kWarps;
            if (c < n_chunks) {
#pragma unroll
                for (int nt = 0; nt < kNT; ++nt)
                    wv[u][nt] = (u == 0 && c0 == warp && pre)
                                    ? wpre[nt]
                                    : *reinterpret_cast<const uint4*>(wrow[nt] + c * kChunk);
#pragma unroll
                for (int mt = 0; mt < kMT; ++mt) {
                    x0[u][mt] = load_x<XIn>(a, m0 + 16 * mt + g, c * kChunk + 8 * q);
                    x1[u][mt] = load_x<XIn>(a, m0 + 16 * mt + g + 8, c * kChunk + 8 * q);
                }
                if constexpr (kNorm) {
                    const float4* nwp = reinterpret_cast<const float4*>(a.norm_w + c * kChunk + 8 * q);
                    nw[u][0] = nwp[0];
                    nw[u][1] = nwp[1];
                }
            }
        }
    };
    const auto mma_group = [&](int c0) {
#pragma unroll
        for (int u = 0; u < kGroup; ++u) {
            if (c0 + u * kWarps >= n_chunks) break;
            if constexpr (kNorm) {
                norm_piece(x0[u][0], rs0, nw[u][0], nw[u][1]);
                norm_piece(x1[u][0], rs1, nw[u][0], nw[u][1]);
                if constexpr (std::is_same_v<TX, float>) {
#pragma unroll
                    for (int nt = 0; nt < kNT; ++nt) mma_piece<T>(acc[0][nt], x0[u][0], x1[u][0], wv[u][nt]);
                } else {
                    const XPiece<T> r0 = round_piece<T>(x0[u][0]), r1 = round_piece<T>(x1[u][0]);
#pragma unroll
                    for (int nt = 0; nt < kNT; ++nt) mma_piece<T>(acc[0][nt], r0, r1, wv[u][nt]);
                }
            } else {
#pragma unroll
                for (int mt = 0; mt < kMT; ++mt)
#pragma unroll
                    for (int nt = 0; nt < kNT; ++nt) mma_piece<T>(acc[mt][nt], x0[u][mt], x1[u][mt], wv[u][nt]);
            }
        }
    };
    constexpr int kStep = kWarps * kGroup;  // chunks between a warp's groups

    if constexpr (kNorm) {
        // The first group's loads are issued first, so they are in flight while the block sums the producer's
        // partials (8 threads per row) into rs; then multiply a group, load the next.
        load_group(warp);
        __shared__ float rs_s[16];
        const int r = threadIdx.x >> 3, j = threadIdx.x & 7, row = m0 + r;
        float ss = 0.0f;
        if (row < a.m) {
#pragma unroll 4
            for (int p = j; p < a.norm_parts; p += 8) ss += a.ss_in[int64_t(p) * a.m + row];
        }
        ss += __shfl_xor_sync(0xffffffffu, ss, 1);
        ss += __shfl_xor_sync(0xffffffffu, ss, 2);
        ss += __shfl_xor_sync(0xffffffffu, ss, 4);
        if (j == 0) rs_s[r] = rsqrtf(ss / float(a.k) + a.norm_eps);
        __syncthreads();
        rs0 = rs_s[g];
        rs1 = rs_s[g + 8];
        for (int c0 = warp; c0 < n_chunks; c0 += kStep) {
            mma_group(c0);
            if (c0 + kStep < n_chunks) load_group(c0 + kStep);
        }
    } else {
        for (int c0 = warp; c0 < n_chunks; c0 += kStep) {
            load_group(c0);
            mma_group(c0);
        }
    }

#pragma unroll
    for (int mt = 0; mt < kMT; ++mt)
#pragma unroll
        for (int nt = 0; nt < kNT; ++nt)
#pragma unroll
            for (int i = 0; i < 4; ++i) part[warp][mt][nt][i][lane] = acc[mt][nt][i];
    __syncthreads();
    // Accumulator i of lane l in tile (mt, nt) is (row 16 mt + g + 8 (i >= 2), column 8 nt + 2 q + (i & 1)).
    for (int e = threadIdx.x; e < kMT * kNT * 4 * 32; e += kWarps * 32) {
        const int l = e & 31, i = (e >> 5) & 3, nt = (e >> 7) % kNT, mt = (e >> 7) / kNT;
        if (gated) {  // the pair (tile 0, tile 1) of one output; elements of tile 1 are read with tile 0's
            if (nt != 0) continue;
            const int row = m0 + 16 * mt + (l >> 2) + (i >= 2 ? 8 : 0), col = n0 + 2 * (l & 3) + (i & 1);
            if (row >= a.m || col >= a.n) continue;
            float h0 = part[0][mt][0][i][l], h1 = part[0][mt][1][i][l];
#pragma unroll
            for (int w = 1; w < kWarps; ++w) h0 += part[w][mt][0][i][l], h1 += part[w][mt][1][i][l];
            h0 *= a.alpha, h1 *= a.alpha;
            if (!a.out_f32) h0 = to_f32(from_f32<T>(h0)), h1 = to_f32(from_f32<T>(h1));  // as stored in h
            const float act = a.gate == int(MmaGate::kGeluTanh) ? gelu_tanh(h0) : fmaxf(h0, 0.0f);
            store_gemm_out<T>(a.y, a.ldy, row, col, act * h1, 1.0f, a.out_f32, false, false);
            continue;
        }
        const int row = m0 + 16 * mt + (l >> 2) + (i >= 2 ? 8 : 0), col = n0 + 8 * nt + 2 * (l & 3) + (i & 1);
        if (row >= a.m || col >= a.n) {
            if (a.ss_out) part[0][mt][nt][i][l] = 0.0f;
            continue;
        }
        float s = part[0][mt][nt][i][l];
#pragma unroll
        for (int w = 1; w < kWarps; ++w) s += part[w][mt][nt][i][l];
        const float v = store_gemm_out<T>(a.y, a.ldy, row, col, s, a.alpha, a.out_f32, a.accumulate, a.relu);
        if (a.ss_out) part[0][mt][nt][i][l] = v * v;  // the slot this thread alone read
    }
    if (a.ss_out) {  // deferred norm: the block's partial sum of squares per row, its columns in order
        __syncthreads();
        if (threadIdx.x < 16 * kMT) {
            const int r = threadIdx.x, mt = r >> 4, gr = r & 7, hi = (r >> 3) & 1, row = m0 + r;
            float ss = 0.0f;
#pragma unroll
            for (int nt = 0; nt < kNT; ++nt)
#pragma unroll
                for (int c = 0; c < 8; ++c) ss += part[0][mt][nt][2 * hi + (c & 1)][4 * gr + (c >> 1)];
            if (row < a.m) a.ss_out[int64_t(blockIdx.y) * a.m + row] = ss;
        }
    }
}

template <typename T, int kMT, typename TX = T, bool kNorm = false>
void launch_mt(const MmaArgs& a, int kNT, cudaStream_t stream, int batch) {
    const int cols = a.gate ? 8 : 8 * kNT;  // gated: a block's two tiles are one 8-column output block
    const dim3 grid((a.m + 16 * kMT - 1) / (16 * kMT), (a.n + cols - 1) / cols, batch);
    auto kern = kNT == 4   ? gemm_mma_kernel<T, TX, kMT, 4, kNorm>
                : kNT == 2 ? gemm_mma_kernel<T, TX, kMT, 2, kNorm>
                           : gemm_mma_kernel<T, TX, kMT, 1, kNorm>;
    launch_kernel(kern, grid, kWarps * 32, 0, stream, a);
}

// x_f32 and deferred-norm launches take one m tile per block (their x registers are twice the size).
template <typename T>
void launch(const MmaArgs& a, int kMT, int kNT, cudaStream_t stream, int batch = 1, bool x_f32 = false) {
    if (a.ss_in)
        x_f32 ? launch_mt<T, 1, float, true>(a, kNT, stream, batch) : launch_mt<T, 1, T, true>(a, kNT, stream, batch);
    else if (x_f32)
        launch_mt<T, 1, float>(a, kNT, stream, batch);
    else if (kMT == 4)
        launch_mt<T, 4>(a, kNT, stream, batch);
    else if (kMT == 2)
        launch_mt<T, 2>(a, kNT, stream, batch);
    else
        launch_mt<T, 1>(a, kNT, stream, batch);
}

// RECEIPT_CUDA_MMA_<name>=1|2|4 fixes m tiles (MT) or 8-column tiles (NT) per block, for A/B timing; 0 = heuristic.
int forced_tiles(const char* name) {
    const char* e = std::getenv(name);
    const int n = e ? std::atoi(e) : 0;
    return (n == 1 || n == 2 || n == 4) ? n : 0;
}

}  // namespace

bool gemm_mma_supports(DType dt, int m, int n, int k, int ldx, int ldw, bool x_f32) {
    return (dt == DType::kF16 || dt == DType::kBF16) && m >= 1 && n >= 1 && k >= kChunk && k % kChunk == 0 &&
           ldx % (x_f32 ? 4 : 8) == 0 && ldw % 8 == 0 && ldx >= k && ldw >= k && (n + 7) / 8 <= 65535 * 4;
}

int gemm_mma_cuda(DType dt, int m, int n, int k, const void* x, int ldx, const void* w, int ldw, void* y, int ldy,
                  float alpha, bool out_f32, bool accumulate, bool relu, cudaStream_t stream, MmaTiles tiles,
                  bool x_f32, const MmaFusion* norm) {
    const bool norm_in = norm && norm->ss_in;
    const bool gated = norm && norm->gate != MmaGate::kNone;
    RECEIPT_CHECK(!gated || (!accumulate && !relu && !norm->ss_out), InvalidInput,
                  "gemm_mma_cuda: a gated activation takes no accumulate, ReLU or partial sums");
    RECEIPT_CHECK(gemm_mma_supports(dt, m, n, k, ldx, ldw, x_f32 || norm_in) && ldy >= n, InvalidInput,
                  "gemm_mma_cuda: unsupported GEMM m=" + std::to_string(m) + " n=" + std::to_string(n) +
                      " k=" + std::to_string(k) + " ldx=" + std::to_string(ldx) + " ldw=" + std::to_string(ldw) +
                      " ldy=" + std::to_string(ldy) + " (needs f16 / bf16, k a multiple of 32, ldx and ldw multiples "
                      "of 8, or ldx of 4 for an f32 x)");
    RECEIPT_CHECK(!x_f32 || out_f32, InvalidInput, "gemm_mma_cuda: an f32 x needs an f32 y");
    RECEIPT_CHECK(aligned16(w) && aligned16(x), InvalidInput, "gemm_mma_cuda: x and w must be 16-byte aligned");
    RECEIPT_CHECK(!norm_in || (norm->n_parts >= 1 && norm->w && aligned16(norm->w)), InvalidInput,
                  "gemm_mma_cuda: a deferred norm needs its partial sums and a 16-byte aligned norm weight");
    RECEIPT_CHECK(!(norm && norm->ss_out) || out_f32, InvalidInput,
                  "gemm_mma_cuda: partial sums of squares need an f32 y (the residual)");
    MmaArgs a{x, w, y, m, n, k, ldx, ldw, ldy, alpha, out_f32, accumulate, relu, prefetch_level() >= 1};
    if (norm) {
        a.ss_in = norm->ss_in;
        a.norm_parts = norm->n_parts;
        a.norm_w = norm->w;
        a.norm_eps = norm->eps;
        a.ss_out = norm->ss_out;
        a.gate = int(norm->gate);
    }
    static const int env_mt = forced_tiles("RECEIPT_CUDA_MMA_MT"), env_nt = forced_tiles("RECEIPT_CUDA_MMA_NT");
    // Block shape, measured per call on an H200 (tests/cuda_decode_timing_test.cpp, MmaVsCublasLt, t5-small and
    // t5-base shapes at 16-64 rows): one m tile per block was fastest or level everywhere (blocks of 2 or 4 m tiles
    // share weight fragments but leave too few blocks); two 8-column tiles where that still gives >= kMinBlocks
    // blocks (qkv, wi: 1.83 / 1.94 us against 2.09 / 2.23 us with one at 16 rows), else one (o: 1.72 against 1.96).
    int mt = (x_f32 || norm_in || gated) ? 1 : tiles.mt ? tiles.mt : env_mt ? env_mt : 1;
    const int m_blocks = (m + 16 * mt - 1) / (16 * mt);
    int nt = tiles.nt ? tiles.nt : env_nt;
    if (nt == 0) nt = int64_t(m_blocks) * ((n + 15) / 16) >= kMinBlocks ? 2 : 1;
    RECEIPT_CHECK((mt == 1 || mt == 2 || mt == 4) && (nt == 1 || nt == 2 || nt == 4), InvalidInput,
                  "gemm_mma_cuda: tiles per block must be 1, 2 or 4");
    if (gated) nt = 2;  // wi_0's and wi_1's tiles of the same 8 columns
    while ((n + 8 * nt - 1) / (8 * nt) > 65535) nt *= 2;  // grid.y limit (gemm_mma_supports bounds n)
    RECEIPT_CHECK(!gated || (n + 7) / 8 <= 65535, InvalidInput, "gemm_mma_cuda: n too large for a gated launch");
    if (dt == DType::kF16)
        launch<__half>(a, mt, nt, stream, 1, x_f32);
    else
        launch<__nv_bfloat16>(a, mt, nt, stream, 1, x_f32);
    return gated ? (n + 7) / 8 : (n + 8 * nt - 1) / (8 * nt);
}

void gemm_mma_batched_cuda(DType dt, int batch, int m, int n, int k, const void* x, int ldx, int64_t sx, const void* w,
                           int ldw, int64_t sw, void* y, int ldy, int64_t sy, cudaStream_t stream) {
    if (batch <= 0 || m <= 0) return;
    RECEIPT_CHECK(batch <= 65535 && gemm_mma_supports(dt, m, n, k, ldx, ldw) && ldy >= n && sx % 8 == 0 &&
                      sw % 8 == 0,
                  InvalidInput,
                  "gemm_mma_batched_cuda: unsupported GEMM batch=" + std::to_string(batch) + " m=" +
                      std::to_string(m) + " n=" + std::to_string(n) + " k=" + std::to_string(k) +
                      " (needs f16 / bf16, k a multiple of 32, strides and leading dimensions multiples of 8)");
    RECEIPT_CHECK(aligned16(w) && aligned16(x), InvalidInput, "gemm_mma_batched_cuda: x and w must be 16-byte aligned");
    MmaArgs a{x, w, y, m, n, k, ldx, ldw, ldy, 1.0f, false, false, false, prefetch_level() >= 1};
    a.sx = sx, a.sw = sw, a.sy = sy;
    const int m_blocks = (m + 15) / 16;
    const int nt = int64_t(batch) * m_blocks * ((n + 15) / 16) >= kMinBlocks ? 2 : 1;
    RECEIPT_CHECK((n + 8 * nt - 1) / (8 * nt) <= 65535, InvalidInput, "gemm_mma_batched_cuda: n too large");
    if (dt == DType::kF16)
        launch<__half>(a, 1, nt, stream, batch);
    else
        launch<__nv_bfloat16>(a, 1, nt, stream, batch);
}

}  // namespace receipt::cuda
