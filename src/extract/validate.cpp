#include "extract/validate.h"

#include <cmath>
#include <optional>

#include "extract/target_format.h"

namespace receipt::extract {

namespace {

std::optional<double> number_at(const nlohmann::json& obj, const char* key) {
    if (!obj.is_object()) return std::nullopt;
    const auto it = obj.find(key);
    if (it == obj.end() || !it->is_number()) return std::nullopt;
    const double v = it->get<double>();
    return std::isfinite(v) ? std::optional<double>(v) : std::nullopt;
}

bool near(double a, double b) { return std::fabs(a - b) <= kAmountTolerance + 1e-9; }

std::string num(double v) { return shortest_decimal(std::round(v * 1e6) / 1e6); }

}  // namespace

bool is_validation_warning(const std::string& warning) {
    static const char* const kCodes[] = {"items_sum_mismatch", "item_amount_mismatch", "net_tax_total_mismatch",
                                         "negative_tax",       "tax_exceeds_total",    "tax_implausible",
                                         "negative_total"};
    const std::string code = warning.substr(0, warning.find(':'));
    for (const char* c : kCodes)
        if (code == c && code.size() < warning.size()) return true;
    return false;
}

std::vector<std::string> validate_fields(const nlohmann::json& fields) {
    std::vector<std::string> out;
    if (!fields.is_object()) return out;
    const auto net = number_at(fields, "net_amount");
    const auto tax = number_at(fields, "total_tax_amount");
    const auto total = number_at(fields, "total_amount");

    // Per item: quantity x unit_price == amount. Tolerance grows with the quantity, as tills round per line.
    double items_sum = 0.0;
    size_t n_with_amount = 0;
    const auto items = fields.find("line_items");
    if (items != fields.end() && items->is_array()) {
        for (size_t i = 0; i < items->size(); ++i) {
            const nlohmann::json& item = (*items)[i];
            const auto qty = number_at(item, "quantity");
            const auto unit = number_at(item, "unit_price");
            const auto amount = number_at(item, "amount");
            if (amount) items_sum += *amount, ++n_with_amount;
            if (!qty || !unit || !amount) continue;
            const double expected = *qty * *unit;
            const double tol = kAmountTolerance + 0.005 * std::fabs(*qty);
            const bool ok = std::fabs(expected - *amount) <= tol ||
                            (*amount < 0 && std::fabs(expected + *amount) <= tol);  // discount: "割引 ; 1 ; 50 ; -50"
            if (!ok) {
                out.push_back("item_amount_mismatch: item " + std::to_string(i + 1) + " quantity " + num(*qty) +
                              " x unit_price " + num(*unit) + " = " + num(expected) + " but amount is " + num(*amount));
            }
        }
    }

    // Items sum: any of net, total (tax-inclusive), or total - tax (no subtotal printed) is fine.
    if (n_with_amount > 0 && (net || total)) {
        const bool ok = (net && near(items_sum, *net)) || (total && near(items_sum, *total)) ||
                        (!net && total && tax && near(items_sum, *total - *tax));
        if (!ok) {
            std::string detail = "line items sum to " + num(items_sum) + " but";
            if (net) detail += " net_amount is " + num(*net);
            if (net && total) detail += " and";
            if (total) detail += " total_amount is " + num(*total);
            out.push_back("items_sum_mismatch: " + detail);
        }
    }

    if (net && tax && total && !near(*net + *tax, *total) && !near(*net, *total)) {
        out.push_back("net_tax_total_mismatch: net_amount " + num(*net) + " + total_tax_amount " + num(*tax) +
                      " != total_amount " + num(*total));
    }
    if (tax && *tax < 0) out.push_back("negative_tax: total_tax_amount is " + num(*tax));
    if (tax && total && *tax > 0) {
        if (*tax > *total + kAmountTolerance) {
            out.push_back("tax_exceeds_total: total_tax_amount " + num(*tax) + " > total_amount " + num(*total));
        } else if (*total > 0 && *tax > kMaxTaxShare * *total + kAmountTolerance) {
            out.push_back("tax_implausible: total_tax_amount " + num(*tax) + " is more than 25% of total_amount " +
                          num(*total));
        }
    }
    if (total && *total < 0) out.push_back("negative_total: total_amount is " + num(*total));
    return out;
}

}  // namespace receipt::extract
