// The printed address block of a receipt (extract/address_block.h).
#include "extract/address_block.h"

#include <algorithm>
#include <cctype>
#include <regex>
#include <utility>
#include <vector>

#include "extract/company_name.h"
#include "extract/latin_header.h"
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
    static const std::regex words(
        R"(\b(TEL|FAX|PHONE|GST|SST|VAT|REG|CO\.? ?NO|DATE|TIME|INVOICE|RECEIPT|BILL|CASHIER)\b)");
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
    if (has_ascii_digit(line)) return false;
    const std::string u = ascii_upper(line);
    for (const char* st : kStates)
        if (u.find(st) != std::string::npos) return true;
    return false;
}

// A line that is only a company registration number: "JM0725755-U", "(481500-M)", "822737-X", "(JM0517726)".
bool registration_line(const std::string& line) {
    static const std::regex reg(R"(^(\([A-Z]{0,3}\d{4,}(-?[A-Z])?\)|[A-Z]{0,3}\d{4,}-?[A-Z])\.?$)");
    return std::regex_match(strip_spaces(ascii_upper(line)), reg);
}

// A word that starts or names a part of a Malaysian address ("JALAN LAPANGAN TERBANG SUBANG").
bool address_word_line(const std::string& line) {
    static const std::regex words(R"(\b(JALAN|JLN|LOT|NO|LEVEL|LVL|UNIT|TAMAN|TMN|FLOOR|FLR|BLOCK|BLK|WISMA)"
                                  R"(|BANGUNAN|KAMPUNG|KG|LORONG|PERSIARAN|MALL|PLAZA)\b)");
    return std::regex_search(ascii_upper(line), words);
}

bool has_postcode(const std::string& line) {
    static const std::regex five(R"((^|[^0-9])\d{5}([^0-9]|$))");
    return std::regex_search(line, five);
}

// A US / UK street line: a house number, then the street and a street word ending the line ("7051 Market St",
// "25 Main Street").
bool street_line(const std::string& line) {
    static const std::regex street(
        R"(^\s*\d+[A-Z]?\s+[A-Z][A-Z .'-]*\b(ST|STREET|AVE|AVENUE|RD|ROAD|LN|LANE|BLVD|DR|DRIVE|WAY|HWY)\.?\s*$)");
    return std::regex_search(ascii_upper(line), street);
}

// The first lines [first, last] of `lines` whose concatenation, spaces aside and upper-cased, is
// `value_c`; nullopt when none are.
std::optional<std::pair<size_t, size_t>> printed_lines_of(const std::vector<std::string>& lines,
                                                          const std::string& value_c) {
    if (value_c.empty()) return std::nullopt;
    for (size_t i = 0; i < lines.size(); ++i) {
        std::string acc;
        for (size_t j = i; j < lines.size(); ++j) {
            acc += strip_spaces(ascii_upper(lines[j]));
            if (acc == value_c) return std::make_pair(i, j);
            if (acc.size() >= value_c.size() || value_c.compare(0, acc.size(), acc) != 0) break;
        }
    }
    return std::nullopt;
}

// `s` without its first n non-space bytes, whitespace collapsed; nullopt when nothing is left.
std::optional<std::string> without_leading(const std::string& s, size_t n) {
    size_t seen = 0, cut = 0;
    for (; cut < s.size() && seen < n; ++cut)
        if (!is_ascii_space(s[cut])) ++seen;
    std::string out = collapse_whitespace(s.substr(cut));
    if (out.empty()) return std::nullopt;
    return out;
}

}  // namespace

std::optional<std::string> header_address_block(const std::string& text) {
    const std::vector<std::string> lines = first_lines(text, kAddressSearchLines, 200);
    try {
        size_t first_digit = 0, after_company = 0;  // 0: none
        for (size_t k = 1; k < lines.size(); ++k) {
            if (other_line(lines[k])) {
                if (date_time_line(lines[k])) break;
                continue;
            }
            if (registration_line(lines[k]) || has_company_suffix(lines[k])) {
                after_company = k + 1;
                continue;
            }
            if (has_ascii_digit(lines[k])) {
                first_digit = k;
                break;
            }
        }
        if (!first_digit) return std::nullopt;
        size_t start = first_digit;
        if (after_company) {
            start = after_company;
        } else if (start > 1 && !lines[start - 1].empty() && !other_line(lines[start - 1]) &&
                   address_word_line(lines[start - 1])) {
            --start;
        }
        std::string out;
        for (size_t l = start; l < lines.size() && l < start + size_t(kAddressBlockLines); ++l) {
            if (lines[l].empty() || other_line(lines[l]) || registration_line(lines[l])) break;
            out += (out.empty() ? "" : " ") + lines[l];
        }
        out = collapse_whitespace(out);
        if (out.empty() || !has_ascii_digit(out)) return std::nullopt;
        return out;
    } catch (...) {
    }
    return std::nullopt;
}

