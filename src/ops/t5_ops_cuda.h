// Launchers of the T5 CUDA kernels (src/ops/*_cuda.cu). Host-callable from plain C++; every launcher enqueues on
// `stream`, never synchronises and never allocates, so a sequence of them can be captured in a CUDA graph.
// Letters (docs/numerics.md): B sources, R decoder rows (B x beams), S source length, T target positions,
// D d_model, H heads, K d_kv, F d_ff, V vocab. T = storage dtype (f32 / f16 / bf16) picked by `dt`.
// The residual stream is always f32; matrices fed to GEMMs are T.
#pragma once

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "receipt/engine.h"

namespace receipt::cuda {

// Decode-loop scalars that change between steps / requests. Lives in device memory so captured CUDA graphs read
// the current values at replay time.
struct DecodeState {
    int step;          // t: position of the token being fed (0 = decoder start token)
    int src_stride;    // S of the current request: rows per source in the encoder / cross K/V buffers
    int min_new;       // EOS is forbidden while step < min_new
    int n_unfinished;  // greedy: rows that have not produced EOS, counted during a step
    int all_finished;  // greedy: set by the step when no row is unfinished
    int n_selected;    // greedy: select blocks of the current step that are done (0 between steps)
    int max_new;       // speculative greedy: most tokens a sequence generates (max_new_tokens)
    int n_steps;       // speculative greedy: decode steps that found a sequence still running
    int n_extra;       // speculative greedy: ids of the draft context before each source (GenerationOptions)
};

// x[n, D] f32 = table[ids[n], :] (T). Ids outside [0, V) read row 0. With ss, also ss[i] = sum_d x[i, d]^2 (f32,
// [n]): the partial sums of squares (one part) of a deferred norm (MmaFusion::ss_in) of x.
void embed_cuda(DType dt, const int* ids, const void* table, int V, int n, int D, float* x, cudaStream_t stream,
                float* ss = nullptr);

// T5LayerNorm with the residual add fused: if delta != null, resid += delta (T) and is written back; then
// y[n, D] (T) = resid * rsqrt(mean(resid^2) + eps) * w. resid: [n, D] f32; w: [D] f32.
void rmsnorm_cuda(DType dt, float* resid, const void* delta, const float* w, int n, int D, float eps, void* y,
                  cudaStream_t stream);

// Encoder self-attention with relative position bias and key padding mask fused (no 1/sqrt(K) scaling).
// qkv: [B, S, 3, H, K] T (fused projection output); bias: [H, 2*S_bias-1] f32 indexed by j - i + S_bias - 1;
// src_len: [B] valid keys; ctx: [B, S, H*K] T.
// ctx[b,i,h] = softmax_{j < len_b}(q[b,i,h] . k[b,j,h] + bias[h, j-i]) . v[b,:,h]
// Routes to encoder_attention_mma_cuda where it applies (16-bit storage, K 32 / 64 / 128; f32 storage with
// split_dt f16 / bf16, K 32 / 64) unless the environment sets RECEIPT_CUDA_ENC_MMA=0, else to
// encoder_attention_tiled_cuda. split_dt: for f32 storage, the half type whose hi + lo pairs may carry the
// products on tensor cores (the fp16-a32 precisions pass their weight type; kF32 = CUDA cores only).
void encoder_attention_cuda(DType dt, const void* qkv, const float* bias, int S_bias, const int* src_len, int B,
                            int S, int H, int K, void* ctx, cudaStream_t stream, DType split_dt = DType::kF32);
// Tensor cores, 64 queries per block walking 64-key tiles with an online softmax (encoder_attention_mma_cuda.cu).
// Not bit-identical to the CUDA-core kernels (another summation order); f16 / bf16, K in {32, 64, 128}; or f32
// q / k / v split into hi + lo halves of split_dt (f16 / bf16) with the three leading products kept, K 32 / 64,
// f32 to within f32 rounding (2^-22 relative for f16 halves).
void encoder_attention_mma_cuda(DType dt, const void* qkv, const float* bias, int S_bias, const int* src_len, int B,
                                int S, int H, int K, void* ctx, cudaStream_t stream, DType split_dt = DType::kF32);
// Whether encoder_attention_mma_cuda takes this storage type, head size and split type.
bool encoder_attention_mma_supports(DType dt, int K, DType split_dt = DType::kF32);
// CUDA cores: K and V of one (sequence, head) staged in shared memory, one warp per 4 queries (16-bit storage);
// falls back to encoder_attention_per_warp_cuda where that does not apply.
void encoder_attention_tiled_cuda(DType dt, const void* qkv, const float* bias, int S_bias, const int* src_len,
                                  int B, int S, int H, int K, void* ctx, cudaStream_t stream);
// The same with one warp per query reading K and V from global memory (any dtype and K). encoder_attention_tiled_cuda
// uses it where the tiled kernel does not apply (fp32 storage, K % 8 != 0, K/V of S keys larger than the
// device's shared memory); kept callable for tests and A/B timing (bit-identical results).
void encoder_attention_per_warp_cuda(DType dt, const void* qkv, const float* bias, int S_bias, const int* src_len,
                                     int B, int S, int H, int K, void* ctx, cudaStream_t stream);

// Split-K ("flash-decoding") scratch of the two decode attention launchers below. With few rows the H x R blocks of
// the single-pass kernels leave most SMs idle, so each (row, head) is cut into n_split contiguous key ranges, one
// block each (grid (H, R, n_split)). Block s writes its partial result (m_s = max score, l_s = sum_j exp(s_j - m_s),
// o_s[0:K] = sum_j exp(s_j - m_s) v_j) and the last block of the (row, head) to finish (atomic counter) combines:
//   M = max_s m_s,  out = sum_s exp(m_s - M) o_s / sum_s exp(m_s - M) l_s.
// Owned by the caller (the engine preallocates it); the launchers never allocate. Launches on one stream may share
// one scratch: each launch leaves every counter at zero, so graph replays need no reset.
struct DecodeAttnSplit {
    float* part = nullptr;     // [R, H, n_split, K + 2] f32 of the current launch: (m_s, l_s, o_s[0:K])
    int* counter = nullptr;    // [n_counters] i32, all zero before the first launch (index r * H + h)
    size_t n_part_floats = 0;  // capacity of `part`
    int n_counters = 0;        // capacity of `counter` (>= R * H for a split launch)
    int n_split_max = 1;       // most splits per (row, head); <= 1 disables splitting
    int n_sm = 0;              // streaming multiprocessors the grid should cover (cudaDevAttrMultiProcessorCount)
    // At the default cross_attention_pipelined_level(), single-row cross-attention launches stream too (the
    // engine plan's choice, timed per model and GPU: see CudaT5Engine::time_cross_single_row).
    bool stream_single_row = false;
};

constexpr int kMaxDecodeSplits = 32;  // n_split <= 32
constexpr int kMinSplitKeys = 32;     // a split scores at least 32 keys (fewer splits are used for short ranges)
constexpr int kDefaultAttnSplits = 4;  // the engine's default n_split_max (fastest measured, see cuda_t5_engine.cpp)

// Splits the decode attention launchers use for R rows and H heads of width K: n_split = ceil(n_sm / (H R)),
// clamped to [1, min(n_split_max, kMaxDecodeSplits)] and to the scratch capacity; 1 (the single-pass kernel) when
// `split` is null or when H R blocks already cover half of the SMs.
inline int decode_attn_n_split(const DecodeAttnSplit* split, int R, int H, int K) {
    if (!split || !split->part || !split->counter || split->n_split_max <= 1 || R <= 0 || H <= 0) return 1;
    const int64_t rh = int64_t(R) * H;
    if (rh > split->n_counters || 2 * rh > split->n_sm) return 1;
    int n = int(std::min<int64_t>((split->n_sm + rh - 1) / rh, std::min(split->n_split_max, kMaxDecodeSplits)));
    while (n > 1 && rh * n * (K + 2) > int64_t(split->n_part_floats)) --n;
    return std::max(n, 1);
}

// Decoder self-attention for one step over the KV cache, with the cache append fused.
// qkv: [R, 3, H, K] T for the token at t = state->step; cache_k, cache_v: [R_max, H, T_max, K] T (rows 0..R-1
// used; position t is written first); bias: [H, T_max] f32 by distance t - j; ctx: [R, H*K] T.
// ctx[r,h] = softmax_{j <= t}(q . k_j + bias[h, t-j]) . v   (causal)
// split (nullable): scratch for the split-K path, taken when decode_attn_n_split(split, R, H, K) > 1.
void decoder_self_attention_cuda(DType dt, const void* qkv, void* cache_k, void* cache_v, const float* bias, int R,
                                 int H, int K, int T_max, const DecodeState* state, void* ctx, cudaStream_t stream,
                                 const DecodeAttnSplit* split = nullptr);

// The same self-attention for d_kv 64 and f16 / bf16 / f32 storage, single pass, each (head, row) block streaming its
// cached keys and values through shared memory (cp.async, 64-key chunks, keys and values of a chunk together) with
// an online softmax (src/ops/self_attention_pipelined_cuda.cu). Arguments as for decoder_self_attention_cuda
// (buffers 16-byte aligned); n_sm: the device's SMs (0 = unknown), for the pre-wait L1 prefetch of launches of at
// most one block per SM. decoder_self_attention_cuda routes launches here by self_attention_pipelined_level().
void self_attention_pipelined_cuda(DType dt, const void* qkv, void* cache_k, void* cache_v, const float* bias, int R,
                                   int H, int K, int T_max, const DecodeState* state, void* ctx, cudaStream_t stream,
                                   int n_sm);
// Whether self_attention_pipelined_cuda takes this type and head width (f16 / bf16 / f32, K = 64).
bool self_attention_pipelined_supports(DType dt, int K);
// Which decoder_self_attention_cuda launches (supported type and width, no split) go to the streaming kernel: 0
// none, 1 (the default) launches whose blocks fit one wave on the device, 2 every launch.
// RECEIPT_CUDA_SELF_PIPE=0 / 1 / 2 in the environment (read once per process) sets it. Never throws.
int self_attention_pipelined_level();

// Cross-attention of R decoder rows over their source's precomputed K/V (no position bias, key padding mask).
// q: [R, H*K] T; cross_kv: [B*S, row_stride] T where row (b*S + j) holds, at column offset k_off, the keys
// [H, K] and at v_off the values (S = state->src_stride); src_row: [R] source of each row; src_len: [B];
// ctx: [R, H*K] T. split (nullable): as for decoder_self_attention_cuda.
void cross_attention_cuda(DType dt, const void* q, const void* cross_kv, int64_t row_stride, int64_t k_off,
                          int64_t v_off, const int* src_row, const int* src_len, int R, int H, int K, int S_max,
                          const DecodeState* state, void* ctx, cudaStream_t stream,
                          const DecodeAttnSplit* split = nullptr);

// The same cross-attention for d_kv 64 and f16 / bf16 / f32 storage, blocks that stream their keys and values through
// shared memory (cp.async, 64-key chunks, the next one in flight while the current one is used) with an online
// softmax (src/ops/cross_attention_pipelined_cuda.cu). Arguments as for cross_attention_cuda (q, cross_kv and ctx
// 16-byte aligned); with `split`, (row, head) pairs are cut into key ranges as decode_attn_n_split says, as there.
// cross_attention_cuda routes launches here by cross_attention_pipelined_level().
void cross_attention_pipelined_cuda(DType dt, const void* q, const void* cross_kv, int64_t row_stride, int64_t k_off,
                                    int64_t v_off, const int* src_row, const int* src_len, int R, int H, int K,
                                    int S_max, const DecodeState* state, void* ctx, cudaStream_t stream,
                                    const DecodeAttnSplit* split = nullptr);
// The same streaming cross-attention with f32 queries and context over f16 / bf16 K/V (kv_dt): the fp16-a32
// decoder with its cross K/V stored in half precision (half the bytes each step reads; the scores and the
// softmax stay f32). Layout as cross_attention_pipelined_cuda, whose constraints it shares.
void cross_attention_f32q_cuda(DType kv_dt, const void* q, const void* cross_kv, int64_t row_stride, int64_t k_off,
                               int64_t v_off, const int* src_row, const int* src_len, int R, int H, int K, int S_max,
                               const DecodeState* state, void* ctx, cudaStream_t stream,
                               const DecodeAttnSplit* split = nullptr);
// Whether cross_attention_pipelined_cuda takes this layout: f16 / bf16 / f32, K = 64, row_stride, k_off and v_off
// multiples of 16 bytes (8 elements, 4 for f32).
bool cross_attention_pipelined_supports(DType dt, int K, int64_t row_stride, int64_t k_off, int64_t v_off);
// Which cross_attention_cuda launches (of a supported layout) go to the streaming kernel: 0 none, 1 single-pass
// launches of more (row, head) blocks than SMs, 2 (the default) every launch of two or more rows, and single-row
// launches when DecodeAttnSplit::stream_single_row says so, 3 every launch.
// RECEIPT_CUDA_CROSS_PIPE=0 / 1 / 2 / 3 in the environment (read once per process) sets it. Never throws.
int cross_attention_pipelined_level();

// The same cross-attention computed from the encoder output with the key and value projections absorbed
// (src/ops/cross_attention_absorbed_cuda.cu): q'_h = Wk_h^T q_h, c'_h = softmax_j(q'_h . e_j) e_j, ctx_h = Wv_h c'_h.
// Reads enc [B*S, D] T (S = state->src_stride; the same for every layer) instead of a layer's K/V [B*S, 2 H K].
// q: [R, H*K] T; wk_t: [H, D, K] T (head h's key projection, transposed); wv: [H*K, D] T (the value projection);
// src_row / src_len as above; qp, cp: [R, H, D] T scratch; ctx: [R, H*K] T. Three launches (two batched
// tensor-core GEMMs around the attention kernel). Needs cross_attention_absorbed_supports(dt, D, K).
// split (nullable): the key ranges' partial results and counters (absorbed_n_split); null = one pass.
void cross_attention_absorbed_cuda(DType dt, const void* q, const void* enc, const void* wk_t, const void* wv,
                                   const int* src_row, const int* src_len, int R, int H, int K, int D, int S_max,
                                   const DecodeState* state, void* qp, void* cp, void* ctx, cudaStream_t stream,
                                   const DecodeAttnSplit* split = nullptr);
// Step 2 alone: cp [R, H, D] = softmax_j(qp[r, h] . e_j) e_j over the source of each row (cross_attention_absorbed_cuda
// runs it between its two GEMMs; cuda_decode_timing_test times it apart).
void absorbed_attention_cuda(DType dt, const void* qp, const void* enc, const int* src_row, const int* src_len, int R,
                             int H, int D, int S_max, const DecodeState* state, void* cp, cudaStream_t stream,
                             const DecodeAttnSplit* split = nullptr);
// Key ranges the absorbed kernel uses for R rows in n_groups groups of 16 heads (1 = single pass): its split-K
// scratch holds [R, n_groups, n_split, 16, D + 2] f32 partials and R n_groups counters.
int absorbed_n_split(const DecodeAttnSplit& split, int R, int n_groups, int D);
// f16 / bf16, D in {256, 384, 512, 768, 1024}, K a multiple of 32, and the kernel's shared memory fits this device.
bool cross_attention_absorbed_supports(DType dt, int D, int K);

// Small-M GEMM for decode steps (src/ops/gemv_cuda.cu): y[m, n] (+)= alpha * x[m, k] . w[n, k]^T, 1 <= m <= 8.
// x: [m, k] T, row stride ldx; w: [n, k] T, row stride ldw; y: [m, n] T (or f32 when out_f32; always f32 for
// T = f32), row stride ldy. f32 accumulation; y = relu?(alpha x.w^T + (accumulate ? y : 0)), ReLU last as in
// cuBLASLt's RELU epilogue; an f16 y saturates at +-65504. 16-byte loads when k, ldx, ldw are multiples of 8 and
// x, w are 16-byte aligned, else a scalar path. Throws InvalidInput on a bad shape.
constexpr int kGemvMaxM = 8;
// Optional T5LayerNorm prologue of gemv_cuda: x[i, :] = T(resid[i, :] * rsqrt(mean(resid[i, :]^2) + eps) * w)
// computed in the kernel from the f32 residual stream, bit-identical to rmsnorm_cuda (same reduction order), so
// that a decode step skips the separate norm kernel. k is the row width; needs k <= gemv_norm_max_k(m).
struct GemvNorm {
    const float* resid = nullptr;  // [m, k] f32, row stride k
    const float* w = nullptr;      // [k] f32
    float eps = 1e-6f;
};
// Largest k a GemvNorm prologue supports at m rows (the x tile in shared memory holds whole rows).
int gemv_norm_max_k(int m);
// x_f32: x is f32 while w is dt (f16 / bf16): products and sums in f32 of the f32 x (the fp16-a32 precisions;
// with a norm prologue, x is the f32 norm output, not rounded to dt); y must then be f32 (out_f32).
void gemv_cuda(DType dt, int m, int n, int k, const void* x, int ldx, const void* w, int ldw, void* y, int ldy,
               float alpha, bool out_f32, bool accumulate, bool relu, cudaStream_t stream,
               const GemvNorm* norm = nullptr, bool x_f32 = false);

// Tensor-core GEMM for decode steps of a few dozen rows (src/ops/gemm_mma_cuda.cu): the gemv_cuda contract
// (y[m, n] (+)= alpha * x[m, k] . w[n, k]^T, f32 accumulation, y T or f32, ReLU last) for f16 / bf16 and any m, on
// mma.m16n8k16 in 16-row tiles; GemmLt sends it 3..32 rows. Needs gemm_mma_supports(...) and 16-byte aligned x and
// w; throws InvalidInput otherwise. x_f32: x is f32 (ldx a multiple of 4) and y must be f32: the split GEMM of the
// fp16-a32 precisions (GemmSpec::split_x), each x value split into hi = T(x) and lo = T(x - hi) in registers and
// both multiplied by the weights, as split_f32_cuda and two GEMMs compute it, in one pass.
bool gemm_mma_supports(DType dt, int m, int n, int k, int ldx, int ldw, bool x_f32 = false);
// Block tile: mt 16-row tiles x nt 8-column tiles (1, 2 or 4 each); 0 = the launcher's choice (or the
// RECEIPT_CUDA_MMA_MT / _NT environment variables). For tests and A/B timing.
struct MmaTiles {
    int mt = 0, nt = 0;
};
// Fusions of the tensor-core decode GEMM (gemm_mma_cuda.cu's header).
// Deferred T5LayerNorm between two such GEMMs. ss_out: this GEMM (y f32, the residual it adds into) also writes
// [column blocks, m] f32 partial sums of the squares of y's new values. ss_in: x is the f32 residual [m, k] (ldx a
// multiple of 4), and each row is used as LayerNorm(x; w, eps) = (x * rsqrt(sum(x^2) / k + eps)) * w, rounded to dt
// (or split, with x_f32), with sum(x^2) the sum of the n_parts partials of ss_in ([n_parts, m], as the producer
// wrote them); w [k] f32, 16-byte aligned.
// Gated activation (T5 v1.1 FFN): with gate, w holds 2n rows [wi_0; wi_1] and y [m, n] = act(h0) * h1 where
// h0 = alpha x . wi_0^T and h1 = alpha x . wi_1^T, each rounded to dt first unless y is f32, as gated_act_cuda
// reads them from a [m, 2n] GEMM output (no accumulate, no relu).
enum class MmaGate : int { kNone = 0, kRelu = 1, kGeluTanh = 2 };
struct MmaFusion {
    const float* ss_in = nullptr;
    int n_parts = 0;
    const float* w = nullptr;
    float eps = 1e-6f;
    float* ss_out = nullptr;
    MmaGate gate = MmaGate::kNone;
};
// Returns the number of column blocks of the launch: the n_parts of the ss_out it wrote.
int gemm_mma_cuda(DType dt, int m, int n, int k, const void* x, int ldx, const void* w, int ldw, void* y, int ldy,
                  float alpha, bool out_f32, bool accumulate, bool relu, cudaStream_t stream, MmaTiles tiles = {},
                  bool x_f32 = false, const MmaFusion* fusion = nullptr);
// `batch` independent GEMMs of the same shape in one launch (grid.z): y_z[m, n] = x_z[m, k] . w_z[n, k]^T with
// x_z = x + z sx, w_z = w + z sw, y_z = y + z sy (element strides, multiples of 8 for x and w), y in T, no
// epilogue. Same requirements per entry as gemm_mma_cuda; used for per-head products (absorbed cross-attention).
void gemm_mma_batched_cuda(DType dt, int batch, int m, int n, int k, const void* x, int ldx, int64_t sx, const void* w,
                           int ldw, int64_t sw, void* y, int ldy, int64_t sy, cudaStream_t stream);

// Gated FFN activation: y[n, F] = act(h[n, 0:F]) * h[n, F:2F], act = gelu_new (tanh) or relu. h: [n, 2F] T.
void gated_act_cuda(DType dt, const void* h, int n, int F, bool gelu, void* y, cudaStream_t stream);

// Greedy step on logits [R, V] f32: EOS masked while state->step < min_new, argmax (first maximum), log-prob of
// the choice added to scores[r]; writes tokens[r, step] and next_tok[r]; rows already finished emit pad and keep
// their score. finished[r] is set on EOS. The step ends in the same launch: the last of the R blocks to finish
// sets state->all_finished = (no row still running), and advances state->step by one.
void greedy_select_cuda(const float* logits, int R, int V, int eos, int pad, DecodeState* state, int* finished,
                        int* next_tok, int* tokens, int T_max, float* scores, cudaStream_t stream);

// Speculative greedy (prompt lookup, src/ops/speculative_cuda.cu). A step feeds Q rows per sequence: row b*Q + 0 the
// last token emitted, rows b*Q + j (j >= 1) draft tokens for the positions after it. On logits [B*Q, V] f32 each
// row takes greedy_select's choice (EOS masked while its position pos[b] + j < min_new, first maximum, log-prob);
// then, for each running sequence b, row 0's choice is emitted and row j's too while draft j equals row j-1's
// choice, that choice is not EOS and fewer than state->max_new tokens are out (the tokens plain greedy search
// would emit, one step per token). tokens[b, pos..], scores[b], finished[b] and pos[b] advance; a sequence ends
// on EOS or at max_new tokens. The next step's rows are written to feed: the last token emitted, then Q - 1
// tokens proposed by prompt lookup: the latest earlier occurrence of the last 3 (else 2, else 1) tokens in the
// draft context (extra [state->n_extra], shared by the sequences), the source ids (enc_ids [B, state->src_stride],
// src_len [B]) and the tokens so far, in that order, and what followed it,
// repeated with the period of that occurrence where it runs past the end. The last block to finish does that and
// sets state->all_finished / n_steps. feed: [B*Q] (the embedding's next_tok); sel_id / sel_logp: [B*Q] scratch.
// grid: B*Q blocks of 1024 threads.
void speculative_select_cuda(const float* logits, int B, int Q, int V, int eos, int pad, DecodeState* state,
                             int* pos, int* finished, int* feed, int* tokens, int T_max, float* scores,
                             const int* enc_ids, const int* src_len, const int* extra, int* sel_id,
                             float* sel_logp, cudaStream_t stream);

// Decoder self-attention of a speculative step: row r = b*Q + j holds the token at position t = pos[b] + j of
// sequence b, whose cache is cache row b. qkv: [B*Q, 3, H, K] T; cache_k/v: [R_max, H, T_max, K] T; bias: [H,
// T_max] f32 by distance; ctx: [B*Q, H*K] T. Writes the keys and values of positions pos[b] .. pos[b] + Q - 1
// (those below T_max) into the cache, then ctx[r,h] = softmax_{i <= t}(q . k_i + bias[h, t-i]) . v (causal);
// rows with t >= T_max get 0.
void draft_self_attention_cuda(DType dt, const void* qkv, void* cache_k, void* cache_v, const float* bias, int B,
                               int Q, int H, int K, int T_max, const int* pos, void* ctx, cudaStream_t stream);

// Beam-search candidates (src/ops/beam_topk_cuda.cu): per row r of logits [R, V] f32, the k largest
// log_softmax(logits[r]) values in descending order (equal values: lower id first) with their ids, the id `masked`
// (>= 0) left out of the candidates but not out of the softmax normaliser, as beam_search() masks EOS under
// min_new_tokens. vals: [R, k] f32, ids: [R, k] int; a row with fewer than k candidates ends in (-inf, -1).
void beam_topk_cuda(const float* logits, int R, int V, int k, int masked, float* vals, int* ids, cudaStream_t stream);

// KV-cache row gather: dst[l, r, :, 0:t, :] = src[l, sel[r], :, 0:t, :] for both K and V of every layer.
// src/dst: [n_lk, R_max, H, T_max, K] T (n_lk = layers x {k, v}); sel: [R] device.
void kv_gather_rows_cuda(DType dt, const void* src, void* dst, const int* sel, int n_lk, int R, int R_max, int H,
                         int T_max, int K, int t, cudaStream_t stream);

// dst[n] (T) = src[n] (f32); f16 saturates at +-65504.
void convert_f32_cuda(DType dt, const float* src, void* dst, int64_t n, cudaStream_t stream);

// Two-part split of f32 GEMM inputs for half-precision weights (GemmSpec::split_x): hi[i, j] = T(x[i, j]) and
// lo[i, j] = T(x[i, j] - hi[i, j]), so hi + lo holds x to about twice T's mantissa (f16: 22 bits, relative error
// <= 2^-22 while |x| stays in f16's normal range; the f16 parts saturate at +-65504 like every f16 activation).
// x: [m, k] f32, row stride ldx; hi, lo: [m, k] T, row stride k. T = f16 or bf16.
void split_f32_cuda(DType dt, const float* x, int m, int k, int ldx, void* hi, void* lo, cudaStream_t stream);

// Whether the launchers add Programmatic Dependent Launch (src/ops/cuda_launch.cuh) to their kernels: true when
// the current device has compute capability >= 9.0 and RECEIPT_CUDA_PDL is not "0" in the environment. The
// variable is read once per process and the answer cached per device. Never throws. Thread-safe.
bool pdl_enabled();

// How much the decode kernels fetch, before they wait for the kernel before them, of what an earlier step or the
// request's setup wrote: 0 nothing; 1 the small-M GEMM's first weight vectors into registers and the attention
// kernels' K / V rows into L1; 2 also the rest of the small-M GEMM's first weight tile into L1; 3 (default) also,
// in cross-attention launches with more (row, head) blocks than SMs, each value row into L2 while the keys are
// scored. RECEIPT_CUDA_PREFETCH=0 / 1 / 2 in the environment (read once per process) picks a lower level; the
// results are the same at every level, only the overlap changes. Never throws. Thread-safe.
int prefetch_level();
// The value of environment variable `name` when it is one digit from 0 to max_level, else default_level: the
// switches read their levels through it, each once per process (an on/off switch as env_level(name, 1, 1): off
// only for "0"). Never throws.
int env_level(const char* name, int max_level, int default_level);
// Largest dynamic shared memory a block may opt in to on the current device
// (cudaDevAttrMaxSharedMemoryPerBlockOptin), read once per device. Throws CudaError when it cannot be read.
int max_smem_optin();
// Shared memory of one streaming multiprocessor in bytes (cudaDevAttrMaxSharedMemoryPerMultiprocessor), read once
// per device. Throws CudaError when it cannot be read.
int max_smem_per_sm();
// Streaming multiprocessors of the current device, read once per device; 0 when it cannot be read. Never throws.
int device_sm_count();
// prefetch_level() > 0.
bool prefetch_enabled();

// Size in bytes of one element of `dt`.
inline int dtype_size(DType dt) { return dt == DType::kF32 ? 4 : 2; }
// True when p is 16-byte aligned (what the decode kernels' 16-byte vector loads need).
inline bool aligned16(const void* p) { return (reinterpret_cast<uintptr_t>(p) & 15u) == 0; }

}  // namespace receipt::cuda
