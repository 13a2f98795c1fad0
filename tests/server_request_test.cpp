// Unit tests of the protocol-independent server pieces: body parsing, UTF-8 validation, metrics rendering.
#include <gtest/gtest.h>

#include "server/metrics.h"
#include "server/request_parsing.h"
#include "server/worker.h"

using namespace receipt::server;
using nlohmann::json;

namespace {

TEST(ServerRequest, Utf8Validation) {
    EXPECT_TRUE(is_valid_utf8(""));
    EXPECT_TRUE(is_valid_utf8("plain ascii"));
    EXPECT_TRUE(is_valid_utf8("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\xa7\xbe"));
    EXPECT_FALSE(is_valid_utf8("caf\xe9"));           // latin-1
    EXPECT_FALSE(is_valid_utf8("\xc0\xaf"));          // overlong
    EXPECT_FALSE(is_valid_utf8("\xed\xa0\x80"));      // surrogate
    EXPECT_FALSE(is_valid_utf8("\xf4\x90\x80\x80"));  // above U+10FFFF
    EXPECT_FALSE(is_valid_utf8("\xe2\x82"));          // truncated
}

TEST(ServerRequest, InstancesAndParameters) {
    RequestLimits limits;
    const PredictionInput in = parse_instances_body(
        R"({"instances": ["a", {"text": "b", "id": 3}], "parameters": {"timeout_ms": 50, "truncate": false,
            "max_new_tokens": 12, "num_beams": 2, "unknown": 1}})",
        "application/json", limits);
    ASSERT_EQ(in.texts.size(), 2u);
    EXPECT_EQ(in.texts[1], "b");
    EXPECT_EQ(in.timeout_ms, 50);
    EXPECT_FALSE(in.params.truncate);
    EXPECT_EQ(in.params.max_new_tokens, 12);
    EXPECT_EQ(in.params.num_beams, 2);
    const PredictionInput d = parse_instances_body(R"({"instances": ["a"]})", "", limits);
    EXPECT_EQ(d.timeout_ms, limits.default_timeout_ms);
    EXPECT_TRUE(d.params.truncate);
}

TEST(ServerRequest, ErrorsCarryCodes) {
    RequestLimits limits;
    limits.max_instances = 2;
    auto code_of = [&](const std::string& body) {
        try {
            parse_instances_body(body, "application/json", limits);
        } catch (const HttpError& e) {
            EXPECT_EQ(e.status(), 400);
            return e.code();
        }
        return std::string("none");
    };
    EXPECT_EQ(code_of("nope"), "invalid_json");
    EXPECT_EQ(code_of(R"({"instances": ["a", "b", "c"]})"), "too_many_instances");
    EXPECT_EQ(code_of(R"({"instances": [null]})"), "invalid_request");
    EXPECT_EQ(code_of(R"({"instances": ["\ud800"]})"), "invalid_json");  // lone surrogate escape
    EXPECT_EQ(code_of(R"({"instances": ["a"], "parameters": {"timeout_ms": 0}})"), "invalid_parameter");
    EXPECT_EQ(code_of(R"({"instances": ["a"], "parameters": {"timeout_ms": 1.5}})"), "invalid_parameter");
    EXPECT_EQ(code_of(R"({"instances": ["a"], "parameters": []})"), "invalid_parameter");
    EXPECT_EQ(code_of(R"({"instances": [" \n\t"]})"), "empty_text");
    EXPECT_EQ(code_of(R"({"instances": ["\ufeff\u3000\r\n"]})"), "empty_text");  // nothing the model reads
    EXPECT_EQ(code_of(R"({"instances": ["\ufeffA"]})"), "none");
}

TEST(ServerRequest, V2NestedDataIsFlattened) {
    RequestLimits limits;
    const PredictionInput in = parse_v2_infer_body(
        R"({"inputs": [{"name": "x", "shape": [2, 1], "datatype": "BYTES", "data": [["a"], ["b"]]}],
            "outputs": [{"name": "out"}]})",
        limits);
    EXPECT_EQ(in.texts, (std::vector<std::string>{"a", "b"}));
    EXPECT_EQ(in.output_name, "out");
    EXPECT_TRUE(in.request_id.is_null());
}

TEST(ServerRequest, PredictionObjectAlwaysHasWarnings) {
    EXPECT_EQ(prediction_object(R"({"total": "1.00"})")["warnings"], json::array());
    EXPECT_EQ(prediction_object(R"({"warnings": ["w"]})")["warnings"][0], "w");
    EXPECT_TRUE(prediction_object("not json")["warnings"].is_array());
}

TEST(ServerRequest, StripErrorLocation) {
    EXPECT_EQ(strip_error_location("extractor.cpp:42: text is empty"), "text is empty");
    EXPECT_EQ(strip_error_location("no location: here"), "no location: here");
    EXPECT_EQ(strip_error_location("a:b: c"), "a:b: c");
}

TEST(ServerMetrics, HistogramIsCumulative) {
    Histogram h({1, 2, 4});
    h.observe(0.5);
    h.observe(1.5);
    h.observe(3);
    h.observe(100);
    std::string out;
    h.render("x", out);
    EXPECT_NE(out.find("x_bucket{le=\"1\"} 1\n"), std::string::npos) << out;
    EXPECT_NE(out.find("x_bucket{le=\"2\"} 2\n"), std::string::npos);
    EXPECT_NE(out.find("x_bucket{le=\"4\"} 3\n"), std::string::npos);
    EXPECT_NE(out.find("x_bucket{le=\"+Inf\"} 4\n"), std::string::npos);
    EXPECT_NE(out.find("x_sum 105\n"), std::string::npos);
    EXPECT_NE(out.find("x_count 4\n"), std::string::npos);
}

TEST(ServerMetrics, RenderHasEveryFamily) {
    Metrics m;
    m.count_failure(FailureReason::kTimeout);
    m.count_success();
    const std::string text = m.render();
    for (const char* name :
         {"receipt_requests_success_total 1", "receipt_requests_failed_total{reason=\"timeout\"} 1",
          "receipt_queue_depth", "receipt_batch_size_bucket", "receipt_queue_latency_seconds_bucket",
          "receipt_compute_latency_seconds_bucket", "receipt_request_latency_seconds_bucket",
          "receipt_input_tokens_total", "receipt_output_tokens_total", "receipt_model_load_seconds"}) {
        EXPECT_NE(text.find(name), std::string::npos) << name;
    }
}

}  // namespace
