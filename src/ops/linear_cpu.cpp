#include <cblas.h>
#include <immintrin.h>
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <thread>

#include "ops/linear.h"

// OpenBLAS's pthread build (Debian's default) starts a thread pool when the library loads, and an idle worker
// spins on sched_yield for about 2^28 cycles (~0.1 s) before it sleeps: on 2 cores it took ~80 ms from every
// one-receipt `receipt extract` (about 8,000 yields; 0.43 -> 0.35 s with OPENBLAS_NUM_THREADS=1). OpenBLAS runs
// single-threaded here (set_cpu_threads), so the pool is stopped with the call OpenBLAS's own fork handler uses.
// A weak reference: in a serial or OpenMP build, or another BLAS, the symbol may be missing and nothing happens.
extern "C" int blas_thread_shutdown_(void) __attribute__((weak));

namespace receipt::ops {

namespace {
int g_threads = 0;

// OpenBLAS on one thread, its pool stopped; once per process (openblas_set_num_threads() starts a stopped pool
// again, as after a fork, so it is not called a second time).
void single_threaded_blas() {
    static const bool done = [] {
        openblas_set_num_threads(1);
        if (blas_thread_shutdown_) blas_thread_shutdown_();
        return true;
    }();
    (void)done;
}

// At program start (OpenBLAS's constructor has run by then, as the library is loaded first), so the pool does not
// spin while the model loads.
const bool g_blas_single = (single_threaded_blas(), true);

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
    single_threaded_blas();
    omp_set_num_threads(n);
}

int cpu_threads() {
    if (g_threads == 0) set_cpu_threads(0);
    return g_threads;
}

// Decoder-step GEMMs have few rows (M = batch x beams <= 16) and are bound by streaming w from memory. OpenBLAS
// packs w before multiplying (an extra copy of every weight per call: 3-12x slower than the stream at M = 1..8),
// so small M goes through this kernel instead, which reads each row of w once for all M rows of x:
//   y[m, n] = sum_k x[m, k] w[n, k]  (+ beta y[m, n]),  x: [M, K], w: [N, K], y: [M, ldy]   (M <= 8 per call)
// AVX2/FMA over k, one 8-lane accumulator per (m, n); x (M x K floats) stays in L1/L2 while w streams.
// W = float, or uint16_t for IEEE-half weights widened exactly to f32 as they are loaded (F16C): the same products
// and sums as the f32 copy of those weights, from half the bytes.
static inline __m256 load_w8(const float* p) { return _mm256_loadu_ps(p); }
static inline __m256 load_w8(const uint16_t* p) {
    return _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
}
static inline float w_at(const float* p, int64_t k) { return p[k]; }
static inline float w_at(const uint16_t* p, int64_t k) { return _cvtsh_ss(p[k]); }

constexpr int64_t kPrefetchBytes = 4096;

template <int M, typename W>
static void small_m_kernel(const float* x, int64_t K, const W* w, int64_t n0, int64_t n1, float* y, int64_t ldy,
                           float beta) {
    const int64_t K8 = K / 8 * 8;
    for (int64_t n = n0; n < n1; ++n) {
        const W* wr = w + n * K;
        __m256 acc[M];
        for (int m = 0; m < M; ++m) acc[m] = _mm256_setzero_ps();
        for (int64_t k = 0; k < K8; k += 8) {
            // Once per 64-byte line: ask for the line kPrefetchBytes ahead (a few rows on), so the stream runs at
            // DRAM bandwidth even where the hardware prefetcher stops at a row's end (a shipped-model decoder step
            // with the weights out of cache, one thread: 2.6 -> 1.9 ms). A prefetch past the array's end is harmless.
            if ((k * sizeof(W)) % 64 == 0)
                _mm_prefetch(reinterpret_cast<const char*>(wr + k) + kPrefetchBytes, _MM_HINT_T0);
            const __m256 wv = load_w8(wr + k);
            for (int m = 0; m < M; ++m) acc[m] = _mm256_fmadd_ps(_mm256_loadu_ps(x + m * K + k), wv, acc[m]);
        }
        for (int m = 0; m < M; ++m) {
            // Horizontal sum of the 8 lanes, then the K % 8 tail.
            __m128 lo = _mm256_castps256_ps128(acc[m]), hi = _mm256_extractf128_ps(acc[m], 1);
            lo = _mm_add_ps(lo, hi);
            lo = _mm_add_ps(lo, _mm_movehl_ps(lo, lo));
            lo = _mm_add_ss(lo, _mm_shuffle_ps(lo, lo, 1));
            float v = _mm_cvtss_f32(lo);
            // Explicit fused multiply-adds: the same rounding for both weight types, whatever the compiler contracts.
            for (int64_t k = K8; k < K; ++k) v = std::fma(x[m * K + k], w_at(wr, k), v);
            float& out = y[m * ldy + n];
            out = beta == 0.0f ? v : v + beta * out;
        }
    }
}

template <typename W>
static void small_m_rows(const float* x, int64_t M, int64_t K, const W* w, int64_t n0, int64_t n1, float* y,
                         int64_t ldy, float beta) {
    for (int64_t m0 = 0; m0 < M; m0 += 8) {
        const float* xm = x + m0 * K;
        float* ym = y + m0 * ldy;
        switch (std::min<int64_t>(8, M - m0)) {
            case 1: small_m_kernel<1>(xm, K, w, n0, n1, ym, ldy, beta); break;
            case 2: small_m_kernel<2>(xm, K, w, n0, n1, ym, ldy, beta); break;
            case 3: small_m_kernel<3>(xm, K, w, n0, n1, ym, ldy, beta); break;
            case 4: small_m_kernel<4>(xm, K, w, n0, n1, ym, ldy, beta); break;
            case 5: small_m_kernel<5>(xm, K, w, n0, n1, ym, ldy, beta); break;
            case 6: small_m_kernel<6>(xm, K, w, n0, n1, ym, ldy, beta); break;
            case 7: small_m_kernel<7>(xm, K, w, n0, n1, ym, ldy, beta); break;
            default: small_m_kernel<8>(xm, K, w, n0, n1, ym, ldy, beta); break;
        }
    }
}

constexpr int64_t kSmallM = 16;  // up to this many rows use the streaming kernel

static void linear_rows(const float* x, int64_t M, int64_t Kin, const float* w, int64_t N, float* y, int64_t ldy,
                        float beta) {
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, M, N, Kin, 1.0f, x, Kin, w, Kin, beta, y, ldy);
}

// Split over the output features N (w rows): each thread streams its own part of the weights, which is what
// bounds the small-M decoder steps.
template <typename W>
static void small_m_linear(const float* x, int64_t M, int64_t Kin, const W* w, int64_t N, float* y, float beta) {
    // Memory-bound: use every thread once w is large enough to be worth a fork-join (64 Ki weights).
    const int nt = omp_in_parallel() || N * Kin < (int64_t(64) << 10) ? 1 : cpu_threads();
    if (nt <= 1) {
        small_m_rows(x, M, Kin, w, 0, N, y, N, beta);
        return;
    }
#pragma omp parallel num_threads(nt)
    {
        const int i = omp_get_thread_num();
        small_m_rows(x, M, Kin, w, N * i / nt, N * (i + 1) / nt, y, N, beta);
    }
}

void linear_cpu(const float* x, int64_t M, int64_t Kin, const float* w, int64_t N, float* y, float beta,
                const uint16_t* w_f16) {
    if (M <= kSmallM) {
        if (w_f16) small_m_linear(x, M, Kin, w_f16, N, y, beta);
        else small_m_linear(x, M, Kin, w, N, y, beta);
        return;
    }
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
