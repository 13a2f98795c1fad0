// The shipped receipt model's SentencePiece tokenizer and vocabulary size, for the tests of the extraction
// constraints (which work on its pieces), and a membership check for their string lists.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

inline const std::string kShippedSpiece = std::string(RECEIPT_SOURCE_DIR) + "/models/receipt-t5-small/spiece.model";
inline constexpr int kShippedVocab = 8100;  // models/receipt-t5-small/config.json vocab_size

// True when `v` holds `s`.
inline bool has(const std::vector<std::string>& v, const std::string& s) {
    return std::find(v.begin(), v.end(), s) != v.end();
}
