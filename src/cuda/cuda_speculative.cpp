// Speculative greedy generation on the GPU with prompt-lookup drafts (EngineOptions::draft_tokens). Each step
// is one replayed CUDA graph: the decoder over Q = 1 + draft_tokens rows per sequence (the last token emitted and
// Q - 1 drafts at the positions after it), then speculative_select_cuda, which emits the tokens greedy search
// would (row 0's choice, and row j's while draft j equals row j-1's choice), advances each sequence by that many
// positions and writes the next step's drafts. As in generate_greedy the host never waits inside the loop: the
// all-finished flag is copied to pinned memory every kCheckEvery steps and read one check later. Rejected drafts
// leave keys and values past a sequence's position in its cache; the next step overwrites them before any
// query reads them (draft_self_attention_cuda).
// With a logits processor the drafts are checked on the host instead (cuda_speculative_host.cpp).
#include <algorithm>

#include "cuda/cuda_check.h"
#include "cuda/cuda_engine_buffers.h"
#include "cuda/cuda_t5_engine.h"

namespace receipt::cuda {

void CudaT5Engine::speculative_step(int B_bucket) {
    Buffers& b = *buf_;
    decoder_forward(B_bucket * spec_q_);
    timed_op("dec.speculative_select", [&] {
        speculative_select_cuda(b.logits.as<float>(), B_bucket, spec_q_, cfg_.vocab_size, cfg_.eos_token_id,
                                cfg_.pad_token_id, b.state.as<DecodeState>(), b.spec_pos.as<int>(),
                                b.finished.as<int>(), b.next_tok.as<int>(), b.tokens.as<int>(), T_max_,
                                b.scores.as<float>(), b.enc_ids.as<int>(), b.src_len.as<int>(), b.draft_ctx.as<int>(),
                                b.spec_sel.as<int>(), b.spec_logp.as<float>(), stream_);
    });
}

int CudaT5Engine::speculative_setup(const std::vector<std::vector<int>>& inputs, size_t first, int B,
                                    const GenerationOptions& options) {
    Buffers& b = *buf_;
    const int Q = spec_q_;
    int B_bucket = 1;  // sequence buckets: powers of two, one graph each
    while (B_bucket < B) B_bucket *= 2;
    B_bucket = std::min(B_bucket, R_max_ / Q);
    RECEIPT_CHECK(B <= B_bucket, InvalidInput, "speculative greedy: batch too large for the engine");
    encode(inputs, first, B);
    const int R = B_bucket * Q;
    // h_rows[0:R_max] holds the source lengths of encode(); the rows below follow it. Sequences B..B_bucket-1 pad
    // the bucket: finished from the start, attending to source 0.
    int* rows = b.h_rows.as<int>() + R_max_;
    int* feed = rows;
    int* src_row = rows + R_max_;
    int* seq = rows + 2 * R_max_;  // finished [B_bucket], then positions [B_bucket]
    for (int r = 0; r < R; ++r) {
        const int s = r / Q;
        feed[r] = r % Q == 0 ? cfg_.decoder_start_token_id : cfg_.pad_token_id;
        src_row[r] = s < B ? s : 0;
    }
    for (int s = 0; s < B_bucket; ++s) {
        seq[s] = s < B ? 0 : 1;
        seq[B_bucket + s] = 0;
    }
    RECEIPT_CUDA_CHECK(cudaMemcpyAsync(b.next_tok.get(), feed, size_t(R) * 4, cudaMemcpyHostToDevice, stream_));
    RECEIPT_CUDA_CHECK(cudaMemcpyAsync(b.src_row.get(), src_row, size_t(R) * 4, cudaMemcpyHostToDevice, stream_));
    RECEIPT_CUDA_CHECK(cudaMemcpyAsync(b.finished.get(), seq, size_t(B_bucket) * 4, cudaMemcpyHostToDevice, stream_));
    RECEIPT_CUDA_CHECK(
        cudaMemcpyAsync(b.spec_pos.get(), seq + B_bucket, size_t(B_bucket) * 4, cudaMemcpyHostToDevice, stream_));
    RECEIPT_CUDA_CHECK(cudaMemsetAsync(b.scores.get(), 0, size_t(B_bucket) * 4, stream_));
    const int n_extra = std::min(int(options.draft_context.size()), kMaxDraftContext);
    if (n_extra > 0)  // pageable source: the call returns once it is staged, so the options may go (ids: validate())
        RECEIPT_CUDA_CHECK(cudaMemcpyAsync(b.draft_ctx.get(), options.draft_context.data(), size_t(n_extra) * 4,
                                           cudaMemcpyHostToDevice, stream_));
    upload_state(0, options.min_new_tokens, options.max_new_tokens, n_extra);
    return B_bucket;
}

std::vector<GenerationResult> CudaT5Engine::generate_greedy_speculative(const std::vector<std::vector<int>>& inputs,
                                                                        size_t first, int B,
                                                                        const GenerationOptions& options) {
    Buffers& b = *buf_;
    const int B_bucket = speculative_setup(inputs, first, B, options);
    const int R = B_bucket * spec_q_;
    int* seq = b.h_rows.as<int>() + 3 * R_max_;  // positions read back into [B_bucket, 2 B_bucket)
    const SpecActive active(*this);
    // Every step emits at least one token per running sequence, so max_new_tokens steps always suffice.
    run_until_finished(options.max_new_tokens, [&](int n) {
        run_steps(
            spec_graphs_, B_bucket, n, [&] { speculative_step(B_bucket); }, R);
    });

    int* h_tokens = b.h_tokens.as<int>();
    float* h_scores = b.h_scores.as<float>();
    auto* h_state = b.h_state.as<DecodeState>();
    RECEIPT_CUDA_CHECK(cudaMemcpyAsync(h_tokens, b.tokens.get(), size_t(B) * T_max_ * 4, cudaMemcpyDeviceToHost,
                                       stream_));
    RECEIPT_CUDA_CHECK(cudaMemcpyAsync(h_scores, b.scores.get(), size_t(B) * 4, cudaMemcpyDeviceToHost, stream_));
    RECEIPT_CUDA_CHECK(cudaMemcpyAsync(h_state, b.state.get(), sizeof(DecodeState), cudaMemcpyDeviceToHost, stream_));
    RECEIPT_CUDA_CHECK(cudaMemcpyAsync(seq + B_bucket, b.spec_pos.get(), size_t(B) * 4, cudaMemcpyDeviceToHost,
                                       stream_));
    RECEIPT_CUDA_CHECK(cudaStreamSynchronize(stream_));

    std::vector<GenerationResult> out(B);
    for (int i = 0; i < B; ++i) {
        const int* row = h_tokens + size_t(i) * T_max_;
        const int n = std::min(seq[B_bucket + i], options.max_new_tokens);
        for (int t = 0; t < n; ++t) {
            out[i].ids.push_back(row[t]);
            if (row[t] == cfg_.eos_token_id) break;
        }
        out[i].score = h_scores[i];
        spec_stats_.tokens += long(out[i].ids.size());
    }
    spec_stats_.steps += h_state->n_steps;
    return out;
}

}  // namespace receipt::cuda
