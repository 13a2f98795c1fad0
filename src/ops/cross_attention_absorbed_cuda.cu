// Decoder cross-attention with the key and value projections absorbed into the query and output sides, for
// decode steps of many rows. The contract of cross_attention_cuda, computed from the encoder output instead of
// precomputed K/V:
//   k_j = Wk_h e_j, v_j = Wv_h e_j  (e_j: [D] encoder output of source token j; Wk_h, Wv_h: [K, D] rows of head h)
//   q . k_j = (Wk_h^T q) . e_j = q'_h . e_j                      q'_h = Wk_h^T q_h: [D]
//   sum_j p_j v_j = Wv_h (sum_j p_j e_j) = Wv_h c'_h             c'_h: [D]
// so one step runs
//   1. q' [R, H, D] = per head q_h [R, K] . WkT_h^T         (batched tensor-core GEMM; WkT_h = Wk_h^T: [D, K])
//   2. c' [R, H, D] = softmax_{j < len}(q'_h . e_j) e_j     (this file's kernel, all heads of a row per block)
//   3. ctx [R, H*K] = per head c'_h [R, D] . Wv_h^T          (batched tensor-core GEMM)
// Why: each layer's precomputed K/V of a batch is [B, S, 2 H K] (t5-small batch 64 x 384 tokens: 50 MB, read once
// per layer per step), while every layer here reads the same encoder output [B, S, D] (25 MB), which L2 can keep
// between layers.
//
// Kernel (step 2): block (row r, head group of 16), kW warps; the source's keys in tiles of kTile = 8 kW rows of
// e ([kTile, D] T, kStages-deep cp.async pipeline; rows past len are zero-filled):
//   scores  S[16 heads x kTile keys] = Q'[16 x D] . E^T   warp w: keys 8w .. 8w+7 (mma over D, f32 accumulate)
//   online softmax per head over the tiles (max / sum exchanged through shared memory)
//   C'[16 x D] += P[16 x kTile] . E                       warp w: dims w D/kW .. (w+1) D/kW - 1
// P goes through shared memory as hi + lo 16-bit halves (two mma each), as in the encoder attention kernel.
// E's B fragments for P . E (k = key, n = dim) are read with ldmatrix.trans from the row-major tile.
// Each block has one row's work, so it is bound by how many bytes of e it keeps in flight: the wide configuration
// (8 warps, 64-key tiles, 2-3 stages; absorbed_config) keeps up to 4x the narrow one's (4 warps, 32 keys, 2 stages).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>

#include "cuda/cuda_check.h"
#include "ops/attention_common.cuh"
#include "ops/cuda_common.cuh"
#include "ops/cuda_launch.cuh"
#include "ops/mma_common.cuh"
#include "ops/t5_ops_cuda.h"

namespace receipt::cuda {

namespace {

constexpr int kHeads = 16;  // heads per block (rows of the mma tile)
constexpr int kPad = 8;     // T elements of padding per staged row (conflict-free fragments and ldmatrix)
constexpr int kPPad = 8;
// The kernel's static shared memory (s_w, and split_arrive_last's flag), rounded up.
constexpr size_t kStaticSmemReserve = sizeof(float) * kMaxDecodeSplits * kHeads + 256;

// Warps per block and pipeline depth of the attention kernel; keys per tile = 8 * warps.
struct AbsorbedConfig {
    int warps, stages;
};

// Four 8x8 b16 matrices, transposed: lane l gives the address of row (l % 8) of matrix l / 8.
__device__ __forceinline__ void ldmatrix_x4_trans(const void* p, uint32_t& r0, uint32_t& r1, uint32_t& r2,
                                                  uint32_t& r3) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    const unsigned s = static_cast<unsigned>(__cvta_generic_to_shared(p));
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];"
                 : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3)
                 : "r"(s));
#endif
}

