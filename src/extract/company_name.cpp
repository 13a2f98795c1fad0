// The registered company line of a receipt (extract/company_name.h).
#include "extract/company_name.h"

#include <algorithm>
#include <cctype>
#include <regex>
#include <vector>

#include "extract/latin_lookalikes.h"
#include "extract/name_constraint.h"
#include "extract/printed_value.h"
#include "extract/utf8.h"

namespace receipt::extract {

namespace {

constexpr size_t kMaxLineBytes = 200;  // bytes of a line the regexes look at (bounds std::regex's recursion)

// The company suffix of an upper-cased line: SDN BHD with optional dots and spaces, S/B, BERHAD.
const std::regex& suffix_re() {
    static const std::regex re(R"((\bSDN\.?\s*BHD\b\.?|\bS/B\b|\bBERHAD\b))");
    return re;
}

// A header line that can be (part of) a store name: letters, no digits, not a title, phone, tax or
// registration line.
bool name_like_line(const std::string& line) {
    const std::string upper = ascii_upper(line);
    return has_ascii_letter(upper) && !has_ascii_digit(line) && !title_or_id_line(upper);
}

}  // namespace

bool title_or_id_line(const std::string& upper) {
    static const std::regex not_name(
        R"(\b(INVOICE|RECEIPT|BILL|TEL|FAX|PHONE|GST|SST|VAT|REG|CO\.? ?NO)\b|^\(.*\)$|^(DATE|TIME)\s*:)");
    try {
        return std::regex_search(upper, not_name);
    } catch (...) {
        return true;
    }
}

bool has_company_suffix(const std::string& name) {
    try {
        return std::regex_search(ascii_upper(name), suffix_re());
    } catch (...) {
        return false;
    }
}

std::optional<std::string> company_line(const std::string& text) {
    static const std::regex label(R"(^.*\bBY\s*:\s*)");
    // Lines with OCR look-alikes in their words and a damaged suffix read back ("POPULAR 8OOK CO. (M) SDN BD").
    std::vector<std::string> lines = first_lines(text, kCompanyLines + 1, kMaxLineBytes);
    for (std::string& l : lines)
        if (!has_cjk(l)) l = repaired_company_suffix(read_letter_confusions(l));
    static const std::regex split_sdn(R"(\bSDN\.?\s*$)"), starts_bhd(R"(^\s*BHD\b)");
    static const std::regex suffix_alone(R"(^\s*(SDN\.?\s*BHD\.?|S/B|BERHAD)\s*$)");
    for (size_t k = 0; k < lines.size() && int(k) < kCompanyLines; ++k) {
        std::string line = lines[k];
        try {
            // "SUBANG HEALTHCARE SDN" / "BHD": the suffix broken over two lines.
            if (k + 1 < lines.size() && std::regex_search(ascii_upper(line), split_sdn) &&
                std::regex_search(ascii_upper(lines[k + 1]), starts_bhd))
                line = trim(line) + " " + trim(lines[k + 1]);
            // "POPULAR BOOK CO. (M)" / "SDN BHD": the suffix alone on the next line.
            else if (k + 1 < lines.size() && name_like_line(line) && !std::regex_search(ascii_upper(line), suffix_re()) &&
                     std::regex_search(ascii_upper(lines[k + 1]), suffix_alone))
                line = trim(line) + " " + trim(lines[k + 1]);
            std::smatch m;
            const std::string upper = ascii_upper(line);
            if (!std::regex_search(upper, m, suffix_re())) continue;
            std::string name = line.substr(0, size_t(m.position(0) + m.length(0)));
            // "AIK HUAT HARDWARE" / "ENTERPRISE (SETIA" / "ALAM) SDN BHD": a name broken over lines inside a
            // parenthesis starts on the line that opens it (up to two lines up).
            // Above that, lines of the same name ("AIK HUAT HARDWARE") join it up to the top: no digits, not a
            // document title, phone or tax line.
            size_t top = k;
            while (top > 0 && k - top < 2 &&
                   std::count(name.begin(), name.end(), ')') > std::count(name.begin(), name.end(), '('))
                name = trim(lines[--top]) + " " + trim(name);
            if (top < k)
                while (top > 0 && name_like_line(lines[top - 1])) name = trim(lines[--top]) + " " + trim(name);
            std::smatch lm;
            const std::string name_upper = ascii_upper(name);
            if (std::regex_search(name_upper, lm, label)) name = name.substr(size_t(lm.length(0)));
            name = trim(name);
            // Something must come before the suffix: a bare "SDN BHD" names no company.
            std::smatch sm;
            const std::string trimmed_upper = ascii_upper(name);
            if (!std::regex_search(trimmed_upper, sm, suffix_re())) continue;
            const std::string before = trimmed_upper.substr(0, size_t(sm.position(0)));
            const auto alnum = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; };
            if (std::any_of(before.begin(), before.end(), alnum)) return name;
        } catch (...) {
        }
    }
    return std::nullopt;
}

