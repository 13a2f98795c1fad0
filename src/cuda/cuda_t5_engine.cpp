// CudaT5Engine: construction (device, weights, buffers, plan), request validation, the encoder and one decoder
// step. Greedy and beam loops live in cuda_greedy.cpp / cuda_stepper.cpp, plans in cuda_plan.cpp, the normed and
// residual decoder GEMMs in cuda_norm_gemm.cpp.
// Per layer the math mirrors transformers modeling_t5.py (see docs/numerics.md for the fp16 choices):
//   h = x + SelfAttention(LayerNorm(x))            encoder / decoder, bias from layer 0 shared by all layers
//   h = h + EncDecAttention(LayerNorm(h), enc)     decoder only, no position bias
//   y = h + FFN(LayerNorm(h))                      relu: wo(relu(wi h)); gated: wo(act(wi_0 h) * wi_1 h)
// The residual stream x/h/y is f32; the o / wo GEMMs accumulate straight into it (beta = 1, f32 output), which is
// what keeps v1.1 / flan activations above 65504 finite in fp16.
#include "cuda/cuda_t5_engine.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "cuda/cuda_check.h"
#include "cuda/cuda_engine_buffers.h"
#include "model/relative_position.h"
#include "receipt/errors.h"

namespace receipt::cuda {

CudaT5Engine::CudaT5Engine(std::shared_ptr<const Model> model, const EngineOptions& options)
    : model_(std::move(model)),
      options_(options),
      cfg_(model_->config()),
      dt_(options.dtype),
      wdt_(options.dtype),
      a32_(options.f32_activations && options.dtype != DType::kF32) {
    if (options_.gpu >= 0) device_id_ = options_.gpu;
    else RECEIPT_CUDA_CHECK(cudaGetDevice(&device_id_));
    const DeviceScope scope(device_id_);  // everything the engine holds is created on that GPU
    // RECEIPT_CUDA_A32_PARTS=enc,dec,head (half-precision weights only): f32 activations in just those parts
    // (encoder; decoder layers, caches and cross K/V; lm_head input), to see where fp16 rounding moves outputs.
    if (const char* p = std::getenv("RECEIPT_CUDA_A32_PARTS"); p && options.dtype != DType::kF32) {
        const std::string parts = p;
        enc_a32_ = parts.find("enc") != std::string::npos;
        dec_a32_ = parts.find("dec") != std::string::npos;
        head_a32_ = parts.find("head") != std::string::npos;
    }
    if (a32_) enc_a32_ = dec_a32_ = head_a32_ = true;
    head_a32_ = head_a32_ || dec_a32_;
    if (dec_a32_) dt_ = DType::kF32;
    edt_ = enc_a32_ ? DType::kF32 : wdt_;
    // RECEIPT_CUDA_A32_CROSS_KV=16: an f32 decoder keeps its cross K/V in the weights' half type (half the bytes
    // of the widest reads of a step; docs/benchmarks.md); needs d_kv 64 (the streaming kernel).
    const char* kv = std::getenv("RECEIPT_CUDA_A32_CROSS_KV");
    const bool kv16 = kv && std::string(kv) == "16" && dt_ == DType::kF32 && wdt_ != DType::kF32 && cfg_.d_kv == 64;
    cdt_ = kv16 ? wdt_ : dt_;
    RECEIPT_CHECK(options.max_batch_size >= 1 && options.max_input_tokens >= 1 && options.max_total_tokens >= 1,
                  InvalidInput, "EngineOptions: max_batch_size, max_input_tokens and max_total_tokens must be >= 1");
    RECEIPT_CHECK(cfg_.d_kv <= 256, ModelError, "CUDA engine: d_kv > 256 is not supported");
    options_.draft_tokens = resolve_draft_tokens(options.draft_tokens, Device::kCuda);
    spec_q_ = 1 + options_.draft_tokens;
    // Speculative steps run batches of up to kMaxSpeculativeBatch sequences on spec_q_ rows each.
    R_max_ = std::max(options.max_batch_size,
                      spec_q_ > 1 ? std::min(options.max_batch_size, kMaxSpeculativeBatch) * spec_q_ : 0);
    S_max_ = options.max_input_tokens;
    T_max_ = options.max_total_tokens;
    if (const char* g = std::getenv("RECEIPT_CUDA_GRAPHS")) use_graphs_ = std::string(g) != "0";
    if (const char* g = std::getenv("RECEIPT_CUDA_GRAPH_STEPS")) graph_steps_ = std::atoi(g);
    if (const char* f = std::getenv("RECEIPT_CUDA_FUSE_NORM")) fuse_norm_ = std::string(f) != "0";
    if (const char* f = std::getenv("RECEIPT_CUDA_MMA_NORM")) mma_norm_ = std::string(f) != "0";
    if (const char* f = std::getenv("RECEIPT_CUDA_MMA_GATE")) mma_gate_ = std::string(f) != "0";
    if (const char* p = std::getenv("RECEIPT_CUDA_HOST_PIPELINE")) host_pipeline_ = std::string(p) != "0";
    // Absorbed cross-attention (cross_attention_absorbed_cuda) for decode steps of at least this many rows;
    // RECEIPT_CUDA_CROSS_ABSORB=N sets N, 0 turns it off.
    if (const char* a = std::getenv("RECEIPT_CUDA_CROSS_ABSORB")) absorb_min_rows_ = std::max(0, std::atoi(a));
    if (const char* a = std::getenv("RECEIPT_CUDA_CROSS_ABSORB_SPLIT")) absorb_split_ = std::string(a) != "0";
    // RECEIPT_CUDA_SKIP_OPS=dec.self_attn,dec.rmsnorm,...: those ops are left out of every step and graph, so a
    // timed run shows what they add to the step in a replayed graph (the outputs are then meaningless).
    if (const char* s = std::getenv("RECEIPT_CUDA_SKIP_OPS")) {
        std::string names = s;
        for (size_t start = 0; start <= names.size();) {
            const size_t comma = std::min(names.find(',', start), names.size());
            if (comma > start) skip_ops_.insert(names.substr(start, comma - start));
            start = comma + 1;
        }
    }
    // RECEIPT_CUDA_PROFILE=1: per-op event timing (profile_report()); event records are not captured into the
    // decode graphs, so the engine runs eagerly.
    if (const char* p = std::getenv("RECEIPT_CUDA_PROFILE"); p && *p && std::string(p) != "0") {
        prof_ = std::make_unique<OpProfiler>();
        use_graphs_ = false;
    }

    cudaDeviceProp prop{};
    RECEIPT_CUDA_CHECK(cudaGetDeviceProperties(&prop, device_id_));
    gpu_name_ = prop.name;
    cc_major_ = prop.major;
    cc_minor_ = prop.minor;
    pdl_ = pdl_enabled();
    RECEIPT_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
    gemm_ = std::make_unique<GemmLt>();
    if (enc_a32_ || dec_a32_ || !cross_attention_absorbed_supports(dt_, cfg_.d_model, cfg_.d_kv)) absorb_min_rows_ = 0;
    w_ = CudaT5Weights::upload(*model_, wdt_, stream_, absorb_min_rows_ > 0);
    for (int b = 1; b < R_max_; b *= 2) buckets_.push_back(b);
    buckets_.push_back(R_max_);
    alloc_buffers();
    setup_plan();
}

CudaT5Engine::~CudaT5Engine() {
    // Everything the engine holds on its GPU is released here with that GPU current, then the thread's device
    // before is restored.
    const DeviceScope scope(device_id_, std::nothrow);
    for (auto& [b, g] : graphs_) cudaGraphExecDestroy(g);
    for (auto& [b, g] : forward_graphs_) cudaGraphExecDestroy(g);
    for (auto& [b, g] : guess_graphs_) cudaGraphExecDestroy(g);
    for (auto& [b, g] : spec_graphs_) cudaGraphExecDestroy(g);
    for (auto& [b, g] : spec_forward_graphs_) cudaGraphExecDestroy(g);
    if (stream_) cudaStreamSynchronize(stream_);
    buf_.reset();
    gemm_.reset();
    prof_.reset();
    w_ = CudaT5Weights{};
    if (stream_) cudaStreamDestroy(stream_);
}

void CudaT5Engine::alloc_buffers() {
    buf_ = std::make_unique<Buffers>();
    Buffers& b = *buf_;
    const size_t es = dtype_size(dt_), ees = dtype_size(edt_);
    const size_t D = cfg_.d_model, HK = size_t(cfg_.num_heads) * cfg_.d_kv, F = cfg_.d_ff, V = cfg_.vocab_size;
    const size_t Fh = w_.gated ? 2 * F : F;
    const size_t L = w_.dec.size(), H = cfg_.num_heads, K = cfg_.d_kv;
    const size_t N = size_t(R_max_) * S_max_, R = R_max_, T = T_max_;
    size_t total = 0;
    int n_sm = 0;  // the split-K launchers size their key ranges by it
    RECEIPT_CUDA_CHECK(cudaDeviceGetAttribute(&n_sm, cudaDevAttrMultiProcessorCount, device_id_));
    auto alloc = [&](DeviceBuffer& d, size_t bytes) {
        d.resize(bytes);
        RECEIPT_CUDA_CHECK(cudaMemsetAsync(d.get(), 0, d.size(), stream_));
        total += d.size();
    };
    alloc(b.enc_ids, N * 4);
    alloc(b.src_len, R * 4);
    alloc(b.enc_resid, N * D * 4);
    alloc(b.enc_x, N * D * ees);
    alloc(b.enc_qkv, N * 3 * HK * ees);
    alloc(b.enc_att, N * HK * ees);
    // also the f32 cross K/V of one layer [N, 2*HK] when the encoder's f32 output feeds a half-precision cache
    alloc(b.enc_h, N * std::max(Fh * ees, enc_a32_ && cdt_ != DType::kF32 ? 2 * HK * 4 : 0));
    alloc(b.enc_hg, w_.gated ? N * F * ees : 0);
    alloc(b.cross_kv, L * cross_kv_layer_bytes());
    alloc(b.enc_bias, H * (2 * S_max_ - 1) * 4);
    alloc(b.dec_bias, H * T * 4);
    alloc(b.next_tok, R * 4);
    alloc(b.src_row, R * 4);
    alloc(b.finished, R * 4);
    alloc(b.tokens, R * T * 4);
    alloc(b.scores, R * 4);
    alloc(b.sel, R * 4);
    alloc(b.dec_resid, R * D * 4);
    alloc(b.norm_ss, R * ((D + 7) / 8) * 4);
    alloc(b.dec_x, R * D * (head_a32_ ? 4 : es));  // f32 for the lm_head's input (head_a32_)
    alloc(b.dec_qkv, R * 3 * HK * es);
    alloc(b.dec_q, R * HK * es);
    alloc(b.dec_att, R * HK * es);
    alloc(b.dec_qp, absorb_min_rows_ > 0 ? R * H * D * es : 0);
    alloc(b.dec_cp, absorb_min_rows_ > 0 ? R * H * D * es : 0);
    if (absorb_min_rows_ > 0) {  // split-K scratch of the absorbed cross-attention: [R, groups, splits, 16, D + 2]
        const size_t groups = (H + 15) / 16, n_part = R * groups * kAbsorbSplits * 16 * (D + 2);
        alloc(b.absorb_part, n_part * 4);
        alloc(b.absorb_counter, R * groups * 4);
        b.absorb_split = DecodeAttnSplit{b.absorb_part.as<float>(), b.absorb_counter.as<int>(), n_part,
                                         int(R * groups), kAbsorbSplits, n_sm};
    }
    alloc(b.dec_h, R * Fh * es);
    alloc(b.dec_hg, w_.gated ? R * F * es : 0);
    alloc(b.logits, R * V * 4);
    alloc(b.cache, 2 * L * R * H * T * K * es);
    alloc(b.cache_tmp, 2 * L * R * H * T * K * es);
    alloc(b.state, sizeof(DecodeState));
    alloc(b.spec_pos, spec_q_ > 1 ? R * 4 : 0);
    alloc(b.spec_sel, spec_q_ > 1 ? R * 4 : 0);
    alloc(b.spec_logp, spec_q_ > 1 ? R * 4 : 0);
    alloc(b.draft_ctx, spec_q_ > 1 ? size_t(kMaxDraftContext) * 4 : 0);
    // Split-K cross-attention for the decode steps whose H x R blocks cover less than half of the SMs (see
    // decode_attn_n_split): at most n_sm / (2H) rows split, each (row, head) into <= kDefaultAttnSplits key
    // ranges. Four ranges were fastest per call on an H200 over 384 source keys (6.8 us against 8.5 us for one
    // block per SM, 17 ranges, at batch 1: every extra range adds a partial result to the combine; see
    // docs/benchmarks.md). RECEIPT_CUDA_ATTN_SPLIT=0 keeps the single-pass kernels, =N (>= 2) allows at most
    // min(N, ceil(n_sm / H)) ranges (A/B timing).
    {
        const int by_sm = std::min<int>(kMaxDecodeSplits, (n_sm + int(H) - 1) / int(H));
        int n_split_max = std::min(by_sm, kDefaultAttnSplits);
        if (const char* env = std::getenv("RECEIPT_CUDA_ATTN_SPLIT")) {
            const int cap = std::atoi(env);
            if (std::string(env) == "0") n_split_max = 1;
            else if (cap >= 2) n_split_max = std::min(by_sm, cap);
        }
        const size_t rows_split = std::max<size_t>(1, std::min<size_t>(R, size_t(n_sm) / (2 * H)));
        const size_t n_part = n_split_max > 1 ? rows_split * H * size_t(n_split_max) * (K + 2) : 0;
        alloc(b.attn_part, n_part * 4);
        alloc(b.attn_counter, n_split_max > 1 ? R * H * 4 : 0);
        b.attn_split = DecodeAttnSplit{b.attn_part.as<float>(), b.attn_counter.as<int>(), n_part, int(R * H),
                                       n_split_max, n_sm};
    }
    alloc(b.top_vals, R * kBeamTopKMax * 4);
    alloc(b.top_ids, R * kBeamTopKMax * 4);
    if (enc_a32_ || head_a32_) {  // hi / lo parts of the largest GEMM input: [rows, max(D, H*K, F)]
        const size_t rows = enc_a32_ ? std::max(N, R) : R;
        alloc(b.split, GemmLt::split_scratch_bytes(int(rows), int(std::max({D, HK, F})), wdt_));
        gemm_->set_split_scratch(b.split.get(), b.split.size());
    }
    b.h_ids = PinnedBuffer(N * 4);
    b.h_rows = PinnedBuffer(4 * R * 4);
    b.h_state = PinnedBuffer(sizeof(DecodeState));
    b.h_flags = PinnedBuffer(2 * 4);
    b.h_tokens = PinnedBuffer(R * T * 4);
    b.h_scores = PinnedBuffer(R * 4);
    b.h_logits = PinnedBuffer(2 * R * V * 4);
    b.h_top = PinnedBuffer(2 * R * kBeamTopKMax * 4);
    if (spec_q_ > 1) b.h_spec = PinnedBuffer(4 * R * 4);
    for (cudaEvent_t& e : b.flag_event) RECEIPT_CUDA_CHECK(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
    for (cudaEvent_t& e : b.logits_event) RECEIPT_CUDA_CHECK(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));

    // Relative position bias tables, bucketed on the host exactly like the CPU engine.
    const auto& enc_table = model_->weight("encoder.block.0.layer.0.SelfAttention.relative_attention_bias.weight");
    const auto& dec_table = model_->weight("decoder.block.0.layer.0.SelfAttention.relative_attention_bias.weight");
    const int nb = cfg_.relative_attention_num_buckets, md = cfg_.relative_attention_max_distance;
    std::vector<float> enc_bias(H * (2 * S_max_ - 1)), dec_bias(H * T);
    for (int rel = -(S_max_ - 1); rel <= S_max_ - 1; ++rel) {
        const int bucket = relative_position_bucket(rel, true, nb, md);
        for (size_t h = 0; h < H; ++h) enc_bias[h * (2 * S_max_ - 1) + rel + S_max_ - 1] = enc_table.data[bucket * H + h];
    }
    for (size_t d = 0; d < T; ++d) {
        const int bucket = relative_position_bucket(-int(d), false, nb, md);
        for (size_t h = 0; h < H; ++h) dec_bias[h * T + d] = dec_table.data[bucket * H + h];
    }
    // On stream_, after the zero fills queued by alloc(): stream_ is non-blocking, so a plain cudaMemcpy (legacy
    // stream) could land before a still-running fill of the same buffer and be wiped (seen with large buffers).
    RECEIPT_CUDA_CHECK(cudaMemcpyAsync(b.enc_bias.get(), enc_bias.data(), enc_bias.size() * 4, cudaMemcpyHostToDevice,
                                       stream_));
    RECEIPT_CUDA_CHECK(cudaMemcpyAsync(b.dec_bias.get(), dec_bias.data(), dec_bias.size() * 4, cudaMemcpyHostToDevice,
                                       stream_));
    RECEIPT_CUDA_CHECK(cudaStreamSynchronize(stream_));  // before the host tables go out of scope
    n_device_bytes_ = total + w_.n_bytes + (size_t(32) << 20);
}

std::string CudaT5Engine::skipped_ops_note() const {
    std::string note;
    for (const std::string& op : skip_ops_) note += (note.empty() ? ", ops skipped (timing only): " : " ") + op;
    return note;
}

std::string CudaT5Engine::describe() const {
    return "cuda " + precision() + " " + gpu_name_ + " (GPU " + std::to_string(device_id_) + ", cc " +
           std::to_string(cc_major_) + "." + std::to_string(cc_minor_) + "), " +
           std::to_string(n_device_bytes_ >> 20) + " MiB, plan " + plan_status_ +
           (use_graphs_ ? "" : ", graphs off") + (gemm_->use_gemv() ? "" : ", small-M gemv off") +
           (gemm_->use_mma() ? "" : ", tensor-core decode GEMM off") +
           (cdt_ != dt_ ? std::string(", cross K/V ") + dtype_name(cdt_) : std::string()) +
           (fuse_norm_ ? "" : ", norm fusion off") + (mma_norm_ ? "" : ", deferred norm off") +
           (mma_gate_ ? "" : ", fused gate off") + (host_pipeline_ ? "" : ", host greedy pipeline off") +
           (n_piped_steps_ == 0 ? ""
                                : ", pipelined host steps " + std::to_string(n_piped_steps_) + " (" +
                                      std::to_string(n_piped_redone_) + " run again)") +
           (n_spec_piped_steps_ == 0 ? ""
                                     : ", pipelined speculative host steps " + std::to_string(n_spec_piped_steps_) +
                                           " (" + std::to_string(n_spec_replays_) + " replayed)") +
           (absorb_min_rows_ == kAbsorbMinRows ? ""
            : absorb_min_rows_ > 0 ? ", absorbed cross-attention from " + std::to_string(absorb_min_rows_) + " rows"
                                   : std::string(", absorbed cross-attention off")) +
           (buf_->attn_split.n_split_max > 1 ? "" : ", split-K attention off") +
           (buf_->attn_split.stream_single_row ? ", single-row cross-attention streamed (plan)" : "") +
           (n_routes_moved_ == 0 ? ""
                                 : ", " + std::to_string(n_routes_moved_) + " decode GEMM shapes rerouted (plan)") +
           (cross_attention_pipelined_level() == 2 ? ""
            : cross_attention_pipelined_level() == 0 ? std::string(", streaming cross-attention off")
            : cross_attention_pipelined_level() == 1 ? std::string(", streaming cross-attention in wide steps")
                                                     : std::string(", streaming cross-attention in every step")) +
           (self_attention_pipelined_level() == 1 ? ""
            : self_attention_pipelined_level() == 0 ? std::string(", streaming self-attention off")
                                                    : std::string(", streaming self-attention in every step")) +
           (pdl_ ? "" : ", PDL off") + skipped_ops_note() +
           (prefetch_level() == 3 ? ""
            : prefetch_level() > 0 ? ", prefetch " + std::to_string(prefetch_level())
                                   : std::string(", prefetch off")) +
           (buf_->attn_split.n_split_max <= 1 || buf_->attn_split.n_split_max == kDefaultAttnSplits
                ? ""
                : ", attention splits " + std::to_string(buf_->attn_split.n_split_max)) +
           (spec_q_ > 1 ? ", " + std::to_string(spec_q_ - 1) + " draft tokens" : std::string()) +
           (prof_ ? ", op profiling" : "");
}

std::string CudaT5Engine::profile_report() const { return prof_ ? prof_->report() : std::string(); }

void CudaT5Engine::reset_profile() {
    if (prof_) prof_->reset();
}

void CudaT5Engine::validate(const std::vector<std::vector<int>>& inputs, const GenerationOptions& o) const {
    RECEIPT_CHECK(o.num_beams >= 1, InvalidInput, "num_beams must be >= 1");
    RECEIPT_CHECK(o.num_beams <= R_max_, InvalidInput,
                  "num_beams " + std::to_string(o.num_beams) + " exceeds the engine's max batch size " +
                      std::to_string(R_max_));
    RECEIPT_CHECK(o.max_new_tokens >= 0 && o.min_new_tokens >= 0, InvalidInput, "token limits must be >= 0");
    RECEIPT_CHECK(o.max_new_tokens <= T_max_, InvalidInput,
                  "max_new_tokens " + std::to_string(o.max_new_tokens) + " exceeds the engine's max_total_tokens " +
                      std::to_string(T_max_));
    for (int id : o.draft_context)
        RECEIPT_CHECK(id >= 0 && id < cfg_.vocab_size, InvalidInput, "draft_context holds a token id out of range");
    for (size_t i = 0; i < inputs.size(); ++i) {
        const auto& in = inputs[i];
        RECEIPT_CHECK(!in.empty(), InvalidInput, "input " + std::to_string(i) + " is empty");
        RECEIPT_CHECK(int(in.size()) <= S_max_, InvalidInput,
                      "input " + std::to_string(i) + " has " + std::to_string(in.size()) +
                          " tokens; the engine accepts at most " + std::to_string(S_max_));
        for (int id : in)
            RECEIPT_CHECK(id >= 0 && id < cfg_.vocab_size, InvalidInput,
                          "input " + std::to_string(i) + " has token id " + std::to_string(id) + " outside [0, " +
                              std::to_string(cfg_.vocab_size) + ")");
    }
}

std::vector<GenerationResult> CudaT5Engine::generate(const std::vector<std::vector<int>>& inputs,
                                                     const GenerationOptions& options) {
    validate(inputs, options);
    const DeviceScope scope(device_id_);
    std::vector<GenerationResult> out;
    out.reserve(inputs.size());
    if (options.max_new_tokens == 0) {
        out.resize(inputs.size());
        return out;
    }
    // Speculative greedy (draft tokens) for a whole call of at most kMaxSpeculativeBatch sources
    // (kMaxHostSpeculativeBatch when the host checks the drafts); larger calls decode one token per step, in
    // chunks as below.
    const int spec_batch = std::min(options.logits_processor ? kMaxHostSpeculativeBatch : kMaxSpeculativeBatch,
                                    R_max_ / spec_q_);
    if (spec_q_ > 1 && options.num_beams == 1 && int(inputs.size()) <= spec_batch) {
        const int B = int(inputs.size());
        out = !options.logits_processor ? generate_greedy_speculative(inputs, 0, B, options)
              : host_pipeline_          ? generate_greedy_host_speculative_pipelined(inputs, 0, B, options)
                                        : generate_greedy_host_speculative(inputs, 0, B, options);
        if (prof_) prof_->flush();
        return out;
    }
    // Sources per chunk: every row (source x beam) must fit the preallocated buffers.
    const int per_chunk = std::max(1, R_max_ / options.num_beams);
    for (size_t first = 0; first < inputs.size(); first += per_chunk) {
        const int B = int(std::min<size_t>(per_chunk, inputs.size() - first));
        auto part = options.num_beams > 1        ? generate_beam(inputs, first, B, options)
                    : options.logits_processor && host_pipeline_ ? generate_greedy_host_pipelined(inputs, first, B, options)
                    : options.logits_processor ? generate_greedy_host(inputs, first, B, options)
                                               : generate_greedy(inputs, first, B, options);
        for (auto& r : part) out.push_back(std::move(r));
    }
    if (prof_) prof_->flush();  // every path above has synchronised the stream: the events are complete
    return out;
}

void CudaT5Engine::encode(const std::vector<std::vector<int>>& inputs, size_t first, int B) {
    Buffers& b = *buf_;
    int S = 0;
    for (int i = 0; i < B; ++i) S = std::max<int>(S, int(inputs[first + i].size()));
    S_ = S;
    int* ids = b.h_ids.as<int>();
    int* lens = b.h_rows.as<int>();  // first R_max ints of h_rows
    for (int i = 0; i < B; ++i) {
        const auto& in = inputs[first + i];
        std::copy(in.begin(), in.end(), ids + size_t(i) * S);
        std::fill(ids + size_t(i) * S + in.size(), ids + size_t(i + 1) * S, cfg_.pad_token_id);
        lens[i] = int(in.size());
    }
    timed_op("enc.upload", [&] {
        RECEIPT_CUDA_CHECK(cudaMemcpyAsync(b.enc_ids.get(), ids, size_t(B) * S * 4, cudaMemcpyHostToDevice, stream_));
        RECEIPT_CUDA_CHECK(cudaMemcpyAsync(b.src_len.get(), lens, size_t(B) * 4, cudaMemcpyHostToDevice, stream_));
    });

    const int M = B * S, D = cfg_.d_model, H = cfg_.num_heads, K = cfg_.d_kv, HK = H * K;
    const float eps = cfg_.layer_norm_epsilon;
    float* resid = b.enc_resid.as<float>();
    timed_op("enc.embed",
             [&] { embed_cuda(wdt_, b.enc_ids.as<int>(), w_.embed.get(), cfg_.vocab_size, M, D, resid, stream_); });
    for (const CudaLayerWeights& L : w_.enc) {
        timed_op("enc.rmsnorm",
                 [&] { rmsnorm_cuda(edt_, resid, nullptr, L.ln_self.as<float>(), M, D, eps, b.enc_x.get(), stream_); });
        timed_op("enc.qkv", [&] {
            gemm_->run(enc_gemm_spec(M, 3 * HK, D, false, false), b.enc_x.get(), L.qkv.get(), b.enc_qkv.get(), 1.0f,
                       stream_);
        });
        timed_op("enc.self_attn", [&] {
            // f32 activations on half weights: the tensor-core kernel on hi + lo halves of the weight type
            encoder_attention_cuda(edt_, b.enc_qkv.get(), b.enc_bias.as<float>(), S_max_, b.src_len.as<int>(), B, S, H,
                                   K, b.enc_att.get(), stream_, enc_a32_ ? wdt_ : DType::kF32);
        });
        timed_op("enc.o", [&] {
            gemm_->run(enc_gemm_spec(M, D, HK, true, true), b.enc_att.get(), L.o.get(), resid, 1.0f, stream_);
        });
        timed_op("enc.rmsnorm",
                 [&] { rmsnorm_cuda(edt_, resid, nullptr, L.ln_ffn.as<float>(), M, D, eps, b.enc_x.get(), stream_); });
        ffn(L, M, b.enc_x.get(), b.enc_h.get(), b.enc_hg.get(), resid, false);
    }
    timed_op("enc.rmsnorm", [&] {
        rmsnorm_cuda(edt_, resid, nullptr, w_.enc_final_ln.as<float>(), M, D, eps, b.enc_x.get(), stream_);
    });
    // Cross K/V, one GEMM per decoder layer into that layer's slab: cross_kv [L, R_max * S_max, 2*HK] (row
    // b*S + j holds the keys [H, K], then the values). A layer's keys and values then lie within 2*HK elements per
    // source token, not spread over L*2*HK as one [M, L*2*HK] GEMM would leave them: each decode step's
    // cross-attention reads one layer's K/V of every row, and this keeps those reads on fewer DRAM pages.
    // From f32 encoder activations into a half-precision decoder's cache: f32 into enc_h, then rounded once.
    const size_t slab = cross_kv_layer_bytes();
    const bool via_f32 = enc_a32_ && cdt_ != DType::kF32;
    // Encoder activations in (split when f32), f32 out for an f32 decoder (a split GEMM always writes f32).
    const GemmSpec kv_spec = enc_gemm_spec(M, 2 * HK, D, dec_a32_, false);
    for (size_t l = 0; l < w_.dec.size(); ++l) {
        char* kv = static_cast<char*>(b.cross_kv.get()) + l * slab;
        timed_op("enc.cross_kv", [&] {
            gemm_->run(kv_spec, b.enc_x.get(), w_.cross_k(l), via_f32 ? b.enc_h.get() : kv, 1.0f, stream_);
            if (via_f32) convert_f32_cuda(cdt_, b.enc_h.as<float>(), kv, int64_t(M) * 2 * HK, stream_);
        });
    }
}

void CudaT5Engine::ffn(const CudaLayerWeights& L, int M, void* x, void* h, void* hg, float* resid, bool dec,
                       const float* ln) {
    const int D = cfg_.d_model, F = cfg_.d_ff;
    const char* wi = dec ? "dec.wi" : "enc.wi";
    const char* wo = dec ? "dec.wo" : "enc.wo";
    const auto spec = [&](int m, int n, int k, bool out_f32, bool acc, Epilogue e = Epilogue::kNone) {
        return dec ? gemm_spec(m, n, k, out_f32, acc, e) : enc_gemm_spec(m, n, k, out_f32, acc, e);
    };
    const GemmSpec wi_spec = w_.gated ? spec(M, 2 * F, D, false, false) : spec(M, F, D, false, false, Epilogue::kRelu);
    bool gated = false;  // act(wi_0 x) * wi_1 x already in hg (the tensor-core wi GEMM's epilogue)
    if (ln)
        gated = normed_gemm(wi, resid, ln, wi_spec, x, L.wi.get(), h, 1.0f,
                            w_.gated ? (w_.gelu ? MmaGate::kGeluTanh : MmaGate::kRelu) : MmaGate::kNone, hg);
    else
        timed_op(wi, [&] { gemm_->run(wi_spec, x, L.wi.get(), h, 1.0f, stream_); });
    if (w_.gated && !gated)
        timed_op(dec ? "dec.gated_act" : "enc.gated_act",
                 [&] { gated_act_cuda(dec ? dt_ : edt_, h, M, F, w_.gelu, hg, stream_); });
    const void* wo_x = w_.gated ? hg : h;
    if (dec)
        residual_gemm(wo, spec(M, D, F, true, true), wo_x, L.wo.get(), resid);
    else
        timed_op(wo, [&] { gemm_->run(spec(M, D, F, true, true), wo_x, L.wo.get(), resid, 1.0f, stream_); });
}

void CudaT5Engine::decoder_forward(int R) {
    Buffers& b = *buf_;
    const int D = cfg_.d_model, H = cfg_.num_heads, K = cfg_.d_kv, HK = H * K, V = cfg_.vocab_size;
    const int L = int(w_.dec.size());
    const size_t es = dtype_size(dt_);
    const size_t lk_stride = size_t(R_max_) * H * T_max_ * K * es;  // bytes per (layer, k|v) slab of the cache
    const size_t kv_slab = cross_kv_layer_bytes();
    const auto* state = b.state.as<DecodeState>();
    float* resid = b.dec_resid.as<float>();
    char* cache = static_cast<char*>(b.cache.get());

    // The embedding also writes each row's sum of squares (one part) for layer 0's deferred norm, where layer 0's
    // qkv GEMM takes the tensor-core kernel.
    const GemmSpec qkv_spec = gemm_spec(R, 3 * HK, D, false, false);
    float* emb_ss = mma_norm_ && gemm_->routes_to_mma(qkv_spec) ? b.norm_ss.as<float>() : nullptr;
    norm_parts_ = 0;
    timed_op("dec.embed", [&] {
        embed_cuda(wdt_, b.next_tok.as<int>(), w_.embed.get(), V, R, D, resid, stream_, emb_ss);
        norm_parts_ = emb_ss ? 1 : 0;
    });
    for (int l = 0; l < L; ++l) {
        const CudaLayerWeights& W = w_.dec[size_t(l)];
        normed_gemm("dec.qkv", resid, W.ln_self.as<float>(), qkv_spec, b.dec_x.get(),
                    W.qkv.get(), b.dec_qkv.get());
        // Self-attention stays single-pass: over the few keys of a receipt's output the split kernel measured
        // 0.63-0.78x of it on an H200 (16-128 keys, R 1-8); cross-attention over the source gains 1.07-1.31x.
        timed_op("dec.self_attn", [&] {
            if (spec_active_) {
                draft_self_attention_cuda(dt_, b.dec_qkv.get(), cache + (2 * l) * lk_stride,
                                          cache + (2 * l + 1) * lk_stride, b.dec_bias.as<float>(), R / spec_q_,
                                          spec_q_, H, K, T_max_, b.spec_pos.as<int>(), b.dec_att.get(), stream_);
                return;
            }
            decoder_self_attention_cuda(dt_, b.dec_qkv.get(), cache + (2 * l) * lk_stride,
                                        cache + (2 * l + 1) * lk_stride, b.dec_bias.as<float>(), R, H, K, T_max_, state,
                                        b.dec_att.get(), stream_);
        });
        residual_gemm("dec.o", gemm_spec(R, D, HK, true, true), b.dec_att.get(), W.o.get(), resid);

        normed_gemm("dec.q_cross", resid, W.ln_cross.as<float>(), gemm_spec(R, HK, D, false, false), b.dec_x.get(),
                    W.q_cross.get(), b.dec_q.get());
        if (absorb_min_rows_ > 0 && R >= absorb_min_rows_) {
            timed_op("dec.cross_attn_absorbed", [&] {
                cross_attention_absorbed_cuda(dt_, b.dec_q.get(), b.enc_x.get(), W.k_cross_t.get(), w_.cross_v(l),
                                              b.src_row.as<int>(), b.src_len.as<int>(), R, H, K, D, S_max_, state,
                                              b.dec_qp.get(), b.dec_cp.get(), b.dec_att.get(), stream_,
                                              absorb_split_ ? &b.absorb_split : nullptr);
            });
        } else {
            timed_op("dec.cross_attn", [&] {
                const char* kv = static_cast<const char*>(b.cross_kv.get()) + l * kv_slab;
                if (cdt_ != dt_)
                    cross_attention_f32q_cuda(cdt_, b.dec_q.get(), kv, int64_t(2) * HK, 0, HK, b.src_row.as<int>(),
                                              b.src_len.as<int>(), R, H, K, S_max_, state, b.dec_att.get(), stream_,
                                              &b.attn_split);
                else
                    cross_attention_cuda(dt_, b.dec_q.get(), kv, int64_t(2) * HK, 0, HK, b.src_row.as<int>(),
                                         b.src_len.as<int>(), R, H, K, S_max_, state, b.dec_att.get(), stream_,
                                         &b.attn_split);
            });
        }
        residual_gemm("dec.o_cross", gemm_spec(R, D, HK, true, true), b.dec_att.get(), W.o_cross.get(), resid);

        ffn(W, R, b.dec_x.get(), b.dec_h.get(), b.dec_hg.get(), resid, true, W.ln_ffn.as<float>());
    }
    // logits [R, V] f32 = (x * lm_scale) . lm^T   (tied: lm = shared embedding, lm_scale = D^-0.5), x the final
    // norm. Every GEMM of this step has m = R; GemmLt::run sends the ones it measured faster that way (m <= 2,
    // n <= 8192: not this lm_head) to the small-M kernel, 3..32 rows to the tensor-core kernel, the rest to cuBLASLt,
    // unless the engine plan timed a shape faster on the other one (time_gemm_routes).
    normed_gemm("dec.lm_head", resid, w_.dec_final_ln.as<float>(), head_gemm_spec(R, V, D), b.dec_x.get(),
                w_.lm_weight(), b.logits.get(), w_.lm_scale);
}

void CudaT5Engine::upload_state(int step, int min_new, int max_new, int n_extra) {
    auto* s = buf_->h_state.as<DecodeState>();
    *s = DecodeState{step, S_, min_new, 0, 0, 0, max_new, 0, n_extra};
    RECEIPT_CUDA_CHECK(
        cudaMemcpyAsync(buf_->state.get(), s, sizeof(DecodeState), cudaMemcpyHostToDevice, stream_));
}

GemmSpec CudaT5Engine::make_spec(bool split, DType act, int m, int n, int k, bool out_f32, bool accumulate,
                                 Epilogue e) const {
    GemmSpec s{m, n, k, k, k, n, split ? wdt_ : act, out_f32 || split, accumulate, e};
    s.split_x = split;
    return s;
}

GemmSpec CudaT5Engine::gemm_spec(int m, int n, int k, bool out_f32, bool accumulate, Epilogue e) const {
    return make_spec(dec_a32_, dt_, m, n, k, out_f32, accumulate, e);
}

GemmSpec CudaT5Engine::enc_gemm_spec(int m, int n, int k, bool out_f32, bool accumulate, Epilogue e) const {
    return make_spec(enc_a32_, edt_, m, n, k, out_f32, accumulate, e);
}

GemmSpec CudaT5Engine::head_gemm_spec(int m, int n, int k) const {
    return make_spec(head_a32_, dt_, m, n, k, true, false, Epilogue::kNone);
}

std::string CudaT5Engine::precision() const {
    if (a32_ || (!enc_a32_ && !dec_a32_ && !head_a32_)) return precision_name(wdt_, a32_);
    return precision_name(wdt_, false) + (enc_a32_ ? "-e32" : "") + (dec_a32_ ? "-d32" : head_a32_ ? "-h32" : "");
}

int CudaT5Engine::bucket_for(int R) const {
    for (int b : buckets_)
        if (b >= R) return b;
    return R_max_;
}

}  // namespace receipt::cuda
