// Decoder cross-attention over precomputed K/V, streamed (stream_attention.cuh): the contract of
// cross_attention_cuda for d_kv 64 and f16 / bf16 / f32 storage (f32: the fp16-a32 precisions' decoder), each
// (row, head) block, or each of its key ranges, taking its keys and values through shared memory in 64-key chunks
// with cp.async and an online softmax.
//
// Why: at batch 64 a t5-small layer's cross-attention reads 50 MB of K/V. The one-query kernel of
// attention_cuda.cu scores its keys straight from global memory, then reduces, then reads the values, so each
// block spends most of its time waiting on one dependent trip to memory after another (H200: ~2.2 TB/s over the
// call). Here every block has its next chunk's keys and values in flight while it works on the current one.
// Same result as the one-query kernel up to the order of the f32 sums.
#include <string>

#include "cuda/cuda_check.h"
#include "ops/attention_common.cuh"
#include "ops/cuda_common.cuh"
#include "ops/cuda_launch.cuh"
#include "ops/stream_attention.cuh"
#include "ops/t5_ops_cuda.h"

namespace receipt::cuda {

namespace {

using stream::kHeadDim;
using stream::kThreads;

// cross_attention_pipelined_level() without RECEIPT_CUDA_CROSS_PIPE (see t5_ops_cuda.h): every launch of two or
// more rows, single-row launches where the engine plan chose it. On an H200 single-row steps measured mixed
// (t5-small batch 1 -4%, the shipped receipt model -5%, t5-base +2%), hence the per-model timing; batch 8 faster
// (t5-small -4%, t5-base -7%), wide steps faster (docs/benchmarks.md).
constexpr int kDefaultLevel = 2;

// q: [R, H*64] TQ; cross_kv: [B*S, row_stride] T (S = state->src_stride), keys at column k_off + 64 h, values at
// v_off + 64 h; src_row: [R]; src_len: [B]; ctx: [R, H*64] TQ. grid (H, R, n_split), block kThreads. TQ is T, or f32
// over f16 / bf16 K/V (cross_attention_f32q_cuda).
// n_split > 1 (split-K, DecodeAttnSplit): block z takes keys split_range(len, n_split, z), writes its unnormalised
// (m, l, o) to part and the last block of the (row, head) combines, as the one-query kernel does.
// prefetch_l2_rows: before waiting for the kernel before, also ask L2 for the rows past the first chunk (for
// launches of at most one (row, head) per SM; with more, the early rows only evict each other).
template <typename TQ, typename T>
__global__ void __launch_bounds__(kThreads)
    cross_attention_pipelined_kernel(const TQ* q, const T* cross_kv, int64_t row_stride, int64_t k_off, int64_t v_off,
                                     const int* src_row, const int* src_len, int H, int S_max,
                                     const DecodeState* state, float* split_part, int* split_counter,
                                     bool prefetch_l2_rows, TQ* ctx) {
    extern __shared__ __align__(16) unsigned char smem_raw[];
    const stream::Smem<T> sm(smem_raw);
    const int h = blockIdx.x, r = blockIdx.y, z = blockIdx.z, n_split = gridDim.z, tid = threadIdx.x;
    const int HK = H * kHeadDim;
    // The cross K/V, the source map and lengths were written by the request's setup before the first decode
    // step: the first chunk is fetched before waiting for the kernel before (indices clamped).
    const int S = min(max(state->src_stride, 0), S_max);
    const int src = src_row[r];
    const int len = min(max(src_len[src], 0), S);
    int j_begin, j_end;  // this block's keys
    split_range(len, n_split, z, j_begin, j_end);
    const T* base = cross_kv + (int64_t(src) * S + j_begin) * row_stride + h * kHeadDim;
    const stream::Rows<T> rows{base + k_off, base + v_off, row_stride, j_end - j_begin};
    stream::issue_prologue(rows, sm);
    if (prefetch_l2_rows)
        for (int j = (stream::kStages - 1) * stream::kChunk + tid; j < rows.n_rows; j += kThreads) {
            prefetch_l2(rows.k + int64_t(j) * row_stride);
            prefetch_l2(rows.v + int64_t(j) * row_stride);
        }

    pdl_wait();  // q comes from the GEMM before
    pdl_launch_dependents();
    float m, l;
    stream::attend(q + int64_t(r) * HK + h * kHeadDim, rows, nullptr, 0, sm, m, l);
    TQ* out = ctx + int64_t(r) * HK + h * kHeadDim;
    float* slot = split_slot(split_part, r, H, h, n_split, z, kHeadDim);
    if (tid < kHeadDim) {
        const float acc = stream::output_dim(sm, tid);
        if (slot)
            slot[2 + tid] = acc;
        else
            out[tid] = from_f32<TQ>(l > 0.0f ? acc / l : 0.0f);
    }
    if (slot && tid == 0) slot[0] = m, slot[1] = l;
    // sm.part is free again once split_arrive_last's barrier has passed: the combine's scratch.
    finish_split<TQ>(split_part, split_counter, r, H, h, n_split, kHeadDim, sm.part, out);
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

template <typename TQ, typename T>
void launch(const Launch& a, cudaStream_t stream) {
    constexpr size_t smem = stream::smem_bytes<T>();
    allow_dynamic_smem(cross_attention_pipelined_kernel<TQ, T>, smem);  // f32 K/V need more than 48 KB
    launch_kernel(cross_attention_pipelined_kernel<TQ, T>, dim3(a.H, a.R, a.n_split), kThreads, smem, stream,
                  static_cast<const TQ*>(a.q), static_cast<const T*>(a.cross_kv), a.row_stride, a.k_off, a.v_off,
                  a.src_row, a.src_len, a.H, a.S_max, a.state, a.part, a.counter, a.prefetch_l2_rows,
                  static_cast<TQ*>(a.ctx));
}

// The launch of entry point `fn` once its checks pass: a layout the kernel takes (`layout_ok`; `needs` says what it
// needs) and 16-byte aligned buffers. Throws InvalidInput naming `fn` otherwise.
Launch checked_launch(const char* fn, bool layout_ok, const char* needs, const void* q, const void* cross_kv,
                      int64_t row_stride, int64_t k_off, int64_t v_off, const int* src_row, const int* src_len, int R,
                      int H, int K, int S_max, const DecodeState* state, void* ctx, const DecodeAttnSplit* split) {
    RECEIPT_CHECK(layout_ok, InvalidInput, std::string(fn) + ": needs " + needs);
    RECEIPT_CHECK(aligned16(q) && aligned16(cross_kv) && aligned16(ctx), InvalidInput,
                  std::string(fn) + ": buffers must be 16-byte aligned");
    const int n_split = decode_attn_n_split(split, R, H, K);
    const bool few_blocks = split && int64_t(R) * H <= split->n_sm;
    return Launch{q, cross_kv, row_stride, k_off, v_off, src_row, src_len, R, H, S_max, n_split, state,
                  n_split > 1 ? split->part : nullptr, n_split > 1 ? split->counter : nullptr,
                  few_blocks && prefetch_enabled(), ctx};
}

}  // namespace

int cross_attention_pipelined_level() {
    static const int level = env_level("RECEIPT_CUDA_CROSS_PIPE", 3, kDefaultLevel);
    return level;
}

bool cross_attention_pipelined_supports(DType dt, int K, int64_t row_stride, int64_t k_off, int64_t v_off) {
    const int per16 = dt == DType::kF32 ? 4 : 8;  // elements per 16 bytes: rows of 16-byte pieces
    return (dt == DType::kF16 || dt == DType::kBF16 || dt == DType::kF32) && K == kHeadDim &&
           row_stride % per16 == 0 && k_off % per16 == 0 && v_off % per16 == 0;
}

void cross_attention_pipelined_cuda(DType dt, const void* q, const void* cross_kv, int64_t row_stride, int64_t k_off,
                                    int64_t v_off, const int* src_row, const int* src_len, int R, int H, int K,
                                    int S_max, const DecodeState* state, void* ctx, cudaStream_t stream,
                                    const DecodeAttnSplit* split) {
    if (R <= 0) return;
    const Launch a = checked_launch("cross_attention_pipelined_cuda",
                                    cross_attention_pipelined_supports(dt, K, row_stride, k_off, v_off),
                                    "f16 / bf16 / f32, d_kv 64 and 16-byte aligned rows", q, cross_kv, row_stride,
                                    k_off, v_off, src_row, src_len, R, H, K, S_max, state, ctx, split);
    if (dt == DType::kF16)
        launch<__half, __half>(a, stream);
    else if (dt == DType::kBF16)
        launch<__nv_bfloat16, __nv_bfloat16>(a, stream);
    else
        launch<float, float>(a, stream);
}

void cross_attention_f32q_cuda(DType kv_dt, const void* q, const void* cross_kv, int64_t row_stride, int64_t k_off,
                               int64_t v_off, const int* src_row, const int* src_len, int R, int H, int K, int S_max,
                               const DecodeState* state, void* ctx, cudaStream_t stream,
                               const DecodeAttnSplit* split) {
    if (R <= 0) return;
    const Launch a = checked_launch(
        "cross_attention_f32q_cuda",
        kv_dt != DType::kF32 && cross_attention_pipelined_supports(kv_dt, K, row_stride, k_off, v_off),
        "f16 / bf16 K/V, d_kv 64 and 16-byte aligned rows", q, cross_kv, row_stride, k_off, v_off, src_row, src_len,
        R, H, K, S_max, state, ctx, split);
    if (kv_dt == DType::kF16)
        launch<float, __half>(a, stream);
    else
        launch<float, __nv_bfloat16>(a, stream);
}

}  // namespace receipt::cuda
