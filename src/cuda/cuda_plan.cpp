// Engine plans for CudaT5Engine: load + validate, or build by timing cuBLASLt candidates for the decoder's GEMM
// shapes at every batch bucket (the shapes that run max_new_tokens times per request), and kernel variants whose
// speed measured differently per model (a whole decode step timed both ways). Encoder GEMMs, whose M depends on the
// request's source length, use the cuBLASLt heuristic.
#include <spdlog/spdlog.h>

#include <algorithm>
#include <array>
#include <filesystem>

#include "cuda/cuda_check.h"
#include "cuda/cuda_engine_buffers.h"
#include "cuda/engine_plan.h"
#include "receipt/errors.h"

namespace receipt::cuda {

namespace {

PlanHeader current_header(const std::string& gpu_name, int cc_major, int cc_minor, const Model& model,
                          const std::string& precision, const EngineOptions& o) {
    PlanHeader h;
    h.gpu_name = gpu_name;
    h.cc_major = cc_major;
    h.cc_minor = cc_minor;
    RECEIPT_CUDA_CHECK(cudaDriverGetVersion(&h.driver_version));
    RECEIPT_CUDA_CHECK(cudaRuntimeGetVersion(&h.runtime_version));
    h.cublaslt_version = GemmLt::version();
    h.model_checksum = model.checksum();
    h.dtype = precision;
    h.max_batch = o.max_batch_size;
    h.max_input = o.max_input_tokens;
    h.max_total = o.max_total_tokens;
    return h;
}

std::string default_plan_path(const Model& model, const std::string& gpu_name, const std::string& precision,
                              const EngineOptions& o) {
    return (std::filesystem::path(model.dir()) /
            default_plan_file_name(gpu_name, precision, o.max_batch_size, o.max_input_tokens, o.max_total_tokens))
        .string();
}

}  // namespace

void CudaT5Engine::setup_plan() {
    const std::string precision = this->precision();
    plan_path_ = options_.plan_path.empty() ? default_plan_path(*model_, gpu_name_, precision, options_) : options_.plan_path;
    const PlanHeader expected = current_header(gpu_name_, cc_major_, cc_minor_, *model_, precision, options_);
    const std::string remedy = "rebuild it with `receipt build-engine --model " + model_->dir() + " --out " +
                               plan_path_ + " --dtype " + precision +
                               "` or delete the file (EngineOptions::rebuild_plan rebuilds it automatically)";
    std::string why;
    std::error_code ec;
    if (std::filesystem::exists(plan_path_, ec)) {
        try {
            EnginePlan plan = read_plan_file(plan_path_);
            const std::string mismatch = describe_plan_mismatch(plan.header, expected);
            if (mismatch.empty()) {
                adopt_choices(plan.choices);
                const int n_ok = gemm_->adopt(plan.gemms);
                plan_status_ = "loaded " + std::to_string(n_ok) + "/" + std::to_string(plan.gemms.size()) +
                               " algorithms from " + plan_path_;
                if (n_ok == int(plan.gemms.size())) return;
                why = "cuBLASLt rejected " + std::to_string(plan.gemms.size() - size_t(n_ok)) + " algorithms";
                if (!options_.rebuild_plan) return;  // usable: rejected shapes fall back to the heuristic
            } else {
                if (!options_.rebuild_plan)
                    RECEIPT_THROW(ModelError, "engine plan " + plan_path_ + " does not match this engine:\n" +
                                                  mismatch + remedy);
                why = mismatch.substr(0, mismatch.find('\n'));
            }
        } catch (const ModelError& e) {
            if (!options_.rebuild_plan) throw;
            why = e.what();
        }
    } else {
        if (!options_.rebuild_plan)
            RECEIPT_THROW(ModelError, "no engine plan at " + plan_path_ + "; create it with `receipt build-engine --model " +
                                          model_->dir() + " --out " + plan_path_ + " --dtype " + precision +
                                          "` or enable EngineOptions::rebuild_plan");
        why = "missing";
    }

    // Build (or rebuild) the plan, then try to save it; a read-only model folder only costs the rebuild next time.
    build_plan();
    EnginePlan plan;
    plan.header = expected;
    plan.gemms = gemm_->tuned();
    plan.choices = plan_choices_;
    plan_status_ = (why == "missing" ? "built" : "rebuilt (" + why + ")");
    if (!skip_ops_.empty()) {  // timed without some ops (RECEIPT_CUDA_SKIP_OPS): not a plan to keep
        plan_status_ += ", not saved: ops skipped";
        return;
    }
    try {
        write_plan_file(plan_path_, plan);
        plan_status_ += ", saved to " + plan_path_;
    } catch (const ModelError& e) {
        plan_status_ += ", not saved: " + std::string(e.what());
        spdlog::warn("cuda engine: {}", e.what());
    }
    if (why != "missing") spdlog::info("cuda engine: engine plan {}: {}", plan_path_, plan_status_);
}

void CudaT5Engine::build_plan() {
    Buffers& b = *buf_;
    const CudaLayerWeights& W = w_.dec.front();
    float* resid = b.dec_resid.as<float>();
    // x, w and y of each of decoder_gemm_specs' GEMMs, in its order: qkv, o, q_cross, wi, wo, lm_head.
    const std::array<const void*, kDecoderGemms> xs = {
        b.dec_x.get(), b.dec_att.get(), b.dec_x.get(), b.dec_x.get(), w_.gated ? b.dec_hg.get() : b.dec_h.get(),
        b.dec_x.get()};
    const std::array<const void*, kDecoderGemms> ws = {W.qkv.get(), W.o.get(),  W.q_cross.get(),
                                                       W.wi.get(),  W.wo.get(), w_.lm_weight()};
    const std::array<void*, kDecoderGemms> ys = {b.dec_qkv.get(), resid, b.dec_q.get(), b.dec_h.get(), resid,
                                                 b.logits.get()};
    // cuBLASLt algorithms for every decoder shape, those the tensor-core kernel takes by default too (the route
    // timing below may move them to cuBLASLt).
    gemm_->clear_mma_routes();
    for (int R : buckets_) {
        const std::array<GemmSpec, kDecoderGemms> specs = decoder_gemm_specs(R);
        for (size_t i = 0; i < specs.size(); ++i) {
            if (gemm_->mma_routable(specs[i])) gemm_->set_mma_route(specs[i], false);
            gemm_->tune(specs[i], xs[i], ws[i], ys[i], stream_);
        }
    }
    gemm_->clear_mma_routes();
    plan_choices_.clear();
    if (const auto c = time_cross_single_row()) plan_choices_.push_back(*c);
    adopt_choices(plan_choices_);
    for (const PlanChoice& c : time_gemm_routes()) plan_choices_.push_back(c);
    adopt_choices(plan_choices_);
    // Tuning ran GEMMs on scratch buffers; start requests from clean ones.
    RECEIPT_CUDA_CHECK(cudaMemsetAsync(b.dec_resid.get(), 0, b.dec_resid.size(), stream_));
    RECEIPT_CUDA_CHECK(cudaStreamSynchronize(stream_));
}

namespace {

std::string route_choice_name(const GemmSpec& s) {
    return gemm_route_choice_name(GemmRoute{s.m, s.n, s.k, s.accumulate});
}

// Graph executables destroyed with the owner.
struct OwnedGraphs {
    std::vector<cudaGraphExec_t> g;
    OwnedGraphs() = default;
    OwnedGraphs(const OwnedGraphs&) = delete;
    OwnedGraphs& operator=(const OwnedGraphs&) = delete;
    ~OwnedGraphs() {
        for (cudaGraphExec_t e : g)
            if (e) cudaGraphExecDestroy(e);
    }
};

}  // namespace

void CudaT5Engine::adopt_choices(const std::vector<PlanChoice>& choices) {
    plan_choices_ = choices;
    buf_->attn_split.stream_single_row = false;
    gemm_->clear_mma_routes();
    n_routes_moved_ = 0;
    for (const PlanChoice& c : choices) {
        if (c.name == kCrossStreamSingleRow) buf_->attn_split.stream_single_row = c.value == 1;
        const std::optional<GemmRoute> r = parse_gemm_route_choice(c.name);
        if (!r) continue;
        GemmSpec s;
        s.m = r->m, s.n = r->n, s.k = r->k, s.accumulate = r->accumulate;
        gemm_->set_mma_route(s, c.value == 1);
        n_routes_moved_ += (c.value == 1) != (s.m <= GemmLt::kMmaRouteMaxM);
    }
}

std::array<GemmSpec, CudaT5Engine::kDecoderGemms> CudaT5Engine::decoder_gemm_specs(int R) const {
    const int D = cfg_.d_model, HK = cfg_.num_heads * cfg_.d_kv, F = cfg_.d_ff, V = cfg_.vocab_size;
    return {gemm_spec(R, 3 * HK, D, false, false),
            gemm_spec(R, D, HK, true, true),
            gemm_spec(R, HK, D, false, false),
            w_.gated ? gemm_spec(R, 2 * F, D, false, false) : gemm_spec(R, F, D, false, false, Epilogue::kRelu),
            gemm_spec(R, D, F, true, true),
            head_gemm_spec(R, V, D)};
}

void CudaT5Engine::prepare_timing_rows(int R) {
    Buffers& b = *buf_;
    int* h = b.h_rows.as<int>();
    for (int r = 0; r < R; ++r) {
        h[r] = S_max_;
        h[R_max_ + r] = 0;
        h[2 * R_max_ + r] = r;
    }
    RECEIPT_CUDA_CHECK(cudaMemcpyAsync(b.src_len.get(), h, size_t(R) * 4, cudaMemcpyHostToDevice, stream_));
    RECEIPT_CUDA_CHECK(cudaMemcpyAsync(b.next_tok.get(), h + R_max_, size_t(R) * 4, cudaMemcpyHostToDevice, stream_));
    RECEIPT_CUDA_CHECK(
        cudaMemcpyAsync(b.src_row.get(), h + 2 * R_max_, size_t(R) * 4, cudaMemcpyHostToDevice, stream_));
    const int saved_S = S_;
    S_ = S_max_;
    upload_state(std::min(64, T_max_ - 1), 0);
    S_ = saved_S;
}

std::vector<float> CudaT5Engine::time_graphs(const std::vector<cudaGraphExec_t>& graphs) {
    constexpr int kRounds = 5, kReplays = 20;
    std::vector<float> best_ms(graphs.size(), 1e30f);
    cudaEvent_t ev[2] = {nullptr, nullptr};
    auto cleanup = [&] {
        for (cudaEvent_t& e : ev)
            if (e) cudaEventDestroy(e);
    };
    try {
        for (cudaEvent_t& e : ev) RECEIPT_CUDA_CHECK(cudaEventCreate(&e));
        for (int round = 0; round < kRounds; ++round)
            for (size_t v = 0; v < graphs.size(); ++v) {
                RECEIPT_CUDA_CHECK(cudaEventRecord(ev[0], stream_));
                for (int i = 0; i < kReplays; ++i) RECEIPT_CUDA_CHECK(cudaGraphLaunch(graphs[v], stream_));
                RECEIPT_CUDA_CHECK(cudaEventRecord(ev[1], stream_));
                RECEIPT_CUDA_CHECK(cudaEventSynchronize(ev[1]));
                float ms = 0.0f;
                RECEIPT_CUDA_CHECK(cudaEventElapsedTime(&ms, ev[0], ev[1]));
                best_ms[v] = std::min(best_ms[v], ms);
            }
    } catch (...) {
        cleanup();
        throw;
    }
    cleanup();
    std::vector<float> us(graphs.size());
    for (size_t v = 0; v < graphs.size(); ++v) us[v] = best_ms[v] * 1000.0f / kReplays;
    return us;
}

std::optional<PlanChoice> CudaT5Engine::time_cross_single_row() {
    const int HK = cfg_.num_heads * cfg_.d_kv;
    if (!use_graphs_ || cross_attention_pipelined_level() != 2 || cdt_ != dt_ ||
        !cross_attention_pipelined_supports(dt_, cfg_.d_kv, int64_t(2) * HK, 0, HK) ||
        (absorb_min_rows_ > 0 && absorb_min_rows_ <= 1))
        return std::nullopt;
    // One row reading source 0 of S_max keys at decoder position 64 (or the last one), fed token 0.
    prepare_timing_rows(1);
    OwnedGraphs g;
    for (int v = 0; v < 2; ++v) {
        buf_->attn_split.stream_single_row = v == 1;
        g.g.push_back(capture_graph([&] { decoder_forward(1); }, 1));
    }
    const std::vector<float> us = time_graphs(g.g);
    PlanChoice c;
    c.name = kCrossStreamSingleRow;
    c.time_off_us = us[0];
    c.time_on_us = us[1];
    c.value = c.time_on_us < c.time_off_us ? 1 : 0;
    return c;
}

std::vector<PlanChoice> CudaT5Engine::time_gemm_routes() {
    std::vector<PlanChoice> out;
    if (!use_graphs_ || !gemm_->use_mma()) return out;
    for (int R : buckets_) {
        std::vector<GemmSpec> shapes;  // distinct routable shapes of this bucket's step
        for (const GemmSpec& s : decoder_gemm_specs(R)) {
            const bool seen = std::any_of(shapes.begin(), shapes.end(), [&](const GemmSpec& t) {
                return t.n == s.n && t.k == s.k && t.accumulate == s.accumulate;
            });
            if (!seen && gemm_->mma_routable(s)) shapes.push_back(s);
        }
        if (shapes.empty()) continue;
        prepare_timing_rows(R);
        OwnedGraphs cur;
        cur.g.push_back(capture_graph([&] { decoder_forward(R); }, R));
        // Start from the fastest of the default routes, every shape on cuBLASLt and every shape on the tensor-core
        // kernel (a start other than the default only when kMinRouteGain faster): the deferred norm
        // (residual_gemm) pays only where a producer and its consumer both take the tensor-core kernel, so
        // flipping one shape at a time can miss moving them together.
        std::vector<bool> was_mma;
        for (const GemmSpec& s : shapes) was_mma.push_back(gemm_->routes_to_mma(s));
        {
            OwnedGraphs all;  // [0] every shape on cuBLASLt, [1] every shape on the tensor-core kernel
            for (bool mma : {false, true}) {
                for (const GemmSpec& s : shapes) gemm_->set_mma_route(s, mma);
                all.g.push_back(capture_graph([&] { decoder_forward(R); }, R));
            }
            const std::vector<float> us = time_graphs({cur.g[0], all.g[0], all.g[1]});
            const int best = us[1] <= us[2] ? 1 : 2;
            if (us[best] < us[0] * (1.0f - kMinRouteGain)) {
                for (const GemmSpec& s : shapes) gemm_->set_mma_route(s, best == 2);
                std::swap(cur.g[0], all.g[best - 1]);
            } else {
                for (size_t i = 0; i < shapes.size(); ++i) gemm_->set_mma_route(shapes[i], was_mma[i]);
            }
        }
        for (const GemmSpec& s : shapes) {
            const bool was = gemm_->routes_to_mma(s);
            gemm_->set_mma_route(s, !was);
            OwnedGraphs alt;
            alt.g.push_back(capture_graph([&] { decoder_forward(R); }, R));
            const std::vector<float> us = time_graphs({cur.g[0], alt.g[0]});
            const bool flip = us[1] < us[0] * (1.0f - kMinRouteGain);
            PlanChoice c;
            c.name = route_choice_name(s);
            c.time_off_us = was ? us[1] : us[0];
            c.time_on_us = was ? us[0] : us[1];
            c.value = (flip ? !was : was) ? 1 : 0;
            gemm_->set_mma_route(s, c.value == 1);
            if (flip) std::swap(cur.g, alt.g);
            out.push_back(c);
        }
    }
    return out;
}

}  // namespace receipt::cuda
