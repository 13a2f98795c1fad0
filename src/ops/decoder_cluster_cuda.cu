// Every decoder layer of a one-row decode step in one launch of one thread-block cluster (sm_90+): C CTAs (one per
// SM) that exchange activations through distributed shared memory and meet at hardware cluster barriers
// (barrier.cluster, ~0.2-0.3 us on an H200) instead of kernel boundaries or global-memory grid barriers (~1.4 us,
// docs/benchmarks.md).
//
// Each CTA keeps a replica of the row's f32 activations in shared memory: the residual stream resid [D], the
// normalised input x [D], qkv [3HK], the attention context ctx [HK] and the FFN hidden h [F]. Per layer, eight
// phases, each ending with a cluster barrier:
//   1 x = LN(resid; ln_self); CTA c computes its slice of qkv = W_qkv x, appends its k / v part to the cache at
//     position t (rounded to the cache type, the value every later step reads) and writes the slice into every CTA
//   2 self-attention: (head, key range) units spread over the CTAs; each writes its partial softmax state
//     (max m, sum l, acc [K]) into every CTA; after the barrier each CTA combines them into ctx
//   3 resid += W_o ctx (CTA c: its slice of the D outputs, written into every CTA)
//   4 x = LN(resid; ln_cross); q = W_q_cross x (slices)
//   5 cross-attention over the source's precomputed K/V (units as in 2), 6 resid += W_o_cross ctx
//   7 x = LN(resid; ln_ffn); h = act(W_i x) (relu, or gated: act(W_i0 x) * W_i1 x), 8 resid += W_wo h
// The weights of layer l + 1 (each CTA its own slices) and the K/V rows its units will read are asked of L2 at the
// start of layer l (cp.async.bulk.prefetch.L2 / prefetch.global.L2), so every phase's loads hit L2.
// Compute is f32 (weights widened as loaded); the KV cache and the cross K/V keep the engine's storage types.
#include <cuda_runtime.h>

#include <algorithm>

#include "cuda/cuda_check.h"
#include "ops/cuda_common.cuh"
#include "ops/cuda_launch.cuh"
#include "ops/t5_ops_cuda.h"

namespace receipt::cuda {

namespace {

constexpr int kThreads = 512;
constexpr int kWarps = kThreads / 32;
constexpr int kHeadDim = 64;
constexpr int kMinKeysPerUnit = 32;  // a key range of an attention unit holds at least this many keys

// This CTA's rank in its cluster, and the cluster's CTAs.
__device__ __forceinline__ int cluster_rank() {
    unsigned r = 0;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
#endif
    return int(r);
}
__device__ __forceinline__ int cluster_size() {
    unsigned n = 1;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("mov.u32 %0, %%cluster_nctarank;" : "=r"(n));
#endif
    return int(n);
}
// The generic address of the same shared-memory location p in CTA `rank` of the cluster (mapa).
__device__ __forceinline__ float* map_rank(float* p, int rank) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    uint64_t out;
    asm volatile("mapa.u64 %0, %1, %2;" : "=l"(out) : "l"(reinterpret_cast<uint64_t>(p)), "r"(rank));
    return reinterpret_cast<float*>(out);
#else
    return p;
#endif
}

__device__ __forceinline__ void cluster_barrier() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("barrier.cluster.arrive.release.aligned;\n\tbarrier.cluster.wait.acquire.aligned;" ::: "memory");
#endif
}

// Asks L2 for [p, p + bytes) (p 16-byte aligned, bytes a multiple of 16): one bulk prefetch per 64 KB piece,
// the pieces spread over the block's threads.
__device__ __forceinline__ void prefetch_range_l2(const void* p, size_t bytes) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    constexpr size_t kPiece = 64 * 1024;
    const size_t n = (bytes + kPiece - 1) / kPiece;
    for (size_t i = threadIdx.x; i < n; i += blockDim.x) {
        const size_t off = i * kPiece;
        const unsigned len = static_cast<unsigned>(min(kPiece, bytes - off));
        asm volatile("cp.async.bulk.prefetch.L2.global [%0], %1;" ::"l"(static_cast<const char*>(p) + off), "r"(len)
                     : "memory");
    }
