// The CUDA T5 engine: fp16 / bf16 / fp32 weights, cuBLASLt GEMMs with f32 accumulation, an f32 residual stream
// (with EngineOptions::f32_activations: every activation f32 and each GEMM input split in two half-precision parts),
// fused T5 kernels, a preallocated KV cache and one CUDA graph per batch-size bucket for the greedy decode step.
// Generates exactly like CpuT5Engine (Hugging Face generate() semantics): greedy runs entirely on the GPU;
// beam search runs the GPU decoder through the shared host beam_search() (src/generate/beam_search.cpp).
#pragma once

#include <cuda_runtime_api.h>

#include <array>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "cuda/cuda_engine.h"
#include "cuda/cuda_weights.h"
#include "cuda/device_buffer.h"
#include "cuda/engine_plan.h"
#include "cuda/gemm_lt.h"
#include "cuda/op_profiler.h"
#include "ops/t5_ops_cuda.h"
#include "receipt/engine.h"
#include "receipt/model.h"

namespace receipt::cuda {

// "fp16" / "bf16" / "fp32".
inline const char* dtype_name(DType dt) {
    return dt == DType::kF16 ? "fp16" : dt == DType::kBF16 ? "bf16" : "fp32";
}

// "fp16", "bf16", "fp32", or "fp16-a32" / "bf16-a32" for half-precision weights with f32 activations.
inline std::string precision_name(DType weights, bool f32_activations) {
    return std::string(dtype_name(weights)) + (f32_activations ? "-a32" : "");
}

class CudaStepper;

// Owns the stream, cuBLASLt handle, weights copy, all activation buffers, KV cache and graphs. One engine serves
// one thread at a time (like every Engine). All memory is allocated in the constructor for
// (max_batch_size rows, max_input_tokens, max_total_tokens); generate() never allocates device memory.
class CudaT5Engine final : public Engine {
public:
    CudaT5Engine(std::shared_ptr<const Model> model, const EngineOptions& options);
    ~CudaT5Engine() override;

    std::vector<GenerationResult> generate(const std::vector<std::vector<int>>& inputs,
                                           const GenerationOptions& options) override;
    Device device() const override { return Device::kCuda; }
    std::string describe() const override;

    // Device bytes this engine holds (weights + buffers + cuBLASLt workspace).
    size_t device_bytes() const { return n_device_bytes_; }
    // Where the plan was read from / written to, and what happened ("loaded", "built", "rebuilt: <why>", ...).
    const std::string& plan_path() const { return plan_path_; }
    const std::string& plan_status() const { return plan_status_; }

    // Per-op GPU time profile (RECEIPT_CUDA_PROFILE=1 in the environment when the engine is created; graphs are
    // then off): a table of op, calls, total ms, mean us and share % over the generate() calls since the last
    // reset_profile(); "" when profiling is off. Times are eager-mode kernel times (see op_profiler.h).
    bool profiling() const { return prof_ != nullptr; }
    // Speculative greedy steps run and tokens emitted since the engine was created (EngineOptions::draft_tokens).
    SpeculationStats speculation_stats() const override { return spec_stats_; }
    std::string profile_report() const;
    void reset_profile();

private:
    friend class CudaStepper;
    friend class CudaSpecStepper;
    struct Buffers;

