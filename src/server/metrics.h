// Prometheus metrics of the server, rendered in the text exposition format (version 0.0.4).
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace receipt::server {

// A cumulative histogram with fixed upper bounds. Thread-safe.
class Histogram {
  public:
    explicit Histogram(std::vector<double> bounds);
    void observe(double value);
    // Appends the _bucket / _sum / _count lines of metric `name`.
    void render(const std::string& name, std::string& out) const;
    uint64_t count() const;

  private:
    std::vector<double> bounds_;
    mutable std::mutex mutex_;
    std::vector<uint64_t> counts_;  // one per bound, plus +Inf; not cumulative
    double sum_ = 0.0;
    uint64_t n_ = 0;
};

// Why a prediction request failed (the `reason` label of receipt_requests_failed_total).
enum class FailureReason {
    kBadRequest,    // 400
    kUnauthorized,  // 401
    kTooLarge,      // 413
    kOverloaded,    // 429 (or 503): queue full
    kNotReady,      // 503: model not loaded yet
    kShuttingDown,  // 503: draining
    kTimeout,       // 504: deadline passed
    kClientClosed,  // the client went away before the answer
    kInternal,      // 500
};
const char* failure_reason_name(FailureReason r);

// All metrics of one server. Thread-safe.
class Metrics {
  public:
    Metrics();

    void count_success() { n_success_.fetch_add(1, std::memory_order_relaxed); }
    void count_failure(FailureReason r);
    void count_http_response(int status);
    void set_queue_depth(int64_t n) { queue_depth_.store(n, std::memory_order_relaxed); }
    void set_ready(bool ready) { ready_.store(ready ? 1 : 0, std::memory_order_relaxed); }
    void set_model_load_seconds(double s);
    void add_tokens(int64_t n_in, int64_t n_out);

    Histogram batch_size;       // texts per engine call
    Histogram queue_seconds;    // per text: enqueue -> taken into a batch
    Histogram compute_seconds;  // per engine call
    Histogram request_seconds;  // per prediction request: headers read -> response ready

    // The whole exposition text.
    std::string render() const;

    uint64_t n_success() const { return n_success_.load(); }
    uint64_t n_failure(FailureReason r) const;

  private:
    std::atomic<uint64_t> n_success_{0};
    std::vector<std::atomic<uint64_t>> n_failure_;
    std::atomic<int64_t> queue_depth_{0};
    std::atomic<int> ready_{0};
    std::atomic<int64_t> n_tokens_in_{0};
    std::atomic<int64_t> n_tokens_out_{0};
    std::atomic<double> t_model_load_s_{0.0};
    mutable std::mutex http_mutex_;
    std::map<int, uint64_t> n_http_;  // status -> responses
};

}  // namespace receipt::server
