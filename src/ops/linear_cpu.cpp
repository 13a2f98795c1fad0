#include <cblas.h>
#include <omp.h>

#include <algorithm>
#include <thread>

#include "ops/linear.h"

namespace receipt::ops {

namespace {
int g_threads = 0;

// Threads worth using for a GEMM of m*n*k multiply-adds that is split into `slices` independent pieces.
int gemm_threads(int64_t m, int64_t n, int64_t k, int64_t slices) {
    if (omp_in_parallel()) return 1;  // already on a worker (e.g. per-head attention): stay serial
    // At least ~128k multiply-adds per thread. Decoder-step GEMVs are memory-bound and a second thread nearly
    // doubles their bandwidth; below that, a fork-join costs more than it saves (and a scheduler slice when other
    // processes hold the cores).
    const int64_t by_work = std::max<int64_t>(1, m * n * k / (1 << 17));
    return static_cast<int>(std::min<int64_t>({cpu_threads(), by_work, slices}));
}
}  // namespace

// One thread pool: OpenBLAS is kept single-threaded and every GEMM is split across the OpenMP threads, each
// calling OpenBLAS on its own slice. A pthread OpenBLAS pool next to the OpenMP pool (the Debian default) leaves
// one pool spinning on the cores the other one needs after every hand-over (t5-small encoder, 2 threads on 2
// busy cores: 4.2 s with both pools, 1.1 s with one thread).
void set_cpu_threads(int n) {
    if (n <= 0) n = static_cast<int>(std::thread::hardware_concurrency());
    if (n <= 0) n = 1;
    g_threads = n;
    openblas_set_num_threads(1);
    omp_set_num_threads(n);
}

int cpu_threads() {
    if (g_threads == 0) set_cpu_threads(0);
    return g_threads;
}

// Rows of y one GEMV each when M is tiny: OpenBLAS's sgemm packs w first and, for M = 1..4 with K = 2048, ran
// 3-12x slower than sgemv (0.68 vs 0.06 ms for [1, 2048] x [512, 2048]^T). Larger w (lm_head) at M > 1 keeps sgemm,
// which reads w once for all rows.
static void linear_rows(const float* x, int64_t M, int64_t Kin, const float* w, int64_t N, float* y, int64_t ldy,
                        float beta) {
    if (M == 1 || (M <= 4 && N * Kin <= (int64_t(2) << 20))) {
        for (int64_t m = 0; m < M; ++m)
            cblas_sgemv(CblasRowMajor, CblasNoTrans, N, Kin, 1.0f, w, Kin, x + m * Kin, 1, beta, y + m * ldy, 1);
    } else {
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, M, N, Kin, 1.0f, x, Kin, w, Kin, beta, y, ldy);
    }
}

// Split over the output features N (w rows): each thread streams its own part of the weights, which is what
// bounds the small-M decoder steps.
void linear_cpu(const float* x, int64_t M, int64_t Kin, const float* w, int64_t N, float* y, float beta) {
    const int nt = gemm_threads(M, N, Kin, N / 16);
    if (nt <= 1) {
        linear_rows(x, M, Kin, w, N, y, N, beta);
        return;
    }
#pragma omp parallel num_threads(nt)
    {
        const int i = omp_get_thread_num();
        const int64_t n0 = (N * i / nt) / 16 * 16;  // 16-column aligned slices
        const int64_t n1 = i + 1 == nt ? N : (N * (i + 1) / nt) / 16 * 16;
        if (n1 > n0) linear_rows(x, M, Kin, w + n0 * Kin, n1 - n0, y + n0, N, beta);
    }
}

// Split over the rows M of A and C.
void gemm_nt_cpu(int64_t M, int64_t N, int64_t Kd, float alpha, const float* A, int64_t lda, const float* B,
                 int64_t ldb, float beta, float* C, int64_t ldc) {
    const int nt = gemm_threads(M, N, Kd, M / 8);
    if (nt <= 1) {
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, M, N, Kd, alpha, A, lda, B, ldb, beta, C, ldc);
        return;
    }
#pragma omp parallel num_threads(nt)
    {
        const int i = omp_get_thread_num();
        const int64_t m0 = M * i / nt, m1 = M * (i + 1) / nt;
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, m1 - m0, N, Kd, alpha, A + m0 * lda, lda, B, ldb, beta,
                    C + m0 * ldc, ldc);
    }
}

void gemm_nn_cpu(int64_t M, int64_t N, int64_t Kd, const float* A, int64_t lda, const float* B, int64_t ldb,
                 float beta, float* C, int64_t ldc) {
    const int nt = gemm_threads(M, N, Kd, M / 8);
    if (nt <= 1) {
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, M, N, Kd, 1.0f, A, lda, B, ldb, beta, C, ldc);
        return;
    }
#pragma omp parallel num_threads(nt)
    {
        const int i = omp_get_thread_num();
        const int64_t m0 = M * i / nt, m1 = M * (i + 1) / nt;
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m1 - m0, N, Kd, 1.0f, A + m0 * lda, lda, B, ldb, beta,
                    C + m0 * ldc, ldc);
    }
}

}  // namespace receipt::ops