// Shared memory layout (dynamic, T elements unless noted), D_ld = D + kPad, kTile = 8 warps:
//   E [stages][kTile][D_ld] | Q [kHeads][D_ld] | Phi, Plo [kHeads][kTile + kPPad] | red [warps][kHeads] f32 x 2
template <typename T>
__host__ __device__ inline size_t absorbed_smem_bytes(int D, AbsorbedConfig c) {
    const size_t ld = size_t(D) + kPad, tile = 8 * size_t(c.warps);
    return sizeof(T) * (c.stages * tile * ld + kHeads * ld + 2 * kHeads * (tile + kPPad)) +
           sizeof(float) * 2 * c.warps * kHeads;
}

// qp: [R, H, D] T; enc: [B*S, D] T (S = state->src_stride); src_row: [R]; src_len: [B]; out: [R, H, D] T.
// grid (R, ceil(H / kHeads), n_split); block kWarps * 32. kNT: 8-column tiles of D per warp in P . E
// (D = 8 kWarps kNT).
template <typename T, int kWarps, int kStages, int kNT>
__global__ void __launch_bounds__(kWarps * 32)
    absorbed_attention_kernel(const T* qp, const T* enc, const int* src_row, const int* src_len, int H, int S_max,
                              const DecodeState* state, float* part, int* counter, T* out) {
    constexpr int D = 8 * kWarps * kNT, ld = D + kPad, kChunks = D / 8, kTile = 8 * kWarps;
    extern __shared__ __align__(16) unsigned char smem_raw[];
    T* E = reinterpret_cast<T*>(smem_raw);
    T* Q = E + kStages * kTile * ld;
    T* Phi = Q + kHeads * ld;
    T* Plo = Phi + kHeads * (kTile + kPPad);
    float* red_max = reinterpret_cast<float*>(Plo + kHeads * (kTile + kPPad));
    float* red_sum = red_max + kWarps * kHeads;

    const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31, g = lane >> 2, q = lane & 3;
    const int r = blockIdx.x, h0 = blockIdx.y * kHeads, n_heads = min(kHeads, H - h0);
    const int z = blockIdx.z, n_split = gridDim.z;
    // The encoder output, the source map and lengths were written before the first decode step: the first tile
    // is fetched before waiting for the kernel before (indices clamped; state->src_stride is set per request).
    const int S = min(max(state->src_stride, 0), S_max);
    const int len = min(max(src_len[src_row[r]], 0), S);
    const T* e0 = enc + int64_t(src_row[r]) * S * D;
    auto load_tile = [&](int buf, int j0) {
        T* dst = E + buf * kTile * ld;
        for (int e = threadIdx.x; e < kTile * kChunks; e += blockDim.x) {
            const int row = e / kChunks, c = (e - row * kChunks) * 8;
            const bool valid = j0 + row < len;
            cp_async16(dst + row * ld + c, e0 + int64_t(valid ? j0 + row : 0) * D + c, valid);
        }
        cp_async_commit();
    };
    // This split's key tiles [t0, t1) of the source's ceil(len / kTile).
    const int n_tiles_all = (len + kTile - 1) / kTile, per = (n_tiles_all + n_split - 1) / n_split;
    const int t0 = min(z * per, n_tiles_all), t1 = min(t0 + per, n_tiles_all);
    const int n_tiles = t1 - t0;
    // Pipeline prologue: tiles 0 .. kStages - 2 (one commit group each, empty past the last tile).
#pragma unroll
    for (int st = 0; st < kStages - 1; ++st) {
        if (st < n_tiles) load_tile(st, (t0 + st) * kTile);
        else cp_async_commit();
    }

    pdl_wait();  // q' comes from the GEMM before
    pdl_launch_dependents();
    for (int e = threadIdx.x; e < kHeads * kChunks; e += blockDim.x) {
        const int hh = e / kChunks, c = (e - hh * kChunks) * 8;
        uint4 v = make_uint4(0, 0, 0, 0);
        if (hh < n_heads) v = *reinterpret_cast<const uint4*>(qp + (int64_t(r) * H + h0 + hh) * D + c);
        *reinterpret_cast<uint4*>(Q + hh * ld + c) = v;
    }

    float o[kNT][4];
#pragma unroll
    for (int t = 0; t < kNT; ++t) o[t][0] = o[t][1] = o[t][2] = o[t][3] = 0.0f;
    float m[2] = {-INFINITY, -INFINITY}, l[2] = {0.0f, 0.0f};  // heads g and g + 8 (every warp keeps the same)

    for (int it = 0; it < n_tiles; ++it) {
        const int buf = it % kStages, j0 = (t0 + it) * kTile;
        // Tile it + kStages - 1 goes into the buffer tile it - 1 used (read before the barrier that ended it).
        // Groups committed so far: kStages - 1 + it + 1; at most kStages - 1 pending leaves tile it's complete.
        if (it + kStages - 1 < n_tiles) load_tile((it + kStages - 1) % kStages, j0 + (kStages - 1) * kTile);
        else cp_async_commit();
        cp_async_wait<kStages - 1>();
        __syncthreads();  // tile it (and, first time, Q) visible to every warp
        const T* Et = E + buf * kTile * ld;

        // Scores of the 16 heads against keys 8 warp .. 8 warp + 7 of the tile.
        // Two accumulators (even and odd k16 steps) halve the chain of dependent mma.
        float s[4] = {0.0f, 0.0f, 0.0f, 0.0f}, s2[4] = {0.0f, 0.0f, 0.0f, 0.0f};
        const T* erow = Et + (8 * warp + g) * ld;
#pragma unroll 8
        for (int k0 = 0; k0 < D; k0 += 32) {
            mma16816<T>(s, ld2(Q + g * ld + k0 + 2 * q), ld2(Q + (g + 8) * ld + k0 + 2 * q),
                        ld2(Q + g * ld + k0 + 2 * q + 8), ld2(Q + (g + 8) * ld + k0 + 2 * q + 8),
                        ld2(erow + k0 + 2 * q), ld2(erow + k0 + 2 * q + 8));
            const int k1 = k0 + 16;
            mma16816<T>(s2, ld2(Q + g * ld + k1 + 2 * q), ld2(Q + (g + 8) * ld + k1 + 2 * q),
                        ld2(Q + g * ld + k1 + 2 * q + 8), ld2(Q + (g + 8) * ld + k1 + 2 * q + 8),
                        ld2(erow + k1 + 2 * q), ld2(erow + k1 + 2 * q + 8));
        }
#pragma unroll
        for (int e = 0; e < 4; ++e) s[e] += s2[e];
        // s[e]: head g + 8 (e >= 2), key j0 + 8 warp + 2 q + (e & 1).
        float mx[2];
#pragma unroll
        for (int e = 0; e < 4; ++e)
            if (j0 + 8 * warp + 2 * q + (e & 1) >= len) s[e] = -INFINITY;
        mx[0] = fmaxf(s[0], s[1]);
        mx[1] = fmaxf(s[2], s[3]);
#pragma unroll
        for (int i = 0; i < 2; ++i) {
            mx[i] = fmaxf(mx[i], __shfl_xor_sync(0xffffffffu, mx[i], 1));
            mx[i] = fmaxf(mx[i], __shfl_xor_sync(0xffffffffu, mx[i], 2));
        }
        if (q == 0) {
            red_max[warp * kHeads + g] = mx[0];
            red_max[warp * kHeads + g + 8] = mx[1];
        }
        __syncthreads();
        float mu[2], scale[2];
#pragma unroll
        for (int i = 0; i < 2; ++i) {
            float tm = red_max[g + 8 * i];
#pragma unroll
            for (int w = 1; w < kWarps; ++w) tm = fmaxf(tm, red_max[w * kHeads + g + 8 * i]);
            const float mn = fmaxf(m[i], tm);
            mu[i] = mn == -INFINITY ? 0.0f : mn;  // nothing valid yet: every exp is 0
            scale[i] = expf(m[i] - mu[i]);
            m[i] = mn;
        }
        float ps[2] = {0.0f, 0.0f};
#pragma unroll
        for (int e = 0; e < 4; e += 2) {
            const int i = e >> 1;
            const float p0 = expf(s[e] - mu[i]), p1 = expf(s[e + 1] - mu[i]);
            ps[i] += p0 + p1;
            const int row = g + 8 * i, col = 8 * warp + 2 * q;
            split2<T>(p0, p1, *reinterpret_cast<uint32_t*>(Phi + row * (kTile + kPPad) + col),
                      *reinterpret_cast<uint32_t*>(Plo + row * (kTile + kPPad) + col));
        }
#pragma unroll
        for (int i = 0; i < 2; ++i) {
            ps[i] += __shfl_xor_sync(0xffffffffu, ps[i], 1);
            ps[i] += __shfl_xor_sync(0xffffffffu, ps[i], 2);
        }
        if (q == 0) {
            red_sum[warp * kHeads + g] = ps[0];
            red_sum[warp * kHeads + g + 8] = ps[1];
        }
        __syncthreads();  // P and the partial sums visible
#pragma unroll
        for (int i = 0; i < 2; ++i) {
            float ts = 0.0f;
#pragma unroll
            for (int w = 0; w < kWarps; ++w) ts += red_sum[w * kHeads + g + 8 * i];
            l[i] = l[i] * scale[i] + ts;
        }
        scale_rows(o, scale[0], scale[1]);
        // C'[16 x dims of this warp] += P . E over the tile's kTile keys (kTile / 16 k16 steps).
        const int d_warp = warp * (D / kWarps);
#pragma unroll
        for (int ks = 0; ks < kTile / 16; ++ks) {
            const int pc = 16 * ks + 2 * q;
            const uint32_t ah0 = ld2(Phi + g * (kTile + kPPad) + pc), ah1 = ld2(Phi + (g + 8) * (kTile + kPPad) + pc),
                           ah2 = ld2(Phi + g * (kTile + kPPad) + pc + 8),
                           ah3 = ld2(Phi + (g + 8) * (kTile + kPPad) + pc + 8);
            const uint32_t al0 = ld2(Plo + g * (kTile + kPPad) + pc), al1 = ld2(Plo + (g + 8) * (kTile + kPPad) + pc),
                           al2 = ld2(Plo + g * (kTile + kPPad) + pc + 8),
                           al3 = ld2(Plo + (g + 8) * (kTile + kPPad) + pc + 8);
            // ldmatrix x4.trans: matrices (keys 16ks..+7, dims d..d+7), (keys +8..+15, d..), (keys .., d+8..),
            // (keys +8.., d+8..) -> b0, b1 of dim tile d and b0, b1 of dim tile d + 8.
            const int mrow = 16 * ks + (lane & 7) + ((lane >> 3) & 1) * 8, mcol = (lane >> 4) * 8;
#pragma unroll
            for (int t = 0; t < kNT; t += 2) {
                uint32_t b0, b1, b2, b3;
                ldmatrix_x4_trans(Et + mrow * ld + d_warp + 8 * t + mcol, b0, b1, b2, b3);
                mma16816<T>(o[t], ah0, ah1, ah2, ah3, b0, b1);
                mma16816<T>(o[t], al0, al1, al2, al3, b0, b1);
                mma16816<T>(o[t + 1], ah0, ah1, ah2, ah3, b2, b3);
                mma16816<T>(o[t + 1], al0, al1, al2, al3, b2, b3);
            }
        }
        // Every warp is done with E[buf], P and red before the next iteration refills E[buf] (its load of tile
        // it + kStages is issued before that iteration's first barrier) and rewrites P and red.
        __syncthreads();
    }

    const int d_warp = warp * (D / kWarps);
    if (n_split == 1) {
        const float inv[2] = {l[0] > 0.0f ? 1.0f / l[0] : 0.0f, l[1] > 0.0f ? 1.0f / l[1] : 0.0f};
#pragma unroll
        for (int i = 0; i < 2; ++i) {
            const int hh = g + 8 * i;
            if (hh >= n_heads) continue;
            T* dst = out + (int64_t(r) * H + h0 + hh) * D + d_warp + 2 * q;
#pragma unroll
            for (int t = 0; t < kNT; ++t)
                *reinterpret_cast<uint32_t*>(dst + 8 * t) = pack2<T>(o[t][2 * i] * inv[i], o[t][2 * i + 1] * inv[i]);
        }
        return;
    }

    // Split-K: this block's unnormalised (m, l, o) go to part; the last of the n_split blocks of (row, head
    // group) to arrive combines them: M = max_s m_s over splits with l_s > 0,
    // out = sum_s e^(m_s - M) o_s / sum_s e^(m_s - M) l_s (the splits' terms added in split order).
    // part per (row, group): o [n_split][kHeads][D] f32, then (m, l) [n_split][kHeads][2] f32.
    const int pg = r * gridDim.y + blockIdx.y;
    float* region = part + int64_t(pg) * n_split * kHeads * (D + 2);
    float* ml = region + int64_t(n_split) * kHeads * D;
#pragma unroll
    for (int i = 0; i < 2; ++i) {
        float* row = region + (int64_t(z) * kHeads + g + 8 * i) * D;
#pragma unroll
        for (int t = 0; t < kNT; ++t)
            *reinterpret_cast<float2*>(row + d_warp + 8 * t + 2 * q) = make_float2(o[t][2 * i], o[t][2 * i + 1]);
        if (warp == 0 && q == 0) {
            ml[(z * kHeads + g + 8 * i) * 2] = m[i];
            ml[(z * kHeads + g + 8 * i) * 2 + 1] = l[i];
        }
    }
    __shared__ float s_w[kMaxDecodeSplits][kHeads];  // e^(m_s - M) / sum_s e^(m_s - M) l_s, 0 for empty splits
    if (!split_arrive_last(counter + pg, n_split)) return;  // the last split resets the counter for the next launch
    if (threadIdx.x < kHeads) {
        const int hh = threadIdx.x;
        float M = -INFINITY, den = 0.0f;
        for (int zz = 0; zz < n_split; ++zz)
            if (__ldcg(ml + (zz * kHeads + hh) * 2 + 1) > 0.0f) M = fmaxf(M, __ldcg(ml + (zz * kHeads + hh) * 2));
        for (int zz = 0; zz < n_split; ++zz) {
            const float lz = __ldcg(ml + (zz * kHeads + hh) * 2 + 1);
            if (lz > 0.0f) den += expf(__ldcg(ml + (zz * kHeads + hh) * 2) - M) * lz;
        }
        const float inv = den > 0.0f ? 1.0f / den : 0.0f;
        for (int zz = 0; zz < n_split; ++zz) {
            const float lz = __ldcg(ml + (zz * kHeads + hh) * 2 + 1);
            s_w[zz][hh] = lz > 0.0f ? expf(__ldcg(ml + (zz * kHeads + hh) * 2) - M) * inv : 0.0f;
        }
    }
    __syncthreads();
    // 4 consecutive dims per thread and step, float4 loads of every split's row (independent, all in flight).
    for (int e = threadIdx.x * 4; e < n_heads * D; e += blockDim.x * 4) {
        const int hh = e / D, d = e - hh * D;
        float4 acc = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
#pragma unroll
        for (int zz = 0; zz < kMaxDecodeSplits; ++zz) {
            if (zz >= n_split) break;
            const float w = s_w[zz][hh];
            const float4 v = __ldcg(reinterpret_cast<const float4*>(region + (int64_t(zz) * kHeads + hh) * D + d));
            acc.x += w * v.x, acc.y += w * v.y, acc.z += w * v.z, acc.w += w * v.w;
        }
        T* dst = out + (int64_t(r) * H + h0 + hh) * D + d;
        uint2 packed;
        packed.x = pack2<T>(acc.x, acc.y);
        packed.y = pack2<T>(acc.z, acc.w);
        *reinterpret_cast<uint2*>(dst) = packed;
    }
}

