// The receipt text as the model and the post-checks read it. OCR engines and the files users save differ from the
// training text in ways that mean nothing on paper: Japanese receipts printed with full-width digits and letters
// ("合計 ￥１，２３０"), the ideographic space, a byte order mark, Windows line ends, tabs between columns, blank
// lines between blocks, runs of spaces that align columns. The model was trained on none of these (its tokenizer
// does no NFKC: "１" is three byte tokens, not the piece "1"; a BOM before the first line costs the store name),
// so they are folded to the forms it was trained on before tokenizing.
#pragma once

#include <string>
#include <string_view>

namespace receipt::extract {

// `text` (valid UTF-8) as the model reads it. Per code point: "\r\n" and a lone '\r' become '\n'; full-width
// ASCII U+FF01..U+FF5E becomes ASCII except the full-width asterisk U+FF0A (the 軽減税率 mark as the training
// receipts print it); the full-width signs ￠ ￡ ￥ ￦ become ¢ £ ¥ ₩; the minus sign U+2212 becomes '-'; tab,
// vertical tab, form feed (Tesseract ends each page with one), U+00A0, U+2000..U+200A, U+202F, U+205F and U+3000
// become ' '; NEL U+0085 and the separators U+2028, U+2029 end a line; the byte order mark / zero-width no-break
// space U+FEFF, the zero-width U+200B..U+200D, U+2060 and the other control characters (NUL, ESC, DEL, C1) are
// left out. Then per line: leading
// and trailing spaces are cut, a run of spaces becomes one, and lines left empty are left out; the lines are
// joined by '\n' with none at the end. Every other code point is unchanged, half-width katakana included.
// Returns "" for a text of whitespace alone. Never throws; invalid UTF-8 bytes pass through (callers check first).
std::string model_input_text(std::string_view text);

}  // namespace receipt::extract
