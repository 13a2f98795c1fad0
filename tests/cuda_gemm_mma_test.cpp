// Tensor-core decode GEMM (gemm_mma_cuda, src/ops/gemm_mma_cuda.cu) against a double-precision CPU reference,
// GemmLt's routing to it, the deferred norm between two of its GEMMs, and its refusals (label: cuda).
// Without RECEIPT_WITH_CUDA it compiles to one skipped test.
#include <gtest/gtest.h>

#include "receipt/engine.h"

#if defined(RECEIPT_WITH_CUDA)
#include <algorithm>
#include <cmath>
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

TEST_F(CudaOps, MmaGemmSplitsF32InputsLikeTheSplitPath) {
    // x_f32: the kernel splits the f32 x into hi = T(x), lo = T(x - hi) in registers. Against the double product
    // of the f32 x it must be as close as the split path (split_f32_cuda + two cuBLASLt GEMMs), far closer than
    // the same GEMM on x rounded to T; against the split path itself, f32 summation order apart.
    struct Shape { int n, k, ldx; };
    for (DType dt : kHalfTypes)
        for (Shape sh : {Shape{1536, 512, 512}, Shape{512, 2048, 2052}, Shape{100, 96, 100}})
            for (int m : {3, 16, 17, 64})
                for (int mode = 0; mode < 2; ++mode) {  // 0: y = alpha x.w^T, relu; 1: y += alpha x.w^T
                    const int n = sh.n, k = sh.k;
                    const std::string what = std::string(name(dt)) + " m=" + std::to_string(m) + " n=" +
                                             std::to_string(n) + " k=" + std::to_string(k) + " mode " +
                                             std::to_string(mode);
                    const auto x = randn(size_t(m) * sh.ldx, 81, 3.0f);  // f32 values, not representable in dt
                    const auto w = rounded(randn(size_t(n) * k, 82, 0.1f), dt);
                    const auto y0 = randn(size_t(m) * n, 83);
                    auto dx = to_device(x, DType::kF32), dw = to_device(w, dt);
                    rc::GemmSpec s{m, n, k, sh.ldx, k, n, dt, true, mode == 1,
                                   mode == 0 ? rc::Epilogue::kRelu : rc::Epilogue::kNone};
                    s.split_x = true;
                    rc::GemmLt on, off;
                    off.set_use_mma_split(false);
                    on.set_mma_route(s, true);  // 64 rows too
                    ASSERT_TRUE(on.routes_to_mma(s)) << what;
                    ASSERT_FALSE(off.routes_to_mma(s)) << what;
                    rc::DeviceBuffer scratch(rc::GemmLt::split_scratch_bytes(m, k, dt));
                    off.set_split_scratch(scratch.get(), scratch.size());
                    auto y_on = to_device(y0, DType::kF32), y_off = to_device(y0, DType::kF32);
                    on.run(s, dx.get(), dw.get(), y_on.get(), -0.5f, nullptr);  // no scratch needed
                    off.run(s, dx.get(), dw.get(), y_off.get(), -0.5f, nullptr);
                    // The plain GEMM on x rounded to dt: the error the split removes.
                    const auto xr = rounded(x, dt);
                    auto dxr = to_device(xr, dt), y_r = to_device(y0, DType::kF32);
                    rc::GemmSpec plain = s;
                    plain.split_x = false;
                    on.run(plain, dxr.get(), dw.get(), y_r.get(), -0.5f, nullptr);
                    RECEIPT_CUDA_CHECK(cudaDeviceSynchronize());
                    const auto got = to_host(y_on, y0.size(), DType::kF32);
                    const auto split = to_host(y_off, y0.size(), DType::kF32);
                    const auto rounded_x = to_host(y_r, y0.size(), DType::kF32);
                    expect_close(split, got, 1e-5f, what + " vs the split path");
                    double err = 0, err_split = 0, err_rounded = 0;
                    for (int i = 0; i < m; ++i)
                        for (int j = 0; j < n; ++j) {
                            double ref = 0;
                            for (int kk = 0; kk < k; ++kk)
                                ref += double(x[size_t(i) * sh.ldx + kk]) * w[size_t(j) * k + kk];
                            ref = -0.5 * ref + (mode == 1 ? y0[size_t(i) * n + j] : 0.0);
                            if (mode == 0) ref = std::max(ref, 0.0);
                            const size_t o = size_t(i) * n + j;
                            err = std::max(err, std::fabs(got[o] - ref));
                            err_split = std::max(err_split, std::fabs(split[o] - ref));
                            err_rounded = std::max(err_rounded, std::fabs(rounded_x[o] - ref));
                        }
                    EXPECT_LE(err, 2 * err_split + 1e-5) << what;
                    EXPECT_LT(err * 8, err_rounded) << what << ": no closer than x rounded to " << name(dt);
                }
}

