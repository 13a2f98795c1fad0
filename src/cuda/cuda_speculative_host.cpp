// Speculative greedy decoding with a logits processor on the CUDA engine: the drafts are checked on the host, where
// the processor runs. Two loops, as for plain greedy with a processor (cuda_stepper.cpp):
// - unpipelined (RECEIPT_CUDA_HOST_PIPELINE=0): the shared speculative_greedy_search() over CudaSpecStepper, whose
//   step runs the speculative decoder rows and copies back the logits of the rows fed;
// - pipelined (default): the device runs whole speculative steps (decoder + speculative_select_cuda, which accepts
//   its own argmax choices and proposes the next drafts) one step ahead, while the host applies the processor to
//   the step before and accepts the same way; when the host chose otherwise than the device on a row it kept,
//   the step queued ahead is discarded, a replay step re-feeds the host's tokens from the first position that
//   step may have overwritten, and the host's tokens, positions and drafts are uploaded.
#include <algorithm>
#include <cstring>
#include <functional>

#include "cuda/cuda_check.h"
#include "cuda/cuda_engine_buffers.h"
#include "cuda/cuda_t5_engine.h"
#include "cuda/device_guess.h"
#include "generate/prompt_lookup.h"
#include "generate/search.h"
#include "ops/linear.h"

