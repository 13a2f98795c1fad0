// End-to-end: the server over the real Extractor with the tiny random-weight checkpoint. The fields are junk,
// but every response must be schema-shaped (all schema keys plus "warnings"), and run_server() must drain
// and return 0 on SIGTERM.
#include <gtest/gtest.h>

#include <csignal>
#include <filesystem>
#include <future>

#include "receipt/receipt_schema.h"
#include "server_test_util.h"

using namespace receipt;
using namespace receipt::test;
using nlohmann::json;

namespace {

const std::string kModelDir = std::string(RECEIPT_SOURCE_DIR) + "/tests/golden/t5-tiny-v10";

bool have_model() {
    return std::filesystem::exists(kModelDir + "/config.json") &&
           std::filesystem::exists(kModelDir + "/model.safetensors") &&
           std::filesystem::exists(kModelDir + "/spiece.model");
}

ServerOptions model_options() {
    ServerOptions o = test_options();
    o.model_dir = kModelDir;
    o.device = "cpu";
    o.n_threads = 2;
    o.max_input_tokens = 64;
    o.max_new_tokens = 24;
    o.max_batch_size = 4;
    return o;
}

void expect_schema_shaped(const json& p) {
    ASSERT_TRUE(p.is_object()) << p.dump();
    for (const std::string& key : receipt_field_names()) EXPECT_TRUE(p.contains(key)) << key << " in " << p.dump();
    ASSERT_TRUE(p.contains("warnings")) << p.dump();
    EXPECT_TRUE(p["warnings"].is_array());
}

const char* kReceipt = "FAMILY MART\nTokyo Shibuya 1-2-3\nTEL 03-1234-5678\n2024/01/31 12:34\nお茶 150\n合計 ¥150";

class ServerModel : public ::testing::Test {
  protected:
    void SetUp() override {
        if (!have_model()) GTEST_SKIP() << "no checkpoint at " << kModelDir;
    }
};

TEST_F(ServerModel, PredictReturnsSchemaShapedFields) {
    Server server(model_options(), make_extractor_predictors);
    server.start();
    ASSERT_TRUE(server.wait_ready(std::chrono::seconds(120))) << server.load_error();
    httplib::Client c("127.0.0.1", server.port());
    c.set_read_timeout(120, 0);
    auto res = c.Post("/predict", vertex_body({kReceipt, "short one"}), "application/json");
    ASSERT_TRUE(res);
    ASSERT_EQ(res->status, 200) << res->body;
    const json j = parse(res->body);
    ASSERT_EQ(j["predictions"].size(), 2u);
    expect_schema_shaped(j["predictions"][0]);
    expect_schema_shaped(j["predictions"][1]);

    json v2 = {{"inputs", {{{"name", "text"}, {"shape", {1}}, {"datatype", "BYTES"}, {"data", {kReceipt}}}}}};
    res = c.Post("/v2/models/receipt-t5/infer", v2.dump(), "application/json");
    ASSERT_TRUE(res);
    ASSERT_EQ(res->status, 200) << res->body;
    expect_schema_shaped(parse(parse(res->body)["outputs"][0]["data"][0].get<std::string>()));

    const std::string metrics = c.Get("/metrics")->body;
    EXPECT_GT(metric_value(metrics, "receipt_input_tokens_total"), 0);
    EXPECT_GT(metric_value(metrics, "receipt_output_tokens_total"), 0);
    EXPECT_GT(metric_value(metrics, "receipt_model_load_seconds"), 0);
    server.stop();
}

TEST_F(ServerModel, TooLongInputIsTruncatedWithWarningOr400) {
    Server server(model_options(), make_extractor_predictors);
    server.start();
    ASSERT_TRUE(server.wait_ready(std::chrono::seconds(120))) << server.load_error();
    httplib::Client c("127.0.0.1", server.port());
    c.set_read_timeout(120, 0);
    std::string long_text;
    for (int i = 0; i < 60; ++i) long_text += "ITEM " + std::to_string(i) + " 1.00\n";

    auto res = c.Post("/predict", vertex_body({long_text}), "application/json");
    ASSERT_TRUE(res);
    ASSERT_EQ(res->status, 200) << res->body;
    const json p = parse(res->body)["predictions"][0];
    expect_schema_shaped(p);
    bool truncated = false;
    for (const auto& w : p["warnings"]) truncated |= w.get<std::string>().find("truncat") != std::string::npos;
    EXPECT_TRUE(truncated) << p.dump();

    res = c.Post("/predict", vertex_body({long_text}, {{"truncate", false}}), "application/json");
    ASSERT_TRUE(res);
    EXPECT_EQ(res->status, 400) << res->body;
    EXPECT_EQ(parse(res->body)["error"]["code"], "invalid_input");
    server.stop();
}

TEST_F(ServerModel, MissingModelKeepsServerUnready) {
    ServerOptions o = model_options();
    o.model_dir = kModelDir + "/does-not-exist";
    Server server(o, make_extractor_predictors);
    server.start();
    EXPECT_FALSE(server.wait_ready(std::chrono::seconds(30)));
    EXPECT_TRUE(server.load_failed());
    httplib::Client c("127.0.0.1", server.port());
    EXPECT_EQ(c.Get("/health")->status, 503);
}

// A free port on 127.0.0.1 (bound and released; racy in theory, fine on a test machine).
int free_port() {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = 0;
    socklen_t len = sizeof addr;
    if (::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 ||
        ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) != 0) {
        ::close(fd);
        return -1;
    }
    ::close(fd);
    return ntohs(addr.sin_port);
}

TEST_F(ServerModel, RunServerDrainsOnSigtermAndReturns0) {
    ServerOptions o = model_options();
    o.port = free_port();
    auto status = std::async(std::launch::async, [o] { return run_server(o); });
    httplib::Client c("127.0.0.1", o.port);
    c.set_read_timeout(120, 0);
    bool ready = false;
    for (int i = 0; i < 1200 && !ready; ++i) {
        auto res = c.Get("/health");
        ready = res && res->status == 200;
        if (!ready) std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    ASSERT_TRUE(ready);
    // A request in flight when the signal arrives still gets its answer.
    auto in_flight = std::async(std::launch::async, [&] {
        httplib::Client c2("127.0.0.1", o.port);
        c2.set_read_timeout(120, 0);
        auto res = c2.Post("/predict", vertex_body({kReceipt, kReceipt, kReceipt}), "application/json");
        return res ? res->status : -1;
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    ASSERT_EQ(std::raise(SIGTERM), 0);
    ASSERT_EQ(status.wait_for(std::chrono::seconds(60)), std::future_status::ready);
    EXPECT_EQ(status.get(), 0);
    EXPECT_EQ(in_flight.get(), 200);
}

TEST_F(ServerModel, RunServerReturns3WhenTheModelFailsToLoad) {
    ServerOptions o = model_options();
    o.port = free_port();
    o.model_dir = kModelDir + "/does-not-exist";
    EXPECT_EQ(run_server(o), 3);
}

}  // namespace
