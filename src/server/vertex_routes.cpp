// Vertex AI custom-container routes: AIP_HEALTH_ROUTE and AIP_PREDICT_ROUTE.
#include "server/http_routes.h"

namespace receipt::server {

using nlohmann::json;

nlohmann::ordered_json predictions_body(std::vector<PredictOutcome>& outcomes) {
    nlohmann::ordered_json predictions = nlohmann::ordered_json::array();
    for (const auto& o : outcomes) predictions.push_back(prediction_object(o.fields_json));
    return nlohmann::ordered_json{{"predictions", std::move(predictions)}};
}

void handle_instances_prediction(const RouteEnv& env, const httplib::Request& req, httplib::Response& res) {
    handle_prediction(
        env, req, res, ErrorStyle::kObject,
        [&env](const httplib::Request& r) {
            return parse_instances_body(r.body, r.get_header_value("Content-Type"), env.service.limits());
        },
        [](const PredictionInput&, std::vector<PredictOutcome>& outcomes) { return predictions_body(outcomes); });
}

void add_vertex_routes(httplib::Server& http, const RouteEnv& env) {
    env.routes.get(http, regex_escape(env.options.health_route),
                   [&env](const httplib::Request&, httplib::Response& res) {
                       if (env.state.ready.load() && !env.state.draining.load()) {
                           send_json(res, 200, json{{"status", "ok"}});
                           return;
                       }
                       const char* status = env.state.draining.load()      ? "draining"
                                            : env.state.load_failed.load() ? "failed"
                                                                           : "loading";
                       res.set_header("Retry-After", std::to_string(env.options.retry_after_s));
                       send_json(res, 503, json{{"status", status}});
                   });

    env.routes.post(
        http, regex_escape(env.options.predict_route),
        [&env](const httplib::Request& req, httplib::Response& res) { handle_instances_prediction(env, req, res); });
}

}  // namespace receipt::server
