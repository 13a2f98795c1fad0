// T5 tokenizer over a SentencePiece model.
#pragma once

#include <memory>
#include <string>
#include <vector>

namespace receipt {

// How text maps to ids.
enum class TokenizerMode {
    // Id-for-id identical to Hugging Face's T5Tokenizer (transformers 5.x): special tokens written in the text
    // are matched first, byte-fallback pieces are not used (a run of unknown characters is one <unk>), half-width
    // kana + voiced mark clusters are normalised per code point, and decoding skips special tokens.
    kHuggingFace,
    // Plain SentencePiece with byte fallback (what receipt models trained with sentencepiece use).
    kSentencePiece,
};

// Wraps spiece.model. Thread-safe for concurrent encode/decode after construction.
class Tokenizer {
public:
    // Loads a SentencePiece model file; throws ModelError when missing or unreadable.
    explicit Tokenizer(const std::string& spiece_path, TokenizerMode mode = TokenizerMode::kHuggingFace);
    ~Tokenizer();
    Tokenizer(Tokenizer&&) noexcept;
    Tokenizer& operator=(Tokenizer&&) noexcept;

    // Text -> ids, with </s> appended when add_eos (as Hugging Face does).
    std::vector<int> encode(const std::string& text, bool add_eos = true) const;
    // Ids -> text, skipping special tokens (pad, eos, unk, <extra_id_*>).
    std::string decode(const std::vector<int>& ids) const;
    // The piece string of one id (for debugging / --ids output).
    std::string id_to_piece(int id) const;

    int pad_id() const;  // 0 for T5
    int eos_id() const;  // 1 for T5
    int unk_id() const;  // 2 for T5
    // Number of SentencePiece pieces (without T5's 100 <extra_id_*> tokens).
    int piece_count() const;
    TokenizerMode mode() const;

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace receipt
