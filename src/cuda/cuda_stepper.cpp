// Beam search on the CUDA engine: the GPU decoder behind the DecoderStepper interface, driven by the shared host
// beam_search() (src/generate/beam_search.cpp), which implements transformers' beam bookkeeping. Each step runs
// the decoder for the live rows on the GPU, picks each row's 2 x num_beams best log-probabilities there
// (beam_topk_cuda) and copies only those back; row selection (beam reorder, dropping finished sources) gathers the
// KV cache on the GPU. The host-greedy path (logits processors) still copies the f32 logits [N, V].
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>

#include "cuda/cuda_check.h"
#include "cuda/cuda_engine_buffers.h"
#include "generate/search.h"

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
    SearchTokens tok;
    tok.decoder_start = cfg_.decoder_start_token_id;
    tok.eos = cfg_.eos_token_id;
    tok.pad = cfg_.pad_token_id;
    return greedy_search(stepper, B, options, tok, static_cast<int>(first));
}

std::vector<GenerationResult> CudaT5Engine::generate_beam(const std::vector<std::vector<int>>& inputs, size_t first,
                                                          int B, const GenerationOptions& options) {
    encode(inputs, first, B);
    CudaStepper stepper(*this, B, options.num_beams);
    SearchTokens tok;
    tok.decoder_start = cfg_.decoder_start_token_id;
    tok.eos = cfg_.eos_token_id;
    tok.pad = cfg_.pad_token_id;
    return beam_search(stepper, B, options, tok);
}

}  // namespace receipt::cuda
