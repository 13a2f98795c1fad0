// The model-facing seam of the server: a Predictor turns a batch of receipt texts into field JSON.
#pragma once

#include <string>
#include <vector>

namespace receipt {

// Per-request generation knobs the server passes through (from the request's "parameters").
struct PredictParams {
    bool truncate = true;    // too-long input: truncate with a warning (true) or fail the instance (false)
    int max_new_tokens = 0;  // 0 = the predictor's default
    int num_beams = 1;       // 1 = greedy

    bool operator==(const PredictParams&) const = default;
};

// The result for one text.
struct PredictOutcome {
    std::string fields_json;  // one JSON object: the schema's fields plus "warnings" (array of strings)
    int n_input_tokens = 0;
    int n_output_tokens = 0;
};

// Runs the model for batches of texts. One Predictor is owned and called by exactly one worker thread, so an
// implementation need not be thread-safe. predict() returns one outcome per text, in order, or throws:
// InvalidInput for a bad text (the worker then retries the texts one by one, so only the bad one fails),
// any other exception for an internal failure.
class Predictor {
  public:
    virtual ~Predictor() = default;
    virtual std::vector<PredictOutcome> predict(const std::vector<std::string>& texts, const PredictParams& params) = 0;
    // A one-line description for logs ("cpu fp32, 2 threads").
    virtual std::string describe() const { return "predictor"; }
};

}  // namespace receipt
