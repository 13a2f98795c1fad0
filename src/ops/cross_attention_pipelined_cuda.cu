// Decoder cross-attention over precomputed K/V for wide decode steps (many (row, head) blocks, d_kv 64, 16-bit
// storage): the contract of cross_attention_cuda, with each block streaming its keys and values through shared
// memory in chunks of kChunk keys with cp.async, kStages chunks in flight, and an online softmax over the chunks.
//
// Why: at batch 64 a t5-small layer's cross-attention reads 50 MB of K/V. The one-query kernel of
// attention_cuda.cu scores its keys straight from global memory, then reduces, then reads the values, so each
// block spends most of its time waiting on one dependent trip to memory after another (H200: ~2.2 TB/s over the
// call). Here every block has its next chunks' keys and values in flight while it works on the current one.
//
// Block (head h, row r), 128 threads; per chunk c of keys j0 = c kChunk .. j0 + kChunk - 1 (rows past len zero-
// filled and masked):
//   s_j = q . k_j                        warp w scores keys 16w .. 16w+15, two lanes per key (32 dims each)
//   m' = max(m, max_j s_j); a = e^(m - m'); p_j = e^(s_j - m'); l = a l + sum_j p_j
//   o = a o + sum_j p_j v_j              thread (g, c8): dims 8 c8 .. 8 c8 + 7 over keys g, g + 16, g + 32, g + 48
// out = (sum_g o_g) / l, in f32, stored as T. Same result as the one-query kernel up to the order of the f32 sums.
#include <cstdlib>
#include <cstring>

#include "cuda/cuda_check.h"
#include "ops/cuda_common.cuh"
#include "ops/cuda_launch.cuh"
#include "ops/t5_ops_cuda.h"

