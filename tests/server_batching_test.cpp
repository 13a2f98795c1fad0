// Black-box tests of the batcher through HTTP: concurrent clients, overload (429), deadlines (504), client
// disconnects and the draining shutdown, over a deterministic (optionally slow) fake predictor.
#include <gtest/gtest.h>

#include "server_test_util.h"

using namespace receipt;
using namespace receipt::test;
using nlohmann::json;
using namespace std::chrono_literals;

namespace {

TEST(ServerBatching, ManyConcurrentClientsEachGetTheirOwnResults) {
    ServerOptions o = test_options();
    o.max_batch_size = 8;
    o.max_queue_delay_us = 3000;
    FakeConfig fc;
    fc.delay = 2ms;
    FakeServer s(o, fc, /*n_workers=*/2);
    constexpr int kClients = 32;
    constexpr int kRequests = 10;
    std::atomic<int> n_ok{0};
    std::atomic<int> n_bad{0};
    std::vector<std::thread> threads;
    for (int c = 0; c < kClients; ++c) {
        threads.emplace_back([&, c] {
            auto client = s.client();
            for (int r = 0; r < kRequests; ++r) {
                std::vector<std::string> texts;
                const int n = 1 + (c + r) % 3;
                for (int k = 0; k < n; ++k)
                    texts.push_back("client " + std::to_string(c) + " req " + std::to_string(r) + " item " +
                                    std::to_string(k));
                auto res = client->Post("/predict", vertex_body(texts), "application/json");
                bool good = res && res->status == 200;
                if (good) {
                    const json j = parse(res->body);
                    good = j["predictions"].size() == texts.size();
                    for (size_t k = 0; good && k < texts.size(); ++k) good = j["predictions"][k]["text"] == texts[k];
                }
                if (!good && n_bad.load() < 3) {
                    ADD_FAILURE() << "client " << c << " request " << r << ": "
                                  << (res ? std::to_string(res->status) + " " + res->body
                                          : "no response: " + httplib::to_string(res.error()));
                }
                (good ? n_ok : n_bad)++;
            }
        });
    }
    for (auto& t : threads) t.join();
    EXPECT_EQ(n_ok.load(), kClients * kRequests);
    EXPECT_EQ(n_bad.load(), 0);
    EXPECT_GT(s.log->max_batch(), 1u);  // requests were batched together
    EXPECT_LE(s.log->max_batch(), 8u);
}

TEST(ServerBatching, BatchesAreSortedByLength) {
    ServerOptions o = test_options();
    o.max_batch_size = 16;
    o.max_queue_delay_us = 300000;
    FakeServer s(o);
    auto c = s.client();
    auto res = c->Post("/predict", vertex_body({"ccccccc", "a", "bbbb", "dddddddddd"}), "application/json");
    ASSERT_TRUE(res);
    ASSERT_EQ(res->status, 200);
    const json j = parse(res->body);
    EXPECT_EQ(j["predictions"][0]["text"], "ccccccc");  // the answer keeps request order
    const auto calls = s.log->calls;
    ASSERT_EQ(calls.size(), 2u);
    EXPECT_EQ(calls[1], (std::vector<std::string>{"a", "bbbb", "ccccccc", "dddddddddd"}));
}

TEST(ServerBatching, FullQueueIs429WithRetryAfter) {
    ServerOptions o = test_options();
    o.max_batch_size = 1;
    o.max_queue_size = 2;
    o.max_instances = 2;
    o.max_queue_delay_us = 0;
    FakeConfig fc;
    fc.delay = 200ms;
    FakeServer s(o, fc);
    constexpr int kClients = 12;
    std::vector<int> status(kClients, 0);
    std::vector<std::string> retry_after(kClients);
    std::vector<std::thread> threads;
    for (int i = 0; i < kClients; ++i) {
        threads.emplace_back([&, i] {
            auto c = s.client();
            auto res = c->Post("/predict", vertex_body({"r" + std::to_string(i)}), "application/json");
            status[i] = res ? res->status : -1;
            if (res) retry_after[i] = res->get_header_value("Retry-After");
        });
    }
    for (auto& t : threads) t.join();
    int n_ok = 0, n_429 = 0;
    for (int i = 0; i < kClients; ++i) {
        if (status[i] == 200) ++n_ok;
        if (status[i] == 429) {
            ++n_429;
            EXPECT_EQ(retry_after[i], "1");
        }
        EXPECT_TRUE(status[i] == 200 || status[i] == 429) << status[i];
    }
    EXPECT_GE(n_ok, 2);
    EXPECT_GE(n_429, 1);
    const std::string series = "receipt_requests_failed_total{reason=\"overloaded\"}";
    EXPECT_EQ(metric_value(metrics_when(s.port(), series, n_429), series), n_429);
}

TEST(ServerBatching, OverloadStatusCanBe503) {
    ServerOptions o = test_options();
    o.max_batch_size = 1;
    o.max_queue_size = 1;
    o.max_instances = 1;
    o.overload_status = 503;
    FakeConfig fc;
    fc.delay = 300ms;
    FakeServer s(o, fc);
    std::vector<std::thread> threads;
    std::atomic<int> n_503{0};
    for (int i = 0; i < 6; ++i) {
        threads.emplace_back([&] {
            auto res = s.client()->Post("/predict", vertex_body({"x"}), "application/json");
            if (res && res->status == 503 && !res->get_header_value("Retry-After").empty()) ++n_503;
        });
    }
    for (auto& t : threads) t.join();
    EXPECT_GE(n_503.load(), 1);
}

TEST(ServerBatching, DeadlineIs504) {
    FakeConfig fc;
    fc.delay = 600ms;
    FakeServer s(test_options(), fc);
    auto c = s.client();
    const auto t0 = std::chrono::steady_clock::now();
    auto res = c->Post("/predict", vertex_body({"slow"}, {{"timeout_ms", 100}}), "application/json");
    const auto waited = std::chrono::steady_clock::now() - t0;
    ASSERT_TRUE(res);
    EXPECT_EQ(res->status, 504);
    EXPECT_EQ(parse(res->body)["error"]["code"], "timeout");
    EXPECT_LT(waited, 500ms);
    // A request queued behind a slow batch also times out, and is never computed.
    std::thread busy([&] { s.client()->Post("/predict", vertex_body({"busy"}), "application/json"); });
    std::this_thread::sleep_for(50ms);
    res = c->Post("/predict", vertex_body({"queued-too-long"}, {{"timeout_ms", 100}}), "application/json");
    ASSERT_TRUE(res);
    EXPECT_EQ(res->status, 504);
    busy.join();
    std::this_thread::sleep_for(100ms);
    EXPECT_FALSE(s.log->saw("queued-too-long"));
    const std::string series = "receipt_requests_failed_total{reason=\"timeout\"}";
    EXPECT_EQ(metric_value(metrics_when(s.port(), series, 2), series), 2);
}

TEST(ServerBatching, ServerDefaultTimeoutApplies) {
    ServerOptions o = test_options();
    o.default_timeout_ms = 100;
    FakeConfig fc;
    fc.delay = 400ms;
    FakeServer s(o, fc);
    auto res = s.client()->Post("/predict", vertex_body({"slow"}), "application/json");
    ASSERT_TRUE(res);
    EXPECT_EQ(res->status, 504);
}

TEST(ServerBatching, DisconnectedClientIsDroppedBeforeCompute) {
    FakeConfig fc;
    fc.delay = 400ms;
    FakeServer s(test_options(), fc);
    // Occupy the only worker.
    std::thread busy([&] { s.client()->Post("/predict", vertex_body({"busy"}), "application/json"); });
    std::this_thread::sleep_for(100ms);
    {
        RawConnection raw(s.port());
        raw.send_all(http_post("/predict", vertex_body({"abandoned"})));
        std::this_thread::sleep_for(100ms);  // queued behind "busy"
    }                                        // the client hangs up
    busy.join();
    std::this_thread::sleep_for(200ms);
    EXPECT_FALSE(s.log->saw("abandoned"));
    const std::string series = "receipt_requests_failed_total{reason=\"client_closed\"}";
    EXPECT_EQ(metric_value(metrics_when(s.port(), series, 1), series), 1);
    // And the server carries on.
    EXPECT_EQ(s.client()->Post("/predict", vertex_body({"after"}), "application/json")->status, 200);
}

TEST(ServerBatching, ShutdownDrainsInFlightAndQueuedRequests) {
    ServerOptions o = test_options();
    o.max_batch_size = 2;
    FakeConfig fc;
    fc.delay = 200ms;
    FakeServer s(o, fc);
    constexpr int kClients = 6;
    std::vector<int> status(kClients, 0);
    std::vector<std::string> body(kClients);
    std::vector<std::thread> threads;
    for (int i = 0; i < kClients; ++i) {
        threads.emplace_back([&, i] {
            auto res = s.client()->Post("/predict", vertex_body({"drain " + std::to_string(i)}), "application/json");
            status[i] = res ? res->status : -1;
            if (res) body[i] = res->body;
        });
    }
    std::this_thread::sleep_for(100ms);  // all sent; one batch computing, the rest queued
    const int port = s.port();
    const auto t0 = std::chrono::steady_clock::now();
    s.server->stop();
    EXPECT_LT(std::chrono::steady_clock::now() - t0, 5s);
    for (auto& t : threads) t.join();
    for (int i = 0; i < kClients; ++i) {
        EXPECT_EQ(status[i], 200) << i;
        if (status[i] == 200) EXPECT_EQ(parse(body[i])["predictions"][0]["text"], "drain " + std::to_string(i));
    }
    // No longer accepting.
    httplib::Client c("127.0.0.1", port);
    c.set_connection_timeout(1, 0);
    EXPECT_FALSE(c.Get("/health"));
}

TEST(ServerBatching, GracePeriodOverFailsQueuedWith503) {
    ServerOptions o = test_options();
    o.max_batch_size = 1;
    o.grace_period_s = 0;
    FakeConfig fc;
    fc.delay = 300ms;
    FakeServer s(o, fc);
    std::vector<int> status(3, 0);
    std::vector<std::thread> threads;
    for (int i = 0; i < 3; ++i) {
        threads.emplace_back([&, i] {
            auto res = s.client()->Post("/predict", vertex_body({"g" + std::to_string(i)}), "application/json");
            status[i] = res ? res->status : -1;
        });
    }
    std::this_thread::sleep_for(100ms);
    s.server->stop();
    for (auto& t : threads) t.join();
    int n_ok = 0, n_503 = 0;
    for (int st : status) {
        n_ok += st == 200;
        n_503 += st == 503;
    }
    EXPECT_EQ(n_ok, 1);   // the batch already computing finishes
    EXPECT_EQ(n_503, 2);  // the queued ones are refused
}

}  // namespace
