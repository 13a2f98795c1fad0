#include "extract/target_parser.h"

#include <cmath>
#include <optional>

#include "extract/normalize_amount.h"
#include "extract/normalize_currency.h"
#include "extract/normalize_date.h"
#include "extract/normalize_phone.h"
#include "extract/normalize_text.h"
#include "extract/normalize_time.h"
#include "extract/utf8.h"
#include "extract/validate.h"

namespace receipt::extract {

namespace {

// Collects warnings up to kMaxWarnings; the rest are counted.
class Warnings {
  public:
    void add(std::string_view code, std::string_view detail) {
        add_raw(std::string(code) + ": " + std::string(detail));
    }
    void add_raw(std::string warning) {
        if (list_.size() < kMaxWarnings) {
            list_.push_back(std::move(warning));
        } else {
            ++n_dropped_;
        }
    }
    nlohmann::json to_json() const {
        nlohmann::json out = list_;
        if (n_dropped_ > 0) out.push_back("warnings_truncated: " + std::to_string(n_dropped_) + " more");
        return out;
    }

  private:
    std::vector<std::string> list_;
    size_t n_dropped_ = 0;
};

struct Segment {
    TargetKey key;
    std::string value;
};

// A short, printable excerpt of untrusted text for warning messages.
std::string excerpt(std::string_view s) {
    const std::string_view cut = utf8_prefix(s, 40);
    std::string out = "'";
    out.append(cut);
    out += cut.size() < s.size() ? "...'" : "'";
    return out;
}

int order_of(TargetKey k) { return static_cast<int>(k); }

// Replaces the full-width separators ｜ ； ： (which NFKC-normalising tokenizers fold anyway) by ASCII ones.
std::string fold_separators(const std::string& s) {
    std::string out;
    out.reserve(s.size());
    for (size_t i = 0; i < s.size();) {
        if (s.compare(i, 3, "\xEF\xBD\x9C") == 0) {
            out += '|', i += 3;
        } else if (s.compare(i, 3, "\xEF\xBC\x9B") == 0) {
            out += ';', i += 3;
        } else if (s.compare(i, 3, "\xEF\xBC\x9A") == 0) {
            out += ':', i += 3;
        } else {
            out += s[i++];
        }
    }
    return out;
}

// Recovers a missing " | " inside `seg.value`: an occurrence of " <key>:" (lower-case) for a key that comes later
// in the fixed order splits the segment; inside an item, only " item:" / " net:" / " tax:" / " total:" after the
// item's third ';' do. Appends the resulting segments to `out`.
void split_missing_separators(Segment seg, std::vector<Segment>& out, Warnings& warnings) {
    for (;;) {
        size_t best_pos = std::string::npos;
        std::optional<TargetKey> best_key;
        size_t n_semicolons = 0;
        for (size_t p = 0; p < seg.value.size(); ++p) {
            if (seg.value[p] == ';') ++n_semicolons;
            if (seg.value[p] != ' ') continue;
            for (const TargetKeyInfo& info : kTargetKeys) {
                // Inside an item only the text after its three ';' can hold the next key.
                const bool later = seg.key == TargetKey::kItem
                                       ? n_semicolons >= 3 && order_of(info.key) >= order_of(TargetKey::kItem)
                                       : order_of(info.key) > order_of(seg.key);
                if (!later || seg.value.compare(p + 1, info.name.size(), info.name) != 0) continue;
                if (p + 1 + info.name.size() < seg.value.size() && seg.value[p + 1 + info.name.size()] == ':') {
                    best_pos = p, best_key = info.key;
                    break;
                }
            }
            if (best_key) break;
        }
        if (!best_key) break;
        const std::string_view name = target_key_info(*best_key).name;
        warnings.add("missing_separator", "before '" + std::string(name) + ":'");
        Segment rest{*best_key, trim(std::string_view(seg.value).substr(best_pos + 1 + name.size() + 1))};
        seg.value = trim(std::string_view(seg.value).substr(0, best_pos));
        out.push_back(std::move(seg));
        seg = std::move(rest);
    }
    out.push_back(std::move(seg));
}

// Splits target text into keyed segments; malformed segments become warnings.
std::vector<Segment> split_segments(const std::string& text, Warnings& warnings) {
    std::vector<Segment> out;
    size_t n_empty = 0;
    size_t begin = 0;
    while (begin <= text.size()) {
        size_t end = text.find('|', begin);
        if (end == std::string::npos) end = text.size();
        const std::string seg = trim(std::string_view(text).substr(begin, end - begin));
        begin = end + 1;
        if (seg.empty()) {
            ++n_empty;
            continue;
        }
        const size_t colon = seg.find(':');
        std::optional<TargetKey> key;
        std::string value;
        if (colon != std::string::npos) {
            const std::string name = ascii_lower(trim(std::string_view(seg).substr(0, colon)));
            key = target_key_from_name(name);
            value = trim(std::string_view(seg).substr(colon + 1));
            if (!key) {
                warnings.add("unknown_key", excerpt(name) + " ignored");
                continue;
            }
        } else {
            // "total 1080": a known key followed by a space instead of ':'.
            const size_t space = seg.find(' ');
            key = target_key_from_name(ascii_lower(seg.substr(0, space)));
            if (!key || space == std::string::npos) {
                warnings.add("missing_key", "segment " + excerpt(seg) + " ignored");
                continue;
            }
            warnings.add("missing_colon", "after '" + std::string(target_key_info(*key).name) + "'");
            value = trim(std::string_view(seg).substr(space + 1));
        }
        split_missing_separators({*key, std::move(value)}, out, warnings);
    }
    // Splitting "" or "a|b" yields no / no extra empty segment; only count real empties.
    if (n_empty > 1 || (n_empty == 1 && !text.empty())) {
        warnings.add("empty_segment", std::to_string(n_empty) + " empty segment(s) skipped");
    }
    return out;
}

// Amounts become JSON integers when integral (so 1080 dumps as 1080, not 1080.0).
nlohmann::json number_json(double v) {
    if (std::floor(v) == v && std::fabs(v) <= 9007199254740992.0) return static_cast<int64_t>(v);
    return v;
}

// A text value cut to kMaxValueBytes and normalised by `normalize`; null when empty.
template <typename Normalize>
nlohmann::json text_json(std::string_view key, const std::string& raw, Normalize normalize, Warnings& warnings) {
    std::string_view v = raw;
    if (v.size() > kMaxValueBytes) {
        warnings.add("value_too_long", std::string(key) + " cut to " + std::to_string(kMaxValueBytes) + " bytes");
        v = utf8_prefix(v, kMaxValueBytes);
    }
    std::string out = normalize(v);
    if (out.empty()) return nullptr;
    return out;
}

nlohmann::json amount_json(std::string_view what, const std::string& raw, Warnings& warnings) {
    if (trim(raw).empty()) return nullptr;
    if (auto v = normalize_amount(raw)) return number_json(*v);
    warnings.add("invalid_amount", std::string(what) + " " + excerpt(raw));
    return nullptr;
}

// `tax` may be the sum of the per-rate taxes as printed: "424 + 13" -> 437 (docs/target-format.md). Each term
// goes through normalize_amount; one bad term makes the whole value invalid. A value without " + " is one amount.
nlohmann::json tax_json(const std::string& raw, Warnings& warnings) {
    if (raw.find(" + ") == std::string::npos) return amount_json("tax", raw, warnings);
    double sum = 0.0;
    size_t start = 0;
    while (true) {
        const size_t plus = raw.find(" + ", start);
        const std::string term = raw.substr(start, plus == std::string::npos ? std::string::npos : plus - start);
        const auto v = normalize_amount(term);
        if (!v) {
            warnings.add("invalid_amount", "tax " + excerpt(raw));
            return nullptr;
        }
        sum += *v;
        if (plus == std::string::npos) break;
        start = plus + 3;
    }
    // Round to cents so 0.1 + 0.2 reads 0.3, as the single-number path would.
    return number_json(std::round(sum * 100.0) / 100.0);
}

// True when `text` (full-width folded, trimmed) is a plain decimal: "1080", "-50", "12.50", "1,080".
bool canonical_decimal(const std::string& text) {
    const std::string s = trim(fold_fullwidth(text));
    size_t i = s.size() > 0 && s[0] == '-' ? 1 : 0;
    const size_t start = i;
    size_t group = 0;  // digits since the last comma
    bool comma = false;
    for (; i < s.size() && s[i] != '.'; ++i) {
        if (s[i] == ',') {
            if ((comma && group != 3) || (!comma && (group < 1 || group > 3))) return false;
            comma = true;
            group = 0;
        } else if (s[i] >= '0' && s[i] <= '9') {
            ++group;
        } else {
            return false;
        }
    }
    if (i == start || group == 0 || (comma && group != 3)) return false;
    if (i < s.size()) {  // the fraction after '.'
        if (i + 1 == s.size()) return false;
        for (size_t k = i + 1; k < s.size(); ++k)
            if (s[k] < '0' || s[k] > '9') return false;
    }
    return true;
}

// "desc ; qty ; unit_price ; amount" -> item object; nullopt when nothing usable is left.
std::optional<nlohmann::json> parse_item(const std::string& value, size_t index, Warnings& warnings) {
    std::vector<std::string> parts;
    size_t begin = 0;
    for (;;) {
        const size_t end = value.find(';', begin);
        parts.push_back(trim(std::string_view(value).substr(begin, end == std::string::npos ? end : end - begin)));
        if (end == std::string::npos) break;
        begin = end + 1;
    }
    const std::string where = "item " + std::to_string(index + 1);
    if (parts.size() < 4) {
        warnings.add("truncated_item", where + " has " + std::to_string(parts.size()) + " of 4 fields");
        parts.resize(4);
    } else if (parts.size() >= 7 && canonical_decimal(parts[1]) && normalize_quantity(parts[1]) &&
               canonical_decimal(parts[2]) && normalize_amount(parts[2]) && canonical_decimal(parts[4]) &&
               normalize_quantity(parts[4]) && canonical_decimal(parts[5]) && normalize_amount(parts[5])) {
        // Two items run together, the second one's "| item: description" lost ("料理酒 ; 1 ; 179 ; 17g ; 1 ; 303 ;
        // 303"): a count and a unit price follow the description and again three parts later. The first item
        // keeps its own parts; the second, which has no description, is dropped.
        warnings.add("merged_items", where + " has " + std::to_string(parts.size()) +
                                         " fields: a second item without its description is dropped");
        parts.resize(4);
    } else if (parts.size() > 4) {
        // Extra ';' most likely belong to the description: keep the last three parts as the numbers. Extra parts
        // that are bare numbers ("キャベツ ; 1 ; 1 ; 198 ; 198": the model wrote a number twice) are dropped.
        warnings.add("extra_item_fields", where + " has " + std::to_string(parts.size()) + " fields");
        auto bare_number = [](const std::string& p) {
            for (size_t i = 0; i < p.size(); ++i)
                if (!((p[i] >= '0' && p[i] <= '9') || (i > 0 && (p[i] == ',' || p[i] == '.')))) return false;
            return true;
        };
        bool numbers_only = true;
        for (size_t k = 1; k + 3 < parts.size(); ++k) numbers_only = numbers_only && bare_number(parts[k]);
        std::string desc = parts[0];
        for (size_t k = 1; !numbers_only && k + 3 < parts.size(); ++k) desc += "/" + parts[k];
        parts = {desc, parts[parts.size() - 3], parts[parts.size() - 2], parts[parts.size() - 1]};
    }
    nlohmann::json item = nlohmann::json::object();
    item["description"] = text_json("description", parts[0], normalize_text, warnings);
    item["quantity"] = nullptr;
    if (!parts[1].empty()) {
        if (auto q = normalize_quantity(parts[1])) {
            item["quantity"] = number_json(*q);
        } else {
            warnings.add("invalid_quantity", where + " " + excerpt(parts[1]));
        }
    }
    item["unit_price"] = amount_json(where + " unit_price", parts[2], warnings);
    item["amount"] = amount_json(where + " amount", parts[3], warnings);
    if (item["description"].is_null() && item["quantity"].is_null() && item["unit_price"].is_null() &&
        item["amount"].is_null()) {
        warnings.add("empty_item", where + " dropped");
        return std::nullopt;
    }
    return item;
}

// Date hints from the whole output: Japanese text or JPY means yy/mm/dd; USD means mm/dd/yy.
DateHints date_hints(const std::vector<Segment>& segments) {
    DateHints hints;
    for (const Segment& s : segments) {
        if ((s.key == TargetKey::kName || s.key == TargetKey::kAddr) && has_cjk(s.value)) hints.japanese = true;
        if (s.key == TargetKey::kCur) {
            const auto cur = normalize_currency(s.value);
            if (cur == "JPY") hints.japanese = true;
            if (cur == "USD") hints.month_first = true;
        }
    }
    if (hints.japanese) hints.month_first = false;
    return hints;
}

void parse_into(std::string_view text_in, nlohmann::json& out, Warnings& warnings) {
    std::string_view text = text_in;
    if (text.size() > kMaxTargetBytes) {
        warnings.add("input_too_long", "cut to " + std::to_string(kMaxTargetBytes) + " bytes");
        text = utf8_prefix(text, kMaxTargetBytes);
    }
    int n_bad = 0;
    const std::string clean = fold_separators(sanitize_utf8(text, &n_bad));
    if (n_bad > 0) warnings.add("invalid_utf8", std::to_string(n_bad) + " invalid byte(s) replaced by U+FFFD");

    const std::vector<Segment> segments = split_segments(clean, warnings);
    const DateHints hints = date_hints(segments);
    bool seen[std::size(kTargetKeys)] = {};
    for (const Segment& seg : segments) {
        const TargetKeyInfo& info = target_key_info(seg.key);
        const std::string field(info.field);
        if (seg.key == TargetKey::kItem) {
            const size_t n_items = out["line_items"].size();
            if (n_items >= kMaxLineItems) {
                warnings.add("too_many_items", "items after " + std::to_string(kMaxLineItems) + " dropped");
                continue;
            }
            if (auto item = parse_item(seg.value, n_items, warnings)) out["line_items"].push_back(std::move(*item));
            continue;
        }
        // Scalars: the first valid value wins; later ones are reported.
        bool& was_seen = seen[order_of(seg.key)];
        if (was_seen) warnings.add("duplicate_key", std::string(info.name) + " " + excerpt(seg.value));
        was_seen = true;
        if (!out[field].is_null()) continue;
        if (seg.value.empty()) {
            warnings.add("empty_value", std::string(info.name));
            continue;
        }
        nlohmann::json value;
        switch (seg.key) {
            case TargetKey::kName:
                value = text_json(info.name, seg.value, normalize_text, warnings);
                break;
            case TargetKey::kAddr:
                value = text_json(info.name, seg.value, normalize_address, warnings);
                break;
            case TargetKey::kTel:
                value = text_json(info.name, seg.value, normalize_phone, warnings);
                break;
            case TargetKey::kDate:
                if (auto d = normalize_date(seg.value, hints)) value = *d;
                break;
            case TargetKey::kTime:
                if (auto t = normalize_time(seg.value)) value = *t;
                break;
            case TargetKey::kCur:
                if (auto c = normalize_currency(seg.value)) value = *c;
                break;
            case TargetKey::kTax:
                value = tax_json(seg.value, warnings);
                break;
            case TargetKey::kNet:
            case TargetKey::kTotal:
                value = amount_json(info.name, seg.value, warnings);
                break;
            case TargetKey::kItem:
                break;
        }
        if (value.is_null() &&
            !(seg.key == TargetKey::kNet || seg.key == TargetKey::kTax || seg.key == TargetKey::kTotal)) {
            warnings.add("invalid_value", std::string(info.name) + " " + excerpt(seg.value));
        }
        out[field] = std::move(value);
    }
}

}  // namespace

nlohmann::json empty_fields() {
    nlohmann::json out = nlohmann::json::object();
    for (const TargetKeyInfo& info : kTargetKeys) out[std::string(info.field)] = nullptr;
    out["line_items"] = nlohmann::json::array();
    out["warnings"] = nlohmann::json::array();
    return out;
}

nlohmann::json parse_target(std::string_view text) {
    nlohmann::json out = empty_fields();
    Warnings warnings;
    try {
        parse_into(text, out, warnings);
        for (std::string& w : validate_fields(out)) warnings.add_raw(std::move(w));
    } catch (const std::exception& e) {
        // Defensive: the helpers do not throw on any input, but a partial result beats none.
        warnings.add("internal_error", e.what());
    } catch (...) {
        warnings.add("internal_error", "unknown exception");
    }
    try {
        out["warnings"] = warnings.to_json();
    } catch (...) {
        out["warnings"] = nlohmann::json::array();
    }
    return out;
}

}  // namespace receipt::extract
