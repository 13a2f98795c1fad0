// Speculative greedy decoding with prompt lookup: the select / accept / propose kernel of a step that fed Q rows
// per sequence (the last token emitted and Q - 1 draft tokens). The tokens emitted are exactly greedy search's:
// a draft token counts only where it equals the choice of the row before it, so every emitted token is the argmax
// of logits computed on the tokens greedy search would have fed (Leviathan et al. 2023 with a deterministic
// draft; the drafts come from the source and the output so far, as transformers' prompt_lookup_num_tokens).
// The choice per row mirrors greedy_select_kernel (greedy_cuda.cu): EOS mask, first maximum, log-softmax score.
#include <climits>

#include "cuda/cuda_check.h"
#include "ops/cuda_common.cuh"
#include "ops/cuda_launch.cuh"
#include "ops/greedy_common.cuh"
#include "ops/t5_ops_cuda.h"
#include "receipt/engine.h"

namespace receipt::cuda {

namespace {

constexpr int kThreads = 1024;
constexpr int kMaxNgram = 3;  // longest suffix looked up

// Token i of sequence b's lookup context: the draft context (x ids), its source ids (len of them), then the
// tokens emitted so far.
__device__ __forceinline__ int context_token(const int* extra, int x, const int* src, int len, const int* out, int i) {
    return i < x ? extra[i] : i < x + len ? src[i - x] : out[i - x - len];
}

// Block-wide max of an int (every thread gets it). red: 32 ints of shared memory.
__device__ int block_max_int(int v, int* red) {
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) v = max(v, __shfl_xor_sync(0xffffffffu, v, o));
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    __syncthreads();  // red may still be read from the previous call
    if (lane == 0) red[warp] = v;
    __syncthreads();
    v = lane < int(blockDim.x >> 5) ? red[lane] : INT_MIN;
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) v = max(v, __shfl_xor_sync(0xffffffffu, v, o));
    return v;
}

// The last block's work for sequence b: accept, emit, propose. All threads of the block call it.
__device__ void accept_and_propose(int b, int Q, int eos, int pad, DecodeState* state, int* pos, int* finished,
                                   int* feed, int* tokens, int T_max, float* scores, const int* enc_ids,
                                   const int* src_len, const int* extra, const int* sel_id, const float* sel_logp,
                                   int* s_vals, int* red) {
    const int tid = threadIdx.x;
    if (tid == 0) {
        int p = pos[b];
        bool fin = finished[b] != 0 || p >= state->max_new;
        if (!fin) {
            s_vals[2] = 1;  // this step computed for a running sequence
            for (int j = 0; j < Q; ++j) {
                const int r = b * Q + j;
                if (j > 0 && (feed[r] != sel_id[r - 1] || sel_id[r - 1] == eos)) break;  // draft j rejected
                if (p >= state->max_new || p >= T_max) break;
                const int tok = sel_id[r];
                tokens[int64_t(b) * T_max + p] = tok;
                scores[b] += sel_logp[r];
                ++p;
                if (tok == eos) {
                    fin = true;
                    break;
                }
            }
            if (p >= state->max_new || p >= T_max) fin = true;
            pos[b] = p;
            finished[b] = fin ? 1 : 0;
            if (!fin) atomicAdd(&state->n_unfinished, 1);
        }
        s_vals[0] = fin ? 1 : 0;
        s_vals[1] = p;
    }
    __syncthreads();
    const bool fin = s_vals[0] != 0;
    const int p = s_vals[1];
    if (fin) {
        for (int j = tid; j < Q; j += blockDim.x) feed[b * Q + j] = pad;
        __syncthreads();
        return;
    }
    const int S = state->src_stride;
    const int* src = enc_ids + int64_t(b) * S;
    const int len = min(max(src_len[b], 0), S);
    const int* out = tokens + int64_t(b) * T_max;
    const int x = extra ? min(max(state->n_extra, 0), kMaxDraftContext) : 0;
    const int N = x + len + p;  // context length; p >= 1 here (a running sequence emitted at least one token)
    // Latest start s < N - n of an earlier occurrence of the context's last n tokens, longest n first.
    int n_found = 0, s_found = -1;
    for (int n = min(kMaxNgram, p); n >= 1 && s_found < 0; --n) {
        int best = -1;
        for (int s = tid; s < N - n; s += blockDim.x) {
            bool eq = true;
            for (int i = 0; i < n && eq; ++i) eq = context_token(extra, x, src, len, out, s + i) == out[p - n + i];
            if (eq) best = max(best, s);
        }
        best = block_max_int(best, red);
        if (best >= 0) {
            s_found = best;
            n_found = n;
        }
    }
    // Drafts: what followed the occurrence, context[s + n ...]; past the context's end the same tokens again with
    // period P = N - n - s (the occurrence and the suffix repeat each other). No occurrence: the last token again.
    for (int j = tid; j < Q; j += blockDim.x) {
        int tok;
        if (j == 0) {
            tok = out[p - 1];
        } else if (s_found >= 0) {
            const int P = N - n_found - s_found;
            tok = context_token(extra, x, src, len, out, s_found + n_found + (j - 1) % P);
        } else {
            tok = out[p - 1];
        }
        feed[b * Q + j] = tok;
    }
    __syncthreads();
}

