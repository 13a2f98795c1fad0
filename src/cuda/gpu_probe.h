// What the CUDA runtime says about this machine's GPU, and why the CUDA engine cannot use it (old driver, no GPU,
// a GPU older than the kernels' architecture). Kept apart from the probe itself so the messages are testable
// without a GPU.
#pragma once

#include <string>

namespace receipt::cuda {

// The runtime's answers, as plain values.
struct GpuProbe {
    int count_status = 0;    // cudaError_t of cudaGetDeviceCount (0 = success)
    std::string count_error; // its name and text when not 0, e.g. "cudaErrorInsufficientDriver (...)"
    int device_count = 0;
    int driver_cuda = 0;     // cudaDriverGetVersion: CUDA version the driver supports (13000 = 13.0), 0 = no driver
    int runtime_cuda = 0;    // cudaRuntimeGetVersion of this build's runtime
    int device = 0;          // the ordinal probed for name and compute capability
    std::string name;        // that device's name
    int cc_major = 0, cc_minor = 0;
};

// Reads the probe from the CUDA runtime (device `device` for the name and compute capability). Never throws.
GpuProbe probe_gpu(int device = 0);

// Oldest compute capability the kernels are written for (cp.async, bf16 and the m16n8k16 tensor-core mma are
// sm_80 features); Programmatic Dependent Launch is used from 9.0 on.
constexpr int kMinCcMajor = 8;

// "" when the CUDA engine can run on the probed GPU (it exists, compute capability 8.0 or newer, a driver new enough
// for the runtime); else one sentence saying what is wrong and what to do, e.g. "the NVIDIA driver supports CUDA 12.4 but
// this build's CUDA runtime is 13.0: update the driver, or use --device cpu".
std::string gpu_problem(const GpuProbe& p);

// True when the probe found no GPU at all (no driver, or no device): nothing to warn about on a CPU machine.
bool gpu_absent(const GpuProbe& p);

}  // namespace receipt::cuda
