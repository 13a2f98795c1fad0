// Per-call latency of the decode-step kernels on t5-small fp16 shapes (D 512, H 8, K 64, F 2048, V 32128):
// the small-M GEMM (gemv_cuda) vs cuBLASLt, split-K vs single-pass decode attention, and the absorbed
// cross-attention's parts. Each variant is timed as a CUDA graph of kCalls back-to-back calls, replayed like the
// greedy decode graph. Prints a table and checks
// nothing about speed, so the tests are disabled by default:
//   build-cuda/bin/cuda_decode_timing_test --gtest_also_run_disabled_tests
// (label: cuda; skips without a GPU like cuda_ops_test).
#include <gtest/gtest.h>

#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "receipt/engine.h"

#if defined(RECEIPT_WITH_CUDA)
#include <cuda_runtime_api.h>

#include "cuda/cuda_check.h"
#include "cuda/device_buffer.h"
#include "cuda/gemm_lt.h"
#include "ops/t5_ops_cuda.h"

namespace rc = receipt::cuda;
using receipt::DType;

namespace {

constexpr int kCalls = 50;  // calls per graph
constexpr int kReplays = 20;

// Mean µs per call of `body` (which enqueues one call on the stream) over kReplays replays of a kCalls graph.
double graph_us(const std::function<void(cudaStream_t)>& body) {
    cudaStream_t s = nullptr;
    RECEIPT_CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    body(s);  // warm-up outside the capture (module loading, kernel attributes, cuBLASLt descriptors)
    RECEIPT_CUDA_CHECK(cudaStreamSynchronize(s));
    cudaGraph_t graph = nullptr;
    cudaGraphExec_t exec = nullptr;
    RECEIPT_CUDA_CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
    for (int i = 0; i < kCalls; ++i) body(s);
    RECEIPT_CUDA_CHECK(cudaStreamEndCapture(s, &graph));
    RECEIPT_CUDA_CHECK(cudaGraphInstantiate(&exec, graph, 0));
    cudaEvent_t t0, t1;
    RECEIPT_CUDA_CHECK(cudaEventCreate(&t0));
    RECEIPT_CUDA_CHECK(cudaEventCreate(&t1));
    RECEIPT_CUDA_CHECK(cudaGraphLaunch(exec, s));
    RECEIPT_CUDA_CHECK(cudaEventRecord(t0, s));
    for (int r = 0; r < kReplays; ++r) RECEIPT_CUDA_CHECK(cudaGraphLaunch(exec, s));
    RECEIPT_CUDA_CHECK(cudaEventRecord(t1, s));
    RECEIPT_CUDA_CHECK(cudaEventSynchronize(t1));
    float ms = 0.0f;
    RECEIPT_CUDA_CHECK(cudaEventElapsedTime(&ms, t0, t1));
    cudaEventDestroy(t0);
    cudaEventDestroy(t1);
    cudaGraphExecDestroy(exec);
    cudaGraphDestroy(graph);
    cudaStreamDestroy(s);
    return 1000.0 * ms / (kReplays * kCalls);
}

class CudaDecodeTiming : public ::testing::Test {
protected:
    void SetUp() override {
        if (!receipt::cuda_available()) GTEST_SKIP() << "no usable CUDA GPU";
    }
};

TEST_F(CudaDecodeTiming, DISABLED_GemvVsCublasLt) {
    struct Case { const char* what; int n, k; bool out_f32, accumulate; rc::Epilogue epi; float alpha; };
    const Case cases[] = {{"qkv", 1536, 512, false, false, rc::Epilogue::kNone, 1.0f},
                          {"o (+= resid)", 512, 512, true, true, rc::Epilogue::kNone, 1.0f},
                          {"q_cross", 512, 512, false, false, rc::Epilogue::kNone, 1.0f},
                          {"wi relu", 2048, 512, false, false, rc::Epilogue::kRelu, 1.0f},
                          {"wo (+= resid)", 512, 2048, true, true, rc::Epilogue::kNone, 1.0f},
                          {"lm_head f32", 32128, 512, true, false, rc::Epilogue::kNone, 0.044f}};
    rc::DeviceBuffer x(8 * 2048 * 2), w(size_t(32128) * 512 * 2), y(size_t(8) * 32128 * 4);
    RECEIPT_CUDA_CHECK(cudaMemset(x.get(), 0, x.size()));
    RECEIPT_CUDA_CHECK(cudaMemset(w.get(), 0, w.size()));
    RECEIPT_CUDA_CHECK(cudaMemset(y.get(), 0, y.size()));
    std::printf("%-16s %3s %6s %5s %12s %12s %8s\n", "gemm f16", "m", "n", "k", "cublasLt us", "gemv us", "speedup");
    for (const Case& c : cases)
        for (int m : {1, 2, 4, 8}) {
            const rc::GemmSpec spec{m, c.n, c.k, c.k, c.k, c.n, DType::kF16, c.out_f32, c.accumulate, c.epi};
            double us[2];
            for (int g = 0; g < 2; ++g) {
                rc::GemmLt gemm;
                gemm.set_use_gemv(g == 1);
                gemm.set_use_mma(false);
                us[g] = graph_us([&](cudaStream_t s) { gemm.run(spec, x.get(), w.get(), y.get(), c.alpha, s); });
            }
            std::printf("%-16s %3d %6d %5d %12.2f %12.2f %7.2fx\n", c.what, m, c.n, c.k, us[0], us[1], us[0] / us[1]);
        }
}

// The tensor-core decode GEMM (gemm_mma_cuda) against cuBLASLt at 3-64 rows (GemmLt routes 3-32 rows to it), t5-small
// and t5-base shapes; from 16 rows also each block shape (m tiles x 8-column tiles).
TEST_F(CudaDecodeTiming, DISABLED_MmaVsCublasLt) {
    struct Case { const char* what; int n, k; bool out_f32, accumulate; rc::Epilogue epi; float alpha; };
    const Case cases[] = {{"qkv", 1536, 512, false, false, rc::Epilogue::kNone, 1.0f},
                          {"o (+= resid)", 512, 512, true, true, rc::Epilogue::kNone, 1.0f},
                          {"wi relu", 2048, 512, false, false, rc::Epilogue::kRelu, 1.0f},
                          {"wo (+= resid)", 512, 2048, true, true, rc::Epilogue::kNone, 1.0f},
                          {"base qkv", 2304, 768, false, false, rc::Epilogue::kNone, 1.0f},
                          {"base wo", 768, 3072, true, true, rc::Epilogue::kNone, 1.0f},
                          {"lm_head f32", 32128, 512, true, false, rc::Epilogue::kNone, 0.044f}};
    rc::DeviceBuffer x(64 * 3072 * 2), w(size_t(32128) * 512 * 2), y(size_t(64) * 32128 * 4);
    RECEIPT_CUDA_CHECK(cudaMemset(x.get(), 0, x.size()));
    RECEIPT_CUDA_CHECK(cudaMemset(w.get(), 0, w.size()));
    RECEIPT_CUDA_CHECK(cudaMemset(y.get(), 0, y.size()));
    std::printf("%-16s %3s %6s %5s %12s %12s %8s\n", "gemm f16", "m", "n", "k", "cublasLt us", "mma us", "speedup");
    for (const Case& c : cases)
        for (int m : {3, 8, 16, 32, 64}) {
            const rc::GemmSpec spec{m, c.n, c.k, c.k, c.k, c.n, DType::kF16, c.out_f32, c.accumulate, c.epi};
            rc::GemmLt gemm;
            gemm.set_use_mma(false);
            const double lt = graph_us([&](cudaStream_t s) { gemm.run(spec, x.get(), w.get(), y.get(), c.alpha, s); });
            const double mma = graph_us([&](cudaStream_t s) {
                rc::gemm_mma_cuda(DType::kF16, m, c.n, c.k, x.get(), c.k, w.get(), c.k, y.get(), c.n, c.alpha,
                                  c.out_f32, c.accumulate, c.epi == rc::Epilogue::kRelu, s);
            });
            std::printf("%-16s %3d %6d %5d %12.2f %12.2f %7.2fx", c.what, m, c.n, c.k, lt, mma, lt / mma);
            if (m >= 16)  // each block shape (m tiles x column tiles): us
                for (int mt : {1, 2, 4})
                    for (int nt : {1, 2, 4}) {
                        const double t = graph_us([&](cudaStream_t s) {
                            rc::gemm_mma_cuda(DType::kF16, m, c.n, c.k, x.get(), c.k, w.get(), c.k, y.get(), c.n,
                                              c.alpha, c.out_f32, c.accumulate, c.epi == rc::Epilogue::kRelu, s,
                                              rc::MmaTiles{mt, nt});
                        });
                        std::printf("  %dx%d %.2f", mt, nt, t);
                    }
            std::printf("\n");
        }
}

TEST_F(CudaDecodeTiming, DISABLED_SplitKAttentionVsSinglePass) {
    const int H = 8, K = 64, HK = H * K, S = 384, T_max = 129, L = 6, R_max = 8;
    int dev = 0, n_sm = 0;
    RECEIPT_CUDA_CHECK(cudaGetDevice(&dev));
    RECEIPT_CUDA_CHECK(cudaDeviceGetAttribute(&n_sm, cudaDevAttrMultiProcessorCount, dev));
    const int64_t stride = int64_t(L) * 2 * HK;
    rc::DeviceBuffer q(size_t(R_max) * 3 * HK * 2), kv(size_t(R_max) * S * stride * 2), ctx(size_t(R_max) * HK * 2);
    rc::DeviceBuffer cache_k(size_t(R_max) * H * T_max * K * 2), cache_v(cache_k.size()), bias(size_t(H) * T_max * 4);
    rc::DeviceBuffer rows(R_max * 4), lens(R_max * 4), state(sizeof(rc::DecodeState));
    rc::DeviceBuffer part(size_t(R_max) * H * rc::kMaxDecodeSplits * (K + 2) * 4), counter(size_t(R_max) * H * 4);
    for (rc::DeviceBuffer* b : {&q, &kv, &cache_k, &cache_v, &bias, &counter})
        RECEIPT_CUDA_CHECK(cudaMemset(b->get(), 0, b->size()));
    std::vector<int> h_rows(R_max), h_lens(R_max, S);
    for (int r = 0; r < R_max; ++r) h_rows[size_t(r)] = r;
    RECEIPT_CUDA_CHECK(cudaMemcpy(rows.get(), h_rows.data(), R_max * 4, cudaMemcpyHostToDevice));
    RECEIPT_CUDA_CHECK(cudaMemcpy(lens.get(), h_lens.data(), R_max * 4, cudaMemcpyHostToDevice));
    const size_t n_part = size_t(R_max) * H * rc::kMaxDecodeSplits * (K + 2);
    const rc::DecodeAttnSplit split{part.as<float>(), counter.as<int>(), n_part, R_max * H, rc::kMaxDecodeSplits, n_sm};
    std::printf("%-22s %3s %7s %12s %12s %8s  (%d SMs)\n", "attention f16", "R", "n_split", "single us", "split us",
                "speedup", n_sm);
    for (int t : {15, 127}) {  // self-attention keys t + 1
        const rc::DecodeState st{t, S, 0, 0, 0, 0};
        RECEIPT_CUDA_CHECK(cudaMemcpy(state.get(), &st, sizeof(st), cudaMemcpyHostToDevice));
        for (int R : {1, 2, 4, 8}) {
            double us[2];
            for (int sp = 0; sp < 2; ++sp)
                us[sp] = graph_us([&](cudaStream_t s) {
                    rc::decoder_self_attention_cuda(DType::kF16, q.get(), cache_k.get(), cache_v.get(),
                                                    bias.as<float>(), R, H, K, T_max, state.as<rc::DecodeState>(),
                                                    ctx.get(), s, sp ? &split : nullptr);
                });
            std::printf("self, %4d keys        %3d %7d %12.2f %12.2f %7.2fx\n", t + 1, R,
                        rc::decode_attn_n_split(&split, R, H, K), us[0], us[1], us[0] / us[1]);
        }
        if (t != 127) continue;
        for (int R : {1, 2, 4, 8}) {
            double us[2];
            for (int sp = 0; sp < 2; ++sp)
                us[sp] = graph_us([&](cudaStream_t s) {
                    rc::cross_attention_cuda(DType::kF16, q.get(), kv.get(), stride, 0, HK, rows.as<int>(),
                                             lens.as<int>(), R, H, K, S, state.as<rc::DecodeState>(), ctx.get(), s,
                                             sp ? &split : nullptr);
                });
            std::printf("cross, %4d keys       %3d %7d %12.2f %12.2f %7.2fx\n", S, R,
                        rc::decode_attn_n_split(&split, R, H, K), us[0], us[1], us[0] / us[1]);
        }
    }
}

// t5-small shaped cross-attention inputs for up to R_max rows (row r reads source r, all S = 384 keys; zeros) and
// the engine's split scratch; call() launches one cross-attention of R rows with at most `cap` key ranges.
struct CrossBench {
    static constexpr int H = 8, K = 64, HK = H * K, S = 384, L = 6;
    const int R_max;
    // Elements between source tokens' K/V rows: 2 HK is the engine's per-layer slab; L * 2 HK the layout of all
    // layers' K/V side by side in one [R * S, L * 2 HK] matrix (the engine's before).
    const int64_t stride;
    int n_sm = 0;
    rc::DeviceBuffer q, kv, ctx, rows, lens, state, part, counter;
    explicit CrossBench(int r_max, int64_t row_stride = 2 * HK)
        : R_max(r_max), stride(row_stride), q(size_t(r_max) * HK * 2), kv(size_t(r_max) * S * row_stride * 2),
          ctx(size_t(r_max) * HK * 2),
          rows(size_t(r_max) * 4), lens(size_t(r_max) * 4), state(sizeof(rc::DecodeState)),
          part(size_t(r_max) * H * rc::kMaxDecodeSplits * (K + 2) * 4), counter(size_t(r_max) * H * 4) {
        int dev = 0;
        RECEIPT_CUDA_CHECK(cudaGetDevice(&dev));
        RECEIPT_CUDA_CHECK(cudaDeviceGetAttribute(&n_sm, cudaDevAttrMultiProcessorCount, dev));
        for (rc::DeviceBuffer* b : {&q, &kv, &counter}) RECEIPT_CUDA_CHECK(cudaMemset(b->get(), 0, b->size()));
        const size_t n = static_cast<size_t>(r_max);
        std::vector<int> h_rows(n), h_lens(n, S);
        for (size_t r = 0; r < n; ++r) h_rows[r] = int(r);
        RECEIPT_CUDA_CHECK(cudaMemcpy(rows.get(), h_rows.data(), n * 4, cudaMemcpyHostToDevice));
        RECEIPT_CUDA_CHECK(cudaMemcpy(lens.get(), h_lens.data(), n * 4, cudaMemcpyHostToDevice));
        const rc::DecodeState st{127, S, 0, 0, 0, 0};
        RECEIPT_CUDA_CHECK(cudaMemcpy(state.get(), &st, sizeof(st), cudaMemcpyHostToDevice));
    }
    rc::DecodeAttnSplit split(int cap) const {
        const size_t n_part = size_t(R_max) * H * rc::kMaxDecodeSplits * (K + 2);
        return rc::DecodeAttnSplit{part.as<float>(), counter.as<int>(), n_part, R_max * H, cap, n_sm};
    }
    void call(int R, int cap, cudaStream_t s) const {
        const rc::DecodeAttnSplit sp = split(cap);
        rc::cross_attention_cuda(DType::kF16, q.get(), kv.get(), stride, 0, HK, rows.as<int>(), lens.as<int>(), R, H,
                                 K, S, state.as<rc::DecodeState>(), ctx.get(), s, &sp);
    }
};

// Cross-attention at the batch sizes of a throughput run (384 source tokens, launched as the engine does; from
// R = 16 on the launcher does not split): us per call and the rate at which it reads the cross K/V (R H S K 2
// values of 2 bytes). Each size runs once before any timing, so a profiler can pick one launch: launch 0 is
// R = 16, 1 is R = 32, 2 is R = 64.
TEST_F(CudaDecodeTiming, DISABLED_CrossAttentionWide) {
    const int sizes[] = {16, 32, 64};
    std::printf("%-22s %3s %12s %12s\n", "cross f16, 384 keys", "R", "us/call", "GB/s");
    for (int64_t stride : {int64_t(2) * CrossBench::HK, int64_t(CrossBench::L) * 2 * CrossBench::HK}) {
        const CrossBench cb(64, stride);
        for (int R : sizes) cb.call(R, rc::kMaxDecodeSplits, nullptr);
        RECEIPT_CUDA_CHECK(cudaDeviceSynchronize());
        for (int R : sizes) {
            const double us = graph_us([&](cudaStream_t s) { cb.call(R, rc::kMaxDecodeSplits, s); });
            const double bytes = double(R) * CrossBench::H * CrossBench::S * CrossBench::K * 2 * 2;
            std::printf("%-22s %3d %12.2f %12.1f\n", stride == 2 * CrossBench::HK ? "K/V row stride 2HK" : "row stride L*2HK",
                        R, us, bytes / us * 1e-3);
        }
    }
}

// Decoder self-attention as the engine launches it (single pass) at 1-64 rows and 16 / 64 / 128 cached keys:
// run with RECEIPT_CUDA_SELF_PIPE=0 (one-query kernel), 1 (streaming where one wave holds the blocks) or 2
// (streaming everywhere).
TEST_F(CudaDecodeTiming, DISABLED_SelfAttentionRows) {
    const int H = 8, K = 64, HK = H * K, T_max = 129, R_max = 64;
    rc::DeviceBuffer qkv(size_t(R_max) * 3 * HK * 2), ctx(size_t(R_max) * HK * 2), state(sizeof(rc::DecodeState));
    rc::DeviceBuffer cache_k(size_t(R_max) * H * T_max * K * 2), cache_v(cache_k.size()), bias(size_t(H) * T_max * 4);
    for (rc::DeviceBuffer* b : {&qkv, &cache_k, &cache_v, &bias}) RECEIPT_CUDA_CHECK(cudaMemset(b->get(), 0, b->size()));
    std::printf("%-22s %3s %12s\n", "self f16, single pass", "R", "us/call");
    for (int t : {15, 63, 127}) {
        const rc::DecodeState st{t, 0, 0, 0, 0, 0};
        RECEIPT_CUDA_CHECK(cudaMemcpy(state.get(), &st, sizeof(st), cudaMemcpyHostToDevice));
        for (int R : {1, 2, 8, 32, 64}) {
            const double us = graph_us([&](cudaStream_t s) {
                rc::decoder_self_attention_cuda(DType::kF16, qkv.get(), cache_k.get(), cache_v.get(), bias.as<float>(),
                                                R, H, K, T_max, state.as<rc::DecodeState>(), ctx.get(), s);
            });
            std::printf("%4d keys              %3d %12.2f\n", t + 1, R, us);
        }
    }
}

// Cross-attention over 384 source tokens at batch 1-8 with the split count capped (n_split_max, as
// RECEIPT_CUDA_ATTN_SPLIT=N does in the engine): fewer, longer key ranges against more, shorter ones.
TEST_F(CudaDecodeTiming, DISABLED_CrossAttentionSplitCount) {
    const CrossBench cb(8);
    std::printf("%-22s %3s %7s %7s %12s\n", "cross f16, 384 keys", "R", "cap", "n_split", "us/call");
    for (int R : {1, 2, 4, 8})
        for (int cap : {1, 2, 3, 4, 6, 8, 12, rc::kMaxDecodeSplits}) {
            const double us = graph_us([&](cudaStream_t s) { cb.call(R, cap, s); });
            const rc::DecodeAttnSplit sp = cb.split(cap);
            std::printf("%-22s %3d %7d %7d %12.2f\n", "", R, cap,
                        rc::decode_attn_n_split(&sp, R, CrossBench::H, CrossBench::K), us);
        }
}

// The absorbed cross-attention's three launches apart (cross_attention_absorbed_cuda.cu: q' GEMM, attention over
// the encoder output in one pass or in key ranges, output GEMM) against the precomputed-K/V cross-attention, at
// t5-small (D 512, H 8) and t5-base (D 768, H 12) shapes, 384 source tokens, zeros.
TEST_F(CudaDecodeTiming, DISABLED_AbsorbedCrossAttention) {
    struct Shape { const char* name; int D, H; };
    const int K = 64, S = 384, R_max = 64;
    int dev = 0, n_sm = 0;
    RECEIPT_CUDA_CHECK(cudaGetDevice(&dev));
    RECEIPT_CUDA_CHECK(cudaDeviceGetAttribute(&n_sm, cudaDevAttrMultiProcessorCount, dev));
    std::printf("%-10s %3s %10s %10s %10s %10s %10s %12s\n", "absorbed", "R", "q' GEMM", "attn 1", "attn split",
                "n_split", "out GEMM", "K/V kernel");
    for (const Shape& sh : {Shape{"t5-small", 512, 8}, Shape{"t5-base", 768, 12}}) {
        const int D = sh.D, H = sh.H, HK = H * K, groups = (H + 15) / 16;
        rc::DeviceBuffer q(size_t(R_max) * HK * 2), enc(size_t(R_max) * S * D * 2), wk_t(size_t(HK) * D * 2),
            wv(size_t(HK) * D * 2), qp(size_t(R_max) * H * D * 2), cp(qp.size()), ctx(size_t(R_max) * HK * 2),
            kv(size_t(R_max) * S * 2 * HK * 2), rows(R_max * 4), lens(R_max * 4), state(sizeof(rc::DecodeState));
        const size_t n_part = size_t(R_max) * groups * 8 * 16 * (D + 2);
        rc::DeviceBuffer part(n_part * 4), counter(size_t(R_max) * groups * 4),
            kpart(size_t(R_max) * H * 8 * (K + 2) * 4), kcounter(size_t(R_max) * H * 4);
        for (rc::DeviceBuffer* b : {&q, &enc, &wk_t, &wv, &kv, &counter, &kcounter})
            RECEIPT_CUDA_CHECK(cudaMemset(b->get(), 0, b->size()));
        std::vector<int> h_rows(R_max), h_lens(R_max, S);
        for (int r = 0; r < R_max; ++r) h_rows[size_t(r)] = r;
        RECEIPT_CUDA_CHECK(cudaMemcpy(rows.get(), h_rows.data(), R_max * 4, cudaMemcpyHostToDevice));
        RECEIPT_CUDA_CHECK(cudaMemcpy(lens.get(), h_lens.data(), R_max * 4, cudaMemcpyHostToDevice));
        const rc::DecodeState st{127, S, 0, 0, 0, 0};
        RECEIPT_CUDA_CHECK(cudaMemcpy(state.get(), &st, sizeof(st), cudaMemcpyHostToDevice));
        const rc::DecodeAttnSplit split{part.as<float>(), counter.as<int>(), n_part, R_max * groups, 8, n_sm};
        const rc::DecodeAttnSplit ksplit{kpart.as<float>(), kcounter.as<int>(), size_t(R_max) * H * 8 * (K + 2),
                                         R_max * H, 4, n_sm};
        const auto* stp = state.as<rc::DecodeState>();
        for (int R : {32, 64}) {
            const double t_q = graph_us([&](cudaStream_t s) {
                rc::gemm_mma_batched_cuda(DType::kF16, H, R, D, K, q.get(), HK, K, wk_t.get(), K, int64_t(D) * K,
                                          qp.get(), H * D, D, s);
            });
            double t_attn[2];
            for (int sp = 0; sp < 2; ++sp)
                t_attn[sp] = graph_us([&](cudaStream_t s) {
                    rc::absorbed_attention_cuda(DType::kF16, qp.get(), enc.get(), rows.as<int>(), lens.as<int>(), R,
                                                H, D, S, stp, cp.get(), s, sp ? &split : nullptr);
                });
            const double t_out = graph_us([&](cudaStream_t s) {
                rc::gemm_mma_batched_cuda(DType::kF16, H, R, K, D, cp.get(), H * D, D, wv.get(), D, int64_t(K) * D,
                                          ctx.get(), HK, K, s);
            });
            const double t_kv = graph_us([&](cudaStream_t s) {
                rc::cross_attention_cuda(DType::kF16, q.get(), kv.get(), 2 * HK, 0, HK, rows.as<int>(), lens.as<int>(),
                                         R, H, K, S, stp, ctx.get(), s, &ksplit);
            });
            std::printf("%-10s %3d %10.2f %10.2f %10.2f %10d %10.2f %12.2f\n", sh.name, R, t_q, t_attn[0], t_attn[1],
                        rc::absorbed_n_split(split, R, groups, D), t_out, t_kv);
        }
        // Cost against the source length at 64 rows (fixed part and per 32-key tile): attention alone.
        for (int len : {32, 128, 256}) {
            std::vector<int> l2(R_max, len);
            RECEIPT_CUDA_CHECK(cudaMemcpy(lens.get(), l2.data(), R_max * 4, cudaMemcpyHostToDevice));
            double t_attn[2];
            for (int sp = 0; sp < 2; ++sp)
                t_attn[sp] = graph_us([&](cudaStream_t s) {
                    rc::absorbed_attention_cuda(DType::kF16, qp.get(), enc.get(), rows.as<int>(), lens.as<int>(),
                                                R_max, H, D, S, stp, cp.get(), s, sp ? &split : nullptr);
                });
            const double t_kv = graph_us([&](cudaStream_t s) {
                rc::cross_attention_cuda(DType::kF16, q.get(), kv.get(), 2 * HK, 0, HK, rows.as<int>(), lens.as<int>(),
                                         R_max, H, K, S, stp, ctx.get(), s, &ksplit);
            });
            std::printf("%-10s len %3d: attn 1 %8.2f us, attn split %8.2f us, K/V kernel %8.2f us\n", sh.name, len,
                        t_attn[0], t_attn[1], t_kv);
        }
    }
}

}  // namespace

#else  // !RECEIPT_WITH_CUDA

TEST(CudaDecodeTiming, NotBuilt) {
    GTEST_SKIP() << "cuda_decode_timing_test was built without RECEIPT_WITH_CUDA";
}

#endif