struct Launch {
    const void *qp, *enc;
    const int *src_row, *src_len;
    int R, H, D, S_max, n_split;
    const DecodeState* state;
    float* part;
    int* counter;
    void* out;
};

template <typename T, int kWarps, int kStages, int kNT>
void launch_kernel_d(const Launch& a, cudaStream_t stream) {
    auto kern = absorbed_attention_kernel<T, kWarps, kStages, kNT>;
    const size_t smem = absorbed_smem_bytes<T>(a.D, AbsorbedConfig{kWarps, kStages});
    allow_dynamic_smem(kern, smem);
    launch_kernel(kern, dim3(a.R, (a.H + kHeads - 1) / kHeads, a.n_split), kWarps * 32, smem, stream,
                  static_cast<const T*>(a.qp), static_cast<const T*>(a.enc), a.src_row, a.src_len, a.H, a.S_max,
                  a.state, a.part, a.counter, static_cast<T*>(a.out));
}

// kNT = D / (8 warps): each warp's share of D in 8-column tiles, an even count for ldmatrix.x4.
template <typename T>
void launch_attention(const Launch& a, AbsorbedConfig c, cudaStream_t stream) {
    const bool wide = c.warps == 8;
    switch (a.D) {
        case 256: wide ? launch_kernel_d<T, 8, 3, 4>(a, stream) : launch_kernel_d<T, 4, 2, 8>(a, stream); break;
        case 384: wide ? launch_kernel_d<T, 8, 3, 6>(a, stream) : launch_kernel_d<T, 4, 2, 12>(a, stream); break;
        case 512: wide ? launch_kernel_d<T, 8, 3, 8>(a, stream) : launch_kernel_d<T, 4, 2, 16>(a, stream); break;
        case 768: wide ? launch_kernel_d<T, 8, 2, 12>(a, stream) : launch_kernel_d<T, 4, 2, 24>(a, stream); break;
        case 1024: launch_kernel_d<T, 4, 2, 32>(a, stream); break;
        default:
            RECEIPT_CHECK(false, InvalidInput, "cross_attention_absorbed_cuda: unsupported d_model " +
                                                   std::to_string(a.D));
    }
}

