// Black-box HTTP tests of every route and every error status, over a fake predictor on 127.0.0.1.
#include <gtest/gtest.h>

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>

#include <filesystem>

#include "server_test_util.h"

using namespace receipt;
using namespace receipt::test;
using nlohmann::json;

namespace {

void expect_error(const httplib::Result& res, int status, const std::string& code) {
    ASSERT_TRUE(res) << "no response";
    EXPECT_EQ(res->status, status) << res->body;
    const json j = parse(res->body);
    ASSERT_TRUE(j.contains("error")) << res->body;
    EXPECT_EQ(j["error"]["code"], code) << res->body;
    EXPECT_TRUE(j["error"]["message"].is_string());
}

TEST(ServerHttp, HealthIs503UntilLoadedThenOk) {
    // A factory that blocks until released: the server answers health checks while it loads.
    auto release = std::make_shared<std::atomic<bool>>(false);
    auto log = std::make_shared<FakeLog>();
    Server server(test_options(), [release, log](const ServerOptions&) {
        while (!release->load()) std::this_thread::sleep_for(std::chrono::milliseconds(5));
        std::vector<std::unique_ptr<Predictor>> v;
        v.push_back(std::make_unique<FakePredictor>(log, FakeConfig{}));
        return v;
    });
    server.start();
    httplib::Client c("127.0.0.1", server.port());
    auto res = c.Get("/health");
    ASSERT_TRUE(res);
    EXPECT_EQ(res->status, 503);
    EXPECT_FALSE(res->get_header_value("Retry-After").empty());
    EXPECT_EQ(c.Get("/v2/health/ready")->status, 503);
    EXPECT_EQ(c.Get("/v2/health/live")->status, 200);
    EXPECT_EQ(c.Get("/v1/models/receipt-t5")->status, 503);
    expect_error(c.Post("/predict", vertex_body({"x"}), "application/json"), 503, "not_ready");

    release->store(true);
    ASSERT_TRUE(server.wait_ready(std::chrono::seconds(10)));
    res = c.Get("/health");
    ASSERT_TRUE(res);
    EXPECT_EQ(res->status, 200);
    EXPECT_EQ(parse(res->body)["status"], "ok");
    EXPECT_EQ(c.Get("/v2/health/ready")->status, 200);
}

TEST(ServerHttp, LoadFailureKeepsHealth503) {
    Server server(test_options(), [](const ServerOptions&) -> std::vector<std::unique_ptr<Predictor>> {
        RECEIPT_THROW(ModelError, "no such model");
    });
    server.start();
    EXPECT_FALSE(server.wait_ready(std::chrono::seconds(5)));
    EXPECT_TRUE(server.load_failed());
    EXPECT_NE(server.load_error().find("no such model"), std::string::npos);
    httplib::Client c("127.0.0.1", server.port());
    auto res = c.Get("/health");
    ASSERT_TRUE(res);
    EXPECT_EQ(res->status, 503);
    EXPECT_EQ(parse(res->body)["status"], "failed");
}

TEST(ServerHttp, VertexPredictObjectsStringsAndPlainText) {
    FakeServer s;
    auto c = s.client();
    auto res = c->Post("/predict", vertex_body({"first receipt", "second receipt"}), "application/json");
    ASSERT_TRUE(res);
    ASSERT_EQ(res->status, 200) << res->body;
    EXPECT_EQ(res->get_header_value("Content-Type"), "application/json");
    json j = parse(res->body);
    ASSERT_EQ(j["predictions"].size(), 2u);
    EXPECT_EQ(j["predictions"][0]["text"], "first receipt");
    EXPECT_EQ(j["predictions"][1]["text"], "second receipt");
    EXPECT_TRUE(j["predictions"][0]["warnings"].is_array());

    res = c->Post("/predict", R"({"instances": ["plain string", {"text": "object"}]})", "application/json");
    ASSERT_TRUE(res);
    ASSERT_EQ(res->status, 200) << res->body;
    j = parse(res->body);
    EXPECT_EQ(j["predictions"][0]["text"], "plain string");
    EXPECT_EQ(j["predictions"][1]["text"], "object");

    res = c->Post("/predict", "TOTAL 12.00\nthank you ✓", "text/plain; charset=utf-8");
    ASSERT_TRUE(res);
    ASSERT_EQ(res->status, 200) << res->body;
    j = parse(res->body);
    ASSERT_EQ(j["predictions"].size(), 1u);
    EXPECT_EQ(j["predictions"][0]["text"], "TOTAL 12.00\nthank you ✓");
}

TEST(ServerHttp, CustomRoutesFromEnvironmentStyleOptions) {
    ServerOptions o = test_options();
    o.health_route = "/v1/endpoints/abc/health";
    o.predict_route = "/v1/endpoints/abc/deployedModels/1:predict";
    FakeServer s(o);
    auto c = s.client();
    EXPECT_EQ(c->Get("/v1/endpoints/abc/health")->status, 200);
    auto res = c->Post("/v1/endpoints/abc/deployedModels/1:predict", vertex_body({"a"}), "application/json");
    ASSERT_TRUE(res);
    EXPECT_EQ(res->status, 200) << res->body;
    EXPECT_EQ(c->Get("/health")->status, 404);
}

TEST(ServerHttp, KServeV1) {
    FakeServer s;
    auto c = s.client();
    auto res = c->Get("/v1/models/receipt-t5");
    ASSERT_TRUE(res);
    EXPECT_EQ(res->status, 200);
    EXPECT_EQ(parse(res->body)["ready"], true);
    EXPECT_EQ(parse(res->body)["name"], "receipt-t5");
    EXPECT_EQ(parse(c->Get("/v1/models")->body)["models"][0], "receipt-t5");

    res = c->Post("/v1/models/receipt-t5:predict", vertex_body({"hello"}), "application/json");
    ASSERT_TRUE(res);
    ASSERT_EQ(res->status, 200) << res->body;
    EXPECT_EQ(parse(res->body)["predictions"][0]["text"], "hello");

    expect_error(c->Get("/v1/models/other"), 404, "model_not_found");
    expect_error(c->Post("/v1/models/other:predict", vertex_body({"x"}), "application/json"), 404, "model_not_found");
}

TEST(ServerHttp, KServeV2) {
    FakeServer s;
    auto c = s.client();
    EXPECT_EQ(c->Get("/v2/health/live")->status, 200);
    EXPECT_EQ(c->Get("/v2/health/ready")->status, 200);
    EXPECT_EQ(c->Get("/v2")->status, 200);
    auto res = c->Get("/v2/models/receipt-t5");
    ASSERT_TRUE(res);
    ASSERT_EQ(res->status, 200);
    json meta = parse(res->body);
    EXPECT_EQ(meta["name"], "receipt-t5");
    EXPECT_EQ(meta["inputs"][0]["datatype"], "BYTES");
    EXPECT_EQ(meta["outputs"][0]["datatype"], "BYTES");
    res = c->Get("/v2/models/receipt-t5/ready");
    ASSERT_TRUE(res);
    EXPECT_EQ(res->status, 200);
    EXPECT_EQ(parse(res->body)["ready"], true);
    EXPECT_EQ(c->Get("/v2/models/receipt-t5/versions/1/ready")->status, 200);

    json req = {{"id", "req-7"},
                {"inputs", {{{"name", "text"}, {"shape", {2}}, {"datatype", "BYTES"}, {"data", {"one", "two"}}}}},
                {"parameters", {{"truncate", true}}}};
    res = c->Post("/v2/models/receipt-t5/infer", req.dump(), "application/json");
    ASSERT_TRUE(res);
    ASSERT_EQ(res->status, 200) << res->body;
    json j = parse(res->body);
    EXPECT_EQ(j["model_name"], "receipt-t5");
    EXPECT_EQ(j["id"], "req-7");
    ASSERT_EQ(j["outputs"].size(), 1u);
    EXPECT_EQ(j["outputs"][0]["datatype"], "BYTES");
    EXPECT_EQ(j["outputs"][0]["shape"], json::array({2}));
    ASSERT_EQ(j["outputs"][0]["data"].size(), 2u);
    const json first = parse(j["outputs"][0]["data"][0].get<std::string>());
    EXPECT_EQ(first["text"], "one");
    EXPECT_TRUE(first["warnings"].is_array());
    EXPECT_EQ(parse(j["outputs"][0]["data"][1].get<std::string>())["text"], "two");

    // Errors on v2 routes follow the protocol: {"error": "message"} (plus our "code").
    res = c->Post("/v2/models/receipt-t5/infer",
                  R"({"inputs":[{"name":"text","shape":[1],"datatype":"FP32","data":[1.0]}]})", "application/json");
    ASSERT_TRUE(res);
    EXPECT_EQ(res->status, 400);
    EXPECT_TRUE(parse(res->body)["error"].is_string());
    res = c->Post("/v2/models/receipt-t5/infer",
                  R"({"inputs":[{"name":"text","shape":[3],"datatype":"BYTES","data":["a"]}]})", "application/json");
    ASSERT_TRUE(res);
    EXPECT_EQ(res->status, 400);
    res = c->Get("/v2/models/other");
    ASSERT_TRUE(res);
    EXPECT_EQ(res->status, 404);
    EXPECT_EQ(parse(res->body)["code"], "model_not_found");
}

TEST(ServerHttp, BadRequests) {
    ServerOptions o = test_options();
    o.max_instances = 4;
    FakeServer s(o);
    auto c = s.client();
    expect_error(c->Post("/predict", "{\"instances\": [", "application/json"), 400, "invalid_json");
    expect_error(c->Post("/predict", "{}", "application/json"), 400, "missing_instances");
    expect_error(c->Post("/predict", R"({"instances": []})", "application/json"), 400, "missing_instances");
    expect_error(c->Post("/predict", R"([1, 2])", "application/json"), 400, "invalid_request");
    expect_error(c->Post("/predict", R"({"instances": "text"})", "application/json"), 400, "invalid_request");
    expect_error(c->Post("/predict", R"({"instances": [42]})", "application/json"), 400, "invalid_request");
    expect_error(c->Post("/predict", R"({"instances": [{"txt": "a"}]})", "application/json"), 400, "invalid_request");
    expect_error(c->Post("/predict", R"({"instances": [{"text": 5}]})", "application/json"), 400, "invalid_request");
    expect_error(
        c->Post("/predict", R"({"instances": ["a"], "parameters": {"timeout_ms": "soon"}})", "application/json"), 400,
        "invalid_parameter");
    expect_error(c->Post("/predict", R"({"instances": ["a"], "parameters": {"truncate": "no"}})", "application/json"),
                 400, "invalid_parameter");
    expect_error(c->Post("/predict", R"({"instances": ["a"], "parameters": {"num_beams": 99}})", "application/json"),
                 400, "invalid_parameter");
    expect_error(c->Post("/predict", std::string("{\"instances\": [\"caf\xe9\"]}"), "application/json"), 400,
                 "invalid_utf8");
    expect_error(c->Post("/predict", std::string("caf\xc3\x28"), "text/plain"), 400, "invalid_utf8");
    expect_error(c->Post("/predict", R"({"instances": [""]})", "application/json"), 400, "empty_text");
    expect_error(c->Post("/predict", R"({"instances": [{"text": "  \n\t "}]})", "application/json"), 400, "empty_text");
    expect_error(c->Post("/predict", "", "text/plain"), 400, "empty_text");
    expect_error(c->Post("/predict", vertex_body({"a", "b", "c", "d", "e"}), "application/json"), 400,
                 "too_many_instances");
    expect_error(c->Get("/nope"), 404, "not_found");
    // A known path under another method: 405 and the methods it serves.
    auto wrong = c->Get("/predict");
    expect_error(wrong, 405, "method_not_allowed");
    EXPECT_EQ(wrong->get_header_value("Allow"), "POST");
    wrong = c->Post("/health", "{}", "application/json");
    expect_error(wrong, 405, "method_not_allowed");
    EXPECT_EQ(wrong->get_header_value("Allow"), "GET, HEAD");
    expect_error(c->Delete("/v1/models/receipt-t5:predict"), 405, "method_not_allowed");
    wrong = c->Post("/metrics", "", "text/plain");
    expect_error(wrong, 405, "method_not_allowed");
    wrong = c->Get("/v2/models/receipt-t5/infer");
    ASSERT_TRUE(wrong);
    EXPECT_EQ(wrong->status, 405);
    EXPECT_EQ(parse(wrong->body)["code"], "method_not_allowed");
    EXPECT_EQ(wrong->get_header_value("Allow"), "POST");
    // Every one of those left the predictor untouched (only the warm-up call happened).
    EXPECT_EQ(s.log->calls.size(), 1u);
    // The server is still fine.
    EXPECT_EQ(c->Post("/predict", vertex_body({"ok"}), "application/json")->status, 200);
}

TEST(ServerHttp, BodyOverLimitIs413) {
    ServerOptions o = test_options();
    o.max_body_bytes = 64 * 1024;
    FakeServer s(o);
    auto c = s.client();
    const std::string big = vertex_body({std::string(100 * 1024, 'a')});
    expect_error(c->Post("/predict", big, "application/json"), 413, "payload_too_large");
    // Just under the limit works.
    const std::string fits = vertex_body({std::string(60 * 1024, 'a')});
    EXPECT_EQ(c->Post("/predict", fits, "application/json")->status, 200);
}

TEST(ServerHttp, DefaultBodyLimitIs1point5MB) {
    FakeServer s;
    auto c = s.client();
    const std::string big = vertex_body({std::string(1600 * 1024, 'a')});
    auto res = c->Post("/predict", big, "application/json");
    ASSERT_TRUE(res);
    EXPECT_EQ(res->status, 413);
}

TEST(ServerHttp, TooLongInputTruncatesOrRejects) {
    FakeConfig fc;
    fc.max_chars = 10;
    FakeServer s(test_options(), fc);
    auto c = s.client();
    auto res = c->Post("/predict", vertex_body({"0123456789abcdef"}), "application/json");
    ASSERT_TRUE(res);
    ASSERT_EQ(res->status, 200);
    json p = parse(res->body)["predictions"][0];
    EXPECT_EQ(p["text"], "0123456789");
    EXPECT_EQ(p["warnings"][0], "input truncated");

    res = c->Post("/predict", vertex_body({"short", "0123456789abcdef"}, {{"truncate", false}}), "application/json");
    expect_error(res, 400, "invalid_input");
    EXPECT_NE(parse(res->body)["error"]["message"].get<std::string>().find("instance 1"), std::string::npos);
    EXPECT_EQ(parse(res->body)["error"]["message"].get<std::string>().find(".cpp"), std::string::npos);
}

TEST(ServerHttp, ApiKey) {
    ServerOptions o = test_options();
    o.api_key = "s3cret-key";
    FakeServer s(o);
    auto c = s.client();
    // Probes need no key.
    EXPECT_EQ(c->Get("/health")->status, 200);
    EXPECT_EQ(c->Get("/v2/health/ready")->status, 200);
    auto res = c->Post("/predict", vertex_body({"a"}), "application/json");
    expect_error(res, 401, "unauthorized");
    EXPECT_EQ(res->get_header_value("WWW-Authenticate"), "Bearer");
    expect_error(c->Post("/predict", {{"Authorization", "Bearer wrong"}}, vertex_body({"a"}), "application/json"), 401,
                 "unauthorized");
    expect_error(c->Post("/predict", {{"x-api-key", "s3cret-ke"}}, vertex_body({"a"}), "application/json"), 401,
                 "unauthorized");
    EXPECT_EQ(
        c->Post("/predict", {{"Authorization", "Bearer s3cret-key"}}, vertex_body({"a"}), "application/json")->status,
        200);
    EXPECT_EQ(c->Post("/predict", {{"x-api-key", "s3cret-key"}}, vertex_body({"a"}), "application/json")->status, 200);
    EXPECT_EQ(c->Get("/metrics")->status, 401);
    EXPECT_EQ(c->Get("/metrics", {{"x-api-key", "s3cret-key"}})->status, 200);
    // The server keeps working on the same client after refusing a request whose body it did not read.
    EXPECT_EQ(c->Post("/predict", {{"x-api-key", "s3cret-key"}}, vertex_body({"b"}), "application/json")->status, 200);
}

TEST(ServerHttp, FailingInstanceDoesNotAffectItsBatch) {
    ServerOptions o = test_options();
    o.max_queue_delay_us = 200000;  // collect everything below into one batch
    o.max_batch_size = 8;
    FakeServer s(o);
    std::vector<std::thread> threads;
    std::vector<int> status(6, 0);
    for (int i = 0; i < 6; ++i) {
        threads.emplace_back([&, i] {
            auto c = s.client();
            auto res =
                c->Post("/predict", vertex_body({i == 2 ? "boom" : "ok " + std::to_string(i)}), "application/json");
            status[i] = res ? res->status : -1;
        });
    }
    for (auto& t : threads) t.join();
    for (int i = 0; i < 6; ++i) EXPECT_EQ(status[i], i == 2 ? 500 : 200) << i;
    EXPECT_GE(s.log->max_batch(), 2u);  // they really were batched together
}

TEST(ServerHttp, MetricsExposition) {
    FakeServer s;
    auto c = s.client();
    ASSERT_EQ(c->Post("/predict", vertex_body({"a", "bb"}), "application/json")->status, 200);
    ASSERT_EQ(c->Post("/predict", "{", "application/json")->status, 400);
    const std::string m = metrics_when(s.port(), "receipt_request_latency_seconds_count", 2);
    auto res = c->Get("/metrics");
    ASSERT_TRUE(res);
    ASSERT_EQ(res->status, 200);
    EXPECT_NE(res->get_header_value("Content-Type").find("text/plain"), std::string::npos);
    EXPECT_EQ(metric_value(m, "receipt_requests_success_total"), 1);
    EXPECT_EQ(metric_value(m, "receipt_requests_failed_total{reason=\"bad_request\"}"), 1);
    EXPECT_EQ(metric_value(m, "receipt_requests_failed_total{reason=\"overloaded\"}"), 0);
    EXPECT_EQ(metric_value(m, "receipt_queue_depth"), 0);
    EXPECT_EQ(metric_value(m, "receipt_ready"), 1);
    EXPECT_GE(metric_value(m, "receipt_model_load_seconds"), 0);
    // The fake counts bytes as input tokens and 3 output tokens per text; warm-up is not counted.
    EXPECT_EQ(metric_value(m, "receipt_input_tokens_total"), 3);
    EXPECT_EQ(metric_value(m, "receipt_output_tokens_total"), 6);
    EXPECT_GE(metric_value(m, "receipt_batch_size_count"), 1);
    EXPECT_GE(metric_value(m, "receipt_batch_size_bucket{le=\"+Inf\"}"), 1);
    EXPECT_EQ(metric_value(m, "receipt_queue_latency_seconds_count"), 2);
    EXPECT_GE(metric_value(m, "receipt_compute_latency_seconds_count"), 1);
    EXPECT_EQ(metric_value(m, "receipt_request_latency_seconds_count"), 2);
    EXPECT_NE(m.find("# TYPE receipt_batch_size histogram"), std::string::npos);
}

TEST(ServerHttp, RequestIdIsEchoed) {
    FakeServer s;
    auto c = s.client();
    auto res = c->Post("/predict", {{"X-Request-Id", "abc-123"}}, vertex_body({"a"}), "application/json");
    ASSERT_TRUE(res);
    EXPECT_EQ(res->get_header_value("X-Request-Id"), "abc-123");
}

}  // namespace

