// The only file that includes sentencepiece headers.
#include "receipt/tokenizer.h"

#include <sentencepiece_processor.h>

#include "receipt/errors.h"

namespace receipt {

struct Tokenizer::Impl {
    sentencepiece::SentencePieceProcessor sp;
    int n_pieces = 0;
};

Tokenizer::Tokenizer(const std::string& spiece_path) : impl_(std::make_unique<Impl>()) {
    auto status = impl_->sp.Load(spiece_path);
    RECEIPT_CHECK(status.ok(), ModelError, "cannot load tokenizer '" + spiece_path + "': " + status.ToString());
    impl_->n_pieces = impl_->sp.GetPieceSize();
}

Tokenizer::~Tokenizer() = default;
Tokenizer::Tokenizer(Tokenizer&&) noexcept = default;
Tokenizer& Tokenizer::operator=(Tokenizer&&) noexcept = default;

std::vector<int> Tokenizer::encode(const std::string& text, bool add_eos) const {
    std::vector<int> ids;
    auto status = impl_->sp.Encode(text, &ids);
    RECEIPT_CHECK(status.ok(), InvalidInput, "cannot tokenize text: " + status.ToString());
    if (add_eos) ids.push_back(eos_id());
    return ids;
}

std::string Tokenizer::decode(const std::vector<int>& ids) const {
    std::vector<int> kept;
    kept.reserve(ids.size());
    for (int id : ids) {
        // Special tokens are skipped: pad, eos, unk and T5's <extra_id_*> (ids past the SentencePiece vocabulary).
        if (id < 0 || id >= impl_->n_pieces) continue;
        if (id == pad_id() || id == eos_id() || id == unk_id()) continue;
        if (impl_->sp.IsControl(id)) continue;
        kept.push_back(id);
    }
    std::string text;
    auto status = impl_->sp.Decode(kept, &text);
    RECEIPT_CHECK(status.ok(), InvalidInput, "cannot decode ids: " + status.ToString());
    return text;
}

std::string Tokenizer::id_to_piece(int id) const {
    if (id >= 0 && id < impl_->n_pieces) return impl_->sp.IdToPiece(id);
    return "<extra_id_" + std::to_string(id) + ">";
}

int Tokenizer::pad_id() const { return impl_->sp.pad_id() >= 0 ? impl_->sp.pad_id() : 0; }
int Tokenizer::eos_id() const { return impl_->sp.eos_id() >= 0 ? impl_->sp.eos_id() : 1; }
int Tokenizer::unk_id() const { return impl_->sp.unk_id(); }
int Tokenizer::piece_count() const { return impl_->n_pieces; }

}  // namespace receipt
