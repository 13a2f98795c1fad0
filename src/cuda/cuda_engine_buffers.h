// The preallocated device / pinned buffers of CudaT5Engine (private to src/cuda).
#pragma once

#include "cuda/cuda_t5_engine.h"

namespace receipt::cuda {

constexpr int kBeamTopKMax = 64;  // candidates per row the GPU can pick for beam search (2 x num_beams <= 64)

struct CudaT5Engine::Buffers {
    // Encoder, [R_max * S_max] rows.
    DeviceBuffer enc_ids, src_len, enc_resid, enc_x, enc_qkv, enc_att, enc_h, enc_hg;
    DeviceBuffer cross_kv;              // [L_dec, R_max * S_max, 2 * H*K] T: per layer, row b*S + j = keys, values
    DeviceBuffer enc_bias, dec_bias;    // [H, 2*S_max - 1], [H, T_max] f32
    // Decoder, [R_max] rows.
    DeviceBuffer next_tok, src_row, finished, tokens, scores, sel;
    DeviceBuffer dec_resid, dec_x, dec_qkv, dec_q, dec_att, dec_h, dec_hg, logits;
    DeviceBuffer norm_ss;               // [ceil(D / 8), R_max] f32: deferred norm partial sums (residual_gemm)
    DeviceBuffer dec_qp, dec_cp;        // absorbed cross-attention: q' and c', [R_max, H, D] T (empty when off)
    DeviceBuffer absorb_part, absorb_counter;  // its split-K scratch (absorbed_n_split), counters zeroed once
    DecodeAttnSplit absorb_split;
    DeviceBuffer cache, cache_tmp;      // [2 * L_dec, R_max, H, T_max, K] T (layer l: k at 2l, v at 2l+1)
    DeviceBuffer state;                 // DecodeState
    // Speculative greedy: spec_pos [R_max] tokens emitted per sequence; spec_sel / spec_logp [R_max] each row's
    // choice and its log-probability (speculative_select_cuda scratch).
    DeviceBuffer spec_pos, spec_sel, spec_logp;
    DeviceBuffer draft_ctx;  // [kMaxDraftContext] ids: GenerationOptions::draft_context of the current call
    // Split-K decode attention scratch (DecodeAttnSplit in ops/t5_ops_cuda.h), shared by every layer's
    // cross-attention (self-attention runs single-pass, see decoder_forward): attn_part [rows that split, H, n_split_max, K + 2] f32, attn_counter [R_max, H] i32 (zeroed
    // once; every launch leaves it zero). attn_split points into them (n_split_max = 1: splitting off).
    DeviceBuffer attn_part, attn_counter;
    DecodeAttnSplit attn_split;
    // Beam candidates (CudaStepper::step_top_k): [R_max, kBeamTopKMax] values f32 and ids i32.
    DeviceBuffer top_vals, top_ids;
    // f32 activations (a32_): the hi / lo half-precision parts of a GEMM input (GemmLt::set_split_scratch).
    DeviceBuffer split;
    // Pinned staging.
    // h_rows: [4, R_max] ints: source lengths | next_tok | src_row | finished (host staging).
    // h_top: [2, R_max, kBeamTopKMax] beam candidates (values, then ids).
    // h_logits: [2, R_max, V] f32, two steps' logits (the pipelined host greedy loop reads one while the next
    // arrives); logits_event[s] marks the copy into half s.
    // h_spec: [2, 2, R_max] ints, per half the tokens a speculative step fed, then its sequences' positions
    // (the pipelined host check of drafts; allocated with draft tokens only).
    PinnedBuffer h_ids, h_rows, h_state, h_flags, h_tokens, h_scores, h_logits, h_top, h_spec;
    cudaEvent_t flag_event[2] = {nullptr, nullptr};
    cudaEvent_t logits_event[2] = {nullptr, nullptr};
    ~Buffers() {
        for (cudaEvent_t& e : flag_event)
            if (e) cudaEventDestroy(e);
        for (cudaEvent_t& e : logits_event)
            if (e) cudaEventDestroy(e);
    }
};

}  // namespace receipt::cuda