std::optional<std::string> address_with_lines_below(const std::string& text, const std::string& addr) {
    const std::vector<std::string> lines = first_lines(text, kAddressSearchLines, 200);
    static const std::regex branch_code(R"(^\s*\d{3,4}-[A-Z][A-Z .]*$)");  // "1320-TMN BATU"
    try {
        const auto at = printed_lines_of(lines, strip_spaces(ascii_upper(addr)));
        if (!at) return std::nullopt;
        size_t j = at->second;  // last line taken
        const long room = long(kAddressBlockLines) - long(j - at->first + 1);
        auto part = [&](size_t l) { return l < lines.size() && !lines[l].empty() && !other_line(lines[l]); };
        size_t add = 0;
        // A state line right below the postcode line ends the address whatever the block's length (OCR may have
        // broken a line of it in two: "TAMAN" / "UNIVERSITI,").
        if ((room >= 1 || has_postcode(lines[j])) && part(j + 1) && state_line(lines[j + 1])) {
            add = 1;
        } else if (room >= 2 && part(j + 1) && part(j + 2) && state_line(lines[j + 2]) &&
                   !has_ascii_digit(lines[j + 1])) {
            add = 2;
        }
        if (part(j + add + 1) && std::regex_match(ascii_upper(lines[j + add + 1]), branch_code)) ++add;
        if (!add) return std::nullopt;
        std::string out = addr;
        for (size_t l = j + 1; l <= j + add; ++l) out += " " + lines[l];
        return collapse_whitespace(out);
    } catch (...) {
    }
    return std::nullopt;
}

std::optional<std::string> address_with_house_number_above(const std::string& text, const std::string& addr) {
    const std::vector<std::string> lines = first_lines(text, kAddressSearchLines, 200);
    static const std::regex house_number(R"(^\s*(NO|LOT|UNIT)\s*\.?\s*:?\s*\d)");
    try {
        const auto at = printed_lines_of(lines, strip_spaces(ascii_upper(addr)));
        if (!at || at->first == 0 || std::regex_search(ascii_upper(addr), house_number)) return std::nullopt;
        if (at->second - at->first + 2 > kAddressBlockLines) return std::nullopt;
        const std::string& above = lines[at->first - 1];
        if (above.empty() || other_line(above) || !std::regex_search(ascii_upper(above), house_number))
            return std::nullopt;
        return collapse_whitespace(above + " " + addr);
    } catch (...) {
    }
    return std::nullopt;
}

std::optional<std::string> address_with_street_line_above(const std::string& text, const std::string& addr,
                                                          const std::string& name) {
    const std::vector<std::string> lines = first_lines(text, kAddressSearchLines, 200);
    try {
        const std::string addr_upper = ascii_upper(addr);
        if (addr_upper.empty() || std::isdigit(static_cast<unsigned char>(trim(addr_upper)[0]))) return std::nullopt;
        const auto at = printed_lines_of(lines, strip_spaces(addr_upper));
        if (!at || at->first == 0) return std::nullopt;
        size_t above = at->first - 1;
        // The store name may stand between (OCR moved the street box above it).
        if (above > 0 && !name.empty() && strip_spaces(ascii_upper(lines[above])) == strip_spaces(ascii_upper(name)))
            --above;
        if (!street_line(lines[above])) return std::nullopt;
        return collapse_whitespace(trim(lines[above]) + " " + addr);
    } catch (...) {
    }
    return std::nullopt;
}

std::optional<std::string> address_with_street_line_first(const std::string& text, const std::string& addr) {
    const std::vector<std::string> lines = first_lines(text, kAddressSearchLines, 200);
    try {
        const std::string addr_upper = ascii_upper(addr);
        if (addr_upper.empty() || std::isdigit(static_cast<unsigned char>(trim(addr_upper)[0]))) return std::nullopt;
        const auto at = printed_lines_of(lines, strip_spaces(addr_upper));
        if (!at) return std::nullopt;
        size_t last = at->second;
        // The street line printed right below the address, when the block stays within kAddressBlockLines lines.
        if (last + 1 < lines.size() && last + 2 - at->first <= kAddressBlockLines && street_line(lines[last + 1]))
            ++last;
        std::optional<size_t> street;
        for (size_t l = at->first + 1; l <= last; ++l)
            if (street_line(lines[l])) {
                if (street) return std::nullopt;  // two street lines: not one address read out of order
                street = l;
            }
        if (!street) return std::nullopt;
        std::string out = lines[*street];  // first_lines trims each line
        for (size_t l = at->first; l <= last; ++l)
            if (l != *street) {
                out += ' ';
                out += lines[l];
            }
        return collapse_whitespace(out);
    } catch (...) {
    }
    return std::nullopt;
}

