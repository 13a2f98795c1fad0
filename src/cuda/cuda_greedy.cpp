// Greedy generation entirely on the GPU: a CUDA graph per batch-size bucket replays
//   (decoder step -> EOS mask / argmax / log-prob, and the step advance in the same kernel) x graph_steps_
// with no host synchronisation inside the loop; an "all finished" flag is copied to pinned memory every
// kCheckEvery steps and read one check later, so the host never waits on the steps it just queued. Several steps
// per graph keep Programmatic Dependent Launch between the steps (no launch overlap crosses a graph boundary).
#include <algorithm>
#include <functional>
#include <map>

#include "cuda/cuda_check.h"
#include "cuda/cuda_engine_buffers.h"
#include "cuda/cuda_t5_engine.h"

namespace receipt::cuda {

namespace {
constexpr int kCheckEvery = 4;
}


void CudaT5Engine::greedy_step(int R) {
    Buffers& b = *buf_;
    decoder_forward(R);
    timed_op("dec.greedy_select", [&] {
        greedy_select_cuda(b.logits.as<float>(), R, cfg_.vocab_size, cfg_.eos_token_id, cfg_.pad_token_id,
                           b.state.as<DecodeState>(), b.finished.as<int>(), b.next_tok.as<int>(), b.tokens.as<int>(),
                           T_max_, b.scores.as<float>(), stream_);
    });
}

void CudaT5Engine::run_until_finished(int max_steps, const std::function<void(int n)>& steps) {
    Buffers& b = *buf_;
    int* flags = b.h_flags.as<int>();
    flags[0] = flags[1] = 0;
    bool pending[2] = {false, false};
    const auto* d_state = b.state.as<DecodeState>();
    // Steps per graph divide kCheckEvery, so every check falls between two graphs.
    const int per_graph = graph_steps_ >= 1 && kCheckEvery % graph_steps_ == 0 ? graph_steps_ : 1;
    for (int t = 0; t < max_steps;) {
        const int n = t + per_graph <= max_steps ? per_graph : 1;  // whole graphs, then the last steps one by one
        steps(n);
        t += n;
        if (t % kCheckEvery != 0 || t >= max_steps) continue;
        const int slot = (t / kCheckEvery) & 1, prev = slot ^ 1;
        if (pending[prev]) {
            RECEIPT_CUDA_CHECK(cudaEventSynchronize(b.flag_event[prev]));  // the check queued kCheckEvery steps ago
            pending[prev] = false;
            if (flags[prev]) break;
        }
        RECEIPT_CUDA_CHECK(cudaMemcpyAsync(&flags[slot], &d_state->all_finished, sizeof(int), cudaMemcpyDeviceToHost,
                                           stream_));
        RECEIPT_CUDA_CHECK(cudaEventRecord(b.flag_event[slot], stream_));
        pending[slot] = true;
    }
}

void CudaT5Engine::run_steps(std::map<int, cudaGraphExec_t>& graphs, int key, int n, const std::function<void()>& step,
                             int R_bucket) {
    run_graph(
        graphs, key + (n - 1) * (1 << 20),
        [&] {
            for (int i = 0; i < n; ++i) step();
        },
        R_bucket);
}

void CudaT5Engine::run_forward(int R) {
    const int bucket = bucket_for(R);
    // A captured graph holds the KV-cache pointer of its capture, and beam reordering swaps the two cache
    // buffers: one graph per bucket and buffer.
    run_graph(forward_graphs_, 2 * bucket + (cache_swapped_ ? 1 : 0), [&] { decoder_forward(bucket); }, bucket);
}

void CudaT5Engine::run_graph(std::map<int, cudaGraphExec_t>& graphs, int key, const std::function<void()>& body,
                             int R_bucket) {
    if (!use_graphs_) {
        body();
        return;
    }
    auto it = graphs.find(key);
    if (it == graphs.end()) it = graphs.emplace(key, capture_graph(body, R_bucket)).first;
    RECEIPT_CUDA_CHECK(cudaGraphLaunch(it->second, stream_));
}

cudaGraphExec_t CudaT5Engine::capture_graph(const std::function<void()>& body, int R_bucket) {
    // Warm up outside the capture (loads kernels / cuBLASLt modules, sets kernel attributes). The forward at the
    // current state recomputes exactly what the first real step computes, so it is harmless.
    decoder_forward(R_bucket);
    RECEIPT_CUDA_CHECK(cudaStreamSynchronize(stream_));
    cudaGraph_t graph = nullptr;
    RECEIPT_CUDA_CHECK(cudaStreamBeginCapture(stream_, cudaStreamCaptureModeThreadLocal));
    try {
        body();
    } catch (...) {
        cudaStreamEndCapture(stream_, &graph);
        if (graph) cudaGraphDestroy(graph);
        throw;
    }
    RECEIPT_CUDA_CHECK(cudaStreamEndCapture(stream_, &graph));
    cudaGraphExec_t exec = nullptr;
    const cudaError_t err = cudaGraphInstantiate(&exec, graph, 0);
    cudaGraphDestroy(graph);
    RECEIPT_CUDA_CHECK(err);
    return exec;
}

std::vector<GenerationResult> CudaT5Engine::generate_greedy(const std::vector<std::vector<int>>& inputs, size_t first,
                                                            int B, const GenerationOptions& options) {
    Buffers& b = *buf_;
    encode(inputs, first, B);
    const int R = bucket_for(B);
    // Rows B..R-1 pad the bucket: finished from the start, attending to source 0.
    int* rows = b.h_rows.as<int>() + R_max_;  // h_rows[0:R_max] holds the source lengths of encode()
    int* next_tok = rows;
    int* src_row = rows + R_max_;
    int* finished = rows + 2 * R_max_;
    for (int r = 0; r < R; ++r) {
        next_tok[r] = cfg_.decoder_start_token_id;
        src_row[r] = r < B ? r : 0;
        finished[r] = r < B ? 0 : 1;
    }
    RECEIPT_CUDA_CHECK(cudaMemcpyAsync(b.next_tok.get(), next_tok, size_t(R) * 4, cudaMemcpyHostToDevice, stream_));
    RECEIPT_CUDA_CHECK(cudaMemcpyAsync(b.src_row.get(), src_row, size_t(R) * 4, cudaMemcpyHostToDevice, stream_));
    RECEIPT_CUDA_CHECK(cudaMemcpyAsync(b.finished.get(), finished, size_t(R) * 4, cudaMemcpyHostToDevice, stream_));
    RECEIPT_CUDA_CHECK(cudaMemsetAsync(b.scores.get(), 0, size_t(R) * 4, stream_));
    upload_state(0, options.min_new_tokens);

    run_until_finished(options.max_new_tokens, [&](int n) {
        run_steps(
            graphs_, R, n, [&] { greedy_step(R); }, R);
    });

    const int n_tok = options.max_new_tokens;
    int* h_tokens = b.h_tokens.as<int>();
    float* h_scores = b.h_scores.as<float>();
    RECEIPT_CUDA_CHECK(cudaMemcpyAsync(h_tokens, b.tokens.get(), size_t(B) * T_max_ * 4, cudaMemcpyDeviceToHost,
                                       stream_));
    RECEIPT_CUDA_CHECK(cudaMemcpyAsync(h_scores, b.scores.get(), size_t(B) * 4, cudaMemcpyDeviceToHost, stream_));
    RECEIPT_CUDA_CHECK(cudaStreamSynchronize(stream_));

    std::vector<GenerationResult> out(B);
    for (int i = 0; i < B; ++i) {
        const int* row = h_tokens + size_t(i) * T_max_;
        for (int t = 0; t < n_tok; ++t) {
            out[i].ids.push_back(row[t]);
            if (row[t] == cfg_.eos_token_id) break;
        }
        out[i].score = h_scores[i];
    }
    return out;
}

}  // namespace receipt::cuda
