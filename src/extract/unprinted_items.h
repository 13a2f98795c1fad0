// Line items whose description the receipt does not print. A model trained from scratch that loses its way in a
// damaged receipt writes items of another shop it saw in training ("牛めし 並" and "日替わり定食" on a udon
// shop's receipt); such an item is worse than a missing one. OCR damages printed descriptions too ("おにり" for
// おにぎり), so the test is loose: the description's characters, in order, against each printed line.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace receipt::extract {

// Fewest of a description's characters (whitespace aside) that one printed line must hold in order (as a longest
// common subsequence) for the item to count as printed. On the development sets (dev_ja, dev2_ja and the synthetic
// validation set) all 11 model items below 0.4 were wrong; from 0.4 up most are right (OCR damage).
inline constexpr double kPrintedItemShare = 0.4;

// Share of `description`'s code points (whitespace aside, full-width ASCII folded, ASCII letters lower-cased) that
// the best line of `text` holds in order: LCS(description, line) / |description|, the maximum over lines. 1 for an
// empty description.
double printed_share(const std::string& text, const std::string& description);

// Removes from fields["line_items"] the items whose description has printed_share < kPrintedItemShare, with a
// "line_item_not_printed" warning naming them; true when it removed any. On a Latin-script text (no CJK) also the
// items whose description has CJK, or shares no word with the text (printed_word_share 0: a made-up "Agua Fanue"
// holds 40% of a long English line's letters in order) and has no amount or one not printed, loosely
// (amount_printed_loosely). Items without a description string are kept. Never throws.
bool drop_unprinted_items(const std::string& text, nlohmann::ordered_json& fields);

// Fewest of a header field's characters that the whole text must hold in order for the field to count as printed.
// On the development sets and SROIE validation every written name, address and phone holds at least 0.6 (a name
// or address over several lines too); what falls below is a memorised field of another shop, written for a text
// that prints nothing like it (a blank-looking or garbled OCR result).
inline constexpr double kPrintedFieldShare = 0.4;

// LCS(value, text) / |value| over code points as printed_share compares them, with the whole text (all lines, no
// whitespace) in place of one line. 1 for an empty value.
double printed_share_anywhere(const std::string& text, const std::string& value);

// Sets each of supplier_name, supplier_address and supplier_phone (those named in `keys`) whose value has
// printed_share_anywhere < kPrintedFieldShare to null, with a "<key>_not_printed" warning; true when it cleared
// any. Never throws.
bool drop_unprinted_fields(const std::string& text, const std::vector<std::string>& keys,
                           nlohmann::ordered_json& fields);

// Whether `line` starts with a field label of a receipt's body, not its header: the cashier, the till, the table
// heading (CASHIER, SERVED BY, TRANS#, OPERATOR, STAFF, TABLE, QTY, DESC, PRICE, AMOUNT, TIME, DATE, POS before a
// colon, a number sign, a digit or the end; 担当, レジ# / レジNo, 数量, 商品名, 金額, 責No, テーブル). Never throws.
bool starts_with_body_label(const std::string& line);

// Sets each of supplier_name and supplier_address (those named in `keys`) that is no name or address to null, with
// a "<key>_not_a_header" warning, OCR look-alikes next to digits read as digits first ("6/3/20I6", "5741b"): a value
// without a letter of any script ("9:17:26", "17881", "20% £10.98"; Cyrillic, Greek, Thai and the like are
// letters); a date or time whose only letters are month or weekday names, AM / PM or the date and time kanji ("01
// DEC 2017 4:52:17 PM", "JAN", "Tuesday.", "水曜日"); an amount or a count (円, 軽, ※, 本, 個, 点, 枚 count as no
// letters: "461円", "¥425軽", "3本"); a value that starts with a field label of the receipt's body, also after a date
// or time (starts_with_body_label: CASHIER, SERVED BY, TRANS#, OPERATOR, QTY, 担当, レジ#, 数量, 商品名, ...;
// "2022年11月22日(火) レジ0008"). The model copies such a line of the body where the header was cut off or
// unreadable. True when it cleared any; never throws.
bool drop_non_header_values(const std::vector<std::string>& keys, nlohmann::ordered_json& fields);

}  // namespace receipt::extract