constexpr AbsorbedConfig kNarrow{4, 2};

// Step 2's own limits: f16 / bf16, a d_model it is instantiated for, and the narrow configuration's shared memory.
bool attention_supports(DType dt, int D) {
    return (dt == DType::kF16 || dt == DType::kBF16) && (D == 256 || D == 384 || D == 512 || D == 768 || D == 1024) &&
           absorbed_smem_bytes<__half>(D, kNarrow) + kStaticSmemReserve <= size_t(max_smem_optin());
}

// The configuration launch_attention runs for d_model D on the current device: the wide one (8 warps, 64-key
// tiles, 3 stages; 2 for D = 768) where its shared memory fits, else the narrow one (4 warps, 32 keys, 2 stages).
// RECEIPT_CUDA_CROSS_ABSORB_WIDE=0 (read once per process) keeps the narrow one.
AbsorbedConfig absorbed_config(int D) {
    static const bool wide_allowed = env_level("RECEIPT_CUDA_CROSS_ABSORB_WIDE", 1, 1) == 1;  // off only for "0"
    if (!wide_allowed || D == 1024) return kNarrow;
    const AbsorbedConfig wide{8, D == 768 ? 2 : 3};
    return absorbed_smem_bytes<__half>(D, wide) + kStaticSmemReserve <= size_t(max_smem_optin()) ? wide : kNarrow;
}

}  // namespace

