// The shipped receipt model's example receipts (examples/*.txt) as token ids, and the CPU fp32 reference engine the
// CUDA tests compare against on them.
#pragma once

#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "receipt/engine.h"
#include "receipt/model.h"
#include "receipt/tokenizer.h"
#include "test_files.h"

namespace receipt::test {

// Token ids (plain SentencePiece, as the shipped model reads them) of examples/receipt-en.txt,
// receipt-ja-konbini.txt and receipt-ja-super.txt.
inline std::vector<std::vector<int>> example_inputs(const Model& model) {
    Tokenizer tok(model.tokenizer_path(), TokenizerMode::kSentencePiece);
    std::vector<std::vector<int>> inputs;
    for (const char* name : {"receipt-en", "receipt-ja-konbini", "receipt-ja-super"})
        inputs.push_back(tok.encode(read_file(std::string(RECEIPT_SOURCE_DIR) + "/examples/" + name + ".txt")));
    return inputs;
}

// Receipt texts for the shipped model: examples/*.txt (as example_inputs()), then the "text" of every line of the
// committed training sample train/samples/train_sample.jsonl (20 receipts: CORD, synthetic ja and en).
inline std::vector<std::string> example_and_sample_texts() {
    std::vector<std::string> texts;
    for (const char* name : {"receipt-en", "receipt-ja-konbini", "receipt-ja-super"})
        texts.push_back(read_file(std::string(RECEIPT_SOURCE_DIR) + "/examples/" + name + ".txt"));
    std::ifstream sample(std::string(RECEIPT_SOURCE_DIR) + "/train/samples/train_sample.jsonl");
    for (std::string line; std::getline(sample, line);)
        if (!line.empty()) texts.push_back(nlohmann::json::parse(line).at("text").get<std::string>());
    return texts;
}

// CPU engine options for up to 512 input tokens and `max_new_tokens` output tokens.
inline EngineOptions cpu_reference_options(int max_new_tokens) {
    EngineOptions ce;
    ce.device = Device::kCpu;
    ce.max_input_tokens = 512;
    ce.max_total_tokens = max_new_tokens + 1;
    return ce;
}

}  // namespace receipt::test
