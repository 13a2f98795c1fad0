// Memory-mapped reader for the safetensors format:
//   [u64 little-endian N][N bytes of JSON header][tensor data]
// The header maps each name to {"dtype", "shape", "data_offsets": [begin, end]} (offsets relative to the data).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "receipt/tensor.h"

namespace receipt {

// Element type of a stored tensor.
enum class StoredDType { kF32, kF16, kBF16 };

// One tensor as stored in the file (not converted).
struct StoredTensor {
    StoredDType dtype;
    std::vector<int64_t> shape;
    const uint8_t* data = nullptr;  // into the mapping
    size_t n_bytes = 0;
};

// A read-only memory mapping of one .safetensors file; the header is fully validated on open.
// Movable, not copyable; unmaps on destruction. Thread-safe for concurrent reads.
class SafetensorsFile {
public:
    // Maps `path` and validates the header: throws ModelError naming the file on a missing file, a truncated or
    // corrupt header, offsets outside the file, a size that disagrees with dtype x shape, or an unsupported dtype.
    explicit SafetensorsFile(const std::string& path);
    ~SafetensorsFile();
    SafetensorsFile(const SafetensorsFile&) = delete;
    SafetensorsFile& operator=(const SafetensorsFile&) = delete;

    // Every tensor, by name.
    const std::map<std::string, StoredTensor>& tensors() const { return tensors_; }
    // The raw JSON header text (for checksums).
    const std::string& header() const { return header_; }
    const std::string& path() const { return path_; }
    size_t file_size() const { return size_; }

    // Returns the tensor as fp32: f32 data aligned to 4 bytes is used in place (zero copy), anything else is
    // converted into an owned buffer.
    static HostTensor to_f32(const StoredTensor& t);

private:
    std::string path_;
    std::string header_;
    void* map_ = nullptr;
    size_t size_ = 0;
    std::map<std::string, StoredTensor> tensors_;
};

// IEEE half -> float and bfloat16 -> float conversions (exact).
float half_to_float(uint16_t h);
float bf16_to_float(uint16_t b);

}  // namespace receipt
