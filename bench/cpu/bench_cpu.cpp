// bench_cpu: times the fp32 CPU engine on random-but-valid inputs and prints one JSON object.
//
//   bench_cpu --model DIR [--batch 8] [--input-len 384] [--new-tokens 128] [--threads 2] [--warmup 1] [--runs 5]
//             [--inputs ids.json] [--dump-inputs ids.json --n-inputs 8]
//
// One configuration per process, so peak RSS (getrusage ru_maxrss) belongs to that configuration alone.
// Every run generates exactly --new-tokens tokens per sequence (min_new_tokens = max_new_tokens, greedy), which
// is checked. Inputs are B sequences of input-len ids drawn uniformly from the SentencePiece range [3, 32000)
// with EOS last; --dump-inputs writes them so the Python peers (bench_peers.py) feed the very same ids.
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <iostream>
#include <random>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "model/t5_cpu_engine.h"
#include "receipt/engine.h"
#include "receipt/model.h"

extern "C" char* openblas_get_config(void);

namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

double peak_rss_mb() {
    rusage ru{};
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss / 1024.0;  // Linux: kilobytes
}

double current_rss_mb() {
    std::ifstream f("/proc/self/status");
    std::string line;
    while (std::getline(f, line))
        if (line.rfind("VmRSS:", 0) == 0) return std::stod(line.substr(6)) / 1024.0;
    return 0.0;
}

