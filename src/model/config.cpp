// config.json -> T5Config, mirroring transformers' T5Config defaults.
#include <fstream>
#include <nlohmann/json.hpp>

#include "receipt/config.h"
#include "receipt/errors.h"

namespace receipt {

namespace {

template <typename T>
T get_or(const nlohmann::json& j, const char* key, T fallback, const std::string& path) {
    auto it = j.find(key);
    if (it == j.end() || it->is_null()) return fallback;
    try {
        return it->get<T>();
    } catch (const nlohmann::json::exception& e) {
        RECEIPT_THROW(ModelError, path + ": key '" + key + "' has the wrong type: " + e.what());
    }
}

}  // namespace

T5Config load_t5_config(const std::string& path) {
    std::ifstream in(path);
    RECEIPT_CHECK(in.good(), ModelError, "cannot open model config '" + path + "' (is this a Hugging Face T5 folder?)");
    nlohmann::json j;
    try {
        in >> j;
    } catch (const nlohmann::json::exception& e) {
        RECEIPT_THROW(ModelError, path + ": invalid JSON: " + e.what());
    }
    RECEIPT_CHECK(j.is_object(), ModelError, path + ": expected a JSON object");

    T5Config c;
    c.d_model = get_or(j, "d_model", c.d_model, path);
    c.d_kv = get_or(j, "d_kv", c.d_kv, path);
    c.d_ff = get_or(j, "d_ff", c.d_ff, path);
    c.num_layers = get_or(j, "num_layers", c.num_layers, path);
    // transformers: num_decoder_layers defaults to num_layers.
    c.num_decoder_layers = get_or(j, "num_decoder_layers", c.num_layers, path);
    c.num_heads = get_or(j, "num_heads", c.num_heads, path);
    c.relative_attention_num_buckets = get_or(j, "relative_attention_num_buckets", c.relative_attention_num_buckets, path);
    c.relative_attention_max_distance =
        get_or(j, "relative_attention_max_distance", c.relative_attention_max_distance, path);
    c.tie_word_embeddings = get_or(j, "tie_word_embeddings", c.tie_word_embeddings, path);
    c.scale_decoder_outputs = get_or(j, "scale_decoder_outputs", c.tie_word_embeddings, path);
    c.vocab_size = get_or(j, "vocab_size", c.vocab_size, path);
    if (j.contains("receipt_engine") && j["receipt_engine"].is_object()) {
        const std::string tok = get_or(j["receipt_engine"], "tokenizer", std::string("huggingface"), path);
        RECEIPT_CHECK(tok == "huggingface" || tok == "sentencepiece", ModelError,
                      path + ": receipt_engine.tokenizer must be huggingface or sentencepiece");
        c.sentencepiece_tokenizer = tok == "sentencepiece";
    }
    c.pad_token_id = get_or(j, "pad_token_id", c.pad_token_id, path);
    c.eos_token_id = get_or(j, "eos_token_id", c.eos_token_id, path);
    c.decoder_start_token_id = get_or(j, "decoder_start_token_id", c.pad_token_id, path);
    c.layer_norm_epsilon = static_cast<float>(get_or(j, "layer_norm_epsilon", 1e-6, path));
    c.n_positions = get_or(j, "n_positions", c.n_positions, path);

    // feed_forward_proj: "relu", "gated-gelu" (v1.1 / flan / mT5), also "gated-relu" (some community models).
    std::string ff = get_or(j, "feed_forward_proj", std::string("relu"), path);
    if (ff == "relu") {
        c.feed_forward = FeedForward::kRelu;
    } else if (ff == "gated-gelu" || ff == "gated-gelu_new" || ff == "gated-gelu_pytorch_tanh") {
        c.feed_forward = FeedForward::kGatedGelu;
    } else if (ff == "gated-relu") {
        c.feed_forward = FeedForward::kGatedRelu;
    } else {
        RECEIPT_THROW(ModelError, path + ": unsupported feed_forward_proj '" + ff + "' (expected relu or gated-gelu)");
    }

    auto positive = [&](int v, const char* name) {
        RECEIPT_CHECK(v > 0, ModelError, path + ": " + name + " must be positive, got " + std::to_string(v));
    };
    positive(c.d_model, "d_model");
    positive(c.d_kv, "d_kv");
    positive(c.d_ff, "d_ff");
    positive(c.num_layers, "num_layers");
    positive(c.num_decoder_layers, "num_decoder_layers");
    positive(c.num_heads, "num_heads");
    positive(c.relative_attention_num_buckets, "relative_attention_num_buckets");
    positive(c.relative_attention_max_distance, "relative_attention_max_distance");
    positive(c.vocab_size, "vocab_size");
    RECEIPT_CHECK(c.eos_token_id >= 0 && c.eos_token_id < c.vocab_size, ModelError, path + ": eos_token_id out of range");
    RECEIPT_CHECK(c.decoder_start_token_id >= 0 && c.decoder_start_token_id < c.vocab_size, ModelError,
                  path + ": decoder_start_token_id out of range");
    return c;
}

}  // namespace receipt
