#include "server/prediction_service.h"

#include <memory>
#include <thread>

#include "server/batcher.h"
#include "server/metrics.h"

namespace receipt::server {

// How often a waiting handler checks its client's connection.
static constexpr auto kDisconnectPoll = std::chrono::milliseconds(20);

PredictionService::PredictionService(const ServerOptions& options, Batcher& batcher, Metrics& metrics,
                                     const ServerState& state)
    : options_(options), batcher_(batcher), metrics_(metrics), state_(state) {}

RequestLimits PredictionService::limits() const {
    RequestLimits l;
    l.max_instances = options_.max_instances;
    l.default_timeout_ms = options_.default_timeout_ms;
    l.max_timeout_ms = options_.max_timeout_ms;
    l.max_new_tokens = options_.max_new_tokens;
    l.max_beams = options_.max_beams;
    return l;
}

std::vector<PredictOutcome> PredictionService::run(const PredictionInput& input,
                                                   const std::function<bool()>& client_gone) {
    if (state_.draining.load()) throw HttpError(503, "shutting_down", "the server is shutting down");
    if (!state_.ready.load()) throw HttpError(503, "not_ready", "the model is not loaded yet");

    const auto deadline = Clock::now() + std::chrono::milliseconds(input.timeout_ms);
    auto request = std::make_shared<PendingRequest>(input.texts, input.params, deadline);
    switch (batcher_.submit(request)) {
        case Batcher::Submit::kQueued:
            break;
        case Batcher::Submit::kFull:
            throw HttpError(options_.overload_status, "overloaded", "the queue is full, retry later");
        case Batcher::Submit::kClosed:
            throw HttpError(503, "shutting_down", "the server is shutting down");
    }

    while (!request->wait_until(std::min(deadline, Clock::now() + kDisconnectPoll))) {
        if (Clock::now() >= deadline) {
            request->cancel();
            throw HttpError(504, "timeout", "no result within " + std::to_string(input.timeout_ms) + " ms");
        }
        if (client_gone && client_gone()) {
            request->cancel();
            throw ClientGone{};
        }
    }

    std::vector<ItemResult> results = request->take_results();
    // One status for the whole request, the most specific failure first.
    const ItemResult* worst = nullptr;
    auto rank = [](ItemStatus s) {
        switch (s) {
            case ItemStatus::kInvalidInput:
                return 5;
            case ItemStatus::kInternal:
                return 4;
            case ItemStatus::kTimeout:
                return 3;
            case ItemStatus::kShuttingDown:
                return 2;
            case ItemStatus::kCancelled:
                return 1;
            default:
                return 0;
        }
    };
    size_t worst_index = 0;
    for (size_t i = 0; i < results.size(); ++i) {
        if (rank(results[i].status) > (worst ? rank(worst->status) : 0)) {
            worst = &results[i];
            worst_index = i;
        }
    }
    if (worst) {
        const std::string where = results.size() > 1 ? "instance " + std::to_string(worst_index) + ": " : "";
        switch (worst->status) {
            case ItemStatus::kInvalidInput:
                throw HttpError(400, "invalid_input", where + worst->message);
            case ItemStatus::kInternal:
                throw HttpError(500, "internal", where + worst->message);
            case ItemStatus::kTimeout:
                throw HttpError(504, "timeout", where + worst->message);
            case ItemStatus::kShuttingDown:
                throw HttpError(503, "shutting_down", "the server is shutting down");
            default:
                throw HttpError(500, "internal", where + "request cancelled");
        }
    }
    std::vector<PredictOutcome> outcomes;
    outcomes.reserve(results.size());
    for (auto& r : results) outcomes.push_back(std::move(r.outcome));
    return outcomes;
}

}  // namespace receipt::server
