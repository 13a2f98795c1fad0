// The only file that includes sentencepiece headers. Hugging Face compatibility rules are documented in
// tests/golden/README.md ("HF tokenizer vs raw sentencepiece").
#include "receipt/tokenizer.h"

#include <sentencepiece_processor.h>

#include <cstring>

#include "receipt/errors.h"

namespace receipt {

namespace {

constexpr int kExtraIds = 100;  // T5's <extra_id_0..99>, numbered down from the top of the vocabulary

// Decodes one UTF-8 code point at s[i] (advancing i); invalid bytes return U+FFFD and advance by one.
char32_t next_cp(const std::string& s, size_t& i) {
    const auto c = static_cast<unsigned char>(s[i]);
    int n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
    if (n == 0 || i + n > s.size()) {
        ++i;
        return 0xFFFD;
    }
    char32_t cp = n == 1 ? c : c & (0xFF >> (n + 1));
    for (int k = 1; k < n; ++k) cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
    i += n;
    return cp;
}

bool is_kana(char32_t cp) {
    return (cp >= 0xFF66 && cp <= 0xFF9D) || (cp >= 0x3041 && cp <= 0x30FF);
}
bool is_voicing_mark(char32_t cp) { return cp == 0xFF9E || cp == 0xFF9F || cp == 0x3099 || cp == 0x309A; }

}  // namespace

struct Tokenizer::Impl {
    sentencepiece::SentencePieceProcessor sp;
    TokenizerMode mode = TokenizerMode::kHuggingFace;
    int n_pieces = 0;
    bool marks_are_pieces = false;  // U+3099 / U+309A exist as pieces

