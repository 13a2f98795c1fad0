// bench_gpu: generation latency of the CUDA engine on a T5 folder, as JSON.
// For each batch size: `batch` random sources of --input-tokens ids (EOS last), greedy, exactly --new-tokens
// generated tokens (min_new_tokens = max_new_tokens), one warm-up call (builds the plan / captures the graph),
// then --iters timed calls; reports the median ms per batch and per receipt and the device memory in use.
//
//   bench_gpu --model DIR [--dtype fp16] [--batches 1,8,64] [--input-tokens 384] [--new-tokens 128]
//             [--iters 5] [--device cuda] [--out FILE]
//
// RECEIPT_CUDA_PROFILE=1 in the environment: the CUDA engine runs without graphs and times every op; after the
// timed calls of each batch size the per-op table of those calls goes to stderr. Its times, and the JSON's, are
// then eager-mode times (slower than the graphs of a normal run).
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "receipt/engine.h"
#include "receipt/errors.h"
#include "receipt/model.h"

#ifdef RECEIPT_WITH_CUDA
#include "cuda/cuda_engine.h"  // CUDA-free: profile_report / reset_profile
// From the CUDA runtime the library links (declared here so this file needs no CUDA include path).
extern "C" int cudaMemGetInfo(size_t* free_bytes, size_t* total_bytes);
#endif

