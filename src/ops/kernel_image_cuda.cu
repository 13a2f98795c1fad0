// kernel_image.h: asks the runtime for a trivial kernel's attributes on the current device, which loads the
// module and fails when the fatbinary has no image (machine code or PTX) that the device can run.
#include <cuda_runtime.h>

#include <string>

#include "ops/kernel_image.h"

namespace receipt::cuda {

namespace {

__global__ void kernel_image_probe_kernel() {}

}  // namespace

std::string kernel_image_problem() {
    cudaFuncAttributes attr{};
    const cudaError_t e = cudaFuncGetAttributes(&attr, kernel_image_probe_kernel);
    if (e == cudaSuccess) return "";
    (void)cudaGetLastError();  // not sticky; leave no stale error behind
    int dev = 0, major = 0, minor = 0;
    cudaGetDevice(&dev);
    cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev);
    cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev);
    (void)cudaGetLastError();
    return "this build has no kernels for GPU " + std::to_string(dev) + " (compute capability " +
           std::to_string(major) + "." + std::to_string(minor) + "; " + cudaGetErrorName(e) +
           "): rebuild with that architecture in CMAKE_CUDA_ARCHITECTURES, or use --device cpu";
}

}  // namespace receipt::cuda
