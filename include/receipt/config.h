// T5 hyper-parameters, read from a Hugging Face config.json.
#pragma once

#include <string>

namespace receipt {

// Feed-forward flavour: T5 v1.0 uses relu (wo(relu(wi x))); v1.1 / flan / mT5 use gated-gelu
// (wo(gelu_new(wi_0 x) * wi_1 x)).
enum class FeedForward { kRelu, kGatedGelu, kGatedRelu };

// Mirrors transformers' T5Config. Letters used in shape comments: D = d_model, K = d_kv, H = num_heads,
// F = d_ff, V = vocab_size.
struct T5Config {
    int d_model = 512;                      // D
    int d_kv = 64;                          // K, per-head size (H*K need not equal D)
    int d_ff = 2048;                        // F
    int num_layers = 6;                     // encoder layers
    int num_decoder_layers = 6;             // decoder layers
    int num_heads = 8;                      // H
    int relative_attention_num_buckets = 32;
    int relative_attention_max_distance = 128;
    FeedForward feed_forward = FeedForward::kRelu;
    bool tie_word_embeddings = true;        // lm_head = shared embedding when the file has no lm_head.weight
    bool scale_decoder_outputs = true;      // decoder output scaled by D^-0.5 before lm_head (HF: tied models;
                                            // transformers 5.x writes the flag explicitly)
    int vocab_size = 32128;                 // V
    int decoder_start_token_id = 0;
    int eos_token_id = 1;
    int pad_token_id = 0;
    float layer_norm_epsilon = 1e-6f;
    int n_positions = 512;                  // informational: the length the model was trained for
    // Tokenizer rules: Hugging Face's T5Tokenizer (default), or plain SentencePiece with byte fallback when
    // config.json has "receipt_engine": {"tokenizer": "sentencepiece"} (models trained on sentencepiece ids).
    bool sentencepiece_tokenizer = false;
};

// Parses `path` (a config.json). Throws ModelError on a missing file, bad JSON or an unsupported value.
T5Config load_t5_config(const std::string& path);

}  // namespace receipt
