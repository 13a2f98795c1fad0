// The online prediction server: Vertex AI and KServe (v1 and Open Inference Protocol v2) routes over HTTP,
// a dynamic batcher feeding one worker per engine, Prometheus metrics and graceful shutdown.
// The HTTP contract is documented in docs/server.md.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "receipt/engine.h"
#include "receipt/predictor.h"

namespace receipt {

// Default texts per engine call on a GPU and on the CPU (ServerOptions::max_batch_size = 0). H200, shipped model,
// 64 concurrent clients (bench/load/run.sh): 127 / 226 / 246 requests/s at 16 / 32 / 64 (p50 472 / 272 / 256 ms),
// the same at 16 clients. The CPU engine gains little from wide batches, and a wide batch's last text waits for
// the whole batch.
inline constexpr int kGpuMaxBatchSize = 64;
inline constexpr int kCpuMaxBatchSize = 16;
// Workers (engines) per GPU when ServerOptions::n_workers is 0: two overlap one engine's host work (tokenising,
// copy constraints, parsing) with the other's GPU steps (H200, shipped model: 88 -> 103 requests/s at 16 clients,
// level at 1; a third added nothing, bench/results/load-cuda-workers-*-run*.json).
inline constexpr int kWorkersPerGpu = 2;

// Every knob of the server. Fields marked "unset" are filled by resolve_server_options() from the AIP_*
// environment (Vertex AI) and then from the documented default; an explicit value always wins.
struct ServerOptions {
    // Model and engine.
    std::string model_dir;        // "" = default_model_dir() (RECEIPT_MODEL_DIR or the bundled model)
    std::string device = "auto";  // auto | cpu | cuda
    std::string dtype = "fp16-a32";  // CUDA compute precision: fp32 | fp16 | bf16 | fp16-a32 | bf16-a32
    // CUDA fp16 / bf16: sequences that pass a near tie are decoded again in fp32 (EngineOptions); 0 = off.
    float fp32_recheck_margin = 0.0f;
    int n_threads = 0;            // CPU threads per engine; 0 = all cores divided among the workers
    int draft_tokens = kDraftTokensByDevice;  // greedy: prompt-lookup drafts per decode step (EngineOptions)
    int encoder_cache_mib = 64;  // CPU engines: MiB of encoder outputs each keeps for second passes (EngineOptions)
    // Engines (one Extractor each) sharing the queue; 0 = by device: kWorkersPerGpu per GPU on a GPU (worker i
    // on GPU i mod cuda_device_count()), else 1.
    int n_workers = 0;
    int max_input_tokens = 512;   // longest source the engines accept; longer inputs are truncated
    int max_new_tokens = 384;     // default and upper bound of parameters.max_new_tokens
    int max_beams = 4;            // upper bound of parameters.num_beams

    // Network. Unset: host = 0.0.0.0 when AIP_MODE is set, else 127.0.0.1; port = AIP_HTTP_PORT or 8080.
    std::string host;              // unset = ""
    int port = -1;                 // unset = -1; 0 = an ephemeral port (see Server::port())
    std::string health_route;      // unset = ""; AIP_HEALTH_ROUTE or /health
    std::string predict_route;     // unset = ""; AIP_PREDICT_ROUTE or /predict
    std::string model_name;        // unset = ""; AIP_MODEL_NAME or receipt-t5 (KServe routes)
    std::string api_key;           // unset = ""; RECEIPT_API_KEY or none (no authentication)
    int http_threads = 128;        // connection threads (each open connection holds one)
    int keep_alive_timeout_s = 5;  // idle keep-alive connections are closed after this
    int read_timeout_s = 30;       // socket read / write timeout

    // Batching and limits.
    // Texts per engine call; 0 = by device: kGpuMaxBatchSize on a GPU (device cuda, or auto with a usable GPU),
    // else kCpuMaxBatchSize.
    int max_batch_size = 0;
    int max_queue_delay_us = 2000;     // how long the first queued text waits for a fuller batch
    int max_queue_size = 256;          // queued texts (all requests together); beyond this: overload_status
    int max_instances = 64;            // texts per request
    int64_t max_body_bytes = 1572864;  // 1.5 MiB; larger bodies get 413
    int default_timeout_ms = 30000;    // per-request deadline when parameters.timeout_ms is absent
    int max_timeout_ms = 300000;       // upper bound of parameters.timeout_ms
    int overload_status = 429;         // status for a full queue: 429 or 503 (both carry Retry-After)
    int retry_after_s = 1;             // Retry-After seconds on 429 / 503
    int grace_period_s = 25;           // on shutdown: how long queued and in-flight requests may finish

    // Logging.
    bool access_log = true;  // one JSON line per request on stderr
    bool log_text = false;   // include receipt texts in the access log (off: they may hold PII)
};

// Fills the unset fields of `options` from the environment (`getenv`, std::getenv by default) and defaults.
// This is the only place that reads AIP_* and RECEIPT_API_KEY. Throws InvalidInput for invalid values.
ServerOptions resolve_server_options(ServerOptions options,
                                     const std::function<const char*(const char*)>& getenv = nullptr);

// Creates the predictors (one per worker). Runs on a background thread while the server already answers
// health checks with 503; may throw (ModelError, Unavailable), which keeps the server unready.
using PredictorFactory = std::function<std::vector<std::unique_ptr<Predictor>>(const ServerOptions&)>;

// The predictors run_server() uses: loads the model once and makes `n_workers` Extractors over it.
std::vector<std::unique_ptr<Predictor>> make_extractor_predictors(const ServerOptions& options);

// An HTTP server over a set of predictors. start/stop/wait_ready/port are thread-safe.
class Server {
  public:
    // `options` are resolved with resolve_server_options() (so unset fields read the environment).
    Server(ServerOptions options, PredictorFactory factory);
    ~Server();  // stop()s when still running
    Server(const Server&) = delete;
    Server& operator=(const Server&) = delete;

    // Binds and starts serving; returns at once while the predictors load in the background.
    // Throws Unavailable when the address cannot be bound.
    void start();
    // The bound port (after start()).
    int port() const;
    // Waits until the predictors are loaded and warmed up: true when ready, false on timeout or load failure.
    bool wait_ready(std::chrono::milliseconds timeout) const;
    // True once loading has failed (the server stays unready); load_error() says why.
    bool load_failed() const;
    std::string load_error() const;
    // Graceful shutdown: stop accepting, let queued and in-flight requests finish within grace_period_s
    // (the rest get 503), close connections, stop the workers. Idempotent; blocks until done.
    void stop();
    // The options in effect (after resolution).
    const ServerOptions& options() const;

  private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

// Runs a server with make_extractor_predictors() until SIGTERM or SIGINT, then drains and returns.
// Returns the process exit status: 0 after a clean shutdown, 2 for invalid options, 3 when the model fails
// to load, 1 when the address cannot be bound.
int run_server(const ServerOptions& options);

}  // namespace receipt
