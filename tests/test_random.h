// Deterministic test data: n normal(0, scale) floats from std::mt19937(seed).
#pragma once

#include <random>
#include <vector>

namespace receipt::test {

inline std::vector<float> randn(size_t n, unsigned seed, float scale = 1.0f) {
    std::mt19937 rng(seed);
    std::normal_distribution<float> d(0.0f, scale);
    std::vector<float> v(n);
    for (float& x : v) x = d(rng);
    return v;
}

}  // namespace receipt::test
