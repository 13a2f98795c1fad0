#include "extract/evaluation.h"

#include <cmath>

#include "receipt/receipt_schema.h"

namespace receipt::extract {

namespace {

std::string canon(const std::string& s, bool ignore_spaces) {
    std::string out;
    bool space = false;
    for (unsigned char c : s) {
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
            space = !out.empty();
            continue;
        }
        if (space && !ignore_spaces) out.push_back(' ');
        space = false;
        out.push_back(c < 128 ? static_cast<char>(std::toupper(c)) : static_cast<char>(c));
    }
    return out;
}

bool present(const nlohmann::json& fields, const std::string& key) {
    if (!fields.contains(key) || fields[key].is_null()) return false;
    if (fields[key].is_array()) return !fields[key].empty();
    if (fields[key].is_string()) return !fields[key].get<std::string>().empty();
    return true;
}

}  // namespace

bool values_match(const nlohmann::json& a, const nlohmann::json& b, bool ignore_spaces) {
    if (a.is_number() && b.is_number()) return std::fabs(a.get<double>() - b.get<double>()) < 0.005;
    if (a.is_string() && b.is_string())
        return canon(a.get<std::string>(), ignore_spaces) == canon(b.get<std::string>(), ignore_spaces);
    if (a.is_null() || b.is_null()) return a.is_null() && b.is_null();
    return a == b;
}

void EvalScores::add(const EvalScores& o) {
    for (const auto& [k, v] : o.fields) fields[k].add(v);
    items.add(o.items);
    n += o.n;
    n_exact += o.n_exact;
    for (const auto& [k, v] : o.excluded) excluded[k] += v;
}

nlohmann::json EvalScores::to_json() const {
    nlohmann::json j;
    j["n"] = n;
    j["exact_match"] = n ? double(n_exact) / n : 0.0;
    for (const auto& [k, s] : fields)
        j["fields"][k] = {{"precision", s.precision()}, {"recall", s.recall()}, {"f1", s.f1()},
                          {"tp", s.tp}, {"fp", s.fp}, {"fn", s.fn}};
    if (items.tp + items.fp + items.fn > 0)
        j["items"] = {{"precision", items.precision()}, {"recall", items.recall()}, {"f1", items.f1()},
                      {"tp", items.tp}, {"fp", items.fp}, {"fn", items.fn}};
    if (!excluded.empty()) j["ocr_mismatch_excluded"] = excluded;
    return j;
}

nlohmann::json gold_fields(const nlohmann::json& labels) {
    if (!labels.is_object()) return nlohmann::json::object();
    bool schema = false;
    for (const std::string& k : receipt_field_names()) schema = schema || labels.contains(k);
    if (schema) return labels;
    nlohmann::json out = nlohmann::json::object();  // SROIE keys
    auto str = [&](const char* k) { return labels.contains(k) && labels[k].is_string() ? labels[k].get<std::string>() : ""; };
    if (!str("company").empty()) out["supplier_name"] = str("company");
    if (!str("address").empty()) out["supplier_address"] = str("address");
    if (!str("date").empty()) {
        std::string d = normalize_date(str("date"));
        out["receipt_date"] = d.empty() ? nlohmann::json(str("date")) : nlohmann::json(d);
    }
    if (!str("total").empty()) {
        auto a = normalize_amount(str("total"));
        out["total_amount"] = a ? nlohmann::json(*a) : nlohmann::json(str("total"));
    }
    return out;
}

std::vector<std::string> annotated_fields(const std::vector<nlohmann::json>& golds) {
    std::vector<std::string> out;
    for (const std::string& k : receipt_field_names()) {
        for (const auto& g : golds)
            if (present(g, k)) {
                out.push_back(k);
                break;
            }
    }
    return out;
}

EvalScores score_receipt(const nlohmann::json& pred, const nlohmann::json& gold, const std::vector<std::string>& fields,
                         bool ignore_spaces) {
    ScoreOptions o;
    o.ignore_spaces = ignore_spaces;
    return score_receipt(pred, gold, fields, o, std::string());
}

