// A worker thread: owns one Predictor (one engine), takes batches from the shared Batcher and resolves them.
#pragma once

#include <memory>
#include <thread>

#include "receipt/predictor.h"
#include "server/batcher.h"

namespace receipt::server {

class Metrics;

class Worker {
  public:
    Worker(int id, std::unique_ptr<Predictor> predictor, Batcher& batcher, Metrics& metrics);
    ~Worker();  // joins
    Worker(const Worker&) = delete;
    Worker& operator=(const Worker&) = delete;

    // Starts the thread; it runs until the batcher is shut down and empty.
    void start();
    void join();

    // Processes one batch on the calling thread (the thread's loop body; exposed for tests).
    void process(std::vector<QueuedItem> batch);

  private:
    void run();
    // Runs the predictor over `items` (same params) and resolves them; a failing call is retried text by text
    // so one bad text cannot fail the others.
    void run_group(std::vector<QueuedItem>& items, const PredictParams& params);
    void predict_and_resolve(std::vector<QueuedItem*>& items, const PredictParams& params, bool per_item_fallback);

    int id_;
    std::unique_ptr<Predictor> predictor_;
    Batcher& batcher_;
    Metrics& metrics_;
    std::thread thread_;
};

// "file.cpp:12: message" -> "message" (receipt::Error prefixes the location; clients get the message only).
std::string strip_error_location(const std::string& what);

}  // namespace receipt::server