    void alloc_buffers();
    void setup_plan();
    void build_plan();
    // Times a one-row decode step with the single-row cross-attention on the one-query kernel and on the streaming
    // kernel (graph replays over sources of max_input_tokens keys); the plan keeps the faster. nullopt where the
    // choice does not apply (another RECEIPT_CUDA_CROSS_PIPE level, a layout the streaming kernel does not take,
    // the absorbed cross-attention at one row, graphs off).
    std::optional<PlanChoice> time_cross_single_row();
    // For every batch bucket, each decoder GEMM shape the tensor-core kernel can take is timed on it and on
    // cuBLASLt, one shape after another (whole decode steps replayed as graphs, the shapes decided so far kept):
    // a shape moves off its default route (tensor cores for 3..32 rows) only when that is kMinRouteGain faster.
    // The flips start from the fastest of the default routes, all of the bucket's shapes on cuBLASLt (which also
    // turns the deferred norm off there) and all of them on the tensor-core kernel.
    // One choice "gemm_mma m=.. n=.. k=.. acc=.." per shape, value 1 for the tensor-core kernel.
    std::vector<PlanChoice> time_gemm_routes();
    static constexpr float kMinRouteGain = 0.01f;
    // Applies a plan's kernel choices (unknown names are ignored; absent ones stay off or at their default).
    void adopt_choices(const std::vector<PlanChoice>& choices);
    static constexpr const char* kCrossStreamSingleRow = "cross_stream_single_row";
    // The decoder step's GEMMs at R rows as decoder_forward() and ffn() run them: qkv, o (= o_cross), q_cross,
    // wi, wo, lm_head.
    static constexpr size_t kDecoderGemms = 6;
    std::array<GemmSpec, kDecoderGemms> decoder_gemm_specs(int R) const;
    // Rows [0, R) for the timing steps of the plan: row r reads source r (S_max keys), fed token 0 at decoder
    // position min(64, T_max - 1).
    void prepare_timing_rows(int R);
    // Best time per replay (us) of each graph: rounds of replays, the graphs alternating.
    std::vector<float> time_graphs(const std::vector<cudaGraphExec_t>& graphs);
    void validate(const std::vector<std::vector<int>>& inputs, const GenerationOptions& options) const;
    // Encoder + cross K/V for sources [first, first + B). Sets S_ (padded length) and uploads src_len.
    void encode(const std::vector<std::vector<int>>& inputs, size_t first, int B);
    // FFN on x [M, D] (T): resid [M, D] f32 += wo(act(wi x)); h/hg are [M, F or 2F] / [M, F] scratch.
    // `dec` picks the profile names (dec.* / enc.*). With ln (decoder), x is LayerNorm(resid) with weight ln,
    // computed by normed_gemm into x or inside the wi GEMM.
    void ffn(const CudaLayerWeights& L, int M, void* x, void* h, void* hg, float* resid, bool dec,
             const float* ln = nullptr);
    // y = alpha * LayerNorm(resid; ln) . w^T as `spec` (its x is the LayerNorm output). A GEMM that GemmLt sends
    // to the small-M kernel (1-2 rows) gets the norm as its prologue (GemvNorm: one kernel, bit-identical);
    // after a residual_gemm that left partial sums of squares, a GEMM on the tensor-core kernel normalises the
    // residual itself (deferred norm); otherwise rmsnorm_cuda writes x ([spec.m, D] T scratch) first.
    // RECEIPT_CUDA_FUSE_NORM=0 keeps the small-M ones separate, RECEIPT_CUDA_MMA_NORM=0 the tensor-core ones.
    // gate (the gated FFN's wi, [wi_0; wi_1] stacked): where the GEMM takes the tensor-core kernel, that kernel
    // writes act(h0) * h1 into y_gated ([spec.m, spec.n / 2]) and normed_gemm returns true; otherwise y gets the
    // GEMM and it returns false (the caller runs gated_act_cuda). RECEIPT_CUDA_MMA_GATE=0 turns that off.
    bool normed_gemm(const char* name, const float* resid, const float* ln, const GemmSpec& spec, void* x,
                     const void* w, void* y, float alpha = 1.0f, MmaGate gate = MmaGate::kNone,
                     void* y_gated = nullptr);
    // resid [spec.m, D] f32 += x . w^T (the decoder's o, o_cross and wo: spec has out_f32 and accumulate). Where
    // that GEMM takes the tensor-core kernel it also writes the partial sums of squares of the new residual
    // (MmaFusion::ss_out), and the next normed_gemm that takes that kernel too normalises its x from them instead of
    // running rmsnorm_cuda (deferred norm; RECEIPT_CUDA_MMA_NORM=0 turns it off). The step's embedding writes
    // such sums too (one part per row), for layer 0.
    void residual_gemm(const char* name, const GemmSpec& spec, const void* x, const void* w, float* resid);
    // Enqueues f() on stream_ as op `name` (a string literal) of the profile; just f() when profiling is off.
    // Ops named in RECEIPT_CUDA_SKIP_OPS are not enqueued at all (timing ablation: outputs become garbage).
    template <typename F>
    void timed_op(const char* name, F&& f) {
        if (!skip_ops_.empty() && skip_ops_.count(name)) return;
        OpProfiler::time(prof_.get(), name, stream_, std::forward<F>(f));
    }
    // One decoder step for R rows: embeds next_tok, runs every layer at position state->step, writes logits.
    void decoder_forward(int R);
    // decoder_forward + greedy selection + step advance (the body of the captured graph).
    void greedy_step(int R);
    // Enqueues steps(n), n steps at a time (graph_steps_ at once where they fit, else 1), max_steps in all,
    // without waiting on them: every kCheckEvery steps state->all_finished is copied to pinned memory and the
    // copy queued one check earlier is read; stops once it says all rows ended.
    void run_until_finished(int max_steps, const std::function<void(int n)>& steps);
    // n calls of step() as one replayed graph (see run_graph), kept in graphs under key + (n - 1) * 2^20: n = 1 is
    // key itself, the one-step graph (the speculative host loop replays spec_graphs_[key] too).
    void run_steps(std::map<int, cudaGraphExec_t>& graphs, int key, int n, const std::function<void()>& step,
                   int R_bucket);
    // decoder_forward for R rows as a replayed CUDA graph of its batch bucket (the rows past R compute on stale
    // but valid inputs and are never read): the decoder of the host-driven searches (beam, greedy with a
    // logits processor). Eager when graphs are off.
    void run_forward(int R);
    // Replays graphs[key], capturing body() into it on first use (after an eager warm-up decoder_forward of
    // R_bucket rows); runs body() eagerly when graphs are off.
    void run_graph(std::map<int, cudaGraphExec_t>& graphs, int key, const std::function<void()>& body, int R_bucket);
    // body() captured on the engine's stream into an instantiated graph, after an eager warm-up decoder_forward of
    // R_bucket rows. Throws CudaError (nothing leaks).
    cudaGraphExec_t capture_graph(const std::function<void()>& body, int R_bucket);
    int bucket_for(int R) const;
    std::vector<GenerationResult> generate_greedy(const std::vector<std::vector<int>>& inputs, size_t first, int B,
                                                  const GenerationOptions& options);
    std::vector<GenerationResult> generate_beam(const std::vector<std::vector<int>>& inputs, size_t first, int B,
                                                const GenerationOptions& options);
    // Greedy with the argmax on the host (shared greedy_search over a CudaStepper): used when a LogitsProcessor
    // must see every step's logits.
    std::vector<GenerationResult> generate_greedy_host(const std::vector<std::vector<int>>& inputs, size_t first,
                                                       int B, const GenerationOptions& options);
    // The same results, with the GPU one step ahead of the host: step t+1 runs on the device's guess (step t's
    // argmax with only the EOS mask) while the host applies the processor to step t; a guess the host does not
    // confirm (or a row that ends) runs step t+1 again on the host's choice (cuda_stepper.cpp).
    std::vector<GenerationResult> generate_greedy_host_pipelined(const std::vector<std::vector<int>>& inputs,
                                                                 size_t first, int B, const GenerationOptions& options);
    // The DecodeState of a request: step, source stride S_, min / max new tokens, draft context length.
    void upload_state(int step, int min_new, int max_new = 0, int n_extra = 0);
    // Greedy search with prompt-lookup drafts (EngineOptions::draft_tokens, cuda_speculative.cpp): per step a
    // replayed graph of decoder_forward over B_bucket x spec_q_ rows (draft_self_attention_cuda) and
    // speculative_select_cuda, which accepts, emits and proposes on the GPU; the host only reads the
    // all-finished flag every few steps, as generate_greedy does.
    std::vector<GenerationResult> generate_greedy_speculative(const std::vector<std::vector<int>>& inputs,
                                                              size_t first, int B, const GenerationOptions& options);
    void speculative_step(int B_bucket);
    // The setup both speculative paths share: encode, then sequence slots 0..B-1 of the B_bucket (returned) start
    // at position 0 on the decoder start token (drafts pad), slots B.. finished; the state's min / max_new.
    int speculative_setup(const std::vector<std::vector<int>>& inputs, size_t first, int B,
                          const GenerationOptions& options);
    // The same with a logits processor, the drafts checked on the host (cuda_speculative_host.cpp): unpipelined,
    // speculative_greedy_search over CudaSpecStepper (RECEIPT_CUDA_HOST_PIPELINE=0), or pipelined: the device runs
    // speculative steps one ahead on its own choices while the host checks the last one with the processor.
    std::vector<GenerationResult> generate_greedy_host_speculative(const std::vector<std::vector<int>>& inputs,
                                                                   size_t first, int B,
                                                                   const GenerationOptions& options);
    std::vector<GenerationResult> generate_greedy_host_speculative_pipelined(
        const std::vector<std::vector<int>>& inputs, size_t first, int B, const GenerationOptions& options);
    // The spec of one of the engine's GEMMs: x [m, k] activations (dt_), w [n, k] weights (wdt_), y [m, n], row
    // strides k / k / n. With f32 decoder activations on half-precision weights (dec_a32_) x is split
    // (GemmSpec::split_x) and y is always f32.
    GemmSpec gemm_spec(int m, int n, int k, bool out_f32, bool accumulate, Epilogue e = Epilogue::kNone) const;
    // The same for the encoder's GEMMs (activations edt_, split when enc_a32_) and the lm_head (f32 out; x split
    // when head_a32_).
    GemmSpec enc_gemm_spec(int m, int n, int k, bool out_f32, bool accumulate, Epilogue e = Epilogue::kNone) const;
    GemmSpec head_gemm_spec(int m, int n, int k) const;
    GemmSpec make_spec(bool split, DType act, int m, int n, int k, bool out_f32, bool accumulate, Epilogue e) const;
    // Precision name of plans and the engine string: precision_name(), or "fp16-e32" / "-d32" / "-h32" suffixes
    // for f32 activations in only the encoder / decoder / lm_head input (RECEIPT_CUDA_A32_PARTS).
    std::string precision() const;
    // ", ops skipped (timing only): a b" for RECEIPT_CUDA_SKIP_OPS, else "".
    std::string skipped_ops_note() const;
    // Bytes of one decoder layer's slab of Buffers::cross_kv: [R_max * S_max, 2 * H*K] in cdt_.
    size_t cross_kv_layer_bytes() const {
        return size_t(R_max_) * S_max_ * 2 * cfg_.num_heads * cfg_.d_kv * dtype_size(cdt_);
    }

