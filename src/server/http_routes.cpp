#include "server/http_routes.h"

#include "server/access_log.h"
#include "server/http_connection.h"
#include "server/metrics.h"

namespace receipt::server {

using nlohmann::json;

void send_json(httplib::Response& res, int status, const json& body) {
    res.status = status;
    res.set_content(body.dump(-1, ' ', false, json::error_handler_t::replace), "application/json");
}

void send_json(httplib::Response& res, int status, const nlohmann::ordered_json& body) {
    res.status = status;
    res.set_content(body.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace), "application/json");
}

void send_error(httplib::Response& res, const ServerOptions& options, ErrorStyle style, int status,
                const std::string& code, const std::string& message) {
    current_exchange().error_code = code;
    if (status == 429 || status == 503) res.set_header("Retry-After", std::to_string(options.retry_after_s));
    if (style == ErrorStyle::kV2) {
        send_json(res, status, json{{"error", message}, {"code", code}});
    } else {
        send_json(res, status, json{{"error", {{"code", code}, {"message", message}}}});
    }
}

static FailureReason reason_of(const HttpError& e) {
    if (e.code() == "not_ready") return FailureReason::kNotReady;
    if (e.code() == "shutting_down") return FailureReason::kShuttingDown;
    if (e.code() == "overloaded") return FailureReason::kOverloaded;
    if (e.code() == "timeout") return FailureReason::kTimeout;
    if (e.status() == 400) return FailureReason::kBadRequest;
    return FailureReason::kInternal;
}

void handle_prediction(const RouteEnv& env, const httplib::Request& req, httplib::Response& res, ErrorStyle style,
                       const ParseFn& parse, const RespondFn& respond) {
    Exchange& ex = current_exchange();
    try {
        PredictionInput input = parse(req);
        ex.n_instances = static_cast<int>(input.texts.size());
        if (env.options.log_text) ex.text = input.texts;
        std::vector<PredictOutcome> outcomes = env.service.run(input, [sock = ex.socket] { return peer_closed(sock); });
        send_json(res, 200, respond(input, outcomes));
    } catch (const HttpError& e) {
        ex.failure = reason_of(e);
        send_error(res, env.options, style, e.status(), e.code(), e.what());
    } catch (const ClientGone&) {
        // Nobody reads this; 499 (nginx's "client closed request") marks it in the access log.
        ex.failure = FailureReason::kClientClosed;
        ex.error_code = "client_closed";
        res.status = 499;
    } catch (const std::exception& e) {
        ex.failure = FailureReason::kInternal;
        log_event("error", "prediction route failed", {{"path", req.path}, {"error", e.what()}});
        send_error(res, env.options, style, 500, "internal", "internal error");
    }
}

void RouteTable::get(httplib::Server& http, const std::string& pattern, httplib::Server::Handler handler) {
    http.Get(pattern, std::move(handler));
    routes_.emplace_back(std::regex(pattern), "GET, HEAD");
}

void RouteTable::post(httplib::Server& http, const std::string& pattern, httplib::Server::Handler handler) {
    http.Post(pattern, std::move(handler));
    routes_.emplace_back(std::regex(pattern), "POST");
}

std::string RouteTable::allowed_methods(const std::string& path) const {
    std::string allowed;
    for (const auto& [re, methods] : routes_) {
        if (!std::regex_match(path, re) || allowed.find(methods) != std::string::npos) continue;
        allowed += (allowed.empty() ? "" : ", ") + methods;
    }
    return allowed;
}

std::string regex_escape(const std::string& s) {
    static const std::string kSpecial = R"(\^$.|?*+()[]{}-)";
    std::string out;
    for (char c : s) {
        if (kSpecial.find(c) != std::string::npos) out += '\\';
        out += c;
    }
    return out;
}

}  // namespace receipt::server
