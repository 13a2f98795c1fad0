// Token texts of the target vocabulary and the segment of the target text a decode step is in; shared by the
// copy constraints (extract/copy_constraint.h, extract/name_constraint.h).
#pragma once

#include <string>
#include <vector>

namespace receipt {
class Tokenizer;
}

namespace receipt::extract {

// A SentencePiece piece as text: "<0x0A>" -> "\n" (byte pieces -> that byte), U+2581 -> ' '.
std::string piece_text(const std::string& piece);

// piece_text of every id below vocab_size; "" for pad, EOS, unk and ids past the tokenizer's pieces.
std::vector<std::string> token_texts(const Tokenizer& tokenizer, int vocab_size);

// Where the output is after `generated` (ids into `texts`): the current " | "-separated segment.
struct TargetSegment {
    std::string tag;     // "name", "addr", "item", ...; "" at the start or for text without "tag:"
    int column = 0;      // item segments: the number of ';' seen (0 = description, 3 = amount)
    std::string value;   // the text after "tag:" (item: after the last ';'), leading spaces kept
};
TargetSegment current_segment(const std::vector<std::string>& texts, const std::vector<int>& generated);

}  // namespace receipt::extract