    std::shared_ptr<const Model> model_;
    EngineOptions options_;
    T5Config cfg_;
    DType dt_;            // decoder activations, KV cache and attention (f32 when dec_a32_)
    DType wdt_;           // weights and the GEMMs' tensor-core inputs
    bool a32_ = false;    // f32 activations on f16 / bf16 weights (EngineOptions::f32_activations)
    bool enc_a32_ = false, dec_a32_ = false, head_a32_ = false;  // per part (all three when a32_)
    DType edt_;           // encoder activations (f32 when enc_a32_)
    // Cross K/V storage: dt_, or the weights' half type under an f32 decoder with RECEIPT_CUDA_A32_CROSS_KV=16 (the
    // f32 query then attends over half-precision keys and values: cross_attention_f32q_cuda).
    DType cdt_;
    int device_id_ = 0;
    std::string gpu_name_;
    int cc_major_ = 0, cc_minor_ = 0;
    cudaStream_t stream_ = nullptr;
    std::unique_ptr<GemmLt> gemm_;
    CudaT5Weights w_;
    std::unique_ptr<Buffers> buf_;
    size_t n_device_bytes_ = 0;
    int R_max_ = 0, S_max_ = 0, T_max_ = 0;  // rows, source length, decoder positions
    int S_ = 0;                              // padded source length of the current request
    std::vector<int> buckets_;
    std::map<int, cudaGraphExec_t> graphs_;          // greedy steps per (batch bucket, steps per graph)
    std::map<int, cudaGraphExec_t> forward_graphs_;  // decoder forward per (batch bucket, cache buffer): run_forward
    std::map<int, cudaGraphExec_t> guess_graphs_;    // greedy_step per (batch bucket, cache buffer): pipelined host loop
    bool cache_swapped_ = false;                     // Buffers::cache and cache_tmp exchanged (odd number of swaps)
    std::map<int, cudaGraphExec_t> spec_graphs_;     // speculative steps per (sequence bucket, steps per graph)
    std::map<int, cudaGraphExec_t> spec_forward_graphs_;  // its decoder_forward alone (host-checked drafts)
    // Rows per sequence of a speculative step (1 + EngineOptions::draft_tokens; 1 = off) and whether
    // decoder_forward is running one (its rows are then B x spec_q_, sequence b's cache row b).
    int spec_q_ = 1;
    bool spec_active_ = false;
    // Sets spec_active_ for its lifetime.
    struct SpecActive {
        CudaT5Engine& e;
        explicit SpecActive(CudaT5Engine& engine) : e(engine) { e.spec_active_ = true; }
        ~SpecActive() { e.spec_active_ = false; }
    };
    SpeculationStats spec_stats_;
    bool use_graphs_ = true;
    // Device-side decode steps per graph launch in the graph loops (greedy, speculative): a divisor of
    // kCheckEvery; RECEIPT_CUDA_GRAPH_STEPS=1 launches one graph per step.
    int graph_steps_ = 4;
    bool fuse_norm_ = true;             // decoder LayerNorms inside the small-M GEMMs (normed_gemm)
    bool mma_norm_ = true;              // deferred norm between tensor-core GEMMs (residual_gemm, normed_gemm)
    bool mma_gate_ = true;              // gated FFN activation in the tensor-core wi GEMM (normed_gemm)
    int norm_parts_ = 0;                // partial sums of squares of the residual in norm_ss now (0 = none)
    bool host_pipeline_ = true;         // greedy with a logits processor pipelined (RECEIPT_CUDA_HOST_PIPELINE=0: off)
    long long n_piped_steps_ = 0, n_piped_redone_ = 0;  // its host steps, and those whose guessed step ran again
    long long n_spec_piped_steps_ = 0, n_spec_replays_ = 0;  // the same for speculative steps, and replay steps
    // Decode steps of at least this many rows run the absorbed cross-attention (reads the encoder output, not
    // each layer's K/V); 0 = never. Off unless RECEIPT_CUDA_CROSS_ABSORB=N: on an H200 it measured slower than the
    // precomputed-K/V kernel at 32 and 64 rows (docs/benchmarks.md); also off for f32 activations and shapes it
    // does not support.
    static constexpr int kAbsorbMinRows = 0;
    static constexpr int kAbsorbSplits = 8;  // most key ranges per row of the absorbed cross-attention
    int absorb_min_rows_ = kAbsorbMinRows;
    bool absorb_split_ = true;  // its key ranges (RECEIPT_CUDA_CROSS_ABSORB_SPLIT=0: one pass per row)
    bool pdl_ = false;                  // our kernels use Programmatic Dependent Launch (pdl_enabled())
    std::unique_ptr<OpProfiler> prof_;  // null unless RECEIPT_CUDA_PROFILE=1
    std::set<std::string> skip_ops_;    // RECEIPT_CUDA_SKIP_OPS: op names never enqueued (timing ablation)
    std::string plan_path_, plan_status_;
    std::vector<PlanChoice> plan_choices_;  // the kernel choices of the plan this engine built or loaded
    int n_routes_moved_ = 0;                 // GEMM shapes the plan moved off their default route
};

}  // namespace receipt::cuda
