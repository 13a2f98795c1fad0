// An immutable T5 model loaded from a Hugging Face folder (config.json, model.safetensors, spiece.model).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "receipt/config.h"
#include "receipt/tensor.h"

namespace receipt {

class SafetensorsFile;

// Weights and config of one T5 checkpoint. Created once, shared read-only by every engine / worker
// (std::shared_ptr<const Model>); all methods are const and thread-safe.
class Model {
public:
    // Loads `dir`/config.json and `dir`/model.safetensors (f32 tensors are memory-mapped, f16/bf16 are
    // converted to f32). Validates every tensor T5 needs against the config; throws ModelError that names
    // the file, the tensor and both shapes on any mismatch.
    static std::shared_ptr<const Model> load(const std::string& dir);

    ~Model();

    // Hyper-parameters from config.json.
    const T5Config& config() const { return config_; }
    // The folder the model was loaded from.
    const std::string& dir() const { return dir_; }
    // Path of spiece.model inside dir().
    std::string tokenizer_path() const;

    // The fp32 tensor `name` (Hugging Face name, e.g. "encoder.block.0.layer.0.SelfAttention.q.weight").
    // Tied / shared tensors resolve to the shared embedding. Throws ModelError naming `name` when absent.
    const HostTensor& weight(const std::string& name) const;
    // True when `name` (or its tied alias) exists.
    bool has_weight(const std::string& name) const;
    // The same tensor as stored in the file when it is stored as IEEE half (its fp32 weight() holds exactly these
    // values), else null: the raw [numel] halves in the memory-mapped file, possibly unaligned. The CPU decoder
    // streams these instead of the fp32 copy (half the bytes per step, the same products).
    const uint16_t* weight_f16(const std::string& name) const;
    // A stable 64-bit FNV-1a hash (hex) of config.json and the safetensors header + sizes; used by engine plans.
    const std::string& checksum() const { return checksum_; }
    // Total bytes of the fp32 weights as held in host memory.
    int64_t weight_bytes() const;

private:
    Model() = default;
    T5Config config_;
    std::string dir_;
    std::string checksum_;
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace receipt
