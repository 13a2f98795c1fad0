// make_engine(): picks the backend for an EngineOptions::device.
#include "receipt/engine.h"
#include "core/recheck_engine.h"
#include "receipt/errors.h"
#include "model/t5_cpu_engine.h"
#ifdef RECEIPT_WITH_CUDA
#include "cuda/cuda_engine.h"
#endif

namespace receipt {

Device parse_device(const std::string& s) {
    if (s == "auto") return Device::kAuto;
    if (s == "cpu") return Device::kCpu;
    if (s == "cuda" || s == "gpu") return Device::kCuda;
    RECEIPT_THROW(InvalidInput, "unknown device '" + s + "' (expected auto, cpu or cuda)");
}

DType parse_dtype(const std::string& s) {
    if (s == "fp32" || s == "f32" || s == "float32") return DType::kF32;
    if (s == "fp16" || s == "f16" || s == "float16") return DType::kF16;
    if (s == "bf16" || s == "bfloat16") return DType::kBF16;
    RECEIPT_THROW(InvalidInput, "unknown dtype '" + s + "' (expected fp16, bf16 or fp32)");
}

int resolve_draft_tokens(int draft_tokens, Device device) {
    RECEIPT_CHECK(draft_tokens >= kDraftTokensByDevice && draft_tokens <= kMaxDraftTokens, InvalidInput,
                  "EngineOptions: draft_tokens must be 0 .. " + std::to_string(kMaxDraftTokens) +
                      ", or kDraftTokensByDevice (-1)");
    if (draft_tokens == kDraftTokensByDevice) return device == Device::kCuda ? kCudaDraftTokens : kCpuDraftTokens;
    return draft_tokens;
}

void set_precision(EngineOptions& options, const std::string& precision) {
    const size_t n = precision.size();
    const bool a32 = n > 4 && precision.compare(n - 4, 4, "-a32") == 0;
    DType dt;
    try {
        dt = parse_dtype(a32 ? precision.substr(0, n - 4) : precision);
    } catch (const InvalidInput&) {
        RECEIPT_THROW(InvalidInput,
                      "unknown precision '" + precision + "' (expected fp16-a32, bf16-a32, fp16, bf16 or fp32)");
    }
    RECEIPT_CHECK(!(a32 && dt == DType::kF32), InvalidInput,
                  "precision '" + precision + "': f32 activations go with fp16 or bf16 weights (fp16-a32, bf16-a32)");
    options.dtype = dt;
    options.f32_activations = a32;
}

const char* device_name(Device d) {
    switch (d) {
        case Device::kCpu: return "cpu";
        case Device::kCuda: return "cuda";
        default: return "auto";
    }
}

bool cuda_available() {
#ifdef RECEIPT_WITH_CUDA
    try {
        return cuda::device_usable();
    } catch (...) {
        return false;
    }
#else
    return false;
#endif
}

int cuda_device_count() {
#ifdef RECEIPT_WITH_CUDA
    try {
        return cuda::usable_device_count();
    } catch (...) {
        return 0;
    }
#else
    return 0;
#endif
}

std::unique_ptr<Engine> make_engine(std::shared_ptr<const Model> model, const EngineOptions& options) {
    RECEIPT_CHECK(model != nullptr, InvalidInput, "make_engine: null model");
    Device device = options.device;
    // auto = the GPU when one is usable (its fp16 greedy tokens are checked against this CPU reference by
    // tests/cuda_engine_test.cpp and `receipt eval --device auto`), else the CPU.
    if (device == Device::kAuto) device = cuda_available() ? Device::kCuda : Device::kCpu;
    if (device == Device::kCuda) {
#ifdef RECEIPT_WITH_CUDA
        if (options.dtype != DType::kF32 && !options.f32_activations && options.fp32_recheck_margin > 0.0f) {
            EngineOptions reference = options;
            reference.dtype = DType::kF32;
            reference.f32_activations = false;
            // Its own plan: the default path names the dtype; a given path gets ".fp32" before its extension.
            std::string& plan = reference.plan_path;
            if (!plan.empty()) {
                const size_t dot = plan.rfind('.'), slash = plan.rfind('/');
                const bool ext = dot != std::string::npos && (slash == std::string::npos || dot > slash);
                plan = ext ? plan.substr(0, dot) + ".fp32" + plan.substr(dot) : plan + ".fp32";
            }
            return std::make_unique<RecheckEngine>(cuda::make_engine(model, options),
                                                   cuda::make_engine(model, reference), options.fp32_recheck_margin);
        }
        return cuda::make_engine(std::move(model), options);
#else
        RECEIPT_THROW(Unavailable, "device cuda requested but this build has no CUDA support (rebuild with nvcc)");
#endif
    }
    return std::make_unique<CpuT5Engine>(std::move(model), options);
}

}  // namespace receipt
