// Helpers for the checks that edit a receipt's fields (extract/field_edits.h).
#include "extract/field_edits.h"

#include <cmath>
#include <cstdint>

#include "extract/validate.h"

namespace receipt::extract {

std::string written(const nlohmann::ordered_json& v) { return v.is_number() ? v.dump() : std::string("none"); }

void revalidate(nlohmann::ordered_json& fields) {
    nlohmann::ordered_json kept = nlohmann::ordered_json::array();
    for (const auto& w : fields["warnings"])
        if (!w.is_string() || !is_validation_warning(w.get<std::string>())) kept.push_back(w);
    for (std::string& w : validate_fields(nlohmann::json::parse(fields.dump()))) kept.push_back(std::move(w));
    fields["warnings"] = std::move(kept);
}

nlohmann::ordered_json json_amount(double v) {
    if (v == std::floor(v) && std::fabs(v) < 9e15) return static_cast<int64_t>(v);
    return v;
}

}  // namespace receipt::extract
