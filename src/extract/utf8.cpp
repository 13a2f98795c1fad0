#include "extract/utf8.h"

#include <algorithm>
#include <cstdint>

namespace receipt::extract {

namespace {

constexpr const char* kReplacement = "\xEF\xBF\xBD";  // U+FFFD

// True when s[i..] starts with U+3000 (E3 80 80).
bool is_ideographic_space(std::string_view s, size_t i) {
    return i + 2 < s.size() && s[i] == '\xE3' && s[i + 1] == '\x80' && s[i + 2] == '\x80';
}

}  // namespace

size_t decode_one(std::string_view s, size_t i, uint32_t& cp) {
    const auto b0 = static_cast<unsigned char>(s[i]);
    if (b0 < 0x80) {
        cp = b0;
        return 1;
    }
    size_t len = 0;
    uint32_t min_cp = 0;
    if ((b0 & 0xE0) == 0xC0) {
        len = 2, cp = b0 & 0x1F, min_cp = 0x80;
    } else if ((b0 & 0xF0) == 0xE0) {
        len = 3, cp = b0 & 0x0F, min_cp = 0x800;
    } else if ((b0 & 0xF8) == 0xF0) {
        len = 4, cp = b0 & 0x07, min_cp = 0x10000;
    } else {
        return 0;
    }
    if (i + len > s.size()) return 0;
    for (size_t k = 1; k < len; ++k) {
        const auto b = static_cast<unsigned char>(s[i + k]);
        if ((b & 0xC0) != 0x80) return 0;
        cp = (cp << 6) | (b & 0x3F);
    }
    if (cp < min_cp || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
    return len;
}

void append_utf8(std::string& out, uint32_t cp) {
    if (cp < 0x80) {
        out += static_cast<char>(cp);
    } else if (cp < 0x800) {
        out += static_cast<char>(0xC0 | (cp >> 6));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        out += static_cast<char>(0xE0 | (cp >> 12));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
        out += static_cast<char>(0xF0 | (cp >> 18));
        out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    }
}


std::optional<std::vector<uint32_t>> code_points(std::string_view s) {
    std::vector<uint32_t> out;
    for (size_t i = 0; i < s.size();) {
        uint32_t cp = 0;
        const size_t n = decode_one(s, i, cp);
        if (!n) return std::nullopt;
        out.push_back(cp);
        i += n;
    }
    return out;
}

std::string utf8_of(const std::vector<uint32_t>& cps, size_t begin, size_t end) {
    std::string out;
    for (size_t i = begin; i < end && i < cps.size(); ++i) append_utf8(out, cps[i]);
    return out;
}

std::string sanitize_utf8(std::string_view s, int* n_replaced) {
    std::string out;
    out.reserve(s.size());
    int n_bad = 0;
    for (size_t i = 0; i < s.size();) {
        uint32_t cp = 0;
        const size_t len = decode_one(s, i, cp);
        if (len == 0) {
            out += kReplacement;
            ++n_bad;
            ++i;  // resynchronise on the next byte
        } else {
            out.append(s.substr(i, len));
            i += len;
        }
    }
    if (n_replaced) *n_replaced = n_bad;
    return out;
}

size_t invalid_utf8_offset(std::string_view s) {
    for (size_t i = 0; i < s.size();) {
        uint32_t cp = 0;
        const size_t len = decode_one(s, i, cp);
        if (len == 0) return i;
        i += len;
    }
    return std::string_view::npos;
}

uint32_t fold_fullwidth_point(uint32_t cp) {
    if (cp >= 0xFF01 && cp <= 0xFF5E) return cp - 0xFEE0;
    if (cp == 0x3000) return ' ';
    if (cp == 0x2212) return '-';
    return cp;
}

std::string fold_fullwidth(std::string_view s) {
    std::string out;
    out.reserve(s.size());
    for (size_t i = 0; i < s.size();) {
        uint32_t cp = 0;
        size_t len = decode_one(s, i, cp);
        if (len == 0) {  // not valid UTF-8: copy the byte through unchanged
            out += s[i++];
            continue;
        }
        append_utf8(out, fold_fullwidth_point(cp));
        i += len;
    }
    return out;
}

std::string trim(std::string_view s) {
    size_t b = 0, e = s.size();
    while (b < e) {
        if (is_ascii_space(s[b])) {
            ++b;
        } else if (is_ideographic_space(s, b)) {
            b += 3;
        } else {
            break;
        }
    }
    while (e > b) {
        if (is_ascii_space(s[e - 1])) {
            --e;
        } else if (e >= b + 3 && is_ideographic_space(s, e - 3)) {
            e -= 3;
        } else {
            break;
        }
    }
    return std::string(s.substr(b, e - b));
}

std::string collapse_whitespace(std::string_view s) {
    std::string out;
    out.reserve(s.size());
    bool pending_space = false;
    for (size_t i = 0; i < s.size();) {
        if (is_ascii_space(s[i])) {
            pending_space = true;
            ++i;
        } else if (is_ideographic_space(s, i)) {
            pending_space = true;
            i += 3;
        } else {
            if (pending_space && !out.empty()) out += ' ';
            pending_space = false;
            out += s[i++];
        }
    }
    return out;
}

std::string_view utf8_prefix(std::string_view s, size_t max_bytes) {
    if (s.size() <= max_bytes) return s;
    size_t n = max_bytes;
    // Back up over continuation bytes so that the cut lands on a lead byte.
    while (n > 0 && (static_cast<unsigned char>(s[n]) & 0xC0) == 0x80) --n;
    return s.substr(0, n);
}

std::string ascii_lower(std::string_view s) {
    std::string out(s);
    for (char& c : out) {
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    }
    return out;
}

std::vector<std::string> space_words(std::string_view s) {
    std::vector<std::string> out;
    for (size_t i = 0; i <= s.size();) {
        const size_t j = std::min(s.find(' ', i), s.size());
        if (j > i) out.emplace_back(s.substr(i, j - i));
        i = j + 1;
    }
    return out;
}

std::vector<std::string> first_lines(std::string_view text, size_t n, size_t max_bytes) {
    std::vector<std::string> lines;
    for (size_t i = 0; i <= text.size() && lines.size() < n;) {
        const size_t j = std::min(text.find('\n', i), text.size());
        lines.push_back(trim(sanitize_utf8(utf8_prefix(text.substr(i, j - i), max_bytes))));
        i = j + 1;
    }
    return lines;
}

bool has_ascii_digit(std::string_view s) {
    for (char c : s)
        if (is_ascii_digit(c)) return true;
    return false;
}

std::optional<size_t> extra_byte_at(std::string_view shorter, std::string_view longer) {
    if (longer.size() != shorter.size() + 1) return std::nullopt;
    size_t k = 0;
    while (k < shorter.size() && shorter[k] == longer[k]) ++k;
    if (longer.substr(k + 1) != shorter.substr(k)) return std::nullopt;
    return k;
}

std::string ascii_digits(std::string_view s) {
    std::string out;
    for (char c : s)
        if (is_ascii_digit(c)) out += c;
    return out;
}

bool has_ascii_letter(std::string_view s) {
    for (char c : s)
        if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z')) return true;
    return false;
}

std::string ascii_upper(std::string_view s) {
    std::string out(s);
    for (char& c : out) {
        if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
    }
    return out;
}

std::vector<std::string> split_lines(std::string_view text) {
    std::vector<std::string> lines;
    for (size_t i = 0; i <= text.size();) {
        const size_t j = std::min(text.find('\n', i), text.size());
        lines.emplace_back(text.substr(i, j - i));
        i = j + 1;
    }
    return lines;
}

bool kanji_or_kana(uint32_t c) {
    return (c >= 0x3041 && c <= 0x30FF) || (c >= 0x4E00 && c <= 0x9FFF) || (c >= 0x3400 && c <= 0x4DBF) ||
           c == 0x3005;
}

bool has_cjk(std::string_view s) {
    bool found = false;
    for_each_code_point(s, [&](uint32_t cp) {
        // Hiragana + Katakana (U+3040..U+30FF), CJK unified ideographs (U+4E00..U+9FFF), half-width katakana; not
        // the prolonged sound mark or the middle dot (U+30FC, U+30FB, U+FF70), which OCR also reads for a dash or a
        // dot in Latin text ("555ー0740", "SubーTotal").
        const bool mark = cp == 0x30FC || cp == 0x30FB || cp == 0xFF70;
        found = found || (!mark && ((cp >= 0x3040 && cp <= 0x30FF) || (cp >= 0x4E00 && cp <= 0x9FFF) ||
                                    (cp >= 0xFF66 && cp <= 0xFF9F)));
    });
    return found;
}

}  // namespace receipt::extract
