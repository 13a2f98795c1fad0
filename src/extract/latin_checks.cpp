// Post-check steps for Latin-script receipts (extract/latin_checks.h).
#include "extract/latin_checks.h"

#include <cmath>
#include <optional>
#include <utility>

#include "extract/company_name.h"
#include "extract/field_edits.h"
#include "extract/latin_header.h"
#include "extract/latin_row_lines.h"
#include "extract/latin_totals.h"

namespace receipt::extract {

void check_latin_name(const std::string& text, nlohmann::ordered_json& f) {
    auto& name = f["supplier_name"];
    const auto& addr = f["supplier_address"];
    if (name.is_string() && addr.is_string() && !has_company_suffix(name.get<std::string>())) {
        std::string nm = name.get<std::string>();
        const std::string a = addr.get<std::string>();
        if (const auto kept = name_without_street_lines(text, nm)) {
            f["warnings"].push_back("supplier_name_street_lines: the model wrote " + nm +
                                    ", which takes the street lines printed beside the name " + *kept);
            name = *kept;
            nm = *kept;
        }
        if (const auto line = name_without_address_run_on(text, nm, a)) {
            f["warnings"].push_back("supplier_name_run_on: the model wrote " + nm +
                                    ", which runs on from the header line " + *line + " into the address");
            name = *line;
            nm = *line;  // that line may itself name no shop ("5450 Market St")
        }
        if (name_names_no_shop(nm, a)) {
            if (const auto header = header_name_line_outside(text, a); header && *header != nm) {
                f["warnings"].push_back("supplier_name_not_a_name: the model wrote " + nm +
                                        ", the receipt's first name line is " + *header);
                name = *header;
            }
        }
    }
}

void check_latin_totals(const std::string& text, nlohmann::ordered_json& f) {
    const auto num = [&](const char* key) -> std::optional<double> {
        return f[key].is_number() ? std::optional<double>(f[key].get<double>()) : std::nullopt;
    };
    // A receipt that states no tax has none; the model writes an amount it guessed (a share of the total, an item's).
    if (f["total_tax_amount"].is_number() && !states_tax(text)) {
        f["warnings"].push_back("total_tax_amount_not_printed: the model wrote " + written(f["total_tax_amount"]) +
                                ", the receipt states no tax");
        f["total_tax_amount"] = nullptr;
        revalidate(f);
    }
    // A printed subtotal, tax line and their sum printed below them stand over the model's net, tax and total when
    // those do not add up.
    if (const auto printed = printed_totals_that_add_up(text)) {
        const auto net = num("net_amount"), tax = num("total_tax_amount"), tot = num("total_amount");
        if (!(net && tax && tot && std::fabs(*net + *tax - *tot) < 0.005)) {
            for (const auto& [key, v] : {std::pair<const char*, double>{"net_amount", printed->net},
                                         {"total_tax_amount", printed->tax},
                                         {"total_amount", printed->total}}) {
                if (const auto had = num(key); had && std::fabs(*had - v) < 0.005) continue;
                f["warnings"].push_back(std::string(key) + "_from_printed_totals: the model wrote " + written(f[key]) +
                                        ", the receipt prints " + json_amount(printed->net).dump() + " + " +
                                        json_amount(printed->tax).dump() + " = " + json_amount(printed->total).dump());
                f[key] = json_amount(v);
            }
            revalidate(f);
        }
    }
    // One tax amount printed on the tax lines ("VAT 20%" / "£5.44") is the tax; the model writes the rate, an item's
    // price or nothing.
    if (const auto printed = printed_tax_line_amount(text)) {
        const auto had = num("total_tax_amount");
        if (!(had && std::fabs(*had - *printed) < 0.005)) {
            f["warnings"].push_back("total_tax_amount_from_tax_line: the model wrote " +
                                    written(f["total_tax_amount"]) + ", the receipt's tax line prints " +
                                    json_amount(*printed).dump());
            f["total_tax_amount"] = json_amount(*printed);
            revalidate(f);
        }
    }
    // The amount after the subtotal keyword is the net amount; the model writes an item's amount there, or nothing.
    // Unless that amount has fewer digits than the model's net and the model's is no more than the total: OCR lost
    // digits ("3.95" printed for 34.95). A net above the total with more digits is no such reading ("4594").
    if (const auto printed = printed_subtotal(text); printed && *printed > 0) {
        const auto had = num("net_amount"), tot = num("total_amount");
        const bool digits_lost = had && cents_digits(*printed).size() < cents_digits(*had).size() &&
                                 !(tot && *had > *tot + 0.005);
        if (!(had && (std::fabs(*had - *printed) < 0.005 || digits_lost))) {
            f["warnings"].push_back("net_amount_from_subtotal_line: the model wrote " + written(f["net_amount"]) +
                                    ", the receipt's subtotal line prints " + json_amount(*printed).dump());
            f["net_amount"] = json_amount(*printed);
            revalidate(f);
        }
    }
    // A net amount without cents above the total is no subtotal of this receipt: an amount whose point OCR lost
    // ("$14936" for 149.36: it and the tax make the total), else a number of another kind (a postcode, an id) when
    // it is ten times the total or more.
    if (const auto net = num("net_amount"), tot = num("total_amount");
        net && tot && *tot > 0 && *net > *tot && *net == std::floor(*net)) {
        const double tax = num("total_tax_amount").value_or(0), point = *net / 100;
        if (std::fabs(point + tax - *tot) < 0.005) {
            f["warnings"].push_back("net_amount_point_lost: the model wrote " + written(f["net_amount"]) +
                                    ", the receipt's amounts make " + json_amount(point).dump());
            f["net_amount"] = json_amount(point);
            revalidate(f);
        } else if (*net >= 10 * *tot) {
            f["warnings"].push_back("net_amount_not_an_amount: the model wrote " + written(f["net_amount"]) +
                                    ", ten times the total or more");
            f["net_amount"] = nullptr;
            revalidate(f);
        }
    }
    // A net amount that lost a digit to OCR is what the total and tax make.
    if (const auto tot = num("total_amount"), tax = num("total_tax_amount"), net = num("net_amount");
        tot && tax && net && std::fabs(*net + *tax - *tot) >= 0.005)
        if (const auto n = latin_net_digit_back(text, *net, *tot, *tax)) {
            f["warnings"].push_back("net_amount_dropped_digit: the receipt prints " + json_amount(*net).dump() +
                                    ", one digit short of " + json_amount(*n).dump() +
                                    ", which the total and its tax make");
            f["net_amount"] = json_amount(*n);
            revalidate(f);
        }
    // A tax the model left out on a receipt that states one, or one above 30% of the total, is the total less the
    // net where the receipt prints that by a tax word or it is the printed rate of the net.
    if (const auto tot = num("total_amount"), tax = num("total_tax_amount"), net = num("net_amount");
        tot && net && (tax ? *tax > 0.3 * *tot : states_tax(text)))
        if (const auto t = latin_tax_from_totals(text, *net, *tot)) {
            f["warnings"].push_back("total_tax_amount_from_totals: the model wrote " + written(f["total_tax_amount"]) +
                                    ", the receipt's total less its net amount is " + json_amount(*t).dump());
            f["total_tax_amount"] = json_amount(*t);
            revalidate(f);
        }
    // A total that lost a digit to OCR is what the net and tax make (or the tax and its printed rate). Not with a
    // tax above 30% of the net: the model's tax is then wrong itself ("100" beside a 75.00 subtotal and 4.25 of GST
    // made a printed 75.00 total "175").
    if (const auto tot = num("total_amount"), tax = num("total_tax_amount"), net = num("net_amount");
        tot && tax && !(net && std::fabs(*net + *tax - *tot) < 0.005) && !(net && *tax > 0.3 * *net))
        if (const auto t = latin_total_digit_back(text, *tot, net, *tax)) {
            f["warnings"].push_back("total_amount_dropped_digit: the receipt prints " + json_amount(*tot).dump() +
                                    ", one digit short of " + json_amount(*t).dump() +
                                    (net ? ", which the net amount and its tax make"
                                         : ", which its tax and rate make"));
            f["total_amount"] = json_amount(*t);
            revalidate(f);
        }
}

}  // namespace receipt::extract
