// Greedy token selection on the GPU: min-new-tokens EOS mask, argmax, log-probability, EOS bookkeeping.
// Mirrors transformers greedy search (MinNewTokensLengthLogitsProcessor, torch.argmax first-maximum tie rule,
// finished rows emit pad_token_id) and src/generate/greedy.cpp (score = sum of log_softmax of the chosen ids).
#include "cuda/cuda_check.h"
#include "ops/cuda_common.cuh"
#include "ops/cuda_launch.cuh"
#include "ops/greedy_common.cuh"
#include "ops/t5_ops_cuda.h"

namespace receipt::cuda {

// logits: [R, V] f32; finished/next_tok: [R]; tokens: [R, T_max] int; scores: [R] f32.
// grid: R blocks, one row each; block: 1024 threads.
//   masked[v] = (v == eos && t < min_new) ? -inf : logits[r, v]
//   id = argmax(masked) (lowest index among equal maxima); logp = -log(sum_v exp(masked[v] - max))
// The last block to finish closes the step (one kernel per step fewer than a separate advance launch): every
// other block has read state->step and counted its row in n_unfinished before it counts itself in n_selected.
template <int kThreads>
__global__ void greedy_select_kernel(const float* logits, int V, int eos, int pad, DecodeState* state, int* finished,
                                     int* next_tok, int* tokens, int T_max, float* scores) {
    pdl_wait();  // logits come from the lm_head GEMM
    pdl_launch_dependents();
    const int r = blockIdx.x, tid = threadIdx.x;
    const int t = state->step;
    const bool mask_eos = t < state->min_new;
    const float* row = logits + int64_t(r) * V;

    int id;
    float logp;
    block_greedy_choice<kThreads>(row, V, eos, mask_eos, id, logp);

    if (tid == 0) {
        int tok;
        if (finished[r]) {
            tok = pad;
        } else {
            tok = id;
            scores[r] += logp;
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
