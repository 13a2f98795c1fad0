#include "model/safetensors.h"

#include <fcntl.h>
#include <immintrin.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <nlohmann/json.hpp>

#include "receipt/errors.h"

namespace receipt {

namespace {

constexpr uint64_t kMaxHeaderBytes = 100ull << 20;  // the format's own limit is 100 MB

size_t dtype_size(StoredDType d) { return d == StoredDType::kF32 ? 4 : 2; }

}  // namespace

float half_to_float(uint16_t h) {
    // sign | exponent (5) | mantissa (10) -> float32, including subnormals, inf and NaN.
    uint32_t sign = (h & 0x8000u) << 16;
    uint32_t exp = (h >> 10) & 0x1f;
    uint32_t man = h & 0x3ff;
    uint32_t bits;
    if (exp == 0) {
        if (man == 0) {
            bits = sign;
        } else {  // subnormal: normalise
            int e = -1;
            do {
                ++e;
                man <<= 1;
            } while ((man & 0x400) == 0);
            bits = sign | ((127 - 15 - e) << 23) | ((man & 0x3ff) << 13);
        }
    } else if (exp == 0x1f) {
        bits = sign | 0x7f800000u | (man << 13);
    } else {
        bits = sign | ((exp + 127 - 15) << 23) | (man << 13);
    }
    float f;
    std::memcpy(&f, &bits, 4);
    return f;
}

float bf16_to_float(uint16_t b) {
    uint32_t bits = static_cast<uint32_t>(b) << 16;
    float f;
    std::memcpy(&f, &bits, 4);
    return f;
}

SafetensorsFile::SafetensorsFile(const std::string& path) : path_(path) {
    int fd = ::open(path.c_str(), O_RDONLY);
    RECEIPT_CHECK(fd >= 0, ModelError, "cannot open '" + path + "': " + std::strerror(errno));
    struct stat st {};
    if (::fstat(fd, &st) != 0) {
        ::close(fd);
        RECEIPT_THROW(ModelError, "cannot stat '" + path + "'");
    }
    size_ = static_cast<size_t>(st.st_size);
    if (size_ < 8) {
        ::close(fd);
        RECEIPT_THROW(ModelError, path + ": truncated safetensors file (" + std::to_string(size_) +
                                      " bytes, the 8-byte header length is missing)");
    }
    map_ = ::mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, fd, 0);
    ::close(fd);
    if (map_ == MAP_FAILED) {
        map_ = nullptr;
        RECEIPT_THROW(ModelError, "cannot memory-map '" + path + "': " + std::strerror(errno));
    }
    try {
        const auto* base = static_cast<const uint8_t*>(map_);
        uint64_t n_header = 0;
        for (int i = 7; i >= 0; --i) n_header = (n_header << 8) | base[i];
        RECEIPT_CHECK(n_header <= kMaxHeaderBytes && n_header <= size_ - 8, ModelError,
                      path + ": corrupt safetensors header: declared header length " + std::to_string(n_header) +
                          " exceeds the file size " + std::to_string(size_));
        header_.assign(reinterpret_cast<const char*>(base + 8), n_header);
        const uint8_t* data = base + 8 + n_header;
        const size_t n_data = size_ - 8 - n_header;

        nlohmann::json j;
        try {
            j = nlohmann::json::parse(header_);
        } catch (const nlohmann::json::exception& e) {
            RECEIPT_THROW(ModelError, path + ": corrupt safetensors header (invalid JSON): " + e.what());
        }
        RECEIPT_CHECK(j.is_object(), ModelError, path + ": corrupt safetensors header (not a JSON object)");
        for (auto it = j.begin(); it != j.end(); ++it) {
            if (it.key() == "__metadata__") continue;
            const std::string& name = it.key();
            const auto& e = it.value();
            auto bad = [&](const std::string& why) {
                RECEIPT_THROW(ModelError, path + ": tensor '" + name + "': " + why);
            };
            if (!e.is_object() || !e.contains("dtype") || !e.contains("shape") || !e.contains("data_offsets"))
                bad("header entry lacks dtype, shape or data_offsets");
            if (!e["dtype"].is_string()) bad("dtype is not a string");
            std::string dt = e["dtype"].get<std::string>();
            StoredTensor t;
            if (dt == "F32") {
                t.dtype = StoredDType::kF32;
            } else if (dt == "F16") {
                t.dtype = StoredDType::kF16;
            } else if (dt == "BF16") {
                t.dtype = StoredDType::kBF16;
            } else {
                bad("unsupported dtype " + dt + " (supported: F32, F16, BF16)");
            }
            if (!e["shape"].is_array()) bad("shape is not an array");
            uint64_t numel = 1;
            for (const auto& d : e["shape"]) {
                if (!d.is_number_unsigned()) bad("shape has a non-integer or negative dimension");
                uint64_t v = d.get<uint64_t>();
                if (v > (1ull << 40) || (v && numel > (1ull << 40) / v)) bad("shape is implausibly large");
                numel *= v;
                t.shape.push_back(static_cast<int64_t>(v));
            }
            const auto& off = e["data_offsets"];
            if (!off.is_array() || off.size() != 2 || !off[0].is_number_unsigned() || !off[1].is_number_unsigned())
                bad("data_offsets must be two non-negative integers");
            uint64_t begin = off[0].get<uint64_t>(), end = off[1].get<uint64_t>();
            if (begin > end || end > n_data)
                bad("data_offsets [" + std::to_string(begin) + ", " + std::to_string(end) +
                    "] lie outside the data section of " + std::to_string(n_data) + " bytes (truncated file?)");
            if (end - begin != numel * dtype_size(t.dtype))
                bad("byte size " + std::to_string(end - begin) + " does not match dtype " + dt + " x shape (" +
                    std::to_string(numel * dtype_size(t.dtype)) + " bytes expected)");
            t.data = data + begin;
            t.n_bytes = end - begin;
            tensors_.emplace(name, std::move(t));
        }
    } catch (...) {
        ::munmap(map_, size_);
        map_ = nullptr;
        throw;
    }
}

SafetensorsFile::~SafetensorsFile() {
    if (map_) ::munmap(map_, size_);
}

HostTensor SafetensorsFile::to_f32(const StoredTensor& t) {
    HostTensor out;
    out.shape = t.shape;
    const int64_t n = out.numel();
    if (t.dtype == StoredDType::kF32 && reinterpret_cast<uintptr_t>(t.data) % alignof(float) == 0) {
        out.data = reinterpret_cast<const float*>(t.data);
        return out;
    }
    std::shared_ptr<float[]> buf(new float[n > 0 ? n : 1]);
    if (t.dtype == StoredDType::kF32) {
        std::memcpy(buf.get(), t.data, n * sizeof(float));
    } else {
        // 8 at a time (F16C widening for halves, a 16-bit shift for bfloat16: both exact), then the tail.
        const bool f16 = t.dtype == StoredDType::kF16;
        int64_t i = 0;
        for (; i + 8 <= n; i += 8) {
            const __m128i h = _mm_loadu_si128(reinterpret_cast<const __m128i*>(t.data + 2 * i));
            const __m256 f = f16 ? _mm256_cvtph_ps(h)
                                 : _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_cvtepu16_epi32(h), 16));
            _mm256_storeu_ps(buf.get() + i, f);
        }
        for (; i < n; ++i) {
            uint16_t v;
            std::memcpy(&v, t.data + 2 * i, 2);
            buf[i] = f16 ? half_to_float(v) : bf16_to_float(v);
        }
    }
    out.data = buf.get();
    out.owned = std::move(buf);
    return out;
}

}  // namespace receipt
