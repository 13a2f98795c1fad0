// Greedy token selection on the GPU: min-new-tokens EOS mask, argmax, log-probability, EOS bookkeeping.
// Mirrors transformers greedy search (MinNewTokensLengthLogitsProcessor, torch.argmax first-maximum tie rule,
// finished rows emit pad_token_id) and src/generate/greedy.cpp (score = sum of log_softmax of the chosen ids).
#include "cuda/cuda_check.h"
#include "ops/cuda_common.cuh"
#include "ops/cuda_launch.cuh"
#include "ops/t5_ops_cuda.h"

namespace receipt::cuda {

// Warp-wide argmax of (best, best_i) pairs: every lane ends with the largest value, the lowest index among ties.
__device__ __forceinline__ void warp_argmax(float& best, int& best_i) {
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) {
        const float ov = __shfl_xor_sync(0xffffffffu, best, o);
        const int oi = __shfl_xor_sync(0xffffffffu, best_i, o);
        if (ov > best || (ov == best && oi < best_i)) {
            best = ov;
            best_i = oi;
        }
    }
}

// logits: [R, V] f32; finished/next_tok: [R]; tokens: [R, T_max] int; scores: [R] f32.
// grid: R blocks, one row each; block: 1024 threads.
//   masked[v] = (v == eos && t < min_new) ? -inf : logits[r, v]
//   id = argmax(masked) (lowest index among equal maxima); logp = -log(sum_v exp(masked[v] - max))
// The last block to finish closes the step (one kernel per step fewer than a separate advance launch): every
// other block has read state->step and counted its row in n_unfinished before it counts itself in n_selected.
template <int kThreads>
__global__ void greedy_select_kernel(const float* logits, int V, int eos, int pad, DecodeState* state, int* finished,
                                     int* next_tok, int* tokens, int T_max, float* scores) {
    __shared__ float s_val[32];
    __shared__ int s_idx[32];
    __shared__ float red[32];
    pdl_wait();  // logits come from the lm_head GEMM
    pdl_launch_dependents();
    const int r = blockIdx.x, tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
    const int t = state->step;
    const bool mask_eos = t < state->min_new;
    const float* row = logits + int64_t(r) * V;

    float best = -INFINITY;
    int best_i = 0x7fffffff;
    for (int v = tid; v < V; v += kThreads) {
        const float x = (mask_eos && v == eos) ? -INFINITY : row[v];
        if (x > best) {  // strided scan: each thread sees increasing v, so '>' keeps its first maximum
            best = x;
            best_i = v;
        }
    }
    // Warp then block argmax with the lower index winning ties.
    warp_argmax(best, best_i);
    if (lane == 0) {
        s_val[warp] = best;
        s_idx[warp] = best_i;
    }
    __syncthreads();
    if (warp == 0) {
        best = lane < kThreads / 32 ? s_val[lane] : -INFINITY;
        best_i = lane < kThreads / 32 ? s_idx[lane] : 0x7fffffff;
        warp_argmax(best, best_i);
        if (lane == 0) {
            s_val[0] = best;
            s_idx[0] = best_i;
        }
    }
    __syncthreads();
    const float mx = s_val[0];
    int id = s_idx[0];
    if (id < 0 || id >= V) id = 0;  // all -inf / NaN row: fall back to id 0 like torch.argmax on NaN-free input

    float sum = 0.0f;
    for (int v = tid; v < V; v += kThreads) {
        const float x = (mask_eos && v == eos) ? -INFINITY : row[v];
        sum += expf(x - mx);
    }
    sum = block_sum(sum, red);

    if (tid == 0) {
        int tok;
        if (finished[r]) {
            tok = pad;
        } else {
            tok = id;
            scores[r] += -logf(sum);
            if (tok == eos) finished[r] = 1;
            else atomicAdd(&state->n_unfinished, 1);
        }
        next_tok[r] = tok;
        if (t >= 0 && t < T_max) tokens[int64_t(r) * T_max + t] = tok;
        __threadfence();  // this row's n_unfinished count is visible before it counts as selected
        if (atomicAdd(&state->n_selected, 1) == int(gridDim.x) - 1) {
            __threadfence();
            state->all_finished = atomicExch(&state->n_unfinished, 0) == 0 ? 1 : 0;
            state->n_selected = 0;
            state->step = t + 1;
        }
    }
}

void greedy_select_cuda(const float* logits, int R, int V, int eos, int pad, DecodeState* state, int* finished,
                        int* next_tok, int* tokens, int T_max, float* scores, cudaStream_t stream) {
    if (R <= 0) return;
    launch_kernel(greedy_select_kernel<1024>, R, 1024, 0, stream, logits, V, eos, pad, state, finished, next_tok,
                  tokens, T_max, scores);
}

}  // namespace receipt::cuda
