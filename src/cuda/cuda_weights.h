// The T5 weights on the GPU, in the engine's dtype, laid out for fused GEMMs. Immutable after upload.
#pragma once

#include <cuda_runtime_api.h>

#include <vector>

#include "cuda/device_buffer.h"
#include "receipt/engine.h"
#include "receipt/model.h"

namespace receipt::cuda {

// One layer. Matrices are T (the engine dtype), HF Linear layout [out, in]; norm weights stay f32.
struct CudaLayerWeights {
    DeviceBuffer ln_self;   // [D] f32
    DeviceBuffer qkv;       // [3*H*K, D]: rows q | k | v  (one GEMM for the fused projection)
    DeviceBuffer o;         // [D, H*K]
    DeviceBuffer ln_cross;  // decoder: [D] f32
    DeviceBuffer q_cross;   // decoder: [H*K, D] (cross K/V weights live in CudaT5Weights::cross_kv)
    DeviceBuffer o_cross;   // decoder: [D, H*K]
    DeviceBuffer k_cross_t; // decoder, absorbed cross-attention only: [H, D, K], head h's cross key weights transposed
    DeviceBuffer ln_ffn;    // [D] f32
    DeviceBuffer wi;        // relu: [F, D]; gated: [2F, D] = wi_0 | wi_1 (one GEMM)
    DeviceBuffer wo;        // [D, F]
};

struct CudaT5Weights {
    DType dtype = DType::kF16;
    bool gated = false;          // gated FFN (v1.1 / flan)
    bool gelu = false;           // gated-gelu (else gated-relu)
    float lm_scale = 1.0f;       // D^-0.5 when the lm_head is the tied embedding, else 1
    DeviceBuffer embed;          // [V, D]
    DeviceBuffer lm_head;        // [V, D]; empty when tied (use embed)
    DeviceBuffer enc_final_ln;   // [D] f32
    DeviceBuffer dec_final_ln;   // [D] f32
    DeviceBuffer cross_kv;       // [L_dec * 2 * H*K, D]: for layer l, rows l*2HK.. = k, then v
    size_t cross_kv_layer_bytes = 0;  // bytes of one layer's [2 * H*K, D] block of cross_kv
    std::vector<CudaLayerWeights> enc, dec;
    size_t n_bytes = 0;          // device bytes held

    const void* lm_weight() const { return lm_head.get() ? lm_head.get() : embed.get(); }
    // Decoder layer l's cross key projection [H*K, D] in cross_kv; its value projection follows it.
    const char* cross_k(size_t l) const { return static_cast<const char*>(cross_kv.get()) + l * cross_kv_layer_bytes; }
    const char* cross_v(size_t l) const { return cross_k(l) + cross_kv_layer_bytes / 2; }

    // Converts and uploads every weight of `model` (synchronous); with absorbed_cross also each decoder layer's
    // k_cross_t. Throws CudaError / ModelError.
    static CudaT5Weights upload(const Model& model, DType dtype, cudaStream_t stream, bool absorbed_cross = false);
};

}  // namespace receipt::cuda