#endif
}

// Sum over 8 consecutive f32 of x times the 8 weights packed in w (T = __half or __nv_bfloat16).
template <typename WT>
__device__ __forceinline__ float dot8(const uint4& w, const float* x) {
    const WT* e = reinterpret_cast<const WT*>(&w);
    const float4 a = *reinterpret_cast<const float4*>(x);
    const float4 b = *reinterpret_cast<const float4*>(x + 4);
    float s = to_f32(e[0]) * a.x;
    s = fmaf(to_f32(e[1]), a.y, s);
    s = fmaf(to_f32(e[2]), a.z, s);
    s = fmaf(to_f32(e[3]), a.w, s);
    s = fmaf(to_f32(e[4]), b.x, s);
    s = fmaf(to_f32(e[5]), b.y, s);
    s = fmaf(to_f32(e[6]), b.z, s);
    s = fmaf(to_f32(e[7]), b.w, s);
    return s;
}

// Rows [a, b) of y = W x for W [N, Din] (WT, row-major), x [Din] f32 in shared memory, Din a multiple of 8 with
// ceil(Din / 256) <= kCpl. Each warp takes groups of G consecutive rows and issues all their 16-byte loads before
// it uses any (G * kCpl loads in flight per lane). out(n, v) is called by every lane of the warp with the full sum.
template <int kCpl, typename WT, typename Out>
__device__ __forceinline__ void gemv_rows(const WT* __restrict__ W, int Din, int a, int b, const float* x, Out out) {
    constexpr int G = kCpl >= 16 ? 1 : 16 / kCpl;
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const int nch = Din / 8;
    for (int n0 = a + warp * G; n0 < b; n0 += kWarps * G) {
        uint4 w[G][kCpl];
#pragma unroll
        for (int g = 0; g < G; ++g)
#pragma unroll
            for (int k = 0; k < kCpl; ++k) {
                const int c = lane + 32 * k;
                if (n0 + g < b && c < nch)
                    w[g][k] = __ldg(reinterpret_cast<const uint4*>(W + int64_t(n0 + g) * Din) + c);
                else
                    w[g][k] = make_uint4(0, 0, 0, 0);
            }
#pragma unroll
        for (int g = 0; g < G; ++g) {
            float s = 0.0f;
#pragma unroll
            for (int k = 0; k < kCpl; ++k) {
                const int c = lane + 32 * k;
                if (c < nch) s += dot8<WT>(w[g][k], x + c * 8);
            }
            s = warp_sum(s);
            if (n0 + g < b) out(n0 + g, s);
        }
    }
}

// gemv_rows with kCpl = ceil(Din / 256) chosen at run time (supported: <= 16).
template <typename WT, typename Out>
__device__ __forceinline__ void gemv(const WT* W, int Din, int a, int b, const float* x, Out out) {
    const int cpl = (Din + 255) / 256;
    if (cpl <= 1) gemv_rows<1>(W, Din, a, b, x, out);
    else if (cpl == 2) gemv_rows<2>(W, Din, a, b, x, out);
    else if (cpl == 3) gemv_rows<3>(W, Din, a, b, x, out);
    else if (cpl == 4) gemv_rows<4>(W, Din, a, b, x, out);
    else if (cpl <= 8) gemv_rows<8>(W, Din, a, b, x, out);
    else gemv_rows<16>(W, Din, a, b, x, out);
}

// x = resid * rsqrt(mean(resid^2) + eps) * w, all [D] in shared memory but w (global f32). Ends synchronised.
__device__ __forceinline__ void layer_norm(const float* resid, const float* __restrict__ w, int D, float eps,
                                           float* x, float* red) {
    float ss = 0.0f;
    for (int i = threadIdx.x; i < D; i += blockDim.x) ss += resid[i] * resid[i];
    ss = block_sum(ss, red);
    const float inv = rsqrtf(ss / float(D) + eps);
    for (int i = threadIdx.x; i < D; i += blockDim.x) x[i] = resid[i] * inv * w[i];
    __syncthreads();
}

