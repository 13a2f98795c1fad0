// Keeping one weight matrix in L2 across decode steps (CUDA access policy windows).
//
// Why: a t5-small decode step reads 44 MB of decoder weights and the 33 MB lm_head, more than the H200's 50 MB L2
// holds, so every step streams all of them from device memory again. The lm_head GEMM at batch 1-8 is bound by
// that read (~10 us of a ~180 us step). Marking the lm_head's lines as persisting keeps them in the part of L2 set
// aside for persisting accesses, so later steps read them from L2.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>

namespace receipt::cuda {

// An access policy window: accesses to [base, base + bytes) are persisting with probability hit_ratio.
struct L2Window {
    const void* base = nullptr;
    size_t bytes = 0;  // 0: no window
    float hit_ratio = 0.0f;
};

// Sets aside as much L2 for persisting accesses as `device` allows, up to `bytes` (a device-wide limit), and
// returns the window over [base, base + bytes) that the set-aside can hold (window size capped by the device,
// hit_ratio = set-aside / window bytes, at most 1). Returns an empty window when the device has no set-aside or a
// call fails (the CUDA error is cleared: the engine then runs without one).
L2Window l2_persisting_window(int device, const void* base, size_t bytes);

// Applies the window to the kernels launched on `stream` (no-op for an empty window; errors are cleared).
void apply_l2_window(cudaStream_t stream, const L2Window& w);

// Applies the window to every kernel node of `graph` (stream capture does not carry the stream's window into the
// graph's nodes). No-op for an empty window; errors are cleared.
void apply_l2_window(cudaGraph_t graph, const L2Window& w);

}  // namespace receipt::cuda
