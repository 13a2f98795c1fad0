#include "extract/input_text.h"

#include <cstdint>

#include "extract/utf8.h"

namespace receipt::extract {

std::string model_input_text(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (size_t i = 0; i < text.size();) {
        uint32_t cp = 0;
        const size_t len = decode_one(text, i, cp);
        if (len == 0) {  // not valid UTF-8 (callers check first): copied through
            out += text[i++];
            continue;
        }
        i += len;
        if (cp == '\r') {
            out += '\n';
            if (i < text.size() && text[i] == '\n') ++i;  // "\r\n": one line end
        } else if (cp >= 0xFF01 && cp <= 0xFF5E && cp != 0xFF0A) {
            out += static_cast<char>(cp - 0xFF01 + 0x21);
        } else if (cp == 0x3000 || cp == 0x00A0) {
            out += ' ';
        } else if (cp == 0x2212) {
            out += '-';
        } else if (cp == 0xFFE0 || cp == 0xFFE1 || cp == 0xFFE5) {  // ￠ ￡ ￥ -> ¢ £ ¥ (U+00A2, U+00A3, U+00A5)
            append_utf8(out, cp == 0xFFE0 ? 0xA2 : cp == 0xFFE1 ? 0xA3 : 0xA5);
        } else if (cp == 0xFFE6) {  // ￦ -> ₩
            append_utf8(out, 0x20A9);
        } else {
            append_utf8(out, cp);
        }
    }
    return out;
}

}  // namespace receipt::extract
