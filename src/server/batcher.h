// The dynamic batcher: one bounded queue of texts shared by every worker. A worker takes up to
// max_batch_size texts at once, or fewer once the oldest text has waited max_queue_delay_us.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "receipt/predictor.h"

namespace receipt::server {

class Metrics;

using Clock = std::chrono::steady_clock;

// How one text of a request ended.
enum class ItemStatus { kPending, kOk, kInvalidInput, kInternal, kTimeout, kCancelled, kShuttingDown };

struct ItemResult {
    ItemStatus status = ItemStatus::kPending;
    std::string message;     // for errors: a client-safe description
    PredictOutcome outcome;  // for kOk
};

// One prediction request in flight: created by the HTTP handler (which waits on it) and resolved text by text
// by the workers. Thread-safe.
class PendingRequest {
  public:
    PendingRequest(std::vector<std::string> texts, PredictParams params, Clock::time_point deadline);

    const std::vector<std::string>& texts() const { return texts_; }
    const PredictParams& params() const { return params_; }
    Clock::time_point deadline() const { return deadline_; }

    // The handler gave up (deadline or client gone): workers drop its texts that were not computed yet.
    void cancel() { cancelled_.store(true); }
    bool cancelled() const { return cancelled_.load(); }

    // Sets the result of text `index` once; the last one wakes the waiter.
    void resolve(size_t index, ItemResult result);
    // Waits until every text is resolved (true) or `until` passes (false).
    bool wait_until(Clock::time_point until);
    // The results; complete once wait_until() returned true.
    std::vector<ItemResult> take_results();

  private:
    std::vector<std::string> texts_;
    PredictParams params_;
    Clock::time_point deadline_;
    std::atomic<bool> cancelled_{false};
    std::mutex mutex_;
    std::condition_variable done_;
    std::vector<ItemResult> results_;
    size_t n_pending_;
};

// One queued text.
struct QueuedItem {
    std::shared_ptr<PendingRequest> request;
    size_t index = 0;
    Clock::time_point t_enqueue;
    const std::string& text() const { return request->texts()[index]; }
};

// Thread-safe bounded queue with batch formation.
class Batcher {
  public:
    Batcher(int max_queue_size, int max_batch_size, std::chrono::microseconds max_queue_delay, Metrics& metrics);

    enum class Submit { kQueued, kFull, kClosed };
    // Queues every text of `request`, or none when they do not all fit (kFull) or the batcher is closed.
    Submit submit(const std::shared_ptr<PendingRequest>& request);

    // Worker side: blocks until a batch is due and returns it (oldest first, at most max_batch_size texts).
    // Returns an empty batch once shut down and empty. Call batch_done() after processing a non-empty batch.
    std::vector<QueuedItem> next_batch();
    void batch_done();

    // Stops accepting new requests (submit() returns kClosed); queued texts are still served, without
    // waiting for fuller batches.
    void close();
    // Waits until nothing is queued or being computed (true), or until `until` (false).
    bool wait_drained(Clock::time_point until);
    // Resolves every queued text with kShuttingDown and empties the queue.
    void abort_queued();
    // Lets the workers exit once the queue is empty.
    void shutdown();

    size_t depth() const;

  private:
    void publish_depth_locked();

    const size_t max_queue_size_;
    const size_t max_batch_size_;
    const std::chrono::microseconds max_queue_delay_;
    Metrics& metrics_;
    mutable std::mutex mutex_;
    std::condition_variable work_;     // workers wait here
    std::condition_variable drained_;  // wait_drained() waits here
    std::deque<QueuedItem> queue_;
    int n_in_flight_ = 0;  // batches being computed
    bool closed_ = false;
    bool shutdown_ = false;
};

}  // namespace receipt::server
