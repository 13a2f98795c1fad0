#include "server/http_server.h"

#include <sys/socket.h>

#include "receipt/errors.h"
#include "server/access_log.h"
#include "server/http_connection.h"
#include "server/http_routes.h"
#include "server/metrics.h"

namespace receipt::server {

using nlohmann::json;

struct HttpServer::RouteEnvHolder {
    RouteEnvHolder(const ServerOptions& o, Metrics& m, PredictionService& s, const ServerState& st)
        : env{o, m, s, st, routes} {}
    RouteTable routes;  // before env, which refers to it
    RouteEnv env;
};

// Compares two secrets in time that depends only on their lengths, not on where they differ.
static bool constant_time_equal(const std::string& a, const std::string& b) {
    const size_t n = std::max(a.size(), b.size());
    unsigned char diff = a.size() == b.size() ? 0 : 1;
    for (size_t i = 0; i < n; ++i) {
        const unsigned char x = i < a.size() ? static_cast<unsigned char>(a[i]) : 0;
        const unsigned char y = i < b.size() ? static_cast<unsigned char>(b[i]) : 0;
        diff |= static_cast<unsigned char>(x ^ y);
    }
    return diff == 0;
}

static bool is_prediction_path(const std::string& path, const ServerOptions& o) {
    auto ends_with = [&](const std::string& suffix) {
        return path.size() >= suffix.size() && path.compare(path.size() - suffix.size(), suffix.size(), suffix) == 0;
    };
    return path == o.predict_route || (path.rfind("/v1/models/", 0) == 0 && ends_with(":predict")) ||
           (path.rfind("/v2/models/", 0) == 0 && ends_with("/infer"));
}

// Health probes come from the platform without credentials.
static bool is_probe_path(const std::string& path, const ServerOptions& o) {
    return path == o.health_route || path == "/v2/health/live" || path == "/v2/health/ready";
}

static FailureReason reason_of_status(int status) {
    switch (status) {
        case 400:
        case 404:  // another model's name on a prediction route
        case 405:  // a prediction route asked with GET
            return FailureReason::kBadRequest;
        case 401:
            return FailureReason::kUnauthorized;
        case 413:
            return FailureReason::kTooLarge;
        case 429:
            return FailureReason::kOverloaded;
        case 503:
            return FailureReason::kNotReady;
        case 504:
            return FailureReason::kTimeout;
        case 499:
            return FailureReason::kClientClosed;
        default:
            return FailureReason::kInternal;
    }
}

HttpServer::HttpServer(const ServerOptions& options, Metrics& metrics, PredictionService& service,
                       const ServerState& state)
    : options_(options),
      metrics_(metrics),
      service_(service),
      state_(state),
      env_(std::make_unique<RouteEnvHolder>(options, metrics, service, state)),
      http_(std::make_unique<ConnectionServer>([this](Exchange& ex) { finish_exchange(ex); })) {
    const int n_threads = options.http_threads;
    http_->new_task_queue = [n_threads] { return new httplib::ThreadPool(static_cast<size_t>(n_threads)); };
    // httplib's default also sets SO_REUSEPORT, which lets a second server bind the same port and silently
    // take half of the connections; SO_REUSEADDR alone still allows quick restarts.
    http_->set_socket_options([](socket_t sock) {
        int yes = 1;
        ::setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
    });
    // httplib writes a response's headers and body in separate send() calls; with Nagle's algorithm the body
    // then waits for the client's delayed ACK of the headers (40 ms on Linux) on every keep-alive request.
    http_->set_tcp_nodelay(true);
    http_->set_payload_max_length(static_cast<size_t>(options.max_body_bytes));
    http_->set_keep_alive_max_count(1000);
    http_->set_keep_alive_timeout(options.keep_alive_timeout_s);
    http_->set_read_timeout(options.read_timeout_s, 0);
    http_->set_write_timeout(options.read_timeout_s, 0);
    install_routes();
}

HttpServer::~HttpServer() {
    stop();
    join();
}

void HttpServer::install_routes() {
    const ServerOptions& o = options_;
    const RouteEnv& env = env_->env;

    http_->set_pre_routing_handler([&o](const httplib::Request& req, httplib::Response& res) {
        Exchange& ex = current_exchange();
        ex.request_id = req.get_header_value("X-Request-Id");
        if (!ex.request_id.empty()) res.set_header("X-Request-Id", ex.request_id);
        if (o.api_key.empty() || is_probe_path(req.path, o)) return httplib::Server::HandlerResponse::Unhandled;
        std::string presented = req.get_header_value("x-api-key");
        const std::string auth = req.get_header_value("Authorization");
        if (presented.empty() && auth.size() > 7 && auth.compare(0, 7, "Bearer ") == 0) presented = auth.substr(7);
        if (!presented.empty() && constant_time_equal(presented, o.api_key)) {
            return httplib::Server::HandlerResponse::Unhandled;
        }
        res.set_header("WWW-Authenticate", "Bearer");
        // The body was not read: the connection cannot carry another request.
        ex.close_connection = true;
        const ErrorStyle style = req.path.rfind("/v2", 0) == 0 ? ErrorStyle::kV2 : ErrorStyle::kObject;
        send_error(res, o, style, 401, "unauthorized", "missing or invalid API key");
        return httplib::Server::HandlerResponse::Handled;
    });

    add_vertex_routes(*http_, env);
    add_kserve_routes(*http_, env);

    env_->routes.get(*http_, "/metrics", [this](const httplib::Request&, httplib::Response& res) {
        res.status = 200;
        res.set_content(metrics_.render(), "text/plain; version=0.0.4; charset=utf-8");
    });

    // Errors raised inside httplib (404 route, 413 body, 400 unparsable request) get a JSON body too; a known path
    // asked with another method is 405 with the methods it serves.
    const RouteTable& routes = env_->routes;
    http_->set_error_handler(
        httplib::Server::HandlerWithResponse([&o, &routes](const httplib::Request& req, httplib::Response& res) {
            if (!res.body.empty()) return httplib::Server::HandlerResponse::Unhandled;
            const ErrorStyle style = req.path.rfind("/v2", 0) == 0 ? ErrorStyle::kV2 : ErrorStyle::kObject;
            switch (res.status) {
                case 404:
                    if (const std::string allowed = routes.allowed_methods(req.path); !allowed.empty()) {
                        res.set_header("Allow", allowed);
                        send_error(res, o, style, 405, "method_not_allowed",
                                   req.method + " is not served at " + req.path + " (allowed: " + allowed + ")");
                    } else {
                        send_error(res, o, style, 404, "not_found", "no route " + req.method + " " + req.path);
                    }
                    break;
                case 413:
                    send_error(res, o, style, 413, "payload_too_large",
                               "request body larger than " + std::to_string(o.max_body_bytes) + " bytes");
                    break;
                case 499:
                    return httplib::Server::HandlerResponse::Unhandled;
                default:
                    send_error(res, o, style, res.status, "http_error", "request failed");
                    break;
            }
            return httplib::Server::HandlerResponse::Handled;
        }));

    http_->set_exception_handler([&o](const httplib::Request& req, httplib::Response& res, std::exception_ptr ep) {
        std::string what = "unknown";
        try {
            if (ep) std::rethrow_exception(ep);
        } catch (const std::exception& e) {
            what = e.what();
        } catch (...) {
        }
        log_event("error", "handler threw", {{"path", req.path}, {"error", what}});
        send_error(res, o, ErrorStyle::kObject, 500, "internal", "internal error");
    });

    http_->set_logger([](const httplib::Request& req, const httplib::Response& res) {
        Exchange& ex = current_exchange();
        ex.status = res.status;
        ex.n_bytes_out = res.body.size();
        ex.n_bytes_in = req.body.size();
        ex.remote_addr = req.remote_addr;
    });
}

void HttpServer::finish_exchange(Exchange& ex) {
    const double t_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - ex.t_start).count();
    // A response that could not be written: the client is gone.
    if (ex.status == 0) ex.status = 499;
    metrics_.count_http_response(ex.status);
    if (is_prediction_path(ex.path, options_)) {
        metrics_.request_seconds.observe(t_s);
        if (ex.status == 200) {
            metrics_.count_success();
        } else {
            metrics_.count_failure(ex.failure ? *ex.failure : reason_of_status(ex.status));
        }
    }
    if (options_.access_log) {
        AccessRecord r;
        r.method = ex.method;
        r.path = ex.path;
        r.status = ex.status;
        r.latency_ms = t_s * 1000.0;
        r.n_bytes_in = ex.n_bytes_in;
        r.n_bytes_out = ex.n_bytes_out;
        r.n_instances = ex.n_instances;
        r.remote_addr = ex.remote_addr;
        r.request_id = ex.request_id;
        r.error_code = ex.error_code;
        r.text = ex.text;
        log_access(r);
    }
}

int HttpServer::bind() {
    int port = -1;
    if (options_.port == 0) {
        port = http_->bind_to_any_port(options_.host);
    } else if (http_->bind_to_port(options_.host, options_.port)) {
        port = options_.port;
    }
    RECEIPT_CHECK(port > 0, Unavailable,
                  "cannot listen on " + options_.host + ":" + std::to_string(options_.port) + " (address in use?)");
    if (!http_->raise_backlog(SOMAXCONN)) log_event("warn", "could not raise the listen backlog");
    return port;
}

void HttpServer::start() {
    listen_done_.store(false);
    thread_ = std::thread([this] {
        http_->listen_after_bind();
        listen_done_.store(true);
    });
    // stop() only works once the listener runs.
    while (!http_->is_running() && !listen_done_.load()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
}

void HttpServer::stop() { http_->stop(); }

void HttpServer::join() {
    if (thread_.joinable()) thread_.join();
}

}  // namespace receipt::server