TEST_F(CudaOps, MmaGemmDefersTheNormToTheNextGemm) {
    // Deferred T5LayerNorm (MmaFusion): a producer GEMM adding into the f32 residual writes partial sums of squares
    // per column block; the consumer normalises the residual from them. The producer's residual must be bit for
    // bit the plain GEMM's, the partials must add up to the rows' sums of squares, and the consumer must give
    // rmsnorm_cuda + the same GEMM up to the order of the sum of squares (an ulp of x here and there).
    struct Shape { int d, hk, n; };
    for (DType dt : kHalfTypes)
        for (Shape sh : {Shape{512, 512, 1536}, Shape{384, 384, 2048}, Shape{768, 768, 768}})
            for (int m : {3, 8, 17, 64})
                for (int split = 0; split < 2; ++split) {
                    const int D = sh.d, HK = sh.hk, N = sh.n, pi = m % 3;
                    const rc::MmaTiles ptiles{1 << pi, 1 << ((pi + split) % 3)};  // producer block shapes vary
                    const std::string what = std::string(name(dt)) + " D=" + std::to_string(D) + " m=" +
                                             std::to_string(m) + (split ? " split" : "") + " producer tiles " +
                                             std::to_string(ptiles.mt) + "x" + std::to_string(ptiles.nt);
                    const auto resid0 = randn(size_t(m) * D, 91, 3.0f);
                    const auto xp = rounded(randn(size_t(m) * HK, 92), dt);
                    const auto wp = rounded(randn(size_t(D) * HK, 93, 0.1f), dt);
                    const auto wc = rounded(randn(size_t(N) * D, 94, 0.1f), dt);
                    auto ln = randn(size_t(D), 95);
                    for (float& v : ln) v = 1.0f + 0.25f * v;
                    auto dxp = to_device(xp, dt), dwp = to_device(wp, dt), dwc = to_device(wc, dt);
                    auto dln = to_device(ln, DType::kF32);
                    auto r_def = to_device(resid0, DType::kF32), r_ref = to_device(resid0, DType::kF32);
                    rc::DeviceBuffer ss(size_t(m) * ((D + 7) / 8) * 4);
                    rc::MmaFusion out;
                    out.ss_out = ss.as<float>();
                    const int parts = rc::gemm_mma_cuda(dt, m, D, HK, dxp.get(), HK, dwp.get(), HK, r_def.get(), D,
                                                        1.0f, true, true, false, nullptr, ptiles, false, &out);
                    rc::gemm_mma_cuda(dt, m, D, HK, dxp.get(), HK, dwp.get(), HK, r_ref.get(), D, 1.0f, true, true,
                                      false, nullptr, ptiles);
                    RECEIPT_CUDA_CHECK(cudaDeviceSynchronize());
                    const auto resid = to_host(r_def, resid0.size(), DType::kF32);
                    EXPECT_EQ(resid, to_host(r_ref, resid0.size(), DType::kF32)) << what << ": residual changed";
                    ASSERT_EQ(parts, (D + 8 * ptiles.nt - 1) / (8 * ptiles.nt)) << what;
                    std::vector<float> ps(size_t(parts) * m);
                    RECEIPT_CUDA_CHECK(cudaMemcpy(ps.data(), ss.get(), ps.size() * 4, cudaMemcpyDeviceToHost));
                    for (int i = 0; i < m; ++i) {
                        double want = 0, got = 0;
                        for (int d = 0; d < D; ++d) want += double(resid[size_t(i) * D + d]) * resid[size_t(i) * D + d];
                        for (int p = 0; p < parts; ++p) got += ps[size_t(p) * m + i];
                        EXPECT_NEAR(got, want, 1e-4 * want) << what << " row " << i;
                    }

                    // Consumer: y = LayerNorm(resid) . wc^T, T out (or f32 from the split f32 x).
                    const DType xdt = split ? DType::kF32 : dt, ydt = split ? DType::kF32 : dt;
                    rc::DeviceBuffer xn(size_t(m) * D * 4);
                    rc::rmsnorm_cuda(xdt, r_ref.as<float>(), nullptr, dln.as<float>(), m, D, 1e-6f, xn.get(), nullptr);
                    auto y_ref = to_device(std::vector<float>(size_t(m) * N, 0.0f), ydt);
                    auto y_def = to_device(std::vector<float>(size_t(m) * N, 0.0f), ydt);
                    rc::gemm_mma_cuda(dt, m, N, D, xn.get(), D, dwc.get(), D, y_ref.get(), N, 1.0f, split, false,
                                      false, nullptr, {}, split);
                    rc::MmaFusion in;
                    in.ss_in = ss.as<float>(), in.n_parts = parts, in.w = dln.as<float>(), in.eps = 1e-6f;
                    rc::gemm_mma_cuda(dt, m, N, D, r_def.get(), D, dwc.get(), D, y_def.get(), N, 1.0f, split, false,
                                      false, nullptr, {}, split, &in);
                    RECEIPT_CUDA_CHECK(cudaDeviceSynchronize());
                    expect_close(to_host(y_ref, size_t(m) * N, ydt), to_host(y_def, size_t(m) * N, ydt),
                                 split ? 1e-5f : out_tol(dt), what + " consumer");
                }
    rc::DeviceBuffer b(1 << 20);
    auto* p = static_cast<char*>(b.get());
    rc::MmaFusion half_out;
    half_out.ss_out = reinterpret_cast<float*>(p);
    EXPECT_THROW(rc::gemm_mma_cuda(DType::kF16, 8, 64, 64, p, 64, p, 64, p, 64, 1.0f, false, true, false, nullptr, {},
                                   false, &half_out),
                 receipt::InvalidInput);  // partial sums of a half y
    rc::MmaFusion bad_w;
    bad_w.ss_in = reinterpret_cast<float*>(p), bad_w.n_parts = 4, bad_w.w = reinterpret_cast<float*>(p + 4);
    EXPECT_THROW(rc::gemm_mma_cuda(DType::kF16, 8, 64, 64, p, 64, p, 64, p, 64, 1.0f, false, false, false, nullptr, {},
                                   false, &bad_w),
                 receipt::InvalidInput);  // norm weight not 16-byte aligned
}

