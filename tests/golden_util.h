// Helpers for the Hugging Face golden tests: load golden.json and compare float arrays.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace receipt::test {

inline std::string golden_dir(const std::string& name) { return std::string(RECEIPT_SOURCE_DIR) + "/tests/golden/" + name; }

inline nlohmann::json load_golden(const std::string& name) {
    std::ifstream in(golden_dir(name) + "/golden.json");
    if (!in) return nullptr;
    return nlohmann::json::parse(in);
}

// Flattens nested JSON number arrays into floats.
inline void flatten(const nlohmann::json& j, std::vector<float>& out) {
    if (j.is_array()) {
        for (const auto& e : j) flatten(e, out);
    } else {
        out.push_back(j.get<float>());
    }
}

inline float max_abs_diff(const float* a, const std::vector<float>& b) {
    float m = 0.0f;
    for (size_t i = 0; i < b.size(); ++i) m = std::max(m, std::fabs(a[i] - b[i]));
    return m;
}

// HF pads finished beams with EOS or pad: keep everything up to and including the first EOS.
inline std::vector<int> cut_at_eos(std::vector<int> ids, int eos) {
    auto it = std::find(ids.begin(), ids.end(), eos);
    if (it != ids.end()) ids.erase(it + 1, ids.end());
    return ids;
}

}  // namespace receipt::test