// The slice [a, b) of n outputs that CTA c of C computes.
__device__ __forceinline__ void slice(int n, int c, int C, int& a, int& b) {
    a = int(int64_t(n) * c / C);
    b = int(int64_t(n) * (c + 1) / C);
}

struct Layer {
    const float* ln_self;
    const void* qkv;
    const void* o;
    const float* ln_cross;
    const void* q_cross;
    const void* o_cross;
    const float* ln_ffn;
    const void* wi;
    const void* wo;
};

struct Params {
    Layer layers[kClusterDecoderMaxLayers];
    int L, D, H, F;
    int gated, gelu;
    float eps;
    float* resid;             // [D] f32, row 0 of the step's residual stream: in and out
    void* cache;              // [2L, R_max, H, T_max, 64] CT (layer l: k at 2l, v at 2l + 1); row 0 used
    int64_t cache_slab;       // elements per (layer, k|v) slab: R_max * H * T_max * 64
    int T_max;
    const void* cross_kv;     // per layer a slab of cross_slab_bytes: rows (b * S + j) of [k (HK) | v (HK)], XT
    int64_t cross_slab_bytes;
    const float* bias;        // [H, T_max] f32 by distance t - j
    const int* src_row;       // [1]: the row's source b
    const int* src_len;       // [B]: valid keys of each source
    const DecodeState* state;
    int max_keys;             // max(S_max, T_max): bound on a unit's keys
};

// Shared memory of a CTA, in floats.
struct Smem {
    float *resid, *x, *qkv, *ctx, *h, *g0, *g1, *part, *score, *acc, *red;
    __device__ Smem(float* base, const Params& p, int n_units, int C) {
        const int HK = p.H * kHeadDim, slice_max = p.F / C + 1;
        resid = base;
        x = resid + p.D;
        qkv = x + p.D;
        ctx = qkv + 3 * HK;
        h = ctx + HK;
        g0 = h + p.F;
        g1 = g0 + slice_max;
        part = g1 + slice_max;
        score = part + n_units * (kHeadDim + 2);
        acc = score + p.max_keys;
        red = acc + kWarps * kHeadDim;
    }
    __host__ __device__ static size_t floats(int D, int H, int F, int max_keys, int n_units, int C) {
        const int HK = H * kHeadDim;
        return size_t(2) * D + 4 * HK + F + 2 * (F / C + 1) + size_t(n_units) * (kHeadDim + 2) + max_keys +
               kWarps * kHeadDim + 32 + 4;  // + 4: rounding of the float4 reads
    }
};

// Key ranges per head: enough units to give every CTA one, each at least kMinKeysPerUnit keys.
__host__ __device__ __forceinline__ int units_per_head(int n_keys, int H, int C) {
    const int want = (C + H - 1) / H;
    const int most = max(1, n_keys / kMinKeysPerUnit);
    return max(1, min(want, most));
}