// Key ranges per (row, head group): as many as fill the SMs' block slots in one wave, at most split.n_split_max
// and kMaxDecodeSplits, and within the scratch (1 = single pass).
int absorbed_n_split(const DecodeAttnSplit& split, int R, int n_groups, int D) {
    const int64_t blocks = int64_t(R) * n_groups;
    if (split.n_sm <= 0 || blocks <= 0) return 1;
    if (!split.part || !split.counter || split.n_split_max <= 1) return 1;
    // One wave: as many ranges as the SMs' block slots allow (blocks per SM from the kernel's shared memory and
    // the SM's, with 1 KB per block that the runtime reserves).
    const size_t per_block = absorbed_smem_bytes<__half>(D, absorbed_config(D)) + kStaticSmemReserve + 1024;
    const int per_sm = std::max(1, int(size_t(max_smem_per_sm()) / per_block));
    int n = int(std::min<int64_t>(std::min(kMaxDecodeSplits, split.n_split_max),
                                  int64_t(per_sm) * split.n_sm / blocks));
    const size_t per_split = size_t(blocks) * kHeads * (D + 2);  // floats of one split's partials, all blocks
    while (n > 1 && (size_t(n) * per_split > split.n_part_floats || blocks > split.n_counters)) --n;
    return std::max(1, n);
}

