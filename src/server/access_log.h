// Structured logs: one JSON object per line on stderr (access log lines and server events).
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace receipt::server {

// One finished HTTP request. Receipt text is never part of it unless `text` is set (--log-text).
struct AccessRecord {
    std::string method;
    std::string path;
    int status = 0;
    double latency_ms = 0.0;
    size_t n_bytes_in = 0;
    size_t n_bytes_out = 0;
    int n_instances = 0;
    std::string remote_addr;
    std::string request_id;
    std::string error_code;  // "" on success
    nlohmann::json text;     // null unless --log-text
};

// Writes {"ts":..., "level":"info", "msg":"access", ...} as one line. Thread-safe.
void log_access(const AccessRecord& record);
// Writes {"ts":..., "level":level, "msg":msg, ...fields}. Thread-safe.
void log_event(const char* level, const std::string& msg, const nlohmann::json& fields = nlohmann::json::object());

}  // namespace receipt::server
