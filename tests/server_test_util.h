// Helpers for the server's black-box HTTP tests: a deterministic fake predictor and an in-process server on
// an ephemeral 127.0.0.1 port.
#pragma once

#include <arpa/inet.h>
#include <httplib.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "receipt/errors.h"
#include "receipt/server.h"

namespace receipt::test {

// What the fake predictor saw; shared between the test and the server's workers.
struct FakeLog {
    std::mutex mutex;
    std::vector<std::vector<std::string>> calls;  // texts of each predict() call, warm-up included
    std::atomic<int> n_running{0};

    std::vector<std::string> all_texts() {
        std::lock_guard lock(mutex);
        std::vector<std::string> out;
        for (const auto& c : calls) out.insert(out.end(), c.begin(), c.end());
        return out;
    }
    bool saw(const std::string& text) {
        for (const auto& t : all_texts()) {
            if (t == text) return true;
        }
        return false;
    }
    size_t max_batch() {
        std::lock_guard lock(mutex);
        size_t m = 0;
        for (const auto& c : calls) m = std::max(m, c.size());
        return m;
    }
};

struct FakeConfig {
    std::chrono::milliseconds delay{0};  // per predict() call
    size_t max_chars = 1000;             // "max tokens": longer texts are truncated or rejected
};

// Echoes each text back as {"text": ..., "batch": n, "warnings": [...]}. "boom" fails with an internal error
// (batched or not); texts longer than max_chars are truncated with a warning, or rejected when !truncate.
class FakePredictor final : public Predictor {
  public:
    FakePredictor(std::shared_ptr<FakeLog> log, FakeConfig config) : log_(std::move(log)), config_(config) {}

    std::vector<PredictOutcome> predict(const std::vector<std::string>& texts, const PredictParams& params) override {
        {
            std::lock_guard lock(log_->mutex);
            log_->calls.push_back(texts);
        }
        ++log_->n_running;
        std::this_thread::sleep_for(config_.delay);
        --log_->n_running;
        std::vector<PredictOutcome> out;
        for (const auto& t : texts) {
            if (t == "boom") throw std::runtime_error("fake predictor exploded");
            nlohmann::json warnings = nlohmann::json::array();
            std::string text = t;
            if (text.size() > config_.max_chars) {
                RECEIPT_CHECK(params.truncate, InvalidInput, "input too long");
                text.resize(config_.max_chars);
                warnings.push_back("input truncated");
            }
            nlohmann::json j = {{"text", text}, {"batch", texts.size()}, {"warnings", warnings}};
            out.push_back(PredictOutcome{j.dump(), static_cast<int>(text.size()), 3});
        }
        return out;
    }
    std::string describe() const override { return "fake"; }

  private:
    std::shared_ptr<FakeLog> log_;
    FakeConfig config_;
};

inline ServerOptions test_options() {
    ServerOptions o;
    o.host = "127.0.0.1";
    o.port = 0;
    o.health_route = "/health";
    o.predict_route = "/predict";
    o.model_name = "receipt-t5";
    o.access_log = std::getenv("RECEIPT_TEST_ACCESS_LOG") != nullptr;
    o.http_threads = 64;
    o.grace_period_s = 10;
    return o;
}

// An in-process server over FakePredictors.
class FakeServer {
  public:
    explicit FakeServer(ServerOptions options = test_options(), FakeConfig config = {}, int n_workers = 1,
                        bool wait = true)
        : log(std::make_shared<FakeLog>()) {
        auto log_copy = log;
        server = std::make_unique<Server>(options, [log_copy, config, n_workers](const ServerOptions&) {
            std::vector<std::unique_ptr<Predictor>> v;
            for (int i = 0; i < n_workers; ++i) v.push_back(std::make_unique<FakePredictor>(log_copy, config));
            return v;
        });
        server->start();
        if (wait && !server->wait_ready(std::chrono::seconds(10))) throw std::runtime_error("server not ready");
    }
    int port() const { return server->port(); }
    std::unique_ptr<httplib::Client> client(int read_timeout_s = 30) const {
        auto c = std::make_unique<httplib::Client>("127.0.0.1", port());
        c->set_read_timeout(read_timeout_s, 0);
        c->set_connection_timeout(5, 0);
        return c;
    }

    std::shared_ptr<FakeLog> log;
    std::unique_ptr<Server> server;
};

inline nlohmann::json parse(const std::string& body) { return nlohmann::json::parse(body); }

inline std::string vertex_body(const std::vector<std::string>& texts, const nlohmann::json& parameters = nullptr) {
    nlohmann::json instances = nlohmann::json::array();
    for (const auto& t : texts) instances.push_back({{"text", t}});
    nlohmann::json body = {{"instances", instances}};
    if (!parameters.is_null()) body["parameters"] = parameters;
    return body.dump();
}

// A raw TCP connection to 127.0.0.1:port (for requests a well-behaved client would not send).
class RawConnection {
  public:
    explicit RawConnection(int port) {
        fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in addr{};
        addr.sin_family = AF_INET;
        addr.sin_port = htons(static_cast<uint16_t>(port));
        addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        if (::connect(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
            throw std::runtime_error("connect failed");
        }
        timeval tv{10, 0};
        setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    }
    ~RawConnection() { close(); }
    void send_all(const std::string& data) {
        size_t off = 0;
        while (off < data.size()) {
            const ssize_t n = ::send(fd_, data.data() + off, data.size() - off, MSG_NOSIGNAL);
            if (n <= 0) return;
            off += static_cast<size_t>(n);
        }
    }
    // Reads until the peer closes or `timeout` passes.
    std::string read_all() {
        std::string out;
        char buf[4096];
        while (true) {
            const ssize_t n = ::recv(fd_, buf, sizeof buf, 0);
            if (n <= 0) break;
            out.append(buf, static_cast<size_t>(n));
        }
        return out;
    }
    void close() {
        if (fd_ >= 0) ::close(fd_);
        fd_ = -1;
    }

  private:
    int fd_ = -1;
};

inline std::string http_post(const std::string& path, const std::string& body,
                             const std::string& content_type = "application/json") {
    return "POST " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: " + content_type +
           "\r\nContent-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
}

// The value of a metric line "name{labels} value" (or "name value") in Prometheus text; -1 when absent.
inline double metric_value(const std::string& text, const std::string& series) {
    size_t pos = 0;
    while ((pos = text.find(series + " ", pos)) != std::string::npos) {
        if (pos == 0 || text[pos - 1] == '\n') return std::stod(text.substr(pos + series.size() + 1));
        pos += series.size();
    }
    return -1;
}

// /metrics once `series` reaches `expected` (or after 2 s): a request's metrics are recorded after its
// response is written, so a client can see its answer a moment before the counters move.
inline std::string metrics_when(int port, const std::string& series, double expected) {
    httplib::Client c("127.0.0.1", port);
    std::string text;
    for (int i = 0; i < 200; ++i) {
        auto res = c.Get("/metrics");
        if (res) text = res->body;
        if (metric_value(text, series) == expected) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return text;
}

}  // namespace receipt::test
