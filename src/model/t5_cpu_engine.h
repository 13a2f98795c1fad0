// The fp32 CPU T5 engine: the reference implementation every other backend is tested against.
#pragma once

#include <memory>
#include <vector>

#include "model/encoder_cache.h"
#include "model/t5_cpu_decoder.h"
#include "model/t5_weights.h"
#include "receipt/engine.h"
#include "receipt/model.h"

namespace receipt {

// Runs T5 in fp32 on the CPU (OpenBLAS GEMMs, OpenMP element-wise loops). Owns its scratch and KV cache;
// one instance per thread. The Model is shared.
class CpuT5Engine : public Engine {
public:
    CpuT5Engine(std::shared_ptr<const Model> model, const EngineOptions& options);

    std::vector<GenerationResult> generate(const std::vector<std::vector<int>>& inputs,
                                           const GenerationOptions& options) override;
    Device device() const override { return Device::kCpu; }
    std::string describe() const override;
    SpeculationStats speculation_stats() const override { return spec_stats_; }

    // Encoder forward for a batch of id sequences padded to S = longest: out [B, S, D] (rows past a sequence's
    // length are zero-context garbage, never read). hidden (optional, needs B == 1): HF output_hidden_states.
    void encode(const std::vector<std::vector<int>>& inputs, std::vector<float>& out, int& S,
                std::vector<std::vector<float>>* hidden = nullptr);
    // Logits [B, V] of the first decoder step (input = decoder start token) for each input.
    // decoder_hidden (optional, B == 1): HF decoder hidden states of that step.
    std::vector<float> first_step_logits(const std::vector<std::vector<int>>& inputs,
                                         std::vector<std::vector<float>>* decoder_hidden = nullptr);

    const Model& model() const { return *model_; }
    // The encoder-output cache (EngineOptions::encoder_cache_mib): its hits and misses, entries, bytes.
    const EncoderCache& encoder_cache() const { return cache_; }

private:
    void validate(const std::vector<std::vector<int>>& inputs, const GenerationOptions* options) const;
    // Encoder output [B, S, D] of inputs into enc_out_ (S = longest): rows of sources in the cache are copied from
    // it, the others encoded together and stored. Rows past a source's length are padding, masked in attention.
    void encode_cached(const std::vector<std::vector<int>>& inputs, int& S);
    // One chunk of at most max_batch_size rows; first = index of inputs[0] in the generate() call.
    std::vector<GenerationResult> generate_chunk(const std::vector<std::vector<int>>& inputs,
                                                 const GenerationOptions& options, int first);

    std::shared_ptr<const Model> model_;
    EngineOptions options_;
    T5Weights weights_;
    T5CpuDecoder decoder_;
    std::vector<float> enc_out_, miss_out_;
    EncoderCache cache_;
    SpeculationStats spec_stats_;
    std::vector<float> x_, h_, q_, k_, v_, ctx_, ff_a_, ff_b_, bias_, scratch_;
};

}  // namespace receipt
