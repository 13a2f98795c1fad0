// The only place that reads the serving environment: Vertex AI's AIP_* variables and RECEIPT_API_KEY.
#include <algorithm>
#include <charconv>
#include <cstdlib>

#include "receipt/engine.h"
#include "receipt/errors.h"
#include "receipt/server.h"

namespace receipt {

static int parse_port(const std::string& s, const char* what) {
    int port = -1;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), port);
    RECEIPT_CHECK(ec == std::errc() && end == s.data() + s.size() && port >= 0 && port <= 65535, InvalidInput,
                  std::string(what) + " must be a port number 0..65535, got '" + s + "'");
    return port;
}

static void check_route(const std::string& route, const char* what) {
    RECEIPT_CHECK(!route.empty() && route[0] == '/', InvalidInput,
                  std::string(what) + " must start with '/', got '" + route + "'");
}

static void check_range(int64_t v, int64_t lo, int64_t hi, const char* what) {
    RECEIPT_CHECK(v >= lo && v <= hi, InvalidInput,
                  std::string(what) + " must be in " + std::to_string(lo) + ".." + std::to_string(hi) + ", got " +
                      std::to_string(v));
}

ServerOptions resolve_server_options(ServerOptions o, const std::function<const char*(const char*)>& getenv_fn) {
    auto env = [&](const char* name) -> std::string {
        const char* v = getenv_fn ? getenv_fn(name) : std::getenv(name);
        return v ? std::string(v) : std::string();
    };

    if (o.host.empty()) o.host = env("AIP_MODE").empty() ? "127.0.0.1" : "0.0.0.0";
    if (o.port < 0) {
        const std::string p = env("AIP_HTTP_PORT");
        o.port = p.empty() ? 8080 : parse_port(p, "AIP_HTTP_PORT");
    }
    if (o.health_route.empty()) o.health_route = env("AIP_HEALTH_ROUTE");
    if (o.health_route.empty()) o.health_route = "/health";
    if (o.predict_route.empty()) o.predict_route = env("AIP_PREDICT_ROUTE");
    if (o.predict_route.empty()) o.predict_route = "/predict";
    if (o.model_name.empty()) o.model_name = env("AIP_MODEL_NAME");
    if (o.model_name.empty()) o.model_name = "receipt-t5";
    if (o.api_key.empty()) o.api_key = env("RECEIPT_API_KEY");

    check_range(o.port, 0, 65535, "port");
    check_route(o.health_route, "health route");
    check_route(o.predict_route, "predict route");
    RECEIPT_CHECK(o.health_route != o.predict_route, InvalidInput, "health and predict routes must differ");
    RECEIPT_CHECK(o.model_name.find('/') == std::string::npos, InvalidInput, "model name must not contain '/'");
    RECEIPT_CHECK(o.device == "auto" || o.device == "cpu" || o.device == "cuda", InvalidInput,
                  "device must be auto, cpu or cuda, got '" + o.device + "'");
    check_range(o.n_threads, 0, 1024, "threads");
    const bool on_gpu = o.device == "cuda" || (o.device == "auto" && cuda_available());
    if (o.n_workers == 0) o.n_workers = on_gpu ? kWorkersPerGpu * std::max(1, cuda_device_count()) : 1;
    check_range(o.n_workers, 1, 64, "workers");
    check_range(o.max_input_tokens, 8, 1 << 16, "max input tokens");
    check_range(o.max_new_tokens, 1, 1 << 14, "max new tokens");
    check_range(o.max_beams, 1, 16, "max beams");
    check_range(o.http_threads, 2, 4096, "http threads");
    check_range(o.keep_alive_timeout_s, 1, 3600, "keep-alive timeout");
    check_range(o.read_timeout_s, 1, 3600, "read timeout");
    if (o.max_batch_size == 0)  // by device: the GPU's step time grows slowly with the batch, the CPU's does not
        o.max_batch_size = on_gpu ? kGpuMaxBatchSize : kCpuMaxBatchSize;
    check_range(o.max_batch_size, 1, 4096, "max batch size");
    check_range(o.max_queue_delay_us, 0, 10'000'000, "max queue delay");
    check_range(o.max_queue_size, 1, 1 << 20, "max queue size");
    check_range(o.max_instances, 1, 1 << 16, "max instances");
    RECEIPT_CHECK(o.max_instances <= o.max_queue_size, InvalidInput,
                  "max instances must not exceed max queue size (such a request could never be queued)");
    check_range(o.max_body_bytes, 1024, int64_t{1} << 32, "max body bytes");
    check_range(o.max_timeout_ms, 1, 3'600'000, "max timeout");
    check_range(o.default_timeout_ms, 1, o.max_timeout_ms, "default timeout");
    RECEIPT_CHECK(o.overload_status == 429 || o.overload_status == 503, InvalidInput,
                  "overload status must be 429 or 503");
    check_range(o.retry_after_s, 0, 3600, "retry-after");
    check_range(o.grace_period_s, 0, 3600, "grace period");
    return o;
}

}  // namespace receipt
