#include "server/batcher.h"

#include "server/metrics.h"

namespace receipt::server {

PendingRequest::PendingRequest(std::vector<std::string> texts, PredictParams params, Clock::time_point deadline)
    : texts_(std::move(texts)),
      params_(params),
      deadline_(deadline),
      results_(texts_.size()),
      n_pending_(texts_.size()) {}

void PendingRequest::resolve(size_t index, ItemResult result) {
    std::lock_guard lock(mutex_);
    if (index >= results_.size() || results_[index].status != ItemStatus::kPending) return;
    results_[index] = std::move(result);
    if (--n_pending_ == 0) done_.notify_all();
}

bool PendingRequest::wait_until(Clock::time_point until) {
    std::unique_lock lock(mutex_);
    return done_.wait_until(lock, until, [&] { return n_pending_ == 0; });
}

std::vector<ItemResult> PendingRequest::take_results() {
    std::lock_guard lock(mutex_);
    return std::move(results_);
}

Batcher::Batcher(int max_queue_size, int max_batch_size, std::chrono::microseconds max_queue_delay, Metrics& metrics)
    : max_queue_size_(static_cast<size_t>(max_queue_size)),
      max_batch_size_(static_cast<size_t>(max_batch_size)),
      max_queue_delay_(max_queue_delay),
      metrics_(metrics) {}

Batcher::Submit Batcher::submit(const std::shared_ptr<PendingRequest>& request) {
    const size_t n = request->texts().size();
    {
        std::lock_guard lock(mutex_);
        if (closed_) return Submit::kClosed;
        if (queue_.size() + n > max_queue_size_) return Submit::kFull;
        const auto now = Clock::now();
        for (size_t i = 0; i < n; ++i) queue_.push_back(QueuedItem{request, i, now});
        publish_depth_locked();
    }
    work_.notify_all();
    return Submit::kQueued;
}

std::vector<QueuedItem> Batcher::next_batch() {
    std::unique_lock lock(mutex_);
    while (true) {
        if (queue_.empty()) {
            if (shutdown_) return {};
            work_.wait(lock);
            continue;
        }
        if (queue_.size() >= max_batch_size_ || closed_ || shutdown_) break;
        const auto t_flush = queue_.front().t_enqueue + max_queue_delay_;
        if (Clock::now() >= t_flush) break;
        work_.wait_until(lock, t_flush);
    }
    const size_t n = std::min(queue_.size(), max_batch_size_);
    std::vector<QueuedItem> batch(std::make_move_iterator(queue_.begin()),
                                  std::make_move_iterator(queue_.begin() + static_cast<std::ptrdiff_t>(n)));
    queue_.erase(queue_.begin(), queue_.begin() + static_cast<std::ptrdiff_t>(n));
    ++n_in_flight_;
    publish_depth_locked();
    return batch;
}

void Batcher::batch_done() {
    {
        std::lock_guard lock(mutex_);
        --n_in_flight_;
    }
    drained_.notify_all();
}

void Batcher::close() {
    {
        std::lock_guard lock(mutex_);
        closed_ = true;
    }
    work_.notify_all();
}

bool Batcher::wait_drained(Clock::time_point until) {
    std::unique_lock lock(mutex_);
    // Wake periodically too: the queue empties inside next_batch(), which does not notify drained_.
    while (!(queue_.empty() && n_in_flight_ == 0)) {
        if (Clock::now() >= until) return false;
        drained_.wait_until(lock, std::min(until, Clock::now() + std::chrono::milliseconds(10)));
    }
    return true;
}

void Batcher::abort_queued() {
    std::deque<QueuedItem> dropped;
    {
        std::lock_guard lock(mutex_);
        dropped.swap(queue_);
        publish_depth_locked();
    }
    for (auto& item : dropped) {
        item.request->resolve(item.index, ItemResult{ItemStatus::kShuttingDown, "the server is shutting down", {}});
    }
    drained_.notify_all();
}

void Batcher::shutdown() {
    {
        std::lock_guard lock(mutex_);
        closed_ = true;
        shutdown_ = true;
    }
    work_.notify_all();
}

size_t Batcher::depth() const {
    std::lock_guard lock(mutex_);
    return queue_.size();
}

void Batcher::publish_depth_locked() { metrics_.set_queue_depth(static_cast<int64_t>(queue_.size())); }

}  // namespace receipt::server
