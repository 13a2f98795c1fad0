// Store names and item descriptions known from training: those of the real receipts the shipped model was trained
// on and the chains and items of its synthetic receipts (train/known_names.py writes them to known_names.txt and
// known_items.txt in the model folder). The model copies a store name or an item from the print, so where OCR dropped
// letters of one it has seen many times it writes the damaged spelling ("GARDENIA BAKRIES (KL) SDN BHD", "ツルハラグ",
// "CHICKEN BREST"); the known spelling is then restored. One the model has never seen is left as printed: nothing is
// invented for it.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

namespace receipt::extract {

// One known name: its spelling and in how many training receipts it was the store name (or the chain part of it).
struct KnownName {
    std::string name;
    std::u32string letters;  // the code points of name_letters(name)
    long count = 0;
    bool cjk = false;  // has_cjk(name): max_dropped_letters counts it as Japanese
};

// The letters and digits of `s` (ASCII letters and digits, and every other code point but spaces and punctuation:
// kana, kanji, accented letters, the prolonged sound mark), in order: "MR. D.I.Y. (M) SDN BHD" -> "MRDIYMSDNBHD",
// "セブン-イレブン" -> "セブンイレブン". Invalid UTF-8 bytes are left out.
std::string name_letters(std::string_view s);

// The list, most frequent first.
class KnownNames {
public:
    KnownNames() = default;
    // Parses known_names.txt: one "COUNT<TAB>NAME" per line (COUNT a positive integer), '#' comment lines and blank
    // lines skipped; a name with no letters or digits is skipped. Throws ModelError naming `source` and the line for
    // anything else.
    static KnownNames parse(std::string_view content, const std::string& source);
    // Reads and parses `path`; an empty list when the file does not exist (a model folder without one). Throws
    // ModelError when it exists but cannot be read or parsed.
    static KnownNames load(const std::string& path);