    // Encodes a chunk that holds no special token, applying the HF normalisation / unknown-run rules.
    void encode_chunk(const std::string& chunk, std::vector<int>& out) const {
        std::string text = chunk;
        if (mode == TokenizerMode::kHuggingFace && !marks_are_pieces) {
            // HF normalises a kana + voiced-mark cluster (6 UTF-8 bytes) per code point, so the mark does not
            // compose with the kana and ends up <unk>. A private-use character gives the same effect here.
            std::string fixed;
            size_t i = 0;
            char32_t prev = 0;
            while (i < text.size()) {
                const size_t start = i;
                const char32_t cp = next_cp(text, i);
                if (is_voicing_mark(cp) && is_kana(prev)) {
                    fixed += "\xEE\x80\x80";  // U+E000
                } else {
                    fixed.append(text, start, i - start);
                }
                prev = cp;
            }
            text.swap(fixed);
        }
        std::vector<int> ids;
        auto status = sp.Encode(text, &ids);
        RECEIPT_CHECK(status.ok(), InvalidInput, "cannot tokenize text: " + status.ToString());
        if (mode == TokenizerMode::kSentencePiece) {
            out.insert(out.end(), ids.begin(), ids.end());
            return;
        }
        // HF's Unigram has no byte fallback: a run of unknown characters (byte pieces or <unk>) is one <unk>.
        const int unk = sp.unk_id();
        for (int id : ids) {
            const bool unknown = id == unk || sp.IsByte(id);
            if (unknown && !out.empty() && out.back() == unk) continue;
            out.push_back(unknown ? unk : id);
        }
    }
};

Tokenizer::Tokenizer(const std::string& spiece_path, TokenizerMode mode) : impl_(std::make_unique<Impl>()) {
    auto status = impl_->sp.Load(spiece_path);
    RECEIPT_CHECK(status.ok(), ModelError, "cannot load tokenizer '" + spiece_path + "': " + status.ToString());
    impl_->mode = mode;
    impl_->n_pieces = impl_->sp.GetPieceSize();
    impl_->marks_are_pieces = impl_->sp.PieceToId("\xE3\x82\x99") != impl_->sp.unk_id();
}

Tokenizer::~Tokenizer() = default;
Tokenizer::Tokenizer(Tokenizer&&) noexcept = default;
Tokenizer& Tokenizer::operator=(Tokenizer&&) noexcept = default;

std::vector<int> Tokenizer::encode(const std::string& text, bool add_eos) const {
    std::vector<int> ids;
    // Special tokens written in the text are matched first (exact, case-sensitive); the chunks between them are
    // encoded separately, each with its own word-start prefix; whitespace-only chunks yield nothing.
    size_t pos = 0, chunk_start = 0;
    auto flush = [&](size_t end) {
        if (end > chunk_start) {
            std::string chunk = text.substr(chunk_start, end - chunk_start);
            if (chunk.find_first_not_of(" \t\n\r\f\v") != std::string::npos) impl_->encode_chunk(chunk, ids);
        }
    };
    while (pos < text.size()) {
        int special = -1;
        size_t len = 0;
        if (text[pos] == '<') {
            if (text.compare(pos, 4, "</s>") == 0) {
                special = eos_id(), len = 4;
            } else if (text.compare(pos, 5, "<pad>") == 0) {
                special = pad_id(), len = 5;
            } else if (text.compare(pos, 5, "<unk>") == 0) {
                special = unk_id(), len = 5;
            } else if (text.compare(pos, 10, "<extra_id_") == 0) {
                size_t p = pos + 10, n = 0;
                int v = 0;
                while (p < text.size() && n < 3 && std::isdigit(static_cast<unsigned char>(text[p])))
                    v = v * 10 + (text[p++] - '0'), ++n;
                if (n > 0 && p < text.size() && text[p] == '>' && v < kExtraIds && !(n > 1 && text[pos + 10] == '0')) {
                    special = impl_->n_pieces + kExtraIds - 1 - v;
                    len = p + 1 - pos;
                }
            }
        }
        if (special >= 0) {
            flush(pos);
            ids.push_back(special);
            pos += len;
            chunk_start = pos;
        } else {
            ++pos;
        }
    }
    flush(text.size());
    if (add_eos) ids.push_back(eos_id());
    return ids;
}

std::string Tokenizer::decode(const std::vector<int>& ids) const {
    const auto& sp = impl_->sp;
    std::vector<int> kept;
    kept.reserve(ids.size());
    for (int id : ids) {
        // Special tokens are skipped wherever they are: pad, eos, unk, control pieces and <extra_id_*>.
        if (id < 0 || id >= impl_->n_pieces) continue;
        if (id == pad_id() || id == eos_id() || id == unk_id() || sp.IsControl(id) || sp.IsUnknown(id)) continue;
        kept.push_back(id);
    }
    if (impl_->mode == TokenizerMode::kSentencePiece) {
        std::string text;
        auto status = sp.Decode(kept, &text);
        RECEIPT_CHECK(status.ok(), InvalidInput, "cannot decode ids: " + status.ToString());
        return text;
    }
    // HF: concatenate pieces, "▁" -> " ", drop one leading space; byte pieces stay literal ("<0xF0>").
    std::string text;
    for (int id : kept) {
        const std::string& piece = sp.IdToPiece(id);
        for (size_t i = 0; i < piece.size();) {
            if (piece.compare(i, 3, "\xE2\x96\x81") == 0) {
                text.push_back(' ');
                i += 3;
            } else {
                text.push_back(piece[i++]);
            }
        }
    }
    if (!text.empty() && text[0] == ' ') text.erase(0, 1);
    return text;
}

std::string Tokenizer::id_to_piece(int id) const {
    if (id >= 0 && id < impl_->n_pieces) return impl_->sp.IdToPiece(id);
    if (id >= impl_->n_pieces && id < impl_->n_pieces + kExtraIds)
        return "<extra_id_" + std::to_string(impl_->n_pieces + kExtraIds - 1 - id) + ">";
    return "<invalid:" + std::to_string(id) + ">";
}

int Tokenizer::pad_id() const { return impl_->sp.pad_id() >= 0 ? impl_->sp.pad_id() : 0; }
int Tokenizer::eos_id() const { return impl_->sp.eos_id() >= 0 ? impl_->sp.eos_id() : 1; }
int Tokenizer::unk_id() const { return impl_->sp.unk_id(); }
int Tokenizer::piece_count() const { return impl_->n_pieces; }
TokenizerMode Tokenizer::mode() const { return impl_->mode; }

}  // namespace receipt
