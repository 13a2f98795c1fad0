// Dense ops on the CPU, fp32, row-major. GEMMs go through OpenBLAS cblas_sgemm; element-wise loops use OpenMP
// with the thread count set by set_cpu_threads().
#pragma once

#include <cstdint>

namespace receipt::ops {

// Sets the thread count of OpenBLAS and of the element-wise loops (n <= 0: all cores). Process-wide.
void set_cpu_threads(int n);
// The thread count in effect.
int cpu_threads();

// y[M, N] = x[M, Kin] . w[N, Kin]^T + beta * y   (a Hugging Face nn.Linear without bias; w is [out, in]).
// w_f16 (nullable): the same weights as IEEE halves, whose f32 values are exactly w's; the few-row path (M <= 16,
// decoder steps) streams them instead of w, with the same arithmetic: identical y from half the memory traffic.
void linear_cpu(const float* x, int64_t M, int64_t Kin, const float* w, int64_t N, float* y, float beta = 0.0f,
                const uint16_t* w_f16 = nullptr);

// C[M, N] = alpha * A[M, Kd] . B[N, Kd]^T + beta * C, with leading dimensions (strided head views).
void gemm_nt_cpu(int64_t M, int64_t N, int64_t Kd, float alpha, const float* A, int64_t lda, const float* B,
                 int64_t ldb, float beta, float* C, int64_t ldc);
// C[M, N] = A[M, Kd] . B[Kd, N] + beta * C, with leading dimensions.
void gemm_nn_cpu(int64_t M, int64_t N, int64_t Kd, const float* A, int64_t lda, const float* B, int64_t ldb,
                 float beta, float* C, int64_t ldc);

}  // namespace receipt::ops
