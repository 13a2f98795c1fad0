// bench_cpu_ops: times the CPU ops of one t5-small decoder step and one encoder pass, shape by shape, to show where
// a generate() call spends its time (manual timers; no profiler needed).
//
//   bench_cpu_ops [--threads 2] [--batch 1] [--src-len 384] [--t 64] [--reps 20]
//
// Shapes (docs/numerics.md letters): D 512, H 8, K 64, F 2048, V 32128, 6 + 6 layers; N = batch decoder rows.
// Prints one JSON object: ms per call of each op, and the per-step / per-encoder totals they add up to.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <iostream>
#include <random>
#include <vector>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "ops/attention.h"
#include "ops/elementwise.h"
#include "ops/linear.h"

namespace {

using Clock = std::chrono::steady_clock;

// Best-of-reps milliseconds of fn().
template <typename Fn>
double time_ms(int reps, Fn&& fn) {
    fn();  // warm
    double best = 1e30;
    for (int r = 0; r < reps; ++r) {
        const auto t0 = Clock::now();
        fn();
        best = std::min(best, std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
    }
    return best;
}

std::vector<float> randn(size_t n, uint32_t seed, float scale = 0.05f) {
    std::mt19937 rng(seed);
    std::normal_distribution<float> d(0.0f, scale);
    std::vector<float> v(n);
    for (auto& x : v) x = d(rng);
    return v;
}

// The greedy search's per-row work: argmax + log-sum-exp over V (generate/greedy.cpp).
float argmax_lse(const float* row, int V) {
    int best = 0;
    float bv = row[0];
    for (int i = 1; i < V; ++i)
        if (row[i] > bv) bv = row[i], best = i;
    double sum = 0.0;
    for (int i = 0; i < V; ++i) sum += std::exp(double(row[i]) - bv);
    return static_cast<float>(best) - static_cast<float>(std::log(sum));
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"per-op timings of the fp32 CPU T5 path at t5-small shapes"};
    int threads = 0, N = 1, S = 384, t = 64, reps = 20;
    app.add_option("--threads", threads, "CPU threads (0 = all cores)")->capture_default_str();
    app.add_option("--batch", N, "decoder rows / source sequences")->capture_default_str();
    app.add_option("--src-len", S, "source length")->capture_default_str();
    app.add_option("--t", t, "decoder position for the self-attention timing")->capture_default_str();
    app.add_option("--reps", reps, "timed repetitions (best is reported)")->capture_default_str();
    CLI11_PARSE(app, argc, argv);
    using namespace receipt::ops;
    set_cpu_threads(threads);

    const int D = 512, H = 8, K = 64, HK = H * K, F = 2048, V = 32128, L = 6, T_max = 128;
    auto w_dd = randn(size_t(HK) * D, 1), w_fd = randn(size_t(F) * D, 2), w_df = randn(size_t(D) * F, 3);
    auto w_vd = randn(size_t(V) * D, 4), ln = randn(D, 5, 1.0f);
    const int64_t M = int64_t(N) * S;  // encoder rows
    auto x = randn(size_t(M) * std::max(D, F), 6), y = randn(size_t(M) * std::max(D, F), 7);
    auto logits = randn(size_t(N) * V, 8);
    auto kc = randn(size_t(N) * H * T_max * K, 9), vc = randn(size_t(N) * H * T_max * K, 10);
    auto ck = randn(size_t(N) * S * HK, 11), cv = randn(size_t(N) * S * HK, 12);
    auto bias_t = randn(size_t(H) * T_max, 13), bias_s = randn(size_t(H) * S * S, 14);
    std::vector<int> row_src(N), lengths(N, S);
    for (int n = 0; n < N; ++n) row_src[n] = n;
    std::vector<float> scratch;

    nlohmann::json j;
    j["threads"] = cpu_threads();
    j["batch"] = N;
    j["src_len"] = S;
    // ---- one decoder step (per layer: 4 self + 2 cross projections, FFN, 3 RMSNorms, 2 attentions) ----------
    const double proj = time_ms(reps, [&] { linear_cpu(x.data(), N, D, w_dd.data(), HK, y.data()); });
    const double ffn_wi = time_ms(reps, [&] { linear_cpu(x.data(), N, D, w_fd.data(), F, y.data()); });
    const double ffn_wo = time_ms(reps, [&] { linear_cpu(x.data(), N, F, w_df.data(), D, y.data(), 1.0f); });
    const double lm_head = time_ms(reps, [&] { linear_cpu(x.data(), N, D, w_vd.data(), V, logits.data()); });
    const double self_attn = time_ms(reps, [&] {
        decoder_self_attention_cpu(x.data(), kc.data(), vc.data(), bias_t.data(), N, H, K, T_max, t, y.data());
    });
    const double cross_attn = time_ms(reps, [&] {
        cross_attention_cpu(x.data(), ck.data(), cv.data(), row_src.data(), lengths.data(), N, S, H, K, y.data());
    });
    const double norm = time_ms(reps, [&] { rms_norm_cpu(x.data(), ln.data(), N, D, 1e-6f, y.data()); });
    volatile float sink = 0.0f;
    const double greedy = time_ms(reps, [&] {
        for (int n = 0; n < N; ++n) sink = sink + argmax_lse(logits.data() + size_t(n) * V, V);
    });
    nlohmann::json step;
    step["projection_512x512_ms"] = proj;
    step["ffn_wi_ms"] = ffn_wi;
    step["ffn_wo_ms"] = ffn_wo;
    step["lm_head_ms"] = lm_head;
    step["self_attention_ms"] = self_attn;
    step["cross_attention_ms"] = cross_attn;
    step["rms_norm_ms"] = norm;
    step["greedy_argmax_lse_ms"] = greedy;
    const double layer_gemm = 6 * proj + ffn_wi + ffn_wo;
    step["total_layer_gemms_ms"] = L * layer_gemm;
    step["total_attention_ms"] = L * (self_attn + cross_attn);
    step["total_norms_ms"] = (3 * L + 1) * norm;
    step["total_ms"] = L * (layer_gemm + self_attn + cross_attn + 3 * norm) + norm + lm_head + greedy;
    j["decoder_step"] = step;

    // ---- one encoder pass over N x S tokens (per layer: q, k, v, o, FFN, attention, 2 RMSNorms) --------------
    const int er = std::max(1, reps / 4);
    const double e_proj = time_ms(er, [&] { linear_cpu(x.data(), M, D, w_dd.data(), HK, y.data()); });
    const double e_wi = time_ms(er, [&] { linear_cpu(x.data(), M, D, w_fd.data(), F, y.data()); });
    const double e_wo = time_ms(er, [&] { linear_cpu(y.data(), M, F, w_df.data(), D, x.data(), 1.0f); });
    const double e_attn = time_ms(er, [&] {
        encoder_attention_cpu(ck.data(), cv.data(), ck.data(), bias_s.data(), lengths.data(), N, S, H, K, y.data(),
                              scratch);
    });
    const double e_norm = time_ms(er, [&] { rms_norm_cpu(x.data(), ln.data(), M, D, 1e-6f, y.data()); });
    const double e_relu = time_ms(er, [&] { relu_cpu(y.data(), M * F); });
    const double cross_kv = time_ms(er, [&] { linear_cpu(x.data(), M, D, w_dd.data(), HK, y.data()); });
    nlohmann::json enc;
    enc["projection_ms"] = e_proj;
    enc["ffn_wi_ms"] = e_wi;
    enc["ffn_wo_ms"] = e_wo;
    enc["attention_ms"] = e_attn;
    enc["rms_norm_ms"] = e_norm;
    enc["relu_ms"] = e_relu;
    enc["total_gemms_ms"] = L * (4 * e_proj + e_wi + e_wo);
    enc["total_attention_ms"] = L * e_attn;
    enc["total_ms"] = L * (4 * e_proj + e_wi + e_wo + e_attn + 2 * e_norm + e_relu) + e_norm;
    enc["decoder_cross_kv_ms"] = 2 * L * cross_kv;  // reset(): cross K/V of every decoder layer
    const double flops = 2.0 * L * M * (4.0 * D * HK + 2.0 * D * F);
    enc["gemm_gflops"] = flops / (L * (4 * e_proj + e_wi + e_wo)) / 1e6;
    j["encoder"] = enc;
    std::cout << j.dump(2) << "\n";
    return 0;
}