TEST_F(CudaOps, MmaGemmGatedEpilogueEqualsGatedActKernel) {
    // MmaFusion::gate: y = act(x . wi_0^T) * (x . wi_1^T) in the GEMM's epilogue must equal the [m, 2F] GEMM
    // followed by gated_act_cuda bit for bit (the same sums in the same order, the same f32 math), for T and f32
    // (split) x, gelu and relu, and after a deferred norm.
    for (DType dt : kHalfTypes)
        for (int F : {1024, 200})
            for (int m : {3, 16, 33})
                for (int mode = 0; mode < 3; ++mode) {  // 0: T x, 1: f32 x (split), 2: deferred norm of an f32 x
                    for (bool gelu : {true, false}) {
                        const int D = 384;
                        const bool split = mode == 1;
                        const std::string what = std::string(name(dt)) + " F=" + std::to_string(F) + " m=" +
                                                 std::to_string(m) + " mode " + std::to_string(mode) +
                                                 (gelu ? " gelu" : " relu");
                        const DType xdt = mode == 0 ? dt : DType::kF32, ydt = split ? DType::kF32 : dt;
                        const auto x = mode == 0 ? rounded(randn(size_t(m) * D, 101), dt) : randn(size_t(m) * D, 101);
                        const auto w = rounded(randn(size_t(2 * F) * D, 102, 0.2f), dt);
                        auto ln = randn(size_t(D), 103);
                        for (float& v : ln) v = 1.0f + 0.25f * v;
                        auto dx = to_device(x, xdt), dw = to_device(w, dt), dln = to_device(ln, DType::kF32);
                        // Partial sums of squares of x's rows for the deferred norm: one part per row.
                        std::vector<float> ss(static_cast<size_t>(m));
                        for (int i = 0; i < m; ++i) {
                            float acc = 0.0f;
                            for (int d = 0; d < D; ++d) acc += x[size_t(i) * D + d] * x[size_t(i) * D + d];
                            ss[size_t(i)] = acc;
                        }
                        auto dss = to_device(ss, DType::kF32);
                        rc::MmaFusion base;
                        if (mode == 2) base.ss_in = dss.as<float>(), base.n_parts = 1, base.w = dln.as<float>();
                        auto h = to_device(std::vector<float>(size_t(m) * 2 * F, 0.0f), ydt);
                        auto want = to_device(std::vector<float>(size_t(m) * F, 0.0f), ydt);
                        auto got = to_device(std::vector<float>(size_t(m) * F, 0.0f), ydt);
                        rc::gemm_mma_cuda(dt, m, 2 * F, D, dx.get(), D, dw.get(), D, h.get(), 2 * F, 0.5f, split,
                                          false, false, nullptr, {}, split, mode == 2 ? &base : nullptr);
                        rc::gated_act_cuda(ydt, h.get(), m, F, gelu, want.get(), nullptr);
                        rc::MmaFusion f = base;
                        f.gate = gelu ? rc::MmaGate::kGeluTanh : rc::MmaGate::kRelu;
                        const int blocks = rc::gemm_mma_cuda(dt, m, F, D, dx.get(), D, dw.get(), D, got.get(), F, 0.5f,
                                                             split, false, false, nullptr, {}, split, &f);
                        RECEIPT_CUDA_CHECK(cudaDeviceSynchronize());
                        EXPECT_EQ(blocks, (F + 7) / 8) << what;
                        EXPECT_EQ(to_host(want, size_t(m) * F, ydt), to_host(got, size_t(m) * F, ydt)) << what;
                    }
                }
    rc::DeviceBuffer b(1 << 20);
    auto* p = static_cast<char*>(b.get());
    rc::MmaFusion g;
    g.gate = rc::MmaGate::kRelu;
    EXPECT_THROW(rc::gemm_mma_cuda(DType::kF16, 8, 64, 64, p, 64, p, 64, p, 64, 1.0f, true, true, false, nullptr, {},
                                   false, &g),
                 receipt::InvalidInput);  // a gate with accumulate
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
    EXPECT_THROW(rc::gemm_mma_cuda(DType::kF16, 8, 64, 64, p, 64, p, 64, p, 64, 1.0f, false, false, false, nullptr,
                                   {}, true),
                 receipt::InvalidInput);  // an f32 x with a half y
    EXPECT_THROW(rc::gemm_mma_cuda(DType::kF16, 8, 64, 64, p, 66, p, 64, p, 64, 1.0f, true, false, false, nullptr,
                                   {}, true),
                 receipt::InvalidInput);  // f32 rows not 16-byte aligned
    EXPECT_FALSE(rc::gemm_mma_supports(DType::kF16, 8, 64, 64, 66, 64, true));
    EXPECT_TRUE(rc::gemm_mma_supports(DType::kF16, 8, 64, 64, 68, 64, true));
    EXPECT_FALSE(rc::gemm_mma_supports(DType::kF16, 8, 64, 64, 68, 64, false));
}

}  // namespace

#else  // !RECEIPT_WITH_CUDA

TEST(CudaGemmMma, NotBuilt) {
    GTEST_SKIP() << "cuda_gemm_mma_test was built without RECEIPT_WITH_CUDA (see docs/numerics.md, Testing)";
}

#endif
