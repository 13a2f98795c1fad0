#include "server/worker.h"

#include <algorithm>
#include <cctype>

#include "receipt/errors.h"
#include "server/access_log.h"
#include "server/metrics.h"

namespace receipt::server {

std::string strip_error_location(const std::string& what) {
    // Matches "<name>:<digits>: " at the start.
    const size_t colon = what.find(':');
    if (colon == std::string::npos || colon == 0) return what;
    size_t i = colon + 1;
    const size_t digits_start = i;
    while (i < what.size() && std::isdigit(static_cast<unsigned char>(what[i]))) ++i;
    if (i == digits_start || i + 1 >= what.size() || what[i] != ':' || what[i + 1] != ' ') return what;
    return what.substr(i + 2);
}

Worker::Worker(int id, std::unique_ptr<Predictor> predictor, Batcher& batcher, Metrics& metrics)
    : id_(id), predictor_(std::move(predictor)), batcher_(batcher), metrics_(metrics) {}

Worker::~Worker() { join(); }

void Worker::start() {
    thread_ = std::thread([this] { run(); });
}

void Worker::join() {
    if (thread_.joinable()) thread_.join();
}

void Worker::run() {
    while (true) {
        std::vector<QueuedItem> batch = batcher_.next_batch();
        if (batch.empty()) return;
        process(std::move(batch));
        batcher_.batch_done();
    }
}

void Worker::process(std::vector<QueuedItem> batch) {
    const auto now = Clock::now();
    // Drop what nobody waits for any more before spending compute on it.
    std::vector<QueuedItem> live;
    live.reserve(batch.size());
    for (auto& item : batch) {
        if (item.request->cancelled()) {
            item.request->resolve(item.index, ItemResult{ItemStatus::kCancelled, "request cancelled", {}});
        } else if (now >= item.request->deadline()) {
            item.request->resolve(item.index, ItemResult{ItemStatus::kTimeout, "deadline exceeded in queue", {}});
        } else {
            metrics_.queue_seconds.observe(std::chrono::duration<double>(now - item.t_enqueue).count());
            live.push_back(std::move(item));
        }
    }
    // Texts of one engine call share generation parameters; group them (usually there is one group).
    while (!live.empty()) {
        const PredictParams params = live.front().request->params();
        std::vector<QueuedItem> group;
        std::vector<QueuedItem> rest;
        for (auto& item : live) {
            (item.request->params() == params ? group : rest).push_back(std::move(item));
        }
        run_group(group, params);
        live = std::move(rest);
    }
}

void Worker::run_group(std::vector<QueuedItem>& items, const PredictParams& params) {
    // Similar lengths in one call waste less padding; byte length is a good enough proxy for token length.
    std::stable_sort(items.begin(), items.end(),
                     [](const QueuedItem& a, const QueuedItem& b) { return a.text().size() < b.text().size(); });
    std::vector<QueuedItem*> ptrs;
    for (auto& item : items) ptrs.push_back(&item);
    predict_and_resolve(ptrs, params, /*per_item_fallback=*/true);
}

void Worker::predict_and_resolve(std::vector<QueuedItem*>& items, const PredictParams& params, bool per_item_fallback) {
    std::vector<std::string> texts;
    texts.reserve(items.size());
    for (const QueuedItem* item : items) texts.push_back(item->text());

    ItemResult failure;
    const auto t0 = Clock::now();
    try {
        std::vector<PredictOutcome> outcomes = predictor_->predict(texts, params);
        metrics_.compute_seconds.observe(std::chrono::duration<double>(Clock::now() - t0).count());
        metrics_.batch_size.observe(static_cast<double>(texts.size()));
        RECEIPT_CHECK(outcomes.size() == texts.size(), Error, "predictor returned a wrong number of outcomes");
        for (size_t i = 0; i < items.size(); ++i) {
            metrics_.add_tokens(outcomes[i].n_input_tokens, outcomes[i].n_output_tokens);
            items[i]->request->resolve(items[i]->index, ItemResult{ItemStatus::kOk, "", std::move(outcomes[i])});
        }
        return;
    } catch (const InvalidInput& e) {
        failure = ItemResult{ItemStatus::kInvalidInput, strip_error_location(e.what()), {}};
    } catch (const std::exception& e) {
        failure = ItemResult{ItemStatus::kInternal, "prediction failed", {}};
        log_event("error", "predict failed", {{"worker", id_}, {"n_texts", texts.size()}, {"error", e.what()}});
    } catch (...) {
        failure = ItemResult{ItemStatus::kInternal, "prediction failed", {}};
        log_event("error", "predict failed", {{"worker", id_}, {"n_texts", texts.size()}});
    }
    if (items.size() > 1 && per_item_fallback) {
        for (QueuedItem* item : items) {
            std::vector<QueuedItem*> one{item};
            predict_and_resolve(one, params, /*per_item_fallback=*/false);
        }
        return;
    }
    for (QueuedItem* item : items) item->request->resolve(item->index, failure);
}

}  // namespace receipt::server