// One attention unit: head h over keys [j0, j1) of rows k_rows / v_rows (KT, row stride `stride` elements), plus
// (self-attention) the key at position t_cur from shared memory when j1 > t_cur. q [64] f32 in shared memory.
// scores: bias[t - j] added when bias != null. Writes (m, l, acc[64]) into part_slot of every CTA of the cluster.
template <typename KT>
__device__ void attend_unit(const float* q, const KT* __restrict__ k_rows, const KT* __restrict__ v_rows,
                            int64_t stride, int j0, int j1, int t_cur, const float* k_cur, const float* v_cur,
                            const float* __restrict__ bias, int t, Smem& sm, int part_slot, int C) {
    const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
    const int n = max(0, j1 - j0);
    // Scores, one key per thread.
    float mx = -INFINITY;
    for (int i = tid; i < n; i += kThreads) {
        const int j = j0 + i;
        float s = 0.0f;
        if (j == t_cur) {
            for (int d = 0; d < kHeadDim; ++d) s = fmaf(q[d], k_cur[d], s);
        } else {
            const KT* kr = k_rows + int64_t(j) * stride;
#pragma unroll
            for (int d = 0; d < kHeadDim; d += 8) {
                float kv[8];
                load8(kr + d, kv);
#pragma unroll
                for (int e = 0; e < 8; ++e) s = fmaf(q[d + e], kv[e], s);
            }
        }
        if (bias) s += bias[t - j];
        sm.score[i] = s;
        mx = fmaxf(mx, s);
    }
    mx = block_max(mx, sm.red);
    float sum = 0.0f;
    for (int i = tid; i < n; i += kThreads) {
        const float e = expf(sm.score[i] - mx);
        sm.score[i] = e;
        sum += e;
    }
    sum = block_sum(sum, sm.red);  // ends with every score visible
    // P . V: warp w takes keys w, w + 16, ...; lane the dims 2 lane, 2 lane + 1.
    float a0 = 0.0f, a1 = 0.0f;
    for (int i = warp; i < n; i += kWarps) {
        const int j = j0 + i;
        const float p = sm.score[i];
        float v0, v1;
        if (j == t_cur) {
            v0 = v_cur[2 * lane];
            v1 = v_cur[2 * lane + 1];
        } else {
            const KT* vr = v_rows + int64_t(j) * stride + 2 * lane;
            v0 = to_f32(vr[0]);
            v1 = to_f32(vr[1]);
        }
        a0 = fmaf(p, v0, a0);
        a1 = fmaf(p, v1, a1);
    }
    sm.acc[warp * kHeadDim + 2 * lane] = a0;
    sm.acc[warp * kHeadDim + 2 * lane + 1] = a1;
    __syncthreads();
    // Out: slot = [m, l, acc 64] into every CTA.
    for (int i = tid; i < C * (kHeadDim + 2); i += kThreads) {
        const int dst = i / (kHeadDim + 2), e = i % (kHeadDim + 2);
        float v;
        if (e == 0) v = mx;
        else if (e == 1) v = sum;
        else {
            v = 0.0f;
            for (int w = 0; w < kWarps; ++w) v += sm.acc[w * kHeadDim + e - 2];
        }
        float* remote = map_rank(sm.part + part_slot * (kHeadDim + 2), dst);
        remote[e] = v;
    }
    __syncthreads();  // sm.acc / sm.score are reused by the next unit
}

// ctx[h * 64 + d] from the n_per_head partial states of each head (units u = h * n_per_head + i).
__device__ __forceinline__ void combine_units(const Smem& sm, int H, int n_per_head) {
    for (int i = threadIdx.x; i < H * kHeadDim; i += kThreads) {
        const int hh = i / kHeadDim, d = i % kHeadDim;
        const float* p0 = sm.part + hh * n_per_head * (kHeadDim + 2);
        float M = -INFINITY;
        for (int u = 0; u < n_per_head; ++u) M = fmaxf(M, p0[u * (kHeadDim + 2)]);
        float l = 0.0f, a = 0.0f;
        for (int u = 0; u < n_per_head; ++u) {
            const float* pu = p0 + u * (kHeadDim + 2);
            if (pu[1] == 0.0f) continue;  // an empty unit
            const float s = expf(pu[0] - M);
            l = fmaf(s, pu[1], l);
            a = fmaf(s, pu[2 + d], a);
        }
        sm.ctx[i] = l > 0.0f ? a / l : 0.0f;
    }
    __syncthreads();
}

__device__ __forceinline__ float gelu_new(float x) {
    return 0.5f * x * (1.0f + tanhf(0.7978845608028654f * (x + 0.044715f * x * x * x)));
}

