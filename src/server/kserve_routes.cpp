// KServe routes: the v1 protocol (/v1/models/NAME[:predict]) and the Open Inference Protocol v2
// (/v2/health/*, /v2/models/NAME[/versions/V][/ready|/infer]). Bodies of v1 predict match Vertex AI's.
#include "server/http_routes.h"

namespace receipt::server {

using nlohmann::json;

static constexpr const char* kModelVersion = "1";

static bool is_ready(const RouteEnv& env) { return env.state.ready.load() && !env.state.draining.load(); }

// Sends 404 and returns false when the path names another model.
static bool check_model(const RouteEnv& env, const httplib::Request& req, httplib::Response& res, ErrorStyle style) {
    if (req.matches.size() >= 2 && req.matches[1].str() == env.options.model_name) return true;
    send_error(res, env.options, style, 404, "model_not_found",
               "model '" + (req.matches.size() >= 2 ? req.matches[1].str() : std::string()) + "' is not served here");
    return false;
}

static void add_v1_routes(httplib::Server& http, const RouteEnv& env) {
    env.routes.get(http, "/v1/models", [&env](const httplib::Request&, httplib::Response& res) {
        send_json(res, 200, json{{"models", json::array({env.options.model_name})}});
    });
    env.routes.get(http, R"(/v1/models/([^/:]+))", [&env](const httplib::Request& req, httplib::Response& res) {
        if (!check_model(env, req, res, ErrorStyle::kObject)) return;
        const bool ready = is_ready(env);
        send_json(res, ready ? 200 : 503, json{{"name", env.options.model_name}, {"ready", ready}});
    });
    env.routes.post(http, R"(/v1/models/([^/:]+):predict)",
                    [&env](const httplib::Request& req, httplib::Response& res) {
                        if (check_model(env, req, res, ErrorStyle::kObject)) handle_instances_prediction(env, req, res);
                    });
}

static json v2_model_metadata(const RouteEnv& env) {
    return json{{"name", env.options.model_name},
                {"versions", json::array({kModelVersion})},
                {"platform", "receipt-engine"},
                {"inputs", json::array({{{"name", "text"}, {"datatype", "BYTES"}, {"shape", json::array({-1})}}})},
                {"outputs", json::array({{{"name", "fields"}, {"datatype", "BYTES"}, {"shape", json::array({-1})}}})}};
}

static void add_v2_routes(httplib::Server& http, const RouteEnv& env) {
    env.routes.get(http, "/v2", [](const httplib::Request&, httplib::Response& res) {
        send_json(res, 200, json{{"name", "receipt-engine"}, {"version", "0.1.0"}, {"extensions", json::array()}});
    });
    env.routes.get(http, "/v2/health/live", [](const httplib::Request&, httplib::Response& res) {
        send_json(res, 200, json{{"live", true}});
    });
    env.routes.get(http, "/v2/health/ready", [&env](const httplib::Request&, httplib::Response& res) {
        const bool ready = is_ready(env);
        if (!ready) res.set_header("Retry-After", std::to_string(env.options.retry_after_s));
        send_json(res, ready ? 200 : 503, json{{"ready", ready}});
    });
    const std::string model = R"(/v2/models/([^/]+)(?:/versions/[^/]+)?)";
    env.routes.get(http, model, [&env](const httplib::Request& req, httplib::Response& res) {
        if (!check_model(env, req, res, ErrorStyle::kV2)) return;
        send_json(res, 200, v2_model_metadata(env));
    });
    env.routes.get(http, model + "/ready", [&env](const httplib::Request& req, httplib::Response& res) {
        if (!check_model(env, req, res, ErrorStyle::kV2)) return;
        const bool ready = is_ready(env);
        send_json(res, ready ? 200 : 503, json{{"name", env.options.model_name}, {"ready", ready}});
    });
    env.routes.post(http, model + "/infer", [&env](const httplib::Request& req, httplib::Response& res) {
        if (!check_model(env, req, res, ErrorStyle::kV2)) return;
        handle_prediction(
            env, req, res, ErrorStyle::kV2,
            [&env](const httplib::Request& r) { return parse_v2_infer_body(r.body, env.service.limits()); },
            [&env](const PredictionInput& input, std::vector<PredictOutcome>& outcomes) {
                using ojson = nlohmann::ordered_json;
                ojson data = ojson::array();
                for (const auto& o : outcomes) {
                    data.push_back(
                        prediction_object(o.fields_json).dump(-1, ' ', false, ojson::error_handler_t::replace));
                }
                ojson body = {{"model_name", env.options.model_name}, {"model_version", kModelVersion}};
                if (!input.request_id.is_null()) body["id"] = input.request_id.get<std::string>();
                body["outputs"] = ojson::array({{{"name", input.output_name},
                                                 {"datatype", "BYTES"},
                                                 {"shape", ojson::array({outcomes.size()})},
                                                 {"data", std::move(data)}}});
                return body;
            });
    });
}

void add_kserve_routes(httplib::Server& http, const RouteEnv& env) {
    add_v1_routes(http, env);
    add_v2_routes(http, env);
}

}  // namespace receipt::server
