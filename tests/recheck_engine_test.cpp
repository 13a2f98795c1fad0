// RecheckEngine (core/recheck_engine.h): near ties of the fast engine are decoded again by the reference engine,
// whose logits processor sees the original input indices. Also the precision names of EngineOptions.
#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "core/recheck_engine.h"
#include "receipt/engine.h"
#include "receipt/errors.h"

namespace {

// Returns, for input i, ids {tag, first id of the input} with min_margin = margins[first id]; records the sources
// its processor was called with.
class FakeEngine final : public receipt::Engine {
public:
    FakeEngine(int tag, std::vector<float> margins) : tag_(tag), margins_(std::move(margins)) {}
    std::vector<receipt::GenerationResult> generate(const std::vector<std::vector<int>>& inputs,
                                                    const receipt::GenerationOptions& options) override {
        ++calls;
        std::vector<receipt::GenerationResult> out;
        for (size_t i = 0; i < inputs.size(); ++i) {
            receipt::GenerationResult r;
            r.ids = {tag_, inputs[i][0]};
            r.min_margin = margins_.empty() ? INFINITY : margins_[size_t(inputs[i][0])];
            if (options.logits_processor) {
                float logit = 0.0f;
                options.logits_processor->process(int(i), r.ids, &logit, 1);
                sources.push_back(int(logit));
            }
            out.push_back(r);
        }
        return out;
    }
    receipt::Device device() const override { return receipt::Device::kCpu; }
    std::string describe() const override { return "fake"; }
    int calls = 0;
    std::vector<int> sources;

private:
    int tag_;
    std::vector<float> margins_;
};

// Writes the source index it is called with into the single logit.
class SourceProbe final : public receipt::LogitsProcessor {
public:
    void process(int source, const std::vector<int>&, float* logits, int) const override { logits[0] = float(source); }
};

}  // namespace

TEST(RecheckEngine, NearTiesAreDecodedAgainWithTheOriginalIndices) {
    auto fast = std::make_unique<FakeEngine>(1, std::vector<float>{5.0f, 0.2f, 3.0f, 0.9f});
    auto ref = std::make_unique<FakeEngine>(2, std::vector<float>{});
    FakeEngine* ref_ptr = ref.get();
    receipt::RecheckEngine e(std::move(fast), std::move(ref), 1.0f);
    receipt::GenerationOptions opt;
    opt.logits_processor = std::make_shared<SourceProbe>();
    const auto out = e.generate({{0}, {1}, {2}, {3}}, opt);
    ASSERT_EQ(out.size(), 4u);
    EXPECT_EQ(out[0].ids, (std::vector<int>{1, 0}));
    EXPECT_EQ(out[1].ids, (std::vector<int>{2, 1}));  // margin 0.2 < 1: the reference's
    EXPECT_EQ(out[2].ids, (std::vector<int>{1, 2}));
    EXPECT_EQ(out[3].ids, (std::vector<int>{2, 3}));
    EXPECT_EQ(ref_ptr->sources, (std::vector<int>{1, 3}));  // inputs 1 and 3 of the original call
    EXPECT_EQ(e.n_generated(), 4);
    EXPECT_EQ(e.n_rechecked(), 2);
    EXPECT_NE(e.describe().find("fp32 re-check below margin 1"), std::string::npos);
}

TEST(RecheckEngine, NoRecheckWithoutNearTiesOrForBeamSearch) {
    auto fast = std::make_unique<FakeEngine>(1, std::vector<float>{0.1f, 0.1f});
    auto ref = std::make_unique<FakeEngine>(2, std::vector<float>{});
    FakeEngine* ref_ptr = ref.get();
    receipt::RecheckEngine e(std::move(fast), std::move(ref), 1.0f);
    receipt::GenerationOptions beam;
    beam.num_beams = 2;
    const auto out = e.generate({{0}, {1}}, beam);
    EXPECT_EQ(out[0].ids[0], 1);
    EXPECT_EQ(ref_ptr->calls, 0);
    receipt::RecheckEngine off(std::make_unique<FakeEngine>(1, std::vector<float>{0.1f}),
                               std::make_unique<FakeEngine>(2, std::vector<float>{}), 0.0f);
    EXPECT_EQ(off.generate({{0}}, {})[0].ids[0], 1);
    EXPECT_EQ(off.n_rechecked(), 0);
}

// The --dtype names of EngineOptions (set_precision): half-precision weights with f32 activations are "<dtype>-a32";
// f32 activations on fp32 weights, or any other name, is a clear InvalidInput.
TEST(EngineOptions, SetPrecisionReadsTheA32Names) {
    struct Case {
        const char* name;
        receipt::DType dtype;
        bool a32;
    };
    for (const Case& c : {Case{"fp16-a32", receipt::DType::kF16, true}, Case{"bf16-a32", receipt::DType::kBF16, true},
                          Case{"fp32", receipt::DType::kF32, false}, Case{"bf16", receipt::DType::kBF16, false}}) {
        receipt::EngineOptions o;
        o.f32_activations = !c.a32;
        receipt::set_precision(o, c.name);
        EXPECT_EQ(o.dtype, c.dtype) << c.name;
        EXPECT_EQ(o.f32_activations, c.a32) << c.name;
    }
    receipt::EngineOptions o;
    for (const char* bad : {"fp32-a32", "fp16-a16", "-a32", "a32", "fp8"})
        EXPECT_THROW(receipt::set_precision(o, bad), receipt::InvalidInput) << bad;
}
