// Shared pieces of the route handlers (Vertex AI, KServe v1 and v2 routes, health, metrics).
#pragma once

#include <httplib.h>

#include <functional>
#include <nlohmann/json.hpp>
#include <regex>
#include <string>
#include <utility>
#include <vector>

#include "receipt/server.h"
#include "server/prediction_service.h"

namespace receipt::server {

class Metrics;

// The routes a server answers, by path pattern (httplib's: a regex the whole path must match) and method, so that a
// known path asked with another method gets 405 and an Allow header instead of 404. Filled before the server starts,
// read-only after.
class RouteTable {
  public:
    // http.Get / http.Post, recorded (GET routes also answer HEAD: httplib serves HEAD through them).
    void get(httplib::Server& http, const std::string& pattern, httplib::Server::Handler handler);
    void post(httplib::Server& http, const std::string& pattern, httplib::Server::Handler handler);
    // The methods served at `path`, e.g. "GET, HEAD" or "POST"; "" when no route matches it.
    std::string allowed_methods(const std::string& path) const;

  private:
    std::vector<std::pair<std::regex, std::string>> routes_;  // pattern, methods
};

// What every route handler may use. Outlives the HTTP server.
struct RouteEnv {
    const ServerOptions& options;
    Metrics& metrics;
    PredictionService& service;
    const ServerState& state;
    RouteTable& routes;  // where add_*_routes register
};

// Error bodies: Vertex AI / KServe v1 use {"error": {"code", "message"}}; the Open Inference Protocol (v2)
// specifies {"error": "message"}, to which we add "code".
enum class ErrorStyle { kObject, kV2 };

void send_json(httplib::Response& res, int status, const nlohmann::json& body);
void send_json(httplib::Response& res, int status, const nlohmann::ordered_json& body);
// Sends an error body; adds Retry-After on 429 / 503 and records the code for the access log.
void send_error(httplib::Response& res, const ServerOptions& options, ErrorStyle style, int status,
                const std::string& code, const std::string& message);

// The common flow of a prediction route: parse (may throw HttpError), predict, then respond with the outcomes.
using ParseFn = std::function<PredictionInput(const httplib::Request&)>;
using RespondFn = std::function<nlohmann::ordered_json(const PredictionInput&, std::vector<PredictOutcome>&)>;
void handle_prediction(const RouteEnv& env, const httplib::Request& req, httplib::Response& res, ErrorStyle style,
                       const ParseFn& parse, const RespondFn& respond);

// The Vertex AI / KServe v1 prediction: an {"instances": [...]} body in, predictions_body out.
void handle_instances_prediction(const RouteEnv& env, const httplib::Request& req, httplib::Response& res);

// {"predictions": [{...fields..., "warnings": [...]}, ...]}: the Vertex AI and KServe v1 response body.
nlohmann::ordered_json predictions_body(std::vector<PredictOutcome>& outcomes);

// `s` with regular-expression metacharacters escaped (httplib route patterns are regexes).
std::string regex_escape(const std::string& s);

void add_vertex_routes(httplib::Server& http, const RouteEnv& env);
void add_kserve_routes(httplib::Server& http, const RouteEnv& env);

}  // namespace receipt::server
