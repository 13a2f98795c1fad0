// Greedy decoding of one sequence in one persistent kernel (see persistent_decode_cuda.h for the design).
//
// Grid: one block of kThreads per SM, co-resident (cooperative launch). Every block walks the same phase list;
// a phase's work is spread over all warps of the grid, and GridBarrier::sync() separates phases. Per step t:
//   for each layer l:
//     qkv      x = norm(resid) (layer 0: the embedding of the token chosen last); q -> scratch, k, v -> cache[t]
//     self     (head, 32-key range) items over keys 0..t: partial softmax results (m, l, o)
//     o        x = the combined attention output; resid += o x
//     q_cross  x = norm(resid); q = q_cross x
//     cross    (head, 32-key range) items over the source keys
//     o_cross  resid += o_cross x
//     wi       x = norm(resid); h = wi x
//     wo       x = act(h); resid += wo x
//   lm_head    x = norm(resid) * lm_scale; each block keeps the argmax and the sum of exp over its columns
// after whose barrier every block merges the per-block results in the same order, so all of them know the token
// (and its log-probability) without another barrier. Data written by other blocks in this launch is read with
// ld.global.cg (L2), weights and the cross K/V (written before the launch) through the read-only path.
#include "ops/persistent_decode_cuda.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <algorithm>
#include <string>

#include "cuda/cuda_check.h"
#include "ops/cuda_common.cuh"
#include "ops/t5_ops_cuda.h"
#include "receipt/errors.h"

