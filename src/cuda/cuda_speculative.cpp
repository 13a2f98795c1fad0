// Speculative greedy generation on the GPU with prompt-lookup drafts (EngineOptions::draft_tokens). Each step
// is one replayed CUDA graph: the decoder over Q = 1 + draft_tokens rows per sequence (the last token emitted and
// Q - 1 drafts at the positions after it), then speculative_select_cuda, which emits the tokens greedy search
// would (row 0's choice, and row j's while draft j equals row j-1's choice), advances each sequence by that many
// positions and writes the next step's drafts. As in generate_greedy the host never waits inside the loop: the
// all-finished flag is copied to pinned memory every kCheckEvery steps and read one check later. Rejected drafts
// leave keys and values past a sequence's position in its cache; the next step overwrites them before any
// query reads them (draft_self_attention_cuda).
// With a logits processor the drafts are checked on the host instead (generate_greedy_host_speculative): the
// shared speculative_greedy_search() drives CudaSpecStepper, whose step runs the same decoder rows and copies
// back the logits of the rows fed.
#include <algorithm>
#include <cstring>

#include "cuda/cuda_check.h"
#include "cuda/cuda_engine_buffers.h"
#include "cuda/cuda_t5_engine.h"
#include "generate/search.h"

namespace receipt::cuda {

namespace {

// decoder_forward runs the speculative rows (B x spec_q_, draft_self_attention_cuda) while this is alive.
struct ActiveFlag {
    bool& f;
    explicit ActiveFlag(bool& flag) : f(flag) { f = true; }
    ~ActiveFlag() { f = false; }
};

}  // namespace

void CudaT5Engine::speculative_step(int B_bucket) {
    Buffers& b = *buf_;
    decoder_forward(B_bucket * spec_q_);
    timed_op("dec.speculative_select", [&] {
        speculative_select_cuda(b.logits.as<float>(), B_bucket, spec_q_, cfg_.vocab_size, cfg_.eos_token_id,
                                cfg_.pad_token_id, b.state.as<DecodeState>(), b.spec_pos.as<int>(),
                                b.finished.as<int>(), b.next_tok.as<int>(), b.tokens.as<int>(), T_max_,
                                b.scores.as<float>(), b.enc_ids.as<int>(), b.src_len.as<int>(), b.spec_sel.as<int>(),
                                b.spec_logp.as<float>(), stream_);
    });
}

std::vector<GenerationResult> CudaT5Engine::generate_greedy_speculative(const std::vector<std::vector<int>>& inputs,
                                                                        size_t first, int B,
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
    upload_state(0, options.min_new_tokens, options.max_new_tokens);

    const ActiveFlag active(spec_active_);
    // Every step emits at least one token per running sequence, so max_new_tokens steps always suffice.
    run_until_finished(options.max_new_tokens, [&] {
        run_graph(spec_graphs_, B_bucket, [&] { speculative_step(B_bucket); }, R);
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

// The speculative decoder rows behind the DecoderStepper interface: sequence slot b < B_bucket owns rows
// b*Q .. b*Q+Q-1 and cache row b, as in speculative_step. Stepper row r is slot slot_[r]; select_rows only drops
// rows (their slots idle on: fed pad at position 0, logits never read), so the cache is never moved.
class CudaSpecStepper final : public DecoderStepper {
public:
    CudaSpecStepper(CudaT5Engine& e, int B, int B_bucket) : e_(e), slot_(size_t(B)), B_bucket_(B_bucket) {
        for (int i = 0; i < B; ++i) slot_[size_t(i)] = i;
        const int Q = e_.spec_q_, R = B_bucket * Q;
        auto& b = *e_.buf_;
        int* src_row = b.h_rows.as<int>() + 2 * e_.R_max_;
        for (int r = 0; r < R; ++r) src_row[r] = r / Q < B ? r / Q : 0;  // idle slots attend to source 0
        RECEIPT_CUDA_CHECK(
            cudaMemcpyAsync(b.src_row.get(), src_row, size_t(R) * 4, cudaMemcpyHostToDevice, e_.stream_));
        e_.upload_state(0, 0, 0);  // the source stride for cross-attention
    }

    int vocab_size() const override { return e_.cfg_.vocab_size; }
    int n_rows() const override { return int(slot_.size()); }
    int max_tokens_per_row() const override { return e_.spec_q_; }
    void step(const std::vector<int>& tokens, int t, float* logits) override {
        step_tokens(tokens, std::vector<int>(slot_.size(), 1), std::vector<int>(slot_.size(), t), logits);
    }

    void step_tokens(const std::vector<int>& tokens, const std::vector<int>& counts, const std::vector<int>& pos,
                     float* logits) override {
        const int N = n_rows(), Q = e_.spec_q_, R = B_bucket_ * Q, V = e_.cfg_.vocab_size;
        RECEIPT_CHECK(int(counts.size()) == N && int(pos.size()) == N, InvalidInput,
                      "CudaSpecStepper: counts / positions != rows");
        auto& b = *e_.buf_;
        int* feed = b.h_rows.as<int>() + e_.R_max_;
        int* spec_pos = b.h_rows.as<int>() + 3 * e_.R_max_;
        std::fill(feed, feed + R, e_.cfg_.pad_token_id);
        std::fill(spec_pos, spec_pos + B_bucket_, 0);
        size_t at = 0;
        for (int r = 0; r < N; ++r) {
            RECEIPT_CHECK(counts[r] >= 1 && counts[r] <= Q, InvalidInput,
                          "CudaSpecStepper: tokens per row outside [1, max_tokens_per_row]");
            RECEIPT_CHECK(pos[r] >= 0 && pos[r] + counts[r] <= e_.T_max_, InvalidInput,
                          "CudaSpecStepper: position beyond max_total_tokens");
            RECEIPT_CHECK(at + size_t(counts[r]) <= tokens.size(), InvalidInput,
                          "CudaSpecStepper: fewer tokens than counts");
            const int s = slot_[size_t(r)];
            // Rows past counts[r] repeat the last token: their keys land past what this call reads and are
            // overwritten later; their logits are not copied.
            for (int j = 0; j < Q; ++j) feed[s * Q + j] = tokens[at + size_t(std::min(j, counts[r] - 1))];
            spec_pos[s] = pos[r];
            at += size_t(counts[r]);
        }
        RECEIPT_CHECK(at == tokens.size(), InvalidInput, "CudaSpecStepper: token count != sum of counts");
        RECEIPT_CUDA_CHECK(cudaMemcpyAsync(b.next_tok.get(), feed, size_t(R) * 4, cudaMemcpyHostToDevice, e_.stream_));
        RECEIPT_CUDA_CHECK(cudaMemcpyAsync(b.spec_pos.get(), spec_pos, size_t(B_bucket_) * 4, cudaMemcpyHostToDevice,
                                           e_.stream_));
        e_.run_graph(e_.spec_forward_graphs_, B_bucket_, [&] { e_.decoder_forward(R); }, R);
        float* h = b.h_logits.as<float>();
        size_t out_row = 0;
        e_.timed_op("stepper.logits_d2h", [&] {
            for (int r = 0; r < N; ++r) {  // the rows fed, packed in the order of `tokens`
                const size_t n = size_t(counts[r]) * V;
                RECEIPT_CUDA_CHECK(cudaMemcpyAsync(h + out_row * V, b.logits.as<float>() + size_t(slot_[size_t(r)]) * Q * V,
                                                   n * 4, cudaMemcpyDeviceToHost, e_.stream_));
                out_row += size_t(counts[r]);
            }
        });
        RECEIPT_CUDA_CHECK(cudaStreamSynchronize(e_.stream_));
        std::memcpy(logits, h, out_row * V * 4);
    }

    void select_rows(const std::vector<int>& src, int /*t_cached*/) override {
        std::vector<int> slots;
        slots.reserve(src.size());
        for (size_t i = 0; i < src.size(); ++i) {
            RECEIPT_CHECK(src[i] >= 0 && src[i] < n_rows() && (i == 0 || src[i] > src[i - 1]), InvalidInput,
                          "CudaSpecStepper::select_rows: rows can only be dropped");
            slots.push_back(slot_[size_t(src[i])]);
        }
        slot_.swap(slots);
    }

private:
    CudaT5Engine& e_;
    std::vector<int> slot_;  // stepper row -> sequence slot
    int B_bucket_;
};

std::vector<GenerationResult> CudaT5Engine::generate_greedy_host_speculative(
    const std::vector<std::vector<int>>& inputs, size_t first, int B, const GenerationOptions& options) {
    int B_bucket = 1;
    while (B_bucket < B) B_bucket *= 2;
    B_bucket = std::min(B_bucket, R_max_ / spec_q_);
    RECEIPT_CHECK(B <= B_bucket, InvalidInput, "speculative greedy: batch too large for the engine");
    encode(inputs, first, B);
    const ActiveFlag active(spec_active_);
    CudaSpecStepper stepper(*this, B, B_bucket);
    SearchTokens tok;
    tok.decoder_start = cfg_.decoder_start_token_id;
    tok.eos = cfg_.eos_token_id;
    tok.pad = cfg_.pad_token_id;
    const std::vector<std::vector<int>> sources(inputs.begin() + long(first), inputs.begin() + long(first) + B);
    return speculative_greedy_search(stepper, sources, options, tok, spec_q_ - 1, int(first), &spec_stats_);
}

}  // namespace receipt::cuda
