// T5 encoder self-attention with the relative position bias and the key padding mask fused.
// Mirrors transformers T5Attention: scores = q . k^T + position_bias (+ mask), NOT scaled by 1/sqrt(K);
// softmax in f32. All math is f32; storage T.
// Two kernels do each query's arithmetic in the same order (encoder_query, encoder_queries), so they give
// bit-identical results:
//   * tiled (16-bit storage, K % 8 == 0): a block of kTileWarps warps stages the K and V rows of one (sequence,
//     head) in shared memory once and answers kTileQueries queries from there, each warp kWarpQueries queries
//     at a time. Each K/V row is read from global memory S / kTileQueries times instead of S times (at batch
//     64 x 384 tokens the per-warp kernel read ~19 GB per layer through L2), and from shared memory once per
//     kWarpQueries queries;
//   * per-warp (any storage, any K): one warp per query reads K and V from global memory.
// encoder_attention_cuda routes 16-bit storage with K 32 / 64 / 128 to the tensor-core kernel
// (encoder_attention_mma_cuda.cu) and everything else here.
#include <algorithm>

#include "cuda/cuda_check.h"
#include "ops/attention_common.cuh"
#include "ops/cuda_common.cuh"
#include "ops/cuda_launch.cuh"
#include "ops/t5_ops_cuda.h"