namespace {

// Device memory in use on the current GPU (all processes), MiB; -1 when unknown.
double device_used_mib() {
#ifdef RECEIPT_WITH_CUDA
    size_t free_b = 0, total_b = 0;
    if (cudaMemGetInfo(&free_b, &total_b) == 0) return double(total_b - free_b) / (1 << 20);
#endif
    return -1.0;
}

// RECEIPT_CUDA_PROFILE set and not "0" (the CUDA engine reads the same variable).
bool profile_requested() {
    const char* p = std::getenv("RECEIPT_CUDA_PROFILE");
    return p && *p && std::strcmp(p, "0") != 0;
}

std::string iso_now() {
    const std::time_t t = std::time(nullptr);
    char buf[32];
    std::strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
    return buf;
}

// A processor that changes nothing: it sends greedy decoding down the path receipt extraction takes (the argmax
// on the host, which sees every step's logits) without changing any token.
class PassThrough final : public receipt::LogitsProcessor {
public:
    void process(int, const std::vector<int>&, float*, int) const override {}
};

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"CUDA engine generation benchmark"};
    std::string model_dir, dtype = "fp16", device = "cuda", out;
    std::vector<int> batches = {1, 8, 64};
    int input_tokens = 384, new_tokens = 128, iters = 5, beams = 1, draft_tokens = 0;
    app.add_option("--model", model_dir, "T5 folder")->required();
    app.add_option("--dtype", dtype, "fp16, bf16, fp32, fp16-a32 or bf16-a32")->capture_default_str();
    app.add_option("--device", device, "cuda or cpu")->capture_default_str();
    app.add_option("--batches", batches, "batch sizes")->delimiter(',')->capture_default_str();
    app.add_option("--input-tokens", input_tokens, "source length")->capture_default_str();
    app.add_option("--new-tokens", new_tokens, "generated tokens (min = max)")->capture_default_str();
    app.add_option("--iters", iters, "timed calls per batch size")->capture_default_str();
    app.add_option("--beams", beams, "num_beams (1: greedy)")->check(CLI::Range(1, 32))->capture_default_str();
    bool host_loop = false;
    app.add_flag("--host-loop", host_loop,
                 "greedy with a logits processor that changes nothing: the host-side argmax loop of extraction");
    app.add_option("--draft-tokens", draft_tokens,
                   "speculative greedy: prompt-lookup draft tokens checked per step (0: off; batches <= 8)")
        ->check(CLI::Range(0, 31))
        ->capture_default_str();
    app.add_option("--out", out, "write the JSON here too");
    CLI11_PARSE(app, argc, argv);

    try {
        const double mib_start = device_used_mib();
        auto model = receipt::Model::load(model_dir);
        const int V = model->config().vocab_size;
        nlohmann::json report = {{"benchmark", "receipt-engine generate"},
                                 {"date", iso_now()},
                                 {"model", model_dir},
                                 {"model_config",
                                  {{"d_model", model->config().d_model},
                                   {"num_layers", model->config().num_layers},
                                   {"num_decoder_layers", model->config().num_decoder_layers},
                                   {"vocab_size", V}}},
                                 {"dtype", dtype},
                                 {"input_tokens", input_tokens},
                                 {"new_tokens", new_tokens},
                                 {"decoding", beams > 1 ? "beam search, num_beams = " + std::to_string(beams) +
                                                              ", min_new_tokens = max_new_tokens"
                                                        : std::string("greedy, min_new_tokens = max_new_tokens") +
                                                              (host_loop ? ", a pass-through logits processor (argmax on the host)" : "") +
                                                              (draft_tokens > 0 ? ", speculative with " + std::to_string(draft_tokens) + " prompt-lookup draft tokens" : "")},
                                 {"device_used_mib_at_start", mib_start},
                                 {"results", nlohmann::json::array()}};
        std::mt19937 rng(1234);
        std::uniform_int_distribution<int> tok(3, V - 1);
        for (int batch : batches) {
            receipt::EngineOptions eo;
            eo.device = receipt::parse_device(device);
            receipt::set_precision(eo, dtype);
            eo.max_batch_size = batch * beams;
            eo.max_input_tokens = input_tokens;
            eo.max_total_tokens = new_tokens + 1;
            eo.draft_tokens = draft_tokens;
            auto engine = receipt::make_engine(model, eo);
            std::vector<std::vector<int>> inputs(batch, std::vector<int>(input_tokens));
            for (auto& in : inputs) {
                for (int& id : in) id = tok(rng);
                in.back() = model->config().eos_token_id;
            }
            receipt::GenerationOptions go;
            go.max_new_tokens = new_tokens;
            go.min_new_tokens = new_tokens;
            go.num_beams = beams;
            if (host_loop) go.logits_processor = std::make_shared<PassThrough>();
            const auto t_w0 = std::chrono::steady_clock::now();
            auto warm = engine->generate(inputs, go);
            const double warm_ms =
                std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t_w0).count();
            for (const auto& r : warm)
                if (int(r.ids.size()) != new_tokens)
                    std::fprintf(stderr, "warning: generated %zu tokens, expected %d\n", r.ids.size(), new_tokens);
            const bool profile = profile_requested();
#ifdef RECEIPT_WITH_CUDA
            if (profile) receipt::cuda::reset_profile(*engine);  // the timed calls only, not the warm-up
#endif
            std::vector<double> ms;
            for (int i = 0; i < iters; ++i) {
                const auto t0 = std::chrono::steady_clock::now();
                engine->generate(inputs, go);
                ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
            }
            std::sort(ms.begin(), ms.end());
            long long spec_steps = 0, spec_tokens = 0;
#ifdef RECEIPT_WITH_CUDA
            const auto st = engine->speculation_stats();
            spec_steps = st.steps;
            spec_tokens = st.tokens;
#endif
            const double med = ms[ms.size() / 2];
            nlohmann::json row = {{"batch", batch},
                                  {"engine", engine->describe()},
                                  {"ms_per_batch_median", med},
                                  {"ms_per_batch_min", ms.front()},
                                  {"ms_per_batch_max", ms.back()},
                                  {"ms_per_receipt", med / batch},
                                  {"generated_tokens_per_s", 1000.0 * batch * new_tokens / med},
                                  {"first_call_ms", warm_ms},
                                  {"device_used_mib", device_used_mib()},
                                  {"peak_device_mib", device_used_mib() - std::max(0.0, mib_start)}};
            if (spec_steps > 0) {  // warm-up and timed calls together
                row["speculative_steps"] = spec_steps;
                row["tokens_per_step_per_receipt"] = double(spec_tokens) / double(spec_steps) / batch;
            }
            std::cerr << row.dump() << "\n";
            if (profile) {
                std::string table;
#ifdef RECEIPT_WITH_CUDA
                table = receipt::cuda::profile_report(*engine);
#endif
                std::cerr << "per-op GPU time, batch " << batch << ", " << iters
                          << " timed calls (eager mode: RECEIPT_CUDA_PROFILE=1 turns CUDA graphs off, so these and "
                             "the timings above are not those of a normal run):\n"
                          << (table.empty() ? std::string("(no profile: not a CUDA engine)\n") : table);
            }
            report["results"].push_back(row);
        }
        const std::string text = report.dump(2);
        std::cout << text << "\n";
        if (!out.empty()) std::ofstream(out) << text << "\n";
    } catch (const receipt::Error& e) {
        std::cerr << "bench_gpu: " << e.what() << "\n";
        return 1;
    }
    return 0;
}
