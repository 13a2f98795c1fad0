#include "model/t5_cpu_engine.h"

#include <algorithm>
#include <cstring>
#include <string>

#include "generate/search.h"
#include "core/buffer.h"
#include "model/relative_position.h"
#include "model/t5_ffn_cpu.h"
#include "ops/attention.h"
#include "ops/elementwise.h"
#include "ops/linear.h"
#include "receipt/errors.h"

namespace receipt {

CpuT5Engine::CpuT5Engine(std::shared_ptr<const Model> model, const EngineOptions& options)
    : model_(std::move(model)),
      options_(options),
      weights_(*model_),
      decoder_(*model_, weights_),
      cache_(size_t(std::max(0, options.encoder_cache_mib)) << 20) {
    options_.draft_tokens = resolve_draft_tokens(options.draft_tokens, Device::kCpu);
    ops::set_cpu_threads(options.n_threads);
}

std::string CpuT5Engine::describe() const {
    return "cpu fp32, " + std::to_string(ops::cpu_threads()) + " threads" +
           (options_.draft_tokens > 0 ? ", " + std::to_string(options_.draft_tokens) + " draft tokens" : "");
}

void CpuT5Engine::validate(const std::vector<std::vector<int>>& inputs, const GenerationOptions* o) const {
    const auto& c = model_->config();
    for (size_t i = 0; i < inputs.size(); ++i) {
        RECEIPT_CHECK(!inputs[i].empty(), InvalidInput, "input " + std::to_string(i) + " is empty");
        RECEIPT_CHECK(static_cast<int>(inputs[i].size()) <= options_.max_input_tokens, InvalidInput,
                      "input " + std::to_string(i) + " has " + std::to_string(inputs[i].size()) +
                          " tokens, more than the engine's max_input_tokens " +
                          std::to_string(options_.max_input_tokens));
        for (int id : inputs[i])
            RECEIPT_CHECK(id >= 0 && id < c.vocab_size, InvalidInput,
                          "input " + std::to_string(i) + " has token id " + std::to_string(id) + " outside [0, " +
                              std::to_string(c.vocab_size) + ")");
    }
    if (o) {
        RECEIPT_CHECK(o->num_beams >= 1 && o->num_beams <= 64, InvalidInput, "num_beams must be in [1, 64]");
        RECEIPT_CHECK(o->max_new_tokens >= 1 && o->max_new_tokens <= 4096, InvalidInput,
                      "max_new_tokens must be in [1, 4096]");
        RECEIPT_CHECK(o->min_new_tokens >= 0 && o->min_new_tokens <= o->max_new_tokens, InvalidInput,
                      "min_new_tokens must be in [0, max_new_tokens]");
        for (int id : o->draft_context)
            RECEIPT_CHECK(id >= 0 && id < c.vocab_size, InvalidInput, "draft_context holds a token id out of range");
    }
}

void CpuT5Engine::encode(const std::vector<std::vector<int>>& inputs, std::vector<float>& out, int& S,
                         std::vector<std::vector<float>>* hidden) {
    const auto& c = model_->config();
    const int B = static_cast<int>(inputs.size());
    const int D = c.d_model, H = c.num_heads, K = c.d_kv, HK = H * K, F = c.d_ff;
    S = 0;
    std::vector<int> lengths(B);
    for (int b = 0; b < B; ++b) {
        lengths[b] = static_cast<int>(inputs[b].size());
        S = std::max(S, lengths[b]);
    }
    const int64_t M = int64_t(B) * S;
    grow(x_, M * D);
    grow(h_, M * D);
    grow(q_, M * HK);
    grow(k_, M * HK);
    grow(v_, M * HK);
    grow(ctx_, M * HK);
    out.resize(M * D);
    if (hidden) hidden->clear();

    // x[b, s, :] = shared[id]; padding rows use the pad embedding.
    for (int b = 0; b < B; ++b)
        for (int s = 0; s < S; ++s) {
            const int id = s < lengths[b] ? inputs[b][s] : c.pad_token_id;
            std::memcpy(x_.data() + (int64_t(b) * S + s) * D, weights_.shared + int64_t(id) * D, sizeof(float) * D);
        }
    encoder_position_bias(*model_, S, bias_);  // [H, S, S], shared by every layer

    for (int l = 0; l < c.num_layers; ++l) {
        if (hidden) hidden->emplace_back(x_.begin(), x_.begin() + M * D);
        const EncoderLayerWeights& lw = weights_.encoder[l];
        ops::rms_norm_cpu(x_.data(), lw.ln_attn, M, D, c.layer_norm_epsilon, h_.data());
        ops::linear_cpu(h_.data(), M, D, lw.self.q.f32, HK, q_.data());
        ops::linear_cpu(h_.data(), M, D, lw.self.k.f32, HK, k_.data());
        ops::linear_cpu(h_.data(), M, D, lw.self.v.f32, HK, v_.data());
        ops::encoder_attention_cpu(q_.data(), k_.data(), v_.data(), bias_.data(), lengths.data(), B, S, H, K,
                                   ctx_.data(), scratch_);
        ops::linear_cpu(ctx_.data(), M, HK, lw.self.o.f32, D, x_.data(), 1.0f);
        ops::rms_norm_cpu(x_.data(), lw.ln_ffn, M, D, c.layer_norm_epsilon, h_.data());
        t5_ffn_cpu(lw.ffn, c.feed_forward, h_.data(), M, D, F, x_.data(), ff_a_, ff_b_);
    }
    ops::rms_norm_cpu(x_.data(), weights_.encoder_final_ln, M, D, c.layer_norm_epsilon, out.data());
    if (hidden) hidden->emplace_back(out.begin(), out.end());
}

std::vector<float> CpuT5Engine::first_step_logits(const std::vector<std::vector<int>>& inputs,
                                                  std::vector<std::vector<float>>* decoder_hidden) {
    validate(inputs, nullptr);
    const auto& c = model_->config();
    int S = 0;
    encode(inputs, enc_out_, S);
    std::vector<int> lengths;
    for (const auto& in : inputs) lengths.push_back(static_cast<int>(in.size()));
    decoder_.reset(enc_out_.data(), lengths, S, 1, 1);
    decoder_.capture_hidden = decoder_hidden != nullptr;
    std::vector<float> logits(inputs.size() * size_t(c.vocab_size));
    decoder_.step(std::vector<int>(inputs.size(), c.decoder_start_token_id), 0, logits.data());
    if (decoder_hidden) *decoder_hidden = decoder_.hidden;
    decoder_.capture_hidden = false;
    return logits;
}

void CpuT5Engine::encode_cached(const std::vector<std::vector<int>>& inputs, int& S) {
    const int B = static_cast<int>(inputs.size());
    const int D = model_->config().d_model;
    std::vector<const float*> found(B);
    std::vector<int> miss;  // indices of the sources to encode
    for (int b = 0; b < B; ++b)
        if (!(found[b] = cache_.find(inputs[b]))) miss.push_back(b);
    if (int(miss.size()) == B) {  // nothing cached (a first pass): encode as one batch, as without the cache
        encode(inputs, enc_out_, S);
        for (int b = 0; b < B; ++b) cache_.put(inputs[b], enc_out_.data() + int64_t(b) * S * D, D);
        return;
    }
    S = 0;
    for (const auto& in : inputs) S = std::max(S, static_cast<int>(in.size()));
    enc_out_.assign(size_t(B) * S * D, 0.0f);
    // Copy the hits before put() below may evict them.
    for (int b = 0; b < B; ++b)
        if (found[b]) std::memcpy(enc_out_.data() + int64_t(b) * S * D, found[b], sizeof(float) * inputs[b].size() * D);
    if (miss.empty()) return;
    std::vector<std::vector<int>> rest;
    for (int b : miss) rest.push_back(inputs[b]);
    int S_rest = 0;
    encode(rest, miss_out_, S_rest);
    for (size_t j = 0; j < miss.size(); ++j) {
        const float* rows = miss_out_.data() + int64_t(j) * S_rest * D;
        std::memcpy(enc_out_.data() + int64_t(miss[j]) * S * D, rows, sizeof(float) * rest[j].size() * D);
        cache_.put(rest[j], rows, D);
    }
}

std::vector<GenerationResult> CpuT5Engine::generate_chunk(const std::vector<std::vector<int>>& inputs,
                                                          const GenerationOptions& options, int first) {
    const auto& c = model_->config();
    int S = 0;
    encode_cached(inputs, S);  // once per request, or not at all for a source encoded before
    std::vector<int> lengths;
    for (const auto& in : inputs) lengths.push_back(static_cast<int>(in.size()));
    // Drafts for calls of at most kMaxHostSpeculativeBatch sources (where they pay; engine.h).
    const bool speculative = options.num_beams == 1 && options_.draft_tokens > 0 &&
                             inputs.size() <= static_cast<size_t>(kMaxHostSpeculativeBatch);
    decoder_.reset(enc_out_.data(), lengths, S, options.num_beams, options.max_new_tokens,
                   speculative ? 1 + options_.draft_tokens : 1);
    SearchTokens tokens{c.decoder_start_token_id, c.eos_token_id, c.pad_token_id};
    const int B = static_cast<int>(inputs.size());
    if (speculative)
        return speculative_greedy_search(decoder_, inputs, options, tokens, options_.draft_tokens, first, &spec_stats_);
    return options.num_beams == 1 ? greedy_search(decoder_, B, options, tokens, first)
                                  : beam_search(decoder_, B, options, tokens);
}

std::vector<GenerationResult> CpuT5Engine::generate(const std::vector<std::vector<int>>& inputs,
                                                    const GenerationOptions& options) {
    validate(inputs, &options);
    std::vector<GenerationResult> results;
    results.reserve(inputs.size());
    // Chunks of at most max_batch_size decoder rows (sources x beams).
    const size_t per_chunk = std::max(1, options_.max_batch_size / options.num_beams);
    for (size_t i = 0; i < inputs.size(); i += per_chunk) {
        std::vector<std::vector<int>> chunk(inputs.begin() + i,
                                            inputs.begin() + std::min(inputs.size(), i + per_chunk));
        auto part = generate_chunk(chunk, options, static_cast<int>(i));
        for (auto& r : part) results.push_back(std::move(r));
    }
    return results;
}

}  // namespace receipt
