#include "server/access_log.h"

#include <chrono>
#include <cstdio>
#include <ctime>
#include <mutex>

namespace receipt::server {

static std::mutex g_log_mutex;

// RFC 3339 UTC with milliseconds: 2024-01-31T12:34:56.789Z
static std::string timestamp() {
    const auto now = std::chrono::system_clock::now();
    const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count() % 1000;
    const std::time_t t = std::chrono::system_clock::to_time_t(now);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[64];
    std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
                  tm.tm_hour, tm.tm_min, tm.tm_sec, static_cast<int>(ms));
    return buf;
}

static void write_line(const nlohmann::json& j) {
    std::string line = j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    line += '\n';
    std::lock_guard lock(g_log_mutex);
    std::fwrite(line.data(), 1, line.size(), stderr);
    std::fflush(stderr);
}

void log_access(const AccessRecord& r) {
    nlohmann::json j = {{"ts", timestamp()},
                        {"level", r.status >= 500 ? "warn" : "info"},
                        {"msg", "access"},
                        {"method", r.method},
                        {"path", r.path},
                        {"status", r.status},
                        {"latency_ms", static_cast<double>(static_cast<int64_t>(r.latency_ms * 1000.0)) / 1000.0},
                        {"bytes_in", r.n_bytes_in},
                        {"bytes_out", r.n_bytes_out},
                        {"remote", r.remote_addr}};
    if (r.n_instances > 0) j["instances"] = r.n_instances;
    if (!r.request_id.empty()) j["request_id"] = r.request_id;
    if (!r.error_code.empty()) j["error"] = r.error_code;
    if (!r.text.is_null()) j["text"] = r.text;
    write_line(j);
}

void log_event(const char* level, const std::string& msg, const nlohmann::json& fields) {
    nlohmann::json j = {{"ts", timestamp()}, {"level", level}, {"msg", msg}};
    if (fields.is_object()) {
        for (auto it = fields.begin(); it != fields.end(); ++it) j[it.key()] = it.value();
    }
    write_line(j);
}

}  // namespace receipt::server