bool cross_attention_absorbed_supports(DType dt, int D, int K) {
    return attention_supports(dt, D) && K % 32 == 0 && K > 0;
}

void absorbed_attention_cuda(DType dt, const void* qp, const void* enc, const int* src_row, const int* src_len, int R,
                             int H, int D, int S_max, const DecodeState* state, void* cp, cudaStream_t stream,
                             const DecodeAttnSplit* split) {
    if (R <= 0) return;
    RECEIPT_CHECK(attention_supports(dt, D), InvalidInput,
                  "absorbed_attention_cuda: needs f16 / bf16 and d_model 256 / 384 / 512 / 768 / 1024, got " +
                      std::to_string(D));
    RECEIPT_CHECK(aligned16(qp) && aligned16(enc) && aligned16(cp), InvalidInput,
                  "absorbed_attention_cuda: buffers must be 16-byte aligned");
    // Split over keys when the (row, head group) blocks leave SMs idle.
    const int n_groups = (H + kHeads - 1) / kHeads;
    const int n_split = split ? absorbed_n_split(*split, R, n_groups, D) : 1;
    const Launch a{qp, enc, src_row, src_len, R, H, D, S_max, n_split, state,
                   n_split > 1 ? split->part : nullptr, n_split > 1 ? split->counter : nullptr, cp};
    const AbsorbedConfig c = absorbed_config(D);
    if (dt == DType::kF16)
        launch_attention<__half>(a, c, stream);
    else
        launch_attention<__nv_bfloat16>(a, c, stream);
}

