// The phone number of a Japanese receipt as printed (extract/japanese_phone.h).
#include "extract/japanese_phone.h"

#include <regex>
#include <set>
#include <vector>

#include "extract/printed_amounts.h"

namespace receipt::extract {

namespace {

constexpr size_t kMaxLineBytes = 200;  // bytes of a line the regex looks at (bounds std::regex's recursion)

bool phone_label(const std::string& line) {
    for (const char* k : {"TEL", "Tel", "tel", "TL", "電話", "☎", "℡"})
        if (line.find(k) != std::string::npos) return true;
    return false;
}

// The phone numbers on `line`, as printed.
std::vector<std::string> phones_on(const std::string& line) {
    static const std::regex phone(R"((\(0\d{1,4}\)\s?\d{1,4}-\d{3,4}|0\d{1,4}-\d{1,4}-\d{3,4}))");
    std::vector<std::string> out;
    const std::string s = line.substr(0, kMaxLineBytes);
    for (auto it = std::sregex_iterator(s.begin(), s.end(), phone); it != std::sregex_iterator(); ++it) {
        const std::string p = it->str();
        const size_t end = it->position() + p.size();
        if (end < s.size() && s[end] >= '0' && s[end] <= '9') continue;  // part of a longer digit run
        if (it->position() > 0 && s[it->position() - 1] >= '0' && s[it->position() - 1] <= '9') continue;
        std::string digits;
        for (char c : p)
            if (c >= '0' && c <= '9') digits += c;
        // A whole Japanese number: 10 digits (landlines, 0120, 0570), or 11 for mobiles and IP phones (090, 080,
        // 070, 050). One with a digit that OCR dropped is no better than the model's reading.
        const bool mobile = digits.size() == 11 && digits[2] == '0' && std::string("5789").find(digits[1]) != std::string::npos;
        if (digits.size() == 10 || mobile) out.push_back(p);
    }
    return out;
}

}  // namespace

std::optional<std::string> labelled_phone_for(const std::string& text, const std::string& model_phone) {
    const std::vector<std::string> lines = printed_lines_as_is(text);
    std::set<std::string> found;
    try {
        for (size_t i = 0; i < lines.size(); ++i) {
            if (!phone_label(lines[i])) continue;
            std::vector<std::string> on = phones_on(lines[i]);
            if (on.empty() && i + 1 < lines.size()) on = phones_on(lines[i + 1]);  // the label's box alone
            found.insert(on.begin(), on.end());
        }
    } catch (...) {
        return std::nullopt;  // std::regex gave up on a line
    }
    if (found.size() != 1) return std::nullopt;
    const std::string& p = *found.begin();
    // The model's number stands when printed, unless it is the labelled number cut short.
    const bool printed = !model_phone.empty() && text.find(model_phone) != std::string::npos;
    if (model_phone == p || (printed && p.rfind(model_phone, 0) != 0)) return std::nullopt;
    return p;
}

}  // namespace receipt::extract