namespace receipt::cuda {

namespace {

constexpr int kTileWarps = 8;     // warps per tiled block (256 threads)
constexpr int kWarpQueries = 4;   // queries a warp of the tiled kernel answers together (one K / V read for all)
constexpr int kTileQueries = 64;  // queries per tiled block (8 per warp: two rounds of kWarpQueries)
constexpr int kRowPad = 8;        // elements of padding per staged K/V row: conflict-free 16-byte reads

// One query row for one warp. q: [K] T (global); key j at kb + j*ks, value j at vb + j*vs ([K] T each, global or
// shared); brow[j] = bias[h, j - i]; len: valid keys; sq: [K] f32 and sp: [len] f32 of this warp's shared memory;
// out: [K] T. Each lane scores keys j = lane, lane+32, ..., the warp reduces max and sum, then lanes split the
// K output dims and sum p_j v_j over the valid keys.
template <typename T, bool kVec>
__device__ __forceinline__ void encoder_query(const T* q, const T* kb, int64_t ks, const T* vb, int64_t vs,
                                              const float* brow, int len, int K, float* sq, float* sp, int lane,
                                              T* out) {
    for (int d = lane; d < K; d += 32) sq[d] = to_f32(q[d]);
    __syncwarp();
    float mx = -INFINITY;
    for (int j = lane; j < len; j += 32) {
        const float s = dot_q_k<T, kVec>(sq, kb + int64_t(j) * ks, K) + brow[j];
        sp[j] = s;
        mx = fmaxf(mx, s);
    }
    mx = warp_max(mx);
    float sum = 0.0f;
    for (int j = lane; j < len; j += 32) {
        const float e = expf(sp[j] - mx);
        sp[j] = e;
        sum += e;
    }
    sum = warp_sum(sum);
    __syncwarp();
    const float inv = sum > 0.0f ? 1.0f / sum : 0.0f;

    const int n_chunks = K / 8;  // 16-byte chunks per value row
    if (kVec && n_chunks <= 32 && (n_chunks & (n_chunks - 1)) == 0) {
        // lane = group * n_chunks + chunk: each lane sums p_j v_j[chunk] over j = group, group + n_groups, ...
        // with 16-byte loads (several in flight), then the groups are added with shuffles.
        const int chunk = lane % n_chunks, group = lane / n_chunks, n_groups = 32 / n_chunks;
        float acc[8] = {0, 0, 0, 0, 0, 0, 0, 0};
#pragma unroll 4
        for (int j = group; j < len; j += n_groups) {
            float v8[8];
            load8(vb + int64_t(j) * vs + chunk * 8, v8);
            const float p = sp[j];
#pragma unroll
            for (int u = 0; u < 8; ++u) acc[u] += p * v8[u];
        }
#pragma unroll
        for (int u = 0; u < 8; ++u)
            for (int o = n_chunks; o < 32; o <<= 1) acc[u] += __shfl_xor_sync(0xffffffffu, acc[u], o);
        if (group == 0)
#pragma unroll
            for (int u = 0; u < 8; ++u) out[chunk * 8 + u] = from_f32<T>(acc[u] * inv);
    } else {
        for (int d = lane; d < K; d += 32) {
            float acc = 0.0f;
            for (int j = 0; j < len; ++j) acc += sp[j] * to_f32(vb[int64_t(j) * vs + d]);
            out[d] = from_f32<T>(acc * inv);
        }
    }
    __syncwarp();  // sq / sp are reused by this warp's next query
}

// encoder_query for kQ consecutive queries i .. i + kQ - 1 of one warp at once: each K and V piece read from
// shared memory serves all of them (the single-query routine reads them once per query), and every query's
// arithmetic is encoder_query's, in the same order, so the results are bit-identical. Vector path only
// (K % 8 == 0, K / 8 a power of two <= 32). q: query i's row, qs: row stride; nq <= kQ queries are valid (the
// others repeat the last valid query and are not written); brow: query i's bias row (query i + qi uses
// brow - qi);
// sm: this warp's [kQ, K + S] f32 (q row, scores per query); out: query i's output row, os: its stride.
template <typename T, int kQ>
__device__ __forceinline__ void encoder_queries(const T* q, int64_t qs, int nq, const T* kb, int ks, const T* vb,
                                                int vs, const float* brow, int len, int K, int S, float* sm, int lane,
                                                T* out, int64_t os) {
#pragma unroll
    for (int qi = 0; qi < kQ; ++qi) {
        const T* row = q + int64_t(min(qi, nq - 1)) * qs;
        for (int d = lane; d < K; d += 32) sm[qi * (K + S) + d] = to_f32(row[d]);
    }
    __syncwarp();
    float mx[kQ];
#pragma unroll
    for (int qi = 0; qi < kQ; ++qi) mx[qi] = -INFINITY;
    for (int j = lane; j < len; j += 32) {
        float s[kQ];
#pragma unroll
        for (int qi = 0; qi < kQ; ++qi) s[qi] = 0.0f;
        const T* k = kb + j * ks;
#pragma unroll 4
        for (int d = 0; d < K; d += 8) {
            float kv[8];
            load8(k + d, kv);
#pragma unroll
            for (int qi = 0; qi < kQ; ++qi) {
                const float* sq = sm + qi * (K + S);
#pragma unroll
                for (int u = 0; u < 8; ++u) s[qi] += sq[d + u] * kv[u];
            }
        }
#pragma unroll
        for (int qi = 0; qi < kQ; ++qi) {
            const float v = s[qi] + brow[j - min(qi, nq - 1)];  // an invalid query repeats the last valid one
            sm[qi * (K + S) + K + j] = v;
            mx[qi] = fmaxf(mx[qi], v);
        }
    }
    float sum[kQ], inv[kQ];
#pragma unroll
    for (int qi = 0; qi < kQ; ++qi) {
        mx[qi] = warp_max(mx[qi]);
        sum[qi] = 0.0f;
    }
    for (int j = lane; j < len; j += 32)
#pragma unroll
        for (int qi = 0; qi < kQ; ++qi) {
            float* sp = sm + qi * (K + S) + K;
            const float e = expf(sp[j] - mx[qi]);
            sp[j] = e;
            sum[qi] += e;
        }
#pragma unroll
    for (int qi = 0; qi < kQ; ++qi) {
        sum[qi] = warp_sum(sum[qi]);
        inv[qi] = sum[qi] > 0.0f ? 1.0f / sum[qi] : 0.0f;
    }
    __syncwarp();

    const int n_chunks = K / 8, chunk = lane % n_chunks, group = lane / n_chunks, n_groups = 32 / n_chunks;
    float acc[kQ][8];
#pragma unroll
    for (int qi = 0; qi < kQ; ++qi)
#pragma unroll
        for (int u = 0; u < 8; ++u) acc[qi][u] = 0.0f;
#pragma unroll 2
    for (int j = group; j < len; j += n_groups) {
        float v8[8];
        load8(vb + j * vs + chunk * 8, v8);
#pragma unroll
        for (int qi = 0; qi < kQ; ++qi) {
            const float p = sm[qi * (K + S) + K + j];
#pragma unroll
            for (int u = 0; u < 8; ++u) acc[qi][u] += p * v8[u];
        }
    }
#pragma unroll
    for (int qi = 0; qi < kQ; ++qi) {
#pragma unroll
        for (int u = 0; u < 8; ++u)
            for (int o = n_chunks; o < 32; o <<= 1) acc[qi][u] += __shfl_xor_sync(0xffffffffu, acc[qi][u], o);
        if (group == 0 && qi < nq)
#pragma unroll
            for (int u = 0; u < 8; ++u) out[qi * os + chunk * 8 + u] = from_f32<T>(acc[qi][u] * inv[qi]);
    }
    __syncwarp();  // sm is reused by this warp's next queries
}

// qkv: [B, S, 3, H, K] T; bias: [H, 2*S_bias-1] f32 (by j - i + S_bias - 1); src_len: [B]; ctx: [B, S, H, K] T.
// grid: (ceil(S/4), H, B); block: 128 threads = 4 warps, one query row i per warp.
// Shared memory per warp: q row [K] f32 + scores/probabilities [S] f32. Padded query rows (i >= len) are computed
// like HF does; nothing reads them (cross-attention masks them).
template <typename T, bool kVec>
__global__ void encoder_attention_kernel(const T* qkv, const float* bias, int S_bias, const int* src_len, int S,
                                         int H, int K, T* ctx) {
    extern __shared__ float smem[];
    pdl_wait();  // qkv comes from the previous GEMM
    pdl_launch_dependents();
    const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
    const int i = blockIdx.x * 4 + warp, h = blockIdx.y, b = blockIdx.z;
    if (i >= S) return;  // warp-uniform; no block barrier below
    const int HK = H * K;
    const int64_t row3 = 3LL * HK;
    float* sq = smem + warp * (K + S);
    const int len = min(max(src_len[b], 0), S);
    const T* base = qkv + int64_t(b) * S * row3 + h * K;
    encoder_query<T, kVec>(base + int64_t(i) * row3, base + HK, row3, base + 2 * HK, row3,
                           bias + int64_t(h) * (2 * S_bias - 1) + (S_bias - 1 - i), len, K, sq, sq + K, lane,
                           ctx + (int64_t(b) * S + i) * HK + h * K);
}

// Same contract; 16-bit T, K % 8 == 0, K / 8 a power of two, H*K % 8 == 0. grid: (ceil(S / kTileQueries), H, B);
// block: kTileWarps warps. Shared memory: per warp [kWarpQueries, K + S] f32 (q rows, scores), then Ks and Vs
// [S, K + kRowPad] T holding the len valid key / value rows of (b, h). Warp w answers the queries
// i0 + w * kTileQueries / kTileWarps + ..., kWarpQueries at a time (encoder_queries).
template <typename T>
__global__ void encoder_attention_tiled_kernel(const T* qkv, const float* bias, int S_bias, const int* src_len, int S,
                                               int H, int K, T* ctx) {
    extern __shared__ float smem[];
    pdl_wait();  // qkv comes from the previous GEMM
    pdl_launch_dependents();
    const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
    const int i0 = blockIdx.x * kTileQueries, h = blockIdx.y, b = blockIdx.z;
    const int HK = H * K, ld = K + kRowPad, n_chunks = K / 8;
    const int64_t row3 = 3LL * HK;
    const int len = min(max(src_len[b], 0), S);
    // kTileWarps * kWarpQueries * (K + S) floats: a multiple of 16 bytes, so Ks / Vs rows (ld * 2 bytes,
    // ld % 8 == 0) are aligned.
    T* Ks = reinterpret_cast<T*>(smem + kTileWarps * kWarpQueries * (K + S));
    T* Vs = Ks + int64_t(S) * ld;
    const T* base = qkv + int64_t(b) * S * row3 + h * K;
    for (int e = threadIdx.x; e < len * n_chunks; e += blockDim.x) {
        const int j = e / n_chunks, c = (e - j * n_chunks) * 8;
        const T* src = base + int64_t(j) * row3 + c;
        *reinterpret_cast<uint4*>(Ks + j * ld + c) = *reinterpret_cast<const uint4*>(src + HK);
        *reinterpret_cast<uint4*>(Vs + j * ld + c) = *reinterpret_cast<const uint4*>(src + 2 * HK);
    }
    __syncthreads();
    float* sm = smem + warp * kWarpQueries * (K + S);
    constexpr int kPerWarp = kTileQueries / kTileWarps;
    for (int i = i0 + warp * kPerWarp; i < min(i0 + (warp + 1) * kPerWarp, S); i += kWarpQueries)
        encoder_queries<T, kWarpQueries>(base + int64_t(i) * row3, row3, min(kWarpQueries, S - i), Ks, ld, Vs, ld,
                                         bias + int64_t(h) * (2 * S_bias - 1) + (S_bias - 1 - i), len, K, S, sm,
                                         lane, ctx + (int64_t(b) * S + i) * HK + h * K, HK);
}

size_t tiled_smem_bytes(int S, int K) {
    return size_t(kTileWarps) * kWarpQueries * (K + S) * sizeof(float) + 2 * size_t(S) * (K + kRowPad) * 2;
}

void check_shape(int S, int S_bias, int K) {
    RECEIPT_CHECK(S <= S_bias, InvalidInput, "encoder_attention_cuda: S exceeds the bias table");
    RECEIPT_CHECK(K <= kMaxHeadDim, InvalidInput, "encoder_attention_cuda: d_kv > 256 is not supported");
}

}  // namespace

void encoder_attention_per_warp_cuda(DType dt, const void* qkv, const float* bias, int S_bias, const int* src_len,
                                     int B, int S, int H, int K, void* ctx, cudaStream_t stream) {
    if (B <= 0 || S <= 0) return;
    check_shape(S, S_bias, K);
    const bool vec = K % 8 == 0 && (H * K) % 8 == 0;
    const dim3 grid((S + 3) / 4, H, B);
    const size_t smem = size_t(4) * (K + S) * sizeof(float);
    RECEIPT_DISPATCH_DTYPE(dt, T, {
        auto kern = vec ? encoder_attention_kernel<T, true> : encoder_attention_kernel<T, false>;
        allow_dynamic_smem(kern, smem);
        launch_kernel(kern, grid, 128, smem, stream, (const T*)qkv, bias, S_bias, src_len, S, H, K, (T*)ctx);
    });
}

void encoder_attention_cuda(DType dt, const void* qkv, const float* bias, int S_bias, const int* src_len, int B,
                            int S, int H, int K, void* ctx, cudaStream_t stream, DType split_dt) {
    static const bool mma_allowed = env_level("RECEIPT_CUDA_ENC_MMA", 1, 1) == 1;  // off only for "0"
    if (mma_allowed && encoder_attention_mma_supports(dt, K, split_dt) && aligned16(qkv) && aligned16(ctx))
        encoder_attention_mma_cuda(dt, qkv, bias, S_bias, src_len, B, S, H, K, ctx, stream, split_dt);
    else
        encoder_attention_tiled_cuda(dt, qkv, bias, S_bias, src_len, B, S, H, K, ctx, stream);
}

void encoder_attention_tiled_cuda(DType dt, const void* qkv, const float* bias, int S_bias, const int* src_len,
                                  int B, int S, int H, int K, void* ctx, cudaStream_t stream) {
    if (B <= 0 || S <= 0) return;
    check_shape(S, S_bias, K);
    const size_t smem = tiled_smem_bytes(S, K);
    const bool tiled = dt != DType::kF32 && K % 8 == 0 && (H * K) % 8 == 0 && K / 8 <= 32 &&
                       ((K / 8) & (K / 8 - 1)) == 0 && smem <= size_t(max_smem_optin());
    if (!tiled) {
        encoder_attention_per_warp_cuda(dt, qkv, bias, S_bias, src_len, B, S, H, K, ctx, stream);
        return;
    }
    const dim3 grid((S + kTileQueries - 1) / kTileQueries, H, B);
    auto launch = [&](auto* kern, auto* q, auto* out) {
        allow_dynamic_smem(kern, smem);
        launch_kernel(kern, grid, kTileWarps * 32, smem, stream, q, bias, S_bias, src_len, S, H, K, out);
    };
    if (dt == DType::kF16)
        launch(encoder_attention_tiled_kernel<__half>, (const __half*)qkv, (__half*)ctx);
    else
        launch(encoder_attention_tiled_kernel<__nv_bfloat16>, (const __nv_bfloat16*)qkv, (__nv_bfloat16*)ctx);
}

}  // namespace receipt::cuda
