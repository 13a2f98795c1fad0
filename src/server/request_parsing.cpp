#include "server/request_parsing.h"

#include <algorithm>
#include <cctype>

#include "extract/input_text.h"

namespace receipt::server {

using nlohmann::json;

static HttpError bad_request(const std::string& code, const std::string& message) {
    return HttpError(400, code, message);
}

bool is_valid_utf8(std::string_view s) {
    const auto* p = reinterpret_cast<const unsigned char*>(s.data());
    const size_t n = s.size();
    size_t i = 0;
    while (i < n) {
        const unsigned char c = p[i];
        if (c < 0x80) {
            ++i;
            continue;
        }
        int len = 0;
        unsigned char lo = 0x80, hi = 0xBF;  // allowed range of the second byte
        if (c >= 0xC2 && c <= 0xDF) {
            len = 2;
        } else if (c >= 0xE0 && c <= 0xEF) {
            len = 3;
            if (c == 0xE0) lo = 0xA0;  // overlong
            if (c == 0xED) hi = 0x9F;  // surrogates
        } else if (c >= 0xF0 && c <= 0xF4) {
            len = 4;
            if (c == 0xF0) lo = 0x90;  // overlong
            if (c == 0xF4) hi = 0x8F;  // above U+10FFFF
        } else {
            return false;
        }
        if (i + static_cast<size_t>(len) > n) return false;
        if (p[i + 1] < lo || p[i + 1] > hi) return false;
        for (int k = 2; k < len; ++k) {
            if ((p[i + k] & 0xC0) != 0x80) return false;
        }
        i += static_cast<size_t>(len);
    }
    return true;
}

// Whether the text holds nothing the model would read: whitespace, a byte order mark, zero-width or control
// characters alone (extract/input_text.h). `s` is valid UTF-8.
static bool is_blank(const std::string& s) { return extract::model_input_text(s).empty(); }

static void check_text(const std::string& text, size_t index) {
    if (!is_valid_utf8(text)) {
        throw bad_request("invalid_utf8", "instance " + std::to_string(index) + ": text is not valid UTF-8");
    }
    if (is_blank(text)) throw bad_request("empty_text", "instance " + std::to_string(index) + ": text is empty");
}

static void check_count(size_t n, const RequestLimits& limits) {
    if (n == 0) throw bad_request("missing_instances", "no instances given");
    if (n > static_cast<size_t>(limits.max_instances)) {
        throw bad_request("too_many_instances", std::to_string(n) + " instances given, at most " +
                                                    std::to_string(limits.max_instances) + " allowed");
    }
}

static json parse_json(const std::string& body) {
    if (!is_valid_utf8(body)) throw bad_request("invalid_utf8", "request body is not valid UTF-8");
    try {
        return json::parse(body);
    } catch (const json::parse_error& e) {
        // Not e.what(): it quotes the text around the error, which may be receipt text.
        throw bad_request("invalid_json", "malformed JSON near byte " + std::to_string(e.byte));
    } catch (const json::exception&) {
        throw bad_request("invalid_json", "malformed JSON");
    }
}

static int int_parameter(const json& v, const char* name, int lo, int hi) {
    if (!v.is_number_integer()) throw bad_request("invalid_parameter", std::string(name) + " must be an integer");
    const int64_t x = v.get<int64_t>();
    if (x < lo || x > hi) {
        throw bad_request("invalid_parameter", std::string(name) + " must be in " + std::to_string(lo) + ".." +
                                                   std::to_string(hi) + ", got " + std::to_string(x));
    }
    return static_cast<int>(x);
}

void parse_parameters(const json& parameters, const RequestLimits& limits, PredictionInput& input) {
    input.timeout_ms = limits.default_timeout_ms;
    if (parameters.is_null()) return;
    if (!parameters.is_object()) throw bad_request("invalid_parameter", "parameters must be an object");
    if (auto it = parameters.find("timeout_ms"); it != parameters.end()) {
        input.timeout_ms = int_parameter(*it, "timeout_ms", 1, limits.max_timeout_ms);
    }
    if (auto it = parameters.find("truncate"); it != parameters.end()) {
        if (!it->is_boolean()) throw bad_request("invalid_parameter", "truncate must be a boolean");
        input.params.truncate = it->get<bool>();
    }
    if (auto it = parameters.find("max_new_tokens"); it != parameters.end()) {
        input.params.max_new_tokens = int_parameter(*it, "max_new_tokens", 1, limits.max_new_tokens);
    }
    if (auto it = parameters.find("num_beams"); it != parameters.end()) {
        input.params.num_beams = int_parameter(*it, "num_beams", 1, limits.max_beams);
    }
}

static bool is_text_plain(const std::string& content_type) {
    std::string ct = content_type.substr(0, content_type.find(';'));
    std::transform(ct.begin(), ct.end(), ct.begin(), [](unsigned char c) { return std::tolower(c); });
    while (!ct.empty() && std::isspace(static_cast<unsigned char>(ct.back()))) ct.pop_back();
    return ct == "text/plain";
}

PredictionInput parse_instances_body(const std::string& body, const std::string& content_type,
                                     const RequestLimits& limits) {
    PredictionInput input;
    if (is_text_plain(content_type)) {
        check_text(body, 0);
        input.texts.push_back(body);
        parse_parameters(json(), limits, input);
        return input;
    }
    const json j = parse_json(body);
    if (!j.is_object()) throw bad_request("invalid_request", "body must be a JSON object with \"instances\"");
    const auto it = j.find("instances");
    if (it == j.end()) throw bad_request("missing_instances", "\"instances\" is missing");
    if (!it->is_array()) throw bad_request("invalid_request", "\"instances\" must be an array");
    check_count(it->size(), limits);
    input.texts.reserve(it->size());
    for (size_t i = 0; i < it->size(); ++i) {
        const json& inst = (*it)[i];
        const json* text = &inst;
        if (inst.is_object()) {
            const auto t = inst.find("text");
            if (t == inst.end()) {
                throw bad_request("invalid_request", "instance " + std::to_string(i) + ": \"text\" is missing");
            }
            text = &*t;
        }
        if (!text->is_string()) {
            throw bad_request("invalid_request",
                              "instance " + std::to_string(i) + ": expected a string or {\"text\": string}");
        }
        input.texts.push_back(text->get<std::string>());
        check_text(input.texts.back(), i);
    }
    const auto params = j.find("parameters");
    parse_parameters(params == j.end() ? json() : *params, limits, input);
    return input;
}

// Flattens nested arrays of strings (row-major) into `out`.
static void flatten_strings(const json& data, std::vector<std::string>& out) {
    if (data.is_array()) {
        for (const json& e : data) flatten_strings(e, out);
    } else if (data.is_string()) {
        out.push_back(data.get<std::string>());
    } else {
        throw bad_request("invalid_request", "BYTES tensor data must hold strings");
    }
}

PredictionInput parse_v2_infer_body(const std::string& body, const RequestLimits& limits) {
    PredictionInput input;
    const json j = parse_json(body);
    if (!j.is_object()) throw bad_request("invalid_request", "body must be a JSON object with \"inputs\"");
    if (auto id = j.find("id"); id != j.end()) {
        if (!id->is_string()) throw bad_request("invalid_request", "\"id\" must be a string");
        input.request_id = *id;
    }
    const auto inputs = j.find("inputs");
    if (inputs == j.end()) throw bad_request("missing_instances", "\"inputs\" is missing");
    if (!inputs->is_array() || inputs->empty()) {
        throw bad_request("invalid_request", "\"inputs\" must be a non-empty array of tensors");
    }
    // One input tensor: the only one, or the one named "text".
    const json* tensor = nullptr;
    if (inputs->size() == 1) {
        tensor = &(*inputs)[0];
    } else {
        for (const json& t : *inputs) {
            if (t.is_object() && t.value("name", "") == "text") tensor = &t;
        }
        if (!tensor) throw bad_request("invalid_request", "several inputs given and none is named \"text\"");
    }
    if (!tensor->is_object()) throw bad_request("invalid_request", "an input tensor must be an object");
    const auto datatype = tensor->find("datatype");
    if (datatype == tensor->end() || !datatype->is_string() || datatype->get<std::string>() != "BYTES") {
        throw bad_request("invalid_request", "the input tensor's datatype must be \"BYTES\"");
    }
    const auto data = tensor->find("data");
    if (data == tensor->end()) throw bad_request("missing_instances", "the input tensor has no \"data\"");
    flatten_strings(*data, input.texts);
    if (auto shape = tensor->find("shape"); shape != tensor->end()) {
        if (!shape->is_array()) throw bad_request("invalid_request", "\"shape\" must be an array of integers");
        int64_t n = 1;
        for (const json& d : *shape) {
            if (!d.is_number_integer() || d.get<int64_t>() < 0) {
                throw bad_request("invalid_request", "\"shape\" must be an array of non-negative integers");
            }
            n = std::min<int64_t>(n * d.get<int64_t>(), int64_t{1} << 40);
        }
        if (n != static_cast<int64_t>(input.texts.size())) {
            throw bad_request("invalid_request", "\"shape\" holds " + std::to_string(n) + " elements but \"data\" " +
                                                     std::to_string(input.texts.size()));
        }
    }
    check_count(input.texts.size(), limits);
    for (size_t i = 0; i < input.texts.size(); ++i) check_text(input.texts[i], i);
    if (auto outputs = j.find("outputs"); outputs != j.end() && outputs->is_array() && outputs->size() == 1 &&
                                          (*outputs)[0].is_object() && (*outputs)[0].contains("name") &&
                                          (*outputs)[0]["name"].is_string()) {
        input.output_name = (*outputs)[0]["name"].get<std::string>();
    }
    const auto params = j.find("parameters");
    parse_parameters(params == j.end() ? json() : *params, limits, input);
    return input;
}

nlohmann::ordered_json prediction_object(const std::string& fields_json) {
    using ojson = nlohmann::ordered_json;
    ojson fields = ojson::parse(fields_json, nullptr, /*allow_exceptions=*/false);
    if (!fields.is_object()) {
        return ojson{{"warnings", ojson::array({"the model's fields could not be read"})}};
    }
    if (!fields.contains("warnings") || !fields["warnings"].is_array()) fields["warnings"] = ojson::array();
    return fields;
}

}  // namespace receipt::server
