// Entry points of the CUDA engine, implemented in src/cuda/*.cu / *.cpp (compiled only with CUDA).
#pragma once

#include <memory>
#include <string>

#include "receipt/engine.h"

namespace receipt::cuda {

// True when the CUDA engine can run on the current device: it opens (driver present) with compute capability 8.0+,
// this build has kernels for it (ops/kernel_image.h), and cuBLASLt loads. A GPU that is present but cannot be used
// logs one warning with the reason. Never throws.
bool device_usable();
// The runtime's device count when device_usable(), else 0. Never throws.
int usable_device_count();

// Creates the fp16/bf16/fp32 CUDA engine for `model` (loads / builds the engine plan as needed).
// Throws Unavailable when no GPU is usable or cuBLASLt cannot be loaded (the message names what is missing), ModelError for a bad plan that cannot be rebuilt.
std::unique_ptr<Engine> make_engine(std::shared_ptr<const Model> model, const EngineOptions& options);

// Per-op GPU time profile of a CUDA engine created with RECEIPT_CUDA_PROFILE=1 (CudaT5Engine::profile_report(),
// eager-mode times): the table, or "" when `engine` is not a CUDA engine or does not profile. For tools that must
// not include CUDA headers (bench_gpu). Same threading rule as the engine.
std::string profile_report(const Engine& engine);
// Clears that profile (no-op for other engines).
void reset_profile(Engine& engine);

}  // namespace receipt::cuda
