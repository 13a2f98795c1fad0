#include "extract/normalize_currency.h"

#include <cctype>

#include "extract/utf8.h"

namespace receipt::extract {

namespace {

// Active ISO 4217 codes (2024), space separated.
constexpr std::string_view kIsoCodes =
    "AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BHD BIF BMD BND BOB BRL BSD BTN BWP BYN BZD CAD CDF "
    "CHF CLP CNY COP CRC CUP CVE CZK DJF DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP GEL GHS GIP GMD GNF GTQ GYD HKD "
    "HNL HTG HUF IDR ILS INR IQD IRR ISK JMD JOD JPY KES KGS KHR KMF KPW KRW KWD KYD KZT LAK LBP LKR LRD LSL LYD "
    "MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN MYR MZN NAD NGN NIO NOK NPR NZD OMR PAB PEN PGK PHP PKR PLN "
    "PYG QAR RON RSD RUB RWF SAR SBD SCR SDG SEK SGD SHP SLE SOS SRD SSP STN SVC SYP SZL THB TJS TMT TND TOP TRY "
    "TTD TWD TZS UAH UGX USD UYU UZS VES VND VUV WST XAF XCD XOF XPF YER ZAR ZMW ZWL";

// Currencies whose receipts print whole units only (ISO minor unit 0, plus IDR which is printed without cents).
constexpr std::string_view kNoMinorUnits = "BIF CLP DJF GNF IDR ISK JPY KMF KRW PYG RWF UGX VND VUV XAF XOF XPF";

struct Alias {
    std::string_view text;  // upper-cased ASCII or UTF-8 symbol
    std::string_view code;
};
constexpr Alias kAliases[] = {
    {"\xC2\xA5", "JPY"},
    {"\xEF\xBF\xA5", "JPY"},
    {"\xE5\x86\x86", "JPY"},
    {"\\", "JPY"},
    {"YEN", "JPY"},
    {"\xE5\x85\x83", "CNY"},
    {"RMB", "CNY"},
    {"RM", "MYR"},
    {"S$", "SGD"},
    {"SG$", "SGD"},
    {"HK$", "HKD"},
    {"NT$", "TWD"},
    {"A$", "AUD"},
    {"AU$", "AUD"},
    {"C$", "CAD"},
    {"CA$", "CAD"},
    {"NZ$", "NZD"},
    {"US$", "USD"},
    {"$", "USD"},
    {"\xE2\x82\xAC", "EUR"},
    {"EURO", "EUR"},
    {"\xC2\xA3", "GBP"},
    {"\xE2\x82\xA9", "KRW"},
    {"\xEC\x9B\x90", "KRW"},
    {"\xE2\x82\xB9", "INR"},
    {"\xE0\xB8\xBF", "THB"},
    {"\xE2\x82\xB1", "PHP"},
    {"RP", "IDR"},
    {"RP.", "IDR"},
    {"\xE2\x82\xAB", "VND"},
};

bool in_list(std::string_view list, std::string_view code) {
    if (code.size() != 3) return false;
    for (size_t i = 0; i + 3 <= list.size(); i += 4) {
        if (list.substr(i, 3) == code) return true;
    }
    return false;
}

}  // namespace

std::optional<std::string> normalize_currency(std::string_view text) {
    const std::string s = ascii_upper(trim(fold_fullwidth(sanitize_utf8(utf8_prefix(text, 64)))));
    if (in_list(kIsoCodes, s)) return s;
    for (const Alias& a : kAliases) {
        if (s == a.text) return std::string(a.code);
    }
    return std::nullopt;
}

bool currency_without_minor_units(std::string_view code) { return in_list(kNoMinorUnits, code); }

bool prints_yen_amounts(std::string_view text) {
    if (!has_cjk(text)) return false;
    auto digit = [&](size_t i) { return i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])); };
    for (const std::string_view sign : {std::string_view("¥"), std::string_view("￥"), std::string_view("\\")})
        for (size_t p = text.find(sign); p != std::string_view::npos; p = text.find(sign, p + 1))
            if (digit(p + sign.size())) return true;
    const std::string_view yen = "円";
    for (size_t p = text.find(yen); p != std::string_view::npos; p = text.find(yen, p + 1))
        if (p > 0 && digit(p - 1)) return true;
    return false;
}

}  // namespace receipt::extract
