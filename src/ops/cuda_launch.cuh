// Kernel launches with Programmatic Dependent Launch (PDL, sm_90+). A decode step is ~75 short kernels, so the
// launch latency between two of them (the next grid is only scheduled once the previous one has fully exited)
// is a large share of the step. With PDL a kernel launched with the programmatic-stream-serialization attribute
// may start as soon as every block of the kernel before it has executed griddepcontrol.launch_dependents (or
// exited); it must then execute griddepcontrol.wait, which returns once that kernel has completed and its memory
// is visible, before it reads anything the earlier kernel wrote or writes anything the earlier kernel reads.
// Under stream capture the attribute becomes a programmatic edge of the CUDA graph (CUDA 12.3+).
//
// Rule for every kernel launched through launch_kernel():
//   pdl_wait() before the first global read of data an earlier kernel may have written and before the first
//   global write; then pdl_launch_dependents() so that the next kernel's launch overlaps this one.
// Both are no-ops below sm_90 and when the kernel was launched without the attribute (PDL off, a plain launch,
// or a kernel preceded by a memcpy or a cuBLASLt kernel: the dependency is then the usual full serialisation).
#pragma once

#include <cuda_runtime.h>

#include <utility>

#include "cuda/cuda_check.h"
#include "ops/t5_ops_cuda.h"

namespace receipt::cuda {

// Blocks until the grids this one depends on have completed and their writes are visible (griddepcontrol.wait).
__device__ __forceinline__ void pdl_wait() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}

// Lets the next PDL-launched kernel of the stream be scheduled before this grid has finished
// (griddepcontrol.launch_dependents). Gives no memory visibility: the dependent still calls pdl_wait().
__device__ __forceinline__ void pdl_launch_dependents() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
}

// Enqueues kernel<<<grid, block, smem, stream>>>(args...) with cudaLaunchKernelEx, adding
// cudaLaunchAttributeProgrammaticStreamSerialization = 1 when pdl_enabled() (t5_ops_cuda.h). The arguments are
// converted to the kernel's parameter types as with <<<>>>. Graph-capturable. Throws CudaError when the launch
// fails (and clears the launch error, as RECEIPT_CUDA_CHECK_LAUNCH does).
template <typename... KArgs, typename... Args>
void launch_kernel(void (*kernel)(KArgs...), dim3 grid, dim3 block, size_t smem, cudaStream_t stream, Args&&... args) {
    cudaLaunchAttribute attr[1];
    attr[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attr[0].val.programmaticStreamSerializationAllowed = 1;
    cudaLaunchConfig_t cfg{};
    cfg.gridDim = grid;
    cfg.blockDim = block;
    cfg.dynamicSmemBytes = smem;
    cfg.stream = stream;
    cfg.attrs = attr;
    cfg.numAttrs = pdl_enabled() ? 1 : 0;
    const cudaError_t err = cudaLaunchKernelEx(&cfg, kernel, std::forward<Args>(args)...);
    if (err != cudaSuccess) {
        (void)cudaGetLastError();  // a launch error is not sticky: leave no stale error for the next check
        throw CudaError(cuda_error_text(err, "cudaLaunchKernelEx"), __FILE__, __LINE__);
    }
}

// Dynamic shared memory a block may use in all (static + dynamic) before its kernel must opt in to more.
constexpr size_t kDefaultSmemLimit = 48 * 1024;

// Raises `kernel`'s dynamic shared memory limit on the current device to at least `bytes`
// (cudaFuncAttributeMaxDynamicSharedMemorySize): the CUDA call is made once per kernel, device and larger limit,
// later calls return at once (the launchers ask on every launch). Thread-safe. Throws CudaError on failure.
void set_dynamic_smem_limit(const void* kernel, size_t bytes);

// Call before launching `kernel` with `dynamic` bytes of dynamic shared memory (and `static_bytes` of static):
// raises the kernel's limit when the block needs more than kDefaultSmemLimit in all.
template <typename... KArgs>
void allow_dynamic_smem(void (*kernel)(KArgs...), size_t dynamic, size_t static_bytes = 0) {
    if (dynamic + static_bytes > kDefaultSmemLimit)
        set_dynamic_smem_limit(reinterpret_cast<const void*>(kernel), dynamic);
}

}  // namespace receipt::cuda