// Asks L2 for layer l's weight slices of CTA c, and for the K/V rows its attention units will read.
template <typename WT, typename CT, typename XT>
__device__ void prefetch_layer(const Params& p, int l, int c, int C, int t, int src, int S, int len) {
    const Layer& Ly = p.layers[l];
    const int D = p.D, HK = p.H * kHeadDim, F = p.F;
    int a, b;
    slice(3 * HK, c, C, a, b);
    prefetch_range_l2(static_cast<const WT*>(Ly.qkv) + int64_t(a) * D, size_t(b - a) * D * sizeof(WT));
    slice(D, c, C, a, b);
    prefetch_range_l2(static_cast<const WT*>(Ly.o) + int64_t(a) * HK, size_t(b - a) * HK * sizeof(WT));
    prefetch_range_l2(static_cast<const WT*>(Ly.o_cross) + int64_t(a) * HK, size_t(b - a) * HK * sizeof(WT));
    prefetch_range_l2(static_cast<const WT*>(Ly.wo) + int64_t(a) * F, size_t(b - a) * F * sizeof(WT));
    slice(HK, c, C, a, b);
    prefetch_range_l2(static_cast<const WT*>(Ly.q_cross) + int64_t(a) * D, size_t(b - a) * D * sizeof(WT));
    slice(F, c, C, a, b);
    prefetch_range_l2(static_cast<const WT*>(Ly.wi) + int64_t(a) * D, size_t(b - a) * D * sizeof(WT));
    if (p.gated)
        prefetch_range_l2(static_cast<const WT*>(Ly.wi) + int64_t(F + a) * D, size_t(b - a) * D * sizeof(WT));
    // This CTA's share of the source's cross K/V rows (contiguous), and of the cached self-attention rows.
    const char* kv = static_cast<const char*>(p.cross_kv) + l * p.cross_slab_bytes +
                     int64_t(src) * S * 2 * HK * sizeof(XT);
    const size_t kv_bytes = size_t(len) * 2 * HK * sizeof(XT);
    const size_t piece = ((kv_bytes + C - 1) / C + 15) & ~size_t(15);
    const size_t off = min(kv_bytes, piece * c);
    prefetch_range_l2(kv + off, min(piece, kv_bytes - off));
    for (int hh = c; hh < 2 * p.H; hh += C) {  // k of head hh, or v of head hh - H
        const int head = hh % p.H, which = hh / p.H;
        const CT* rows = static_cast<const CT*>(p.cache) + (2 * l + which) * p.cache_slab +
                         int64_t(head) * p.T_max * kHeadDim;
        prefetch_range_l2(rows, (size_t(t) * kHeadDim * sizeof(CT) + 15) & ~size_t(15));
    }
}