void cross_attention_absorbed_cuda(DType dt, const void* q, const void* enc, const void* wk_t, const void* wv,
                                   const int* src_row, const int* src_len, int R, int H, int K, int D, int S_max,
                                   const DecodeState* state, void* qp, void* cp, void* ctx, cudaStream_t stream,
                                   const DecodeAttnSplit* split) {
    if (R <= 0) return;
    RECEIPT_CHECK(cross_attention_absorbed_supports(dt, D, K), InvalidInput,
                  "cross_attention_absorbed_cuda: needs f16 / bf16, d_model 256 / 384 / 512 / 768 / 1024 and d_kv a "
                  "multiple of 32 (d_model " + std::to_string(D) + ", d_kv " + std::to_string(K) + ")");
    RECEIPT_CHECK(aligned16(q) && aligned16(enc) && aligned16(wk_t) && aligned16(wv) && aligned16(qp) &&
                      aligned16(cp),
                  InvalidInput, "cross_attention_absorbed_cuda: buffers must be 16-byte aligned");
    const int HK = H * K;
    // 1. q'_h [R, D] = q_h [R, K] . WkT_h^T  (WkT_h: [D, K])
    gemm_mma_batched_cuda(dt, H, R, D, K, q, HK, K, wk_t, K, int64_t(D) * K, qp, H * D, D, stream);
    // 2. c'_h = softmax(q'_h . e_j) e_j
    absorbed_attention_cuda(dt, qp, enc, src_row, src_len, R, H, D, S_max, state, cp, stream, split);
    // 3. ctx_h [R, K] = c'_h [R, D] . Wv_h^T  (Wv_h: [K, D])
    gemm_mma_batched_cuda(dt, H, R, K, D, cp, H * D, D, wv, D, int64_t(K) * D, ctx, HK, K, stream);
}

}  // namespace receipt::cuda
