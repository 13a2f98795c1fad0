// Greedy decoding of one sequence in a single persistent kernel (src/ops/persistent_decode_cuda.cu).
//
// A batch-1 decode step is ~50 dependent, tiny kernels (GEMVs over a few MB of weights, attention over a few
// hundred keys); even replayed from a CUDA graph with Programmatic Dependent Launch each costs 1.5-6 us on an
// H200, mostly launch and drain latency, not work. This kernel runs every step of the generation instead: one
// block per SM, all resident (cooperative launch), the ops of a step as phases separated by grid-wide barriers
// (one atomic counter), the argmax and the next token's embedding computed by every block, EOS detected on the
// device. Per decoder layer: qkv | self-attention | o | q_cross | cross-attention | o_cross | wi | wo, then the
// lm_head with argmax: 8 L + 1 barriers per token and no host involvement until the sequence ends.
//
// Numerics: weights f16 / bf16, every activation f32 (the norms, q, attention, the FFN hidden state, the
// residual stream), products and sums in f32. The self-attention cache and the cross K/V keep the engine's
// storage types (T or f32), so they are the ones its other kernels read and write. Not bit-identical to the
// per-op kernels (other summation orders); closer to the CPU's f32 than the fp16 path.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>

#include "receipt/engine.h"

namespace receipt::cuda {

// One decoder layer's device pointers (the engine's CudaLayerWeights, HF Linear layout [out, in]).
struct PersistentLayer {
    const float* ln_self = nullptr;   // [D] f32
    const void* qkv = nullptr;        // [3 H K, D] W: rows q | k | v
    const void* o = nullptr;          // [D, H K] W
    const float* ln_cross = nullptr;  // [D] f32
    const void* q_cross = nullptr;    // [H K, D] W
    const void* o_cross = nullptr;    // [D, H K] W
    const float* ln_ffn = nullptr;    // [D] f32
    const void* wi = nullptr;         // [F, D] W, gated: [2F, D] = wi_0 | wi_1
    const void* wo = nullptr;         // [D, F] W
    const void* cross_kv = nullptr;   // [S, 2 H K] X: this layer's keys | values of source row 0 (S rows)
    void* cache_k = nullptr;          // [H, T_max, K] C: row 0 of the layer's self-attention key cache
    void* cache_v = nullptr;          // [H, T_max, K] C
};

// Everything one greedy generation needs. Types: W (wdt) f16 / bf16; C (cdt) the self-attention cache, W or f32;
// X (xdt) the cross K/V, W or f32.
struct PersistentDecodeArgs {
    DType wdt = DType::kF16, cdt = DType::kF16, xdt = DType::kF16;
    int D = 0, H = 0, K = 0, F = 0, V = 0, L = 0;  // d_model, heads, d_kv, d_ff, vocab, decoder layers
    int T_max = 0;                                 // cache positions; max_new <= T_max
    bool gated = false, gelu = false;              // FFN: act(wi_0 x) * (wi_1 x) (gelu_new or relu), else relu
    float eps = 1e-6f;                             // T5LayerNorm epsilon
    float lm_scale = 1.0f;                         // D^-0.5 for a tied lm_head, else 1
    int start_token = 0, eos = 1;                  // decoder start id, EOS id
    int min_new = 0;                               // EOS masked while step < min_new
    int max_new = 0;                               // tokens to generate at most (>= 1)
    int src_len = 0;                               // source keys (>= 1)
    const void* embed = nullptr;                   // [V, D] W
    const void* lm_head = nullptr;                 // [V, D] W (the embedding when tied)
    const float* final_ln = nullptr;               // [D] f32
    const float* dec_bias = nullptr;               // [H, T_max] f32 by distance t - j
    const PersistentLayer* layers = nullptr;       // [L], device memory
    int* tokens = nullptr;                         // [T_max] out: tokens[t] for t < steps run (EOS included)
    float* score = nullptr;                        // [1] out: sum of the chosen tokens' log-probabilities
    float* scratch = nullptr;                      // persistent_decode_scratch_floats(...) f32, device
    unsigned* barrier = nullptr;                   // [kBarrierBytes / 4] device; the launcher zeroes it
    // Optional timing trace: when set, block 0 writes clock64() at the start of step trace_step and after each of
    // its barriers (8 L + 1), then once the token is known: at most 1024 values.
    long long* trace = nullptr;
    int trace_step = 0;
    bool prefetch = true;  // ask L2 for the next phase's weights (and cross K/V) before each barrier
};

// Bytes of PersistentDecodeArgs::barrier (two counters on separate 128-byte lines).
constexpr size_t kBarrierBytes = 256;

// f32 scratch the kernel needs for these sizes (S_max: most source keys, T_max: cache positions, n_blocks: the
// grid, persistent_decode_blocks()).
size_t persistent_decode_scratch_floats(int D, int H, int K, int F, bool gated, int S_max, int T_max, int n_blocks);

// Blocks of the persistent grid on the current device: one per SM. 0 when the device cannot run it (no
// cooperative launch, or one block per SM does not fit). Never throws.
int persistent_decode_blocks();

// "" when the kernel takes these shapes and types on the current device, else why not: W f16 / bf16, C and X W
// or f32, K * sizeof(C or X) in {16, ..., 256} bytes and a power of two, D, H K and F multiples of 8 and at most
// 4096, at most 1024 source keys and cache positions, persistent_decode_blocks() > 0. Never throws.
const char* persistent_decode_problem(DType wdt, DType cdt, DType xdt, int D, int H, int K, int F, int S_max,
                                      int T_max);

// Enqueues the whole greedy generation of one sequence on `stream` (zeroes a.barrier, then one cooperative
// launch). The cross K/V and dec_bias must be ready on the stream. Throws InvalidInput on arguments
// persistent_decode_problem() rejects, CudaError on a launch failure.
void persistent_greedy_decode_cuda(const PersistentDecodeArgs& a, cudaStream_t stream);

}  // namespace receipt::cuda
