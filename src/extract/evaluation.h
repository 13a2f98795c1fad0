// Accuracy of extracted fields against gold labels: per-field precision / recall / F1, exact match, item F1,
// broken down by input-length bucket.
#pragma once

#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace receipt::extract {

// Counts for one field: a prediction equal to the gold value is a TP; a wrong or spurious prediction is an FP;
// a gold value that was not predicted exactly is an FN (so a wrong value counts as both FP and FN).
struct FieldScore {
    int tp = 0, fp = 0, fn = 0;
    double precision() const { return tp + fp ? double(tp) / (tp + fp) : 1.0; }
    double recall() const { return tp + fn ? double(tp) / (tp + fn) : 1.0; }
    double f1() const {
        const double p = precision(), r = recall();
        return p + r > 0 ? 2 * p * r / (p + r) : 0.0;
    }
    void add(const FieldScore& o) { tp += o.tp, fp += o.fp, fn += o.fn; }
};

// Scores of a set of receipts.
struct EvalScores {
    std::map<std::string, FieldScore> fields;  // by schema key
    FieldScore items;                          // line items: description and amount both right
    int n = 0;                                 // receipts
    int n_exact = 0;                           // receipts whose every evaluated field (and items) is right
    std::map<std::string, int> excluded;       // gold values left out as OCR mismatches, by key ("line_items")
    void add(const EvalScores& o);
    nlohmann::json to_json() const;
};

// Converts a dataset record's labels to schema keys: schema objects pass through; SROIE's company / address /
// date / total are mapped (dates and amounts normalised).
nlohmann::json gold_fields(const nlohmann::json& labels);

// Which schema fields a gold set annotates: those non-null in at least one record ("line_items" when any
// record has items). Fields outside this set are not scored (a dataset without phones cannot judge phones).
std::vector<std::string> annotated_fields(const std::vector<nlohmann::json>& golds);

// How score_receipt compares and what it leaves out.
struct ScoreOptions {
    bool ignore_spaces = false;  // compare strings with all whitespace removed (values_match)
    // The SROIE leaderboard's "excluding OCR mismatches" protocol: a gold store name, address, phone or item
    // description that is not printed in the receipt text (printed_in) is not scored, nor is the prediction in
    // its place (for an item, the predicted item paired with it or one left over with its amount).
    bool exclude_ocr_mismatch = false;
};

// Scores one prediction against one gold object on `fields`; text compared as values_match does.
EvalScores score_receipt(const nlohmann::json& pred, const nlohmann::json& gold, const std::vector<std::string>& fields,
                         bool ignore_spaces = false);

// The same, with options; `text` is the receipt's OCR text (read only with exclude_ocr_mismatch).
EvalScores score_receipt(const nlohmann::json& pred, const nlohmann::json& gold, const std::vector<std::string>& fields,
                         const ScoreOptions& options, const std::string& text);

// Whether a gold text value is printed in the receipt text: every whitespace-separated piece of it occurs in the
// text with all whitespace removed, ASCII case-folded (pieces may sit on different lines, in any order: OCR
// splits and reorders boxes). "NO. 1, TAMAN" is printed in "NO.1, TAMAN"; "JALAN SEITA" is not in "JALAN SETIA".
bool printed_in(const std::string& value, const std::string& text);

// Input-length bucket name for a token count: "<=128", "<=256", "<=512", ">512".
std::string length_bucket(int n_tokens);

// Field values compared as the metric does: strings trimmed, whitespace collapsed, ASCII case-folded;
// numbers within 0.005. With ignore_spaces, strings are compared with all whitespace removed (SROIE's labels
// space punctuation unlike the printed text: "NO.1, TAMAN" and "NO. 1, TAMAN" for the same printed line).
bool values_match(const nlohmann::json& a, const nlohmann::json& b, bool ignore_spaces = false);

}  // namespace receipt::extract
