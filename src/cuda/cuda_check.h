// Error checks for CUDA runtime and cuBLASLt calls: every failure throws receipt::CudaError (never aborts).
#pragma once

#include <cublasLt.h>
#include <cuda_runtime_api.h>

#include <new>
#include <string>

#include "receipt/errors.h"

namespace receipt::cuda {

// "cudaErrorMemoryAllocation (out of memory) in cudaMalloc(&p, n)".
inline std::string cuda_error_text(cudaError_t e, const char* what) {
    return std::string(cudaGetErrorName(e)) + " (" + cudaGetErrorString(e) + ") in " + what;
}

inline std::string cublas_error_text(cublasStatus_t s, const char* what) {
    return std::string("cuBLASLt status ") + std::to_string(int(s)) + " in " + what;
}

// Makes `device` the calling thread's current CUDA device for the scope and restores the one before on exit, so
// that one thread may drive engines on several GPUs. Throws CudaError when the device cannot be made current;
// with std::nothrow (destructors) it then leaves the current device as it was.
class DeviceScope {
  public:
    explicit DeviceScope(int device) {
        if (const cudaError_t e = enter(device); e != cudaSuccess)
            throw CudaError(cuda_error_text(e, "cudaSetDevice"), __FILE__, __LINE__);
    }
    DeviceScope(int device, const std::nothrow_t&) noexcept { (void)enter(device); }
    ~DeviceScope() {
        if (previous_ >= 0) (void)cudaSetDevice(previous_);
    }
    DeviceScope(const DeviceScope&) = delete;
    DeviceScope& operator=(const DeviceScope&) = delete;

  private:
    cudaError_t enter(int device) noexcept {
        int current = 0;
        cudaError_t e = cudaGetDevice(&current);
        if (e == cudaSuccess && current != device && (e = cudaSetDevice(device)) == cudaSuccess) previous_ = current;
        if (e != cudaSuccess) (void)cudaGetLastError();
        return e;
    }
    int previous_ = -1;  // the device to restore; -1: it was already current
};

}  // namespace receipt::cuda

// Throws CudaError when a CUDA runtime call fails; the message names the call.
#define RECEIPT_CUDA_CHECK(call)                                                                   \
    do {                                                                                           \
        cudaError_t receipt_err_ = (call);                                                         \
        if (receipt_err_ != cudaSuccess)                                                           \
            throw ::receipt::CudaError(::receipt::cuda::cuda_error_text(receipt_err_, #call),     \
                                       __FILE__, __LINE__);                                        \
    } while (0)

// Throws CudaError when a cuBLASLt call fails.
#define RECEIPT_CUBLAS_CHECK(call)                                                                 \
    do {                                                                                           \
        cublasStatus_t receipt_st_ = (call);                                                       \
        if (receipt_st_ != CUBLAS_STATUS_SUCCESS)                                                  \
            throw ::receipt::CudaError(::receipt::cuda::cublas_error_text(receipt_st_, #call),    \
                                       __FILE__, __LINE__);                                        \
    } while (0)

// Checks the launch of the kernel just enqueued (bad configuration, missing image for this GPU).
#define RECEIPT_CUDA_CHECK_LAUNCH() RECEIPT_CUDA_CHECK(cudaGetLastError())
