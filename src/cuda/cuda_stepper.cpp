// Beam search on the CUDA engine: the GPU decoder behind the DecoderStepper interface, driven by the shared host
// beam_search() (src/generate/beam_search.cpp), which implements transformers' beam bookkeeping. Each step runs
// the decoder for the live rows on the GPU, picks each row's 2 x num_beams best log-probabilities there
// (beam_topk_cuda) and copies only those back; row selection (beam reorder, dropping finished sources) gathers the
// KV cache on the GPU. The host-greedy path (logits processors) still copies the f32 logits [N, V]; by default it
// runs pipelined, the GPU one step ahead on its own guess (generate_greedy_host_pipelined).
#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>

#include "cuda/cuda_check.h"
#include "cuda/cuda_engine_buffers.h"
#include "cuda/device_guess.h"
#include "generate/search.h"
#include "ops/linear.h"

namespace receipt::cuda {

class CudaStepper final : public DecoderStepper {
public:
    // Rows r = b*K + k for sources b < B, beams k < K; every row of source b reads source b's cross K/V.
    CudaStepper(CudaT5Engine& e, int B, int K) : e_(e), n_(B * K), src_row_(size_t(B) * K) {
        for (int r = 0; r < n_; ++r) src_row_[size_t(r)] = r / K;
        upload_src_rows();
    }

    int vocab_size() const override { return e_.cfg_.vocab_size; }
    int n_rows() const override { return n_; }

    void step(const std::vector<int>& tokens, int t, float* logits) override {
        feed(tokens, t);
        auto& b = *e_.buf_;
        const size_t bytes = size_t(n_) * e_.cfg_.vocab_size * sizeof(float);
        e_.timed_op("stepper.logits_d2h", [&] {
            RECEIPT_CUDA_CHECK(
                cudaMemcpyAsync(b.h_logits.as<float>(), b.logits.get(), bytes, cudaMemcpyDeviceToHost, e_.stream_));
        });
        RECEIPT_CUDA_CHECK(cudaStreamSynchronize(e_.stream_));
        std::memcpy(logits, b.h_logits.as<float>(), bytes);
    }

    // Candidates for beam search picked on the GPU (beam_topk_cuda): k (value, id) pairs per row come back
    // instead of the [N, V] logits.
    // RECEIPT_CUDA_BEAM_TOPK=0 copies the whole logits instead (for A/B timing).
    bool supports_top_k(int k) const override {
        static const bool on = [] {
            const char* e = std::getenv("RECEIPT_CUDA_BEAM_TOPK");
            return !(e && std::string(e) == "0");
        }();
        return on && k >= 1 && k <= kBeamTopKMax && k < e_.cfg_.vocab_size;
    }

    void step_top_k(const std::vector<int>& tokens, int t, int k, int masked, float* logp, int* ids) override {
        RECEIPT_CHECK(supports_top_k(k), InvalidInput, "CudaStepper::step_top_k: k out of range");
        feed(tokens, t);
        auto& b = *e_.buf_;
        const size_t n = size_t(n_) * k;
        e_.timed_op("stepper.beam_topk", [&] {
            beam_topk_cuda(b.logits.as<float>(), n_, e_.cfg_.vocab_size, k, masked, b.top_vals.as<float>(),
                           b.top_ids.as<int>(), e_.stream_);
            RECEIPT_CUDA_CHECK(cudaMemcpyAsync(b.h_top.as<float>(), b.top_vals.get(), n * 4, cudaMemcpyDeviceToHost,
                                               e_.stream_));
            RECEIPT_CUDA_CHECK(cudaMemcpyAsync(b.h_top.as<int>() + n, b.top_ids.get(), n * 4, cudaMemcpyDeviceToHost,
                                               e_.stream_));
        });
        RECEIPT_CUDA_CHECK(cudaStreamSynchronize(e_.stream_));
        std::memcpy(logp, b.h_top.as<float>(), n * 4);
        std::memcpy(ids, b.h_top.as<int>() + n, n * 4);
    }

