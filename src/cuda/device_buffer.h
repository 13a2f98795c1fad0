// RAII owners of device and pinned host memory. All engine memory is allocated once, up front.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <utility>

#include "cuda/cuda_check.h"

namespace receipt::cuda {

// One cudaMalloc'ed block. Move-only; frees on destruction (errors on free are ignored: the context may be gone).
class DeviceBuffer {
public:
    DeviceBuffer() = default;
    explicit DeviceBuffer(size_t n_bytes) { resize(n_bytes); }
    ~DeviceBuffer() { release(); }
    DeviceBuffer(DeviceBuffer&& o) noexcept : ptr_(std::exchange(o.ptr_, nullptr)), n_bytes_(std::exchange(o.n_bytes_, 0)) {}
    DeviceBuffer& operator=(DeviceBuffer&& o) noexcept {
        if (this != &o) {
            release();
            ptr_ = std::exchange(o.ptr_, nullptr);
            n_bytes_ = std::exchange(o.n_bytes_, 0);
        }
        return *this;
    }
    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;

    // Frees the old block and allocates n_bytes (rounded up to 256 so vector loads never run off the end).
    void resize(size_t n_bytes) {
        release();
        if (n_bytes == 0) return;
        const size_t rounded = (n_bytes + 255) / 256 * 256;
        RECEIPT_CUDA_CHECK(cudaMalloc(&ptr_, rounded));
        n_bytes_ = rounded;
    }
    void release() noexcept {
        if (ptr_) cudaFree(ptr_);
        ptr_ = nullptr;
        n_bytes_ = 0;
    }
    void* get() const { return ptr_; }
    template <typename T>
    T* as() const {
        return static_cast<T*>(ptr_);
    }
    size_t size() const { return n_bytes_; }

private:
    void* ptr_ = nullptr;
    size_t n_bytes_ = 0;
};

// Page-locked host memory, for asynchronous copies.
class PinnedBuffer {
public:
    PinnedBuffer() = default;
    explicit PinnedBuffer(size_t n_bytes) {
        if (n_bytes) RECEIPT_CUDA_CHECK(cudaMallocHost(&ptr_, n_bytes));
        n_bytes_ = n_bytes;
    }
    ~PinnedBuffer() {
        if (ptr_) cudaFreeHost(ptr_);
    }
    PinnedBuffer(PinnedBuffer&& o) noexcept : ptr_(std::exchange(o.ptr_, nullptr)), n_bytes_(std::exchange(o.n_bytes_, 0)) {}
    PinnedBuffer& operator=(PinnedBuffer&& o) noexcept {
        if (this != &o) {
            if (ptr_) cudaFreeHost(ptr_);
            ptr_ = std::exchange(o.ptr_, nullptr);
            n_bytes_ = std::exchange(o.n_bytes_, 0);
        }
        return *this;
    }
    PinnedBuffer(const PinnedBuffer&) = delete;
    PinnedBuffer& operator=(const PinnedBuffer&) = delete;

    template <typename T>
    T* as() const {
        return static_cast<T*>(ptr_);
    }
    size_t size() const { return n_bytes_; }

private:
    void* ptr_ = nullptr;
    size_t n_bytes_ = 0;
};

}  // namespace receipt::cuda
