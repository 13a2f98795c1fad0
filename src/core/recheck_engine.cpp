// Half-precision decoding with an fp32 re-decode of near ties (core/recheck_engine.h).
#include "core/recheck_engine.h"

#include <cstdio>

#include "receipt/errors.h"

namespace receipt {

namespace {

// A logits processor for a call over a subset of another call's inputs: input i of this call is input
// index[i] of the original, so the wrapped processor sees the original index.
class RemappedProcessor final : public LogitsProcessor {
public:
    RemappedProcessor(std::shared_ptr<const LogitsProcessor> inner, std::vector<int> index)
        : inner_(std::move(inner)), index_(std::move(index)) {}
    void process(int source, const std::vector<int>& generated, float* logits, int vocab) const override {
        RECEIPT_CHECK(source >= 0 && size_t(source) < index_.size(), InvalidInput,
                      "RemappedProcessor: source index out of range");
        inner_->process(index_[size_t(source)], generated, logits, vocab);
    }

private:
    std::shared_ptr<const LogitsProcessor> inner_;
    std::vector<int> index_;
};

}  // namespace

RecheckEngine::RecheckEngine(std::unique_ptr<Engine> fast, std::unique_ptr<Engine> reference, float margin)
    : fast_(std::move(fast)), reference_(std::move(reference)), margin_(margin) {
    RECEIPT_CHECK(fast_ && reference_, InvalidInput, "RecheckEngine: null engine");
}

std::vector<GenerationResult> RecheckEngine::generate(const std::vector<std::vector<int>>& inputs,
                                                      const GenerationOptions& options) {
    std::vector<GenerationResult> out = fast_->generate(inputs, options);
    n_generated_ += static_cast<long long>(out.size());
    if (options.num_beams != 1 || !(margin_ > 0.0f)) return out;
    std::vector<int> redo;
    for (size_t i = 0; i < out.size(); ++i)
        if (out[i].min_margin < margin_) redo.push_back(static_cast<int>(i));
    if (redo.empty()) return out;
    std::vector<std::vector<int>> sub;
    sub.reserve(redo.size());
    for (int i : redo) sub.push_back(inputs[size_t(i)]);
    GenerationOptions sub_options = options;
    if (options.logits_processor)
        sub_options.logits_processor = std::make_shared<RemappedProcessor>(options.logits_processor, redo);
    std::vector<GenerationResult> again = reference_->generate(sub, sub_options);
    for (size_t k = 0; k < redo.size(); ++k) out[size_t(redo[k])] = std::move(again[k]);
    n_rechecked_ += static_cast<long long>(redo.size());
    return out;
}

Device RecheckEngine::device() const { return fast_->device(); }

std::string RecheckEngine::describe() const {
    char m[32];
    std::snprintf(m, sizeof m, "%g", double(margin_));
    std::string out = fast_->describe() + ", fp32 re-check below margin " + m;
    if (n_generated_ > 0)
        out += " (" + std::to_string(n_rechecked_) + " of " + std::to_string(n_generated_) + " sequences so far)";
    return out;
}

}  // namespace receipt
