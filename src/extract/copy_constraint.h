// Copy constraint for numbers: while the model writes a phone number or an amount (tel, net, tax, total, and an
// item's amount), every run of digits it writes must be a run of digits printed in the receipt text.
// A seq2seq model trained from scratch copies digits imperfectly (045-717-0476 -> 045-177-0746); restricting
// the next digit to continuations of printed runs turns most such slips into the printed number.
#pragma once

#include <string>
#include <vector>

#include "receipt/engine.h"

namespace receipt {
class Tokenizer;
}

namespace receipt::extract {

// The digit runs of an OCR text, sorted and unique: maximal runs of ASCII digits after full-width digits are
// folded to ASCII, plus the joined form of thousands groups ("1,200" and "1.200" also give "1200"), decimal
// numbers ("1,200.50" gives "1200.50" and "200.50"), and the form with
// OCR confusions next to digits read as digits ("1,2O0" also gives "1200"; O/o/D -> 0, l/I/| -> 1, Z -> 2, S -> 5,
// b -> 6, B -> 8, g -> 9).
std::vector<std::string> digit_runs(const std::string& text);

// A LogitsProcessor for one generate() call over `texts` (the receipts in the order given to the engine).
// Only the constrained fields are touched, and only as follows, with r the number being written (the trailing
// digit tokens, and '.' in amounts, back to one that starts with a space):
//   * a digit token d that continues r is allowed iff r+d is a prefix of a printed run;
//   * a digit token that starts a new run, or any other token, is allowed iff r is empty or r is a printed run;
//   * when r is non-empty, not a printed run and has no printed continuation (the model already left the
//     printed numbers, e.g. on a garbled OCR line), nothing is masked.
// Everything else (other fields, text) is left to the model.
class CopyConstraint final : public LogitsProcessor {
public:
    CopyConstraint(const Tokenizer& tokenizer, int vocab_size, const std::vector<std::string>& texts);
    void process(int source, const std::vector<int>& generated, float* logits, int vocab) const override;

    // The field the output is in after `generated` ("tel", "net", "tax", "total", "item:3" for an item's
    // amount column, "item:N" for other columns, "" at the start or for unknown text). For tests.
    std::string field_at(const std::vector<int>& generated) const;

private:
    struct TokenInfo {
        std::string digits;  // the token's digits when it is only digits (after an optional leading space), else ""
        std::string number;  // the same for digits and '.' ("5", ".", ".5"), else ""
        bool space = false;  // starts with a space (U+2581): a digit token then starts a new run
    };
    bool prefix_of_run(int source, const std::string& prefix) const;
    bool is_run(int source, const std::string& digits) const;

    std::vector<std::string> texts_;  // per id: the piece as text (extract/target_tokens.h)
    std::vector<TokenInfo> tokens_;
    std::vector<int> number_ids_;  // ids whose TokenInfo::number is set, ascending
    std::vector<std::vector<std::string>> runs_;  // per source: digit_runs(text)
};

}  // namespace receipt::extract