namespace receipt::cuda {

namespace {

constexpr int kHeadDim = 64;               // d_kv this kernel is written for
constexpr int kChunk = 64;                 // keys per chunk (4 warps x 16)
constexpr int kStages = 2;                 // chunks in shared memory: one being read, one arriving
constexpr int kThreads = 128;
constexpr int kRowLd = kHeadDim + 8;       // staged row stride in T: 144 bytes, conflict-free 16-byte reads
constexpr int kGroups = kThreads / (kHeadDim / 8);  // 16 key groups of the P.V loop

// Shared memory: K, V [kStages][kChunk][kRowLd] T | p [kChunk] | red_max, red_sum [4] | part [kGroups][kHeadDim]
// f32.
template <typename T>
constexpr size_t pipelined_smem_bytes() {
    return sizeof(T) * 2 * kStages * kChunk * kRowLd + sizeof(float) * (kChunk + 8 + kGroups * kHeadDim);
}

// q: [R, H*64] T; cross_kv: [B*S, row_stride] T (S = state->src_stride), keys at column k_off + 64 h, values at
// v_off + 64 h; src_row: [R]; src_len: [B]; ctx: [R, H*64] T. grid (H, R), block kThreads.
template <typename T>
__global__ void __launch_bounds__(kThreads)
    cross_attention_pipelined_kernel(const T* q, const T* cross_kv, int64_t row_stride, int64_t k_off, int64_t v_off,
                                     const int* src_row, const int* src_len, int H, int S_max,
                                     const DecodeState* state, T* ctx) {
    extern __shared__ __align__(16) unsigned char smem_raw[];
    T* Ks = reinterpret_cast<T*>(smem_raw);
    T* Vs = Ks + kStages * kChunk * kRowLd;
    float* sp = reinterpret_cast<float*>(Vs + kStages * kChunk * kRowLd);
    float* red_max = sp + kChunk;
    float* red_sum = red_max + 4;
    float* part = red_sum + 4;

    const int h = blockIdx.x, r = blockIdx.y, tid = threadIdx.x, warp = tid >> 5, lane = tid & 31;
    const int HK = H * kHeadDim;
    // The cross K/V, the source map and lengths were written by the request's setup before the first decode
    // step: the first chunks are fetched before waiting for the kernel before (indices clamped).
    const int S = min(max(state->src_stride, 0), S_max);
    const int src = src_row[r];
    const int len = min(max(src_len[src], 0), S);
    const T* base = cross_kv + int64_t(src) * S * row_stride + h * kHeadDim;
    const int n_chunks = (len + kChunk - 1) / kChunk;
    // Chunk c into stage buffer b: kChunk rows of keys and of values, 8 16-byte pieces each.
    auto load_chunk = [&](int b, int c) {
        const int j0 = c * kChunk;
        for (int e = tid; e < 2 * kChunk * 8; e += kThreads) {
            const int is_v = e / (kChunk * 8), row = (e / 8) % kChunk, piece = e % 8;
            const bool valid = j0 + row < len;
            const T* g = base + int64_t(valid ? j0 + row : 0) * row_stride + (is_v ? v_off : k_off) + piece * 8;
            T* d = (is_v ? Vs : Ks) + (b * kChunk + row) * kRowLd + piece * 8;
            cp_async16(d, g, valid);
        }
    };
#pragma unroll
    for (int st = 0; st < kStages - 1; ++st) {
        if (st < n_chunks) load_chunk(st, st);
        cp_async_commit();
    }

    pdl_wait();  // q comes from the GEMM before
    pdl_launch_dependents();
    // Scoring lanes: key 16 warp + lane / 2 of each chunk, dims 32 (lane & 1) .. + 31 of q in registers (f32).
    const int half = lane & 1, key_in_chunk = 16 * warp + (lane >> 1);
    float qf[32];
    {
        const T* qrow = q + int64_t(r) * HK + h * kHeadDim + 32 * half;
#pragma unroll
        for (int c = 0; c < 4; ++c) load8(qrow + 8 * c, qf + 8 * c);
    }
    const int g = tid >> 3, c8 = tid & 7;  // P.V: key group and 8-dim piece
    float o[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    float m = -INFINITY, l = 0.0f;

    for (int it = 0; it < n_chunks; ++it) {
        const int b = it % kStages;
        // Chunk it is the oldest of the kStages - 1 groups in flight (one committed per chunk before it).
        cp_async_wait<kStages - 2>();
        __syncthreads();  // chunk it visible; every thread is done with chunk it - 1 (its buffer, p, red)
        if (it + kStages - 1 < n_chunks) load_chunk((it + kStages - 1) % kStages, it + kStages - 1);
        cp_async_commit();

        const T* krow = Ks + (b * kChunk + key_in_chunk) * kRowLd + 32 * half;
        float s = 0.0f;
#pragma unroll
        for (int c = 0; c < 4; ++c) {
            float kf[8];
            load8(krow + 8 * c, kf);
#pragma unroll
            for (int u = 0; u < 8; ++u) s += qf[8 * c + u] * kf[u];
        }
        s += __shfl_xor_sync(0xffffffffu, s, 1);
        if (it * kChunk + key_in_chunk >= len) s = -INFINITY;
        const float wm = warp_max(s);
        if (lane == 0) red_max[warp] = wm;
        __syncthreads();
        const float mn = fmaxf(m, fmaxf(fmaxf(red_max[0], red_max[1]), fmaxf(red_max[2], red_max[3])));
        const float mu = mn == -INFINITY ? 0.0f : mn;  // nothing valid yet: every exp is 0
        const float a = expf(m - mu);
        m = mn;
        const float p = expf(s - mu);
        if (half == 0) sp[key_in_chunk] = p;
        const float ws = warp_sum(half == 0 ? p : 0.0f);
        if (lane == 0) red_sum[warp] = ws;
        __syncthreads();  // p and the warps' sums visible
        l = a * l + ((red_sum[0] + red_sum[1]) + (red_sum[2] + red_sum[3]));
        const T* vb = Vs + b * kChunk * kRowLd + c8 * 8;
#pragma unroll
        for (int u = 0; u < 8; ++u) o[u] *= a;
#pragma unroll
        for (int k = 0; k < kChunk / kGroups; ++k) {
            const int j = g + kGroups * k;
            float vf[8];
            load8(vb + j * kRowLd, vf);
            const float pj = sp[j];
#pragma unroll
            for (int u = 0; u < 8; ++u) o[u] += pj * vf[u];
        }
    }

#pragma unroll
    for (int u = 0; u < 8; ++u) part[g * kHeadDim + c8 * 8 + u] = o[u];
    __syncthreads();
    if (tid < kHeadDim) {
        float acc = 0.0f;
#pragma unroll
        for (int gg = 0; gg < kGroups; ++gg) acc += part[gg * kHeadDim + tid];
        ctx[int64_t(r) * HK + h * kHeadDim + tid] = from_f32<T>(l > 0.0f ? acc / l : 0.0f);
    }
}

template <typename T>
void launch(const void* q, const void* cross_kv, int64_t row_stride, int64_t k_off, int64_t v_off, const int* src_row,
            const int* src_len, int R, int H, int S_max, const DecodeState* state, void* ctx, cudaStream_t stream) {
    constexpr size_t smem = pipelined_smem_bytes<T>();
    static_assert(smem <= 48 * 1024, "fits the default dynamic shared memory limit");
    launch_kernel(cross_attention_pipelined_kernel<T>, dim3(H, R), kThreads, smem, stream, static_cast<const T*>(q),
                  static_cast<const T*>(cross_kv), row_stride, k_off, v_off, src_row, src_len, H, S_max, state,
                  static_cast<T*>(ctx));
}

}  // namespace

bool cross_attention_pipelined_enabled() {
    static const bool allowed = [] {
        const char* env = std::getenv("RECEIPT_CUDA_CROSS_PIPE");
        return !(env && std::strcmp(env, "0") == 0);
    }();
    return allowed;
}

bool cross_attention_pipelined_supports(DType dt, int K, int64_t row_stride, int64_t k_off, int64_t v_off) {
    return (dt == DType::kF16 || dt == DType::kBF16) && K == kHeadDim && row_stride % 8 == 0 && k_off % 8 == 0 &&
           v_off % 8 == 0;
}

void cross_attention_pipelined_cuda(DType dt, const void* q, const void* cross_kv, int64_t row_stride, int64_t k_off,
                                    int64_t v_off, const int* src_row, const int* src_len, int R, int H, int K,
                                    int S_max, const DecodeState* state, void* ctx, cudaStream_t stream) {
    if (R <= 0) return;
    RECEIPT_CHECK((dt == DType::kF16 || dt == DType::kBF16) && K == kHeadDim && row_stride % 8 == 0 &&
                      k_off % 8 == 0 && v_off % 8 == 0,
                  InvalidInput, "cross_attention_pipelined_cuda: needs f16 / bf16, d_kv 64 and 16-byte aligned rows");
    RECEIPT_CHECK(aligned16(q) && aligned16(cross_kv) && aligned16(ctx), InvalidInput,
                  "cross_attention_pipelined_cuda: buffers must be 16-byte aligned");
    if (dt == DType::kF16)
        launch<__half>(q, cross_kv, row_stride, k_off, v_off, src_row, src_len, R, H, S_max, state, ctx, stream);
    else
        launch<__nv_bfloat16>(q, cross_kv, row_stride, k_off, v_off, src_row, src_len, R, H, S_max, state, ctx,
                              stream);
}

}  // namespace receipt::cuda