    const std::vector<KnownName>& names() const { return names_; }
    bool empty() const { return names_.empty(); }
    // True when some known name has these letters and digits (KnownName::letters).
    bool has_letters(const std::u32string& letters) const { return letters_.count(letters) != 0; }
    // True when some known name has the letters and digits of `name` (name_letters).
    bool knows(std::string_view name) const;

private:
    std::vector<KnownName> names_;
    std::unordered_set<std::u32string> letters_;
};

// The lists of a model folder: known_names.txt (stores), known_items.txt (item descriptions),
// known_addresses.txt (store addresses) and known_address_words.txt (the words of Latin-script addresses), each
// empty when its file is missing.
struct KnownLists {
    KnownNames stores;
    KnownNames items;
    KnownNames addresses;
    KnownNames address_words;
    // Loads the four from `model_dir`; throws ModelError as KnownNames::load.
    static KnownLists load(const std::string& model_dir);
};

// Most letters OCR may have dropped from a known name of n letters and digits for it to be restored: 1, or 2 from 6
// letters in Japanese / 8 in Latin script (fewer letters leave too many names one or two letters apart). Letters
// only: a dropped digit is never put back (a size, house number or branch number one digit apart is another one).
int max_dropped_letters(size_t n_letters, bool cjk);

// The known spelling of the store name the model wrote, or nullopt to keep it. For a Japanese name (holding kana or
// kanji) the chain is its part before the first space and the branch after it is kept ("セブン-イブ 道玄坂中央店" ->
// "セブン-イレブン 道玄坂中央店"); a Latin name is matched whole. With at least 4 letters and digits (3 in a
// Japanese chain: "ローン" -> "ローソン"):
//   * known with exactly them: the known spelling where it is the model's with spaces OCR dropped
//     ("GARDENIABAKERIES (KL) SDN BHD"), else none (another known spelling: "SUPER SEVEN" and "SUPER.SEVEN");
//   * else a known chain whose letters and digits are the model's with 1 to max_dropped_letters more, in order (OCR
//     dropped them): the only one, or one at least 5 times as frequent in training as the next;
//   * else (Latin script) a known name that is the model's letters and digits with one of the first 6 lines of
//     `text`, or two or three consecutive ones, before or after them (OCR broke the name over lines and the model
//     took a piece: "POPULAR" / "BOOK CO. (M) SDN BHD", "THE" / "ROTI" / "MAN" / "BAKERY"), under the same rule
//     for several;
//   * else (Latin script) a known name printed over one to three consecutive first lines (or two adjacent ones in
//     swapped order) that hold the model's letters and digits, with at most max_dropped_letters of its letters
//     dropped ("KDAI RUNCIT SRI" of "KDAI RUNCIT SRI" / "JAYA", "WHOLE OODS" of "WHOLE OODS MARKE"), under the same
//     rule for several;
//   * else (Latin script) a known name that is the model's with 1 to 3 OCR digit look-alikes read (as known_item_for)
//     and letters dropped as above ("Co-opF0od" -> "Co-op Food"), under the same rule for several.
std::optional<std::string> known_name_for(const std::string& text, const std::string& name, const KnownNames& known);

// The known spelling of an item description the model wrote, or nullopt to keep it: with at least 3 letters and
// digits, the known one with the same letters and more spaces ("食ﾊﾟﾝ6枚切" -> "食ﾊﾟﾝ 6枚切"), else one whose letters
// and digits are the model's with 1 to max_dropped_letters more, in order ("CHICKEN BREST" -> "CHICKEN BREAST",
// "ヨネーズ 450g" -> "マヨネーズ 450g"): the only one, or one at least 5 times as frequent as the next ("茶 2L" stays:
// 緑茶 2L and 麦茶 2L). Else one it is with 1 to 3 OCR look-alikes read (0 / O / D, 1 / I / l, 2 / Z, 5 / S, 6 / G / b,
// 8 / B, 9 / g either way: "PROM0" -> "PROMO", "MAGGICURRY 55" -> "MAGGI CURRY 5S", "SDｶｰﾄﾞ 64G8" -> "SDｶｰﾄﾞ 64GB",
// "伊右衛門 b00ml" -> "伊右衛門 600ml"), and
// letters lost as above beside them ("ILO IKG" -> "MILO 1KG", "炭水 5D0ml" -> "炭酸水 500ml"). A description without
// kana or kanji may also hold a count of 1-2 digits and a space in front ("1 5UNSCREEN SPF50"), the rest then being a
// known item exactly or with look-alikes ("SUNSCREEN SPF50"). Several fits: under the same rule.
std::optional<std::string> known_item_for(const std::string& description, const KnownNames& items);

// The one known item whose space-separated words are those of `description` in another order ("STOCK KNORR
// CHICKEN" -> "KNORR CHICKEN STOCK": OCR put the boxes of a row out of order), or nullopt: none, several, fewer than
// two words, or a description known as it is. The caller keeps a description printed whole on one line.
std::optional<std::string> known_item_reordered(const std::string& description, const KnownNames& items);

// The spelling of an item description taken from another item of the same receipt, or nullopt to keep it. A long
// receipt prints the same product on several rows, and OCR damages some of them ("ぶっかけどん 大" on one row,
// "ぶっかけうどん 大" on others). `others` are the descriptions of the receipt's other items that are printed in its
// text. Taken: one with the same letters and digits and more spaces ("トッピングチーズ" -> "トッピング チーズ"), else
// one with as many words (split at spaces), each word of `description` that word with letters (no digits) dropped
// and at least 2 letters left, 1 to max_dropped_letters in all ("かけうど 並" -> "かけうどん 並"): the only one, or
// one at least 5 times as frequent among `others` as the next. A description of fewer than 3 letters and digits is
// kept, and so is one known from training exactly, in `known_items` ("KOPI" beside "KOPI O" is another drink).
std::optional<std::string> repeated_item_for(const std::string& description, const std::vector<std::string>& others,
                                             const KnownNames& known_items);

// The known spelling of a store address the model wrote, or nullopt to keep it: with at least 10 letters and digits,
// none known with exactly them, the one known address whose letters are the model's with 1 to max_dropped_letters
// more, in order ("NO 1&3, JALAN ANGSA DELIMA 12, WANGSA LINK" -> "... JALAN WANGSA DELIMA 12 ..."), or one at least
// 5 times as frequent as the next. Spaces are not respelled: labels of one store space its address either way.
std::optional<std::string> known_address_for(const std::string& address, const KnownNames& addresses);

// A Latin-script store address with its words respelled where OCR dropped letters of a known address word
// ("171 Maket Steet Machester M1 1AE" -> "171 Market Street Manchester M1 1AE"), or nullopt to keep it: each run of
// 3 or more ASCII letters that is no known word takes the known word of at least 4 letters that is the run with 1
// to max_dropped_letters letters more, in order and in the same case: the only one, or one at least 5 times as
// frequent as the next. Digits and spaces are never changed; an address holding kana or kanji is left alone.
std::optional<std::string> known_address_words_for(const std::string& address, const KnownNames& words);

}  // namespace receipt::extract
