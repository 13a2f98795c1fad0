#include "extract/target_tokens.h"

#include <algorithm>
#include <cstdlib>

#include "receipt/tokenizer.h"

namespace receipt::extract {

std::string piece_text(const std::string& piece) {
    if (piece.size() == 6 && piece.compare(0, 3, "<0x") == 0 && piece[5] == '>') {
        const int v = static_cast<int>(std::strtol(piece.substr(3, 2).c_str(), nullptr, 16));
        return std::string(1, static_cast<char>(v));
    }
    static const std::string kSpace = "\xE2\x96\x81";
    std::string out;
    for (size_t i = 0; i < piece.size();) {
        if (piece.compare(i, kSpace.size(), kSpace) == 0) {
            out += ' ';
            i += kSpace.size();
        } else {
            out += piece[i++];
        }
    }
    return out;
}

std::vector<std::string> token_texts(const Tokenizer& tokenizer, int vocab_size) {
    std::vector<std::string> texts(static_cast<size_t>(std::max(vocab_size, 0)));
    const int n_pieces = std::min(vocab_size, tokenizer.piece_count());
    for (int id = 0; id < n_pieces; ++id) {
        if (id == tokenizer.pad_id() || id == tokenizer.eos_id() || id == tokenizer.unk_id()) continue;
        texts[size_t(id)] = piece_text(tokenizer.id_to_piece(id));
    }
    return texts;
}

TargetSegment current_segment(const std::vector<std::string>& texts, const std::vector<int>& generated) {
    // Text of the current segment: the tokens after the last '|' (walking back from the end).
    std::string seg;
    for (size_t k = generated.size(); k-- > 0;) {
        const int id = generated[k];
        const std::string& text = (id >= 0 && size_t(id) < texts.size()) ? texts[size_t(id)] : std::string();
        const size_t bar = text.rfind('|');
        if (bar != std::string::npos) {
            seg.insert(0, text.substr(bar + 1));
            break;
        }
        seg.insert(0, text);
        if (seg.size() > 4096) return {};  // a runaway segment: leave it alone
    }
    TargetSegment out;
    const size_t start = seg.find_first_not_of(' ');
    if (start == std::string::npos) return out;
    const size_t colon = seg.find(':', start);
    if (colon == std::string::npos) return out;
    out.tag = seg.substr(start, colon - start);
    out.value = seg.substr(colon + 1);
    if (out.tag == "item") {
        out.column = static_cast<int>(std::count(out.value.begin(), out.value.end(), ';'));
        const size_t semi = out.value.rfind(';');
        if (semi != std::string::npos) out.value = out.value.substr(semi + 1);
    }
    return out;
}

}  // namespace receipt::extract