namespace receipt::cuda {

namespace {

constexpr int kThreads = 256, kWarps = kThreads / 32;
constexpr int kSlots = 16;               // 16-byte weight chunks each lane has in flight in one GEMV pass
constexpr int kMaxK = 32 * 8 * kSlots;   // 4096: widest GEMV input (one pass holds a whole row of 16-bit weights)
constexpr int kRangeKeys = 32;           // keys of one attention work item (one warp)
constexpr int kMaxRanges = 32;           // per head: the combine reads them with one warp
constexpr int kMaxKeys = kRangeKeys * kMaxRanges;
constexpr int kMaxHeads = 64;
constexpr int kMaxTrace = 1024;  // the last entry: cycles of 64 bare barriers

// Scratch carve-up (floats, each part rounded up to 4 floats).
struct Scratch {
    float* resid;  // [D] residual stream
    float* q;      // [H K] query of the current attention
    float* h;      // [F or 2F] FFN hidden state before the activation
    float* part;   // [H, kMaxRanges, K + 2] attention partials (m, l, o[0:K])
    float* lm;     // [n_blocks, 4] lm_head partials (m, s, idx bits)
};

__host__ __device__ inline size_t round4(size_t n) { return (n + 3) / 4 * 4; }

__host__ __device__ inline Scratch carve(float* base, int D, int HK, int Fh, int H, int K) {
    Scratch s;
    s.resid = base;
    s.q = s.resid + round4(D);
    s.h = s.q + round4(HK);
    s.part = s.h + round4(Fh);
    s.lm = s.part + round4(size_t(H) * kMaxRanges * (K + 2));
    return s;
}

__device__ __forceinline__ unsigned ld_acquire_gpu(const unsigned* p) {
    unsigned v;
    asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
    return v;
}
__device__ __forceinline__ void st_release_gpu(unsigned* p, unsigned v) {
    asm volatile("st.release.gpu.global.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}
__device__ __forceinline__ unsigned atom_add_acq_rel_gpu(unsigned* p, unsigned v) {
    unsigned old;
    asm volatile("atom.acq_rel.gpu.global.add.u32 %0, [%1], %2;" : "=r"(old) : "l"(p), "r"(v) : "memory");
    return old;
}

// Grid-wide barrier: blocks count their arrival on `count`; the last to arrive resets it and publishes the next
// generation on `gen` (another 128-byte line, so the waiting blocks' polls do not slow the arrivals). The
// acquire / release chain (block threads -> bar.sync -> arrival -> last arrival -> gen -> pollers -> bar.sync)
// makes every write before the barrier visible to every block after it. Both words start at zero.
struct GridBarrier {
    unsigned* count;
    unsigned* gen;
    unsigned g;  // generation this block waits to see pass (thread 0's copy)
    __device__ __forceinline__ void sync() {
        __syncthreads();
        if (threadIdx.x == 0) {
            if (atom_add_acq_rel_gpu(count, 1u) == gridDim.x - 1) {
                *count = 0u;  // ordered before the release below; nobody arrives again before seeing it
                st_release_gpu(gen, g + 1);
            } else {
                while (ld_acquire_gpu(gen) == g) {
                }
            }
            ++g;
        }
        __syncthreads();
    }
};

// Asks this SM's L1 for the weight lines this warp's first `passes` GEMV passes over w [n, k] will read (see
// gemv()): issued before a barrier, the loads after it hit L1 instead of waiting for memory.
template <typename W>
__device__ __forceinline__ void prefetch_gemv(const W* w, int n, int k, int passes = 2) {
    const int lane = threadIdx.x & 31;
    const int gw = blockIdx.x * kWarps + (threadIdx.x >> 5), GW = gridDim.x * kWarps;
    const int nch = k >> 3, cpl = (nch + 31) >> 5, U = kSlots / cpl, lines = (k + 63) / 64;  // 64 W per line
    for (int p = 0, j0 = gw; p < passes && j0 < n; ++p, j0 += U * GW)
        for (int u = 0; u < U && j0 + u * GW < n; ++u)
            for (int line = lane; line < lines; line += 32) prefetch_l2(w + int64_t(j0 + u * GW) * k + line * 64);
}

// The 16 / sizeof(T) values of a 16-byte chunk as f32.
template <typename T>
__device__ __forceinline__ void unpack(const uint4& u, float* f) {
    const T* e = reinterpret_cast<const T*>(&u);
#pragma unroll
    for (int i = 0; i < int(16 / sizeof(T)); ++i) f[i] = to_f32(e[i]);
}

// sum_i w[i] x[i] over one chunk of 8 16-bit weights and x[0:8] (shared memory, f32).
template <typename W>
__device__ __forceinline__ float dot_chunk(const uint4& u, const float* x) {
    float w[8];
    unpack<W>(u, w);
    const float4 a = *reinterpret_cast<const float4*>(x), b = *reinterpret_cast<const float4*>(x + 4);
    return w[0] * a.x + w[1] * a.y + w[2] * a.z + w[3] * a.w + w[4] * b.x + w[5] * b.y + w[6] * b.z + w[7] * b.w;
}

// Online (max, sum of exp, first argmax) of logits; merge() is commutative, so every order of merging gives
// the same (m, s, idx) bit for bit when the same pairs are merged.
struct Best {
    float m = -INFINITY, s = 0.0f;
    int idx = 0x7fffffff;
    __device__ __forceinline__ void add(float v, int j) {  // j increasing for each lane
        if (v > m) {
            s = s * expf(m - v) + 1.0f;
            m = v;
            idx = j;
        } else {
            s += expf(v - m);
        }
    }
    __device__ __forceinline__ void merge(float m2, float s2, int i2) {
        if (m2 == -INFINITY) return;
        if (m == -INFINITY) {
            m = m2, s = s2, idx = i2;
        } else if (m2 > m) {
            s = s * expf(m - m2) + s2;
            m = m2;
            idx = i2;
        } else if (m2 < m) {
            s = s + s2 * expf(m2 - m);
        } else {
            s = s + s2;
            idx = min(idx, i2);
        }
    }
    __device__ __forceinline__ void warp_merge() {
        for (int o = 16; o > 0; o >>= 1) {
            const float m2 = __shfl_xor_sync(0xffffffffu, m, o), s2 = __shfl_xor_sync(0xffffffffu, s, o);
            const int i2 = __shfl_xor_sync(0xffffffffu, idx, o);
            merge(m2, s2, i2);
        }
    }
};

// Where a GEMV phase's outputs go (GemvOut::mode).
enum GemvMode : int {
    kToQkv = 0,    // j < HK: q[j]; then the keys and values of position t into the cache
    kAddResid = 1, // resid[j] += y_j
    kStore = 2,    // out[j] = y_j
    kArgmax = 3,   // lm_head: Best over the columns (column `skip` left out)
};
struct GemvOut {
    int mode;
    float* out;          // q / resid / h
    void* ck;            // kToQkv: this layer's cache rows (C)
    void* cv;
    int HK, K, T_max, t;
    int skip;            // kArgmax: the id left out (EOS under min_new_tokens), or -1
};

// y_j = x . w[j, :] for j in [0, n): x = xs[0:k] (shared memory, f32), w [n, k] W (k a multiple of 8, at most
// 32 * 8 * CPL). Columns go to the grid's warps round-robin (warp gw takes gw, gw + GW, ...), U = kSlots / CPL of
// them per pass with all their 16-byte loads (CPL per lane and column) in flight together. After the warp sums,
// lane u holds column j0 + u GW and stores it (one copy of the store code for every column of the pass). Kept out
// of line and compact: every GEMV phase of a step runs the same few instantiations, which stay in the
// instruction cache (inlined per phase, the kernel's code missed it at every phase).
template <typename W, typename C, int CPL>
__device__ __noinline__ void gemv_cpl(const W* __restrict__ w, int n, int k, const float* xs, const GemvOut& o,
                                      Best* best) {
    constexpr int U = kSlots / CPL;
    const int lane = threadIdx.x & 31;
    const int gw = blockIdx.x * kWarps + (threadIdx.x >> 5), GW = gridDim.x * kWarps;
    const int nch = k >> 3;
    for (int j0 = gw; j0 < n; j0 += U * GW) {
        uint4 buf[U][CPL];
#pragma unroll
        for (int u = 0; u < U; ++u)
#pragma unroll
            for (int q = 0; q < CPL; ++q) {
                const int c = lane + 32 * q, j = j0 + u * GW;
                if (j < n && c < nch) buf[u][q] = __ldg(reinterpret_cast<const uint4*>(w + int64_t(j) * k + c * 8));
            }
        float mine = 0.0f;
#pragma unroll
        for (int u = 0; u < U; ++u) {
            float acc = 0.0f;
#pragma unroll
            for (int q = 0; q < CPL; ++q) {
                const int c = lane + 32 * q;
                if (j0 + u * GW < n && c < nch) acc += dot_chunk<W>(buf[u][q], xs + c * 8);
            }
            acc = warp_sum(acc);
            if (lane == u) mine = acc;
        }
        const int j = j0 + lane * GW;
        if (lane >= U || j >= n) continue;
        switch (o.mode) {
            case kToQkv:
                if (j < o.HK) {
                    o.out[j] = mine;
                } else {
                    const int c = j - o.HK, which = c / o.HK, hk = c - which * o.HK, h = hk / o.K, d = hk - h * o.K;
                    static_cast<C*>(which ? o.cv : o.ck)[(int64_t(h) * o.T_max + o.t) * o.K + d] = from_f32<C>(mine);
                }
                break;
            case kAddResid: o.out[j] = __ldcg(o.out + j) + mine; break;
            case kStore: o.out[j] = mine; break;
            default:
                if (j != o.skip) best->add(mine, j);
                break;
        }
    }
}

// gemv_cpl with CPL = ceil(k / 256) rounded up to a power of two.
template <typename W, typename C>
__device__ __forceinline__ void gemv(const W* w, int n, int k, const float* xs, const GemvOut& o, Best* best) {
    const int cpl = ((k >> 3) + 31) >> 5;
    if (cpl <= 1) gemv_cpl<W, C, 1>(w, n, k, xs, o, best);
    else if (cpl <= 2) gemv_cpl<W, C, 2>(w, n, k, xs, o, best);
    else if (cpl <= 4) gemv_cpl<W, C, 4>(w, n, k, xs, o, best);
    else if (cpl <= 8) gemv_cpl<W, C, 8>(w, n, k, xs, o, best);
    else gemv_cpl<W, C, 16>(w, n, k, xs, o, best);
}

// xs[0:D] = xs * rsqrt(mean(xs^2) + eps) * w * scale (T5LayerNorm, then the lm_head scale). All threads.
__device__ __noinline__ void norm_in_place(float* xs, int D, const float* w, float eps, float scale, float* red) {
    float ss = 0.0f;
    for (int i = threadIdx.x; i < D; i += kThreads) ss += xs[i] * xs[i];
    ss = block_sum(ss, red);
    const float inv = rsqrtf(ss / float(D) + eps);
    for (int i = threadIdx.x; i < D; i += kThreads) xs[i] = xs[i] * inv * w[i] * scale;
    __syncthreads();
}

// xs[0:D] = norm(resid) (resid written by other blocks: read through L2). All threads.
__device__ __noinline__ void stage_norm(const float* resid, int D, const float* w, float eps, float scale, float* xs, float* red) {
    for (int i = threadIdx.x; i < D; i += kThreads) xs[i] = __ldcg(resid + i);
    __syncthreads();
    norm_in_place(xs, D, w, eps, scale, red);
}

// One warp: softmax attention of query qh [K] (f32, global) over keys [j0, j0 + n) (n <= 32) of one head. Key j
// at kp + j kstride, value at vp + j kstride (elements of C); bias: null, or bias[t - j] added to key j's score.
// Writes out = (m, l, o[0:K]): m = max score, l = sum exp(s_j - m), o = sum exp(s_j - m) v_j.
// Lanes: cpk = K / (16 / sizeof(C)) lanes per key (one 16-byte chunk each), 32 / cpk keys per pass.
template <typename C>
__device__ __forceinline__ void attend_range(const float* qh, const C* kp, const C* vp, int64_t kstride, int K, int j0, int n,
                             const float* bias, int t, float* out) {
    constexpr int E = 16 / sizeof(C);
    const int lane = threadIdx.x & 31, cpk = K / E, kpp = 32 / cpk, g = lane % cpk, sub = lane / cpk;
    const int passes = (n + kpp - 1) / kpp;  // <= cpk <= 16
    float qv[E];
#pragma unroll
    for (int e = 0; e < E; ++e) qv[e] = __ldcg(qh + g * E + e);
    auto load = [&](const C* p) { return __ldcg(reinterpret_cast<const uint4*>(p)); };
    uint4 buf[16];
#pragma unroll
    for (int p = 0; p < 16; ++p) {
        const int jj = sub + p * kpp;
        if (p < passes && jj < n) buf[p] = load(kp + int64_t(j0 + jj) * kstride + g * E);
    }
    float s[16];
    float m = -INFINITY;
#pragma unroll
    for (int p = 0; p < 16; ++p) {
        if (p >= passes) break;  // warp-uniform
        const int jj = sub + p * kpp;
        float d = 0.0f;
        if (jj < n) {
            float kf[E];
            unpack<C>(buf[p], kf);
#pragma unroll
            for (int e = 0; e < E; ++e) d += qv[e] * kf[e];
        }
        for (int o = 1; o < cpk; o <<= 1) d += __shfl_xor_sync(0xffffffffu, d, o);
        s[p] = jj < n ? d + (bias ? bias[t - (j0 + jj)] : 0.0f) : -INFINITY;
        m = fmaxf(m, s[p]);
    }
    for (int o = cpk; o < 32; o <<= 1) m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, o));
    float l = 0.0f;
#pragma unroll
    for (int p = 0; p < 16; ++p) {
        if (p >= passes) break;
        s[p] = s[p] == -INFINITY ? 0.0f : expf(s[p] - m);
        l += s[p];
    }
    for (int o = cpk; o < 32; o <<= 1) l += __shfl_xor_sync(0xffffffffu, l, o);
#pragma unroll
    for (int p = 0; p < 16; ++p) {
        const int jj = sub + p * kpp;
        if (p < passes && jj < n) buf[p] = load(vp + int64_t(j0 + jj) * kstride + g * E);
    }
    float acc[E];
#pragma unroll
    for (int e = 0; e < E; ++e) acc[e] = 0.0f;
#pragma unroll
    for (int p = 0; p < 16; ++p) {
        const int jj = sub + p * kpp;
        if (p < passes && jj < n) {
            float vf[E];
            unpack<C>(buf[p], vf);
#pragma unroll
            for (int e = 0; e < E; ++e) acc[e] += s[p] * vf[e];
        }
    }
#pragma unroll
    for (int e = 0; e < E; ++e)
        for (int o = cpk; o < 32; o <<= 1) acc[e] += __shfl_xor_sync(0xffffffffu, acc[e], o);
    if (sub == 0)
#pragma unroll
        for (int e = 0; e < E; ++e) out[2 + g * E + e] = acc[e];
    if (lane == 0) {
        out[0] = m;
        out[1] = l;
    }
}

// The (head, 32-key range) items of one attention over n_keys keys, spread over the grid's warps (blocks first).
// Head h's keys start at kbase + h head_stride, values at vbase + h head_stride; key j is kstride further.
template <typename C>
__device__ __noinline__ void attention_phase(const float* q, const C* kbase, const C* vbase, int64_t head_stride, int64_t kstride,
                                int n_keys, int H, int K, const float* bias, int T_max, int t, float* part) {
    const int nr = (n_keys + kRangeKeys - 1) / kRangeKeys, n_items = H * nr;
    for (int i = (threadIdx.x >> 5) * gridDim.x + blockIdx.x; i < n_items; i += gridDim.x * kWarps) {
        const int h = i / nr, r = i - h * nr, j0 = r * kRangeKeys;
        attend_range<C>(q + h * K, kbase + h * head_stride, vbase + h * head_stride, kstride, K, j0,
                                   min(kRangeKeys, n_keys - j0), bias ? bias + int64_t(h) * T_max : nullptr, t,
                                   part + (int64_t(h) * kMaxRanges + r) * (K + 2));
    }
}

// xs[h K + d] = the attention output of head h: its nr range partials combined,
//   M = max_r m_r,  o = sum_r exp(m_r - M) o_r / sum_r exp(m_r - M) l_r.   All threads.
__device__ __noinline__ void stage_attention(const float* part, int H, int K, int nr, float* xs, float* sh_w, float* sh_den) {
    const int lane = threadIdx.x & 31;
    for (int h = threadIdx.x >> 5; h < H; h += kWarps) {
        const float* ph = part + int64_t(h) * kMaxRanges * (K + 2);
        const float m = lane < nr ? __ldcg(ph + lane * (K + 2)) : -INFINITY;
        const float l = lane < nr ? __ldcg(ph + lane * (K + 2) + 1) : 0.0f;
        const float M = warp_max(m);
        const float wr = lane < nr ? expf(m - M) : 0.0f;
        const float den = warp_sum(wr * l);
        sh_w[h * kMaxRanges + lane] = wr;
        if (lane == 0) sh_den[h] = den;
    }
    __syncthreads();
    for (int i = threadIdx.x; i < H * K; i += kThreads) {
        const int h = i / K, d = i - h * K;
        const float* ph = part + int64_t(h) * kMaxRanges * (K + 2) + 2 + d;
        float acc = 0.0f;
        for (int r0 = 0; r0 < nr; r0 += 8) {  // 8 loads in flight
            float v[8];
#pragma unroll
            for (int r = 0; r < 8; ++r) v[r] = r0 + r < nr ? __ldcg(ph + (r0 + r) * (K + 2)) : 0.0f;
#pragma unroll
            for (int r = 0; r < 8; ++r)
                if (r0 + r < nr) acc += sh_w[h * kMaxRanges + r0 + r] * v[r];
        }
        xs[i] = acc / sh_den[h];
    }
    __syncthreads();
}

// Asks this SM's L1 for the key and value lines this warp's items of the next attention_phase() will read (data
// written before the launch only: the cross K/V).
template <typename C>
__device__ __forceinline__ void prefetch_attention(const C* kbase, const C* vbase, int64_t head_stride,
                                                   int64_t kstride, int n_keys, int H, int K) {
    const int nr = (n_keys + kRangeKeys - 1) / kRangeKeys, n_items = H * nr, lane = threadIdx.x & 31;
    const int lines = int((int64_t(K) * sizeof(C) + 127) / 128);
    for (int i = (threadIdx.x >> 5) * gridDim.x + blockIdx.x; i < n_items; i += gridDim.x * kWarps) {
        const int h = i / nr, j = (i - h * nr) * kRangeKeys + lane;
        if (j >= n_keys) continue;
        for (int line = 0; line < lines; ++line) {
            prefetch_l2(kbase + h * head_stride + j * kstride + line * (128 / int(sizeof(C))));
            prefetch_l2(vbase + h * head_stride + j * kstride + line * (128 / int(sizeof(C))));
        }
    }
}

// transformers NewGELUActivation: 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))).
__device__ __forceinline__ float gelu_tanh(float x) {
    const float k = 0.7978845608028654f;
    return 0.5f * x * (1.0f + tanhf(k * (x + 0.044715f * x * x * x)));
}

template <typename W, typename C, typename X>
__global__ void __launch_bounds__(kThreads, 1) persistent_decode_kernel(const PersistentDecodeArgs a) {
    __shared__ __align__(16) float xs[kMaxK];
    __shared__ float red[32];
    __shared__ float sh_w[kMaxHeads * kMaxRanges];
    __shared__ float sh_den[kMaxHeads];
    __shared__ float sh_best[kWarps * 3];

    const int D = a.D, H = a.H, K = a.K, HK = H * K, F = a.F, Fh = a.gated ? 2 * F : F, V = a.V, T_max = a.T_max;
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const Scratch sc = carve(a.scratch, D, HK, Fh, H, K);
    GridBarrier bar{a.barrier, a.barrier + 32, 0u};
    // Trace (a.trace): block 0's clock at each barrier of step a.trace_step.
    int n_trace = 0;
    auto mark = [&](int t) {
        if (a.trace && t == a.trace_step && blockIdx.x == 0 && threadIdx.x == 0 && n_trace < kMaxTrace)
            a.trace[n_trace++] = clock64();
    };
    const W* embed = static_cast<const W*>(a.embed);
    // This block's slice of the residual stream, written from the embedding at the start of each step.
    const int r0 = int(int64_t(D) * blockIdx.x / gridDim.x), r1 = int(int64_t(D) * (blockIdx.x + 1) / gridDim.x);

    const GemvOut add_resid{kAddResid, sc.resid};
    int tok = a.start_token;
    float score = 0.0f;
    if (a.trace) {  // the barrier alone: 64 of them
        const long long c0 = clock64();
        for (int i = 0; i < 64; ++i) bar.sync();
        if (blockIdx.x == 0 && threadIdx.x == 0) a.trace[kMaxTrace - 1] = clock64() - c0;
    }
    if (a.prefetch) prefetch_gemv(static_cast<const W*>(a.layers[0].qkv), 3 * HK, D);
    for (int t = 0; t < a.max_new; ++t) {
        mark(t);
        for (int l = 0; l < a.L; ++l) {
            const PersistentLayer& P = a.layers[l];
            const X* kv = static_cast<const X*>(P.cross_kv);
            // ---- qkv
            if (l == 0) {
                const W* row = embed + int64_t(tok >= 0 && tok < V ? tok : 0) * D;
                for (int i = threadIdx.x; i < D; i += kThreads) xs[i] = to_f32(row[i]);
                __syncthreads();
                for (int i = r0 + int(threadIdx.x); i < r1; i += kThreads) sc.resid[i] = xs[i];
                norm_in_place(xs, D, P.ln_self, a.eps, 1.0f, red);
            } else {
                stage_norm(sc.resid, D, P.ln_self, a.eps, 1.0f, xs, red);
            }
            C* ck = static_cast<C*>(P.cache_k);
            C* cv = static_cast<C*>(P.cache_v);
            mark(t);
            gemv<W, C>(static_cast<const W*>(P.qkv), 3 * HK, D, xs, GemvOut{kToQkv, sc.q, ck, cv, HK, K, T_max, t, -1},
                       nullptr);
            if (a.prefetch) prefetch_gemv(static_cast<const W*>(P.o), D, HK);
            mark(t);
            bar.sync();
            mark(t);
            // ---- self-attention over positions 0..t
            mark(t);
            attention_phase<C>(sc.q, ck, cv, int64_t(T_max) * K, K, t + 1, H, K, a.dec_bias, T_max, t, sc.part);
            if (a.prefetch) prefetch_gemv(static_cast<const W*>(P.q_cross), HK, D);
            mark(t);
            bar.sync();
            mark(t);
            // ---- o: resid += o . attn
            stage_attention(sc.part, H, K, (t + 1 + kRangeKeys - 1) / kRangeKeys, xs, sh_w, sh_den);
            mark(t);
            gemv<W, C>(static_cast<const W*>(P.o), D, HK, xs, add_resid, nullptr);
            if (a.prefetch) prefetch_attention(kv, kv + HK, K, 2 * int64_t(HK), a.src_len, H, K);
            mark(t);
            bar.sync();
            mark(t);
            // ---- q_cross
            stage_norm(sc.resid, D, P.ln_cross, a.eps, 1.0f, xs, red);
            mark(t);
            gemv<W, C>(static_cast<const W*>(P.q_cross), HK, D, xs, GemvOut{kStore, sc.q}, nullptr);
            if (a.prefetch) prefetch_gemv(static_cast<const W*>(P.o_cross), D, HK);
            mark(t);
            bar.sync();
            mark(t);
            // ---- cross-attention over the source keys
            mark(t);
            attention_phase<X>(sc.q, kv, kv + HK, K, 2 * int64_t(HK), a.src_len, H, K, nullptr, T_max, t,
                                      sc.part);
            if (a.prefetch) prefetch_gemv(static_cast<const W*>(P.wi), Fh, D);
            mark(t);
            bar.sync();
            mark(t);
            // ---- o_cross
            stage_attention(sc.part, H, K, (a.src_len + kRangeKeys - 1) / kRangeKeys, xs, sh_w, sh_den);
            mark(t);
            gemv<W, C>(static_cast<const W*>(P.o_cross), D, HK, xs, add_resid, nullptr);
            if (a.prefetch) prefetch_gemv(static_cast<const W*>(P.wo), D, F);
            mark(t);
            bar.sync();
            mark(t);
            // ---- wi
            stage_norm(sc.resid, D, P.ln_ffn, a.eps, 1.0f, xs, red);
            mark(t);
            gemv<W, C>(static_cast<const W*>(P.wi), Fh, D, xs, GemvOut{kStore, sc.h}, nullptr);
            if (a.prefetch) {
                if (l + 1 < a.L) prefetch_gemv(static_cast<const W*>(a.layers[l + 1].qkv), 3 * HK, D);
                else prefetch_gemv(static_cast<const W*>(a.lm_head), V, D);
            }
            mark(t);
            bar.sync();
            mark(t);
            // ---- wo: x = act(h)
            for (int f = threadIdx.x; f < F; f += kThreads) {
                const float h0 = __ldcg(sc.h + f);
                xs[f] = !a.gated ? fmaxf(h0, 0.0f)
                                 : (a.gelu ? gelu_tanh(h0) : fmaxf(h0, 0.0f)) * __ldcg(sc.h + F + f);
            }
            __syncthreads();
            mark(t);
            gemv<W, C>(static_cast<const W*>(P.wo), D, F, xs, add_resid, nullptr);
            mark(t);
            bar.sync();
            mark(t);
        }
        // ---- lm_head and this block's share of the argmax
        stage_norm(sc.resid, D, a.final_ln, a.eps, a.lm_scale, xs, red);
        Best best;
        GemvOut lm{kArgmax};
        lm.skip = t < a.min_new ? a.eos : -1;
        mark(t);
        gemv<W, C>(static_cast<const W*>(a.lm_head), V, D, xs, lm, &best);
        best.warp_merge();
        if (lane == 0) {
            sh_best[warp * 3] = best.m;
            sh_best[warp * 3 + 1] = best.s;
            sh_best[warp * 3 + 2] = __int_as_float(best.idx);
        }
        __syncthreads();
        if (threadIdx.x == 0) {
            Best b;
            for (int w = 0; w < kWarps; ++w) b.merge(sh_best[w * 3], sh_best[w * 3 + 1], __float_as_int(sh_best[w * 3 + 2]));
            float* out = sc.lm + int64_t(blockIdx.x) * 4;
            out[0] = b.m;
            out[1] = b.s;
            out[2] = __int_as_float(b.idx);
        }
        if (a.prefetch) prefetch_gemv(static_cast<const W*>(a.layers[0].qkv), 3 * HK, D);
        mark(t);
        bar.sync();
        mark(t);
        // ---- every block: merge the per-block results (same order everywhere) -> the token
        if (warp == 0) {
            Best b;
            for (int i = lane; i < int(gridDim.x); i += 32) {
                const float* p = sc.lm + int64_t(i) * 4;
                b.merge(__ldcg(p), __ldcg(p + 1), __float_as_int(__ldcg(p + 2)));
            }
            b.warp_merge();
            if (lane == 0) {
                sh_best[0] = b.m;
                sh_best[1] = b.s;
                sh_best[2] = __int_as_float(b.idx);
            }
        }
        __syncthreads();
        int id = __float_as_int(sh_best[2]);
        if (id < 0 || id >= V) id = 0;  // an all -inf / NaN row: id 0, as greedy_select_cuda
        tok = id;
        if (blockIdx.x == 0 && threadIdx.x == 0) {
            a.tokens[t] = tok;
            score += -logf(sh_best[1]);
        }
        __syncthreads();  // sh_best is rewritten by the next step's lm_head
        mark(t);
        if (tok == a.eos) break;
    }
    if (blockIdx.x == 0 && threadIdx.x == 0) *a.score = score;
}

using KernelFn = void (*)(PersistentDecodeArgs);

template <typename W>
KernelFn pick_for_weights(DType cdt, DType xdt) {
    const bool c32 = cdt == DType::kF32, x32 = xdt == DType::kF32;
    if (c32 && x32) return persistent_decode_kernel<W, float, float>;
    if (c32) return persistent_decode_kernel<W, float, W>;
    if (x32) return persistent_decode_kernel<W, W, float>;
    return persistent_decode_kernel<W, W, W>;
}

// The kernel for these types, or null when they are not supported.
KernelFn pick_kernel(DType wdt, DType cdt, DType xdt) {
    if (wdt == DType::kF32 || (cdt != wdt && cdt != DType::kF32) || (xdt != wdt && xdt != DType::kF32)) return nullptr;
    return wdt == DType::kF16 ? pick_for_weights<__half>(cdt, xdt) : pick_for_weights<__nv_bfloat16>(cdt, xdt);
}

bool fits_one_block_per_sm(KernelFn k) {
    int per_sm = 0;
    if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, k, kThreads, 0) != cudaSuccess) {
        (void)cudaGetLastError();
        return false;
    }
    return per_sm >= 1;
}

