// Scratch-buffer helper shared by the CPU engine's components.
#pragma once

#include <cstddef>
#include <vector>

namespace receipt {

// Grows `v` to at least `n` elements; never shrinks, so buffers sized at request start are reused afterwards.
template <typename T>
void grow(std::vector<T>& v, size_t n) {
    if (v.size() < n) v.resize(n);
}

}  // namespace receipt
