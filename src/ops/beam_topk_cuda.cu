// Beam-search candidates on the GPU: per row, the k best log-probabilities and their token ids, so that only
// k (value, id) pairs per row go back to the host instead of the whole [R, V] logits.
// Semantics of src/generate/beam_search.cpp (transformers' _beam_search): logp = log_softmax(logits) over the whole
// vocabulary, then the masked id (EOS while min_new_tokens is not reached) is excluded from the candidates.
#include <climits>

#include "cuda/cuda_check.h"
#include "ops/cuda_common.cuh"
#include "ops/cuda_launch.cuh"
#include "ops/t5_ops_cuda.h"

namespace receipt::cuda {

namespace {

constexpr int kThreads = 1024;

// Lexicographic order of candidates: larger value first, then lower id. NaN never wins.
__device__ __forceinline__ bool better(float v, int i, float bv, int bi) { return v > bv || (v == bv && i < bi); }

// Block-wide best (value, id) under `better`; every thread gets the result. s_val / s_idx: 32 entries each.
__device__ __forceinline__ void block_best(float& v, int& i, float* s_val, int* s_idx) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) {
        const float ov = __shfl_xor_sync(0xffffffffu, v, o);
        const int oi = __shfl_xor_sync(0xffffffffu, i, o);
        if (better(ov, oi, v, i)) v = ov, i = oi;
    }
    __syncthreads();  // s_val / s_idx may still be read from the previous round
    if (lane == 0) s_val[warp] = v, s_idx[warp] = i;
    __syncthreads();
    v = lane < kThreads / 32 ? s_val[lane] : -INFINITY;
    i = lane < kThreads / 32 ? s_idx[lane] : INT_MAX;
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) {
        const float ov = __shfl_xor_sync(0xffffffffu, v, o);
        const int oi = __shfl_xor_sync(0xffffffffu, i, o);
        if (better(ov, oi, v, i)) v = ov, i = oi;
    }
}

// logits: [R, V] f32; vals / ids: [R, k]. grid: R blocks; block: kThreads.
// lse = log(sum_v exp(x_v)) (max-shifted); then k rounds, round c picking the best candidate that comes after the
// previous pick in the order of `better` (so no marking is needed): vals[r, c] = x - lse, ids[r, c] = v; a round
// with nothing left writes (-inf, -1).
__global__ void beam_topk_kernel(const float* logits, int V, int k, int masked, float* vals, int* ids) {
    __shared__ float s_val[32];
    __shared__ int s_idx[32];
    __shared__ float red[32];
    pdl_wait();  // logits come from the lm_head GEMM
    pdl_launch_dependents();
    const int r = blockIdx.x, tid = threadIdx.x;
    const float* row = logits + int64_t(r) * V;
    float mx = -INFINITY;
    for (int v = tid; v < V; v += kThreads) mx = fmaxf(mx, row[v]);
    mx = block_max(mx, red);
    float sum = 0.0f;
    for (int v = tid; v < V; v += kThreads) sum += expf(row[v] - mx);
    sum = block_sum(sum, red);
    const float lse = mx + logf(sum);

    float last_v = INFINITY;
    int last_i = -1;
    for (int c = 0; c < k; ++c) {
        float bv = -INFINITY;
        int bi = INT_MAX;
        for (int v = tid; v < V; v += kThreads) {
            const float x = row[v];
            if (v == masked || !better(last_v, last_i, x, v)) continue;  // not after the previous pick
            if (better(x, v, bv, bi)) bv = x, bi = v;
        }
        block_best(bv, bi, s_val, s_idx);
        if (tid == 0) {
            const bool found = bi != INT_MAX;
            vals[int64_t(r) * k + c] = found ? bv - lse : -INFINITY;
            ids[int64_t(r) * k + c] = found ? bi : -1;
        }
        last_v = bv;
        last_i = bi;
        if (bi == INT_MAX) last_v = -INFINITY, last_i = INT_MAX;  // nothing left: every later round finds nothing
    }
}

}  // namespace

void beam_topk_cuda(const float* logits, int R, int V, int k, int masked, float* vals, int* ids, cudaStream_t stream) {
    if (R <= 0 || k <= 0) return;
    RECEIPT_CHECK(V >= 1, InvalidInput, "beam_topk_cuda: empty vocabulary");
    launch_kernel(beam_topk_kernel, R, kThreads, 0, stream, logits, V, k, masked, vals, ids);
}

}  // namespace receipt::cuda