    void select_rows(const std::vector<int>& src, int t_cached) override {
        const int n_new = int(src.size());
        RECEIPT_CHECK(n_new <= e_.R_max_, InvalidInput, "CudaStepper::select_rows: too many rows");
        for (int s : src) RECEIPT_CHECK(s >= 0 && s < n_, InvalidInput, "CudaStepper::select_rows: bad source row");
        t_cached = std::clamp(t_cached, 0, e_.T_max_);
        auto& b = *e_.buf_;
        int* h_sel = b.h_rows.as<int>() + 3 * e_.R_max_;
        std::copy(src.begin(), src.end(), h_sel);
        RECEIPT_CUDA_CHECK(cudaMemcpyAsync(b.sel.get(), h_sel, size_t(n_new) * 4, cudaMemcpyHostToDevice, e_.stream_));
        const int H = e_.cfg_.num_heads, K = e_.cfg_.d_kv, n_lk = 2 * int(e_.w_.dec.size());
        e_.timed_op("stepper.kv_reorder", [&] {
            kv_gather_rows_cuda(e_.dt_, b.cache.get(), b.cache_tmp.get(), b.sel.as<int>(), n_lk, n_new, e_.R_max_, H,
                                e_.T_max_, K, t_cached, e_.stream_);
        });
        // The gathered rows become the cache (no copy back). Greedy-step graphs captured earlier keep the buffer
        // they were captured with (every generate() call writes its cache from position 0, so either serves);
        // forward graphs are kept per buffer (run_forward).
        std::swap(b.cache, b.cache_tmp);
        e_.cache_swapped_ = !e_.cache_swapped_;
        std::vector<int> rows(static_cast<size_t>(n_new));
        for (int r = 0; r < n_new; ++r) rows[size_t(r)] = src_row_[size_t(src[size_t(r)])];
        src_row_.swap(rows);
        n_ = n_new;
        upload_src_rows();
    }

private:
    // Uploads tokens [N] for position t and runs the decoder (a graph of N's batch bucket): logits [N, V] on the
    // GPU.
    void feed(const std::vector<int>& tokens, int t) {
        RECEIPT_CHECK(int(tokens.size()) == n_, InvalidInput, "CudaStepper::step: token count != rows");
        RECEIPT_CHECK(t >= 0 && t < e_.T_max_, InvalidInput, "CudaStepper::step: position beyond max_total_tokens");
        auto& b = *e_.buf_;
        int* h_tok = b.h_rows.as<int>() + e_.R_max_;
        std::copy(tokens.begin(), tokens.end(), h_tok);
        RECEIPT_CUDA_CHECK(
            cudaMemcpyAsync(b.next_tok.get(), h_tok, size_t(n_) * 4, cudaMemcpyHostToDevice, e_.stream_));
        e_.upload_state(t, 0);
        e_.run_forward(n_);
    }

    void upload_src_rows() {
        auto& b = *e_.buf_;
        int* h = b.h_rows.as<int>() + 2 * e_.R_max_;
        // The previous upload from this staging area must have completed before it is overwritten.
        RECEIPT_CUDA_CHECK(cudaStreamSynchronize(e_.stream_));
        std::copy(src_row_.begin(), src_row_.end(), h);
        RECEIPT_CUDA_CHECK(
            cudaMemcpyAsync(b.src_row.get(), h, src_row_.size() * 4, cudaMemcpyHostToDevice, e_.stream_));
    }