// n sequences of `len` ids: uniform in [3, 32000) (past pad, eos, unk; below the sentinels), EOS last.
std::vector<std::vector<int>> random_inputs(int n, int len, uint32_t seed, int eos) {
    std::mt19937 rng(seed);
    std::uniform_int_distribution<int> dist(3, 31999);
    std::vector<std::vector<int>> out(n);
    for (auto& ids : out) {
        for (int i = 0; i + 1 < len; ++i) ids.push_back(dist(rng));
        ids.push_back(eos);
    }
    return out;
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"fp32 CPU engine benchmark: random inputs, fixed generated length, JSON on stdout"};
    std::string model_dir, inputs_path, dump_path;
    int batch = 1, input_len = 384, new_tokens = 128, threads = 0, warmup = 1, runs = 5, n_dump = 8;
    uint32_t seed = 1234;
    app.add_option("--model", model_dir, "Hugging Face T5 folder")->required();
    app.add_option("--batch", batch, "sequences per generate() call")->capture_default_str();
    app.add_option("--input-len", input_len, "input tokens per sequence (EOS included)")->capture_default_str();
    app.add_option("--new-tokens", new_tokens, "generated tokens per sequence (min = max)")->capture_default_str();
    app.add_option("--threads", threads, "CPU threads (0 = all cores)")->capture_default_str();
    app.add_option("--warmup", warmup, "untimed runs first")->capture_default_str();
    app.add_option("--runs", runs, "timed runs")->capture_default_str();
    app.add_option("--seed", seed, "seed of the random input ids")->capture_default_str();
    app.add_option("--inputs", inputs_path, "JSON [[ids]] to use instead of fresh random ids (first --batch rows)");
    app.add_option("--dump-inputs", dump_path, "write --n-inputs random sequences as JSON and exit");
    app.add_option("--n-inputs", n_dump, "sequences written by --dump-inputs")->capture_default_str();
    CLI11_PARSE(app, argc, argv);

    auto model = receipt::Model::load(model_dir);
    const auto& c = model->config();
    if (!dump_path.empty()) {
        std::ofstream(dump_path) << nlohmann::json(random_inputs(n_dump, input_len, seed, c.eos_token_id)).dump();
        return 0;
    }
    std::vector<std::vector<int>> inputs;
    if (!inputs_path.empty()) {
        std::ifstream f(inputs_path);
        auto all = nlohmann::json::parse(f).get<std::vector<std::vector<int>>>();
        if (static_cast<int>(all.size()) < batch) {
            std::cerr << inputs_path << " has " << all.size() << " sequences, fewer than --batch " << batch << "\n";
            return 2;
        }
        inputs.assign(all.begin(), all.begin() + batch);
    } else {
        inputs = random_inputs(batch, input_len, seed, c.eos_token_id);
    }
    const int S = static_cast<int>(inputs[0].size());

    receipt::EngineOptions eo;
    eo.device = receipt::Device::kCpu;
    eo.n_threads = threads;
    eo.max_batch_size = std::max(batch, 1);
    eo.max_input_tokens = std::max(S, 512);
    eo.max_total_tokens = new_tokens + 1;
    auto engine = receipt::make_engine(model, eo);
    receipt::GenerationOptions go;
    go.num_beams = 1;
    go.min_new_tokens = new_tokens;
    go.max_new_tokens = new_tokens;
    const double rss_loaded_mb = current_rss_mb();

    // Warmup and timed runs; every sequence must come out with exactly new_tokens ids and no EOS.
    std::vector<double> t_run_ms, t_encode_ms;
    std::vector<receipt::GenerationResult> last;
    int n_generated_min = new_tokens, n_generated_max = new_tokens;
    for (int r = 0; r < warmup + runs; ++r) {
        const auto t0 = Clock::now();
        last = engine->generate(inputs, go);
        const double ms = ms_since(t0);
        for (const auto& res : last) {
            n_generated_min = std::min(n_generated_min, static_cast<int>(res.ids.size()));
            n_generated_max = std::max(n_generated_max, static_cast<int>(res.ids.size()));
        }
        if (r >= warmup) t_run_ms.push_back(ms);
    }
    // Encoder alone (same inputs), to split a run into encoder and decoder time.
    auto* cpu = dynamic_cast<receipt::CpuT5Engine*>(engine.get());
    if (cpu) {
        std::vector<float> enc;
        int s_out = 0;
        for (int r = 0; r < std::max(1, std::min(runs, 3)); ++r) {
            const auto t0 = Clock::now();
            cpu->encode(inputs, enc, s_out);
            t_encode_ms.push_back(ms_since(t0));
        }
    }

    // Memory estimates, same formulas as bench_peers.py. KV cache = decoder self-attention K/V for all positions
    // plus the cross-attention K/V of the source, fp32.
    const double mb = 1024.0 * 1024.0;
    const int64_t L = c.num_decoder_layers, HK = int64_t(c.num_heads) * c.d_kv;
    const double self_kv_mb = 2.0 * L * batch * new_tokens * HK * 4 / mb;
    const double cross_kv_mb = 2.0 * L * batch * S * HK * 4 / mb;

    const double t_min = *std::min_element(t_run_ms.begin(), t_run_ms.end());
    const double t_med = median(t_run_ms);
    nlohmann::json j;
    j["engine"] = "receipt";
    j["precision"] = "fp32";
    j["describe"] = engine->describe();
    j["openblas"] = openblas_get_config();
    j["batch"] = batch;
    j["threads"] = threads;
    j["input_len"] = S;
    j["new_tokens"] = new_tokens;
    j["generated_tokens_min"] = n_generated_min;
    j["generated_tokens_max"] = n_generated_max;
    j["exact_new_tokens"] = n_generated_min == new_tokens && n_generated_max == new_tokens;
    j["warmup"] = warmup;
    j["runs_ms"] = t_run_ms;
    j["batch_ms_min"] = t_min;
    j["batch_ms_median"] = t_med;
    j["ms_per_receipt"] = t_min / batch;
    j["ms_per_receipt_median"] = t_med / batch;
    j["tokens_per_s"] = batch * new_tokens / (t_min / 1000.0);
    if (!t_encode_ms.empty()) {
        const double enc = *std::min_element(t_encode_ms.begin(), t_encode_ms.end());
        j["encoder_ms"] = enc;
        j["decoder_ms_per_step"] = (t_min - enc) / new_tokens;
    }
    j["peak_rss_mb"] = peak_rss_mb();
    j["rss_after_load_mb"] = rss_loaded_mb;
    j["weights_mb"] = model->weight_bytes() / mb;
    j["kv_cache_mb"] = self_kv_mb + cross_kv_mb;
    j["self_kv_mb"] = self_kv_mb;
    j["cross_kv_mb"] = cross_kv_mb;
    const auto& ids0 = last[0].ids;
    j["first_ids"] = std::vector<int>(ids0.begin(), ids0.begin() + std::min<size_t>(16, ids0.size()));
    std::cout << j.dump() << "\n";
    return j["exact_new_tokens"].get<bool>() ? 0 : 3;
}
