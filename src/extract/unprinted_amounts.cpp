// Amounts the receipt does not print (extract/unprinted_amounts.h).
#include "extract/unprinted_amounts.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <regex>

#include "extract/copy_constraint.h"
#include "extract/field_edits.h"
#include "extract/printed_amounts.h"
#include "extract/printed_tax.h"
#include "extract/printed_value.h"
#include "extract/normalize_currency.h"
#include "extract/utf8.h"

namespace receipt::extract {

namespace {

constexpr size_t kMaxLineBytes = 200;  // bytes of a line the keyword readers look at

// The digits a printed amount `v` shows: |v| with two decimals and no point ("9950"), and a whole |v| as it is.
std::vector<std::string> amount_digits(double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.2f", std::fabs(v));
    std::string cents(buf);
    cents.erase(std::remove(cents.begin(), cents.end(), '.'), cents.end());
    std::vector<std::string> forms{cents};
    if (std::fabs(v) == std::floor(std::fabs(v)) && std::fabs(v) < 1e15)
        forms.push_back(std::to_string(std::llabs(std::llround(v))));
    return forms;
}

// The usable amounts printed anywhere in `text` (printed_numbers of every line), without repeats.
std::vector<double> printed_amounts(const std::string& text) {
    std::vector<double> out;
    for (const std::string& line : printed_lines(text))
        for (const PrintedNumber& n : printed_numbers(line))
            if (n.usable && !n.percent && n.value > 0) out.push_back(n.value);
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

// Whether `v` is the sum of two or three different printed amounts, within half a cent.
bool sum_of_printed(double v, const std::vector<double>& amounts) {
    constexpr double kTol = 0.005;
    constexpr size_t kMaxAmounts = 200;  // bounds the three-part search (200^3 / 6 sums)
    std::vector<double> a;
    for (double x : amounts)
        if (x < v) a.push_back(x);
    if (a.size() > kMaxAmounts) a.resize(kMaxAmounts);
    for (size_t i = 0; i < a.size(); ++i)
        for (size_t j = i + 1; j < a.size(); ++j) {
            const double two = a[i] + a[j];
            if (std::fabs(two - v) < kTol) return true;
            for (size_t k = j + 1; k < a.size() && two + a[k] < v + kTol; ++k)
                if (std::fabs(two + a[k] - v) < kTol) return true;
        }
    return false;
}

// A payment or amount line's word, as a word ("CASHIER" is none, nor is CASH in a heading: "CASH BILL"; a receipt
// without a total keyword may still print
// what was paid: "CASH RM 170.00", "BALANCE DE £62.03"), in English and in the other languages of Latin-script
// receipts the model reads: Portuguese and Spanish (PAGAR, PAGAMENTO, PAGO, COMPRA, QUANTIA, VALOR, IMPORTE,
// DINHEIRO, EFECTIVO, CARTAO, MULTIBANCO, TROCO), Indonesian and Malay (BAYAR, TUNAI, KEMBALI), French and German
// (MONTANT, ESPECES, SUMME, BETRAG, GESAMT).
const std::regex& payment_line() {
    static const std::regex re(
        R"((^|[^A-Za-z])(BALANCE|CASH(?! ?(BILL|SALE|RECEIPT|INV|MEMO))|PAID|PAYMENT|TENDER|CHANGE|CARD|VISA|AMEX|)"
        R"(DEBIT|CREDIT|PAGAR|PAGAMENTO|PAGO|COMPRA|QUANTIA|VALOR|IMPORTE|DINHEIRO|EFECTIVO|CART(A|Ã)O|)"
        R"(MULTIBANCO|TROCO|BAYAR|TUNAI|KEMBALI|MONTANT|ESP(E|È)CES|SUMME|BETRAG|GESAMT)(?![A-Za-z]))",
        std::regex::icase);
    return re;
}

// Whether a Latin-script receipt prints a total keyword (kLatinTotalKeywords, extract/copy_constraint.h; and AMT:
// "NET AMT :"), AMOUNT and AMT aside where they head a column: on a line without digits, alone ("AMOUNT(RM)") or
// with QTY, DESC, PRICE, ITEM or TAX.
bool prints_total_keyword(const std::string& text) {
    static const std::regex amount(R"(AMOUNT|(^|[^A-Z])AMT([^A-Z]|$))", std::regex::icase);
    static const std::regex heading(R"(^\W*(AMOUNT|AMT)\W*(RM|\$|£|€)?\W*$|QTY|DESC|PRICE|ITEM|TAX)",
                                    std::regex::icase);
    for (const std::string& line : split_lines(text)) {
        const std::string head(utf8_prefix(line, kMaxLineBytes));
        const std::string upper = ascii_upper(head);
        for (std::string_view k : kLatinTotalKeywords)
            if (k != "AMOUNT" && upper.find(k) != std::string::npos) return true;  // AMOUNT: the heading test below
        if (std::regex_search(head, amount) && (has_ascii_digit(head) || !std::regex_search(head, heading)))
            return true;
    }
    return false;
}

// A Japanese total or payment line's word, or one character of it: 計 (合計, 小計, お会計), 合 (合言), お買上,
// 支払, 現金, 預 (お預り), 釣 (お釣り), クレジット, 決済, 電子マネー.
const std::regex& japanese_total_or_payment() {
    static const std::regex re(R"(計|合|お買上|支払|現金|預|釣|クレジット|決済|電子マネー)");
    return re;
}

bool has_amount(const nlohmann::ordered_json& f) {
    for (const char* key : {"net_amount", "total_tax_amount", "total_amount"})
        if (f.contains(key) && f[key].is_number()) return true;
    if (f.contains("line_items") && f["line_items"].is_array())
        for (const auto& it : f["line_items"])
            if (it.is_object() && it.contains("amount") && it["amount"].is_number()) return true;
    return false;
}

}  // namespace

std::vector<std::string> printed_digit_strings(const std::string& text) {
    std::vector<std::string> out = digit_runs(text);
    static const std::regex number(R"(\d[\d.,]*\d)");
    for (const std::string& line : printed_lines(text))
        for (std::sregex_iterator it(line.begin(), line.end(), number), end; it != end; ++it) {
            std::string d = it->str();
            d.erase(std::remove_if(d.begin(), d.end(), [](char c) { return c == '.' || c == ','; }), d.end());
            out.push_back(std::move(d));
        }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

bool amount_printed_loosely(double v, const std::vector<std::string>& printed) {
    for (const std::string& form : amount_digits(v))
        for (const std::string& run : printed) {
            if (run.find(form) != std::string::npos) return true;
            std::string digits = run;
            digits.erase(std::remove(digits.begin(), digits.end(), '.'), digits.end());
            if (digits.find(form) != std::string::npos || edit_distance(form, digits) <= 1) return true;
        }
    return false;
}

bool drop_unprinted_amounts(const std::string& text, nlohmann::ordered_json& f) {
    try {
        if (!f.is_object()) return false;
        const std::vector<std::string> runs = printed_digit_strings(text);
        const bool japanese = has_cjk(text);
        bool changed = false;
        auto warn = [&](const std::string& w) {
            if (!f["warnings"].is_array()) f["warnings"] = nlohmann::ordered_json::array();
            f["warnings"].push_back(w);
            changed = true;
        };
        // A Japanese receipt that prints neither 税 (nor its look-alike in a tax label) nor a rate (a tax summary
        // cut off with the receipt's bottom) states no tax; the model's is guessed.
        if (japanese && f.contains("total_tax_amount") && f["total_tax_amount"].is_number() &&
            f["total_tax_amount"].get<double>() != 0 && !prints_tax_word(text) &&
            fold_fullwidth(text).find('%') == std::string::npos) {
            warn("total_tax_amount_not_printed: the model wrote " + written(f["total_tax_amount"]) +
                 ", the receipt states no tax");
            f["total_tax_amount"] = nullptr;
        }
        // A receipt that prints no total keyword and no payment line (its bottom cut off after the items) prints no
        // total, subtotal or tax: the model's are others of its numbers (an item's amount, the cashier's number).
        // In Latin script the keywords are prints_total_keyword's (SUBTOTAL among them), the payment words
        // payment_line's; a Japanese receipt's words are checked by one character where OCR damages them ("合言"
        // for 合計, "お買上言").
        const bool total_or_payment =
            japanese ? std::regex_search(text, japanese_total_or_payment())
                     : prints_total_keyword(text) || std::regex_search(text, payment_line());
        for (const char* key : {"net_amount", "total_tax_amount", "total_amount"})
            if (!total_or_payment && f.contains(key) && f[key].is_number()) {
                warn(std::string(key) + "_not_printed: the model wrote " + written(f[key]) +
                     ", the receipt prints no total or payment line");
                f[key] = nullptr;
            }
        std::vector<double> amounts;  // read once, for the first amount that needs them
        bool amounts_read = false;
        // A net or total amount printed nowhere, loosely, nor the sum of two or three printed amounts (a subtotal
        // OCR damaged, "小計 \8", that the model added up from the per-rate bases). A total tax is left alone: the
        // model computes it from a rate and a base whose printed tax OCR damaged ("10% ¥2,6b1 ¥21").
        for (const char* key : {"net_amount", "total_amount"}) {
            if (!f.contains(key) || !f[key].is_number()) continue;
            const double v = f[key].get<double>();
            if (v == 0 || amount_printed_loosely(v, runs)) continue;
            if (!amounts_read) amounts = printed_amounts(text), amounts_read = true;
            if (sum_of_printed(v, amounts)) continue;
            warn(std::string(key) + "_not_printed: the model wrote " + written(f[key]) +
                 ", which the receipt prints nowhere; left out");
            f[key] = nullptr;
        }
        if (runs.empty() && f.contains("line_items") && f["line_items"].is_array()) {
            bool any = false;
            for (auto& it : f["line_items"])
                if (it.is_object())
                    for (const char* key : {"quantity", "unit_price", "amount"})
                        if (it.contains(key) && !it[key].is_null()) it[key] = nullptr, any = true;
            if (any) warn("line_item_amounts_not_printed: the receipt prints no number; item amounts left out");
        }
        if (runs.empty() && f.contains("currency") && f["currency"].is_string() && !has_amount(f)) {
            warn("currency_without_amounts: the model wrote " + f["currency"].get<std::string>() +
                 " for a receipt with no amount; left out");
            f["currency"] = nullptr;
        }
        if (changed) revalidate(f);
        return changed;
    } catch (...) {  // a malformed object: leave it as it is
        return false;
    }
}

bool minor_unit_free_currency_unprinted(const std::string& text, const std::string& code) {
    try {
        if (!currency_without_minor_units(code) || has_cjk(text)) return false;
        // The signs and words each such currency is printed with, besides its code.
        static const std::regex signs(R"(¥|￥|円|\bYEN\b|\bRP\.?\s?\d|\bRP\b|₩|원|\bWON\b|₫|đ|Đ)", std::regex::icase);
        static const std::regex thousands(R"(\d[.,]\d{3}(?!\d))");
        const std::string folded = fold_fullwidth(sanitize_utf8(utf8_prefix(text, 64 * 1024)));
        const std::regex own("\\b" + code + "\\b", std::regex::icase);
        // Cents, not a date's "31.05.2019" nor a rate's "30.00%".
        static const std::regex cents(R"(\d[.,]\d{2}(?!\d|[.,]\d|\s?%))");
        return std::regex_search(folded, cents) && !std::regex_search(folded, signs) &&
               !std::regex_search(folded, thousands) && !std::regex_search(folded, own);
    } catch (...) {  // std::regex giving up: keep the model's currency
        return false;
    }
}

}  // namespace receipt::extract
