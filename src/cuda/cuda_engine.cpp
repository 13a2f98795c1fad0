// Entry points of the CUDA backend (see cuda_engine.h).
#include "cuda/cuda_engine.h"

#include <cuda_runtime_api.h>
#include <spdlog/spdlog.h>

#include <mutex>

#include "cuda/cublaslt_api.h"
#include "cuda/cuda_t5_engine.h"
#include "receipt/errors.h"

namespace receipt::cuda {

namespace {

// A device of compute capability 9.0 or newer can be opened (driver present). Never throws.
bool gpu_present() {
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

}  // namespace

bool device_usable() {
    if (!gpu_present()) return false;
    std::string why;
    if (cublaslt_available(&why)) return true;
    static std::once_flag warned;  // say it once per process, not per engine
    std::call_once(warned, [&] { spdlog::warn("a CUDA GPU is present but not used: {}", why); });
    return false;
}

std::unique_ptr<Engine> make_engine(std::shared_ptr<const Model> model, const EngineOptions& options) {
    if (!gpu_present())
        RECEIPT_THROW(Unavailable, "no usable CUDA GPU (compute capability 9.0 or newer is required)");
    cublaslt();  // throws Unavailable naming the library paths tried when cuBLASLt cannot be loaded
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
