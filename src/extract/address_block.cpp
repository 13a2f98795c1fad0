// The printed address block of a receipt (extract/address_block.h).
#include "extract/address_block.h"

#include <regex>
#include <vector>

#include "extract/company_name.h"
#include "extract/name_constraint.h"
#include "extract/utf8.h"

namespace receipt::extract {

namespace {

// A date or time ("26/06/17", "13:48"): the header, and with it the address, is above the first one.
bool date_time_line(const std::string& line) {
    static const std::regex date_time(R"(\d{1,2}:\d{2}|\d{1,4}[/.-]\d{1,2}[/.-]\d{2,4})");
    return std::regex_search(line, date_time);
}

// A line that is no part of an address: phone, tax, registration, date / time, document title.
bool other_line(const std::string& line) {
    static const std::regex words(R"(\b(TEL|FAX|PHONE|GST|SST|VAT|REG|CO\.? ?NO|DATE|TIME|INVOICE|RECEIPT|BILL|CASHIER)\b)");
    static const std::regex reg_no(R"(\(\s*\d{3,}-[A-Z]\s*\))");           // (1070687-M)
    const std::string u = ascii_upper(line);
    return std::regex_search(u, words) || std::regex_search(u, reg_no) || date_time_line(line);
}

// A line naming only a Malaysian state or region ("SELANGOR DARUL EHSAN.", "CAMERON HIGHLANDS, PAHANG"): the
// end of an address printed below its postcode line. No digits.
bool state_line(const std::string& line) {
    static const char* const kStates[] = {"SELANGOR", "JOHOR", "KEDAH", "KELANTAN", "MELAKA", "MALACCA",
                                          "NEGERI SEMBILAN", "PAHANG", "PERAK", "PERLIS", "PULAU PINANG", "PENANG",
                                          "SABAH", "SARAWAK", "TERENGGANU", "KUALA LUMPUR", "PUTRAJAYA", "LABUAN",
                                          "WILAYAH PERSEKUTUAN", "DARUL EHSAN", "MALAYSIA"};
    for (char c : line)
        if (c >= '0' && c <= '9') return false;
    const std::string u = ascii_upper(line);
    for (const char* st : kStates)
        if (u.find(st) != std::string::npos) return true;
    return false;
}

bool has_postcode(const std::string& line) {
    static const std::regex five(R"((^|[^0-9])\d{5}([^0-9]|$))");
    return std::regex_search(line, five);
}

}  // namespace

std::optional<std::string> address_block(const std::string& text, const std::string& name) {
    const std::vector<std::string> lines = first_lines(text, kAddressSearchLines, 200);  // 200: bounds std::regex
    const std::string name_c = strip_spaces(ascii_upper(name));
    try {
        for (size_t k = 1; k < lines.size(); ++k) {
            if (date_time_line(lines[k])) break;  // past the header
            if (lines[k].empty() || other_line(lines[k]) || !has_postcode(lines[k])) continue;
            size_t start = k;
            while (start > 1 && k - start + 1 < size_t(kAddressBlockLines)) {
                const std::string& prev = lines[start - 1];
                const std::string prev_c = strip_spaces(ascii_upper(prev));
                if (prev.empty() || other_line(prev) || has_company_suffix(prev) ||
                    (!name_c.empty() && !prev_c.empty() && name_c.find(prev_c) != std::string::npos))
                    break;
                --start;
            }
            size_t end = k;  // last line of the block: the postcode line, or a state line below it
            while (end + 1 < lines.size() && end - start + 1 < size_t(kAddressBlockLines) &&
                   !other_line(lines[end + 1]) && state_line(lines[end + 1]))
                ++end;
            std::string out;
            for (size_t l = start; l <= end; ++l) out += (out.empty() ? "" : " ") + lines[l];
            return collapse_whitespace(out);
        }
    } catch (...) {
    }
    return std::nullopt;
}

}  // namespace receipt::extract
