// A copy of an f32 checkpoint whose weights are rounded to f16 or bf16 (kept f32 in the file), so that the CPU
// engine reads the very weights a half-precision GPU engine holds. Shared by the CUDA engine tests.
#pragma once

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "receipt/engine.h"
#include "test_files.h"

namespace receipt::test {

// Rounds every f32 tensor of a safetensors file to the precision of dt (f16: 11 significant bits, spacing 2^-24
// below 2^-14; bf16: 8 significant bits), keeping the file f32, and writes it to dst.
inline void write_rounded_safetensors(const std::string& src, const std::string& dst, DType dt) {
    std::string bytes = read_file(src);
    ASSERT_GE(bytes.size(), 8u);
    uint64_t hlen = 0;
    std::memcpy(&hlen, bytes.data(), 8);
    const auto header = nlohmann::json::parse(bytes.substr(8, hlen));
    const int bits = dt == DType::kBF16 ? 8 : 11;
    for (const auto& [name, t] : header.items()) {
        if (name == "__metadata__") continue;
        ASSERT_EQ(t["dtype"], "F32") << name;
        const auto off = t["data_offsets"].get<std::vector<uint64_t>>();
        for (uint64_t p = 8 + hlen + off[0]; p < 8 + hlen + off[1]; p += 4) {
            float v;
            std::memcpy(&v, &bytes[p], 4);
            if (v != 0.0f && std::isfinite(v)) {
                int e = 0;
                std::frexp(v, &e);  // |v| in [2^(e-1), 2^e)
                const int q = dt == DType::kBF16 ? e - bits : std::max(e - bits, -24);
                v = float(std::nearbyint(std::ldexp(double(v), -q)) * std::ldexp(1.0, q));
            }
            std::memcpy(&bytes[p], &v, 4);
        }
    }
    std::ofstream(dst, std::ios::binary).write(bytes.data(), std::streamsize(bytes.size()));
}

// The checkpoint folder src (config.json, spiece.model, f32 model.safetensors) copied to
// dir/<name>-rounded-<f16|bf16> with its weights rounded to dt; returns the copy's path.
inline std::string rounded_checkpoint(const std::string& src, const std::string& dir, DType dt) {
    namespace fs = std::filesystem;
    const std::string dst =
        dir + "/" + fs::path(src).filename().string() + (dt == DType::kBF16 ? "-rounded-bf16" : "-rounded-f16");
    fs::create_directories(dst);
    fs::copy_file(src + "/config.json", dst + "/config.json", fs::copy_options::overwrite_existing);
    fs::copy_file(src + "/spiece.model", dst + "/spiece.model", fs::copy_options::overwrite_existing);
    write_rounded_safetensors(src + "/model.safetensors", dst + "/model.safetensors", dt);
    return dst;
}

}  // namespace receipt::test
