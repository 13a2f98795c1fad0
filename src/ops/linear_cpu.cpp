#include <cblas.h>
#include <omp.h>

#include <thread>

#include "ops/linear.h"

namespace receipt::ops {

namespace {
int g_threads = 0;
}

void set_cpu_threads(int n) {
    if (n <= 0) n = static_cast<int>(std::thread::hardware_concurrency());
    if (n <= 0) n = 1;
    g_threads = n;
    openblas_set_num_threads(n);
    omp_set_num_threads(n);
}

int cpu_threads() {
    if (g_threads == 0) set_cpu_threads(0);
    return g_threads;
}

void linear_cpu(const float* x, int64_t M, int64_t Kin, const float* w, int64_t N, float* y, float beta) {
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, M, N, Kin, 1.0f, x, Kin, w, Kin, beta, y, N);
}

void gemm_nt_cpu(int64_t M, int64_t N, int64_t Kd, float alpha, const float* A, int64_t lda, const float* B,
                 int64_t ldb, float beta, float* C, int64_t ldc) {
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, M, N, Kd, alpha, A, lda, B, ldb, beta, C, ldc);
}

void gemm_nn_cpu(int64_t M, int64_t N, int64_t Kd, const float* A, int64_t lda, const float* B, int64_t ldb,
                 float beta, float* C, int64_t ldc) {
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, M, N, Kd, 1.0f, A, lda, B, ldb, beta, C, ldc);
}

}  // namespace receipt::ops
