// Entry points of the CUDA backend (see cuda_engine.h).
#include "cuda/cuda_engine.h"

#include <cuda_runtime_api.h>

#include "cuda/cuda_t5_engine.h"
#include "receipt/errors.h"

namespace receipt::cuda {

bool device_usable() {
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess || n < 1) {
        cudaGetLastError();  // clear the sticky "no device" error
        return false;
    }
    int dev = 0;
    cudaDeviceProp prop{};
    if (cudaGetDevice(&dev) != cudaSuccess || cudaGetDeviceProperties(&prop, dev) != cudaSuccess) {
        cudaGetLastError();
        return false;
    }
    // Kernels are built for sm_90a plus compute_90 PTX: Hopper or newer.
    return prop.major >= 9;
}

std::unique_ptr<Engine> make_engine(std::shared_ptr<const Model> model, const EngineOptions& options) {
    if (!device_usable())
        RECEIPT_THROW(Unavailable, "no usable CUDA GPU (compute capability 9.0 or newer is required)");
    return std::make_unique<CudaT5Engine>(std::move(model), options);
}

std::string profile_report(const Engine& engine) {
    const auto* e = dynamic_cast<const CudaT5Engine*>(&engine);
    return e ? e->profile_report() : std::string();
}

void reset_profile(Engine& engine) {
    if (auto* e = dynamic_cast<CudaT5Engine*>(&engine)) e->reset_profile();
}

}  // namespace receipt::cuda
