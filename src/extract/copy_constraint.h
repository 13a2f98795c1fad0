// Copy constraint for numbers: while the model writes a phone number or an amount (tel, net, tax, total, and an
// item's amount), every run of digits it writes must be a run of digits printed in the receipt text.
// A seq2seq model trained from scratch copies digits imperfectly (045-717-0476 -> 045-177-0746); restricting
// the next digit to continuations of printed runs turns most such slips into the printed number.
// The total must moreover be printed near a total keyword when the receipt has one (total_window_runs): the
// model often picks another printed amount (a subtotal, the cash given, an item).
#pragma once

#include <array>
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
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

// The Latin-script total keywords (any case, anywhere in a line) of total_window_runs: TOTAL, also with one letter
// lost to OCR ("TOTA", "Totl", "TOAL"; "OTAL" is in TOTAL itself), AMOUNT, JUMLAH, DUE, NETT, ROUND.
inline constexpr std::array<std::string_view, 11> kLatinTotalKeywords = {
    "TOTAL", "TOTA", "TOTL", "TOAL", "TTAL", "OTAL", "AMOUNT", "JUMLAH", "DUE", "NETT", "ROUND"};

// Lines a total keyword's window spans: the keyword's line and the next ones (OCR puts the amount in its own box).
inline constexpr size_t kTotalWindowLines = 3;
// Largest tax (each part of "a + b") as a share of the net amount written before it.
inline constexpr double kMaxTaxShareOfNet = 0.3;

// The digit runs (as digit_runs) of the lines near a total keyword: each line holding TOTAL (or TOTAL with one
// letter lost: TOTA, TOTL, TOAL, TTAL, OTAL), AMOUNT, JUMLAH, DUE, NETT or ROUND (any case), or 合計, 会計, お買上,
// 総計, 請求, and the kTotalWindowLines - 1 lines after it. Empty
// when no line has a keyword.
// With skip_payment_lines, a keyword line that also names a payment (PAID, CASH, CHANGE, TENDER, RECEIVED: "PAID
// AMOUNT : 200.00") opens no window.
std::vector<std::string> total_window_runs(const std::string& text, bool skip_payment_lines = false);

// The total to report when the model wrote none that parses: the largest decimal number with exactly two decimals
// ("80.91", "1,234.50") among total_window_runs(text, true) (no payment lines: the cash given is often the
// largest amount), or nullopt when there is none (receipts in currencies
// without cents, or without a total keyword). On SROIE validation the model's total is missing on 20 of 80
// receipts, and this reading is right on 16 of them.
std::optional<double> total_fallback(const std::string& text);

// A LogitsProcessor for one generate() call over `texts` (the receipts in the order given to the engine).
// Only the constrained fields are touched, and only as follows, with r the number being written (the trailing
// digit tokens, and '.' in amounts, back to one that starts with a space):
//   * a digit token d that continues r is allowed iff r+d is a prefix of a printed run;
//   * a digit token that starts a new run, or any other token, is allowed iff r is empty or r is a printed run;
//   * when r is non-empty, not a printed run and has no printed continuation (the model already left the
//     printed numbers, e.g. on a garbled OCR line), nothing is masked;
//   * otherwise, in an item's amount on a receipt whose output says "cur: JPY", the tokens that are no number
//     may only be the space before the number, its minus, and a separator (" |", " ;"); not letters, not the
//     end. The model copies OCR letters into yen amounts ("3B5" for the printed 3B5 = 385, "Z406...") and then
//     continues the garbage. On the development sets: item F1 0.9667 -> 0.9702 (dev2_ja), 0.9808 -> 0.9819
//     (dev_ja), 0.9420 -> 0.9446 (val_synth); everywhere else, and in other currencies (decimal amounts, where it
//     was mixed), letters stay allowed.
// "Printed runs" are digit_runs(text), for the total total_window_runs(text) when that is not empty, and for the
// tax only runs up to kMaxTaxShareOfNet of the net amount when the output already holds one ("net: 1200 |").
// Everything else (other fields, text) is left to the model.
class CopyConstraint final : public LogitsProcessor {
public:
    struct TokenInfo {
        std::string digits;  // the token's digits when it is only digits (after an optional leading space), else ""
        std::string number;  // the same for digits and '.' ("5", ".", ".5"), else ""
        bool space = false;  // starts with a space (U+2581): a digit token then starts a new run
        // ' ' for a token of spaces only, '|' for a separator ('|' or ';' after an optional space), '-' for a
        // minus (after an optional space), 0 for anything else (control tokens included).
        char other = 0;
    };
    // What the constraint needs of the vocabulary; it depends on the tokenizer alone, so one serves every
    // CopyConstraint over it (building it takes milliseconds: keep it rather than rebuild it per call).
    struct Vocab {
        std::vector<std::string> texts;  // per id: the piece as text (extract/target_tokens.h)
        std::vector<TokenInfo> tokens;   // per id
        std::vector<int> number_ids;     // ids whose TokenInfo::number is set, ascending
        // Per id, for the pass over the whole vocabulary in process() (a few bytes a token instead of a
        // TokenInfo of two strings): kNumberFlag when TokenInfo::number is set, kDigitsFlag when ::digits is.
        std::vector<unsigned char> flags;
        std::vector<char> others;        // per id: TokenInfo::other
    };
    static constexpr unsigned char kNumberFlag = 1, kDigitsFlag = 2;
    static std::shared_ptr<const Vocab> make_vocab(const Tokenizer& tokenizer, int vocab_size);

    CopyConstraint(std::shared_ptr<const Vocab> vocab, const std::vector<std::string>& texts);
    CopyConstraint(const Tokenizer& tokenizer, int vocab_size, const std::vector<std::string>& texts)
        : CopyConstraint(make_vocab(tokenizer, vocab_size), texts) {}
    void process(int source, const std::vector<int>& generated, float* logits, int vocab) const override;

    // The field the output is in after `generated` ("tel", "net", "tax", "total", "item:3" for an item's
    // amount column, "item:N" for other columns, "" at the start or for unknown text). For tests.
    std::string field_at(const std::vector<int>& generated) const;

private:
    // The value of the finished segment "<tag>: <number> |" in the output so far, or -1 (absent, unfinished or
    // not a plain number).
    double written_amount(const std::vector<int>& generated, const std::string& tag) const;
    // The value of the finished segment "<tag>: <value> |" without spaces, or nullopt (absent or unfinished).
    std::optional<std::string> written_value(const std::vector<int>& generated, const std::string& tag) const;
    static bool prefix_of_run(const std::vector<std::string>& runs, const std::string& prefix);
    static bool is_run(const std::vector<std::string>& runs, const std::string& digits);

    std::shared_ptr<const Vocab> vocab_;
    const std::vector<std::string>& texts_;  // vocab_->texts
    const std::vector<TokenInfo>& tokens_;   // vocab_->tokens
    const std::vector<int>& number_ids_;     // vocab_->number_ids
    std::vector<std::vector<std::string>> runs_;  // per source: digit_runs(text)
    std::vector<std::vector<std::string>> total_runs_;  // per source: total_window_runs(text), or runs_ if empty
};

}  // namespace receipt::extract