// kv bytes of one head row: a power of two from 16 (one chunk) to 256 (16 lanes per key).
bool head_bytes_ok(int K, DType dt) {
    const int b = K * dtype_size(dt);
    return b >= 16 && b <= 256 && (b & (b - 1)) == 0;
}

}  // namespace

size_t persistent_decode_scratch_floats(int D, int H, int K, int F, bool gated, int /*S_max*/, int /*T_max*/,
                                        int n_blocks) {
    return round4(D) + round4(size_t(H) * K) + round4(size_t(gated ? 2 : 1) * F) +
           round4(size_t(H) * kMaxRanges * (K + 2)) + size_t(4) * std::max(n_blocks, 1);
}

int persistent_decode_blocks() {
    int dev = 0, coop = 0;
    if (cudaGetDevice(&dev) != cudaSuccess || cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, dev) != cudaSuccess) {
        (void)cudaGetLastError();
        return 0;
    }
    if (!coop) return 0;
    return device_sm_count();
}

const char* persistent_decode_problem(DType wdt, DType cdt, DType xdt, int D, int H, int K, int F, int S_max,
                                      int T_max) {
    const KernelFn k = pick_kernel(wdt, cdt, xdt);
    if (!k) return "weights must be f16 / bf16 and the cache and cross K/V of that type or f32";
    if (!head_bytes_ok(K, cdt) || !head_bytes_ok(K, xdt)) return "d_kv does not fit its lane layout";
    if (H < 1 || H > kMaxHeads) return "more heads than the kernel supports";
    const int HK = H * K;
    for (int n : {D, HK, F})
        if (n < 8 || n % 8 != 0 || n > kMaxK) return "d_model, heads x d_kv and d_ff must be multiples of 8 up to 4096";
    if (S_max > kMaxKeys || T_max > kMaxKeys) return "more than 1024 source keys or cache positions";
    if (persistent_decode_blocks() <= 0) return "the GPU has no cooperative launch";
    if (!fits_one_block_per_sm(k)) return "one block per SM does not fit";
    return "";
}

