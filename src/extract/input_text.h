// The receipt text as the model and the post-checks read it. OCR engines print Japanese receipts with full-width
// digits and letters ("合計 ￥１，２３０"), the ideographic space and Windows line ends; the model was trained on
// none of these (its tokenizer does no NFKC: "１" is three byte tokens, not the piece "1"), so they are folded to
// the forms it was trained on before tokenizing.
#pragma once

#include <string>
#include <string_view>

namespace receipt::extract {

// `text` (valid UTF-8) with: "\r\n" and a lone '\r' as '\n'; full-width ASCII U+FF01..U+FF5E as ASCII except the
// full-width asterisk U+FF0A (the 軽減税率 mark as the training receipts print it); U+3000 (ideographic space)
// and U+00A0 (no-break space) as ' '; the minus sign U+2212 as '-'; the full-width signs ￠ ￡ ￥ ￦ as ¢ £ ¥ ₩.
// Every other code point is unchanged, half-width katakana included. Never throws.
std::string model_input_text(std::string_view text);

}  // namespace receipt::extract
