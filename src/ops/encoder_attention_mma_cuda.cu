// T5 encoder self-attention on tensor cores (mma.m16n8k16), the contract of encoder_attention_cuda:
//   ctx[b,i,h] = softmax_{j < len_b}(q[b,i,h] . k[b,j,h] + bias[h, j-i]) . v[b,:,h]   (no 1/sqrt(K) scaling)
// for 16-bit storage and K (d_kv) in {32, 64, 128}.
//
// Why: the tiled kernel (encoder_attention_cuda.cu) does the S x S x K products on CUDA cores; at batch 64 x 384
// tokens that was ~1.5 ms per t5-small layer, most of the encoder. Here one block of 4 warps answers 64 queries of
// one (sequence, head), 16 per warp, walking the valid keys in tiles of 64 ("flash attention"):
//   scores  S[16 x 64] = Q[16 x K] . Ktile^T             (mma, f32 accumulate; q . k exact products as before)
//   S += bias[h, j - i]; S = -inf for j >= len             (f32)
//   online softmax: m' = max(m, rowmax S), P = exp(S - m'), l = l e^(m - m') + rowsum P, O = O e^(m - m')
//   O[16 x K] += P . Vtile                                (mma; P as hi + lo 16-bit halves, see below)
//   ctx = O / l
// P in [0, 1] is split into hi = T(p) and lo = T(p - hi), each multiplied with V (two mma per step): P keeps ~2x
// the 16-bit mantissa, so the only roundings beyond the f32 kernel's are the summation order and the final store.
// The score accumulator of an mma is, per lane, exactly the A fragment layout of the next mma (c0,c1 / c2,c3 of
// two adjacent 8-key tiles are a0..a3 of a 16-key step), so P never leaves registers.
//
// Shared memory: the key tile [64][K + 8] T (row-major: lane g reads key g's k pairs, conflict-free with the +8
// pad), the value tile transposed [K][64 + 8] T (lane g reads dim g's key pairs), and the block's bias diagonal
// band [len + 63] f32. Rows past len are zero-filled (masked scores are -inf, but 0 * garbage could be NaN).
//
// Split inputs (kSplit, the fp16-a32 precisions' f32 encoder): q, k and v are f32 and each is split as it is
// loaded into hi = T(x) and lo = T(x - hi), the split of the decode GEMMs (GemmSpec::split_x); the tiles hold
// both halves. Products keep the three terms above T's rounding: q . k = qh . kh + qh . kl + ql . kh and
// P . V = Ph . Vh + Ph . Vl + Pl . Vh (the lo . lo terms are 2^-22 relative for f16), so the result is the f32
// kernel's to within f32 rounding, on tensor cores. K 32 / 64 (both halves of a 128-wide tile exceed the static
// shared memory limit); ctx is f32.
#include <cmath>
#include <cstdint>
#include <type_traits>

#include "cuda/cuda_check.h"
#include "ops/cuda_common.cuh"
#include "ops/cuda_launch.cuh"
#include "ops/mma_common.cuh"
#include "ops/t5_ops_cuda.h"

