// Upload of the T5 weights: f32 host tensors -> (concatenated) device matrices in the engine dtype.
#include "cuda/cuda_weights.h"

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include "cuda/cuda_check.h"
#include "model/t5_weights.h"
#include "ops/t5_ops_cuda.h"

namespace receipt::cuda {

namespace {

// Copies f32 host pieces through an f32 device staging buffer and converts them into one T matrix.
// Every copy is queued on the engine's stream, before the kernel that reads it: the stream is non-blocking, and a
// plain cudaMemcpy from pageable memory may return before its DMA has landed, so a convert on the stream could
// read the staging buffer's previous contents (weights silently wrong in parts, differently from run to run).
class Uploader {
public:
    Uploader(DType dt, cudaStream_t stream, size_t& n_bytes) : dt_(dt), stream_(stream), n_bytes_(n_bytes) {}

    // dst = concat(pieces) along rows; each piece has n elements.
    DeviceBuffer matrix(std::initializer_list<std::pair<const float*, int64_t>> pieces) {
        int64_t total = 0;
        for (auto& p : pieces) total += p.second;
        DeviceBuffer dst(size_t(total) * dtype_size(dt_));
        int64_t off = 0;
        for (auto& [src, n] : pieces) {
            RECEIPT_CHECK(src != nullptr, ModelError, "missing weight while uploading to the GPU");
            stage(src, n);
            convert_f32_cuda(dt_, staging_.as<float>(), static_cast<char*>(dst.get()) + off * dtype_size(dt_), n,
                             stream_);
            RECEIPT_CUDA_CHECK(cudaStreamSynchronize(stream_));  // staging is reused by the next piece
            off += n;
        }
        n_bytes_ += dst.size();
        return dst;
    }
    // f32 vector kept in f32 (norm weights).
    DeviceBuffer f32(const float* src, int64_t n) {
        RECEIPT_CHECK(src != nullptr, ModelError, "missing norm weight while uploading to the GPU");
        DeviceBuffer dst(size_t(n) * sizeof(float));
        RECEIPT_CUDA_CHECK(
            cudaMemcpyAsync(dst.get(), src, size_t(n) * sizeof(float), cudaMemcpyHostToDevice, stream_));
        RECEIPT_CUDA_CHECK(cudaStreamSynchronize(stream_));
        n_bytes_ += dst.size();
        return dst;
    }

private:
    void stage(const float* src, int64_t n) {
        if (staging_.size() < size_t(n) * sizeof(float)) staging_.resize(size_t(n) * sizeof(float));
        // The previous piece's convert has finished (matrix() synchronises after each one), so staging is free.
        RECEIPT_CUDA_CHECK(
            cudaMemcpyAsync(staging_.get(), src, size_t(n) * sizeof(float), cudaMemcpyHostToDevice, stream_));
    }
    DType dt_;
    cudaStream_t stream_;
    size_t& n_bytes_;
    DeviceBuffer staging_;
};

}  // namespace

CudaT5Weights CudaT5Weights::upload(const Model& model, DType dtype, cudaStream_t stream, bool absorbed_cross) {
    const T5Config& c = model.config();
    const T5Weights w(model);
    const int64_t D = c.d_model, HK = int64_t(c.num_heads) * c.d_kv, F = c.d_ff, V = c.vocab_size;
    CudaT5Weights g;
    g.dtype = dtype;
    g.gated = c.feed_forward != FeedForward::kRelu;
    g.gelu = c.feed_forward == FeedForward::kGatedGelu;
    g.lm_scale = c.scale_decoder_outputs ? 1.0f / std::sqrt(float(D)) : 1.0f;
    Uploader up(dtype, stream, g.n_bytes);

    g.embed = up.matrix({{w.shared, V * D}});
    if (w.lm_head.f32 != w.shared) g.lm_head = up.matrix({{w.lm_head.f32, V * D}});  // untied head
    g.enc_final_ln = up.f32(w.encoder_final_ln, D);
    g.dec_final_ln = up.f32(w.decoder_final_ln, D);

    auto ffn = [&](CudaLayerWeights& L, const FfnWeights& f) {
        if (g.gated) L.wi = up.matrix({{f.wi_0.f32, F * D}, {f.wi_1.f32, F * D}});
        else L.wi = up.matrix({{f.wi.f32, F * D}});
        L.wo = up.matrix({{f.wo.f32, D * F}});
    };
    for (const EncoderLayerWeights& e : w.encoder) {
        CudaLayerWeights L;
        L.ln_self = up.f32(e.ln_attn, D);
        L.qkv = up.matrix({{e.self.q.f32, HK * D}, {e.self.k.f32, HK * D}, {e.self.v.f32, HK * D}});
        L.o = up.matrix({{e.self.o.f32, D * HK}});
        L.ln_ffn = up.f32(e.ln_ffn, D);
        ffn(L, e.ffn);
        g.enc.push_back(std::move(L));
    }
    const int64_t L_dec = static_cast<int64_t>(w.decoder.size());
    g.cross_kv_layer_bytes = size_t(2 * HK * D) * dtype_size(dtype);
    g.cross_kv = DeviceBuffer(size_t(L_dec) * g.cross_kv_layer_bytes);
    g.n_bytes += g.cross_kv.size();
    for (int64_t l = 0; l < L_dec; ++l) {
        const DecoderLayerWeights& d = w.decoder[size_t(l)];
        CudaLayerWeights L;
        L.ln_self = up.f32(d.ln_self, D);
        L.qkv = up.matrix({{d.self.q.f32, HK * D}, {d.self.k.f32, HK * D}, {d.self.v.f32, HK * D}});
        L.o = up.matrix({{d.self.o.f32, D * HK}});
        L.ln_cross = up.f32(d.ln_cross, D);
        L.q_cross = up.matrix({{d.cross.q.f32, HK * D}});
        L.o_cross = up.matrix({{d.cross.o.f32, D * HK}});
        if (absorbed_cross) {  // k_t[h, i, c] = k[h K + c, i]: per head [D, K], the absorbed query GEMM's weights
            RECEIPT_CHECK(d.cross.k.f32 != nullptr, ModelError, "missing cross-attention key weight");
            const int64_t K = c.d_kv, H = c.num_heads;
            std::vector<float> k_t(size_t(HK * D));
            for (int64_t h = 0; h < H; ++h)
                for (int64_t i = 0; i < D; ++i)
                    for (int64_t cc = 0; cc < K; ++cc)
                        k_t[size_t((h * D + i) * K + cc)] = d.cross.k.f32[(h * K + cc) * D + i];
            L.k_cross_t = up.matrix({{k_t.data(), HK * D}});
        }
        L.ln_ffn = up.f32(d.ln_ffn, D);
        ffn(L, d.ffn);
        // All decoder layers' cross K/V projections form one [L*2*HK, D] matrix; the encoder runs one GEMM per
        // layer on its [2*HK, D] block of rows (CudaT5Engine::encode).
        DeviceBuffer kv = up.matrix({{d.cross.k.f32, HK * D}, {d.cross.v.f32, HK * D}});
        g.n_bytes -= kv.size();
        RECEIPT_CUDA_CHECK(cudaMemcpyAsync(static_cast<char*>(g.cross_kv.get()) + size_t(l) * g.cross_kv_layer_bytes,
                                           kv.get(), g.cross_kv_layer_bytes, cudaMemcpyDeviceToDevice, stream));
        RECEIPT_CUDA_CHECK(cudaStreamSynchronize(stream));  // before kv is freed
        g.dec.push_back(std::move(L));
    }
    RECEIPT_CUDA_CHECK(cudaStreamSynchronize(stream));
    return g;
}

}  // namespace receipt::cuda
