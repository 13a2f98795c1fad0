// Tensor-core decode GEMM (gemm_mma_cuda, src/ops/gemm_mma_cuda.cu) against a double-precision CPU reference,
// GemmLt's routing to it, and its refusals (label: cuda).
// Without RECEIPT_WITH_CUDA it compiles to one skipped test.
#include <gtest/gtest.h>

#include "receipt/engine.h"

#if defined(RECEIPT_WITH_CUDA)
#include <algorithm>
#include <string>
#include <vector>

#include "cuda/gemm_lt.h"
#include "cuda_test_util.h"
#include "ops/t5_ops_cuda.h"
#include "receipt/errors.h"

using namespace cuda_test;

namespace {

const DType kHalfTypes[] = {DType::kF16, DType::kBF16};
// Output tolerance relative to the largest |reference|: f32 outputs carry f32 summation error only (half products
// are exact in f32), f16 / bf16 outputs one rounding to the storage type.
float out_tol(DType out) { return out == DType::kF32 ? 1e-4f : out == DType::kF16 ? 1.5e-3f : 8e-3f; }

struct Mode {
    bool out_f32, accumulate, relu;
    float alpha;
    const char* what;
};
const Mode kModes[] = {{false, false, false, 1.0f, "T out"},
                       {false, false, true, -1.25f, "T out, relu, alpha -1.25"},
                       {false, true, false, 0.75f, "T out +=, alpha 0.75"},
                       {true, true, false, 0.044f, "f32 out +=, alpha 0.044"},
                       {true, false, true, -0.5f, "f32 out, relu, alpha -0.5"}};

TEST_F(CudaOps, MmaGemmMatchesCpu) {
    // Shapes: T5 decode shapes (n = 3 D, k = D; n = D, k = F), a last column block partly past n, k of one chunk,
    // padded row strides; rows: partial and whole 16-row tiles.
    struct Shape { int n, k, ldx, ldw, ldy; };
    const Shape shapes[] = {{1536, 512, 512, 512, 1536}, {512, 2048, 2048, 2048, 512}, {100, 96, 104, 112, 103},
                            {8, 32, 32, 32, 8},          {4501, 64, 64, 64, 4501}};
    for (DType dt : kHalfTypes)
        for (const Shape& sh : shapes)
            for (int m : {3, 8, 16, 17, 64}) {
                const int n = sh.n, k = sh.k;
                auto x = rounded(randn(size_t(m) * sh.ldx, 51), dt);
                auto w = rounded(randn(size_t(n) * sh.ldw, 52), dt);
                auto dx = to_device(x, dt), dw = to_device(w, dt);
                for (const Mode& md : kModes) {
                    const DType out = md.out_f32 ? DType::kF32 : dt;
                    const std::string what = std::string(name(dt)) + " m=" + std::to_string(m) + " n=" +
                                             std::to_string(n) + " k=" + std::to_string(k) + " (" + md.what +
                                             ", tiles " + std::to_string(1 << (int(&md - kModes) % 3)) + "x" +
                                             std::to_string(1 << ((int(&md - kModes) + m) % 3)) + ")";
                    const auto y0 = rounded(randn(size_t(m) * sh.ldy, 53 + m), out);
                    auto dy = to_device(y0, out);
                    // every block shape in turn: m tiles 1 / 2 / 4 x column tiles 1 / 2 / 4 (mode index picks)
                    const int mi = int(&md - kModes);
                    const rc::MmaTiles tiles{1 << (mi % 3), 1 << ((mi + m) % 3)};
                    try {
                        rc::gemm_mma_cuda(dt, m, n, k, dx.get(), sh.ldx, dw.get(), sh.ldw, dy.get(), sh.ldy, md.alpha,
                                          md.out_f32, md.accumulate, md.relu, nullptr, tiles);
                        RECEIPT_CUDA_CHECK(cudaDeviceSynchronize());
                    } catch (const receipt::Error& e) {
                        ADD_FAILURE() << what << ": " << e.what();
                        continue;
                    }
                    const auto got = to_host(dy, y0.size(), out);
                    expect_gemm({m, n, k, sh.ldx, sh.ldw, sh.ldy, md.alpha, md.accumulate, md.relu}, x, 0, w, y0, got,
                                m, out_tol(out), what);
                }
            }
}

TEST_F(CudaOps, GemmLtRoutesMidRowsToMmaAndAgreesWithCublasLt) {
    // GemmLt sends 3..32 rows to the tensor-core kernel; with it turned off the same GEMM runs on cuBLASLt. Both
    // accumulate in f32, so the results agree to f32 summation error.
    rc::GemmLt on, off;
    off.set_use_mma(false);
    for (DType dt : kHalfTypes)
        for (int m : {3, 24, 32}) {
            rc::GemmSpec s;
            s.m = m, s.n = 1536, s.k = 512, s.ldx = 512, s.ldw = 512, s.ldy = 1536, s.ab = dt, s.out_f32 = true;
            s.accumulate = true;
            EXPECT_TRUE(on.routes_to_mma(s)) << name(dt) << " m=" << m;
            EXPECT_FALSE(off.routes_to_mma(s));
            auto x = rounded(randn(size_t(m) * s.k, 71), dt), w = rounded(randn(size_t(s.n) * s.k, 72), dt);
            auto y0 = randn(size_t(m) * s.n, 73);
            auto dx = to_device(x, dt), dw = to_device(w, dt);
            auto y1 = to_device(y0, DType::kF32), y2 = to_device(y0, DType::kF32);
            on.run(s, dx.get(), dw.get(), y1.get(), 1.0f, nullptr);
            off.run(s, dx.get(), dw.get(), y2.get(), 1.0f, nullptr);
            RECEIPT_CUDA_CHECK(cudaDeviceSynchronize());
            expect_close(to_host(y2, y0.size(), DType::kF32), to_host(y1, y0.size(), DType::kF32), 1e-4f,
                         std::string(name(dt)) + " m=" + std::to_string(m));
        }
    rc::GemmSpec big;
    big.m = 33, big.n = 512, big.k = 512, big.ldx = 512, big.ldw = 512, big.ldy = 512;
    EXPECT_FALSE(on.routes_to_mma(big)) << "more than 32 rows go to cuBLASLt";
    rc::GemmSpec one = big;
    one.m = 1;
    EXPECT_FALSE(on.routes_to_mma(one)) << "1-2 rows go to the small-M kernel";
    rc::GemmSpec f32 = big;
    f32.m = 8, f32.ab = DType::kF32;
    EXPECT_FALSE(on.routes_to_mma(f32)) << "f32 weights go to cuBLASLt";
    rc::GemmSpec odd = big;
    odd.m = 8, odd.k = 200, odd.ldx = 200, odd.ldw = 200;
    EXPECT_FALSE(on.routes_to_mma(odd)) << "k % 32 != 0 goes to cuBLASLt";
    // Routes set per shape (m, n, k, accumulate), as the engine plan's timed choices do, override the row rule.
    rc::GemmSpec wide = big;
    wide.m = 64;
    EXPECT_TRUE(on.mma_routable(wide));
    EXPECT_TRUE(on.mma_route_default(wide));
    on.set_mma_route(wide, true);
    EXPECT_TRUE(on.routes_to_mma(wide)) << "64 rows routed to the tensor-core kernel";
    EXPECT_FALSE(on.mma_route_default(wide));
    rc::GemmSpec mid = big;
    mid.m = 8;
    on.set_mma_route(mid, false);
    EXPECT_FALSE(on.routes_to_mma(mid)) << "8 rows routed to cuBLASLt";
    rc::GemmSpec mid_acc = mid;
    mid_acc.accumulate = true;
    EXPECT_TRUE(on.routes_to_mma(mid_acc)) << "another shape keeps the row rule";
    on.set_mma_route(one, true);
    EXPECT_FALSE(on.routes_to_mma(one)) << "a route cannot take 1-2 rows from the small-M kernel";
    EXPECT_FALSE(off.mma_routable(wide)) << "no routes with the tensor-core kernel off";
    on.clear_mma_routes();
    EXPECT_FALSE(on.routes_to_mma(wide));
    EXPECT_TRUE(on.routes_to_mma(mid));
}

TEST_F(CudaOps, MmaGemmRejectsWhatItCannotDo) {
    rc::DeviceBuffer b(1 << 20);
    auto* p = static_cast<char*>(b.get());
    EXPECT_THROW(rc::gemm_mma_cuda(DType::kF32, 8, 64, 64, p, 64, p, 64, p, 64, 1.0f, true, false, false, nullptr),
                 receipt::InvalidInput);
    EXPECT_THROW(rc::gemm_mma_cuda(DType::kF16, 8, 64, 48, p, 48, p, 48, p, 64, 1.0f, true, false, false, nullptr),
                 receipt::InvalidInput);  // k % 32 != 0
    EXPECT_THROW(rc::gemm_mma_cuda(DType::kF16, 8, 64, 64, p + 2, 64, p, 64, p, 64, 1.0f, true, false, false, nullptr),
                 receipt::InvalidInput);  // x not 16-byte aligned
    EXPECT_THROW(rc::gemm_mma_cuda(DType::kF16, 8, 64, 64, p, 64, p, 64, p, 32, 1.0f, true, false, false, nullptr),
                 receipt::InvalidInput);  // ldy < n
}

}  // namespace

#else  // !RECEIPT_WITH_CUDA

TEST(CudaGemmMma, NotBuilt) {
    GTEST_SKIP() << "cuda_gemm_mma_test was built without RECEIPT_WITH_CUDA (see docs/numerics.md, Testing)";
}

#endif