std::optional<std::string> address_with_street_piece_above(const std::string& text, const std::string& addr) {
    const std::vector<std::string> lines = first_lines(text, kAddressSearchLines, 200);
    try {
        const auto at = printed_lines_of(lines, strip_spaces(ascii_upper(addr)));
        if (!at || at->first == 0) return std::nullopt;
        const std::string& first = lines[at->first];  // first_lines trims each line
        const std::string& above = lines[at->first - 1];
        if (first.empty() || !std::isdigit(static_cast<unsigned char>(first[0])) || above.empty() ||
            has_ascii_digit(above) || street_line(first))
            return std::nullopt;
        // The house number (and the street's first words) below, the rest of the street above.
        const std::string street = first + " " + above;
        if (!street_line(street)) return std::nullopt;
        std::string out = street;
        for (size_t l = at->first + 1; l <= at->second; ++l) {
            out += ' ';
            out += lines[l];
        }
        return collapse_whitespace(out);
    } catch (...) {
    }
    return std::nullopt;
}

std::optional<std::string> address_without_name_lines(const std::string& text, const std::string& addr,
                                                      const std::string& name) {
    const std::string name_c = strip_spaces(ascii_upper(name)), addr_c = strip_spaces(ascii_upper(addr));
    if (name_c.empty() || addr_c.size() <= name_c.size() || addr_c.compare(0, name_c.size(), name_c) != 0)
        return std::nullopt;
    const std::vector<std::string> lines = first_lines(text, kAddressSearchLines, 200);
    // The name must be whole lines, followed by the rest of the address on the next line.
    const auto name_at = printed_lines_of(lines, name_c);
    if (!name_at) return std::nullopt;
    std::string rest_c;
    for (size_t l = name_at->second + 1; l < lines.size() && rest_c.size() < addr_c.size() - name_c.size(); ++l)
        rest_c += strip_spaces(ascii_upper(lines[l]));
    if (rest_c.compare(0, addr_c.size() - name_c.size(), addr_c, name_c.size()) != 0) return std::nullopt;
    return without_leading(addr, name_c.size());
}

std::optional<std::string> address_without_registration_line(const std::string& text, const std::string& addr) {
    const std::vector<std::string> lines = first_lines(text, kAddressSearchLines, 200);
    try {
        const auto at = printed_lines_of(lines, strip_spaces(ascii_upper(addr)));
        if (!at || at->first == at->second || !registration_line(lines[at->first])) return std::nullopt;
        return without_leading(addr, strip_spaces(lines[at->first]).size());
    } catch (...) {
    }
    return std::nullopt;
}

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

std::optional<std::string> address_without_stray_lines(const std::string& text, const std::string& addr) {
    if (has_cjk(addr)) return std::nullopt;
    const std::vector<std::string> lines = first_lines(text, kAddressSearchLines, 200);
    // A registration number, OCR look-alikes in its digits included: "(245b19-W)", "JM0517726".
    static const std::regex reg_like(R"(^\([0-9A-Z]{5,12}-?[A-Z]\)\.?$|^[0-9A-Z]{4,11}-[A-Z]\.?$)");
    static const std::regex postcode(R"(^\d{5}(-\d{4})?[,.]?$)");
    try {
        const auto at = printed_lines_of(lines, strip_spaces(ascii_upper(addr)));
        if (!at || at->first == at->second) return std::nullopt;
        const auto digits = [](const std::string& c) { return std::count_if(c.begin(), c.end(), is_ascii_digit); };
        std::vector<bool> stray(at->second + 1, false);
        for (size_t k = at->first; k <= at->second; ++k) {
            const std::string c = strip_spaces(ascii_upper(lines[k]));
            stray[k] = phone_like(c) || damaged_title(c) || (std::regex_match(c, reg_like) && digits(c) >= 4);
        }
        // Trailing lines without a letter other than a postcode: the pieces of a phone number ("07-8917" / "2984").
        for (size_t k = at->second; k > at->first; --k) {
            const std::string c = strip_spaces(lines[k]);
            if (has_ascii_letter(c) || std::regex_match(c, postcode)) break;
            stray[k] = true;
        }
        const auto spaced = [](char ch) { return is_ascii_space(ch); };
        const size_t non_space = addr.size() - size_t(std::count_if(addr.begin(), addr.end(), spaced));
        if (std::count(stray.begin(), stray.end(), true) == 0 || non_space != strip_spaces(addr).size())
            return std::nullopt;  // nothing to cut, or a space the walk below would not skip (U+3000)
        // The stray lines' characters cut from `addr` (whose non-space characters are the lines', in order), so the
        // rest keeps the model's spacing.
        std::string out;
        size_t k = at->first, left = strip_spaces(lines[k]).size();
        for (char ch : addr) {
            if (is_ascii_space(ch)) {
                out += ' ';
                continue;
            }
            while (left == 0 && k < at->second) left = strip_spaces(lines[++k]).size();
            if (!stray[k]) out += ch;
            --left;
        }
        out = collapse_whitespace(out);
        if (out.empty()) return std::nullopt;
        return out;
    } catch (...) {
    }
    return std::nullopt;
}

}  // namespace receipt::extract
