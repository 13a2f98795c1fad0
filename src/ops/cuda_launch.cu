// Host side of the PDL launches (cuda_launch.cuh): whether the current device gets the PDL attribute, the
// pre-wait prefetch switch, and the device attributes the launchers read (shared-memory limits, SM count).
#include <atomic>
#include <cstdlib>
#include <map>
#include <mutex>
#include <utility>

#include "ops/cuda_launch.cuh"

namespace receipt::cuda {

namespace {

constexpr int kMaxCachedDevices = 64;

bool pdl_env_allowed() {
    static const bool allowed = env_level("RECEIPT_CUDA_PDL", 1, 1) == 1;  // off only for "0"
    return allowed;
}

bool device_supports_pdl(int dev) {
    int major = 0;
    if (cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev) != cudaSuccess) {
        (void)cudaGetLastError();
        return false;
    }
    return major >= 9;
}

// Attribute `attr` of the current device into `value`, read once per device into `cache` (0 = not read yet): the
// launchers ask on every call. Returns the CUDA error of a failed read (not cleared).
cudaError_t cached_attribute(std::atomic<int> (&cache)[kMaxCachedDevices], cudaDeviceAttr attr, int& value) {
    int dev = 0;
    if (const cudaError_t e = cudaGetDevice(&dev); e != cudaSuccess) return e;
    const bool cacheable = dev >= 0 && dev < kMaxCachedDevices;
    if (cacheable && (value = cache[dev].load(std::memory_order_relaxed)) > 0) return cudaSuccess;
    if (const cudaError_t e = cudaDeviceGetAttribute(&value, attr, dev); e != cudaSuccess) return e;
    if (cacheable) cache[dev].store(value, std::memory_order_relaxed);
    return cudaSuccess;
}

}  // namespace

int env_level(const char* name, int max_level, int default_level) {
    const char* env = std::getenv(name);
    if (env && env[0] >= '0' && env[0] <= '9' && env[1] == '\0' && env[0] - '0' <= max_level) return env[0] - '0';
    return default_level;
}

int prefetch_level() {
    static const int level = env_level("RECEIPT_CUDA_PREFETCH", 3, 3);
    return level;
}

bool prefetch_enabled() { return prefetch_level() > 0; }

bool pdl_enabled() {
    if (!pdl_env_allowed()) return false;
    int dev = 0;
    if (cudaGetDevice(&dev) != cudaSuccess) {
        (void)cudaGetLastError();
        return false;
    }
    if (dev < 0 || dev >= kMaxCachedDevices) return device_supports_pdl(dev);
    // Per device: 0 = not queried yet, 1 = off, 2 = on. Two threads racing on the first query store the same value.
    static std::atomic<int> cache[kMaxCachedDevices];
    int v = cache[dev].load(std::memory_order_relaxed);
    if (v == 0) {
        v = device_supports_pdl(dev) ? 2 : 1;
        cache[dev].store(v, std::memory_order_relaxed);
    }
    return v == 2;
}

int max_smem_optin() {
    static std::atomic<int> cache[kMaxCachedDevices];
    int bytes = 0;
    RECEIPT_CUDA_CHECK(cached_attribute(cache, cudaDevAttrMaxSharedMemoryPerBlockOptin, bytes));
    return bytes;
}

int max_smem_per_sm() {
    static std::atomic<int> cache[kMaxCachedDevices];
    int bytes = 0;
    RECEIPT_CUDA_CHECK(cached_attribute(cache, cudaDevAttrMaxSharedMemoryPerMultiprocessor, bytes));
    return bytes;
}

int device_sm_count() {
    static std::atomic<int> cache[kMaxCachedDevices];
    int n = 0;
    if (cached_attribute(cache, cudaDevAttrMultiProcessorCount, n) != cudaSuccess) {
        (void)cudaGetLastError();
        return 0;
    }
    return n;
}

void set_dynamic_smem_limit(const void* kernel, size_t bytes) {
    int dev = 0;
    RECEIPT_CUDA_CHECK(cudaGetDevice(&dev));
    // (device, kernel) -> the limit set; the attribute belongs to the kernel on one device.
    static std::mutex mu;
    static std::map<std::pair<int, const void*>, size_t> set;
    std::lock_guard<std::mutex> lock(mu);
    size_t& done = set[{dev, kernel}];
    if (done >= bytes) return;
    RECEIPT_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(bytes)));
    done = bytes;
}

}  // namespace receipt::cuda
