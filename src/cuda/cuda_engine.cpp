// Entry points of the CUDA backend (see cuda_engine.h).
#include "cuda/cuda_engine.h"

#include <cuda_runtime_api.h>
#include <spdlog/spdlog.h>

#include <mutex>

#include "cuda/cublaslt_api.h"
#include "cuda/cuda_check.h"
#include "cuda/cuda_t5_engine.h"
#include "cuda/gpu_probe.h"
#include "ops/kernel_image.h"
#include "receipt/errors.h"

namespace receipt::cuda {

namespace {

// The calling thread's current device; 0 when the runtime cannot say (the probe then says why).
int current_device() {
    int device = 0;
    if (cudaGetDevice(&device) != cudaSuccess) {
        (void)cudaGetLastError();
        device = 0;
    }
    return device;
}

// Why the CUDA engine cannot run on the probed GPU, "" when it can: the probe's verdict, then whether this build
// has kernels for it (a build for other architectures). Never throws.
std::string device_problem(const GpuProbe& p) {
    std::string why = gpu_problem(p);
    if (!why.empty()) return why;
    try {
        const DeviceScope scope(p.device);
        return kernel_image_problem();
    } catch (const CudaError& e) {
        return e.what();
    }
}

// device_usable() for a probe already taken.
bool usable(const GpuProbe& p) {
    std::string why = device_problem(p);
    if (why.empty() && cublaslt_available(&why)) return true;
    // A GPU that is there but cannot be used (old driver or architecture, no cuBLASLt): say why, once per process.
    if (!gpu_absent(p)) {
        static std::once_flag warned;
        std::call_once(warned, [&] { spdlog::warn("a CUDA GPU is present but not used: {}", why); });
    }
    return false;
}

}  // namespace

bool device_usable() { return usable(probe_gpu(current_device())); }

int usable_device_count() {
    const GpuProbe p = probe_gpu(current_device());
    return usable(p) ? p.device_count : 0;
}

std::unique_ptr<Engine> make_engine(std::shared_ptr<const Model> model, const EngineOptions& options) {
    const std::string problem = device_problem(probe_gpu(options.gpu >= 0 ? options.gpu : current_device()));
    if (!problem.empty()) RECEIPT_THROW(Unavailable, "the CUDA engine cannot run: " + problem);
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
