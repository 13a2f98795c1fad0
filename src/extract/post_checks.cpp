// Post-decoding checks of a receipt's fields (extract/post_checks.h).
#include "extract/post_checks.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <regex>
#include <vector>

#include "extract/address_country.h"
#include "extract/body_line_values.h"
#include "extract/copy_constraint.h"
#include "extract/date_checks.h"
#include "extract/discount_rate.h"
#include "extract/dropped_digit.h"
#include "extract/field_edits.h"
#include "extract/item_checks.h"
#include "extract/item_rows.h"
#include "extract/items_short.h"
#include "extract/japanese_phone.h"
#include "extract/kana_lookalikes.h"
#include "extract/known_names.h"
#include "extract/latin_address.h"
#include "extract/latin_checks.h"
#include "extract/latin_lookalikes.h"
#include "extract/latin_header.h"
#include "extract/normalize_currency.h"
#include "extract/normalize_date.h"
#include "extract/normalize_text.h"
#include "extract/normalize_time.h"
#include "extract/printed_amounts.h"
#include "extract/printed_items.h"
#include "extract/printed_tax.h"
#include "extract/printed_value.h"
#include "extract/store_branch.h"
#include "extract/total_tax_checks.h"
#include "extract/unprinted_amounts.h"
#include "extract/unprinted_items.h"
#include "extract/name_address_checks.h"
#include "extract/utf8.h"
#include "extract/validate.h"
#include "extract/yen_totals.h"