// logits: [B*Q, V] f32. grid: B*Q blocks of kThreads. Each block: its row's choice into sel_id / sel_logp; the
// last block to finish accepts, emits and proposes for every sequence and closes the step.
__global__ void speculative_select_kernel(const float* logits, int Q, int V, int eos, int pad, DecodeState* state,
                                          int* pos, int* finished, int* feed, int* tokens, int T_max, float* scores,
                                          const int* enc_ids, const int* src_len, const int* extra, int* sel_id,
                                          float* sel_logp) {
    __shared__ int red_i[32];
    __shared__ int s_vals[3];  // finished, position, any sequence running
    __shared__ int s_last;
    pdl_wait();  // logits come from the lm_head GEMM
    pdl_launch_dependents();
    const int r = blockIdx.x, b = r / Q, j = r % Q, tid = threadIdx.x;
    const bool mask_eos = pos[b] + j < state->min_new;
    const float* row = logits + int64_t(r) * V;

    int id;
    float logp;
    block_greedy_choice<kThreads>(row, V, eos, mask_eos, id, logp);
    if (tid == 0) {
        sel_id[r] = id;
        sel_logp[r] = logp;
        __threadfence();  // this row's choice is visible before it counts as selected
        s_last = atomicAdd(&state->n_selected, 1) == int(gridDim.x) - 1;
    }
    __syncthreads();
    if (!s_last) return;
    __threadfence();
    const int B = int(gridDim.x) / Q;
    if (tid == 0) s_vals[2] = 0;
    for (int sb = 0; sb < B; ++sb)
        accept_and_propose(sb, Q, eos, pad, state, pos, finished, feed, tokens, T_max, scores, enc_ids, src_len,
                           extra, sel_id, sel_logp, s_vals, red_i);
    if (tid == 0) {
        const int running = atomicExch(&state->n_unfinished, 0);
        if (s_vals[2]) ++state->n_steps;
        state->all_finished = running == 0 ? 1 : 0;
        state->n_selected = 0;
    }
}

}  // namespace

void speculative_select_cuda(const float* logits, int B, int Q, int V, int eos, int pad, DecodeState* state,
                             int* pos, int* finished, int* feed, int* tokens, int T_max, float* scores,
                             const int* enc_ids, const int* src_len, const int* extra, int* sel_id,
                             float* sel_logp, cudaStream_t stream) {
    if (B <= 0 || Q <= 0) return;
    launch_kernel(speculative_select_kernel, B * Q, kThreads, 0, stream, logits, Q, V, eos, pad, state, pos, finished,
                  feed, tokens, T_max, scores, enc_ids, src_len, extra, sel_id, sel_logp);
}

}  // namespace receipt::cuda
