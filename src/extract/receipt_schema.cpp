// Public, std-only wrappers over the extract module (include/receipt/receipt_schema.h).
#include "receipt/receipt_schema.h"

#include <nlohmann/json.hpp>

#include "extract/normalize_amount.h"
#include "extract/normalize_currency.h"
#include "extract/normalize_date.h"
#include "extract/normalize_phone.h"
#include "extract/normalize_time.h"
#include "extract/target_parser.h"
#include "extract/utf8.h"
#include "receipt/errors.h"

namespace receipt {

namespace {

// Re-orders a parsed object into schema order for output (nlohmann::json sorts keys alphabetically).
nlohmann::ordered_json in_schema_order(const nlohmann::json& fields) {
    nlohmann::ordered_json out;
    for (const extract::TargetKeyInfo& info : extract::kTargetKeys) {
        const std::string key(info.field);
        if (info.key != extract::TargetKey::kItem) {
            out[key] = fields.contains(key) ? fields[key] : nullptr;
            continue;
        }
        out[key] = nlohmann::ordered_json::array();
        if (!fields.contains(key) || !fields[key].is_array()) continue;
        for (const nlohmann::json& item : fields[key]) {
            nlohmann::ordered_json o;
            for (std::string_view f : extract::kItemFields) {
                const std::string name(f);
                o[name] = item.contains(name) ? item[name] : nullptr;
            }
            out[key].push_back(std::move(o));
        }
    }
    out["warnings"] = fields.contains("warnings") ? fields["warnings"] : nlohmann::json::array();
    return out;
}

}  // namespace

const std::vector<std::string>& receipt_field_names() {
    static const std::vector<std::string> kNames = [] {
        std::vector<std::string> names;
        for (const extract::TargetKeyInfo& info : extract::kTargetKeys) names.emplace_back(info.field);
        return names;
    }();
    return kNames;
}

std::string parse_target_to_json(const std::string& target_text, const std::vector<std::string>& extra_warnings) {
    nlohmann::json fields = extract::parse_target(target_text);
    if (!extra_warnings.empty()) {
        nlohmann::json warnings = nlohmann::json::array();
        for (const std::string& w : extra_warnings) warnings.push_back(extract::sanitize_utf8(w));
        for (const nlohmann::json& w : fields["warnings"]) warnings.push_back(w);
        fields["warnings"] = std::move(warnings);
    }
    // All strings are valid UTF-8 after parsing; `replace` keeps dump() from throwing regardless.
    return in_schema_order(fields).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string fields_json_to_target(const std::string& fields_json) {
    const nlohmann::json fields = nlohmann::json::parse(fields_json, nullptr, false);
    RECEIPT_CHECK(!fields.is_discarded() && fields.is_object(), InvalidInput, "fields JSON is not a JSON object");
    return extract::fields_to_target(fields);
}

std::string normalize_date(const std::string& text, bool japanese) {
    extract::DateHints hints;
    hints.japanese = japanese;
    return extract::normalize_date(text, hints).value_or("");
}

std::string normalize_time(const std::string& text) { return extract::normalize_time(text).value_or(""); }

std::optional<double> normalize_amount(const std::string& text) { return extract::normalize_amount(text); }

std::string normalize_phone(const std::string& text) { return extract::normalize_phone(text); }

std::string normalize_currency(const std::string& text) { return extract::normalize_currency(text).value_or(""); }

}  // namespace receipt
