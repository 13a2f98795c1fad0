// The connection layer under cpp-httplib: a keep-alive loop that owns each socket, so a handler can ask
// whether its client is still connected, and per-exchange bookkeeping for logs and metrics.
#pragma once

#include <httplib.h>

#include <chrono>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "server/metrics.h"

namespace receipt::server {

// One request/response exchange on the current connection thread (handlers run on that thread).
struct Exchange {
    bool active = false;  // a request line and headers were read
    int socket = -1;
    std::chrono::steady_clock::time_point t_start;
    std::string method;
    std::string path;
    std::string remote_addr;
    std::string request_id;
    size_t n_bytes_in = 0;
    int status = 0;  // as written (0 when the response could not be written)
    size_t n_bytes_out = 0;
    int n_instances = 0;
    std::string error_code;                // set by send_error
    std::optional<FailureReason> failure;  // set by handlers when the status alone is ambiguous
    nlohmann::json text;                   // receipt texts, only with --log-text
    bool close_connection = false;         // close after this response (e.g. the body was not read)
};

// The exchange being served by the calling thread.
Exchange& current_exchange();

// True when the peer of `sock` has closed its side (or the socket failed). Never blocks.
bool peer_closed(int sock);

// httplib::Server whose connections run our keep-alive loop (see http_connection.cpp).
class ConnectionServer : public httplib::Server {
  public:
    // `on_finish` runs on the connection thread after each exchange's response (logs, metrics).
    explicit ConnectionServer(std::function<void(Exchange&)> on_finish);

    // Sets the listen backlog of the bound socket (call after bind). Returns false on failure.
    bool raise_backlog(int n_backlog);

    // How long a connection accepted during shutdown may take to send its first request.
    void set_shutdown_first_request_timeout(std::chrono::milliseconds t) { shutdown_first_request_timeout_ = t; }

  private:
    bool process_and_close_socket(socket_t sock) override;

    std::function<void(Exchange&)> on_finish_;
    std::chrono::milliseconds shutdown_first_request_timeout_{1000};
};

}  // namespace receipt::server
