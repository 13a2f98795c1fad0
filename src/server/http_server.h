// The HTTP front: binds, routes (Vertex AI, KServe v1/v2, /metrics), authenticates, logs each exchange.
#pragma once

#include <atomic>
#include <memory>
#include <thread>

#include "receipt/server.h"
#include "server/prediction_service.h"

namespace receipt::server {

class Metrics;
class ConnectionServer;
struct Exchange;

class HttpServer {
  public:
    // All references must outlive the HttpServer.
    HttpServer(const ServerOptions& options, Metrics& metrics, PredictionService& service, const ServerState& state);
    ~HttpServer();  // stop() + join()

    // Binds options.host:options.port; returns the bound port. Throws Unavailable on failure.
    int bind();
    // Starts accepting on a background thread; returns once the listener runs.
    void start();
    // Closes the listener (no new connections); idle keep-alive connections close, in-flight requests finish.
    void stop();
    // Waits until the listener thread and every connection thread are done.
    void join();

  private:
    void install_routes();
    void finish_exchange(Exchange& ex);

    const ServerOptions& options_;
    Metrics& metrics_;
    PredictionService& service_;
    const ServerState& state_;
    struct RouteEnvHolder;
    std::unique_ptr<RouteEnvHolder> env_;
    std::unique_ptr<ConnectionServer> http_;
    std::thread thread_;
    std::atomic<bool> listen_done_{false};
};

}  // namespace receipt::server