namespace {

// printed_in against text already in canon(text, true) form.
bool printed_in_canon(const std::string& value, const std::string& hay) {
    size_t i = 0;
    bool any = false;
    while (i < value.size()) {
        const size_t b = value.find_first_not_of(" \t\r\n", i);
        if (b == std::string::npos) break;
        size_t e = value.find_first_of(" \t\r\n", b);
        if (e == std::string::npos) e = value.size();
        if (hay.find(canon(value.substr(b, e - b), true)) == std::string::npos) return false;
        any = true;
        i = e;
    }
    return any;
}

}  // namespace

bool printed_in(const std::string& value, const std::string& text) {
    return printed_in_canon(value, canon(text, /*ignore_spaces=*/true));
}

EvalScores score_receipt(const nlohmann::json& pred, const nlohmann::json& gold, const std::vector<std::string>& fields,
                         const ScoreOptions& options, const std::string& text) {
    EvalScores s;
    s.n = 1;
    bool exact = true;
    const nlohmann::json none;
    // A gold string value that the protocol leaves out (only printed-as-is text: name, address, phone, items).
    const std::string hay = options.exclude_ocr_mismatch ? canon(text, /*ignore_spaces=*/true) : std::string();
    auto mismatch = [&](const nlohmann::json& v) {
        return options.exclude_ocr_mismatch && v.is_string() && !printed_in_canon(v.get<std::string>(), hay);
    };
    for (const std::string& k : fields) {
        if (k == "line_items") {
            // Multiset match on (description, amount).
            const nlohmann::json empty = nlohmann::json::array();
            const auto& p = present(pred, k) ? pred[k] : empty;
            const auto& g = present(gold, k) ? gold[k] : empty;
            std::vector<int> pair_of(g.size(), -1);  // gold item -> predicted item matched to it
            std::vector<bool> pred_used(p.size(), false);
            int tp = 0;
            for (size_t i = 0; i < p.size(); ++i) {
                for (size_t j = 0; j < g.size(); ++j) {
                    if (pair_of[j] >= 0) continue;
                    if (values_match(p[i].value("description", none), g[j].value("description", none),
                                     options.ignore_spaces) &&
                        values_match(p[i].value("amount", none), g[j].value("amount", none))) {
                        pair_of[j] = static_cast<int>(i);
                        pred_used[i] = true;
                        ++tp;
                        break;
                    }
                }
            }
            int n_pred = static_cast<int>(p.size()), n_gold = static_cast<int>(g.size());
            for (size_t j = 0; j < g.size(); ++j) {
                if (!mismatch(g[j].value("description", none))) continue;
                ++s.excluded[k];
                --n_gold;
                if (pair_of[j] >= 0) {  // matched anyway: the pair is not scored
                    --tp;
                    --n_pred;
                    continue;
                }
                for (size_t i = 0; i < p.size(); ++i) {  // the prediction in its place: a leftover with its amount
                    if (pred_used[i] || !values_match(p[i].value("amount", none), g[j].value("amount", none))) continue;
                    pred_used[i] = true;
                    --n_pred;
                    break;
                }
            }
            s.items.tp += tp;
            s.items.fp += n_pred - tp;
            s.items.fn += n_gold - tp;
            if (tp != n_pred || tp != n_gold) exact = false;
            continue;
        }
        FieldScore& f = s.fields[k];
        const bool hp = present(pred, k), hg = present(gold, k);
        if (hg && (k == "supplier_name" || k == "supplier_address" || k == "supplier_phone") && mismatch(gold[k])) {
            ++s.excluded[k];
            continue;
        }
        if (hp && hg && values_match(pred[k], gold[k], options.ignore_spaces)) {
            ++f.tp;
            continue;
        }
        if (hp) ++f.fp;
        if (hg) ++f.fn;
        if (hp || hg) exact = false;
    }
    s.n_exact = exact ? 1 : 0;
    return s;
}

std::string length_bucket(int n) {
    if (n <= 128) return "<=128";
    if (n <= 256) return "<=256";
    if (n <= 512) return "<=512";
    return ">512";
}

}  // namespace receipt::extract
