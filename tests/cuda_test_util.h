// Helpers shared by the CUDA op tests: random data, host <-> device copies in f32 / f16 / bf16, tolerances, the
// CPU side of a decode self-attention step, and the CudaOps fixture (skips without a usable GPU).
// Include only inside `#if defined(RECEIPT_WITH_CUDA)`.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include <cuda_runtime_api.h>

#include "cuda/cuda_check.h"
#include "cuda/device_buffer.h"
#include "ops/t5_ops_cuda.h"
#include "receipt/engine.h"
#include "test_random.h"

namespace rc = receipt::cuda;
using receipt::DType;

namespace cuda_test {

using receipt::test::randn;

const DType kTypes[] = {DType::kF32, DType::kF16, DType::kBF16};
const char* name(DType d) { return d == DType::kF16 ? "f16" : d == DType::kBF16 ? "bf16" : "f32"; }
float tol(DType d) { return d == DType::kF32 ? 2e-4f : d == DType::kF16 ? 2e-2f : 8e-2f; }

// Device copy of `v` in dtype dt (via the convert kernel), and back to f32 on the host.
rc::DeviceBuffer to_device(const std::vector<float>& v, DType dt) {
    rc::DeviceBuffer f(v.size() * 4 + 4), out(v.size() * rc::dtype_size(dt) + 4);
    RECEIPT_CUDA_CHECK(cudaMemcpy(f.get(), v.data(), v.size() * 4, cudaMemcpyHostToDevice));
    rc::convert_f32_cuda(dt, f.as<float>(), out.get(), int64_t(v.size()), nullptr);
    RECEIPT_CUDA_CHECK(cudaDeviceSynchronize());
    return out;
}
std::vector<float> to_host(const rc::DeviceBuffer& b, size_t n, DType dt) {
    // Convert T -> f32 on the host side by copying raw bits.
    std::vector<float> out(n);
    if (dt == DType::kF32) {
        RECEIPT_CUDA_CHECK(cudaMemcpy(out.data(), b.get(), n * 4, cudaMemcpyDeviceToHost));
        return out;
    }
    std::vector<uint16_t> raw(n);
    RECEIPT_CUDA_CHECK(cudaMemcpy(raw.data(), b.get(), n * 2, cudaMemcpyDeviceToHost));
    for (size_t i = 0; i < n; ++i) {
        uint32_t bits;
        if (dt == DType::kBF16) {
            bits = uint32_t(raw[i]) << 16;
        } else {  // IEEE half -> float
            const uint32_t h = raw[i], s = (h & 0x8000u) << 16, e = (h >> 10) & 0x1f, m = h & 0x3ff;
            if (e == 0) {
                const float f = std::ldexp(float(m), -24);
                std::memcpy(&bits, &f, 4);
                bits |= s;
            } else if (e == 31) {
                bits = s | 0x7f800000u | (m << 13);
            } else {
                bits = s | ((e + 112) << 23) | (m << 13);
            }
        }
        std::memcpy(&out[i], &bits, 4);
    }
    return out;
}
// The values the GPU actually sees after rounding to dt (so references use the same inputs).
std::vector<float> rounded(const std::vector<float>& v, DType dt) { return to_host(to_device(v, dt), v.size(), dt); }

// The CPU side of a decoder self-attention step: from qkv [N, 3, H, K] takes q [N, H, K] and appends k, v at
// position t of the caches [N, H, T_max, K].
std::vector<float> take_q_append_kv(const std::vector<float>& qkv, int N, int H, int K, int T_max, int t,
                                    std::vector<float>& cache_k, std::vector<float>& cache_v) {
    const int HK = H * K;
    std::vector<float> q(size_t(N) * HK);
    for (int r = 0; r < N; ++r)
        for (int c = 0; c < HK; ++c) {
            q[size_t(r) * HK + c] = qkv[size_t(r) * 3 * HK + c];
            const int h = c / K, d = c % K;
            cache_k[((size_t(r) * H + h) * T_max + t) * K + d] = qkv[size_t(r) * 3 * HK + HK + c];
            cache_v[((size_t(r) * H + h) * T_max + t) * K + d] = qkv[size_t(r) * 3 * HK + 2 * HK + c];
        }
    return q;
}

void expect_close(const std::vector<float>& want, const std::vector<float>& got, float rtol, const std::string& what) {
    ASSERT_EQ(want.size(), got.size()) << what;
    float scale = 1e-6f;
    for (float w : want) scale = std::max(scale, std::fabs(w));
    int n_bad = 0;
    for (size_t i = 0; i < want.size(); ++i) {
        if (!(std::fabs(want[i] - got[i]) <= rtol * scale)) {
            if (++n_bad <= 5)
                ADD_FAILURE() << what << ": [" << i << "] want " << want[i] << " got " << got[i] << " (tol "
                              << rtol * scale << ")";
        }
    }
    EXPECT_EQ(n_bad, 0) << what << ": " << n_bad << " of " << want.size() << " values off";
}

// Checks a GEMM result y [rows, ldy] (row-major; got) against y = relu?(alpha x.w^T + (accumulate ? y0 : 0)) computed
// in double on the host for rows < m and columns < n, with x [.., ldx] starting at element x_off and w [n, ldw]:
// close within tol (relative to the largest |reference|) inside, and unchanged (equal to y0) everywhere else.
struct GemmCase {
    int m, n, k, ldx, ldw, ldy;
    float alpha;
    bool accumulate, relu;
};
void expect_gemm(const GemmCase& c, const std::vector<float>& x, size_t x_off, const std::vector<float>& w,
                 const std::vector<float>& y0, const std::vector<float>& got, int rows, float tol,
                 const std::string& what) {
    std::vector<float> want, got_valid;
    int n_clobbered = 0;
    for (int i = 0; i < rows; ++i)
        for (int j = 0; j < c.ldy; ++j) {
            const size_t iy = size_t(i) * c.ldy + j;
            if (i >= c.m || j >= c.n) {
                n_clobbered += got[iy] != y0[iy];
                continue;
            }
            double acc = 0;
            for (int q = 0; q < c.k; ++q) acc += double(x[x_off + size_t(i) * c.ldx + q]) * w[size_t(j) * c.ldw + q];
            double v = double(c.alpha) * acc + (c.accumulate ? y0[iy] : 0.0);
            if (c.relu) v = std::max(v, 0.0);
            want.push_back(float(v));
            got_valid.push_back(got[iy]);
        }
    EXPECT_EQ(n_clobbered, 0) << what << ": wrote outside y[0:m, 0:n]";
    expect_close(want, got_valid, tol, what);
}

// Split scratch for R rows, H heads of width K, sized for kMaxDecodeSplits; n_sm steers how many splits the
// launchers pick (decode_attn_n_split).
struct SplitScratch {
    rc::DeviceBuffer part, counter;
    rc::DecodeAttnSplit split;
    SplitScratch(int R, int H, int K, int n_sm)
        : part(size_t(R) * H * rc::kMaxDecodeSplits * (K + 2) * 4), counter(size_t(R) * H * 4) {
        RECEIPT_CUDA_CHECK(cudaMemset(counter.get(), 0, counter.size()));
        const size_t n_part = size_t(R) * H * rc::kMaxDecodeSplits * (K + 2);
        split = rc::DecodeAttnSplit{part.as<float>(), counter.as<int>(), n_part, R * H, rc::kMaxDecodeSplits, n_sm};
    }
    // Every launch must leave all counters at zero (graph replays reuse them without a reset).
    int n_nonzero_counters(int n) const {
        std::vector<int> c(static_cast<size_t>(n));
        RECEIPT_CUDA_CHECK(cudaMemcpy(c.data(), counter.get(), size_t(n) * 4, cudaMemcpyDeviceToHost));
        int nz = 0;
        for (int v : c) nz += v != 0;
        return nz;
    }
};

class CudaOps : public ::testing::Test {
protected:
    void SetUp() override {
        if (!receipt::cuda_available()) GTEST_SKIP() << "no usable CUDA GPU";
    }
};

}  // namespace cuda_test
