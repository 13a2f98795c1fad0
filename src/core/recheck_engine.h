// An Engine that decodes with a fast half-precision engine and has an fp32 engine decode again the sequences that
// passed a near tie (EngineOptions::fp32_recheck_margin): greedy decoding in fp16 follows the fp32 reference
// except where two tokens' logits are within the rounding of the activations, and those sequences are few.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "receipt/engine.h"

namespace receipt {

// Runs `fast`; for greedy calls (num_beams = 1), every result whose min_margin is below `margin` is replaced by
// `reference`'s result for the same input. The reference call gets the same options, its logits processor
// seeing each input under its index in the original call. Beam search runs on `fast` alone.
class RecheckEngine final : public Engine {
public:
    RecheckEngine(std::unique_ptr<Engine> fast, std::unique_ptr<Engine> reference, float margin);

    std::vector<GenerationResult> generate(const std::vector<std::vector<int>>& inputs,
                                           const GenerationOptions& options) override;
    Device device() const override;
    // The fast engine's description, then the re-check ("..., fp32 re-check below margin 1"), with the counts
    // of sequences generated and decoded again once there are any.
    std::string describe() const override;
    // The fast engine's counts.
    SpeculationStats speculation_stats() const override { return fast_->speculation_stats(); }

    // Sequences generated and sequences decoded again, since construction.
    long long n_generated() const { return n_generated_; }
    long long n_rechecked() const { return n_rechecked_; }

private:
    std::unique_ptr<Engine> fast_, reference_;
    float margin_;
    long long n_generated_ = 0, n_rechecked_ = 0;
};

}  // namespace receipt
