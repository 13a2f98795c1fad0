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
#include "ops/attention_common.cuh"
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
// cross_attention_pipelined_level() without RECEIPT_CUDA_CROSS_PIPE (see t5_ops_cuda.h): every launch of two or
// more rows. On an H200 single-row steps measured mixed (t5-small batch 1 -4%, t5-base +2.7%), batch 8 faster
// (t5-small -4%, t5-base -7%), wide steps faster (docs/benchmarks.md).
constexpr int kDefaultLevel = 2;

// Shared memory: K, V [kStages][kChunk][kRowLd] T | p [kChunk] | red_max, red_sum [4] | part [kGroups][kHeadDim]
// f32.
template <typename T>
constexpr size_t pipelined_smem_bytes() {
    return sizeof(T) * 2 * kStages * kChunk * kRowLd + sizeof(float) * (kChunk + 8 + kGroups * kHeadDim);
}

// q: [R, H*64] T; cross_kv: [B*S, row_stride] T (S = state->src_stride), keys at column k_off + 64 h, values at
// v_off + 64 h; src_row: [R]; src_len: [B]; ctx: [R, H*64] T. grid (H, R, n_split), block kThreads.
// n_split > 1 (split-K, DecodeAttnSplit): block z takes keys split_range(len, n_split, z), writes its unnormalised
// (m, l, o) to part and the last block of the (row, head) combines, as the one-query kernel does.
// prefetch_l2: before waiting for the kernel before, also ask L2 for the rows of the chunks past the first
// kStages - 1 (for launches of at most one block per SM; with more, the early rows only evict each other).
template <typename T>
__global__ void __launch_bounds__(kThreads)
    cross_attention_pipelined_kernel(const T* q, const T* cross_kv, int64_t row_stride, int64_t k_off, int64_t v_off,
                                     const int* src_row, const int* src_len, int H, int S_max,
                                     const DecodeState* state, float* split_part, int* split_counter,
                                     bool prefetch_l2_rows, T* ctx) {
    extern __shared__ __align__(16) unsigned char smem_raw[];
    T* Ks = reinterpret_cast<T*>(smem_raw);
    T* Vs = Ks + kStages * kChunk * kRowLd;
    float* sp = reinterpret_cast<float*>(Vs + kStages * kChunk * kRowLd);
    float* red_max = sp + kChunk;
    float* red_sum = red_max + 4;
    float* part = red_sum + 4;

    const int h = blockIdx.x, r = blockIdx.y, z = blockIdx.z, n_split = gridDim.z;
    const int tid = threadIdx.x, warp = tid >> 5, lane = tid & 31;
    const int HK = H * kHeadDim;
    // The cross K/V, the source map and lengths were written by the request's setup before the first decode
    // step: the first chunks are fetched before waiting for the kernel before (indices clamped).
    const int S = min(max(state->src_stride, 0), S_max);
    const int src = src_row[r];
    const int len = min(max(src_len[src], 0), S);
    int j_begin, j_end;  // this block's keys
    split_range(len, n_split, z, j_begin, j_end);
    const int n_keys = j_end - j_begin;
    const T* base = cross_kv + (int64_t(src) * S + j_begin) * row_stride + h * kHeadDim;
    const int n_chunks = (n_keys + kChunk - 1) / kChunk;
    // Chunk c into stage buffer b: kChunk rows of keys and of values, 8 16-byte pieces each.
    auto load_chunk = [&](int b, int c) {
        const int j0 = c * kChunk;
        for (int e = tid; e < 2 * kChunk * 8; e += kThreads) {
            const int is_v = e / (kChunk * 8), row = (e / 8) % kChunk, piece = e % 8;
            const bool valid = j0 + row < n_keys;
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
    if (prefetch_l2_rows)
        for (int j = (kStages - 1) * kChunk + tid; j < n_keys; j += kThreads) {
            prefetch_l2(base + int64_t(j) * row_stride + k_off);
            prefetch_l2(base + int64_t(j) * row_stride + v_off);
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
        if (it * kChunk + key_in_chunk >= n_keys) s = -INFINITY;
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
    T* out = ctx + int64_t(r) * HK + h * kHeadDim;
    float* slot = split_slot(split_part, r, H, h, n_split, z, kHeadDim);
    if (tid < kHeadDim) {
        float acc = 0.0f;
#pragma unroll
        for (int gg = 0; gg < kGroups; ++gg) acc += part[gg * kHeadDim + tid];
        if (slot)
            slot[2 + tid] = acc;
        else
            out[tid] = from_f32<T>(l > 0.0f ? acc / l : 0.0f);
    }
    if (slot && tid == 0) slot[0] = m, slot[1] = l;
    // part is free again once split_arrive_last's barrier has passed: the combine's scratch.
    finish_split<T>(split_part, split_counter, r, H, h, n_split, kHeadDim, part, out);
}

struct Launch {
    const void *q, *cross_kv;
    int64_t row_stride, k_off, v_off;
    const int *src_row, *src_len;
    int R, H, S_max, n_split;
    const DecodeState* state;
    float* part;
    int* counter;
    bool prefetch_l2_rows;
    void* ctx;
};

template <typename T>
void launch(const Launch& a, cudaStream_t stream) {
    constexpr size_t smem = pipelined_smem_bytes<T>();
    static_assert(smem <= 48 * 1024, "fits the default dynamic shared memory limit");
    launch_kernel(cross_attention_pipelined_kernel<T>, dim3(a.H, a.R, a.n_split), kThreads, smem, stream,
                  static_cast<const T*>(a.q), static_cast<const T*>(a.cross_kv), a.row_stride, a.k_off, a.v_off,
                  a.src_row, a.src_len, a.H, a.S_max, a.state, a.part, a.counter, a.prefetch_l2_rows,
                  static_cast<T*>(a.ctx));
}

}  // namespace

int cross_attention_pipelined_level() {
    static const int level = [] {
        const char* env = std::getenv("RECEIPT_CUDA_CROSS_PIPE");
        if (env && std::strcmp(env, "0") == 0) return 0;
        if (env && std::strcmp(env, "1") == 0) return 1;
        if (env && std::strcmp(env, "2") == 0) return 2;
        if (env && std::strcmp(env, "3") == 0) return 3;
        return kDefaultLevel;
    }();
    return level;
}

bool cross_attention_pipelined_supports(DType dt, int K, int64_t row_stride, int64_t k_off, int64_t v_off) {
    return (dt == DType::kF16 || dt == DType::kBF16) && K == kHeadDim && row_stride % 8 == 0 && k_off % 8 == 0 &&
           v_off % 8 == 0;
}

void cross_attention_pipelined_cuda(DType dt, const void* q, const void* cross_kv, int64_t row_stride, int64_t k_off,
                                    int64_t v_off, const int* src_row, const int* src_len, int R, int H, int K,
                                    int S_max, const DecodeState* state, void* ctx, cudaStream_t stream,
                                    const DecodeAttnSplit* split) {
    if (R <= 0) return;
    RECEIPT_CHECK((dt == DType::kF16 || dt == DType::kBF16) && K == kHeadDim && row_stride % 8 == 0 &&
                      k_off % 8 == 0 && v_off % 8 == 0,
                  InvalidInput, "cross_attention_pipelined_cuda: needs f16 / bf16, d_kv 64 and 16-byte aligned rows");
    RECEIPT_CHECK(aligned16(q) && aligned16(cross_kv) && aligned16(ctx), InvalidInput,
                  "cross_attention_pipelined_cuda: buffers must be 16-byte aligned");
    const int n_split = decode_attn_n_split(split, R, H, K);
    const bool few_blocks = split && int64_t(R) * H <= split->n_sm;
    const Launch a{q, cross_kv, row_stride, k_off, v_off, src_row, src_len, R, H, S_max, n_split, state,
                   n_split > 1 ? split->part : nullptr, n_split > 1 ? split->counter : nullptr,
                   few_blocks && prefetch_enabled(), ctx};
    if (dt == DType::kF16)
        launch<__half>(a, stream);
    else
        launch<__nv_bfloat16>(a, stream);
}

}  // namespace receipt::cuda
