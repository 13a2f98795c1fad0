// Store names and addresses that are lines of a receipt's body. Where the header of a receipt is cut off (a photo
// that starts at the date line) or unreadable, the model still writes a name and an address, copied from whatever
// the text prints: an item row ("7680 EGGS LARGE 12CT RM12.00", "緑茶"), a total line ("GRAND TOTAL £36.35"), the
// cashier ("SERVD BY: 44134", "担当:高橋" -> "高橋"), a footer ("NOT RETURNABLE"), an amount ("461円"), or an address
// of another shop it saw in training that the text prints nothing of. Such a value is worse than none.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

namespace receipt::extract {

// Why `value`, written as `key` (supplier_name or supplier_address) for the receipt `text`, is a line of the
// receipt's body and no store name or address; nullopt when nothing says so. A name that holds an e-mail address
// is none in any script. `items` is the model's line_items
// array (or null). The tests, OCR look-alikes of digits read as digits first ("1Z:24PM", "CA5HIER"):
//  - Latin-script text: a money amount with a currency sign ("RM12.00", "£36.35") or with cents at the end
//    ("500S 12.85", "2.85 T"); a quantity ("1x CHICKEN", "4 @ 16.85", "X1.89"); a time ("18:01", "12:15PM"); a
//    total, change, thank-you, cashier or returns word ("GRAND TOTAL", "CHANGE DUE", "OERATOR", "NOT RETURNABLE",
//    "GST 6%"); a label with at most a number after its colon ("SERVD BY: 44134", "TIE:"); letters of a script the
//    text does not print; for a name also the description of one of the model's items or a run of its words
//    ("PASTA" of "PASTA PENNE") that the text prints on item rows only (a line that ends with an amount with
//    cents, or the line above one); for an address also an amount with cents anywhere, a column heading or total word
//    ("QTY DESC PRICE", "TOTAL SALES"), all its words those of one of the model's item descriptions
//    ("32326 DETERGENT"), and fewer than half of its words printed (within one edit, spaces aside) with none of its
//    numbers printed (an address of another shop);
//  - Japanese text: a store name that is one of the model's item descriptions or a run of its words ("緑茶" of
//    "緑茶 2L"), the name after 担当 (the cashier), or that holds an amount in yen ("880円 営業時間"); an address that
//    holds a date or a time ("22/23/12 29時09分"), or of whose pairs of adjacent kanji / kana the text prints fewer
//    than a fifth (another store's address: a printed one, OCR-damaged, keeps at least 0.4 of them).
std::optional<std::string> body_line_reason(const std::string& text, const std::string& key, const std::string& value,
                                            const nlohmann::ordered_json& items);

// The words a receipt text prints (runs of 3+ ASCII letters of its first kMaxTextBytes bytes, upper-cased) and the
// text without spaces, read once for the shares of several values (a receipt's items).
class PrintedWords {
public:
    explicit PrintedWords(const std::string& text);
    // Share of the words of `value` (runs of 3+ ASCII letters) that the text prints: as a word within one edit, or as
    // a piece of the text with its spaces removed (OCR joins words: "68 MarketStreet"). 1 for a value without such
    // words.
    double share(const std::string& value) const;

private:
    std::unordered_set<std::string> words_;
    std::string joined_;  // the text upper-cased, spaces removed
};

// PrintedWords(text).share(value), for a single value.
double printed_word_share(const std::string& text, const std::string& value);

// Sets each of supplier_name and supplier_address (those named in `keys`) for which body_line_reason gives a
// reason to null, with a "<key>_body_line" warning naming it; true when it cleared any. Never throws.
bool drop_body_line_values(const std::string& text, const std::vector<std::string>& keys,
                           nlohmann::ordered_json& fields);

}  // namespace receipt::extract
