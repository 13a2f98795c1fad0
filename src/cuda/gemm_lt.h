// cuBLASLt GEMMs of the T5 engine: y[m, n] (+)= alpha * x[m, k] . w[n, k]^T (an nn.Linear without bias), f32
// accumulation (CUBLAS_COMPUTE_32F) for every dtype, optional RELU epilogue, and y may be f32 while x, w are
// f16/bf16 (the residual stream: accumulate = true adds the product into y). Algorithms come from the engine plan
// when it has the shape, else from the cuBLASLt heuristic (cached per shape). GEMMs with m <= 2 and n <= 8192
// (decode steps at batch 1-2, not the lm_head; where it was measured faster, see small_m in gemm_lt.cpp) run the
// small-M kernel gemv_cuda (src/ops/gemv_cuda.cu) instead, which reads the weight once with 16-byte loads;
// RECEIPT_CUDA_GEMV=0 in the environment (or set_use_gemv(false)) keeps them on cuBLASLt, and
// RECEIPT_CUDA_GEMV_MAX_M=M / RECEIPT_CUDA_GEMV_MAX_N=N move the limits (A/B timing). Past those, f16 / bf16 GEMMs
// of up to 32 rows, n <= 8192 and k a multiple of 32 (decode steps of batch 3-32) run the tensor-core decode kernel
// gemm_mma_cuda (src/ops/gemm_mma_cuda.cu), launched with PDL like the other decode kernels; RECEIPT_CUDA_MMA=0
// keeps them on cuBLASLt, RECEIPT_CUDA_MMA_MAX_M=M / RECEIPT_CUDA_MMA_MAX_N=N move its limits. The engine plan may
// route single shapes either way (set_mma_route), where it timed a decode step faster so. Split GEMMs (split_x)
// of those shapes run the same kernel on the f32 x (x_f32: the split in registers, one launch) in place of the
// split kernel and two cuBLASLt GEMMs; RECEIPT_CUDA_MMA_SPLIT=0 (or set_use_mma_split(false)) keeps the old way.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <map>
#include <memory>
#include <tuple>
#include <vector>

#include "cuda/device_buffer.h"
#include "cuda/engine_plan.h"
#include "receipt/engine.h"

namespace receipt::cuda {

enum class Epilogue : int { kNone = 0, kRelu = 1 };

struct MmaFusion;  // src/ops/t5_ops_cuda.h

// Shape and types of one GEMM. Row-major: x [m, k] with row stride ldx, w [n, k] with ldw, y [m, n] with ldy.
struct GemmSpec {
    int m = 0, n = 0, k = 0;
    int ldx = 0, ldw = 0, ldy = 0;
    DType ab = DType::kF16;   // x and w
    bool out_f32 = false;     // y is f32 (else the same dtype as x, w)
    bool accumulate = false;  // y += ... (beta = 1)
    Epilogue epilogue = Epilogue::kNone;
    // x is f32 (row stride ldx) while w is `ab` (f16 / bf16) and y is f32 (out_f32 must be set): run() splits x
    // into hi = ab(x) and lo = ab(x - hi) (split_f32_cuda, into the scratch of set_split_scratch) and computes
    // y (+)= alpha * x_hi . w^T, then y = relu?(alpha * x_lo . w^T + y): two GEMMs on the same weights whose sum
    // carries x to about twice ab's mantissa (EngineOptions::f32_activations). Where a GEMM goes to the small-M
    // kernel (m <= 2, n <= 8192) or the tensor-core decode kernel (routes_to_mma, ldx a multiple of 4) it runs
    // instead as one pass that reads the f32 x itself (no scratch).
    bool split_x = false;
};

// Owns a cuBLASLt handle, its workspace and per-shape descriptors. Not thread-safe (one per engine).
class GemmLt {
public:
    explicit GemmLt(size_t workspace_bytes = size_t(32) << 20);
    ~GemmLt();
    GemmLt(const GemmLt&) = delete;
    GemmLt& operator=(const GemmLt&) = delete;

    // Enqueues the GEMM on `stream` (graph-capturable: no allocation, no sync). Throws CudaError / InvalidInput.
    void run(const GemmSpec& s, const void* x, const void* w, void* y, float alpha, cudaStream_t stream);

    // run() with fusions (MmaFusion, src/ops/t5_ops_cuda.h) on the tensor-core kernel, for a shape that
    // routes_to_mma: with f.ss_in, x is the f32 residual [s.m, s.k] (row stride s.ldx) that the kernel
    // normalises; with f.ss_out, y (f32) gets the partial sums of squares too; with f.gate, s is the [s.m, s.n]
    // GEMM of stacked [wi_0; wi_1] and y is its gated activation, [s.m, s.n / 2] contiguous. Returns the launch's
    // column blocks (the n_parts of what it wrote to ss_out). Throws InvalidInput for a shape that does not route
    // there.
    int run_mma(const GemmSpec& s, const void* x, const void* w, void* y, float alpha, cudaStream_t stream,
                const MmaFusion& f);

    // Times up to n_candidates heuristic algorithms on the given (scratch-safe) buffers, keeps the fastest for
    // this shape and returns it as a plan entry. Synchronises the stream. A shape that run() sends to the
    // small-M kernel (small_m(): m <= 2, n <= 8192, small-M kernel on) has nothing to tune: its shape is returned with an
    // empty algorithm and is not added to tuned(), so plans only hold cuBLASLt shapes.
    PlanGemm tune(const GemmSpec& s, const void* x, const void* w, void* y, cudaStream_t stream,
                  int n_candidates = 8);

