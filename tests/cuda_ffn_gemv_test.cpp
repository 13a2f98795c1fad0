// The one-kernel FFN of 1-2 row decode steps (ffn_gemv_cuda, src/ops/ffn_gemv_cuda.cu) and the small-M GEMMs
// that add its fixed-point output in (GemvNorm::pending, gemv_cuda's y_pending), against the op chain it replaces:
// gemv_cuda with the norm prologue, gated_act_cuda (or the ReLU epilogue) and the accumulating wo gemv_cuda
// (label: cuda). Without RECEIPT_WITH_CUDA it compiles to one skipped test.
#include <gtest/gtest.h>

#include "receipt/engine.h"

#if defined(RECEIPT_WITH_CUDA)
#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "cuda_test_util.h"
#include "ops/t5_ops_cuda.h"
#include "receipt/errors.h"

using namespace cuda_test;

namespace {

struct Case {
    int D, F;
    bool gated, gelu;
};
const Case kCases[] = {{512, 2048, false, false}, {384, 1024, true, true}, {768, 3072, true, false}, {64, 200, true, true}};

std::vector<long long> host_i64(const rc::DeviceBuffer& b, size_t n) {
    std::vector<long long> v(n);
    RECEIPT_CUDA_CHECK(cudaMemcpy(v.data(), b.get(), n * 8, cudaMemcpyDeviceToHost));
    return v;
}

float max_abs(const std::vector<float>& v) {
    float m = 0.0f;
    for (float x : v) m = std::max(m, std::fabs(x));
    return m;
}

TEST_F(CudaOps, FusedFfnMatchesTheGemvChain) {
    for (const Case& c : kCases)
        for (DType dt : {DType::kF16, DType::kBF16})
            for (bool x_f32 : {false, true})
                for (int m : {1, 2}) {
                    const int D = c.D, F = c.F, Fh = c.gated ? 2 * F : F;
                    const std::string what = std::string(name(dt)) + (x_f32 ? " f32 x" : "") + " m=" +
                                             std::to_string(m) + " D=" + std::to_string(D) + " F=" +
                                             std::to_string(F) + (c.gated ? c.gelu ? " gated gelu" : " gated relu" : " relu");
                    SCOPED_TRACE(what);
                    const float eps = 1e-6f;
                    const auto resid = randn(size_t(m) * D, 71, 3.0f);
                    auto ln = randn(D, 72, 0.3f);
                    for (float& v : ln) v += 1.0f;
                    const auto wi = rounded(randn(size_t(Fh) * D, 73, 1.0f / std::sqrt(float(D))), dt);
                    const auto wo = rounded(randn(size_t(D) * F, 74, 1.0f / std::sqrt(float(F))), dt);
                    auto d_resid = to_device(resid, DType::kF32), d_ln = to_device(ln, DType::kF32);
                    auto d_wi = to_device(wi, dt), d_wo = to_device(wo, dt);
                    const rc::GemvNorm norm{d_resid.as<float>(), d_ln.as<float>(), eps};

                    // The chain: h = gemv(norm(resid), wi) [relu], gated_act, resid_ref = resid + gemv(h, wo).
                    const DType h_dt = x_f32 ? DType::kF32 : dt;
                    rc::DeviceBuffer d_h(size_t(m) * Fh * 4), d_hg(size_t(m) * F * 4);
                    rc::gemv_cuda(dt, m, Fh, D, nullptr, D, d_wi.get(), D, d_h.get(), Fh, 1.0f, x_f32, false,
                                  !c.gated, nullptr, &norm, x_f32);
                    if (c.gated) rc::gated_act_cuda(h_dt, d_h.get(), m, F, c.gelu, d_hg.get(), nullptr);
                    auto d_ref = to_device(resid, DType::kF32);
                    rc::gemv_cuda(dt, m, D, F, c.gated ? d_hg.get() : d_h.get(), F, d_wo.get(), F, d_ref.get(), D,
                                  1.0f, true, true, false, nullptr, nullptr, x_f32);

                    // The fused kernel, twice into two buffers (the sums must not depend on timing); a third
                    // buffer filled with ones must come back zero.
                    rc::DeviceBuffer acc1(size_t(2) * D * 8), acc2(size_t(2) * D * 8), zero(size_t(2) * D * 8);
                    RECEIPT_CUDA_CHECK(cudaMemset(acc1.get(), 0, acc1.size()));
                    RECEIPT_CUDA_CHECK(cudaMemset(acc2.get(), 0, acc2.size()));
                    RECEIPT_CUDA_CHECK(cudaMemset(zero.get(), 1, zero.size()));
                    rc::ffn_gemv_cuda(dt, m, D, F, norm, d_wi.get(), d_wo.get(), c.gated, c.gelu, x_f32,
                                      acc1.as<long long>(), zero.as<long long>(), nullptr);
                    rc::ffn_gemv_cuda(dt, m, D, F, norm, d_wi.get(), d_wo.get(), c.gated, c.gelu, x_f32,
                                      acc2.as<long long>(), nullptr, nullptr);
                    RECEIPT_CUDA_CHECK(cudaDeviceSynchronize());
                    const auto a1 = host_i64(acc1, size_t(m) * D), a2 = host_i64(acc2, size_t(m) * D);
                    EXPECT_EQ(a1, a2) << "the fixed-point sums differ between two runs";
                    for (long long z : host_i64(zero, size_t(2) * D)) ASSERT_EQ(z, 0);

                    // resid + fused output against the chain's resid (f32 sums in another order; in half precision
                    // h may round the other way where a product sum lands near a rounding boundary).
                    const auto ref = to_host(d_ref, size_t(m) * D, DType::kF32);
                    std::vector<float> ffn_ref(ref.size());
                    for (size_t i = 0; i < ref.size(); ++i) ffn_ref[i] = ref[i] - resid[i];
                    const float scale = std::max(1e-3f, max_abs(ffn_ref));
                    const float tol = x_f32 ? 2e-5f : dt == DType::kF16 ? 4e-3f : 2e-2f;
                    for (size_t i = 0; i < ref.size(); ++i) {
                        const float fused = resid[i] + float(double(a1[i]) / 4294967296.0);
                        ASSERT_NEAR(fused, ref[i], tol * scale) << "element " << i;
                    }

                    // Consumers. The o GEMM: y = (resid + pending) + x . w^T, against the same GEMM on resid_ref.
                    const auto xo = rounded(randn(size_t(m) * D, 75), dt), wo2 = rounded(randn(size_t(D) * D, 76, 0.05f), dt);
                    auto d_xo = to_device(xo, dt), d_wo2 = to_device(wo2, dt);
                    auto y_fused = to_device(resid, DType::kF32);
                    rc::gemv_cuda(dt, m, D, D, d_xo.get(), D, d_wo2.get(), D, y_fused.get(), D, 1.0f, true, true,
                                  false, nullptr, nullptr, false, acc1.as<long long>());
                    rc::gemv_cuda(dt, m, D, D, d_xo.get(), D, d_wo2.get(), D, d_ref.get(), D, 1.0f, true, true,
                                  false, nullptr);
                    const auto yf = to_host(y_fused, size_t(m) * D, DType::kF32);
                    const auto yr = to_host(d_ref, size_t(m) * D, DType::kF32);
                    for (size_t i = 0; i < yf.size(); ++i) ASSERT_NEAR(yf[i], yr[i], tol * scale + 1e-5f) << i;

                    // The next norm: qkv-like GEMM of norm(resid + pending) against norm(resid_ref).
                    const int n = 3 * 64;
                    const auto wq = rounded(randn(size_t(n) * D, 77, 1.0f / std::sqrt(float(D))), dt);
                    auto d_wq = to_device(wq, dt);
                    rc::DeviceBuffer q1(size_t(m) * n * 4), q2(size_t(m) * n * 4);
                    const rc::GemvNorm n1{d_resid.as<float>(), d_ln.as<float>(), eps, acc1.as<long long>()};
                    auto d_ref2 = to_device(ref, DType::kF32);
                    const rc::GemvNorm n2{d_ref2.as<float>(), d_ln.as<float>(), eps};
                    rc::gemv_cuda(dt, m, n, D, nullptr, D, d_wq.get(), D, q1.get(), n, 1.0f, true, false, false,
                                  nullptr, &n1, x_f32);
                    rc::gemv_cuda(dt, m, n, D, nullptr, D, d_wq.get(), D, q2.get(), n, 1.0f, true, false, false,
                                  nullptr, &n2, x_f32);
                    const auto h1 = to_host(q1, size_t(m) * n, DType::kF32), h2 = to_host(q2, size_t(m) * n, DType::kF32);
                    const float qs = std::max(1e-3f, max_abs(h2));
                    const float qtol = x_f32 ? 1e-4f : dt == DType::kF16 ? 1e-2f : 4e-2f;
                    for (size_t i = 0; i < h1.size(); ++i) ASSERT_NEAR(h1[i], h2[i], qtol * qs) << i;
                }
}

TEST_F(CudaOps, FusedFfnRefusesWhatItCannotRun) {
    rc::DeviceBuffer buf(size_t(1) << 20);
    auto* p = buf.get();
    float* f = buf.as<float>();
    auto* acc = buf.as<long long>();
    const rc::GemvNorm norm{f, f, 1e-6f};
    EXPECT_FALSE(rc::ffn_gemv_supports(3, 512, 2048, false));
    EXPECT_FALSE(rc::ffn_gemv_supports(1, 1032, 2048, false));
    EXPECT_FALSE(rc::ffn_gemv_supports(1, 512, 2044, false));
    EXPECT_TRUE(rc::ffn_gemv_supports(2, 1024, 8, true));
    EXPECT_TRUE(rc::ffn_gemv_supports(1, 1024, 4096, false));
    EXPECT_FALSE(rc::ffn_gemv_supports(1, 1024, 65536, true));  // slices past shared memory
    EXPECT_THROW(rc::ffn_gemv_cuda(DType::kF16, 3, 512, 2048, norm, p, p, false, false, false, acc, nullptr, nullptr),
                 receipt::InvalidInput);
    EXPECT_THROW(rc::ffn_gemv_cuda(DType::kF32, 1, 512, 2048, norm, p, p, false, false, false, acc, nullptr, nullptr),
                 receipt::InvalidInput);
    EXPECT_THROW(rc::ffn_gemv_cuda(DType::kF16, 1, 512, 2048, norm, static_cast<char*>(p) + 2, p, false, false,
                                   false, acc, nullptr, nullptr),
                 receipt::InvalidInput);  // weights not 16-byte aligned
    EXPECT_THROW(rc::gemv_cuda(DType::kF16, 1, 64, 64, p, 64, p, 64, p, 64, 1.0f, false, true, false, nullptr,
                               nullptr, false, acc),
                 receipt::InvalidInput);  // a pending output needs an accumulating f32 y
}

}  // namespace

#else  // !RECEIPT_WITH_CUDA

TEST(CudaFfnGemv, NotBuilt) {
    GTEST_SKIP() << "cuda_ffn_gemv_test was built without RECEIPT_WITH_CUDA (see docs/numerics.md, Testing)";
}

#endif
