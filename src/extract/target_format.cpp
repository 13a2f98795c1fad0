#include "extract/target_format.h"

#include <charconv>
#include <cmath>

#include "extract/normalize_currency.h"
#include "extract/utf8.h"

namespace receipt::extract {

namespace {

// A JSON value as target text: strings cleaned, numbers formatted by `format`, anything else omitted ("").
template <typename Format>
std::string value_text(const nlohmann::json& v, Format format) {
    if (v.is_string()) return clean_target_value(v.get_ref<const std::string&>());
    if (v.is_number()) return format(v.get<double>());
    return "";
}

std::string text_of(const nlohmann::json& obj, std::string_view key) {
    if (!obj.is_object()) return "";
    const auto it = obj.find(std::string(key));
    if (it == obj.end()) return "";
    return value_text(*it, [](double d) { return shortest_decimal(d); });
}

}  // namespace

const TargetKeyInfo& target_key_info(TargetKey key) { return kTargetKeys[static_cast<int>(key)]; }

std::optional<TargetKey> target_key_from_name(std::string_view name) {
    for (const TargetKeyInfo& info : kTargetKeys) {
        if (info.name == name) return info.key;
    }
    return std::nullopt;
}

std::string clean_target_value(std::string_view value) {
    const std::string s = sanitize_utf8(value);
    std::string out;
    out.reserve(s.size());
    for (size_t i = 0; i < s.size();) {
        const auto b = static_cast<unsigned char>(s[i]);
        if (b == '|' || b == ';') {
            out += '/', ++i;
        } else if (b < 0x20 || b == 0x7F) {
            out += ' ', ++i;
        } else if (s.compare(i, 3, "\xEF\xBD\x9C") == 0 || s.compare(i, 3, "\xEF\xBC\x9B") == 0) {  // ｜ ；
            out += '/', i += 3;
        } else {
            out += s[i++];
        }
    }
    return collapse_whitespace(out);
}

std::string shortest_decimal(double v) {
    if (!std::isfinite(v)) return "";
    if (v == 0.0) return "0";
    char buf[512];  // fixed notation of the largest double has 309 digits
    const auto [ptr, ec] = std::to_chars(buf, buf + sizeof(buf), v, std::chars_format::fixed);
    if (ec != std::errc()) return "";
    return std::string(buf, ptr);
}

std::string format_amount(double v, bool minor_units) {
    std::string s = shortest_decimal(v);
    if (s.empty()) return s;
    const size_t dot = s.find('.');
    if (dot == std::string::npos) {
        if (minor_units) s += ".00";
    } else if (s.size() - dot - 1 < 2) {
        s += '0';
    }
    return s;
}

std::string format_quantity(double v) { return shortest_decimal(v); }

std::string fields_to_target(const nlohmann::json& fields) {
    if (!fields.is_object()) return "";
    const std::string currency = text_of(fields, "currency");
    const bool minor_units = !currency.empty() && !currency_without_minor_units(currency);
    auto amount = [minor_units](double d) { return format_amount(d, minor_units); };

    std::string out;
    auto append = [&out](std::string_view key, const std::string& value) {
        if (!out.empty()) out += kSegmentSeparator;
        out += key;
        out += ": ";
        out += value;
    };
    for (const TargetKeyInfo& info : kTargetKeys) {
        const auto it = fields.find(std::string(info.field));
        if (it == fields.end() || it->is_null()) continue;
        if (info.key == TargetKey::kItem) {
            if (!it->is_array()) continue;
            for (const nlohmann::json& item : *it) {
                if (!item.is_object()) continue;
                const std::string parts[4] = {
                    text_of(item, kItemFields[0]),
                    item.contains("quantity") ? value_text(item["quantity"], format_quantity) : "",
                    item.contains("unit_price") ? value_text(item["unit_price"], amount) : "",
                    item.contains("amount") ? value_text(item["amount"], amount) : "",
                };
                if (parts[0].empty() && parts[1].empty() && parts[2].empty() && parts[3].empty()) continue;
                // Join with " ; " and collapse, so that empty parts read "a ; ; 3.50" (one space, as a
                // SentencePiece round trip would produce) and an empty last part reads "... ;".
                std::string joined = parts[0];
                for (int k = 1; k < 4; ++k) joined += std::string(kItemSeparator) + parts[k];
                append(info.name, collapse_whitespace(joined));
            }
            continue;
        }
        const bool is_amount =
            info.key == TargetKey::kNet || info.key == TargetKey::kTax || info.key == TargetKey::kTotal;
        const std::string value =
            is_amount ? value_text(*it, amount) : value_text(*it, [](double d) { return shortest_decimal(d); });
        if (!value.empty()) append(info.name, value);
    }
    return out;
}

}  // namespace receipt::extract