std::optional<std::string> header_name_line(const std::string& text) {
    for (const std::string& line : first_lines(text, kCompanyLines, kMaxLineBytes)) {
        const std::string upper = ascii_upper(line);
        if (has_ascii_letter(upper) && !title_or_id_line(upper)) return line;
    }
    return std::nullopt;
}

std::string without_registration_number(const std::string& name) {
    static const std::regex reg_no(R"(\s*\(\s*\d{3,}-[A-Za-z]\s*\)\s*$)"), inner(R"(\s*\(\s*\d{3,}-[A-Za-z]\s*\))");
    try {
        // A company name that runs on past its registration number into the next header line.
        std::smatch m;
        if (std::regex_search(name, m, inner) && m.position(0) > 0 && m.suffix().length() > 0) {
            const std::string before = name.substr(0, size_t(m.position(0)));
            if (has_company_suffix(before)) return before;
        }
        return std::regex_replace(name, reg_no, "");
    } catch (...) {
        return name;
    }
}

std::string company_name_spaced(const std::string& name) {
    if (!has_company_suffix(name) || has_cjk(name)) return name;
    static const std::regex before_paren(R"(([A-Za-z.])\()"), after_paren(R"(\)([A-Za-z]))"),
        joined_suffix(R"(\bSDNBHD\b)", std::regex::icase);
    try {
        std::string out = std::regex_replace(name, before_paren, "$1 (");
        out = std::regex_replace(out, after_paren, ") $1");
        return std::regex_replace(out, joined_suffix, "SDN BHD");
    } catch (...) {
        return name;
    }
}

std::optional<std::string> company_line_ending_with(const std::string& text, const std::string& name) {
    const std::optional<std::string> line = company_line(text);
    if (!line) return std::nullopt;
    // The line is read with its look-alikes fixed (company_line); so is the name.
    const std::string whole = strip_spaces(ascii_upper(*line)),
                      end = strip_spaces(ascii_upper(repaired_company_suffix(read_letter_confusions(name))));
    if (end.empty() || end.size() > whole.size() || whole.compare(whole.size() - end.size(), end.size(), end) != 0)
        return std::nullopt;
    return line;
}

std::optional<std::string> company_line_for_unprinted(const std::string& text, const std::string& name) {
    if (has_cjk(text) || name_is_printed(text, name)) return std::nullopt;
    const std::optional<std::string> line = company_line(text);
    if (!line) return std::nullopt;
    const std::string l = strip_spaces(ascii_upper(*line)),
                      n = strip_spaces(ascii_upper(repaired_company_suffix(read_letter_confusions(name))));
    if (n.empty() || 3 * edit_distance(n, l) <= int(std::max(n.size(), l.size()))) return std::nullopt;
    return line;
}

}  // namespace receipt::extract