namespace receipt::cuda {

// The speculative decoder rows behind the DecoderStepper interface: sequence slot b < B_bucket owns rows
// b*Q .. b*Q+Q-1 and cache row b, as in speculative_step. Stepper row r is slot slot_[r]; select_rows only drops
// rows (their slots idle on: fed pad at position 0, logits never read), so the cache is never moved.
class CudaSpecStepper final : public DecoderStepper {
public:
    // After speculative_setup(), which mapped the rows to their sources and uploaded the state.
    CudaSpecStepper(CudaT5Engine& e, int B, int B_bucket) : e_(e), slot_(size_t(B)), B_bucket_(B_bucket) {
        for (int i = 0; i < B; ++i) slot_[size_t(i)] = i;
        // The setup's uploads read the h_rows staging that step_tokens() rewrites.
        RECEIPT_CUDA_CHECK(cudaStreamSynchronize(e_.stream_));
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
    const int B_bucket = speculative_setup(inputs, first, B, options);
    const SpecActive active(*this);
    CudaSpecStepper stepper(*this, B, B_bucket);
    const SearchTokens tok{cfg_.decoder_start_token_id, cfg_.eos_token_id, cfg_.pad_token_id};
    const std::vector<std::vector<int>> sources(inputs.begin() + long(first), inputs.begin() + long(first) + B);
    return speculative_greedy_search(stepper, sources, options, tok, spec_q_ - 1, int(first), &spec_stats_);
}

// Per step k (the device one step ahead, as generate_greedy_host_pipelined):
//   queue step k+1 | wait for step k's fed tokens, positions and logits | per sequence: choices with the processor
//   (greedy_choose) while the drafts fed equal them, the way the device accepts its own argmax (device_guess)
//   every kept choice equal to the device's: step k+1 already runs on the right tokens
//   else (first disagreement at row m of a sequence that started at position p): the device kept fewer tokens
//         there, or others, and its step k+1 rewrote the cache from position p + m + 1 on, which the host may
//         have accepted. A replay step (decoder rows only, no device acceptance) feeds, from position
//         q = p + m + 1, the host's tokens up to its last one and then prompt-lookup drafts; the host accepts
//         from its last token's row. Then the host's tokens, positions, finished flags and next feed go to the
//         device and the pipelined steps resume.
std::vector<GenerationResult> CudaT5Engine::generate_greedy_host_speculative_pipelined(
    const std::vector<std::vector<int>>& inputs, size_t first, int B, const GenerationOptions& options) {
    Buffers& b = *buf_;
    const int Q = spec_q_, V = cfg_.vocab_size, eos = cfg_.eos_token_id;
    const int B_bucket = speculative_setup(inputs, first, B, options);
    const int R = B_bucket * Q;
    const size_t half = size_t(R_max_) * V;  // floats per half of h_logits
    const SpecActive active(*this);
    const SearchTokens tok{cfg_.decoder_start_token_id, eos, cfg_.pad_token_id};
    std::vector<GenerationResult> results(static_cast<size_t>(B));
    std::vector<char> done(size_t(B), 0);
    std::vector<int> resync(size_t(B), -1);  // per sequence: the position a replay starts from, -1 = in step
    // The token at decoder position i of sequence s (position 0: the decoder start token).
    auto token_at = [&](int s, int i) { return i == 0 ? tok.decoder_start : results[size_t(s)].ids[size_t(i - 1)]; };

    // Queues step k: copies of the tokens it feeds and the positions it starts from, the step (decoder + accept /
    // propose on the device's choices), then the copy of its logits into half k % 2.
    auto enqueue = [&](int k) {
        int* fed = b.h_spec.as<int>() + (k & 1) * 2 * R_max_;
        RECEIPT_CUDA_CHECK(cudaMemcpyAsync(fed, b.next_tok.get(), size_t(R) * 4, cudaMemcpyDeviceToHost, stream_));
        RECEIPT_CUDA_CHECK(cudaMemcpyAsync(fed + R_max_, b.spec_pos.get(), size_t(B_bucket) * 4,
                                           cudaMemcpyDeviceToHost, stream_));
        run_graph(spec_graphs_, B_bucket, [&] { speculative_step(B_bucket); }, R);
        RECEIPT_CUDA_CHECK(cudaMemcpyAsync(b.h_logits.as<float>() + (k & 1) * half, b.logits.get(),
                                           size_t(R) * V * sizeof(float), cudaMemcpyDeviceToHost, stream_));
        RECEIPT_CUDA_CHECK(cudaEventRecord(b.logits_event[k & 1], stream_));
    };
    // Host acceptance for sequence s over rows j0.. of a step that fed `fed` [Q] (accept_speculative_rows, which
    // marks the sequence done). Returns the first row whose choice differs from the device's (guesses checked
    // only when check_device), else -1.
    auto accept = [&](int s, int j0, const int* fed, float* logits, bool check_device) {
        GenerationResult& res = results[size_t(s)];
        const int t0 = int(res.ids.size());
        int guess[kMaxDraftTokens + 1];
        std::function<void(int, const float*, int)> note_guess;
        if (check_device)
            note_guess = [&](int j, const float* row, int t) {
                guess[j] = device_guess(row, V, t < options.min_new_tokens, eos);
            };
        done[size_t(s)] = accept_speculative_rows(logits + size_t(s) * Q * V, V, fed, j0, Q, options, tok,
                                                  int(first) + s, res, note_guess);
        if (check_device)
            for (int j = j0; j - j0 < int(res.ids.size()) - t0; ++j)
                if (res.ids[size_t(t0 + j - j0)] != guess[j]) return j;
        return -1;
    };
    // Fills sequence s's Q rows for a step from position q (<= its position p = |ids|): the tokens at positions
    // q .. p (the host's, the last one at p), then prompt-lookup drafts, the last token again where the lookup
    // gives fewer. Returns the row of the token at p.
    auto fill_feed = [&](int s, int q, int* row) {
        const std::vector<int>& ids = results[size_t(s)].ids;
        const int p = int(ids.size());
        for (int j = 0; j <= p - q; ++j) row[j] = token_at(s, q + j);
        const std::vector<int> drafts =
            prompt_lookup_drafts(inputs[first + size_t(s)], ids, Q - 1 - (p - q), &options.draft_context);
        for (int j = p - q + 1; j < Q; ++j) {
            const int d = j - (p - q) - 1;
            row[j] = d < int(drafts.size()) ? drafts[size_t(d)] : row[p - q];
        }
        return p - q;
    };
    // After the host's last tokens: every slot's tokens, position, finished flag and next feed (last token +
    // prompt-lookup drafts) to the device.
    auto upload_host_state = [&]() {
        int* feed = b.h_rows.as<int>() + R_max_;
        int* seq = b.h_rows.as<int>() + 3 * R_max_;  // finished [B_bucket], then positions [B_bucket]
        int* toks = b.h_tokens.as<int>();
        for (int s = 0; s < B_bucket; ++s) {
            const bool live = s < B && !done[size_t(s)];
            const int p = s < B ? int(results[size_t(s)].ids.size()) : 0;
            seq[s] = live ? 0 : 1;
            seq[B_bucket + s] = p;
            std::fill(feed + s * Q, feed + (s + 1) * Q, cfg_.pad_token_id);
            if (!live) continue;
            const std::vector<int>& ids = results[size_t(s)].ids;
            std::copy(ids.begin(), ids.end(), toks + size_t(s) * T_max_);
            fill_feed(s, p, feed + s * Q);
            if (p > 0)
                RECEIPT_CUDA_CHECK(cudaMemcpyAsync(b.tokens.as<int>() + size_t(s) * T_max_, toks + size_t(s) * T_max_,
                                                   size_t(p) * 4, cudaMemcpyHostToDevice, stream_));
        }
        RECEIPT_CUDA_CHECK(cudaMemcpyAsync(b.next_tok.get(), feed, size_t(R) * 4, cudaMemcpyHostToDevice, stream_));
        RECEIPT_CUDA_CHECK(cudaMemcpyAsync(b.finished.get(), seq, size_t(B_bucket) * 4, cudaMemcpyHostToDevice, stream_));
        RECEIPT_CUDA_CHECK(cudaMemcpyAsync(b.spec_pos.get(), seq + B_bucket, size_t(B_bucket) * 4,
                                           cudaMemcpyHostToDevice, stream_));
    };
    // The replay step (see above), synchronous, its logits in half `h`.
    auto replay = [&](int h) {
        int* feed = b.h_spec.as<int>() + h * 2 * R_max_;  // this half was read already: staging for the feed
        int* pos = feed + R_max_;
        std::vector<int> j0(size_t(B), 0);
        for (int s = 0; s < B_bucket; ++s) {
            std::fill(feed + s * Q, feed + (s + 1) * Q, cfg_.pad_token_id);
            pos[s] = 0;
            if (s >= B || done[size_t(s)]) continue;
            const int p = int(results[size_t(s)].ids.size());  // the host's last token sits at position p
            const int q = resync[size_t(s)] >= 0 ? std::min(resync[size_t(s)], p) : p;
            j0[size_t(s)] = fill_feed(s, q, feed + s * Q);  // rows of tokens the host already has (<= Q - 1)
            pos[s] = q;
        }
        RECEIPT_CUDA_CHECK(cudaMemcpyAsync(b.next_tok.get(), feed, size_t(R) * 4, cudaMemcpyHostToDevice, stream_));
        RECEIPT_CUDA_CHECK(cudaMemcpyAsync(b.spec_pos.get(), pos, size_t(B_bucket) * 4, cudaMemcpyHostToDevice, stream_));
        run_graph(spec_forward_graphs_, B_bucket, [&] { decoder_forward(R); }, R);
        float* logits = b.h_logits.as<float>() + size_t(h) * half;
        RECEIPT_CUDA_CHECK(cudaMemcpyAsync(logits, b.logits.get(), size_t(R) * V * sizeof(float), cudaMemcpyDeviceToHost,
                                           stream_));
        RECEIPT_CUDA_CHECK(cudaStreamSynchronize(stream_));
#pragma omp parallel for num_threads(ops::cpu_threads()) schedule(static) if (B > 1)
        for (int s = 0; s < B; ++s)
            if (!done[size_t(s)]) accept(s, j0[size_t(s)], feed + s * Q, logits, false);
        ++spec_stats_.steps;
    };

    auto count_live = [&] { return int(std::count(done.begin(), done.end(), 0)); };
    int n_live = B;
    enqueue(0);
    for (int k = 0; n_live > 0; ++k) {
        enqueue(k + 1);  // on the device's choices
        RECEIPT_CUDA_CHECK(cudaEventSynchronize(b.logits_event[k & 1]));
        const int* fed = b.h_spec.as<int>() + (k & 1) * 2 * R_max_;
        float* logits = b.h_logits.as<float>() + (k & 1) * half;
        int n_bad_pos = 0;
#pragma omp parallel for num_threads(ops::cpu_threads()) schedule(static) if (B > 1) reduction(+ : n_bad_pos)
        for (int s = 0; s < B; ++s) {
            resync[size_t(s)] = -1;
            if (done[size_t(s)]) continue;
            const int p = fed[R_max_ + s];
            if (p != int(results[size_t(s)].ids.size())) {  // the device ran on other tokens: a bug
                ++n_bad_pos;
                continue;
            }
            const int m = accept(s, 0, fed + s * Q, logits, true);
            if (m >= 0) resync[size_t(s)] = p + m + 1;
        }
        RECEIPT_CHECK(n_bad_pos == 0, Error, "speculative greedy: the device lost step with the host");
        ++spec_stats_.steps;
        ++n_spec_piped_steps_;
        bool redo = false;
        for (int s = 0; s < B; ++s) redo = redo || (resync[size_t(s)] >= 0 && !done[size_t(s)]);
        n_live = count_live();
        if (!redo || n_live == 0) continue;
        // Step k+1 ran on the device's choices; replay behind it (stream order), then resume on the host's.
        ++n_spec_replays_;
        replay(k & 1);
        n_live = count_live();
        if (n_live == 0) break;
        upload_host_state();
        enqueue(k + 1);
    }
    RECEIPT_CUDA_CHECK(cudaStreamSynchronize(stream_));  // a step queued past the end may still run
    for (const auto& r : results) spec_stats_.tokens += static_cast<long long>(r.ids.size());
    return results;
}

}  // namespace receipt::cuda
