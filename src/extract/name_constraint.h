// Copy constraint for printed text fields, the store name and the address: the text the model writes must be
// printed in the receipt. A small model trained from scratch misspells store names it has never seen
// (ナチュラルローソン -> ナチョラルソルラーメン, or a memorised name of another store) and writes memorised addresses
// of other shops of a chain; copying from the printed text fixes that.
// Used as separate short passes (extract/extractor.cpp): the forced field is taken from them, and the other
// fields from an unconstrained pass, because a forced field can lead the model astray in the later fields.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "receipt/engine.h"

namespace receipt {
class Tokenizer;
}

namespace receipt::extract {

// A receipt text prepared for matching: whitespace is removed (the model may add or drop spaces, as OCR loses
// and adds them), and the positions where words and lines started are kept.
struct CompactText {
    std::string text;                // the bytes of the receipt without whitespace (' ', \t, \r, \n, U+3000)
    std::vector<int> word_starts;    // offsets into text where a whitespace-separated word began, ascending
    std::vector<int> line_starts;    // offsets into text where a line began (a subset of word_starts)

    // True when a printed word starts at offset i of text.
    bool word_start(size_t i) const;
    // text[begin, end) as printed, its spaces normalised: one space wherever a word starts inside it.
    std::string spaced(size_t begin, size_t end) const;
};
CompactText compact_text(const std::string& text);

// Whitespace removed (as compact_text, without the word and line starts).
std::string strip_spaces(const std::string& s);

// True when `value` (spaces aside) is printed in `text` as NameConstraint allows it: from a word start, within
// max_lines lines, to a word end. Such a value is what the constrained pass would give, so it needs none.
bool text_is_printed(const std::string& text, const std::string& value, int max_lines);
// The first span [begin, end) of c.text where v (without spaces) is printed so: from a word start, within
// max_lines lines, to a word end. nullopt when there is none.
std::optional<std::pair<size_t, size_t>> printed_span(const CompactText& c, const std::string& v, int max_lines);
// text_is_printed for a store name (NameConstraint::kMaxLines lines).
bool name_is_printed(const std::string& text, const std::string& name);

// True when `name` (spaces aside) is printed in `text` as name_is_printed() asks but for one character that the
// receipt lacks (not a digit, at least 3 characters left): OCR dropped a character of a name the model knows
// ("ファミリーマート" printed "ファミリーマー", "ショッピングセンター店" printed "ショッピングセンタ店"). The model's
// name is then kept rather than copied from the damaged print (the Japanese development set: 3 names right, none
// lost; two or more characters let the model's misspellings of unseen names through). A Latin-script name (on a
// receipt in Latin script) counts only when with the character left out it is one of the first lines whole: on
// SROIE validation a Latin name matched anywhere had a stray word ("Y SOON FATT S/B" for the printed "YONG SOON
// FATT S/B").
bool name_printed_but_one(const std::string& text, const std::string& name);

// The field a NameConstraint constrains: its tag in the target text and the most printed lines its value may span
// (a store name: chain and branch).
struct PrintedField {
    std::string tag = "name";
    int max_lines = 2;
};

// A LogitsProcessor for one generate() call over `texts` (the receipts in the order given to the engine).
// The output first repeats the source's forced prefix (when given: token ids, e.g. the first pass's output up to
// "addr:"), one token at a time. Then, while the model writes the constrained field (PrintedField::tag), with v the
// value so far (spaces removed), a token t is allowed iff
//   * v + t (spaces removed) occurs in the receipt (spaces removed) starting where a printed word starts and
//     ending within PrintedField::max_lines printed lines of the one it starts on, and a token that starts with a space
//     (or is only spaces) continues v only where a printed word starts;
//   * or t ends a non-empty value ('|' first, or EOS) where v ends a printed word (or the last allowed line), and
//     v does not end inside a character written as byte pieces.
// Every other token is forbidden. When v occurs nowhere (no printed text to copy), nothing is changed. Once the
// output is past the field (any other tag), only EOS is allowed: the pass decodes up to the field alone.
class NameConstraint final : public LogitsProcessor {
public:
    static constexpr int kMaxLines = PrintedField{}.max_lines;  // lines of a store name (chain, branch)


    // What the constraint needs of the vocabulary; it depends on the tokenizer alone, so one serves every
    // NameConstraint over it (building it takes milliseconds: keep it rather than rebuild it per call).
    struct Vocab {
        std::vector<std::string> texts;                             // per id: the piece as text
        std::unordered_map<std::string, std::vector<int>> by_text;  // spaces-removed piece -> ids
        std::vector<char> spaced;  // per id: the piece starts with a space
        std::vector<int> spaces;   // ids of only whitespace (allowed where a printed word starts)
        std::vector<int> always;   // ids that end the name: '|'-led, and EOS
        int eos = -1;
        size_t max_len = 0;        // longest spaces-removed piece, bytes
    };
    static std::shared_ptr<const Vocab> make_vocab(const Tokenizer& tokenizer, int vocab_size);

    // prefixes: per source, token ids to repeat before the field (empty: none; else one per text).
    NameConstraint(std::shared_ptr<const Vocab> vocab, const std::vector<std::string>& texts, PrintedField field = {},
                   std::vector<std::vector<int>> prefixes = {});
    NameConstraint(const Tokenizer& tokenizer, int vocab_size, const std::vector<std::string>& texts)
        : NameConstraint(make_vocab(tokenizer, vocab_size), texts) {}
    void process(int source, const std::vector<int>& generated, float* logits, int vocab) const override;

private:
    std::shared_ptr<const Vocab> vocab_;
    std::vector<CompactText> sources_;
    PrintedField field_;
    std::vector<std::vector<int>> prefixes_;
};

}  // namespace receipt::extract