    CudaT5Engine& e_;
    int n_;
    std::vector<int> src_row_;
};

std::vector<GenerationResult> CudaT5Engine::generate_greedy_host(const std::vector<std::vector<int>>& inputs,
                                                                 size_t first, int B, const GenerationOptions& options) {
    encode(inputs, first, B);
    CudaStepper stepper(*this, B, 1);
    const SearchTokens tok{cfg_.decoder_start_token_id, cfg_.eos_token_id, cfg_.pad_token_id};
    return greedy_search(stepper, B, options, tok, static_cast<int>(first));
}

// Greedy with a logits processor, pipelined. Each step of the device (a graph of its batch bucket and cache
// buffer) is decoder_forward + greedy_select: the select kernel writes its guess of the next token (step t's
// argmax with the EOS mask only) into next_tok and advances state->step, so step t+1 can be queued before the host
// has seen step t's logits. Then per step t:
//   queue step t+1 (on the guess) | wait for step t's logits | greedy_choose per row (what greedy_search does)
//   every live row's choice == the guess and the live rows still need this batch bucket: step t+1 is already
//         right (a row that chose EOS stays in the layout, finished on the device too)
//   else: drop the ended rows (CudaStepper::select_rows), upload the host's tokens and step t+1, and queue step
//         t+1 again behind the discarded one (it rewrites position t+1 of the self-attention cache).
// The logits of every kept step are the unpipelined loop's, so tokens, scores and margins are too.
std::vector<GenerationResult> CudaT5Engine::generate_greedy_host_pipelined(const std::vector<std::vector<int>>& inputs,
                                                                           size_t first, int B,
                                                                           const GenerationOptions& options) {
    encode(inputs, first, B);
    CudaStepper stepper(*this, B, 1);  // source rows and row compaction
    Buffers& b = *buf_;
    const SearchTokens tok{cfg_.decoder_start_token_id, cfg_.eos_token_id, cfg_.pad_token_id};
    const int V = cfg_.vocab_size;
    const size_t half = size_t(R_max_) * V;  // floats per half of h_logits
    std::vector<GenerationResult> results(B);
    std::vector<int> row_source(B);  // active row -> source index
    for (int i = 0; i < B; ++i) row_source[size_t(i)] = i;
    std::vector<int> feed(B, tok.decoder_start);
    int n = B;

    // Host tokens and step t for the n active rows; the bucket's other rows are finished (the select kernel
    // gives them pad).
    auto restart = [&](int t) {
        const int R = bucket_for(n);
        int* h_tok = b.h_rows.as<int>() + R_max_;
        int* h_fin = b.h_rows.as<int>() + 3 * R_max_;
        for (int r = 0; r < R; ++r) {
            h_tok[r] = r < n ? feed[size_t(r)] : tok.pad;
            h_fin[r] = r < n ? 0 : 1;
        }
        RECEIPT_CUDA_CHECK(cudaMemcpyAsync(b.next_tok.get(), h_tok, size_t(R) * 4, cudaMemcpyHostToDevice, stream_));
        RECEIPT_CUDA_CHECK(cudaMemcpyAsync(b.finished.get(), h_fin, size_t(R) * 4, cudaMemcpyHostToDevice, stream_));
        upload_state(t, options.min_new_tokens);
    };
    // Queues step t: forward + guess + step advance, then the copy of the n rows' logits into half t % 2.
    auto enqueue = [&](int t) {
        const int R = bucket_for(n);
        run_graph(guess_graphs_, 2 * R + (cache_swapped_ ? 1 : 0), [&] { greedy_step(R); }, R);
        RECEIPT_CUDA_CHECK(cudaMemcpyAsync(b.h_logits.as<float>() + (t & 1) * half, b.logits.get(),
                                           size_t(n) * V * sizeof(float), cudaMemcpyDeviceToHost, stream_));
        RECEIPT_CUDA_CHECK(cudaEventRecord(b.logits_event[t & 1], stream_));
    };

    std::vector<int> guess, choice;
    std::vector<float> logp, margin;
    // Rows of the device layout still generating. A row that ends on the device's own guess (EOS) stays in the
    // layout, finished (the select kernel feeds it pad), until the live rows fit a smaller batch bucket: ending
    // it costs no step run again.
    std::vector<char> alive(size_t(B), 1);
    restart(0);
    enqueue(0);
    for (int t = 0; t < options.max_new_tokens && n > 0;) {
        if (t + 1 < options.max_new_tokens) enqueue(t + 1);  // on the device's guess
        RECEIPT_CUDA_CHECK(cudaEventSynchronize(b.logits_event[t & 1]));
        float* logits = b.h_logits.as<float>() + (t & 1) * half;
        guess.resize(n);
        choice.resize(n);
        logp.resize(n);
        margin.resize(n);
#pragma omp parallel for num_threads(ops::cpu_threads()) schedule(static) if (n > 1)
        for (int r = 0; r < n; ++r) {
            if (!alive[size_t(r)]) continue;
            float* row = logits + size_t(r) * V;
            guess[r] = device_guess(row, V, t < options.min_new_tokens, tok.eos);
            const GreedyChoice c = greedy_choose(row, V, t, options, tok, int(first) + row_source[size_t(r)],
                                                 results[size_t(row_source[size_t(r)])].ids);
            choice[r] = c.id;
            logp[r] = c.logp;
            margin[r] = c.margin;
        }
        std::vector<int> keep;
        bool redo = false;
        feed.clear();
        for (int r = 0; r < n; ++r) {
            if (!alive[size_t(r)]) continue;
            GenerationResult& res = results[size_t(row_source[size_t(r)])];
            res.score += logp[r];
            res.min_margin = std::min(res.min_margin, margin[r]);
            res.ids.push_back(choice[r]);
            redo = redo || choice[r] != guess[r];
            if (choice[r] != tok.eos) {
                keep.push_back(r);
                feed.push_back(choice[r]);
            } else {
                alive[size_t(r)] = 0;
            }
        }
        ++t;
        ++n_piped_steps_;
        // Step t is queued on the right tokens: every live row's guess was the host's choice (a row that chose
        // EOS is finished on the device too). Go on unless the live rows now fit a smaller bucket.
        if (!redo && !keep.empty() && bucket_for(int(keep.size())) == bucket_for(n)) continue;
        // The step queued on the guess is discarded: step t runs again behind it, on the host's tokens (stream
        // order; the staging areas restart() writes were last read by copies before step t - 1's logits).
        if (keep.empty() || t >= options.max_new_tokens) break;
        ++n_piped_redone_;
        if (int(keep.size()) != n) {  // drop the ended rows (select_rows waits for the stream)
            stepper.select_rows(keep, t);
            std::vector<int> rows;
            rows.reserve(keep.size());
            for (int r : keep) rows.push_back(row_source[size_t(r)]);
            row_source.swap(rows);
            n = int(keep.size());
        }
        std::fill(alive.begin(), alive.begin() + n, 1);
        restart(t);
        enqueue(t);
    }
    RECEIPT_CUDA_CHECK(cudaStreamSynchronize(stream_));  // a step queued past the end may still run
    return results;
}

std::vector<GenerationResult> CudaT5Engine::generate_beam(const std::vector<std::vector<int>>& inputs, size_t first,
                                                          int B, const GenerationOptions& options) {
    encode(inputs, first, B);
    CudaStepper stepper(*this, B, options.num_beams);
    const SearchTokens tok{cfg_.decoder_start_token_id, cfg_.eos_token_id, cfg_.pad_token_id};
    return beam_search(stepper, B, options, tok);
}

}  // namespace receipt::cuda
