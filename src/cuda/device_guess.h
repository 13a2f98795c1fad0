// The GPU's greedy choice of a logits row, recomputed on the host: the pipelined host loops compare it with the
// host's choice (after the logits processor) to know whether the step the GPU already queued on it is right.
#pragma once

#include <climits>
#include <cmath>

namespace receipt::cuda {

// The argmax that greedy_select_cuda and speculative_select_cuda make (block_greedy_choice, ops/greedy_common.cuh):
// EOS masked while mask_eos, the lowest id among equal maxima, id 0 when nothing is larger than -inf.
// row: [V] f32 logits, not modified.
inline int device_guess(const float* row, int V, bool mask_eos, int eos) {
    float best = -INFINITY;
    int best_i = INT_MAX;
    for (int v = 0; v < V; ++v) {
        const float x = (mask_eos && v == eos) ? -INFINITY : row[v];
        if (x > best) {
            best = x;
            best_i = v;
        }
    }
    return best_i >= 0 && best_i < V ? best_i : 0;
}

}  // namespace receipt::cuda
