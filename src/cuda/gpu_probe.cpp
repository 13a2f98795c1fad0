// GPU probe and the CUDA engine's reasons for not using a GPU (see gpu_probe.h).
#include "cuda/gpu_probe.h"

#include <cuda_runtime_api.h>

namespace receipt::cuda {
namespace {

// "13.0" from 13000.
std::string cuda_version_text(int v) { return std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10); }

}  // namespace

GpuProbe probe_gpu(int device) {
    GpuProbe p;
    p.device = device;
    cudaDriverGetVersion(&p.driver_cuda);  // 0 without a driver; never an error that sticks
    cudaRuntimeGetVersion(&p.runtime_cuda);
    const cudaError_t e = cudaGetDeviceCount(&p.device_count);
    p.count_status = int(e);
    if (e != cudaSuccess) {
        p.count_error = std::string(cudaGetErrorName(e)) + " (" + cudaGetErrorString(e) + ")";
        p.device_count = 0;
        cudaGetLastError();  // clear the sticky error
        return p;
    }
    if (device < 0 || device >= p.device_count) return p;
    cudaDeviceProp prop{};
    if (cudaGetDeviceProperties(&prop, device) != cudaSuccess) {
        cudaGetLastError();
        return p;
    }
    p.name = prop.name;
    p.cc_major = prop.major;
    p.cc_minor = prop.minor;
    return p;
}

bool gpu_absent(const GpuProbe& p) {
    return p.driver_cuda == 0 || p.count_status == int(cudaErrorNoDevice) ||
           (p.count_status == 0 && p.device_count < 1);
}

std::string gpu_problem(const GpuProbe& p) {
    if (p.driver_cuda == 0) return "no NVIDIA driver is installed (no CUDA GPU can be used): use --device cpu";
    if (p.count_status == int(cudaErrorInsufficientDriver) ||
        (p.runtime_cuda > 0 && p.driver_cuda > 0 && p.driver_cuda / 1000 < p.runtime_cuda / 1000))
        return "the NVIDIA driver supports CUDA " + cuda_version_text(p.driver_cuda) + " but this build's CUDA runtime is " +
               cuda_version_text(p.runtime_cuda) + ": update the driver, or use --device cpu";
    if (p.count_status != 0) return "the CUDA runtime cannot open a GPU: " + p.count_error + "; use --device cpu";
    if (p.device_count < 1) return "no CUDA GPU found: use --device cpu";
    if (p.device < 0 || p.device >= p.device_count)
        return "GPU " + std::to_string(p.device) + " was asked for, but the CUDA runtime sees " +
               std::to_string(p.device_count) + (p.device_count == 1 ? " GPU" : " GPUs") +
               " (numbered from 0, after CUDA_VISIBLE_DEVICES): use an ordinal below that, or --device cpu";
    if (p.cc_major == 0)
        return "the CUDA runtime cannot read GPU " + std::to_string(p.device) + "'s properties: use --device cpu";
    if (p.cc_major < kMinCcMajor)
        return "GPU " + p.name + " has compute capability " + std::to_string(p.cc_major) + "." +
               std::to_string(p.cc_minor) + "; the CUDA engine's kernels need 8.0 or newer (Ampere, Ada, Hopper): "
               "use --device cpu";
    return "";
}

}  // namespace receipt::cuda
