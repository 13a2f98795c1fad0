#include "extract/input_text.h"

#include <cstdint>

#include "extract/utf8.h"

namespace receipt::extract {

namespace {

// Code points read as a space (see the header).
bool is_space_like(uint32_t cp) {
    return cp == ' ' || cp == '\t' || cp == '\v' || cp == '\f' || cp == 0x00A0 || (cp >= 0x2000 && cp <= 0x200A) ||
           cp == 0x202F || cp == 0x205F || cp == 0x3000;
}

// Code points left out: the byte order mark, zero-width characters, and control characters other than the
// whitespace ones (NUL, ESC, DEL, C1 controls but NEL).
bool is_invisible(uint32_t cp) {
    return cp == 0xFEFF || (cp >= 0x200B && cp <= 0x200D) || cp == 0x2060 || cp < 0x09 || (cp >= 0x0E && cp < 0x20) ||
           (cp >= 0x7F && cp <= 0x9F && cp != 0x85);
}

// Code points that end a line: '\n', '\r', NEL (U+0085), the line and paragraph separators U+2028, U+2029.
bool is_line_end(uint32_t cp) { return cp == '\n' || cp == '\r' || cp == 0x85 || cp == 0x2028 || cp == 0x2029; }

// The code point the model reads for cp (not a space, line end or invisible): fold_fullwidth_point's, but for the
// full-width asterisk ＊ (kept: the training receipts print it) and the full-width signs.
uint32_t folded_point(uint32_t cp) {
    if (cp == 0xFF0A) return cp;
    if (cp == 0xFFE0) return 0xA2;    // ￠ -> ¢
    if (cp == 0xFFE1) return 0xA3;    // ￡ -> £
    if (cp == 0xFFE5) return 0xA5;    // ￥ -> ¥
    if (cp == 0xFFE6) return 0x20A9;  // ￦ -> ₩
    return fold_fullwidth_point(cp);
}

}  // namespace

std::string model_input_text(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    bool pending_space = false;  // a space run seen inside the current line, written before its next character
    bool pending_line = false;   // a line end after a non-empty line, written before the next non-empty line
    auto before_char = [&] {
        if (pending_line) out += '\n';
        else if (pending_space) out += ' ';
        pending_line = pending_space = false;
    };
    for (size_t i = 0; i < text.size();) {
        uint32_t cp = 0;
        const size_t len = decode_one(text, i, cp);
        if (len == 0) {  // not valid UTF-8: copied through
            before_char();
            out += text[i++];
            continue;
        }
        i += len;
        if (is_line_end(cp)) {
            if (cp == '\r' && i < text.size() && text[i] == '\n') ++i;  // "\r\n": one line end
            pending_space = false;                                      // trailing spaces are cut
            if (!out.empty()) pending_line = true;                      // leading and empty lines are left out
        } else if (is_space_like(cp)) {
            if (!out.empty() && !pending_line) pending_space = true;  // leading spaces of a line are cut
        } else if (!is_invisible(cp)) {
            before_char();
            append_utf8(out, folded_point(cp));
        }
    }
    return out;
}

}  // namespace receipt::extract
