// Per-rate tax lines of a receipt text and their sum (extract/printed_tax.h).
#include "extract/printed_tax.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <set>

#include "extract/dropped_digit.h"
#include "extract/name_constraint.h"
#include "extract/printed_amounts.h"
#include "extract/ocr_digits.h"
#include "extract/printed_items.h"
#include "extract/utf8.h"

namespace receipt::extract {

namespace {

// True when `line` holds a tax word: 税, 対象, TAX, GST, SST or VAT (any case).
bool has_tax_word(const std::string& line) {
    const std::string upper = ascii_upper(line);
    for (const char* w : {"TAX", "GST", "SST", "VAT"})
        if (upper.find(w) != std::string::npos) return true;
    for (const char* w : {"税", "対象"})
        if (line.find(w) != std::string::npos) return true;
    return false;
}

// True when a rate at byte `at` of `line` stands in a tax context: a tax word on the line or on the line before
// (a summary table's header), or nothing but spaces and brackets / marks before it (a tax table row), unless the
// line before names a discount ("割引 / 30% / -91": the discount's rate).
bool tax_context(const std::string& line, size_t at, const std::string& prev) {
    if (has_tax_word(line) || has_tax_word(prev)) return true;
    for (const char* discount : {"割引", "値引"})
        if (prev.find(discount) != std::string::npos) return false;
    for (size_t i = 0; i < at; ++i) {
        const unsigned char c = static_cast<unsigned char>(line[i]);
        if (c >= 0x80 || std::isalnum(c)) return false;
    }
    return true;
}

}  // namespace

bool is_tax_of(const PrintedNumber& base, const PrintedNumber& tax, double rate) {
    if (base.cents != tax.cents) return false;
    const double unit = base.cents ? 0.01 : 1.0;
    const double included = base.value * rate / (100.0 + rate), added = base.value * rate / 100.0;
    // A base below one unit's worth of tax ("10%対象 5円 / 内消費税10% 0円") carries a tax of 0 (rounded down).
    if (tax.value == 0 && base.value >= unit && included < unit) return true;
    if (!(tax.value >= unit && tax.value < base.value)) return false;
    return std::fabs(tax.value - included) <= unit + 1e-9 || std::fabs(tax.value - added) <= unit + 1e-9;
}

namespace {

struct RateMention {
    double rate;
    size_t line;
    size_t end;  // byte offset after the rate's number in its line
};

// `line` with an OCR look-alike read as a digit where it stands alone before '%' ("(B%対象" = 8%): a rate.
std::string rate_lookalikes(std::string line) {
    for (size_t i = 0; i + 1 < line.size(); ++i) {
        const unsigned char prev = i ? static_cast<unsigned char>(line[i - 1]) : ' ';
        if (line[i + 1] == '%' && confusion_digit(line[i]) && !(prev < 0x80 && std::isalnum(prev)))
            line[i] = confusion_digit(line[i]);
    }
    return line;
}

// True when `n` is Japan's 8 or 10 % rate that OCR printed without its '%' right before 対象 ("(8対象 128"): a rate.
bool rate_before_base_word(const std::string& line, const PrintedNumber& n) {
    static const std::string base = "対象";
    if (n.percent || (n.value != 8 && n.value != 10)) return false;
    size_t k = n.end;
    while (k < line.size() && line[k] == ' ') ++k;
    return line.compare(k, base.size(), base) == 0;
}

// True when `n` is a rate that OCR printed without its '%' right after a tax word ("外税10", "内税8") or right before
// 対象 ("(8対象"): no amount.
bool rate_without_percent(const std::string& line, const PrintedNumber& n) {
    static const std::string tax = "税";
    if (rate_before_base_word(line, n)) return true;
    return !n.percent && n.value >= 1 && n.value <= 30 && n.value == std::floor(n.value) && n.begin >= tax.size() &&
           line.compare(n.begin - tax.size(), tax.size(), tax) == 0;
}

// Byte offsets just after each '%' of `line` that OCR left without the rate's digit ("(%対象", "% ¥538"): the '%'
// follows neither a digit nor another number character.
std::vector<size_t> rates_without_digit(const std::string& line) {
    std::vector<size_t> out;
    for (size_t i = 0; i < line.size(); ++i) {
        if (line[i] != '%') continue;
        size_t j = i;
        while (j > 0 && line[j - 1] == ' ') --j;
        const unsigned char prev = j ? static_cast<unsigned char>(line[j - 1]) : ' ';
        if (!(prev < 0x80 && (std::isdigit(prev) || prev == '.'))) out.push_back(i + 1);
    }
    return out;
}

}  // namespace

std::optional<double> tax_with_lost_digit(double base, double printed, double rate, bool rounded_up_too,
                                          bool included_only) {
    std::set<double> fits;
    const double included = base * rate / (100.0 + rate), added = base * rate / 100.0;
    for (double exact : included_only ? std::vector<double>{included} : std::vector<double>{included, added})
        for (double c : {std::floor(exact), std::round(exact), std::ceil(exact)})
            if ((rounded_up_too || c != std::ceil(exact) || c == std::round(exact)) && c < base &&
                one_digit_inserted(amount_digits(printed), amount_digits(c)))
                fits.insert(c);
    return fits.size() == 1 ? std::optional<double>(*fits.begin()) : std::nullopt;
}

std::optional<std::vector<PrintedTaxLine>> printed_tax_lines(const std::string& text) {
    return printed_tax_lines(text, {});
}

std::optional<std::vector<PrintedTaxLine>> printed_tax_lines(const std::string& text,
                                                             const std::vector<double>& base_totals) {
    std::vector<std::string> lines = printed_lines(text);
    for (std::string& line : lines) line = rate_lookalikes(std::move(line));
    std::vector<std::vector<PrintedNumber>> nums(lines.size());
    std::vector<RateMention> mentions;
    const bool japanese = has_cjk(text);
    for (size_t li = 0; li < lines.size(); ++li) {
        nums[li] = printed_numbers(lines[li]);
        const std::string& prev = li > 0 ? lines[li - 1] : lines[li];
        for (const PrintedNumber& n : nums[li])
            if (n.percent && n.value >= 1 && n.value <= 30 && tax_context(lines[li], n.begin, li > 0 ? prev : ""))
                mentions.push_back({n.value, li, n.end});
        // A rate that lost its '%' to OCR before 対象 on a Japanese receipt ("(8対象").
        if (japanese)
            for (const PrintedNumber& n : nums[li])
                if (rate_before_base_word(lines[li], n)) mentions.push_back({n.value, li, n.end});
        // A rate that lost its digit to OCR on a Japanese receipt is one of Japan's two rates (8 %, 10 %): it is
        // paired under each and kept only if one pairs (rate 0 marks it).
        if (japanese)
            for (size_t end : rates_without_digit(lines[li]))
                if (tax_context(lines[li], end - 1, li > 0 ? prev : "")) mentions.push_back({0, li, end});
    }
    // A line's amounts, without the rates that OCR printed without '%'.
    auto amounts_of = [&](size_t li) {
        std::vector<PrintedNumber> out;
        for (const PrintedNumber& n : nums[li])
            if (n.usable && !n.percent && !rate_without_percent(lines[li], n)) out.push_back(n);
        return out;
    };
    // A line "belongs" to another rate when it mentions a rate other than r in a tax context.
    auto other_rate_line = [&](size_t li, double r) {
        for (const RateMention& m : mentions)
            if (m.line == li && m.rate != r && m.rate != 0) return true;
        return false;
    };

    std::vector<PrintedTaxLine> found;  // one per rate, first printed first
    std::map<double, std::vector<PrintedNumber>> open_amounts;  // rate -> its amounts, had amounts but no pair
    std::vector<RateMention> tried;
    for (const RateMention& mention : mentions) {
        if (mention.rate != 0) {
            tried.push_back(mention);
            continue;
        }
        bool on_line = false;  // a digitless '%' on a line that has a rate is not another rate
        for (const RateMention& o : mentions) on_line |= o.line == mention.line && o.rate != 0;
        if (!on_line)
            for (double r : {8.0, 10.0}) tried.push_back({r, mention.line, mention.end});
    }
    // Amounts after a paired rate and before its pair ("10% / ¥6 / ¥468 / ¥42": ¥6): another rate's box that OCR
    // moved past this rate.
    std::vector<PrintedNumber> strays;
    std::set<double> printed_rates;  // the rates printed with their digits (the others are guessed)
    std::set<size_t> guessed_lines;  // lines whose digitless '%' a guessed rate paired
    for (const RateMention& m : mentions)
        if (m.rate != 0) printed_rates.insert(m.rate);
    for (const RateMention& m : tried) {
        const bool guessed = !printed_rates.count(m.rate);
        bool have = false;
        for (const auto& f : found) have |= f.rate == m.rate;
        if (have || (guessed && guessed_lines.count(m.line))) continue;
        std::vector<PrintedNumber> amounts;
        for (const PrintedNumber& n : amounts_of(m.line))
            if (n.begin >= m.end) amounts.push_back(n);
        std::vector<double> cut_boxes;  // boxes whose thousands group lost a digit ("¥1,71)"), read one digit short
        // The rate's lines name the tax included ("内税", "内消費税").
        auto names_included = [](const std::string& line) {
            return line.find("内税") != std::string::npos || line.find("内消費税") != std::string::npos;
        };
        bool says_included = names_included(lines[m.line]);
        for (size_t li = m.line + 1; li < lines.size() && li <= m.line + size_t(kTaxWindowLines); ++li) {
            if (other_rate_line(li, m.rate)) break;
            says_included |= names_included(lines[li]);
            for (const PrintedNumber& n : amounts_of(li)) amounts.push_back(n);
            std::string box = strip_spaces(lines[li]);
            if (!box.empty() && box.back() == ')') box.pop_back();
            if (const std::optional<double> cut = broken_group_amount(box)) cut_boxes.push_back(*cut);
        }
        // No pair after the rate: the table may print the base (and tax) above it ("84 / 8% / 6", "930 / 68 /
        // 8%"): the amounts of the amount-only lines right above the rate's line come first.
        bool paired = false;
        auto pairs_in = [&](const std::vector<PrintedNumber>& seq) {
            for (size_t k = 0; k + 1 < seq.size(); ++k)
                if (is_tax_of(seq[k], seq[k + 1], m.rate)) return std::optional<size_t>(k);
            return std::optional<size_t>();
        };
        if (const auto k = pairs_in(amounts)) {
            found.push_back({m.rate, amounts[*k].value, amounts[*k + 1].value});
            strays.insert(strays.end(), amounts.begin(), amounts.begin() + std::ptrdiff_t(*k));
            paired = true;
        } else {
            std::vector<PrintedNumber> above;
            for (size_t back = 1; back <= 2 && back <= m.line; ++back) {
                const size_t li = m.line - back;
                bool only_amounts = is_item_row_continuation(lines[li]) && !other_rate_line(li, m.rate);
                for (const PrintedNumber& n : nums[li]) only_amounts &= n.usable && !n.percent;
                if (!only_amounts) break;
                above.insert(above.begin(), nums[li].begin(), nums[li].end());
            }
            if (!above.empty()) {
                std::vector<PrintedNumber> seq = above;
                seq.insert(seq.end(), amounts.begin(), amounts.end());
                if (const auto k = pairs_in(seq)) {
                    found.push_back({m.rate, seq[*k].value, seq[*k + 1].value});
                    paired = true;
                }
            }
        }
        // OCR swapped the two boxes ("8% / 44 / 598"): the tax printed before its base. Only on Japanese
        // receipts: a Latin tax line is often followed by the total that includes it ("TAX 8.875% $1.23 / TOTAL").
        for (size_t k = 0; k + 1 < amounts.size() && !paired && !guessed && japanese; ++k) {
            if (!is_tax_of(amounts[k + 1], amounts[k], m.rate) || amounts[k].value == 0) continue;
            found.push_back({m.rate, amounts[k + 1].value, amounts[k].value});
            paired = true;
        }
        // OCR dropped a digit of the tax ("(8%対象 ¥2,628 内税 ¥14)" for ¥194): the one tax that the base makes by
        // the formulas (rounded down, to nearest or up) and that is the printed tax with one digit put back
        // (extract/dropped_digit.h). Japanese receipts only (whole yen).
        for (size_t k = 0; k + 1 < amounts.size() && !paired && !guessed && japanese; ++k) {
            const PrintedNumber& base = amounts[k];
            const PrintedNumber& tax = amounts[k + 1];
            if (base.cents || tax.cents || !(tax.value > 0) || !(base.value > tax.value)) continue;
            std::optional<double> whole = tax_with_lost_digit(base.value, tax.value, m.rate, true);
            // Where the formulas leave several, a line that says the tax is included (内税) takes base r / (100 + r)
            // rounded down or to nearest ("(10%対象 ¥258 内税 ¥2)": 23; added, 25 and 26 would fit too).
            if (!whole && says_included) whole = tax_with_lost_digit(base.value, tax.value, m.rate, false, true);
            if (!whole) continue;
            found.push_back({m.rate, base.value, *whole});
            paired = true;
        }
        // Or of its thousands group ("(10%対象 ¥18,848 内税 ¥1,71)" for ¥1,713): the one tax of the rate's amounts
        // that such a box makes with the digit put back (rounded down or to nearest, as the tax table's cut boxes:
        // rounding up too makes 1,713 and 1,714 both of "1,71").
        if (!paired && !guessed && japanese && !cut_boxes.empty()) {
            std::set<std::pair<double, double>> fits;  // (base, tax)
            for (const PrintedNumber& base : amounts)
                for (double cut : cut_boxes)
                    if (!base.cents && base.value > cut)
                        if (const std::optional<double> whole = tax_with_lost_digit(base.value, cut, m.rate, false))
                            fits.insert({base.value, *whole});
            if (fits.size() == 1) {
                found.push_back({m.rate, fits.begin()->first, fits.begin()->second});
                paired = true;
            }
        }
        if (paired && guessed) guessed_lines.insert(m.line);
        if (!paired && !amounts.empty() && !guessed) open_amounts[m.rate] = amounts;
    }
    // A rate left without a pair whose tax box OCR moved past the next rate ("8% / ¥88 / 10% / ¥6 / ¥468 / ¥42"):
    // its base among its amounts and its tax among the strays, when exactly one such pair fits.
    for (auto it = open_amounts.begin(); it != open_amounts.end();) {
        const auto& [rate, amounts] = *it;
        bool have = false;  // a later mention of the rate paired it
        for (const auto& f : found) have |= f.rate == rate;
        std::vector<PrintedTaxLine> fits;
        for (const PrintedNumber& base : amounts)
            for (const PrintedNumber& tax : strays)
                if (tax.value > 0 && is_tax_of(base, tax, rate)) fits.push_back({rate, base.value, tax.value});
        if (!have && fits.size() == 1) {
            found.push_back(fits[0]);
            it = open_amounts.erase(it);
        } else {
            ++it;
        }
    }
    // One rate left without a pair whose base OCR damaged ("8% / ¥86 / ¥61" for ¥836): the bases of all rates add
    // up to the subtotal or total, so its base is that less the other rates' bases, and its tax an amount after it
    // that fits that base. Where two amounts fit ("10% 27円 24円" for a base of 270: 27 added, 24 included), the one
    // taxed the way the other rates are (tax included or added) when they all are one way.
    if (open_amounts.size() == 1 && !base_totals.empty()) {
        const auto& [rate, amounts] = *open_amounts.begin();
        double others = 0;
        for (const auto& f : found) others += f.base;
        auto included = [](double base, double tax, double r) { return std::fabs(tax - base * r / (100 + r)) <= 1; };
        auto added = [](double base, double tax, double r) { return std::fabs(tax - base * r / 100) <= 1; };
        bool all_included = !found.empty(), all_added = !found.empty();
        for (const auto& f : found) {
            all_included = all_included && included(f.base, f.tax, f.rate) && !added(f.base, f.tax, f.rate);
            all_added = all_added && added(f.base, f.tax, f.rate) && !included(f.base, f.tax, f.rate);
        }
        for (double sum : base_totals) {
            PrintedNumber base;
            base.value = sum - others;
            std::vector<double> fits;
            for (const PrintedNumber& tax : amounts) {
                base.cents = tax.cents;
                if (base.value > 0 && tax.value != 0 && is_tax_of(base, tax, rate)) fits.push_back(tax.value);
            }
            if (fits.empty()) continue;
            double pick = fits[0];
            for (double t : fits)
                if ((all_included && included(base.value, t, rate) && !added(base.value, t, rate)) ||
                    (all_added && added(base.value, t, rate) && !included(base.value, t, rate))) {
                    pick = t;
                    break;
                }
            found.push_back({rate, base.value, pick});
            break;
        }
    }
    // Only zero taxes (a few yen at a rate, the other rate's line unread) are no reading of the receipt's tax.
    bool any_tax = false;
    for (const auto& f : found) any_tax |= f.tax > 0;
    if (!any_tax) return std::nullopt;
    // A rate that had amounts and still no pair (a later mention of the same rate may have paired it): the table
    // is not read whole.
    for (const auto& [rate, amounts] : open_amounts) {
        bool have = false;
        for (const auto& f : found) have |= f.rate == rate;
        if (!have) return std::nullopt;
    }
    return found;
}

std::optional<double> printed_tax_total(const std::string& text, const std::vector<double>& base_totals) {
    const auto lines = printed_tax_lines(text, base_totals);
    if (!lines) return std::nullopt;
    double sum = 0;
    for (const auto& l : *lines) sum += l.tax;
    return std::round(sum * 100.0) / 100.0;
}

std::optional<double> labelled_tax_total(const std::string& text) {
    const std::vector<std::string> lines = printed_lines(text);
    std::optional<double> sum;
    for (size_t li = 0; li < lines.size(); ++li) {
        const size_t at = lines[li].find("外税");
        if (at == std::string::npos) continue;
        std::optional<double> amount;
        for (size_t k = li; k < lines.size() && k <= li + size_t(kTotalAmountLines) && !amount; ++k) {
            if (k > li && lines[k].find("外税") != std::string::npos) break;  // the next rate's label
            for (const PrintedNumber& n : printed_numbers(lines[k]))
                if ((k > li || n.begin > at) && n.usable && !n.percent && !rate_without_percent(lines[k], n)) {
                    amount = n.value;
                    break;
                }
        }
        if (!amount) return std::nullopt;
        sum = sum.value_or(0.0) + *amount;
    }
    return sum;
}

bool prints_tax_word(const std::string& text) {
    if (text.find("税") != std::string::npos) return true;
    for (const char* label : {"消費悦", "悦等", "悦率", "悦額", "内悦", "外悦", "内費悦", "内消悦", "内消等"})
        if (text.find(label) != std::string::npos) return true;
    return false;
}

bool prints_tax_included(const std::string& text) {
    for (const char* label : {"内税", "内消費税", "内消税", "内費税", "内費悦", "内消悦", "内消等"})
        if (text.find(label) != std::string::npos) return true;
    return false;
}

namespace {

// Where a 内消費税等 label ends on `line` (also "内消税等", a character OCR dropped before 税等, and "内消費悦等",
// 税 read as its look-alike 悦; and "内費悦", "内消悦", "内費税": 等 and one of 消費 lost, "内消等": 費税 lost, when no
// rate follows: "内費税8%" is a per-rate label), or npos.
size_t over_all_label_end(const std::string& line) {
    size_t at = line.find("税等");
    if (at == std::string::npos) at = line.find("悦等");
    const size_t inner = line.find("内");
    if (at != std::string::npos && inner != std::string::npos && inner < at) return at + std::string("税等").size();
    for (const char* label : {"内費悦", "内消悦", "内費税", "内消等"})
        if (const size_t l = line.find(label); l != std::string::npos) {
            const size_t end = l + std::string(label).size();
            const std::string rest = strip_spaces(line.substr(end));
            if (rest.rfind("8%", 0) != 0 && rest.rfind("10%", 0) != 0) return end;
        }
    return std::string::npos;
}

// True when the label ending at `at` on `line` opens a parenthesis that the line leaves open ("(内消費税等").
bool leaves_parenthesis_open(const std::string& line, size_t at) {
    const size_t open = line.rfind('(', at);
    return open != std::string::npos && line.find(')', open) == std::string::npos;
}

// The one amount of a box that closes a parenthesis ("102)", "68円)"), or nullopt; `sign_only_before` asks that
// nothing but a yen sign stand before it ("¥431)").
std::optional<double> closing_box_amount(const std::string& line, bool sign_only_before) {
    const std::vector<PrintedNumber> nums = printed_numbers(line);
    if (nums.size() != 1 || !nums[0].usable || nums[0].percent) return std::nullopt;
    const std::string rest = strip_spaces(line.substr(nums[0].end));
    if (rest != ")" && rest != "円)") return std::nullopt;
    const std::string before = strip_spaces(line.substr(0, nums[0].begin));
    if (sign_only_before && before != "" && before != "\\" && before != "\xC2\xA5") return std::nullopt;
    return nums[0].value;
}

// The amount of a parenthesised label on lines[i] that has none on its line or the next, two lines below, where
// the next line holds no number (a payment's name, OCR put its box between) and the amount closes the
// parenthesis: "(内消費税等" / "楽天Edy" / "102)". nullopt otherwise.
std::optional<double> closing_amount_past_a_line(const std::vector<std::string>& lines, size_t i, size_t at) {
    if (!leaves_parenthesis_open(lines[i], at) || i + 2 >= lines.size() || !printed_numbers(lines[i + 1]).empty())
        return std::nullopt;
    return closing_box_amount(lines[i + 2], false);
}

// The amount of a parenthesised label on lines[i] that has none on its line, printed alone on the line above and
// closing the parenthesis: OCR put the box before its label ("¥431)" / "(内税等"). nullopt otherwise.
std::optional<double> closing_amount_above(const std::vector<std::string>& lines, size_t i, size_t at) {
    if (!leaves_parenthesis_open(lines[i], at) || i == 0 || !printed_numbers(lines[i].substr(at)).empty())
        return std::nullopt;
    return closing_box_amount(lines[i - 1], true);
}

// One per-rate 内消費税 label: its rate (8 or 10 when printed right after the label, else 0) and its amount.
struct RateTax {
    double rate = 0;
    double tax = 0;
};

// The per-rate 内消費税 labels of `lines` ("(内消費税8% / ¥531)"), first printed first, each with the amount on its
// line or alone on the next; nullopt when one has no amount.
std::optional<std::vector<RateTax>> per_rate_included(const std::vector<std::string>& lines) {
    std::vector<RateTax> out;
    for (size_t li = 0; li < lines.size(); ++li) {
        const size_t at = lines[li].find("内消費税");
        if (at == std::string::npos) continue;
        const size_t after = at + std::string("内消費税").size();
        const std::optional<double> amount = amount_on_or_below(lines, li, after, NextLine::kOneNumber);
        if (!amount) return std::nullopt;
        const std::string rest = lines[li].substr(after);
        double rate = 0;
        if (rest.rfind("8%", 0) == 0) rate = 8;
        if (rest.rfind("10%", 0) == 0) rate = 10;
        out.push_back({rate, *amount});
    }
    return out;
}

// included_tax_total of the printed lines `lines`.
std::optional<double> included_tax_of(const std::vector<std::string>& lines) {
    std::optional<double> found;
    bool over_all = false;  // a 内消費税等 label is printed
    for (size_t li = 0; li < lines.size(); ++li) {
        const size_t end = over_all_label_end(lines[li]);
        if (end == std::string::npos) continue;
        over_all = true;
        // Its amount on the line, or alone in the next box ("¥68)", "68円)"), or in the box after a payment's name,
        // or in the box above.
        std::optional<double> amount = amount_on_or_below(lines, li, end, NextLine::kOneNumber);
        if (!amount) amount = closing_amount_past_a_line(lines, li, end);
        if (!amount) amount = closing_amount_above(lines, li, end);
        if (!amount || (found && *found != *amount)) return std::nullopt;
        found = amount;
    }
    if (over_all) return found;
    // Without it, one 内消費税 label per rate ("(内消費税8% / ¥531)", "(内消費税10% / ¥228)"): their sum.
    const std::optional<std::vector<RateTax>> rates = per_rate_included(lines);
    if (!rates) return std::nullopt;
    for (const RateTax& r : *rates) found = found.value_or(0.0) + r.tax;
    return found;
}

// The tax included in `base` at `rate` percent, floored and rounded (tills do either): base r / (100 + r).
std::vector<double> included_taxes(double base, double rate) {
    const double t = base * rate / (100 + rate);
    return {std::floor(t + 1e-9), std::round(t)};
}

// `printed` as the arithmetic reads it: itself when it is one of `expected` (within one yen), else the one value of
// `expected` that it is with a digit OCR dropped put back, else nullopt (no confirmation either way).
std::optional<double> tax_as_expected(double printed, const std::vector<double>& expected) {
    for (double e : expected)
        if (std::fabs(printed - e) <= 1) return printed;
    std::optional<double> found;
    for (double e : expected)
        if (e > 0 && one_digit_inserted(amount_digits(printed), amount_digits(e))) {
            if (found && *found != e) return std::nullopt;
            found = e;
        }
    return found;
}

}  // namespace

std::optional<double> included_tax_total(const std::string& text) { return included_tax_of(printed_lines(text)); }

bool included_tax_fits(double tax, double total) {
    return tax >= std::floor(total * 8 / 108) - 1 && tax <= std::ceil(total * 10 / 110) + 1;
}

std::optional<double> included_tax_for_total(const std::string& text, double total) {
    const std::vector<std::string> lines = printed_lines(text);
    const std::optional<double> as_printed = included_tax_of(lines);
    if (!as_printed || !(total > 0)) return as_printed;
    // One 内消費税等 amount: the tax of the total at 8 % or at 10 % (a receipt of one rate).
    if (std::any_of(lines.begin(), lines.end(),
                    [](const std::string& l) { return over_all_label_end(l) != std::string::npos; })) {
        std::vector<double> expected = included_taxes(total, 8);
        for (double t : included_taxes(total, 10)) expected.push_back(t);
        return tax_as_expected(*as_printed, expected).value_or(*as_printed);
    }
    // One label per rate ("(内消費税8% / ¥98)"): each amount against its rate's base, the amount after "8%対象" (or
    // the total, for a receipt of one rate). included_tax_of read them all, so each has its amount.
    const std::vector<RateTax> rates = per_rate_included(lines).value_or(std::vector<RateTax>());
    double sum = 0;
    for (const RateTax& r : rates) {
        std::optional<double> base;
        if (rates.size() == 1) base = total;
        const std::string label = r.rate == 8 ? "8%対象" : "10%対象";
        for (size_t li = 0; r.rate > 0 && li < lines.size() && !base; ++li)
            if (const size_t at = lines[li].find(label);
                at != std::string::npos && (r.rate == 10 || at == 0 || lines[li][at - 1] != '1'))
                base = amount_on_or_below(lines, li, at + label.size(), NextLine::kOneNumber);
        double tax = r.tax;
        if (base && r.rate > 0) tax = tax_as_expected(r.tax, included_taxes(*base, r.rate)).value_or(r.tax);
        sum += tax;
    }
    return sum;
}

bool printed_as_tax(const std::string& text, double v) {
    const std::vector<std::string> lines = printed_lines(text);
    auto holds = [&](const std::string& line, size_t from) {
        for (const PrintedNumber& n : printed_numbers(line))
            if (n.begin >= from && n.usable && !n.percent && std::fabs(n.value - v) < 0.005) return true;
        return false;
    };
    for (size_t i = 0; i < lines.size(); ++i) {
        const size_t at = lines[i].rfind("税");
        if (at == std::string::npos) continue;
        if (holds(lines[i], at)) return true;
        if (i + 1 < lines.size() && lines[i + 1].find("税") == std::string::npos &&
            lines[i + 1].find("対象") == std::string::npos && holds(lines[i + 1], 0))
            return true;
    }
    return false;
}

}  // namespace receipt::extract
