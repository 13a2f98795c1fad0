#include "cuda/l2_persistence.h"

#include <algorithm>
#include <vector>

namespace receipt::cuda {

namespace {

cudaAccessPolicyWindow policy(const L2Window& w) {
    cudaAccessPolicyWindow p{};
    p.base_ptr = const_cast<void*>(w.base);
    p.num_bytes = w.bytes;
    p.hitRatio = w.hit_ratio;
    p.hitProp = cudaAccessPropertyPersisting;
    p.missProp = cudaAccessPropertyStreaming;
    return p;
}

}  // namespace

L2Window l2_persisting_window(int device, const void* base, size_t bytes) {
    L2Window w;
    int max_persist = 0, max_window = 0;
    if (!base || bytes == 0 ||
        cudaDeviceGetAttribute(&max_persist, cudaDevAttrMaxPersistingL2CacheSize, device) != cudaSuccess ||
        cudaDeviceGetAttribute(&max_window, cudaDevAttrMaxAccessPolicyWindowSize, device) != cudaSuccess ||
        max_persist <= 0 || max_window <= 0) {
        cudaGetLastError();
        return w;
    }
    const size_t window = std::min(bytes, size_t(max_window));
    const size_t set_aside = std::min(window, size_t(max_persist));
    if (cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, set_aside) != cudaSuccess) {
        cudaGetLastError();
        return w;
    }
    w.base = base;
    w.bytes = window;
    w.hit_ratio = std::min(1.0f, float(double(set_aside) / double(window)));
    return w;
}

void apply_l2_window(cudaStream_t stream, const L2Window& w) {
    if (w.bytes == 0) return;
    cudaStreamAttrValue v{};
    v.accessPolicyWindow = policy(w);
    if (cudaStreamSetAttribute(stream, cudaStreamAttributeAccessPolicyWindow, &v) != cudaSuccess) cudaGetLastError();
}

void apply_l2_window(cudaGraph_t graph, const L2Window& w) {
    if (w.bytes == 0) return;
    size_t n = 0;
    if (cudaGraphGetNodes(graph, nullptr, &n) != cudaSuccess) {
        cudaGetLastError();
        return;
    }
    std::vector<cudaGraphNode_t> nodes(n);
    if (n == 0 || cudaGraphGetNodes(graph, nodes.data(), &n) != cudaSuccess) {
        cudaGetLastError();
        return;
    }
    cudaKernelNodeAttrValue v{};
    v.accessPolicyWindow = policy(w);
    for (cudaGraphNode_t node : nodes) {
        cudaGraphNodeType type;
        if (cudaGraphNodeGetType(node, &type) != cudaSuccess || type != cudaGraphNodeTypeKernel) continue;
        if (cudaGraphKernelNodeSetAttribute(node, cudaKernelNodeAttributeAccessPolicyWindow, &v) != cudaSuccess)
            cudaGetLastError();
    }
    cudaGetLastError();
}

}  // namespace receipt::cuda