    // Adopts plan entries; an entry cuBLASLt rejects (cublasLtMatmulAlgoCheck) is dropped and counted.
    // Returns the number of entries adopted.
    int adopt(const std::vector<PlanGemm>& entries);

    // Entries chosen by tune() so far.
    std::vector<PlanGemm> tuned() const;

    // cublasLtGetVersion().
    static uint64_t version();

    // Device scratch for split_x GEMMs: needs 2 * round_up(m * k * sizeof(ab), 256) bytes for the largest such
    // GEMM. The caller owns the memory; run() throws InvalidInput for a split GEMM that does not fit.
    void set_split_scratch(void* scratch, size_t bytes) {
        split_scratch_ = static_cast<char*>(scratch);
        split_bytes_ = bytes;
    }
    // Bytes of split scratch a split_x GEMM of m x k needs.
    static size_t split_scratch_bytes(int m, int k, DType ab);

    // Whether run() sends the small-M shapes to the small-M kernel (default on; RECEIPT_CUDA_GEMV=0 turns it off).
    // For tests and A/B timing; set it before capturing graphs.
    void set_use_gemv(bool on) { use_gemv_ = on; }
    // Whether run() sends this shape to the small-M kernel (gemv_cuda) rather than cuBLASLt.
    bool routes_to_gemv(const GemmSpec& s) const { return small_m(s); }
    bool use_gemv() const { return use_gemv_; }
    // Whether run() sends the 3..32-row shapes to the tensor-core kernel (default on; RECEIPT_CUDA_MMA=0 turns it
    // off). Set it before capturing graphs.
    void set_use_mma(bool on) { use_mma_ = on; }
    // Whether run() sends this shape (with 16-byte aligned x and w) to gemm_mma_cuda rather than cuBLASLt.
    bool routes_to_mma(const GemmSpec& s) const { return mid_m(s); }
    bool use_mma() const { return use_mma_; }
    // Whether split_x GEMMs may take the tensor-core kernel (default on; RECEIPT_CUDA_MMA_SPLIT=0 turns it off).
    // For tests and A/B timing; set it before capturing graphs.
    void set_use_mma_split(bool on) { use_mma_split_ = on; }
    // Most rows the tensor-core kernel takes by default (routes_to_mma; RECEIPT_CUDA_MMA_MAX_M moves it).
    static constexpr int kMmaRouteMaxM = 32;
    // Whether the tensor-core kernel can take this shape at all (past the small-M kernel, half precision, k a
    // multiple of 32, n <= the column limit; a split shape only with set_use_mma_split): the shapes an engine plan
    // may route either way.
    bool mma_routable(const GemmSpec& s) const;
    // Routes shape (m, n, k, accumulate) of an mma_routable spec to the tensor-core kernel (true) or cuBLASLt
    // (false) whatever its row count, overriding the 3..32-row default (the engine plan's timed choices). Set it
    // before capturing graphs.
    void set_mma_route(const GemmSpec& s, bool mma) { mma_route_[route_key(s)] = mma; }
    void clear_mma_routes() { mma_route_.clear(); }
    // Whether routes_to_mma(s) follows the default rule (no route set for its shape).
    bool mma_route_default(const GemmSpec& s) const { return !mma_route_.count(route_key(s)); }

private:
    struct Entry;
    using Key = std::tuple<int, int, int, int, int, int, int, int, int, int, int>;
    static Key key_of(const GemmSpec& s, int align);
    Entry& entry(const GemmSpec& s, int align);

    void* handle_ = nullptr;  // cublasLtHandle_t
    DeviceBuffer workspace_;
    std::map<Key, std::unique_ptr<Entry>> cache_;
    std::map<Key, PlanGemm> planned_;  // adopted or tuned, by shape (align 256)
    bool use_gemv_ = true;
    // Which shapes the small-M kernel takes (measured: see small_m in gemm_lt.cpp). RECEIPT_CUDA_GEMV_MAX_M=M
    // (1..kGemvMaxM) and RECEIPT_CUDA_GEMV_MAX_N=N in the environment move the limits, for A/B timing.
    static constexpr int kGemvRouteMaxM = 2, kGemvRouteMaxN = 8192;
    int gemv_max_m_ = kGemvRouteMaxM;  // most rows the small-M kernel takes
    int gemv_max_n_ = kGemvRouteMaxN;  // most columns it takes
    static constexpr int kMmaRouteMaxN = 8192;  // not a 32k-vocabulary lm_head
    bool use_mma_ = true;
    bool use_mma_split_ = true;
    int mma_max_m_ = kMmaRouteMaxM;  // most rows the tensor-core kernel takes (RECEIPT_CUDA_MMA_MAX_M)
    int mma_max_n_ = kMmaRouteMaxN;  // most columns (RECEIPT_CUDA_MMA_MAX_N)
    bool mid_m(const GemmSpec& s) const;
    using RouteKey = std::tuple<int, int, int, bool>;  // m, n, k, accumulate
    static RouteKey route_key(const GemmSpec& s) { return {s.m, s.n, s.k, s.accumulate}; }
    std::map<RouteKey, bool> mma_route_;
    char* split_scratch_ = nullptr;
    size_t split_bytes_ = 0;
    bool small_m(const GemmSpec& s) const;
    // The two half-precision GEMMs of a split_x spec, with x_hi / x_lo placed in the split scratch (split_x: the
    // split_f32_cuda launch is the caller's).
    struct SplitParts {
        GemmSpec hi, lo;
        char *x_hi, *x_lo;
    };
    SplitParts split_parts(const GemmSpec& s) const;
};

}  // namespace receipt::cuda
