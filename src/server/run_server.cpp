// run_server(): the process-level wrapper used by `receipt serve` — signals in, exit status out.
#include <csignal>
#include <thread>

#include "receipt/errors.h"
#include "receipt/server.h"
#include "server/access_log.h"

namespace receipt {

namespace {

volatile std::sig_atomic_t g_stop_signal = 0;

extern "C" void on_stop_signal(int sig) { g_stop_signal = sig; }

// Installs the SIGTERM / SIGINT handlers for its lifetime and restores the previous ones after.
class StopSignals {
  public:
    StopSignals() {
        g_stop_signal = 0;
        struct sigaction sa {};
        sa.sa_handler = on_stop_signal;
        sigemptyset(&sa.sa_mask);
        sigaction(SIGTERM, &sa, &old_term_);
        sigaction(SIGINT, &sa, &old_int_);
    }
    ~StopSignals() {
        sigaction(SIGTERM, &old_term_, nullptr);
        sigaction(SIGINT, &old_int_, nullptr);
    }
    int received() const { return g_stop_signal; }

  private:
    struct sigaction old_term_ {};
    struct sigaction old_int_ {};
};

}  // namespace

int run_server(const ServerOptions& raw_options) {
    ServerOptions options;
    try {
        options = resolve_server_options(raw_options);
    } catch (const InvalidInput& e) {
        server::log_event("error", "invalid server options", {{"error", e.what()}});
        return 2;
    }
    StopSignals signals;
    Server server(options, make_extractor_predictors);
    try {
        server.start();
    } catch (const Error& e) {
        server::log_event("error", "cannot start", {{"error", e.what()}});
        return 1;
    }
    int status = 0;
    while (signals.received() == 0) {
        if (server.load_failed()) {
            status = 3;
            break;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    if (signals.received() != 0) server::log_event("info", "stop signal", {{"signal", signals.received()}});
    server.stop();
    return status;
}

}  // namespace receipt
