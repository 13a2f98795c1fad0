// The GPU's greedy choice of a logits row, recomputed on the host: the pipelined host loops compare it with the
// host's choice (after the logits processor) to know whether the step the GPU already queued on it is right.
#pragma once

#include <algorithm>
#include <cmath>

#include "generate/row_scan.h"

namespace receipt::cuda {

// The argmax that greedy_select_cuda and speculative_select_cuda make (block_greedy_choice, ops/greedy_common.cuh):
// EOS masked while mask_eos, the lowest id among equal maxima, id 0 when nothing is larger than -inf.
// row: [V] f32 logits, not modified.
inline int device_guess(const float* row, int V, bool mask_eos, int eos) {
    if (!mask_eos || eos < 0 || eos >= V) {
        const float best = row_max(row, V);
        return best > -INFINITY ? first_index_of(row, V, best) : 0;
    }
    const float best = std::max(row_max(row, eos), row_max(row + eos + 1, V - eos - 1));
    if (!(best > -INFINITY)) return 0;
    const int i = first_index_of(row, eos, best);
    return i >= 0 ? i : eos + 1 + first_index_of(row + eos + 1, V - eos - 1, best);
}

}  // namespace receipt::cuda
