// CudaT5Engine's LayerNorm-reading and residual-writing decoder GEMMs: the norm as the small-M GEMM's prologue
// (1-2 rows), deferred into the tensor-core GEMM through partial sums of squares (3+ rows, MmaFusion), or
// rmsnorm_cuda in front; and the gated activation in the tensor-core wi GEMM's epilogue.
#include "cuda/cuda_check.h"
#include "cuda/cuda_engine_buffers.h"
#include "cuda/cuda_t5_engine.h"
#include "ops/t5_ops_cuda.h"

namespace receipt::cuda {

bool CudaT5Engine::normed_gemm(const char* name, const float* resid, const float* ln, const GemmSpec& spec, void* x,
                               const void* w, void* y, float alpha, MmaGate gate, void* y_gated) {
    const DType x_dt = spec.split_x ? DType::kF32 : spec.ab;
    if (gemv_norm_route(spec)) {
        const GemvNorm norm{resid, ln, cfg_.layer_norm_epsilon, ffn_pending_};  // x = norm(resid + pending FFN)
        timed_op(name, [&] {
            gemv_cuda(spec.ab, spec.m, spec.n, spec.k, nullptr, spec.k, w, spec.ldw, y, spec.ldy, alpha, spec.out_f32,
                      spec.accumulate, spec.epilogue == Epilogue::kRelu, stream_, &norm, spec.split_x);
        });
        return false;
    }
    RECEIPT_CHECK(!ffn_pending_, Error, std::string(name) + ": a fused FFN output is pending off the small-M path");
    const bool mma = gemm_->routes_to_mma(spec) && aligned16(w);
    MmaFusion f;
    if (mma_gate_ && mma && y_gated) f.gate = gate;
    void* out = f.gate != MmaGate::kNone ? y_gated : y;
    if (norm_parts_ > 0 && spec.k == cfg_.d_model && mma) {  // deferred norm
        f.ss_in = buf_->norm_ss.as<float>();
        f.n_parts = norm_parts_;
        f.w = ln;
        f.eps = cfg_.layer_norm_epsilon;
        timed_op(name, [&] { gemm_->run_mma(spec, resid, w, out, alpha, stream_, f); });
        return f.gate != MmaGate::kNone;
    }
    timed_op("dec.rmsnorm", [&] {
        rmsnorm_cuda(x_dt, const_cast<float*>(resid), nullptr, ln, spec.m, spec.k, cfg_.layer_norm_epsilon, x, stream_);
    });
    if (f.gate != MmaGate::kNone) {
        timed_op(name, [&] { gemm_->run_mma(spec, x, w, out, alpha, stream_, f); });
        return true;
    }
    timed_op(name, [&] { gemm_->run(spec, x, w, y, alpha, stream_); });
    return false;
}

void CudaT5Engine::residual_gemm(const char* name, const GemmSpec& spec, const void* x, const void* w, float* resid) {
    norm_parts_ = 0;
    if (ffn_pending_) {  // resid = (resid + the fused FFN's output) + x . w^T, on the small-M kernel (fuse_ffn)
        RECEIPT_CHECK(gemm_->routes_to_gemv(spec), Error, std::string(name) + ": a fused FFN output is pending");
        const long long* pending = ffn_pending_;
        ffn_pending_ = nullptr;
        timed_op(name, [&] {
            gemv_cuda(spec.ab, spec.m, spec.n, spec.k, x, spec.k, w, spec.ldw, resid, spec.ldy, 1.0f, true, true,
                      false, stream_, nullptr, spec.split_x, pending);
        });
        return;
    }
    if (mma_norm_ && gemm_->routes_to_mma(spec) && aligned16(x) && aligned16(w)) {
        MmaFusion norm;
        norm.ss_out = buf_->norm_ss.as<float>();
        int parts = 0;
        timed_op(name, [&] { parts = gemm_->run_mma(spec, x, w, resid, 1.0f, stream_, norm); });
        norm_parts_ = parts;  // 0 when the op was skipped (RECEIPT_CUDA_SKIP_OPS): the next norm runs on its own
        return;
    }
    timed_op(name, [&] { gemm_->run(spec, x, w, resid, 1.0f, stream_); });
}

bool CudaT5Engine::gemv_norm_route(const GemmSpec& spec) const {
    return fuse_norm_ && gemm_->routes_to_gemv(spec) && spec.k <= gemv_norm_max_k(spec.m);
}

bool CudaT5Engine::fuse_ffn(int R, bool* last) const {
    const int D = cfg_.d_model, HK = cfg_.num_heads * cfg_.d_kv;
    *last = false;
    if (!ffn_fuse_ || spec_active_ || R > 2 || w_.dec.size() < 2 || wdt_ == DType::kF32 ||
        !ffn_gemv_supports(R, D, cfg_.d_ff, w_.gated) || !aligned16(buf_->ffn_acc.get()))
        return false;
    const GemmSpec o = gemm_spec(R, D, HK, true, true);
    if (!gemv_norm_route(gemm_spec(R, 3 * HK, D, false, false)) || !gemm_->routes_to_gemv(o) || o.ldy != D)
        return false;
    *last = gemv_norm_route(head_gemm_spec(R, cfg_.vocab_size, D));
    return true;
}

void CudaT5Engine::fused_ffn(const CudaLayerWeights& W, int l, int R, const float* resid) {
    const int D = cfg_.d_model, L = int(w_.dec.size());
    long long* acc = buf_->ffn_acc.as<long long>();
    // Layer l adds into slot l and zeroes slot l + 1 (mod L): that slot's readers (this step's layer l + 2 qkv and
    // o, or the previous step's) have all run, and its own FFN comes later in this step.
    long long* out = acc + size_t(l) * 2 * D;
    long long* zero = acc + size_t((l + 1) % L) * 2 * D;
    const GemvNorm norm{resid, W.ln_ffn.as<float>(), cfg_.layer_norm_epsilon};
    timed_op("dec.ffn", [&] {
        ffn_gemv_cuda(wdt_, R, D, cfg_.d_ff, norm, W.wi.get(), W.wo.get(), w_.gated, w_.gelu, dec_a32_, out, zero,
                      stream_);
    });
    ffn_pending_ = out;
}

}  // namespace receipt::cuda
