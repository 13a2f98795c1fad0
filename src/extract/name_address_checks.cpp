// The store name and the address checked against the print (extract/name_address_checks.h).
#include "extract/name_address_checks.h"

#include <optional>
#include <regex>
#include <string>

#include "extract/address_block.h"
#include "extract/building_line.h"
#include "extract/company_name.h"
#include "extract/japanese_address.h"
#include "extract/japanese_address_block.h"
#include "extract/latin_address.h"
#include "extract/latin_checks.h"
#include "extract/latin_header.h"
#include "extract/latin_lookalikes.h"
#include "extract/name_constraint.h"
#include "extract/ocr_digits.h"
#include "extract/post_checks.h"
#include "extract/branch_place.h"
#include "extract/store_branch.h"
#include "extract/utf8.h"

namespace receipt::extract {

namespace {

// True when `name` holds a house number ("1-11-14"), which names no store: a name pass that wrote one started
// inside the address (the model's address may itself be garbled, so a containment test alone misses it).
bool has_house_number(const std::string& name) {
    static const std::regex house_number(R"(\d+-\d+)");
    try {
        return name.size() < 200 && std::regex_search(name, house_number);
    } catch (...) {  // regex backtracking limits: treat as no house number
        return false;
    }
}

// `s` with each OCR look-alike of a digit made that digit ("0ak" and "Oak" both "0ak"): a name copied from the
// print and an address the model read compare alike.
std::string digits_folded(std::string s) {
    for (char& c : s)
        if (const char d = confusion_digit(c)) c = d;
    return s;
}

// True when a name pass started inside the address block: the name (spaces and OCR look-alikes aside) is a piece
// of the address, or holds a house number.
bool name_in_address(const std::string& name, const std::string& address) {
    const std::string n = strip_spaces(name);
    return !n.empty() &&
           (digits_folded(strip_spaces(address)).find(digits_folded(n)) != std::string::npos || has_house_number(n));
}

}  // namespace

void check_name_and_address(const std::string& text, const ExtractOptions& options, nlohmann::ordered_json& f) {
    // A Japanese receipt whose address the model left out (its output broke down) gets the address its header
    // prints (extract/japanese_address_block.h).
    if (options.copy_address && has_cjk(text) && f["supplier_address"].is_null())
        if (auto printed = japanese_address_block(text)) {
            f["warnings"].push_back("supplier_address_from_header: the model wrote none, the receipt prints " +
                                    *printed);
            f["supplier_address"] = *printed;
        }
    // A receipt that prints its registered company (SDN BHD) near the top is supplied by that company
    // (extract/company_name.h), unless the name already is a company; a company name that is the end of the
    // printed company line, or the line without its spaces, becomes the whole line as printed; a trailing
    // registration number goes.
    if (options.copy_name) {
        auto& name = f["supplier_name"];
        const std::string wrote = name.is_string() ? name.get<std::string>() : "";
        if (!has_company_suffix(wrote)) {
            if (const auto company = company_line(text)) name = *company;
        } else if (const auto whole = company_line_ending_with(text, wrote)) {
            name = *whole;
        } else if (const auto printed = company_line_for_unprinted(text, wrote)) {
            f["warnings"].push_back("supplier_name_not_printed: the model wrote " + wrote +
                                    ", the receipt's company line is " + *printed);
            name = *printed;
        }
        if (name.is_string()) name = company_name_spaced(without_registration_number(name.get<std::string>()));
        // A Latin-script name still not printed (the name pass found nothing to copy: the model wrote a memorised
        // name of another shop) becomes the first header line that can name a shop. A company name read from the
        // company line above may span more lines than the name pass copies. A name that a header line prints but
        // for one letter OCR dropped (name_printed_but_one) is the model's reading of that line and stays.
        if (name.is_string() && !has_cjk(text) && !has_company_suffix(name.get<std::string>()) &&
            !name_is_printed(text, name.get<std::string>()) && !name_printed_but_one(text, name.get<std::string>()))
            if (const auto header = header_name_line(text)) {
                f["warnings"].push_back("supplier_name_not_printed: the model wrote " + name.get<std::string>() +
                                        ", the receipt's first name line is " + *header);
                name = *header;
            }
        // A Latin-script name that is a piece of the address (the name pass started inside the address block)
        // becomes the first header line that can name a shop.
        const auto& addr = f["supplier_address"];
        if (name.is_string() && addr.is_string() && !has_cjk(name.get<std::string>()) &&
            !has_company_suffix(name.get<std::string>()) &&
            name_in_address(name.get<std::string>(), addr.get<std::string>()))
            if (const auto header = header_name_line(text)) name = *header;
        // Latin-script names that ran on into the address or name no shop (extract/latin_checks.h).
        if (!has_cjk(text)) {
            check_latin_name(text, f);
            // OCR look-alikes in the name as printed ("P0PULAR 8OOK", "WA1TROSE", "SDN BD"), read back.
            if (name.is_string()) {
                const std::string nm = name.get<std::string>();
                const std::string read = repaired_company_suffix(read_letter_confusions(nm));
                if (read != nm) {
                    f["warnings"].push_back("supplier_name_lookalikes: the receipt prints " + nm + ", read as " + read);
                    name = read;
                }
            }
        }
    }
    // An address printed as whole lines loses the store name or a registration number printed as its first line,
    // and gets the state and branch-code lines printed below it (extract/address_block.h).
    if (options.copy_address && f["supplier_address"].is_string()) {
        auto& addr = f["supplier_address"];
        if (const auto& name = f["supplier_name"]; name.is_string())
            if (auto cut = address_without_name_lines(text, addr.get<std::string>(), name.get<std::string>()))
                addr = *cut;
        if (auto cut = address_without_registration_line(text, addr.get<std::string>())) addr = *cut;
        if (!has_cjk(text))
            if (auto cut = address_without_stray_lines(text, addr.get<std::string>())) addr = *cut;
        if (auto longer = address_with_lines_below(text, addr.get<std::string>())) addr = *longer;
        if (!has_cjk(addr.get<std::string>())) {
            if (auto longer = address_with_house_number_above(text, addr.get<std::string>())) addr = *longer;
            const auto& name = f["supplier_name"];
            if (auto longer = address_with_street_line_above(text, addr.get<std::string>(),
                                                             name.is_string() ? name.get<std::string>() : ""))
                addr = *longer;
            if (auto moved = address_with_street_line_first(text, addr.get<std::string>())) addr = *moved;
            if (auto joined = address_with_street_piece_above(text, addr.get<std::string>())) addr = *joined;
        }
        // A Latin-script house number the model garbled ("NO.183" for the printed "NO.138") is read from the print
        // before the same street (extract/latin_address.h).
        if (auto fixed = house_number_as_printed(text, addr.get<std::string>())) {
            f["warnings"].push_back("supplier_address_house_number: the model wrote " + addr.get<std::string>() +
                                    ", the receipt prints the house number of " + *fixed);
            addr = *fixed;
        }
    }
    // A Japanese name written as one word where the receipt prints it over two lines or words ("ジョーシン" /
    // "港本店") gets a space at the printed break (extract/store_branch.h). Not Latin names: SROIE's labels space
    // a name unlike its print (SROIE validation: one name lost).
    if (options.copy_name && has_cjk(text) && f["supplier_name"].is_string())
        if (auto spaced = name_spaced_as_printed(text, f["supplier_name"].get<std::string>(), NameConstraint::kMaxLines)) {
            f["warnings"].push_back("supplier_name_spaced_as_printed: the model wrote " +
                                    f["supplier_name"].get<std::string>() + ", the receipt prints " + *spaced);
            f["supplier_name"] = *spaced;
        }
    // Japanese names (extract/store_branch.h): a name that is a piece of the address (the name pass started inside
    // the address block) becomes the first header line that can name a store; a branch written alone gets the
    // chain printed before it.
    if (options.copy_name && has_cjk(text) && f["supplier_name"].is_string()) {
        auto& name = f["supplier_name"];
        const std::string a = f["supplier_address"].is_string() ? f["supplier_address"].get<std::string>() : "";
        if (name_in_address(name.get<std::string>(), a))
            if (const auto header = japanese_header_name_line(text, kNameLines);
                header && strip_spaces(a).find(strip_spaces(*header)) == std::string::npos) {
                f["warnings"].push_back("supplier_name_in_address: the model wrote " + name.get<std::string>() +
                                        ", a piece of the address; the receipt's first name line is " + *header);
                // The model's address that starts right after that piece as printed ("東京都八王子市 横山町3-4-12"
                // / "横山町ハイツ 3F") lost it to the name: it goes first again. Not a postcode line ("ローソン
                // 〒802-7299"): the address leaves its postcode out.
                const std::string piece = strip_spaces(name.get<std::string>());
                if (options.copy_address && !a.empty() && piece.find("〒") == std::string::npos &&
                    strip_spaces(a).find(piece) == std::string::npos &&
                    strip_spaces(text).find(piece + strip_spaces(a)) != std::string::npos) {  // over lines too
                    f["warnings"].push_back("supplier_address_from_name: the model wrote " + a +
                                            ", printed after the piece it wrote as the name");
                    f["supplier_address"] = name.get<std::string>() + " " + a;
                }
                name = *header;
            }
        if (const auto with_chain = chain_before_branch(text, name.get<std::string>(), kNameLines)) {
            f["warnings"].push_back("supplier_name_chain_before_branch: the model wrote the branch " +
                                    name.get<std::string>() + ", the receipt prints " + *with_chain);
            name = *with_chain;
        }
    }
    // A Japanese address is copied as printed: spaced where the receipt breaks it, with the printed digits of a
    // house number the model garbled (extract/japanese_address.h).
    if (options.copy_address && has_cjk(text) && f["supplier_address"].is_string())
        if (auto printed = address_as_printed(text, f["supplier_address"].get<std::string>())) {
            f["warnings"].push_back("supplier_address_as_printed: the model wrote " +
                                    f["supplier_address"].get<std::string>() + ", the receipt prints " + *printed);
            f["supplier_address"] = *printed;
        }
    // A building line that OCR damaged ("一番町プザ 2F") is read whole, and the model's own building of that place
    // gives way to it (extract/building_line.h).
    if (options.copy_address && has_cjk(text) && f["supplier_address"].is_string())
        if (auto fixed = address_with_printed_building(text, f["supplier_address"].get<std::string>())) {
            f["warnings"].push_back("supplier_address_building_as_printed: the model wrote " +
                                    f["supplier_address"].get<std::string>() + ", the receipt's building line is " +
                                    *fixed);
            f["supplier_address"] = *fixed;
        }
    // A Japanese name that ran on from the chain into the next printed line, the operating company ("ジョーシン
    // (株)セブン商事") or a piece of the address with its house number ("丸亀製麺 大阪府堺市...5丁目14番19号"), is
    // the chain alone; the branch check below then finds the branch line (extract/store_branch.h).
    if (options.copy_name && has_cjk(text) && f["supplier_name"].is_string())
        if (auto chain = name_without_run_on(f["supplier_name"].get<std::string>(),
                                             f["supplier_address"].is_string()
                                                 ? f["supplier_address"].get<std::string>()
                                                 : std::string())) {
            f["warnings"].push_back("supplier_name_run_on: the model wrote " + f["supplier_name"].get<std::string>() +
                                    ", which runs on past the store name " + *chain);
            f["supplier_name"] = *chain;
        }
    // A postcode or an address line that the model copied into the name after the chain goes (the branch check
    // below then finds the branch printed under it); a chain written with 店 right after it gets its printed branch
    // (extract/store_branch.h).
    if (options.copy_name && has_cjk(text) && f["supplier_name"].is_string()) {
        const std::string a = f["supplier_address"].is_string() ? f["supplier_address"].get<std::string>() : "";
        if (auto cut = name_without_address_words(f["supplier_name"].get<std::string>(), a)) {
            f["warnings"].push_back("supplier_name_without_address_words: the model wrote " +
                                    f["supplier_name"].get<std::string>() + ", the store is " + *cut);
            f["supplier_name"] = *cut;
        }
        if (auto with_branch = branch_for_chain_with_mark(text, f["supplier_name"].get<std::string>(), kNameLines, a)) {
            f["warnings"].push_back("supplier_name_branch_for_chain: the model wrote " +
                                    f["supplier_name"].get<std::string>() + ", the receipt prints " + *with_branch);
            f["supplier_name"] = *with_branch;
        }
    }
    // A chain name printed above its branch line (address lines may stand between) gets the branch
    // (extract/store_branch.h).
    if (options.copy_name && f["supplier_name"].is_string())
        if (auto with_branch = name_with_branch(text, f["supplier_name"].get<std::string>(), kNameLines,
                                                f["supplier_address"].is_string()
                                                    ? f["supplier_address"].get<std::string>()
                                                    : std::string()))
            f["supplier_name"] = *with_branch;
    // The operating company printed above the store ("有限会社サン商事" / "ノジマ 桜木町駅西口店", taken by the name
    // pass or as the chain of the branch line) is not part of its name: a leading company word goes when more
    // follows.
    if (options.copy_name && has_cjk(text) && f["supplier_name"].is_string())
        if (const std::string nm = trim(f["supplier_name"].get<std::string>());
            nm.find(' ') != std::string::npos && japanese_company_line(nm.substr(0, nm.find(' ')))) {
            const std::string rest = trim(nm.substr(nm.find(' ') + 1));
            f["warnings"].push_back("supplier_name_without_company: the model wrote " + nm + ", the store is " + rest);
            f["supplier_name"] = rest;
        }
    // A chain and branch printed as one word ("東急ストア新丸子町南店") are spaced where the branch's place starts
    // (extract/store_branch.h).
    if (options.copy_name && has_cjk(text) && f["supplier_name"].is_string() && f["supplier_address"].is_string())
        if (auto spaced = name_split_at_branch_place(text, f["supplier_name"].get<std::string>(),
                                                     f["supplier_address"].get<std::string>(), kNameLines)) {
            f["warnings"].push_back("supplier_name_spaced_at_branch: the receipt prints " +
                                    f["supplier_name"].get<std::string>() + " as one word, read as " + *spaced);
            f["supplier_name"] = *spaced;
        }
    // A branch named after a chōme that lost its 目 to OCR ("宮町二丁店") gets it back (extract/store_branch.h).
    if (options.copy_name && f["supplier_name"].is_string())
        if (auto fixed = chome_mark_restored(f["supplier_name"].get<std::string>())) {
            f["warnings"].push_back("supplier_name_chome_mark: the receipt prints the branch as " +
                                    f["supplier_name"].get<std::string>() + ", a chōme without its 目: " + *fixed);
            f["supplier_name"] = *fixed;
        }
    // A branch whose place lost a character to OCR takes the place as the address prints it ("仙市青葉本店",
    // address "仙台市青葉区..." -> "仙台市青葉本店").
    if (options.copy_name && f["supplier_name"].is_string() && f["supplier_address"].is_string() &&
        has_cjk(f["supplier_name"].get<std::string>()))
        if (auto fixed = branch_place_from_address(f["supplier_name"].get<std::string>(),
                                                   f["supplier_address"].get<std::string>())) {
            f["warnings"].push_back("supplier_name_branch_from_address: the receipt prints the branch as " +
                                    f["supplier_name"].get<std::string>() + ", its address spells the place as in " +
                                    *fixed);
            f["supplier_name"] = *fixed;
        }
    // A chain the model ran one character past its printed final ン ("ココカラファインラ") is the printed chain
    // (extract/store_branch.h), with its printed branch, which the branch check above could not find for the chain
    // as the model wrote it ("ココカラファインラ" / "ココカラファイン" + "角田町南店").
    if (options.copy_name && has_cjk(text) && f["supplier_name"].is_string())
        if (auto cut = chain_run_past_final_n(text, f["supplier_name"].get<std::string>(), kNameLines)) {
            if (auto with_branch = name_with_branch(text, *cut, kNameLines,
                                                    f["supplier_address"].is_string()
                                                        ? f["supplier_address"].get<std::string>()
                                                        : std::string()))
                cut = with_branch;
            f["warnings"].push_back("supplier_name_run_past_chain: the model wrote " +
                                    f["supplier_name"].get<std::string>() +
                                    ", which runs past the printed chain: " + *cut);
            f["supplier_name"] = *cut;
        }
    // A branch word that OCR damaged ("ショッピングセター店", "央店") is spelled whole (extract/store_branch.h).
    if (options.copy_name && f["supplier_name"].is_string() && has_cjk(f["supplier_name"].get<std::string>()))
        if (auto fixed = branch_word_restored(f["supplier_name"].get<std::string>())) {
            f["warnings"].push_back("supplier_name_branch_word: the receipt prints the branch as " +
                                    f["supplier_name"].get<std::string>() + ", read as " + *fixed);
            f["supplier_name"] = *fixed;
        }
    // The place of a house number that the model wrote other than the branch's place, printed with a character
    // lost ("中4丁目19番11号" under "中洲二丁目店"), is the branch's (extract/store_branch.h).
    if (options.copy_address && has_cjk(text) && f["supplier_address"].is_string() && f["supplier_name"].is_string())
        if (auto fixed = address_place_from_branch(text, f["supplier_name"].get<std::string>(),
                                                   f["supplier_address"].get<std::string>())) {
            f["warnings"].push_back("supplier_address_place_from_branch: the model wrote " +
                                    f["supplier_address"].get<std::string>() + ", the branch's place gives " + *fixed);
            f["supplier_address"] = *fixed;
        }
}

}  // namespace receipt::extract
