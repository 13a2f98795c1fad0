// Batch-1 greedy generation in one persistent kernel (ops/persistent_decode_cuda.h): the engine side. The
// encoder runs as for every batch; then a single cooperative launch generates every token, and the host reads
// the tokens and the score once at the end.
#include <spdlog/spdlog.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "cuda/cuda_check.h"
#include "cuda/cuda_engine_buffers.h"
#include "cuda/cuda_t5_engine.h"
#include "ops/persistent_decode_cuda.h"

namespace receipt::cuda {

namespace {
// Off unless RECEIPT_CUDA_PERSISTENT=1: on an H200 it measured slower than the per-op graph (t5-small batch 1:
// 53.6 against 23.3 ms per receipt; a grid barrier costs ~2,700 cycles and each phase's dependent L2 / HBM trips
// add 3-7k more, docs/benchmarks.md).
constexpr int kPersistentDefault = 0;
}  // namespace

void CudaT5Engine::setup_persistent() {
    persistent_ = false;
    persistent_off_.clear();
    if (env_level("RECEIPT_CUDA_PERSISTENT", 1, kPersistentDefault) == 0 || prof_ || !skip_ops_.empty()) return;
    const int D = cfg_.d_model, H = cfg_.num_heads, K = cfg_.d_kv, F = cfg_.d_ff;
    const std::string why = persistent_decode_problem(wdt_, dt_, cdt_, D, H, K, F, S_max_, T_max_);
    if (!why.empty()) {
        persistent_off_ = why;
        spdlog::debug("one-kernel batch-1 greedy not used: {}", why);
        return;
    }
    Buffers& b = *buf_;
    const int L = int(w_.dec.size());
    const size_t es = dtype_size(dt_);
    const size_t lk_stride = size_t(R_max_) * H * T_max_ * K * es;  // bytes per (layer, k|v) slab of the cache
    // The table points at Buffers::cache; beam search may swap it with cache_tmp, an allocation of the same size
    // that serves this path as well (a generation writes every cache position before it reads it).
    std::vector<PersistentLayer> layers(static_cast<size_t>(L));
    char* cache = static_cast<char*>(b.cache.get());
    for (int l = 0; l < L; ++l) {
        const CudaLayerWeights& W = w_.dec[size_t(l)];
        PersistentLayer& p = layers[size_t(l)];
        p.ln_self = W.ln_self.as<float>();
        p.qkv = W.qkv.get();
        p.o = W.o.get();
        p.ln_cross = W.ln_cross.as<float>();
        p.q_cross = W.q_cross.get();
        p.o_cross = W.o_cross.get();
        p.ln_ffn = W.ln_ffn.as<float>();
        p.wi = W.wi.get();
        p.wo = W.wo.get();
        p.cross_kv = static_cast<const char*>(b.cross_kv.get()) + size_t(l) * cross_kv_layer_bytes();
        p.cache_k = cache + size_t(2 * l) * lk_stride;
        p.cache_v = cache + size_t(2 * l + 1) * lk_stride;
    }
    const int n_blocks = persistent_decode_blocks();
    b.persist_layers.resize(layers.size() * sizeof(PersistentLayer));
    b.persist_scratch.resize(persistent_decode_scratch_floats(D, H, K, F, w_.gated, S_max_, T_max_, n_blocks) * 4);
    b.persist_barrier.resize(kBarrierBytes);
    b.persist_args.prefetch = env_level("RECEIPT_CUDA_PERSISTENT_PREFETCH", 1, 1) == 1;
    // RECEIPT_CUDA_PERSISTENT_TRACE=<step>: each generation logs block 0's clock at the barriers of that step
    // (phase timing for docs/benchmarks.md).
    if (const char* tr = std::getenv("RECEIPT_CUDA_PERSISTENT_TRACE")) {
        b.persist_trace.resize(1024 * sizeof(long long));
        b.persist_args.trace = static_cast<long long*>(b.persist_trace.get());
        b.persist_args.trace_step = std::atoi(tr);
    }
    RECEIPT_CUDA_CHECK(cudaMemcpyAsync(b.persist_layers.get(), layers.data(), b.persist_layers.size(),
                                       cudaMemcpyHostToDevice, stream_));
    RECEIPT_CUDA_CHECK(cudaStreamSynchronize(stream_));  // before `layers` goes out of scope
    n_device_bytes_ += b.persist_layers.size() + b.persist_scratch.size() + b.persist_barrier.size();

    PersistentDecodeArgs& a = b.persist_args;
    a.wdt = wdt_;
    a.cdt = dt_;
    a.xdt = cdt_;
    a.D = D, a.H = H, a.K = K, a.F = F, a.V = cfg_.vocab_size, a.L = L, a.T_max = T_max_;
    a.gated = w_.gated;
    a.gelu = w_.gelu;
    a.eps = cfg_.layer_norm_epsilon;
    a.lm_scale = w_.lm_scale;
    a.start_token = cfg_.decoder_start_token_id;
    a.eos = cfg_.eos_token_id;
    a.embed = w_.embed.get();
    a.lm_head = w_.lm_weight();
    a.final_ln = w_.dec_final_ln.as<float>();
    a.dec_bias = b.dec_bias.as<float>();
    a.layers = static_cast<const PersistentLayer*>(b.persist_layers.get());
    a.tokens = b.tokens.as<int>();
    a.score = b.scores.as<float>();
    a.scratch = b.persist_scratch.as<float>();
    a.barrier = static_cast<unsigned*>(b.persist_barrier.get());
    persistent_ = true;
}

namespace {

// Logs the cycles between consecutive trace points of the traced step (see persistent_decode_cuda.cu: per phase
// the barrier's exit, the end of the staging and the end of the work), and what one bare barrier costs.
void log_trace(const PersistentDecodeArgs& a) {
    std::vector<long long> t(1024, 0);
    if (cudaMemcpy(t.data(), a.trace, t.size() * sizeof(long long), cudaMemcpyDeviceToHost) != cudaSuccess) {
        (void)cudaGetLastError();
        return;
    }
    size_t n = 1;
    while (n < t.size() - 1 && t[n] != 0) ++n;
    std::string line;
    for (size_t i = 1; i < n; ++i) {
        if (i > 1) line += ' ';
        line += std::to_string(t[i] - t[i - 1]);
    }
    spdlog::info("persistent decode step {}: {} cycles; one bare barrier {} cycles; intervals: {}", a.trace_step,
                 t[n - 1] - t[0], t.back() / 64, line);
}

}  // namespace

std::vector<GenerationResult> CudaT5Engine::generate_greedy_persistent(const std::vector<std::vector<int>>& inputs,
                                                                       size_t first, const GenerationOptions& options) {
    Buffers& b = *buf_;
    encode(inputs, first, 1);
    PersistentDecodeArgs a = b.persist_args;
    a.min_new = options.min_new_tokens;
    a.max_new = options.max_new_tokens;
    a.src_len = int(inputs[first].size());
    persistent_greedy_decode_cuda(a, stream_);

    const int n_tok = options.max_new_tokens;
    int* h_tokens = b.h_tokens.as<int>();
    float* h_score = b.h_scores.as<float>();
    RECEIPT_CUDA_CHECK(cudaMemcpyAsync(h_tokens, b.tokens.get(), size_t(n_tok) * 4, cudaMemcpyDeviceToHost, stream_));
    RECEIPT_CUDA_CHECK(cudaMemcpyAsync(h_score, b.scores.get(), 4, cudaMemcpyDeviceToHost, stream_));
    RECEIPT_CUDA_CHECK(cudaStreamSynchronize(stream_));
    std::vector<GenerationResult> out(1);
    for (int t = 0; t < n_tok; ++t) {
        out[0].ids.push_back(h_tokens[t]);
        if (h_tokens[t] == cfg_.eos_token_id) break;
    }
    out[0].score = h_score[0];
    if (a.trace) {
        log_trace(a);
        RECEIPT_CUDA_CHECK(cudaMemset(a.trace, 0, 1024 * sizeof(long long)));
    }
    return out;
}

}  // namespace receipt::cuda
