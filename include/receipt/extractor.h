// Receipt extraction: OCR text in, schema-valid JSON fields out (tokenize -> generate -> parse).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "receipt/engine.h"

namespace receipt {

class Model;
class Tokenizer;
namespace extract {
struct KnownLists;
}

// Per-request knobs.
struct ExtractOptions {
    // Defaults: greedy, max_new_tokens 512. An empty draft_context is filled with typical targets (labels the
    // receipt does not print) for speculative decoding (EngineOptions::draft_tokens).
    GenerationOptions generation;
    bool truncate = true;          // too-long input: truncate with a warning (true) or throw InvalidInput (false)
    // Greedy only: phone numbers and amounts may only use digit runs printed in the receipt text
    // (extract/copy_constraint.h); other fields are untouched.
    bool copy_numbers = true;
    // Greedy only: the store name is copied from the printed text, in a short extra pass
    // (extract/name_constraint.h).
    bool copy_name = true;
    // Greedy only: an address that is not printed on the receipt is copied from the printed text, in an extra
    // pass that repeats the output up to the address (extract/name_constraint.h).
    bool copy_address = true;
    // A receipt date or time that is not printed on the receipt is replaced by the printed one closest to it
    // (no date at all: the first printed date), with a warning (extract/printed_value.h).
    bool copy_date = true;
    // A store name, item description, store address or word of a Latin-script address whose letters OCR dropped is
    // restored to the spelling of one known from training (known_names.txt, known_items.txt, known_addresses.txt
    // and known_address_words.txt in the model folder, where present; extract/known_names.h), with a warning.
    bool known_names = true;
    // A text that reads as one line per printed row (an OCR engine's text lines: "TOTAL : 80.90") gets its amounts
    // put on lines of their own, the layout the model was trained on (extract/row_split.h).
    bool split_rows = true;
    ExtractOptions() { generation.max_new_tokens = 512; }
};

// The result for one receipt.
struct Extraction {
    std::string fields_json;       // one JSON object: the schema's keys plus "warnings" (an array of strings)
    std::string target_text;       // the model's raw linearised output (for debugging / eval)
    int n_input_tokens = 0;        // after truncation, EOS included
    int n_output_tokens = 0;       // generated tokens
};

// Owns one Engine and a Tokenizer; shares the Model. Not thread-safe: one Extractor per worker thread.
class Extractor {
public:
    // Loads the tokenizer from the model folder and creates an engine with `options`.
    Extractor(std::shared_ptr<const Model> model, const EngineOptions& options);
    ~Extractor();

    // Extracts fields from each text, in order. Throws InvalidInput for a non-UTF-8 text, one of whitespace alone,
    // or a too-long text when !options.truncate. Each text is first folded to the form the model was trained on
    // (extract/input_text.h: full-width ASCII, odd spaces, a byte order mark, CRLF, blank lines), so values come
    // back in ASCII ("￥１，２３０" is 1230, "ＴＥＬ０３..." a phone "03..."), and a text written one line per printed
    // row has its amounts put on lines of their own (options.split_rows). Never throws on malformed model output:
    // the parser returns partial fields plus warnings instead.
    std::vector<Extraction> extract(const std::vector<std::string>& texts, const ExtractOptions& options = {});

    // Number of tokens `text` encodes to (EOS included), before truncation, as extract() reads it by default.
    int count_tokens(const std::string& text) const;
    // Longest input (tokens, EOS included) the engine accepts; longer inputs are truncated.
    int max_input_tokens() const;
    // The engine's device and description.
    Device device() const;
    std::string describe() const;
    // The engine's speculative decoding counts (EngineOptions::draft_tokens; every pass of extract() counts).
    SpeculationStats speculation_stats() const;

private:
    std::shared_ptr<const Model> model_;
    std::unique_ptr<Tokenizer> tokenizer_;
    std::unique_ptr<Engine> engine_;
    int max_input_tokens_;
    struct ConstraintVocabs;  // the copy and name constraints' vocabulary tables, built once
    std::shared_ptr<const ConstraintVocabs> vocabs_;
    std::shared_ptr<const extract::KnownLists> known_;  // the model folder's known_*.txt lists (empty where missing)
};

// The bundled default model folder: $RECEIPT_MODEL_DIR when set, else the first of
// <exe dir>/../share/receipt-engine/models/receipt-t5-small, <source dir>/models/receipt-t5-small that exists.
// `source_dir` is the build's source folder (compile-time). Throws ModelError when none exists.
std::string default_model_dir(const std::string& exe_path, const std::string& source_dir);

}  // namespace receipt