template <typename WT, typename CT, typename XT>
__global__ void __launch_bounds__(kThreads, 1) decoder_cluster_kernel(const __grid_constant__ Params p) {
    extern __shared__ __align__(16) float smem_f[];
    const int C = cluster_size(), c = cluster_rank();
    const int tid = threadIdx.x, lane = tid & 31;
    const int D = p.D, H = p.H, HK = H * kHeadDim, F = p.F;
    const int t = p.state->step, S = p.state->src_stride;
    const int src = p.src_row[0];
    const int len = min(p.src_len[src], S);
    const int ns_self = units_per_head(t + 1, H, C), ns_cross = units_per_head(len, H, C);
    const int n_units = H * max(units_per_head(p.max_keys, H, C), 1);
    Smem sm(smem_f, p, n_units, C);
    if (t < 0 || t >= p.T_max) return;  // cannot happen when the host checks max_new_tokens (every CTA returns)

    prefetch_layer<WT, CT, XT>(p, 0, c, C, t, src, S, len);
    for (int i = tid; i < D; i += kThreads) sm.resid[i] = p.resid[i];
    __syncthreads();
    // Writes v into element i of `buf` in every CTA (lanes 0..C-1 of a warp each take one CTA).
    auto bcast = [&](float* buf, int i, float v) {
        if (lane < C) map_rank(buf, lane)[i] = v;
    };
    const XT* cross_base = static_cast<const XT*>(p.cross_kv);

    for (int l = 0; l < p.L; ++l) {
        const Layer& Ly = p.layers[l];
        if (l + 1 < p.L) prefetch_layer<WT, CT, XT>(p, l + 1, c, C, t, src, S, len);
        CT* ck = static_cast<CT*>(p.cache) + (2 * l) * p.cache_slab;
        CT* cv = static_cast<CT*>(p.cache) + (2 * l + 1) * p.cache_slab;
        int a, b;
        // 1: qkv.
        layer_norm(sm.resid, Ly.ln_self, D, p.eps, sm.x, sm.red);
        slice(3 * HK, c, C, a, b);
        gemv(static_cast<const WT*>(Ly.qkv), D, a, b, sm.x, [&](int n, float v) {
            if (n >= HK) {  // k or v of head hh at position t: the cache keeps it rounded to CT
                const int m = n - HK, which = m / HK, hh = (m % HK) / kHeadDim, d = m % kHeadDim;
                const CT r = from_f32<CT>(v);
                v = to_f32(r);
                if (lane == 0) ((which == 0) ? ck : cv)[(int64_t(hh) * p.T_max + t) * kHeadDim + d] = r;
            }
            bcast(sm.qkv, n, v);
        });
        cluster_barrier();
        // 2: self-attention over positions 0..t.
        for (int u = c; u < H * ns_self; u += C) {
            const int hh = u / ns_self, i = u % ns_self;
            const int j0 = int(int64_t(t + 1) * i / ns_self), j1 = int(int64_t(t + 1) * (i + 1) / ns_self);
            const int64_t off = int64_t(hh) * p.T_max * kHeadDim;
            attend_unit<CT>(sm.qkv + hh * kHeadDim, ck + off, cv + off, kHeadDim, j0, j1, t,
                            sm.qkv + HK + hh * kHeadDim, sm.qkv + 2 * HK + hh * kHeadDim, p.bias + hh * p.T_max, t,
                            sm, u, C);
        }
        cluster_barrier();
        combine_units(sm, H, ns_self);
        // 3: resid += W_o ctx.
        slice(D, c, C, a, b);
        gemv(static_cast<const WT*>(Ly.o), HK, a, b, sm.ctx, [&](int n, float v) { bcast(sm.resid, n, sm.resid[n] + v); });
        cluster_barrier();
        // 4: q_cross.
        layer_norm(sm.resid, Ly.ln_cross, D, p.eps, sm.x, sm.red);
        slice(HK, c, C, a, b);
        gemv(static_cast<const WT*>(Ly.q_cross), D, a, b, sm.x, [&](int n, float v) { bcast(sm.qkv, n, v); });
        cluster_barrier();
        // 5: cross-attention over the source's len keys.
        {
            const XT* kv = reinterpret_cast<const XT*>(reinterpret_cast<const char*>(cross_base) +
                                                       l * p.cross_slab_bytes) +
                           int64_t(src) * S * 2 * HK;
            for (int u = c; u < H * ns_cross; u += C) {
                const int hh = u / ns_cross, i = u % ns_cross;
                const int j0 = int(int64_t(len) * i / ns_cross), j1 = int(int64_t(len) * (i + 1) / ns_cross);
                attend_unit<XT>(sm.qkv + hh * kHeadDim, kv + hh * kHeadDim, kv + HK + hh * kHeadDim, 2 * HK, j0, j1,
                                -1, nullptr, nullptr, nullptr, 0, sm, u, C);
            }
        }
        cluster_barrier();
        combine_units(sm, H, ns_cross);
        // 6: resid += W_o_cross ctx.
        slice(D, c, C, a, b);
        gemv(static_cast<const WT*>(Ly.o_cross), HK, a, b, sm.ctx,
             [&](int n, float v) { bcast(sm.resid, n, sm.resid[n] + v); });
        cluster_barrier();
        // 7: h = act(W_i x).
        layer_norm(sm.resid, Ly.ln_ffn, D, p.eps, sm.x, sm.red);
        slice(F, c, C, a, b);
        const WT* wi = static_cast<const WT*>(Ly.wi);
        if (p.gated) {
            gemv(wi, D, a, b, sm.x, [&](int n, float v) {
                if (lane == 0) sm.g0[n - a] = p.gelu ? gelu_new(v) : fmaxf(v, 0.0f);
            });
            gemv(wi + int64_t(F) * D, D, a, b, sm.x, [&](int n, float v) {
                if (lane == 0) sm.g1[n - a] = v;
            });
            __syncthreads();
            for (int i = tid; i < (b - a) * C; i += kThreads) {
                const int n = a + i / C, dst = i % C;
                map_rank(sm.h, dst)[n] = sm.g0[n - a] * sm.g1[n - a];
            }
        } else {
            gemv(wi, D, a, b, sm.x, [&](int n, float v) { bcast(sm.h, n, fmaxf(v, 0.0f)); });
        }
        cluster_barrier();
        // 8: resid += W_wo h.
        slice(D, c, C, a, b);
        gemv(static_cast<const WT*>(Ly.wo), F, a, b, sm.h, [&](int n, float v) { bcast(sm.resid, n, sm.resid[n] + v); });
        cluster_barrier();
    }
    int a, b;
    slice(D, c, C, a, b);
    for (int i = a + tid; i < b; i += kThreads) p.resid[i] = sm.resid[i];
}

