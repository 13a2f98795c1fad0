// Submits a prediction request to the batcher and waits for it: the protocol-independent middle of every
// prediction route. No HTTP library here.
#pragma once

#include <atomic>
#include <functional>
#include <vector>

#include "receipt/predictor.h"
#include "receipt/server.h"
#include "server/request_parsing.h"

namespace receipt::server {

class Batcher;
class Metrics;

// Readiness shared by the routes and the lifecycle code.
struct ServerState {
    std::atomic<bool> ready{false};     // predictors loaded and warmed up
    std::atomic<bool> draining{false};  // shutdown started
    std::atomic<bool> load_failed{false};
};

// Thrown when the client disconnected while its request waited.
struct ClientGone {};

class PredictionService {
  public:
    PredictionService(const ServerOptions& options, Batcher& batcher, Metrics& metrics, const ServerState& state);

    // Queues the texts and waits for all of them. Returns one outcome per text, in order. Throws HttpError
    // (503 not ready / shutting down, 429 queue full, 504 deadline, 400 invalid input, 500 internal), or
    // ClientGone when `client_gone` turns true while waiting (it is polled every few milliseconds).
    std::vector<PredictOutcome> run(const PredictionInput& input, const std::function<bool()>& client_gone);

    RequestLimits limits() const;

  private:
    const ServerOptions& options_;
    Batcher& batcher_;
    Metrics& metrics_;
    const ServerState& state_;
};

}  // namespace receipt::server