namespace receipt::extract {

namespace {

// True when the target text's "<tag>: <number>" segment writes a decimal point ("total: 27.55").
bool written_with_cents(const std::string& target, const std::string& tag) {
    const std::string key = tag + ":";
    size_t at = std::string::npos;
    for (size_t p = target.find(key); p != std::string::npos; p = target.find(key, p + 1))
        if (p == 0 || target[p - 1] == ' ') at = p;
    if (at == std::string::npos) return false;
    const size_t end = std::min(target.find('|', at), target.size());
    return target.substr(at, end - at).find('.') != std::string::npos;
}

}  // namespace

void apply_post_checks(const std::string& text, const std::string& target, const ExtractOptions& options,
                       nlohmann::ordered_json& f, const KnownLists* known) {
    // The store name and the address against the print (extract/name_address_checks.h).
    check_name_and_address(text, options, f);
    // Japanese text copied from the printed receipt carries the OCR's katakana / kanji look-alikes ("東急ス卜ア");
    // their neighbours tell which they are (extract/kana_lookalikes.h). OCR also joins a quantity to the word
    // before it ("牛乳200ml"): the space goes back; and merges the date line into the first item row ("20/01/04
    // 6時49分 日焼け止め SPF50"): the date and time go (extract/normalize_text.h).
    auto fix_item_lookalikes = [&] {
        if (!has_cjk(text) || !f["line_items"].is_array()) return;
        for (auto& it : f["line_items"])
            if (it.is_object() && it.contains("description") && it["description"].is_string())
                it["description"] = space_before_quantity(
                    fix_kana_lookalikes(without_merged_header_line(it["description"].get<std::string>())));
    };
    if (has_cjk(text)) {
        for (const char* key : {"supplier_name", "supplier_address"})
            if (f[key].is_string()) f[key] = fix_kana_lookalikes(f[key].get<std::string>());
        fix_item_lookalikes();
    }
    // A string field rewritten by `fix` (nullopt: kept), with the warning "<key>_<tag>: the receipt prints <value>,
    // <says> <fixed>".
    auto respell = [&](const char* key, bool on, const char* tag, const char* says, auto&& fix) {
        auto& v = f[key];
        if (!on || !v.is_string()) return;
        if (const std::optional<std::string> fixed = fix(v.get<std::string>())) {
            f["warnings"].push_back(std::string(key) + "_" + tag + ": the receipt prints " + v.get<std::string>() +
                                    ", " + says + " " + *fixed);
            v = *fixed;
        }
    };
    // A store name known from training whose letters OCR dropped gets its known spelling (extract/known_names.h);
    // so does a store address known from training, and a Latin-script address word ("Maket Steet" -> "Market
    // Street"); then the OCR damage of an address's postcode and house number prefix is read ("811D0", "N0.16",
    // "M11AE"; extract/latin_address.h).
    respell("supplier_name", known && options.copy_name, "known", "the store known as",
            [&](const std::string& v) { return known_name_for(text, v, known->stores); });
    // A chain printed nowhere, before a printed branch ("セコラファンダ 本町駅前店" for "本町駅前店" / "ココカラファイン",
    // "セケーズデンキ" for "ケーズデンキ"), is the chain printed with that branch, unless the model's chain is a store
    // known from training (extract/store_branch.h).
    if (options.copy_name && has_cjk(text) && f["supplier_name"].is_string()) {
        const std::string v = f["supplier_name"].get<std::string>();
        if (!(known && known->stores.knows(v.substr(0, std::min(v.find(' '), v.size())))))
            if (const auto printed = printed_chain_of_branch(text, v, kNameLines)) {
                const std::string read = fix_kana_lookalikes(*printed);  // the look-alikes read as above
                f["warnings"].push_back("supplier_name_printed_chain: the model wrote " + v +
                                        ", a chain not printed; the receipt prints " + read);
                f["supplier_name"] = read;
            }
    }
    respell("supplier_address", known && options.copy_address, "known", "the address known as",
            [&](const std::string& v) { return known_address_for(v, known->addresses); });
    respell("supplier_address", known && options.copy_address, "words_known", "known words read as",
            [&](const std::string& v) { return known_address_words_for(v, known->address_words); });
    respell("supplier_address", options.copy_address, "numbers_read", "read as",
            [](const std::string& v) { return address_numbers_read(v); });
    if (options.copy_date) check_date_and_time(text, f);
    // No valid total (the model wandered off in the total field), or a total without cents on a receipt whose
    // total lines print cents (the model copied a piece of a number: "55" of 27.55, a quantity): the largest
    // amount with cents printed near a total keyword (extract/copy_constraint.h, total_fallback).
    auto& total = f["total_amount"];
    const bool total_doubtful = total.is_null() || !written_with_cents(target, "total");
    if (options.copy_numbers && total_doubtful) {
        const std::optional<double> v = total_fallback(text);
        if (v && !(total.is_number() && total.get<double>() == *v)) {
            f["warnings"].push_back(std::string(total.is_null() ? "total_amount_not_read"
                                                                : "total_amount_without_cents") +
                                    ": taking the largest amount printed near a total keyword");
            total = *v;
            revalidate(f);
        }
    }
    // Net, tax and total of a receipt with cents from its printed total lines (extract/latin_checks.h).
    if (options.copy_numbers && !has_cjk(text)) check_latin_totals(text, f);
    // The total becomes `v` unless it is within `tol` of it; the warning "<code>: the model wrote X, <what> V".
    auto replace_total = [&](const std::optional<double>& v, double tol, const char* code, const char* what) {
        if (!options.copy_numbers || !v || (total.is_number() && std::fabs(total.get<double>() - *v) < tol)) return;
        f["warnings"].push_back(std::string(code) + ": the model wrote " +
                                written(total) + ", " + what + " " +
                                json_amount(*v).dump());
        total = json_amount(*v);
        revalidate(f);
    };
    // A total line that says PAYABLE names the amount due (after discounts, service charges and rounding).
    replace_total(payable_total(text), 0.005, "total_amount_from_payable_line", "the payable line prints");
    // The amount paid in cash (tendered minus change, extract/printed_amounts.h) is the total, unless the model's
    // total is within a cash rounding (5 sen) of it: SROIE labels the total before or after rounding alike.
    replace_total(cash_paid_total(text), 0.05, "total_amount_from_cash_and_change", "cash minus change is");
    // A total before a cash rounding (80.91) on a receipt that prints the rounded total (80.90): the amount
    // paid is the rounded one (extract/printed_amounts.h, rounded_total).
    if (total.is_number())
        replace_total(rounded_total(text, total.get<double>()), 0.005, "total_amount_rounded",
                      "the receipt rounds it to");
    // A receipt that prints no currency sign is in its address's country's currency (extract/address_country.h).
    if (const auto country = currency_of_printed_country(text);
        country && !(f["currency"].is_string() && f["currency"].get<std::string>() == *country)) {
        f["warnings"].push_back("currency_from_address: the model wrote " + written(f["currency"]) +
                                ", the receipt prints no currency sign and an address of a country that pays in " +
                                *country);
        f["currency"] = *country;
    }
    // A Latin-script receipt that prints its amounts with one kind of currency sign is in that sign's currency when
    // the model wrote none or another one it prints no sign or code of (GBP for "$281.99": a reading cut before
    // the amounts); one dollar is not traded for another.
    const std::string model_currency = f["currency"].is_string() ? f["currency"].get<std::string>() : "";
    if (const auto signed_currency = currency_of_printed_sign(text);
        signed_currency && !currency_fits_sign(text, model_currency, *signed_currency)) {
        f["warnings"].push_back("currency_from_printed_sign: the model wrote " + written(f["currency"]) +
                                ", the receipt prints amounts in " + *signed_currency + " and no other currency");
        f["currency"] = *signed_currency;
    }
    // A yen (or rupiah, won, dong) currency that a Latin-script receipt prints no sign of, with no amount grouped
    // in thousands, is made up (a receipt cut off above its totals that prints "5.00"; extract/unprinted_amounts.h).
    if (options.copy_numbers && f["currency"].is_string() &&
        minor_unit_free_currency_unprinted(text, f["currency"].get<std::string>())) {
        f["warnings"].push_back("currency_not_printed: the model wrote " + f["currency"].get<std::string>() +
                                ", which the receipt prints no sign or amount of; left out");
        f["currency"] = nullptr;
    }
    // A Japanese receipt that prints its amounts in yen and no other currency's sign is in yen, whatever the model
    // wrote ("IDR" for a menu board).
    static const std::regex other_sign(R"(\$|€|£|₩|₫|\d\s?元|\bRM\s?\d|\bRp\.?\s?\d)");
    auto prints_other_sign = [&] {
        try {
            return std::regex_search(text, other_sign);
        } catch (...) {  // std::regex giving up on a long text: keep the model's currency
            return true;
        }
    };
    if (f["currency"].is_string() && f["currency"].get<std::string>() != "JPY" && prints_yen_amounts(text) &&
        !prints_other_sign()) {
        f["warnings"].push_back("currency_from_printed_amounts: the model wrote " + f["currency"].get<std::string>() +
                                ", the receipt prints yen amounts and no other currency's sign");
        f["currency"] = "JPY";
    }
    // In a currency without minor units (yen) the total is the amount printed after the total keyword
    // (extract/printed_amounts.h); the model, near the end of a long output, often writes a garbled or
    // another printed number there. (With cents, the keyword reading is less reliable than the model: SROIE
    // prints "TOTAL QTY", "TOTAL (EXCL GST)" and the like.)
    // The net amount likewise is the amount after the subtotal keyword, and null when none is printed.
    // A Japanese receipt whose currency the model left out (its output cut short) prints its amounts in yen.
    if (f["currency"].is_null() && prints_yen_amounts(text)) {
        f["warnings"].push_back("currency_from_printed_amounts: the model wrote none, the receipt prints yen amounts");
        f["currency"] = "JPY";
    }
    const auto& currency = f["currency"];
    const bool yen = currency.is_string() && currency_without_minor_units(currency.get<std::string>());
    std::optional<double> labelled_tax = labelled_tax_total(text);  // the 外税 amounts, read once
    std::optional<double> yen_subtotal, yen_total;  // the keyword readings, read once for the checks below
    std::optional<double> yen_rows_total;           // the total the yen item rows were checked against
    // A phone number that is not printed becomes the one printed after a phone label: on a Japanese receipt
    // (yen) as extract/japanese_phone.h reads it, on a Latin-script one as extract/latin_header.h does.
    const bool japanese = has_cjk(text);
    if (options.copy_numbers && (yen || !japanese)) {
        auto& phone = f["supplier_phone"];
        const std::string wrote = phone.is_string() ? phone.get<std::string>() : "";
        // A Japanese number of the wrong length ("034222", a piece of the printed "034222-2460") is no number: the
        // printed one is looked for as when the model wrote none.
        const std::string asked = japanese && !wrote.empty() && !japanese_phone_length_ok(wrote) ? "" : wrote;
        if (const auto printed = japanese ? labelled_phone_for(text, asked) : latin_labelled_phone_for(text, wrote)) {
            f["warnings"].push_back("supplier_phone_not_printed: the model wrote " + (wrote.empty() ? "none" : wrote) +
                                    ", the receipt prints " + *printed + " after its phone label");
            phone = *printed;
        }
        // A Japanese phone number has 10 digits (11 for mobile and 050 numbers). One with fewer or more is a
        // number that OCR cut short (every 9-digit value on the development sets was) or one the model ran on
        // ("078-9690-9690559"): no number, with the value kept in the warning.
        // A number printed with a digit lost ("043-30-8626") that the model wrote whole: the digit is a guess.
        if (japanese && phone.is_string() && phone_with_guessed_digit(text, phone.get<std::string>())) {
            f["warnings"].push_back("supplier_phone_digit_guessed: the receipt prints " + phone.get<std::string>() +
                                    " with a digit lost");
            phone = nullptr;
        }
        // The same for a Latin-script number where the receipt's currency tells its length ("0161 782 547" for a
        // UK number of 11 digits): OCR dropped a digit, or the model cut the number short.
        if (!japanese && phone.is_string() && f["currency"].is_string()) {
            const std::string p = phone.get<std::string>(), first = p.substr(0, p.find('/'));
            const std::string currency = f["currency"].get<std::string>();
            if (const size_t expected = latin_phone_digits_expected(p, currency);
                expected && phone_digits(first) != expected) {
                f["warnings"].push_back("supplier_phone_incomplete: " + p + " has " +
                                        std::to_string(phone_digits(first)) + " digits, a " + currency +
                                        " receipt's number " + std::to_string(expected));
                phone = nullptr;
            }
        }
        if (japanese && phone.is_string() && !japanese_phone_length_ok(phone.get<std::string>())) {
            f["warnings"].push_back("supplier_phone_incomplete: " + phone.get<std::string>() + " has " +
                                    std::to_string(phone_digits(phone.get<std::string>())) +
                                    " digits, a Japanese number 10 or 11");
            phone = nullptr;
        }
    }
    if (options.copy_numbers && yen) {
        auto take = [&](const char* key, const std::optional<double>& printed, const char* what) {
            auto& v = f[key];
            if (printed ? v.is_number() && v.get<double>() == *printed : v.is_null()) return;
            f["warnings"].push_back(std::string(key) + "_from_" + what + "_line: the model wrote " +
                                    written(v) + ", the receipt prints " +
                                    (printed ? json_amount(*printed).dump() : std::string("no ") + what));
            v = printed ? json_amount(*printed) : nlohmann::ordered_json();
            revalidate(f);
        };
        yen_total = keyword_total(text);
        // The payment line says what was paid ("iD決済 / ¥3,870", or tendered less change): it wins over the total
        // keyword's reading when OCR moved another box after the keyword ("お買上計 / ¥300 / ¥3,870"), if the model
        // wrote it too, the receipt prints it once more, or tendered less change is what the per-rate tax lines
        // make (extract/yen_totals.h; "お買計 / ¥1,89" for 1,879: 8% ¥716 and 10% ¥1,163 included, ¥2,000 less
        // ¥121).
        const char* total_from = "total";
        // Not when the payment line is the keyword's total with a digit OCR lost ("お会計 ¥632" / "交通系IC ¥62").
        if (const auto paid = yen_paid_amount(text);
            paid && !(yen_total && (*yen_total == paid->value ||
                                    one_digit_inserted(amount_digits(paid->value), amount_digits(*yen_total))))) {
            const auto& m = f["total_amount"];
            if ((m.is_number() && m.get<double>() == paid->value) || paid->printed >= (paid->from_change ? 1 : 2) ||
                (paid->from_change && tax_bases_make(text, paid->value, labelled_tax.has_value()))) {
                yen_total = paid->value;
                total_from = "payment";
            }
        }
        // The 外税 amounts are taxes: more than a quarter (the bound of the tax_implausible warning; Japan's rates
        // are 8 % and 10 %) of the largest total read (the keyword's or payment line's, the model's total or net)
        // is another box that OCR moved after a tax label ("外税8%" / "小計 ¥9,981"), not read as a tax.
        double largest = yen_total.value_or(0);
        for (const char* key : {"total_amount", "net_amount"})
            if (f[key].is_number()) largest = std::max(largest, f[key].get<double>());
        if (labelled_tax && largest > 0 && *labelled_tax > 0.25 * largest) labelled_tax.reset();
        // A keyword reading that another box took ("合 計" / "8%対象言 298円", "お会計" / "¥320軽" / "¥1955") gives
        // way to the model's total when the per-rate tax lines make the model's and not the keyword's.
        if (const auto& m = f["total_amount"]; yen_total && total_from == std::string("total") && m.is_number() &&
                                               m.get<double>() != *yen_total &&
                                               tax_bases_make(text, m.get<double>(), labelled_tax.has_value()) &&
                                               !tax_bases_make(text, *yen_total, labelled_tax.has_value()))
            yen_total = m.get<double>();
        if (yen_total) take("total_amount", yen_total, total_from);
        bool subtotal_printed = false;
        yen_subtotal = keyword_subtotal(text, &subtotal_printed);
        // A receipt with the tax included (内税, 内消費税, also "内消税": prints_tax_included) and no 外税 has its
        // subtotal equal to its total: an amount below the total after the subtotal keyword is another row's box
        // that OCR moved there ("小計 / ¥1330 / ¥3783"), and a model net amount equal to the total stands. So it
        // does on any receipt where the subtotal is the total with a digit OCR lost ("小計 ¥62" / "お会計 ¥632").
        const auto& model_net = f["net_amount"];
        if (yen_subtotal && yen_total && *yen_subtotal < *yen_total && !labelled_tax && model_net.is_number() &&
            model_net.get<double>() == *yen_total &&
            (prints_tax_included(text) || one_digit_inserted(amount_digits(*yen_subtotal), amount_digits(*yen_total))))
            yen_subtotal = yen_total;
        if (yen_subtotal || !subtotal_printed) take("net_amount", yen_subtotal, "subtotal");
        // The arithmetic of net, tax and total (extract/yen_totals.h): a total missing or below the net amount is
        // net + the added tax, or net, as the payment line prints it again; a net amount that does not add up with
        // the 外税 amounts to the total is total - those, when printed.
        auto& net = f["net_amount"];
        auto& tot = f["total_amount"];
        if (net.is_number() && (!tot.is_number() || tot.get<double>() < net.get<double>())) {
            std::optional<double> added = printed_tax_total(text);
            if (!added) added = labelled_tax;
            if (const auto t = yen_total_from_net(text, net.get<double>(), added)) {
                f["warnings"].push_back("total_amount_from_net_amount: the model wrote " +
                                        written(tot) + ", net " +
                                        net.dump() + " and the tax make " + json_amount(*t).dump() +
                                        ", printed below the subtotal");
                tot = json_amount(*t);
                yen_total = *t;
                revalidate(f);
            }
        }
        // Still no total: the per-rate tax lines make it, when the receipt prints it again (extract/yen_totals.h).
        if (!tot.is_number())
            if (const auto t = yen_total_from_bases(text, labelled_tax.has_value())) {
                f["warnings"].push_back("total_amount_from_tax_bases: the model wrote " + written(tot) +
                                        ", the per-rate tax lines make " + json_amount(*t).dump() +
                                        ", printed on the receipt");
                tot = json_amount(*t);
                yen_total = *t;
                revalidate(f);
            }
        // Still none (the model's reading cut before its totals, the total line damaged: "お買上計 / ¥,582"): the
        // amount paid, when the printed item rows (extract/item_rows.h) add up to it, two readings that agree.
        if (!tot.is_number())
            if (const auto paid = yen_paid_amount(text);
                paid && paid->value > 0 && item_rows_add_up_to(text, paid->value)) {
                f["warnings"].push_back("total_amount_from_payment_and_rows: the model wrote none, the receipt pays " +
                                        json_amount(paid->value).dump() + " and its item rows add up to it");
                tot = json_amount(paid->value);
                yen_total = paid->value;
                revalidate(f);
            }
        if (labelled_tax && tot.is_number() &&
            !(net.is_number() && std::fabs(net.get<double>() + *labelled_tax - tot.get<double>()) < 0.5))
            if (const auto n = yen_net_from_total(text, tot.get<double>(), *labelled_tax)) {
                f["warnings"].push_back("net_amount_from_total_and_tax: the model wrote " +
                                        written(net) + ", total " +
                                        tot.dump() + " less the 外税 amounts is " + json_amount(*n).dump());
                net = json_amount(*n);
                yen_subtotal = *n;
                revalidate(f);
            }
        // The per-rate bases add up to the total (内税) or to the total less their taxes (外税): their sum is the
        // net amount, whatever OCR did to the subtotal line (extract/yen_totals.h). A receipt without a subtotal
        // line has no net amount. Checked again below once a total that lost a digit is put back.
        auto net_from_bases = [&] {
            if (!subtotal_printed || !tot.is_number()) return;
            if (const auto n = yen_net_from_bases(text, tot.get<double>());
                n && !(net.is_number() && std::fabs(net.get<double>() - *n) < 0.5)) {
                f["warnings"].push_back("net_amount_from_tax_bases: the model wrote " +
                                        written(net) +
                                        ", the per-rate tax bases add up to " + json_amount(*n).dump());
                net = json_amount(*n);
                yen_subtotal = *n;
                revalidate(f);
            }
        };
        net_from_bases();
        // A total that lost a digit to OCR is what the net amount and its tax make (extract/yen_totals.h).
        if (tot.is_number()) {
            const std::optional<double> n =
                net.is_number() ? std::optional<double>(net.get<double>()) : std::nullopt;
            if (const auto t = yen_total_digit_back(text, tot.get<double>(), n, labelled_tax)) {
                f["warnings"].push_back("total_amount_dropped_digit: the receipt prints " + tot.dump() +
                                        ", one digit short of " + json_amount(*t).dump() +
                                        (n ? ", which the net amount and its tax make" : ", which its tax lines make"));
                // A receipt with the tax included prints its total as the subtotal: a net amount that is the same
                // damaged print goes with it ("小計 ¥67" / "¥67" for 677).
                if (!labelled_tax && prints_tax_included(text) && net.is_number() && net == tot) {
                    f["warnings"].push_back("net_amount_dropped_digit: the subtotal prints " + net.dump() +
                                            " as the total does, " + json_amount(*t).dump() + " with the tax included");
                    net = json_amount(*t);
                    yen_subtotal = *t;
                }
                tot = json_amount(*t);
                yen_total = *t;
                revalidate(f);
                net_from_bases();  // "小計" / "(8%対象 / ¥1518)" / ... / "合計金額 / ¥186" for 1,896
            }
        }
        // The rows add up to the subtotal, else to the total: the keyword's, or the total the checks above left
        // (the model's, when no total keyword is read).
        std::optional<double> rows_total = yen_total;
        if (!rows_total && f["total_amount"].is_number()) rows_total = f["total_amount"].get<double>();
        // A subtotal line that OCR damaged ("小計 / \1,65"): the net amount the checks above left, when the printed
        // rows add up to it.
        std::optional<double> rows_subtotal = yen_subtotal;
        if (!rows_subtotal && net.is_number() && item_rows_add_up_to(text, net.get<double>()))
            rows_subtotal = net.get<double>();
        check_yen_items(text, rows_subtotal, rows_total, f);
        yen_rows_total = rows_total;
        // A percentage discount is its share of the item above it (extract/discount_rate.h).
        if (discounts_from_rate(text, f)) revalidate(f);
        fix_item_lookalikes();  // the descriptions that the printed rows gave ("ロースカツ力レー")
    }
    // A receipt in a currency with cents: its printed item rows (extract/latin_item_rows.h) replace the model's
    // items when they add up to the printed subtotal or total and the model's do not.
    if (options.copy_numbers && !yen) check_latin_items(text, f);
    // An item whose description is not printed at all is another shop's (extract/unprinted_items.h). Latin
    // receipts too: on SROIE validation the model wrote such items on 31 of 80 receipts (Japanese shop names,
    // "Royal Baking Powder 450g" on a hardware store's receipt); on the synthetic sets no right item is dropped.
    if (options.copy_numbers && drop_unprinted_items(text, f)) {
        revalidate(f);
        // In yen, the items left are checked against the printed rows again: the other shop's items had kept the
        // rows from holding the model's items (or, having added up, from replacing them at all).
        if (yen) check_yen_items(text, yen_subtotal, yen_rows_total, f);
        // Far fewer items left than the receipt prints: its rows, as printed (extract/items_short.h).
        if (yen)
            if (const auto rows = read_item_rows(text)) items_from_rows_after_unprinted(*rows, f);
    }
    // Latin-script item descriptions as printed, read: a count left in front ("1x SCREWDRIVER SET") goes, OCR
    // look-alike digits inside words become letters ("C0UPON") (extract/latin_lookalikes.h).
    if (!yen && !has_cjk(text) && f["line_items"].is_array()) {
        std::string changed;
        int k = 0;
        for (auto& it : f["line_items"]) {
            ++k;
            if (!it.is_object() || !it.contains("description") || !it["description"].is_string()) continue;
            const std::string d = it["description"].get<std::string>(), read = latin_item_description_read(d);
            if (read == d || read.empty()) continue;
            it["description"] = read;
            changed += (changed.empty() ? "" : ", ") + std::to_string(k);
        }
        if (!changed.empty())
            f["warnings"].push_back("line_item_description_read: items " + changed +
                                    " had a count or OCR look-alike digits in their descriptions");
    }
    // Item descriptions known from training whose letters OCR dropped get their known spellings
    // (extract/known_names.h).
    if (known && f["line_items"].is_array()) {
        const std::vector<std::string> lines = printed_lines_as_is(text);
        std::string changed;
        int k = 0;
        for (auto& it : f["line_items"]) {
            ++k;
            if (!it.is_object() || !it.contains("description") || !it["description"].is_string()) continue;
            const std::string d = it["description"].get<std::string>();
            std::optional<std::string> fixed = known_item_for(d, known->items);
            // Words out of order, unless a line prints them so ("ITEM DISCOUNT").
            if (!fixed && std::none_of(lines.begin(), lines.end(), [&](const std::string& line) {
                    return line.find(d) != std::string::npos;
                }))
                fixed = known_item_reordered(d, known->items);
            if (fixed) {
                changed += (changed.empty() ? "" : ", ") + std::to_string(k) + " (" +
                           it["description"].get<std::string>() + " -> " + *fixed + ")";
                it["description"] = *fixed;
            }
        }
        if (!changed.empty())
            f["warnings"].push_back("line_item_description_known: items " + changed +
                                    " take the spelling of an item known from training");
    }
    // An item description OCR damaged on one row of a product printed on several takes the spelling of the others
    // (extract/known_names.h, repeated_item_for).
    if (known && f["line_items"].is_array() && f["line_items"].size() > 1) {
        const std::string printed = name_letters(text);
        std::vector<std::string> descriptions;
        for (const auto& it : f["line_items"]) {
            const bool has = it.is_object() && it.contains("description") && it["description"].is_string();
            descriptions.push_back(has ? it["description"].get<std::string>() : std::string());
        }
        // The printed ones, less those that are themselves another's damaged spelling ("釜揚げうどん並" beside
        // "釜揚げうどん 並" is no spelling for "釜揚うどん").
        std::vector<std::string> printed_others, others;
        for (const auto& d : descriptions) {
            const std::string l = name_letters(d);
            if (!l.empty() && printed.find(l) != std::string::npos) printed_others.push_back(d);
        }
        for (const auto& d : printed_others)
            if (!repeated_item_for(d, printed_others, known->items)) others.push_back(d);
        std::string changed;
        for (size_t k = 0; k < descriptions.size(); ++k) {
            if (descriptions[k].empty()) continue;
            if (auto fixed = repeated_item_for(descriptions[k], others, known->items)) {
                changed += (changed.empty() ? "" : ", ") + std::to_string(k + 1) + " (" + descriptions[k] + " -> " +
                           *fixed + ")";
                f["line_items"][k]["description"] = *fixed;
            }
        }
        if (!changed.empty())
            f["warnings"].push_back("line_item_description_repeated: items " + changed +
                                    " take the spelling of the same product on other rows");
    }
    // The total tax from the per-rate tax lines, the 外税 and 内消費税 labels and the arithmetic of net and total
    // (extract/total_tax_checks.h).
    if (options.copy_numbers) check_total_tax(text, target, yen, yen_subtotal, yen_total, labelled_tax, f);
    // A name, address or phone the text does not print at all (below kPrintedFieldShare of it anywhere, in order)
    // is another shop's, written for a text that prints nothing like it: left out (extract/unprinted_items.h).
    std::vector<std::string> header_keys;
    if (options.copy_name) header_keys.push_back("supplier_name");
    if (options.copy_address) header_keys.push_back("supplier_address");
    if (options.copy_numbers) header_keys.push_back("supplier_phone");
    drop_unprinted_fields(text, header_keys, f);
    // A name or address without a letter, or that is a date or time line, is a line of the body the model copied
    // where the header was cut off (extract/unprinted_items.h).
    drop_non_header_values(header_keys, f);
    // So is an item row, a total, cashier or footer line, or another shop's address (extract/body_line_values.h).
    drop_body_line_values(text, header_keys, f);
    // So is a net, tax or total amount the text prints nothing like (extract/unprinted_amounts.h).
    if (options.copy_numbers) drop_unprinted_amounts(text, f);
    // A Japanese receipt left without a store name (the model's was printed nowhere, and the name pass did not
    // finish one): its first header line that can name a store, with its branch line (extract/store_branch.h).
    if (options.copy_name && has_cjk(text) && f["supplier_name"].is_null())
        if (const auto header = japanese_header_name_line(text, kNameLines)) {
            std::string name = *header;
            if (auto with_branch = name_with_branch(text, name, kNameLines,
                                                    f["supplier_address"].is_string()
                                                        ? f["supplier_address"].get<std::string>()
                                                        : std::string()))
                name = *with_branch;
            f["warnings"].push_back("supplier_name_from_header: the receipt's first name line is " + name);
            f["supplier_name"] = name;
        }
}

}  // namespace receipt::extract
