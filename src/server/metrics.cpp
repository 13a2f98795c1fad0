#include "server/metrics.h"

#include <cmath>
#include <cstdio>

namespace receipt::server {

static constexpr int kNumReasons = static_cast<int>(FailureReason::kInternal) + 1;

// Prometheus wants Go-style floats: integers without a fraction, +Inf spelled out.
static std::string format_double(double v) {
    if (std::isinf(v)) return v > 0 ? "+Inf" : "-Inf";
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.17g", v);
    return buf;
}

Histogram::Histogram(std::vector<double> bounds) : bounds_(std::move(bounds)), counts_(bounds_.size() + 1, 0) {}

void Histogram::observe(double value) {
    size_t i = 0;
    while (i < bounds_.size() && value > bounds_[i]) ++i;
    std::lock_guard lock(mutex_);
    ++counts_[i];
    sum_ += value;
    ++n_;
}

uint64_t Histogram::count() const {
    std::lock_guard lock(mutex_);
    return n_;
}

void Histogram::render(const std::string& name, std::string& out) const {
    std::lock_guard lock(mutex_);
    uint64_t cumulative = 0;
    for (size_t i = 0; i <= bounds_.size(); ++i) {
        cumulative += counts_[i];
        const std::string le = i < bounds_.size() ? format_double(bounds_[i]) : "+Inf";
        out += name + "_bucket{le=\"" + le + "\"} " + std::to_string(cumulative) + "\n";
    }
    out += name + "_sum " + format_double(sum_) + "\n";
    out += name + "_count " + std::to_string(n_) + "\n";
}

const char* failure_reason_name(FailureReason r) {
    switch (r) {
        case FailureReason::kBadRequest:
            return "bad_request";
        case FailureReason::kUnauthorized:
            return "unauthorized";
        case FailureReason::kTooLarge:
            return "too_large";
        case FailureReason::kOverloaded:
            return "overloaded";
        case FailureReason::kNotReady:
            return "not_ready";
        case FailureReason::kShuttingDown:
            return "shutting_down";
        case FailureReason::kTimeout:
            return "timeout";
        case FailureReason::kClientClosed:
            return "client_closed";
        case FailureReason::kInternal:
            return "internal";
    }
    return "internal";
}

static std::vector<double> latency_bounds() {
    return {0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60};
}

Metrics::Metrics()
    : batch_size({1, 2, 4, 8, 16, 32, 64, 128}),
      queue_seconds(latency_bounds()),
      compute_seconds(latency_bounds()),
      request_seconds(latency_bounds()),
      n_failure_(kNumReasons) {}

void Metrics::count_failure(FailureReason r) { n_failure_[static_cast<int>(r)].fetch_add(1); }

uint64_t Metrics::n_failure(FailureReason r) const { return n_failure_[static_cast<int>(r)].load(); }

void Metrics::count_http_response(int status) {
    std::lock_guard lock(http_mutex_);
    ++n_http_[status];
}

void Metrics::set_model_load_seconds(double s) { t_model_load_s_.store(s); }

void Metrics::add_tokens(int64_t n_in, int64_t n_out) {
    n_tokens_in_.fetch_add(n_in, std::memory_order_relaxed);
    n_tokens_out_.fetch_add(n_out, std::memory_order_relaxed);
}

static void header(std::string& out, const char* name, const char* type, const char* help) {
    out += std::string("# HELP ") + name + " " + help + "\n# TYPE " + name + " " + type + "\n";
}

std::string Metrics::render() const {
    std::string out;
    out.reserve(8192);
    header(out, "receipt_requests_success_total", "counter", "Prediction requests answered with 200.");
    out += "receipt_requests_success_total " + std::to_string(n_success_.load()) + "\n";
    header(out, "receipt_requests_failed_total", "counter", "Prediction requests that failed, by reason.");
    for (int i = 0; i < kNumReasons; ++i) {
        out += std::string("receipt_requests_failed_total{reason=\"") +
               failure_reason_name(static_cast<FailureReason>(i)) + "\"} " + std::to_string(n_failure_[i].load()) +
               "\n";
    }
    header(out, "receipt_http_responses_total", "counter", "HTTP responses on every route, by status code.");
    {
        std::lock_guard lock(http_mutex_);
        for (const auto& [status, n] : n_http_) {
            out += "receipt_http_responses_total{code=\"" + std::to_string(status) + "\"} " + std::to_string(n) + "\n";
        }
    }
    header(out, "receipt_queue_depth", "gauge", "Texts waiting in the batcher queue.");
    out += "receipt_queue_depth " + std::to_string(queue_depth_.load()) + "\n";
    header(out, "receipt_ready", "gauge", "1 when the model is loaded and warmed up.");
    out += "receipt_ready " + std::to_string(ready_.load()) + "\n";
    header(out, "receipt_model_load_seconds", "gauge", "Time to load and warm up the model.");
    out += "receipt_model_load_seconds " + format_double(t_model_load_s_.load()) + "\n";
    header(out, "receipt_input_tokens_total", "counter", "Input tokens processed (after truncation).");
    out += "receipt_input_tokens_total " + std::to_string(n_tokens_in_.load()) + "\n";
    header(out, "receipt_output_tokens_total", "counter", "Tokens generated.");
    out += "receipt_output_tokens_total " + std::to_string(n_tokens_out_.load()) + "\n";
    header(out, "receipt_batch_size", "histogram", "Texts per engine call.");
    batch_size.render("receipt_batch_size", out);
    header(out, "receipt_queue_latency_seconds", "histogram", "Per text: time from enqueue to batch start.");
    queue_seconds.render("receipt_queue_latency_seconds", out);
    header(out, "receipt_compute_latency_seconds", "histogram", "Per engine call: model compute time.");
    compute_seconds.render("receipt_compute_latency_seconds", out);
    header(out, "receipt_request_latency_seconds", "histogram", "Per prediction request: total server time.");
    request_seconds.render("receipt_request_latency_seconds", out);
    return out;
}

}  // namespace receipt::server
