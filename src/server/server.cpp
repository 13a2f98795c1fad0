// Server lifecycle: bind and serve at once, load predictors in the background (health is 503 until they are
// warmed up), and on stop() drain the queue within the grace period.
#include "receipt/server.h"

#include <condition_variable>
#include <mutex>
#include <thread>

#include "receipt/errors.h"
#include "server/access_log.h"
#include "server/batcher.h"
#include "server/http_server.h"
#include "server/metrics.h"
#include "server/prediction_service.h"
#include "server/worker.h"

namespace receipt {

using server::Clock;

// A short receipt that exercises tokenizer, encoder, decoder and parser once per worker before serving.
static const char* kWarmupText = "ACME MARKET\n12 Main St\n2024-01-31 12:00\nMILK 1L 2.49\nTOTAL 2.49\nVISA ****1234";

struct Server::Impl {
    explicit Impl(ServerOptions o, PredictorFactory f)
        : options(std::move(o)),
          factory(std::move(f)),
          batcher(options.max_queue_size, options.max_batch_size, std::chrono::microseconds(options.max_queue_delay_us),
                  metrics),
          service(options, batcher, metrics, state),
          http(options, metrics, service, state) {}

    void load();

    const ServerOptions options;
    PredictorFactory factory;
    server::Metrics metrics;
    server::ServerState state;
    server::Batcher batcher;
    server::PredictionService service;
    server::HttpServer http;
    std::vector<std::unique_ptr<server::Worker>> workers;  // written by the loader thread before `ready`
    std::thread loader;
    int port = -1;

    mutable std::mutex mutex;
    mutable std::condition_variable loaded;  // ready or load_failed changed
    std::string load_error;
    bool started = false;
    bool stopped = false;
};

void Server::Impl::load() {
    const auto t0 = Clock::now();
    try {
        std::vector<std::unique_ptr<Predictor>> predictors = factory(options);
        RECEIPT_CHECK(!predictors.empty(), ModelError, "the predictor factory made no predictors");
        PredictParams warmup;
        warmup.max_new_tokens = std::min(16, options.max_new_tokens);
        for (auto& p : predictors) {
            RECEIPT_CHECK(p != nullptr, ModelError, "the predictor factory returned a null predictor");
            p->predict({kWarmupText}, warmup);
        }
        for (size_t i = 0; i < predictors.size(); ++i) {
            server::log_event("info", "worker ready", {{"worker", i}, {"predictor", predictors[i]->describe()}});
            workers.push_back(
                std::make_unique<server::Worker>(static_cast<int>(i), std::move(predictors[i]), batcher, metrics));
            workers.back()->start();
        }
    } catch (const std::exception& e) {
        server::log_event("error", "model load failed", {{"error", e.what()}});
        std::lock_guard lock(mutex);
        load_error = e.what();
        state.load_failed.store(true);
        loaded.notify_all();
        return;
    }
    const double t_load_s = std::chrono::duration<double>(Clock::now() - t0).count();
    metrics.set_model_load_seconds(t_load_s);
    server::log_event("info", "ready", {{"load_seconds", t_load_s}, {"workers", workers.size()}});
    std::lock_guard lock(mutex);
    state.ready.store(true);
    metrics.set_ready(true);
    loaded.notify_all();
}

Server::Server(ServerOptions options, PredictorFactory factory)
    : impl_(std::make_unique<Impl>(resolve_server_options(std::move(options)), std::move(factory))) {}

Server::~Server() { stop(); }

void Server::start() {
    std::lock_guard lock(impl_->mutex);
    RECEIPT_CHECK(!impl_->started, Unavailable, "server already started");
    impl_->port = impl_->http.bind();
    impl_->http.start();
    impl_->started = true;
    server::log_event("info", "listening",
                      {{"host", impl_->options.host},
                       {"port", impl_->port},
                       {"health_route", impl_->options.health_route},
                       {"predict_route", impl_->options.predict_route},
                       {"model_name", impl_->options.model_name},
                       {"auth", !impl_->options.api_key.empty()},
                       {"device", impl_->options.device},
                       {"dtype", impl_->options.dtype},
                       {"max_batch_size", impl_->options.max_batch_size},
                       {"workers", impl_->options.n_workers}});
    impl_->loader = std::thread([this] { impl_->load(); });
}

int Server::port() const { return impl_->port; }

bool Server::wait_ready(std::chrono::milliseconds timeout) const {
    std::unique_lock lock(impl_->mutex);
    impl_->loaded.wait_for(lock, timeout, [&] { return impl_->state.ready.load() || impl_->state.load_failed.load(); });
    return impl_->state.ready.load();
}

bool Server::load_failed() const { return impl_->state.load_failed.load(); }

std::string Server::load_error() const {
    std::lock_guard lock(impl_->mutex);
    return impl_->load_error;
}

const ServerOptions& Server::options() const { return impl_->options; }

void Server::stop() {
    {
        std::lock_guard lock(impl_->mutex);
        if (!impl_->started || impl_->stopped) return;
        impl_->stopped = true;
    }
    Impl& s = *impl_;
    const auto t0 = Clock::now();
    server::log_event("info", "draining",
                      {{"queued", s.batcher.depth()}, {"grace_period_s", s.options.grace_period_s}});
    s.state.draining.store(true);
    s.metrics.set_ready(false);
    s.http.stop();      // no new connections; idle keep-alive connections close
    s.batcher.close();  // no new requests; queued ones are served without waiting for fuller batches
    if (!s.batcher.wait_drained(t0 + std::chrono::seconds(s.options.grace_period_s))) {
        server::log_event("warn", "grace period over, failing queued requests", {{"queued", s.batcher.depth()}});
        s.batcher.abort_queued();
    }
    s.http.join();  // every connection has answered (or its client left)
    s.batcher.shutdown();
    if (s.loader.joinable()) s.loader.join();
    for (auto& w : s.workers) w->join();
    server::log_event("info", "stopped", {{"seconds", std::chrono::duration<double>(Clock::now() - t0).count()}});
}

}  // namespace receipt
