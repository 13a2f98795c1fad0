// A read-only fp32 host tensor: the form in which the model's weights are shared by every backend.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace receipt {

// Row-major fp32 data plus its shape. `data` points either into a memory-mapped checkpoint (f32 files)
// or into `owned` (converted from f16/bf16). Immutable after loading; safe to read from any thread.
struct HostTensor {
    std::vector<int64_t> shape;
    const float* data = nullptr;
    std::shared_ptr<const float[]> owned;  // keeps converted data alive; null when data is mapped

    // Number of elements (product of shape).
    int64_t numel() const;
    // "[a, b, c]" for error messages.
    std::string shape_str() const;
};

}  // namespace receipt
