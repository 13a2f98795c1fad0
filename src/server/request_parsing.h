// Request bodies -> texts and parameters; validation that maps to 400 errors. No HTTP library here.
#pragma once

#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "receipt/predictor.h"

namespace receipt::server {

// An error with its HTTP status and a stable machine-readable code ("invalid_json", "empty_text", ...).
class HttpError : public std::runtime_error {
  public:
    HttpError(int status, std::string code, const std::string& message)
        : std::runtime_error(message), status_(status), code_(std::move(code)) {}
    int status() const { return status_; }
    const std::string& code() const { return code_; }

  private:
    int status_;
    std::string code_;
};

struct RequestLimits {
    int max_instances = 64;
    int default_timeout_ms = 30000;
    int max_timeout_ms = 300000;
    int max_new_tokens = 512;
    int max_beams = 4;
};

// What a prediction request asks for, whatever its protocol.
struct PredictionInput {
    std::vector<std::string> texts;
    PredictParams params;
    int timeout_ms = 0;
    nlohmann::json request_id;           // v2 "id", echoed back; null when absent
    std::string output_name = "fields";  // v2 output tensor name
};

// True when `s` is well-formed UTF-8 (no overlongs, no surrogates, nothing above U+10FFFF).
bool is_valid_utf8(std::string_view s);

// Vertex AI / KServe v1 body: {"instances": [{"text": "..."} | "...", ...], "parameters": {...}}, or, when
// `content_type` is text/plain, the body itself is one receipt. Throws HttpError(400, ...).
PredictionInput parse_instances_body(const std::string& body, const std::string& content_type,
                                     const RequestLimits& limits);

// Open Inference Protocol v2 body: {"id": ..., "inputs": [{"name", "shape", "datatype": "BYTES", "data"}],
// "parameters": {...}, "outputs": [{"name"}]}. Throws HttpError(400, ...).
PredictionInput parse_v2_infer_body(const std::string& body, const RequestLimits& limits);

// {"timeout_ms", "truncate", "max_new_tokens", "num_beams"}; unknown keys are ignored.
void parse_parameters(const nlohmann::json& parameters, const RequestLimits& limits, PredictionInput& input);

// The prediction object of one text: the predictor's fields JSON (key order kept), with "warnings" always present.
nlohmann::ordered_json prediction_object(const std::string& fields_json);

}  // namespace receipt::server
