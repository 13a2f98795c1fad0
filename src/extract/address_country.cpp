// The currency of a receipt read from its address's country (extract/address_country.h).
#include "extract/address_country.h"

#include <algorithm>
#include <regex>
#include <vector>

#include "extract/regex_found.h"
#include "extract/utf8.h"

namespace receipt::extract {

namespace {

// Most bytes read: an address is printed near the top, a sign anywhere on a receipt of a few kB.
constexpr size_t kMaxTextBytes = 64 * 1024;

}  // namespace

bool prints_currency_sign(const std::string& text) {
    // Alternatives, not a bracket expression: std::regex reads UTF-8 bytewise, and "[£€]" would match the bytes of
    // other characters ("é").
    static const std::regex sign(
        R"(\$|£|€|¥|￥|₩|₫|円|\bRM\s?\d|\bRM\b|\bRp\.?\s?\d|\b(USD|GBP|EUR|MYR|SGD|JPY|IDR|KRW|VND|AUD|CAD|NZD|PHP|THB|)"
        R"(INR|CNY|RMB|HKD|TWD|CHF)\b)");
    return regex_found(sanitize_utf8(utf8_prefix(text, kMaxTextBytes)), sign);
}

namespace {

// The currency of the one country whose address form `t` (cut to kMaxTextBytes, sanitized) prints, whether or not
// it prints a currency sign (currency_of_printed_country says which forms); nullopt for CJK text, none or more
// than one country.
std::optional<std::string> address_currency(const std::string& t) {
    if (has_cjk(t)) return std::nullopt;
    // A US state's postal code before a ZIP code (and its +4).
    static const std::regex us(
        R"(\b(AL|AK|AZ|AR|CA|CO|CT|DE|FL|GA|HI|ID|IL|IN|IA|KS|KY|LA|ME|MD|MA|MI|MN|MS|MO|MT|NE|NV|NH|NJ|NM|NY|NC|)"
        R"(ND|OH|OK|OR|PA|RI|SC|SD|TN|TX|UT|VT|VA|WA|WV|WI|WY|DC),?\s+\d{5}(-\d{4})?\b)");
    // A UK postcode: outward code (area letters, district digit, optional letter or digit), inward code.
    static const std::regex uk(R"(\b[A-Z]{1,2}\d[A-Z\d]?\s?\d[A-Z]{2}\b)");
    // A Malaysian five-digit postcode before a state or a large town on the same line, or a Malaysian company.
    static const std::regex my(
        R"(\b\d{5}\b[^\n]{0,40}\b(SELANGOR|JOHOR|KUALA\s+LUMPUR|PULAU\s+PINANG|PENANG|PERAK|KEDAH|MELAKA|MALACCA|)"
        R"(PAHANG|SABAH|SARAWAK|NEGERI\s+SEMBILAN|TERENGGANU|KELANTAN|PERLIS|PUTRAJAYA|LABUAN|SHAH\s+ALAM|)"
        R"(PETALING\s+JAYA|KLANG|JOHOR\s+BAHRU|SUBANG|PUCHONG|CHERAS|KAJANG|SERI\s+KEMBANGAN|SEREMBAN|IPOH|)"
        R"(GEORGETOWN|MASAI)|SDN\.?\s?BHD)",
        std::regex::icase);
    static const std::regex sg(R"(\bSINGAPORE\s*\d{6}\b)", std::regex::icase);
    std::vector<std::string> found;
    if (regex_found(t, us)) found.push_back("USD");
    if (regex_found(t, uk)) found.push_back("GBP");
    if (regex_found(t, my)) found.push_back("MYR");
    if (regex_found(t, sg)) found.push_back("SGD");
    if (found.size() != 1) return std::nullopt;
    return found.front();
}

}  // namespace

std::optional<std::string> currency_of_printed_country(const std::string& text) {
    const std::string t = sanitize_utf8(utf8_prefix(text, kMaxTextBytes));
    if (prints_currency_sign(t)) return std::nullopt;
    return address_currency(t);
}

std::optional<std::string> currency_of_printed_sign(const std::string& text) {
    const std::string t = sanitize_utf8(utf8_prefix(text, kMaxTextBytes));
    if (has_cjk(t)) return std::nullopt;
    static const std::regex dollar(R"(\$\s?\d)");
    static const std::regex pound(R"(£\s?\d)");
    static const std::regex euro(R"(€\s?\d|\d\s?€)");
    static const std::regex ringgit(R"(\bRM\s?\d)");
    std::vector<std::string> found;
    if (regex_found(t, dollar)) {
        // "$" is the dollar of an address in a country that pays in dollars; elsewhere it is no one currency's sign
        // (Malaysian receipts print "$7.10" for ringgit).
        const std::optional<std::string> country = address_currency(t);
        if (!country || (*country != "USD" && *country != "SGD")) return std::nullopt;
        found.push_back(*country);
    }
    if (regex_found(t, pound)) found.push_back("GBP");
    if (regex_found(t, euro)) found.push_back("EUR");
    if (regex_found(t, ringgit)) found.push_back("MYR");
    if (found.size() != 1) return std::nullopt;
    return found.front();
}

bool currency_fits_sign(const std::string& text, const std::string& currency, const std::string& sign_currency) {
    if (currency.empty()) return false;
    if (currency == sign_currency) return true;
    static const std::vector<std::string> dollars{"USD", "SGD", "AUD", "CAD", "NZD", "HKD", "TWD"};
    const auto dollar = [&](const std::string& c) {
        return std::find(dollars.begin(), dollars.end(), c) != dollars.end();
    };
    if (dollar(currency) && dollar(sign_currency)) return true;
    if (currency.size() != 3) return false;
    for (const char c : currency)
        if (c < 'A' || c > 'Z') return false;
    return regex_found(sanitize_utf8(utf8_prefix(text, kMaxTextBytes)), std::regex("\\b" + currency + "\\b"));
}

}  // namespace receipt::extract
