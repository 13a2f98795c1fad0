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
    if (fuse_norm_ && gemm_->routes_to_gemv(spec) && spec.k <= gemv_norm_max_k(spec.m)) {
        const GemvNorm norm{resid, ln, cfg_.layer_norm_epsilon};
        timed_op(name, [&] {
            gemv_cuda(spec.ab, spec.m, spec.n, spec.k, nullptr, spec.k, w, spec.ldw, y, spec.ldy, alpha, spec.out_f32,
                      spec.accumulate, spec.epilogue == Epilogue::kRelu, stream_, &norm, spec.split_x);
        });
        return false;
    }
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

}  // namespace receipt::cuda
