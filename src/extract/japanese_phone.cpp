// The phone number of a Japanese receipt as printed (extract/japanese_phone.h).
#include "extract/japanese_phone.h"

#include <cctype>
#include <regex>
#include <set>
#include <vector>

#include "extract/japanese_area_code.h"
#include "extract/normalize_phone.h"
#include "extract/ocr_digits.h"
#include "extract/printed_amounts.h"
#include "extract/utf8.h"

namespace receipt::extract {

namespace {

constexpr size_t kMaxLineBytes = 200;  // bytes of a line the regex looks at (bounds std::regex's recursion)

bool phone_label(const std::string& line) {
    for (const char* k : {"TEL", "Tel", "tel", "TL", "電話", "☎", "℡"})
        if (line.find(k) != std::string::npos) return true;
    return false;
}

// Lines of a receipt's header, where an unlabelled phone number may be read.
constexpr size_t kHeaderLines = 10;

// A line that ends the header: a date ("2024年5月1日", "2024-05-01", "24/05/01") or a yen amount ("¥1,280", "280円").
bool header_ends(const std::string& line) {
    static const std::regex date_or_amount(R"(\d{4}[/.-]\d{1,2}[/.-]\d{1,2}|\d{2}[/.]\d{1,2}[/.]\d{1,2}|年|\\\d|¥|\d円)");
    return std::regex_search(line, date_or_amount);
}

// A phone number as printed on a line, and as the number reads once what OCR plainly dropped is put back.
struct LinePhone {
    std::string printed;
    std::string number;
    bool area_restored = false;  // a digit of the area code put back from the address (extract/japanese_area_code.h)
};

// The phone numbers on `line`. Two OCR slips are read through, as their digits leave no doubt:
//   * the leading 0 dropped ("48-447-5774": nine digits, the first not 0; every Japanese number starts with 0);
//   * the last hyphen dropped ("03-17646052", "022-6697022": ten digits in two groups, the second longer than the
//     subscriber number's four: the hyphen goes back before the last four);
//   * the first hyphen dropped ("048829-9239": six digits, then the subscriber's four): the hyphen goes back after
//     the area code, two digits for 03 and 06, else three (the large cities' codes: 011, 045, 048, 052, 072, ...);
//     after an opening bracket the closing one is what was lost ("(072214-7620" -> "(072)214-7620");
//   * the opening bracket dropped ("093)269-5669" -> "(093)269-5669");
//   * with `area`, the area code of the receipt's address: a digit of the area code lost ("0-5770-8671",
//     "03-917-3052" under a Chiba address, "(07)593-7218"), the rest a whole subscriber number for that code.
std::vector<LinePhone> phones_on(const std::string& line, const std::optional<std::string>& area) {
    static const std::regex phone(
        R"((\(0\d{1,4}\)\s?\d{1,4}-\d{3,4}|\(0\d{1,4}\)\s?\d{5,8}|\([1-9]\d{0,3}\)\s?\d{1,4}-\d{3,4}|)"
        R"(0\d{1,4}-\d{1,4}-\d{3,4}|[1-9]\d{0,3}-\d{1,4}-\d{3,4}|0\d{1,4}-\d{5,8}|0\d{5}-\d{4}|)"
        R"(0-\d{4}-\d{4}|\(0\)\s?\d{4}-\d{4}|0\d{1,4}\)\s?\d{1,4}-\d{3,4}))");
    std::vector<LinePhone> out;
    const std::string s = line.substr(0, kMaxLineBytes);
    for (auto it = std::sregex_iterator(s.begin(), s.end(), phone); it != std::sregex_iterator(); ++it) {
        const std::string p = it->str();
        const size_t end = it->position() + p.size();
        if (end < s.size() && s[end] >= '0' && s[end] <= '9') continue;  // part of a longer digit run
        if (it->position() > 0 && s[it->position() - 1] >= '0' && s[it->position() - 1] <= '9') continue;
        std::string digits;
        int hyphens = 0;
        for (char c : p) {
            if (c >= '0' && c <= '9') digits += c;
            hyphens += c == '-';
        }
        if (p[0] >= '1' && p[0] <= '9') {  // the leading 0 dropped
            if (digits.size() == 9) out.push_back({p, "0" + p});
            continue;
        }
        if (p[0] == '(' && p[1] != '0') {  // the leading 0 dropped inside the brackets: "(3)3557-0419"
            if (digits.size() == 9) out.push_back({p, "(0" + p.substr(1)});
            continue;
        }
        if (p[0] == '0' && p.find(')') != std::string::npos) {  // the opening bracket lost: "093)269-5669"
            if (digits.size() == 10) out.push_back({p, "(" + p});
            continue;
        }
        if (p[0] == '0' && hyphens == 1 && p.find('-') == 6) {  // the first hyphen dropped: "048829-9239"
            // 03 and 06 (Tokyo, Osaka) are the two-digit area codes; the other large cities' have three digits.
            // After a bracket, the closing one was lost: "(072214-7620" is (072)214-7620.
            const size_t area = (p.compare(0, 2, "03") == 0 || p.compare(0, 2, "06") == 0) ? 2 : 3;
            if (it->position() > 0 && s[size_t(it->position()) - 1] == '(')
                out.push_back({"(" + p, "(" + p.substr(0, area) + ")" + p.substr(area)});
            else
                out.push_back({p, p.substr(0, area) + "-" + p.substr(area)});
            continue;
        }
        if ((p[0] == '0' && hyphens == 1) || (p[0] == '(' && hyphens == 0)) {  // the last hyphen dropped
            if (digits.size() == 10) out.push_back({p, p.substr(0, p.size() - 4) + "-" + p.substr(p.size() - 4)});
            continue;
        }
        // Nine digits, one of the area code's lost: the address's code puts it back.
        if (digits.size() == 9 && area)
            if (auto whole = with_area_code_restored(p, *area)) {
                out.push_back({p, *whole, true});
                continue;
            }
        // A whole Japanese number: 10 digits (landlines, 0120, 0570), or 11 for mobiles and IP phones (090, 080,
        // 070, 050). One with a digit that OCR dropped elsewhere is no better than the model's reading.
        const bool mobile = digits.size() == 11 && digits[2] == '0' && std::string("5789").find(digits[1]) != std::string::npos;
        if (digits.size() == 10 || mobile) out.push_back({p, p});
    }
    return out;
}

}  // namespace

std::optional<std::string> labelled_phone_for(const std::string& text, const std::string& model_phone) {
    // The lines as printed, with a long-vowel mark or dash that OCR read for a hyphen between digits as one
    // ("075ー301-9524"), and digit look-alikes next to digits read as digits ("078-293-21B3").
    std::vector<std::string> lines = printed_lines_as_is(text);
    for (std::string& line : lines) line = read_digit_confusions(fold_dashes(line, true));
    const std::optional<std::string> area = area_code_of(text);
    std::set<std::string> found;
    bool model_is_damaged_print = false;  // the model copied the printed form that OCR damaged
    try {
        for (size_t i = 0; i < lines.size(); ++i) {
            if (!phone_label(lines[i])) continue;
            std::vector<LinePhone> on = phones_on(lines[i], area);
            if (on.empty() && i + 1 < lines.size()) on = phones_on(lines[i + 1], area);  // the label's box alone
            if (on.empty() && i > 0) on = phones_on(lines[i - 1], area);  // OCR put the number's box above the label
            for (const LinePhone& p : on) {
                found.insert(p.number);
                // ... also without the bracket left open ("042879-7752" of the printed "(042879-7752").
                model_is_damaged_print |= p.printed != p.number &&
                                          (p.printed == model_phone || p.printed == "(" + model_phone);
            }
        }
        // No label read (OCR damaged it: "TE:06-4658-4907", "TE03-7532-5769"): a whole number, as printed or with
        // its area code's lost digit put back, in the header lines above the first amount or date line.
        if (found.empty())
            for (size_t i = 0; i < lines.size() && i < kHeaderLines; ++i) {
                for (const LinePhone& p : phones_on(lines[i], area))
                    if (p.printed == p.number || p.area_restored) found.insert(p.number);
                if (header_ends(lines[i])) break;
            }
    } catch (...) {
        return std::nullopt;  // std::regex gave up on a line
    }
    if (found.size() != 1) return std::nullopt;
    const std::string& p = *found.begin();
    // The model's number stands when printed, unless it is the labelled number cut short or as OCR damaged it, or
    // has more digits than a phone number (a registration number "T0849244812514" holds "0849244812514").
    const bool printed =
        !model_phone.empty() && phone_digits(model_phone) <= 11 && text.find(model_phone) != std::string::npos;
    if (model_phone == p || (printed && p.rfind(model_phone, 0) != 0 && !model_is_damaged_print)) return std::nullopt;
    return p;
}

bool phone_with_guessed_digit(const std::string& text, const std::string& model_phone) {
    if (model_phone.empty() || text.find(model_phone) != std::string::npos) return false;
    const std::string model_digits = ascii_digits(model_phone);
    std::vector<std::string> lines = printed_lines_as_is(text);
    for (std::string& line : lines) line = read_digit_confusions(fold_dashes(line, true));
    // A digit of the area code that the address puts back is no guess.
    if (const std::optional<std::string> area = area_code_of(text)) {
        try {
            for (const std::string& line : lines)
                for (const LinePhone& p : phones_on(line, area))
                    if (p.area_restored && p.number == model_phone) return false;
        } catch (...) {
            // std::regex gave up on a line: the digit check below decides
        }
    }
    // The digit runs of a number (digits, '-', brackets, spaces between) on a line.
    auto numbers_on = [](const std::string& line) {
        std::vector<std::string> out;
        std::string cur;
        for (size_t i = 0; i <= line.size(); ++i) {
            const char c = i < line.size() ? line[i] : '\n';
            if (c >= '0' && c <= '9') cur += c;
            else if (c == '-' || c == '(' || c == ')' || (c == ' ' && !cur.empty())) continue;
            else {
                if (!cur.empty()) out.push_back(cur);
                cur.clear();
            }
        }
        return out;
    };
    bool in_header = true;  // no line so far ends the header (header_ends)
    for (size_t i = 0; i < lines.size(); ++i) {
        // After a phone label (its line and the lines around it), or a header line: OCR damages labels too
        // ("電043-30-8626", "TE (045)12-5433").
        in_header = in_header && !header_ends(lines[i]);
        const bool header = in_header && i < kHeaderLines && lines[i].find("〒") == std::string::npos;
        if (!phone_label(lines[i]) && !header) continue;
        for (size_t k = i > 0 ? i - 1 : 0; k <= i + 1 && k < lines.size(); ++k)
            for (const std::string& d : numbers_on(lines[k]))
                if (d.size() == 9 && d[0] == '0' && model_digits.size() == 10)
                    for (size_t at = 0; at < model_digits.size(); ++at)
                        if (model_digits.substr(0, at) + model_digits.substr(at + 1) == d) return true;
    }
    return false;
}

size_t phone_digits(const std::string& phone) { return ascii_digits(phone).size(); }

bool japanese_phone_length_ok(const std::string& phone) {
    size_t groups = 0;  // runs of digits
    for (size_t i = 0; i < phone.size(); ++i)
        groups += std::isdigit(static_cast<unsigned char>(phone[i])) &&
                  (i == 0 || !std::isdigit(static_cast<unsigned char>(phone[i - 1])));
    if (groups > 3) return false;
    const std::string digits = ascii_digits(phone);
    if (digits.size() == 10) return true;
    if (digits.size() != 11) return false;
    for (const char* prefix : {"090", "080", "070", "050", "0800"})
        if (digits.rfind(prefix, 0) == 0) return true;
    return false;
}

}  // namespace receipt::extract