namespace receipt::cuda {

namespace {

constexpr int kWarps = 4;             // warps per block, 16 queries each
constexpr int kBQ = 16 * kWarps;      // queries per block
constexpr int kBK = 64;               // keys per tile
constexpr int kPad = 8;               // T elements of row padding in the staged tiles

// qkv: [B, S, 3, H, K] TS; bias: [H, 2*S_bias-1] f32 (by j - i + S_bias - 1); src_len: [B]; ctx: [B, S, H*K] TS,
// where TS (storage) is T, or f32 with kSplit. grid (ceil(S / kBQ), H, B), block kWarps * 32; dynamic shared
// memory: bias band, (S + kBQ) f32.
template <typename T, int K, bool kSplit>
__global__ void __launch_bounds__(kWarps * 32)
    encoder_attention_mma_kernel(const std::conditional_t<kSplit, float, T>* qkv, const float* bias, int S_bias,
                                 const int* src_len, int S, int H, std::conditional_t<kSplit, float, T>* ctx) {
    using TS = std::conditional_t<kSplit, float, T>;
    constexpr int kHalves = kSplit ? 2 : 1;  // [0]: T(x) (or the stored T), [1]: T(x - hi)
    __shared__ __align__(16) T Ks[kHalves][kBK][K + kPad];
    __shared__ __align__(16) T Vt[kHalves][K][kBK + kPad];
    extern __shared__ float band[];  // band[d + i0 + kBQ - 1] = bias[h, d] for d = j - i in [-(i0+kBQ-1), len-1-i0]
    constexpr int kSteps = K / 16;   // k16 steps of q . k
    constexpr int kDimTiles = K / 8; // 8-column tiles of the output

    pdl_wait();  // qkv comes from the previous GEMM
    pdl_launch_dependents();
    const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31, g = lane >> 2, q = lane & 3;
    const int i0 = blockIdx.x * kBQ, h = blockIdx.y, b = blockIdx.z;
    const int HK = H * K;
    const int64_t row3 = 3LL * HK;
    const int len = min(max(src_len[b], 0), S);
    const TS* base = qkv + int64_t(b) * S * row3 + h * K;

    const int band_n = len + kBQ - 1;
    for (int e = threadIdx.x; e < band_n; e += blockDim.x) {
        const int d = e - (i0 + kBQ - 1);  // j - i
        band[e] = (d > -S_bias && d < S_bias) ? bias[int64_t(h) * (2 * S_bias - 1) + d + S_bias - 1] : 0.0f;
    }

    // This warp's query rows r0 + g and r0 + g + 8 (rows past S repeat row S - 1 and are not stored).
    const int r0 = i0 + 16 * warp;
    const int ra = min(r0 + g, S - 1), rb = min(r0 + g + 8, S - 1);
    uint32_t qa[kSteps][4], ql[kSplit ? kSteps : 1][4];  // A fragments of q (hi), and its lo halves
#pragma unroll
    for (int s = 0; s < kSteps; ++s) {
        const TS* pa = base + int64_t(ra) * row3 + 16 * s + 2 * q;
        const TS* pb = base + int64_t(rb) * row3 + 16 * s + 2 * q;
        if constexpr (kSplit) {
            const TS* src[4] = {pa, pb, pa + 8, pb + 8};
#pragma unroll
            for (int e = 0; e < 4; ++e) {
                const float2 x = *reinterpret_cast<const float2*>(src[e]);
                split2<T>(x.x, x.y, qa[s][e], ql[s][e]);
            }
        } else {
            qa[s][0] = ld2(pa);
            qa[s][1] = ld2(pb);
            qa[s][2] = ld2(pa + 8);
            qa[s][3] = ld2(pb + 8);
        }
    }

    float o[kDimTiles][4];
#pragma unroll
    for (int t = 0; t < kDimTiles; ++t) o[t][0] = o[t][1] = o[t][2] = o[t][3] = 0.0f;
    float m[2] = {-INFINITY, -INFINITY}, l[2] = {0.0f, 0.0f};
    constexpr int kChunks = K / 8;  // 16-byte pieces per K / V row

    for (int j0 = 0; j0 < len; j0 += kBK) {
        __syncthreads();  // the previous tile is no longer read (and, first time, the band is written)
        for (int e = threadIdx.x; e < kBK * kChunks; e += blockDim.x) {
            const int r = e / kChunks, c = (e - r * kChunks) * 8;
            if constexpr (kSplit) {  // 8 f32 of k and of v, stored as hi and lo halves
                float kf[8] = {0, 0, 0, 0, 0, 0, 0, 0}, vf[8] = {0, 0, 0, 0, 0, 0, 0, 0};
                if (j0 + r < len) {
                    const TS* src = base + int64_t(j0 + r) * row3 + c;
                    load8(src + HK, kf);
                    load8(src + 2 * HK, vf);
                }
                uint4 kh, kl;
                split2<T>(kf[0], kf[1], kh.x, kl.x);
                split2<T>(kf[2], kf[3], kh.y, kl.y);
                split2<T>(kf[4], kf[5], kh.z, kl.z);
                split2<T>(kf[6], kf[7], kh.w, kl.w);
                *reinterpret_cast<uint4*>(&Ks[0][r][c]) = kh;
                *reinterpret_cast<uint4*>(&Ks[kHalves - 1][r][c]) = kl;
#pragma unroll
                for (int u = 0; u < 8; ++u) {
                    const T vh = from_f32<T>(vf[u]);
                    Vt[0][c + u][r] = vh;
                    Vt[kHalves - 1][c + u][r] = from_f32<T>(vf[u] - to_f32(vh));
                }
            } else {
                uint4 kv = make_uint4(0, 0, 0, 0), vv = make_uint4(0, 0, 0, 0);
                if (j0 + r < len) {
                    const TS* src = base + int64_t(j0 + r) * row3 + c;
                    kv = *reinterpret_cast<const uint4*>(src + HK);
                    vv = *reinterpret_cast<const uint4*>(src + 2 * HK);
                }
                *reinterpret_cast<uint4*>(&Ks[0][r][c]) = kv;
                const T* ve = reinterpret_cast<const T*>(&vv);
#pragma unroll
                for (int u = 0; u < 8; ++u) Vt[0][c + u][r] = ve[u];
            }
        }
        __syncthreads();

        // Scores of this warp's 16 queries against the tile's 64 keys: 8 tiles of 8 keys.
        float sc[kBK / 8][4];
#pragma unroll
        for (int nt = 0; nt < kBK / 8; ++nt) {
            sc[nt][0] = sc[nt][1] = sc[nt][2] = sc[nt][3] = 0.0f;
#pragma unroll
            for (int s = 0; s < kSteps; ++s) {
                const uint32_t b0 = ld2(&Ks[0][8 * nt + g][16 * s + 2 * q]),
                               b1 = ld2(&Ks[0][8 * nt + g][16 * s + 2 * q + 8]);
                mma16816<T>(sc[nt], qa[s][0], qa[s][1], qa[s][2], qa[s][3], b0, b1);
                if constexpr (kSplit) {  // + qh . kl + ql . kh
                    mma16816<T>(sc[nt], qa[s][0], qa[s][1], qa[s][2], qa[s][3],
                                ld2(&Ks[kHalves - 1][8 * nt + g][16 * s + 2 * q]),
                                ld2(&Ks[kHalves - 1][8 * nt + g][16 * s + 2 * q + 8]));
                    mma16816<T>(sc[nt], ql[s][0], ql[s][1], ql[s][2], ql[s][3], b0, b1);
                }
            }
        }
        float mx[2] = {-INFINITY, -INFINITY};
#pragma unroll
        for (int nt = 0; nt < kBK / 8; ++nt)
#pragma unroll
            for (int e = 0; e < 4; ++e) {
                const int j = j0 + 8 * nt + 2 * q + (e & 1), i = r0 + g + (e >= 2 ? 8 : 0);
                const float v = j < len ? sc[nt][e] + band[j - i + i0 + kBQ - 1] : -INFINITY;
                sc[nt][e] = v;
                mx[e >> 1] = fmaxf(mx[e >> 1], v);
            }
        float scale[2], mu[2];
#pragma unroll
        for (int r = 0; r < 2; ++r) {
            mx[r] = fmaxf(mx[r], __shfl_xor_sync(0xffffffffu, mx[r], 1));
            mx[r] = fmaxf(mx[r], __shfl_xor_sync(0xffffffffu, mx[r], 2));
            const float mn = fmaxf(m[r], mx[r]);
            mu[r] = mn == -INFINITY ? 0.0f : mn;  // all keys so far masked: every exp below is 0
            scale[r] = expf(m[r] - mu[r]);
            m[r] = mn;
            l[r] *= scale[r];
        }
        scale_rows(o, scale[0], scale[1]);
#pragma unroll
        for (int nt = 0; nt < kBK / 8; ++nt)
#pragma unroll
            for (int e = 0; e < 4; ++e) {
                const float p = expf(sc[nt][e] - mu[e >> 1]);
                sc[nt][e] = p;
                l[e >> 1] += p;
            }

        // O += P . Vtile, 16 keys per step: key tiles 2 ks and 2 ks + 1 form the A fragment.
#pragma unroll
        for (int ks = 0; ks < kBK / 16; ++ks) {
            uint32_t ah[4], al[4];
            split2<T>(sc[2 * ks][0], sc[2 * ks][1], ah[0], al[0]);
            split2<T>(sc[2 * ks][2], sc[2 * ks][3], ah[1], al[1]);
            split2<T>(sc[2 * ks + 1][0], sc[2 * ks + 1][1], ah[2], al[2]);
            split2<T>(sc[2 * ks + 1][2], sc[2 * ks + 1][3], ah[3], al[3]);
#pragma unroll
            for (int t = 0; t < kDimTiles; ++t) {
                const uint32_t b0 = ld2(&Vt[0][8 * t + g][16 * ks + 2 * q]),
                               b1 = ld2(&Vt[0][8 * t + g][16 * ks + 2 * q + 8]);
                mma16816<T>(o[t], ah[0], ah[1], ah[2], ah[3], b0, b1);
                mma16816<T>(o[t], al[0], al[1], al[2], al[3], b0, b1);
                if constexpr (kSplit)  // + Ph . Vl
                    mma16816<T>(o[t], ah[0], ah[1], ah[2], ah[3], ld2(&Vt[kHalves - 1][8 * t + g][16 * ks + 2 * q]),
                                ld2(&Vt[kHalves - 1][8 * t + g][16 * ks + 2 * q + 8]));
            }
        }
    }

    float inv[2];
#pragma unroll
    for (int r = 0; r < 2; ++r) {
        l[r] += __shfl_xor_sync(0xffffffffu, l[r], 1);
        l[r] += __shfl_xor_sync(0xffffffffu, l[r], 2);
        inv[r] = l[r] > 0.0f ? 1.0f / l[r] : 0.0f;
    }
#pragma unroll
    for (int r = 0; r < 2; ++r) {
        const int i = r0 + g + 8 * r;
        if (i >= S) continue;
        TS* out = ctx + (int64_t(b) * S + i) * HK + h * K + 2 * q;
#pragma unroll
        for (int t = 0; t < kDimTiles; ++t) {
            if constexpr (kSplit)
                *reinterpret_cast<float2*>(out + 8 * t) = make_float2(o[t][2 * r] * inv[r], o[t][2 * r + 1] * inv[r]);
            else
                *reinterpret_cast<uint32_t*>(out + 8 * t) = pack2<T>(o[t][2 * r] * inv[r], o[t][2 * r + 1] * inv[r]);
        }
    }
}

template <typename T, int K, bool kSplit>
void launch(const void* qkv, const float* bias, int S_bias, const int* src_len, int B, int S, int H, void* ctx,
            cudaStream_t stream) {
    using TS = std::conditional_t<kSplit, float, T>;
    const dim3 grid((S + kBQ - 1) / kBQ, H, B);
    const size_t smem = size_t(S + kBQ) * sizeof(float);
    auto kern = encoder_attention_mma_kernel<T, K, kSplit>;
    const size_t static_smem = (kSplit ? 2 : 1) * sizeof(T) * (size_t(kBK) * (K + kPad) + size_t(K) * (kBK + kPad));
    allow_dynamic_smem(kern, smem, static_smem);
    launch_kernel(kern, grid, kWarps * 32, smem, stream, static_cast<const TS*>(qkv), bias, S_bias, src_len, S, H,
                  static_cast<TS*>(ctx));
}

template <typename T, bool kSplit>
void launch_k(const void* qkv, const float* bias, int S_bias, const int* src_len, int B, int S, int H, int K,
              void* ctx, cudaStream_t stream) {
    if (K == 32)
        launch<T, 32, kSplit>(qkv, bias, S_bias, src_len, B, S, H, ctx, stream);
    else if constexpr (kSplit)
        launch<T, 64, true>(qkv, bias, S_bias, src_len, B, S, H, ctx, stream);
    else if (K == 64)
        launch<T, 64, false>(qkv, bias, S_bias, src_len, B, S, H, ctx, stream);
    else
        launch<T, 128, false>(qkv, bias, S_bias, src_len, B, S, H, ctx, stream);
}

}  // namespace

bool encoder_attention_mma_supports(DType dt, int K, DType split_dt) {
    if (dt == DType::kF32)  // split inputs: K 32 / 64
        return (split_dt == DType::kF16 || split_dt == DType::kBF16) && (K == 32 || K == 64);
    return (dt == DType::kF16 || dt == DType::kBF16) && (K == 32 || K == 64 || K == 128);
}

void encoder_attention_mma_cuda(DType dt, const void* qkv, const float* bias, int S_bias, const int* src_len, int B,
                                int S, int H, int K, void* ctx, cudaStream_t stream, DType split_dt) {
    if (B <= 0 || S <= 0) return;
    RECEIPT_CHECK(encoder_attention_mma_supports(dt, K, split_dt), InvalidInput,
                  "encoder_attention_mma_cuda: needs f16 / bf16 storage and d_kv 32, 64 or 128 (f32 storage: f16 / "
                  "bf16 halves and d_kv 32 or 64), got d_kv " +
                      std::to_string(K));
    RECEIPT_CHECK(S <= S_bias, InvalidInput, "encoder_attention_mma_cuda: S exceeds the bias table");
    RECEIPT_CHECK(aligned16(qkv) && aligned16(ctx), InvalidInput,
                  "encoder_attention_mma_cuda: qkv and ctx must be 16-byte aligned");
    const DType half = dt == DType::kF32 ? split_dt : dt;
    const bool split = dt == DType::kF32;
    if (half == DType::kF16)
        split ? launch_k<__half, true>(qkv, bias, S_bias, src_len, B, S, H, K, ctx, stream)
              : launch_k<__half, false>(qkv, bias, S_bias, src_len, B, S, H, K, ctx, stream);
    else
        split ? launch_k<__nv_bfloat16, true>(qkv, bias, S_bias, src_len, B, S, H, K, ctx, stream)
              : launch_k<__nv_bfloat16, false>(qkv, bias, S_bias, src_len, B, S, H, K, ctx, stream);
}

}  // namespace receipt::cuda
