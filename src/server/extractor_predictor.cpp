// The production Predictor: one receipt::Extractor (tokenizer + engine + parser) per worker over a shared Model.
#include <unistd.h>

#include <algorithm>
#include <climits>
#include <thread>

#include "receipt/errors.h"
#include "receipt/extractor.h"
#include "receipt/model.h"
#include "receipt/server.h"

namespace receipt {

namespace {

class ExtractorPredictor final : public Predictor {
  public:
    ExtractorPredictor(std::shared_ptr<const Model> model, const EngineOptions& engine, int max_new_tokens)
        : extractor_(std::move(model), engine),
          max_batch_size_(std::max(1, engine.max_batch_size)),
          max_new_tokens_(max_new_tokens) {}

    std::vector<PredictOutcome> predict(const std::vector<std::string>& texts, const PredictParams& params) override {
        ExtractOptions opts;
        opts.truncate = params.truncate;
        opts.generation.num_beams = std::max(1, params.num_beams);
        opts.generation.max_new_tokens = params.max_new_tokens > 0 ? params.max_new_tokens : max_new_tokens_;
        // The engine holds at most max_batch_size sequences x beams.
        const size_t chunk = static_cast<size_t>(std::max(1, max_batch_size_ / opts.generation.num_beams));
        std::vector<PredictOutcome> out;
        out.reserve(texts.size());
        for (size_t begin = 0; begin < texts.size(); begin += chunk) {
            const size_t end = std::min(texts.size(), begin + chunk);
            std::vector<std::string> part(texts.begin() + static_cast<std::ptrdiff_t>(begin),
                                          texts.begin() + static_cast<std::ptrdiff_t>(end));
            for (Extraction& e : extractor_.extract(part, opts)) {
                out.push_back(PredictOutcome{std::move(e.fields_json), e.n_input_tokens, e.n_output_tokens});
            }
        }
        return out;
    }

    std::string describe() const override { return extractor_.describe(); }

  private:
    Extractor extractor_;
    int max_batch_size_;
    int max_new_tokens_;
};

std::string self_exe_path() {
    char buf[PATH_MAX];
    const ssize_t n = ::readlink("/proc/self/exe", buf, sizeof buf - 1);
    return n > 0 ? std::string(buf, static_cast<size_t>(n)) : std::string();
}

}  // namespace

std::vector<std::unique_ptr<Predictor>> make_extractor_predictors(const ServerOptions& options) {
    const std::string dir = options.model_dir.empty() ? default_model_dir(self_exe_path(), "") : options.model_dir;
    std::shared_ptr<const Model> model = Model::load(dir);

    EngineOptions engine;
    engine.device = parse_device(options.device);
    set_precision(engine, options.dtype);
    engine.fp32_recheck_margin = options.fp32_recheck_margin;
    engine.draft_tokens = options.draft_tokens;
    engine.encoder_cache_mib = options.encoder_cache_mib;
    const int n_cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    engine.n_threads = options.n_threads > 0 ? options.n_threads : std::max(1, n_cores / options.n_workers);
    engine.max_batch_size = options.max_batch_size;
    engine.max_input_tokens = options.max_input_tokens;
    engine.max_total_tokens = options.max_new_tokens + 1;

    // On several GPUs the workers take them in turn (worker i on GPU i mod n); with one, every engine shares it.
    const int n_gpus = engine.device == Device::kCpu ? 0 : cuda_device_count();
    std::vector<std::unique_ptr<Predictor>> predictors;
    for (int i = 0; i < options.n_workers; ++i) {
        if (n_gpus > 1) engine.gpu = i % n_gpus;
        predictors.push_back(std::make_unique<ExtractorPredictor>(model, engine, options.max_new_tokens));
    }
    return predictors;
}

}  // namespace receipt
