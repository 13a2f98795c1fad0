// Decoder self-attention over the KV cache, streamed (stream_attention.cuh): the contract of
// decoder_self_attention_cuda for d_kv 64 and f16 / bf16 / f32 storage (f32: the fp16-a32 precisions' decoder),
// single pass. Block (head h, row r) appends position
// t = state->step's key and value to the cache, then attends over positions 0..t with the relative position bias,
// taking the cached rows 0..t-1 through shared memory in 64-key chunks with cp.async (keys and values of a chunk in
// one trip, the next chunk in flight) and position t straight from qkv. The one-query kernel (attention_cuda.cu)
// reads the keys, reduces, then reads the values: two dependent trips to memory per call at the least.
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

// self_attention_pipelined_level() without RECEIPT_CUDA_SELF_PIPE (see t5_ops_cuda.h).
constexpr int kDefaultLevel = 1;

// qkv: [R, 3, H, 64] T for position t = state->step; cache_k, cache_v: [R_max, H, T_max, 64] T; bias: [H, T_max]
// f32 by distance t - j; ctx: [R, H*64] T. grid (H, R), block kThreads. prefetch_l1: before waiting for the kernel
// before, ask L1 for the cached rows below the step the state holds then (a hint; one (row, head) per SM or fewer).
template <typename T>
__global__ void __launch_bounds__(kThreads)
    self_attention_pipelined_kernel(const T* qkv, T* cache_k, T* cache_v, const float* bias, int H, int T_max,
                                    const DecodeState* state, bool prefetch_l1, T* ctx) {
    extern __shared__ __align__(16) unsigned char smem_raw[];
    const stream::Smem<T> sm(smem_raw);
    const int h = blockIdx.x, r = blockIdx.y, tid = threadIdx.x, HK = H * kHeadDim;
    T* ck = cache_k + (int64_t(r) * H + h) * T_max * kHeadDim;
    T* cv = cache_v + (int64_t(r) * H + h) * T_max * kHeadDim;
    if (prefetch_l1) {  // earlier steps wrote these rows; state->step is only a hint before the wait (clamped)
        const int t_hint = min(max(state->step, 0), T_max - 1);
        prefetch_rows_l1(ck, kHeadDim, t_hint, kHeadDim);
        prefetch_rows_l1(cv, kHeadDim, t_hint, kHeadDim);
    }
    // qkv comes from the GEMM before, state->step from the previous step's select.
    pdl_wait();
    pdl_launch_dependents();
    const int t = state->step;
    T* out = ctx + int64_t(r) * HK + h * kHeadDim;
    if (t < 0 || t >= T_max) {  // cannot happen when the host checks max_new_tokens; never write out of bounds
        if (tid < kHeadDim) out[tid] = from_f32<T>(0.0f);
        return;
    }
    const T* row = qkv + int64_t(r) * 3 * HK;
    const T* k_new = row + HK + h * kHeadDim;
    const T* v_new = row + 2 * HK + h * kHeadDim;
    if (tid < kHeadDim) {  // the append; this block reads position t from qkv, no other block reads it
        ck[int64_t(t) * kHeadDim + tid] = k_new[tid];
        cv[int64_t(t) * kHeadDim + tid] = v_new[tid];
    }
    const stream::Rows<T> rows{ck, cv, kHeadDim, t, k_new, v_new};
    stream::issue_prologue(rows, sm);
    float m, l;
    stream::attend(row + h * kHeadDim, rows, bias + int64_t(h) * T_max, t, sm, m, l);
    if (tid < kHeadDim) {
        const float acc = stream::output_dim(sm, tid);
        out[tid] = from_f32<T>(l > 0.0f ? acc / l : 0.0f);
    }
}

template <typename T>
void launch(const void* qkv, void* cache_k, void* cache_v, const float* bias, int R, int H, int T_max,
            const DecodeState* state, bool prefetch_l1, void* ctx, cudaStream_t stream) {
    constexpr size_t smem = stream::smem_bytes<T>();
    allow_dynamic_smem(self_attention_pipelined_kernel<T>, smem);  // f32 needs more than 48 KB
    launch_kernel(self_attention_pipelined_kernel<T>, dim3(H, R), kThreads, smem, stream, static_cast<const T*>(qkv),
                  static_cast<T*>(cache_k), static_cast<T*>(cache_v), bias, H, T_max, state, prefetch_l1,
                  static_cast<T*>(ctx));
}

}  // namespace

int self_attention_pipelined_level() {
    static const int level = env_level("RECEIPT_CUDA_SELF_PIPE", 2, kDefaultLevel);
    return level;
}

bool self_attention_pipelined_supports(DType dt, int K) {
    return (dt == DType::kF16 || dt == DType::kBF16 || dt == DType::kF32) && K == kHeadDim;
}

void self_attention_pipelined_cuda(DType dt, const void* qkv, void* cache_k, void* cache_v, const float* bias, int R,
                                   int H, int K, int T_max, const DecodeState* state, void* ctx, cudaStream_t stream,
                                   int n_sm) {
    if (R <= 0) return;
    RECEIPT_CHECK(self_attention_pipelined_supports(dt, K), InvalidInput,
                  "self_attention_pipelined_cuda: needs f16 / bf16 / f32 and d_kv 64");
    RECEIPT_CHECK(aligned16(qkv) && aligned16(cache_k) && aligned16(cache_v) && aligned16(ctx), InvalidInput,
                  "self_attention_pipelined_cuda: buffers must be 16-byte aligned");
    const bool prefetch_l1 = prefetch_enabled() && n_sm > 0 && int64_t(R) * H <= n_sm;
    if (dt == DType::kF16)
        launch<__half>(qkv, cache_k, cache_v, bias, R, H, T_max, state, prefetch_l1, ctx, stream);
    else if (dt == DType::kBF16)
        launch<__nv_bfloat16>(qkv, cache_k, cache_v, bias, R, H, T_max, state, prefetch_l1, ctx, stream);
    else
        launch<float>(qkv, cache_k, cache_v, bias, R, H, T_max, state, prefetch_l1, ctx, stream);
}

}  // namespace receipt::cuda