template <typename WT, typename CT, typename XT>
void launch(const Params& p, int C, size_t smem, cudaStream_t stream) {
    auto kernel = decoder_cluster_kernel<WT, CT, XT>;
    static bool attr_set = false;  // per instantiation; the attribute calls are idempotent, the flag saves them
    if (!attr_set) {
        RECEIPT_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
        RECEIPT_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, 200 * 1024));
        attr_set = true;
    }
    cudaLaunchAttribute attr[1];
    attr[0].id = cudaLaunchAttributeClusterDimension;
    attr[0].val.clusterDim.x = unsigned(C);
    attr[0].val.clusterDim.y = 1;
    attr[0].val.clusterDim.z = 1;
    cudaLaunchConfig_t cfg{};
    cfg.gridDim = dim3(unsigned(C));
    cfg.blockDim = dim3(kThreads);
    cfg.dynamicSmemBytes = smem;
    cfg.stream = stream;
    cfg.attrs = attr;
    cfg.numAttrs = 1;
    const cudaError_t err = cudaLaunchKernelEx(&cfg, kernel, p);
    if (err != cudaSuccess) {
        (void)cudaGetLastError();
        throw CudaError(cuda_error_text(err, "cudaLaunchKernelEx (decoder cluster)"), __FILE__, __LINE__);
    }
}

template <typename WT, typename CT, typename XT>
int max_clusters(int C, size_t smem) {
    auto kernel = decoder_cluster_kernel<WT, CT, XT>;
    if (cudaFuncSetAttribute(kernel, cudaFuncAttributeNonPortableClusterSizeAllowed, 1) != cudaSuccess ||
        cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, 200 * 1024) != cudaSuccess) {
        (void)cudaGetLastError();
        return 0;
    }
    cudaLaunchAttribute attr[1];
    attr[0].id = cudaLaunchAttributeClusterDimension;
    attr[0].val.clusterDim.x = unsigned(C);
    attr[0].val.clusterDim.y = 1;
    attr[0].val.clusterDim.z = 1;
    cudaLaunchConfig_t cfg{};
    cfg.gridDim = dim3(unsigned(C));
    cfg.blockDim = dim3(kThreads);
    cfg.dynamicSmemBytes = smem;
    cfg.attrs = attr;
    cfg.numAttrs = 1;
    int n = 0;
    if (cudaOccupancyMaxActiveClusters(&n, kernel, &cfg) != cudaSuccess) {
        (void)cudaGetLastError();
        return 0;
    }
    return n;
}

