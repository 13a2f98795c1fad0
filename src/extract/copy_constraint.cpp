#include "extract/copy_constraint.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>

#include "extract/ocr_digits.h"
#include "extract/target_tokens.h"
#include "extract/utf8.h"
#include "receipt/errors.h"
#include "receipt/tokenizer.h"

namespace receipt::extract {

namespace {

// Full-width digits (U+FF10..U+FF19), comma (U+FF0C) and full stop (U+FF0E) -> ASCII; other bytes unchanged.
std::string fold_fullwidth(const std::string& s) {
    std::string out;
    out.reserve(s.size());
    for (size_t i = 0; i < s.size(); ++i) {
        const auto b0 = static_cast<unsigned char>(s[i]);
        if (b0 == 0xEF && i + 2 < s.size() && static_cast<unsigned char>(s[i + 1]) == 0xBC) {
            const auto b2 = static_cast<unsigned char>(s[i + 2]);
            if (b2 >= 0x90 && b2 <= 0x99) {
                out += static_cast<char>('0' + (b2 - 0x90));
                i += 2;
                continue;
            }
            if (b2 == 0x8C || b2 == 0x8E) {
                out += b2 == 0x8C ? ',' : '.';
                i += 2;
                continue;
            }
        }
        out += s[i];
    }
    return out;
}

// Appends the runs of one (folded) text. A number is digit groups separated by single ',' or '.'; it gives each
// group, the thousands joins (a following group of exactly 3 digits extends the join: "1,234,567" -> "1234",
// "1234567"), and, when the last separator is '.', the decimal forms "<join or last group>.<last group>"
// ("1,200.50" -> "1200.50", "200.50").
void collect_runs(const std::string& s, std::vector<std::string>& runs) {
    size_t i = 0;
    while (i < s.size()) {
        if (!is_ascii_digit(s[i])) {
            ++i;
            continue;
        }
        std::string joined, prev_joined, prev_group;
        char last_sep = 0;
        while (true) {
            size_t j = i;
            while (j < s.size() && is_ascii_digit(s[j])) ++j;
            const std::string group = s.substr(i, j - i);
            runs.push_back(group);
            if (last_sep == '.') {
                runs.push_back(prev_group + "." + group);
                if (prev_joined != prev_group) runs.push_back(prev_joined + "." + group);
            }
            joined = (!joined.empty() && group.size() == 3) ? joined + group : group;
            if (joined != group) runs.push_back(joined);
            prev_joined = joined;
            prev_group = group;
            if (j + 1 < s.size() && (s[j] == ',' || s[j] == '.') && is_ascii_digit(s[j + 1])) {
                last_sep = s[j];
                i = j + 1;
                continue;
            }
            i = j;
            break;
        }
    }
}

bool constrained(const std::string& field) { return field == "tel" || field == "net" || field == "tax" ||
                                                    field == "total" || field == "item:3"; }

}  // namespace

std::vector<std::string> total_window_runs(const std::string& text, bool skip_payment_lines) {
    static const char* const kPayment[] = {"PAID", "CASH", "CHANGE", "TENDER", "RECEIVED"};
    static const char* const kOther[] = {"合計", "会計", "お買上", "総計", "請求"};
    const std::vector<std::string> lines = split_lines(text);
    std::string window;
    for (size_t i = 0; i < lines.size(); ++i) {
        const std::string upper = ascii_upper(lines[i]);
        bool hit = false;
        for (std::string_view k : kLatinTotalKeywords) hit |= upper.find(k) != std::string::npos;
        for (const char* k : kOther) hit |= lines[i].find(k) != std::string::npos;
        if (skip_payment_lines)
            for (const char* k : kPayment) hit &= upper.find(k) == std::string::npos;
        if (!hit) continue;
        for (size_t k = i; k < std::min(lines.size(), i + kTotalWindowLines); ++k) window += lines[k] + "\n";
    }
    return digit_runs(window);
}

std::optional<double> total_fallback(const std::string& text) {
    std::optional<double> best;
    for (const std::string& run : total_window_runs(text, true)) {
        const size_t dot = run.find('.');
        if (dot == std::string::npos || dot == 0 || run.size() - dot != 3) continue;
        const double v = std::strtod(run.c_str(), nullptr);
        if (!best || v > *best) best = v;
    }
    return best;
}

std::vector<std::string> digit_runs(const std::string& text) {
    const std::string folded = fold_fullwidth(text);
    std::vector<std::string> runs;
    collect_runs(folded, runs);
    collect_runs(read_digit_confusions(folded), runs);
    std::sort(runs.begin(), runs.end());
    runs.erase(std::unique(runs.begin(), runs.end()), runs.end());
    return runs;
}

std::shared_ptr<const CopyConstraint::Vocab> CopyConstraint::make_vocab(const Tokenizer& tokenizer, int vocab_size) {
    auto v = std::make_shared<Vocab>();
    v->texts = token_texts(tokenizer, vocab_size);
    v->tokens.resize(v->texts.size());
    for (size_t id = 0; id < v->texts.size(); ++id) {
        TokenInfo& t = v->tokens[id];
        const std::string& text = v->texts[id];
        t.space = !text.empty() && text[0] == ' ';
        const std::string body = t.space ? text.substr(1) : text;
        if (!body.empty() && std::all_of(body.begin(), body.end(), is_ascii_digit)) t.digits = body;
        if (!body.empty() &&
            std::all_of(body.begin(), body.end(), [](char c) { return is_ascii_digit(c) || c == '.'; })) {
            t.number = body;
            v->number_ids.push_back(int(id));
        }
        if (!text.empty() && std::all_of(text.begin(), text.end(), [](char c) { return c == ' '; })) t.other = ' ';
        else if (body == "|" || body == ";") t.other = '|';
        else if (body == "-") t.other = '-';
    }
    v->flags.resize(v->tokens.size());
    v->others.resize(v->tokens.size());
    for (size_t id = 0; id < v->tokens.size(); ++id) {
        const TokenInfo& t = v->tokens[id];
        v->flags[id] =
            static_cast<unsigned char>((t.number.empty() ? 0 : kNumberFlag) | (t.digits.empty() ? 0 : kDigitsFlag));
        v->others[id] = t.other;
    }
    return v;
}

CopyConstraint::CopyConstraint(std::shared_ptr<const Vocab> vocab, const std::vector<std::string>& texts)
    : vocab_(std::move(vocab)), texts_(vocab_->texts), tokens_(vocab_->tokens), number_ids_(vocab_->number_ids) {
    RECEIPT_CHECK(vocab_->flags.size() == tokens_.size() && vocab_->others.size() == tokens_.size(), InvalidInput,
                  "CopyConstraint: the vocabulary must come from CopyConstraint::make_vocab()");
    runs_.reserve(texts.size());
    total_runs_.reserve(texts.size());
    for (const auto& text : texts) {
        runs_.push_back(digit_runs(text));
        total_runs_.push_back(total_window_runs(text));
        if (total_runs_.back().empty()) total_runs_.back() = runs_.back();
    }
}

bool CopyConstraint::prefix_of_run(const std::vector<std::string>& runs, const std::string& prefix) {
    auto it = std::lower_bound(runs.begin(), runs.end(), prefix);
    return it != runs.end() && it->compare(0, prefix.size(), prefix) == 0;
}

bool CopyConstraint::is_run(const std::vector<std::string>& runs, const std::string& digits) {
    return std::binary_search(runs.begin(), runs.end(), digits);
}

std::optional<std::string> CopyConstraint::written_value(const std::vector<int>& generated,
                                                         const std::string& tag) const {
    std::string all;
    for (int id : generated)
        if (id >= 0 && size_t(id) < texts_.size()) all += texts_[size_t(id)];
    const std::string key = tag + ":";
    for (size_t bar = 0;;) {
        size_t start = all.find_first_not_of(' ', bar);
        if (start == std::string::npos) return std::nullopt;
        if (all.compare(start, key.size(), key) == 0) {
            const size_t end = all.find('|', start);
            if (end == std::string::npos) return std::nullopt;  // still being written
            std::string v = all.substr(start + key.size(), end - start - key.size());
            v.erase(std::remove(v.begin(), v.end(), ' '), v.end());
            return v;
        }
        bar = all.find('|', start);
        if (bar == std::string::npos) return std::nullopt;
        ++bar;
    }
}

double CopyConstraint::written_amount(const std::vector<int>& generated, const std::string& tag) const {
    const auto v = written_value(generated, tag);
    if (!v || v->empty()) return -1.0;
    char* stop = nullptr;
    const double x = std::strtod(v->c_str(), &stop);
    return stop && *stop == 0 ? x : -1.0;
}

std::string CopyConstraint::field_at(const std::vector<int>& generated) const {
    const TargetSegment seg = current_segment(texts_, generated);
    return seg.tag == "item" ? "item:" + std::to_string(seg.column) : seg.tag;
}

void CopyConstraint::process(int source, const std::vector<int>& generated, float* logits, int vocab) const {
    if (source < 0 || size_t(source) >= runs_.size() || vocab > int(tokens_.size())) return;
    const std::string field = field_at(generated);
    if (!constrained(field)) return;
    // Amounts are numbers with an optional decimal point ("476.80"); a phone number is digit runs only.
    const bool decimals = field != "tel";
    auto num = [&](const TokenInfo& t) -> const std::string& { return decimals ? t.number : t.digits; };
    // r: the number being written (trailing number tokens, back to one that starts with a space).
    std::string r;
    for (size_t k = generated.size(); k-- > 0;) {
        const int id = generated[k];
        if (id < 0 || size_t(id) >= tokens_.size() || num(tokens_[size_t(id)]).empty()) break;
        r.insert(0, num(tokens_[size_t(id)]));
        if (tokens_[size_t(id)].space) break;
    }
    const std::vector<std::string>* runs_ptr = field == "total" ? &total_runs_[size_t(source)] : &runs_[size_t(source)];
    // A tax part is below kMaxTaxShareOfNet of the net amount when the output already has one.
    std::vector<std::string> tax_runs;
    if (field == "tax") {
        const double net = written_amount(generated, "net");
        if (net > 0) {
            for (const auto& run : *runs_ptr)
                if (std::strtod(run.c_str(), nullptr) <= kMaxTaxShareOfNet * net) tax_runs.push_back(run);
            runs_ptr = &tax_runs;
        }
    }
    const auto& runs = *runs_ptr;
    const bool complete = r.empty() || is_run(runs, r);
    // Only the number tokens (a few dozen ids) need a decision; the rest are allowed iff r is complete.
    std::vector<int> forbidden;
    bool any_number = false, any_continuation = false;
    for (int id : number_ids_) {
        if (id >= vocab) break;
        const TokenInfo& t = tokens_[size_t(id)];
        const std::string& n = num(t);
        if (n.empty()) continue;
        const bool ok = t.space ? complete && prefix_of_run(runs, n) : prefix_of_run(runs, r + n);
        if (!ok) forbidden.push_back(id);
        any_number |= ok;
        any_continuation |= ok && !t.space;
    }
    if (!r.empty() && !complete && !any_continuation) return;  // already off the printed numbers
    if (r.empty() && !any_number) return;                        // nothing printed to copy from
    for (int id : forbidden) logits[id] = -INFINITY;
    // The other tokens: none while r must go on; else, in a yen item amount, only the space and minus before its
    // number and a separator after any part of it.
    const bool strict = complete && field == "item:3" && written_value(generated, "cur") == "JPY";
    if (complete && !strict) return;
    // Over the whole vocabulary: the per-id flags and separators, not the TokenInfo strings.
    const unsigned char num_flag = decimals ? kNumberFlag : kDigitsFlag;
    const unsigned char* flags = vocab_->flags.data();
    if (!complete) {
        for (int id = 0; id < vocab; ++id)
            if (!(flags[id] & num_flag)) logits[id] = -INFINITY;
        return;
    }
    const char* others = vocab_->others.data();
    const bool lead = r.empty();  // the space and minus before the number are allowed only before it
    for (int id = 0; id < vocab; ++id) {
        const char o = others[id];
        const bool allowed = o == '|' || (lead && (o == ' ' || o == '-'));
        if (!(flags[id] & num_flag) && !allowed) logits[id] = -INFINITY;
    }
}

}  // namespace receipt::extract