namespace {

// The server's connections have TCP_NODELAY: httplib sends a response's headers and body in two send() calls, and
// with Nagle's algorithm the body waited for the client's delayed ACK (40 ms on Linux) on every keep-alive request
// (single-client latency on a GPU: 68-72 ms with it against the ~25 ms the extraction takes). Checked on the
// server's end of an open keep-alive connection, found among this process's sockets by its local port.
TEST(ServerHttp, ConnectionsSendWithoutNagleDelay) {
    FakeServer s;
    auto c = s.client();
    c->set_keep_alive(true);
    auto res = c->Get("/health");
    ASSERT_TRUE(res);
    ASSERT_EQ(res->status, 200);
    int checked = 0;
    for (const auto& entry : std::filesystem::directory_iterator("/proc/self/fd")) {
        int fd = -1;
        try {
            fd = std::stoi(entry.path().filename().string());
        } catch (...) {
            continue;
        }
        sockaddr_in local{};
        socklen_t len = sizeof local;
        if (::getsockname(fd, reinterpret_cast<sockaddr*>(&local), &len) != 0 || local.sin_family != AF_INET ||
            ntohs(local.sin_port) != s.port())
            continue;
        int listening = 0, nodelay = 0;
        socklen_t n1 = sizeof listening, n2 = sizeof nodelay;
        ASSERT_EQ(::getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, &listening, &n1), 0);
        if (listening) continue;  // the listening socket
        ASSERT_EQ(::getsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &nodelay, &n2), 0);
        EXPECT_NE(nodelay, 0) << "fd " << fd;
        ++checked;
    }
    EXPECT_GE(checked, 1) << "the server's end of the connection was not found";
}

TEST(ServerHttp, PortInUseFailsToStart) {
    FakeServer first;
    ServerOptions o = test_options();
    o.port = first.port();
    Server second(o, [](const ServerOptions&) { return std::vector<std::unique_ptr<Predictor>>{}; });
    EXPECT_THROW(second.start(), Unavailable);
}

}  // namespace