void persistent_greedy_decode_cuda(const PersistentDecodeArgs& a, cudaStream_t stream) {
    const char* why = persistent_decode_problem(a.wdt, a.cdt, a.xdt, a.D, a.H, a.K, a.F, a.src_len, a.T_max);
    RECEIPT_CHECK(why[0] == '\0', InvalidInput, std::string("persistent decode: ") + why);
    RECEIPT_CHECK(a.max_new >= 1 && a.max_new <= a.T_max && a.src_len >= 1 && a.L >= 1 && a.layers && a.scratch &&
                      a.barrier && a.tokens && a.score,
                  InvalidInput, "persistent decode: bad arguments");
    const KernelFn k = pick_kernel(a.wdt, a.cdt, a.xdt);
    RECEIPT_CUDA_CHECK(cudaMemsetAsync(a.barrier, 0, kBarrierBytes, stream));
    cudaLaunchAttribute attr[1];
    attr[0].id = cudaLaunchAttributeCooperative;
    attr[0].val.cooperative = 1;
    cudaLaunchConfig_t cfg{};
    cfg.gridDim = dim3(unsigned(persistent_decode_blocks()));
    cfg.blockDim = dim3(kThreads);
    cfg.dynamicSmemBytes = 0;
    cfg.stream = stream;
    cfg.attrs = attr;
    cfg.numAttrs = 1;
    const cudaError_t err = cudaLaunchKernelEx(&cfg, k, a);
    if (err != cudaSuccess) {
        (void)cudaGetLastError();
        throw CudaError(cuda_error_text(err, "cudaLaunchKernelEx (cooperative)"), __FILE__, __LINE__);
    }
}

}  // namespace receipt::cuda
