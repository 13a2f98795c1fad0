// The greedy choice of one logits row, shared by greedy_select_kernel (greedy_cuda.cu) and the speculative
// select (speculative_cuda.cu). Mirrors transformers greedy search: EOS masked while min_new_tokens is not
// reached, torch.argmax's first-maximum tie rule, score = log_softmax of the chosen id.
#pragma once

#include "ops/cuda_common.cuh"

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

// row: [V] f32 logits; a block of kThreads threads (a multiple of 32, at most 1024). Every thread returns
//   id = argmax_v masked[v] (lowest index among equal maxima; 0 for an all -inf / NaN row) and
//   logp = -log(sum_v exp(masked[v] - max)) = log_softmax(masked)[id],
// masked[v] = (mask_eos && v == eos) ? -inf : row[v].
template <int kThreads>
__device__ void block_greedy_choice(const float* row, int V, int eos, bool mask_eos, int& id, float& logp) {
    __shared__ float s_val[32];
    __shared__ int s_idx[32];
    __shared__ float red[32];
    const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
    float best = -INFINITY;
    int best_i = 0x7fffffff;
    for (int v = tid; v < V; v += kThreads) {
        const float x = (mask_eos && v == eos) ? -INFINITY : row[v];
        if (x > best) {  // strided scan: each thread sees increasing v, so '>' keeps its first maximum
            best = x;
            best_i = v;
        }
    }
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
    id = s_idx[0];
    if (id < 0 || id >= V) id = 0;  // all -inf / NaN row: fall back to id 0 like torch.argmax on NaN-free input
    float sum = 0.0f;
    for (int v = tid; v < V; v += kThreads) {
        const float x = (mask_eos && v == eos) ? -INFINITY : row[v];
        sum += expf(x - mx);
    }
    sum = block_sum(sum, red);
    logp = -logf(sum);
}

}  // namespace receipt::cuda