// Calls f.template operator()<WT, CT, XT>() for the supported type triples; false for the others.
template <typename F>
bool dispatch(DType wdt, DType cdt, DType xdt, F&& f) {
    const bool half_w = wdt == DType::kF16, bf_w = wdt == DType::kBF16;
    if (!half_w && !bf_w) return false;
    auto with_w = [&](auto w_tag) -> bool {
        using WT = decltype(w_tag);
        if (cdt == wdt && xdt == wdt) return f(WT{}, WT{}, WT{}), true;
        if (cdt == DType::kF32 && xdt == DType::kF32) return f(WT{}, float{}, float{}), true;
        if (cdt == DType::kF32 && xdt == wdt) return f(WT{}, float{}, WT{}), true;
        return false;
    };
    return half_w ? with_w(__half{}) : with_w(__nv_bfloat16{});
}

size_t smem_bytes(const ClusterDecoderShape& s, int C) {
    const int n_units = s.H * std::max(units_per_head(std::max(s.S_max, s.T_max), s.H, C), 1);
    return Smem::floats(s.D, s.H, s.F, std::max(s.S_max, s.T_max), n_units, C) * sizeof(float);
}

}  // namespace

int decoder_cluster_size(const ClusterDecoderShape& s, DType wdt, DType cdt, DType xdt) {
    if (s.K != kHeadDim || s.L < 1 || s.L > kClusterDecoderMaxLayers || s.D % 8 != 0 || s.F % 8 != 0 ||
        s.D > 4096 || s.F > 4096 || s.H * kHeadDim > 4096)
        return 0;
    int dev = 0, major = 0;
    if (cudaGetDevice(&dev) != cudaSuccess || cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev) !=
                                                  cudaSuccess) {
        (void)cudaGetLastError();
        return 0;
    }
    if (major < 9) return 0;
    for (int C : {16, 8}) {
        const size_t smem = smem_bytes(s, C);
        if (smem > 200 * 1024) continue;
        int n = 0;
        const bool ok = dispatch(wdt, cdt, xdt, [&](auto w, auto c, auto x) {
            n = max_clusters<decltype(w), decltype(c), decltype(x)>(C, smem);
        });
        if (ok && n >= 1) return C;
    }
    return 0;
}

void decoder_cluster_cuda(const ClusterDecoderArgs& a, int C, cudaStream_t stream) {
    const ClusterDecoderShape& s = a.shape;
    RECEIPT_CHECK(s.L >= 1 && s.L <= kClusterDecoderMaxLayers && s.K == kHeadDim && C >= 1 && C <= 16,
                  InvalidInput, "decoder_cluster_cuda: unsupported shape");
    Params p{};
    for (int l = 0; l < s.L; ++l) {
        const ClusterDecoderLayer& w = a.layers[size_t(l)];
        p.layers[l] = Layer{w.ln_self, w.qkv, w.o, w.ln_cross, w.q_cross, w.o_cross, w.ln_ffn, w.wi, w.wo};
    }
    p.L = s.L;
    p.D = s.D;
    p.H = s.H;
    p.F = s.F;
    p.gated = a.gated ? 1 : 0;
    p.gelu = a.gelu ? 1 : 0;
    p.eps = a.eps;
    p.resid = a.resid;
    p.cache = a.cache;
    p.cache_slab = int64_t(s.R_max) * s.H * s.T_max * kHeadDim;
    p.T_max = s.T_max;
    p.cross_kv = a.cross_kv;
    p.cross_slab_bytes = a.cross_slab_bytes;
    p.bias = a.bias;
    p.src_row = a.src_row;
    p.src_len = a.src_len;
    p.state = a.state;
    p.max_keys = std::max(s.S_max, s.T_max);
    const size_t smem = smem_bytes(s, C);
    const bool ok = dispatch(a.wdt, a.cdt, a.xdt, [&](auto w, auto c, auto x) {
        launch<decltype(w), decltype(c), decltype(x)>(p, C, smem, stream);
    });
    RECEIPT_CHECK(ok, InvalidInput, "decoder_cluster_cuda: unsupported storage types");
}

}  // namespace receipt::cuda
