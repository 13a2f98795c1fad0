#include "extract/name_constraint.h"

#include <algorithm>
#include <cmath>

#include "extract/target_tokens.h"
#include "extract/utf8.h"
#include "receipt/errors.h"
#include "receipt/tokenizer.h"

namespace receipt::extract {

namespace {

// Length in bytes of the whitespace at s[i] (' ', \t, \r, \n, U+3000 ideographic space), 0 if none.
size_t space_at(const std::string& s, size_t i) {
    const char c = s[i];
    if (c == ' ' || c == '\t' || c == '\r' || c == '\n') return 1;
    if (s.compare(i, 3, "\xE3\x80\x80") == 0) return 3;
    return 0;
}

// True when s ends inside a UTF-8 sequence (its last lead byte announces more bytes than follow it).
bool utf8_incomplete(const std::string& s) {
    size_t k = s.size(), cont = 0;
    while (k > 0 && cont < 4 && (static_cast<unsigned char>(s[k - 1]) & 0xC0) == 0x80) --k, ++cont;
    if (k == 0) return false;
    const auto lead = static_cast<unsigned char>(s[k - 1]);
    const size_t need = lead >= 0xF0 ? 3 : lead >= 0xE0 ? 2 : lead >= 0xC0 ? 1 : 0;
    return cont < need;
}

// Word starts p of c where v is printed: c.text.compare(p, v.size(), v) == 0.
std::vector<int> occurrences(const CompactText& c, const std::string& v) {
    std::vector<int> out;
    for (int p : c.word_starts)
        if (size_t(p) + v.size() <= c.text.size() && c.text.compare(size_t(p), v.size(), v) == 0) out.push_back(p);
    return out;
}

// End (exclusive offset into c.text) of the max_lines printed lines starting with the line that holds offset p.
size_t lines_end(const CompactText& c, int p, int max_lines) {
    const auto line = std::upper_bound(c.line_starts.begin(), c.line_starts.end(), p) - c.line_starts.begin();
    const size_t last = size_t(std::max<std::ptrdiff_t>(line - 1, 0)) + size_t(max_lines);
    return last < c.line_starts.size() ? size_t(c.line_starts[last]) : c.text.size();
}

}  // namespace

CompactText compact_text(const std::string& text) {
    CompactText out;
    out.text.reserve(text.size());
    bool word_start = true, line_start = true;
    for (size_t i = 0; i < text.size();) {
        if (const size_t n = space_at(text, i)) {
            word_start = true;
            line_start |= text[i] == '\n';
            i += n;
            continue;
        }
        if (word_start) out.word_starts.push_back(static_cast<int>(out.text.size()));
        if (line_start) out.line_starts.push_back(static_cast<int>(out.text.size()));
        word_start = line_start = false;
        out.text += text[i++];
    }
    return out;
}

std::string strip_spaces(const std::string& s) { return compact_text(s).text; }

bool name_is_printed(const std::string& text, const std::string& name) {
    return text_is_printed(text, name, NameConstraint::kMaxLines);
}

bool CompactText::word_start(size_t i) const {
    return std::binary_search(word_starts.begin(), word_starts.end(), int(i));
}

std::string CompactText::spaced(size_t begin, size_t end) const {
    std::string out;
    for (size_t i = begin; i < end && i < text.size(); ++i) {
        if (i > begin && word_start(i)) out += ' ';
        out += text[i];
    }
    return out;
}

std::optional<std::pair<size_t, size_t>> printed_span(const CompactText& c, const std::string& v, int max_lines) {
    if (v.empty()) return std::nullopt;
    for (int p : occurrences(c, v)) {
        const size_t end = lines_end(c, p, max_lines);
        const size_t e = size_t(p) + v.size();
        if (e <= end && (e == end || c.word_start(e))) return std::make_pair(size_t(p), e);
    }
    return std::nullopt;
}

bool text_is_printed(const std::string& text, const std::string& value, int max_lines) {
    return printed_span(compact_text(text), strip_spaces(value), max_lines).has_value();
}

namespace {

// The Latin-script case of name_printed_but_one: `name` (spaces aside, at least 5 characters) with one character
// left out is one of the first lines of `text` whole (spaces aside): OCR dropped a letter of a name the model knows
// ("TRGET" for TARGET, "RSTORAN WAN SHENG"). A whole line, so that a stray word of the model's ("Y SOON FATT S/B" for
// the printed "YONG SOON FATT S/B") is no such name.
bool latin_name_printed_but_one(const std::string& text, const std::string& name) {
    const std::string v = strip_spaces(name);
    if (v.size() < 5 || v.size() > 100) return false;
    for (const std::string& line : first_lines(text, size_t(NameConstraint::kMaxLines), 200)) {
        // A digit left out is no dropped letter ("SHOP 12" for "SHOP 2").
        if (const auto k = extra_byte_at(strip_spaces(line), v); k && !is_ascii_digit(v[*k])) return true;
    }
    return false;
}

}  // namespace

bool name_printed_but_one(const std::string& text, const std::string& name) {
    if (!has_cjk(name)) return !has_cjk(text) && latin_name_printed_but_one(text, name);
    const std::string v = strip_spaces(name);
    // Code point starts of v.
    std::vector<size_t> starts;
    for (size_t i = 0; i < v.size(); ++i)
        if ((static_cast<unsigned char>(v[i]) & 0xC0) != 0x80) starts.push_back(i);
    if (starts.size() < 4) return false;
    for (size_t k = 0; k < starts.size(); ++k) {
        const size_t b = starts[k], e = k + 1 < starts.size() ? starts[k + 1] : v.size();
        if (e - b == 1 && v[b] >= '0' && v[b] <= '9') continue;
        if (k > 0 && v.compare(starts[k - 1], b - starts[k - 1], v, b, e - b) == 0) continue;  // same as before
        if (text_is_printed(text, v.substr(0, b) + v.substr(e), NameConstraint::kMaxLines)) return true;
    }
    return false;
}

std::shared_ptr<const NameConstraint::Vocab> NameConstraint::make_vocab(const Tokenizer& tokenizer, int vocab_size) {
    auto v = std::make_shared<Vocab>();
    v->texts = token_texts(tokenizer, vocab_size);
    v->spaced.assign(v->texts.size(), 0);
    v->eos = tokenizer.eos_id();
    for (size_t id = 0; id < v->texts.size(); ++id) {
        const std::string& t = v->texts[id];
        if (t.empty()) continue;
        const std::string c = strip_spaces(t);
        v->spaced[id] = t[0] == ' ';
        if (c.empty()) {
            v->spaces.push_back(int(id));
        } else if (c[0] == '|') {
            v->always.push_back(int(id));
        } else {
            v->by_text[c].push_back(int(id));
            v->max_len = std::max(v->max_len, c.size());
        }
    }
    if (v->eos >= 0 && v->eos < vocab_size) v->always.push_back(v->eos);
    return v;
}

NameConstraint::NameConstraint(std::shared_ptr<const Vocab> vocab, const std::vector<std::string>& texts,
                               PrintedField field, std::vector<std::vector<int>> prefixes)
    : vocab_(std::move(vocab)), field_(std::move(field)), prefixes_(std::move(prefixes)) {
    RECEIPT_CHECK(prefixes_.empty() || prefixes_.size() == texts.size(), InvalidInput,
                  "NameConstraint: one prefix per text");
    RECEIPT_CHECK(field_.max_lines >= 1, InvalidInput, "NameConstraint: max_lines must be >= 1");
    sources_.reserve(texts.size());
    for (const auto& text : texts) sources_.push_back(compact_text(text));
}

void NameConstraint::process(int source, const std::vector<int>& generated, float* logits, int vocab) const {
    const Vocab& voc = *vocab_;
    if (source < 0 || size_t(source) >= sources_.size() || vocab > int(voc.texts.size())) return;
    if (!prefixes_.empty()) {
        const std::vector<int>& prefix = prefixes_[size_t(source)];
        if (generated.size() < prefix.size()) {  // repeat the prefix
            const int next = prefix[generated.size()];
            if (next < 0 || next >= vocab) return;
            for (int id = 0; id < vocab; ++id)
                if (id != next) logits[id] = -INFINITY;
            return;
        }
    }
    const TargetSegment seg = current_segment(voc.texts, generated);
    if (!seg.tag.empty() && seg.tag != field_.tag) {  // past the field: stop
        if (voc.eos < 0 || voc.eos >= vocab) return;
        for (int id = 0; id < vocab; ++id)
            if (id != voc.eos) logits[id] = -INFINITY;
        return;
    }
    if (seg.tag.empty()) return;  // the model writes "name:" itself
    const CompactText& c = sources_[size_t(source)];
    const std::string v = strip_spaces(seg.value);
    const std::vector<int> at = occurrences(c, v);
    if (at.empty()) return;  // v is not printed: the model already left the text (or there is none)

    // A character split into byte pieces must be finished before the name may end or a space may come.
    const bool mid_char = !v.empty() && utf8_incomplete(v);
    std::vector<char> allowed(size_t(vocab), 0);
    auto allow = [&](int id) {
        if (id < vocab) allowed[size_t(id)] = 1;
    };
    bool boundary = false;  // v ends where a printed word (or the last allowed line) ends at one of its occurrences
    // Tokens that continue v at one of its occurrences: the pieces equal to text[e, e + len). A piece that
    // starts with a space may only start a printed word (e is a word start), so spaces land where OCR put them.
    std::string key;
    for (int p : at) {
        const size_t end = lines_end(c, p, field_.max_lines);  // the value stays within max_lines printed lines
        const size_t e = size_t(p) + v.size();
        if (e > end) continue;
        const bool word = c.word_start(e);
        boundary |= word || e == end;
        if (word && !mid_char && e < end)
            for (int id : voc.spaces) allow(id);
        const size_t n = std::min(voc.max_len, end - e);
        for (size_t len = 1; len <= n; ++len) {
            key.assign(c.text, e, len);
            auto it = voc.by_text.find(key);
            if (it == voc.by_text.end()) continue;
            for (int id : it->second)
                if (word || !voc.spaced[size_t(id)]) allow(id);
        }
    }
    if (boundary && !mid_char && !v.empty())
        for (int id : voc.always) allow(id);
    for (int id = 0; id < vocab; ++id)
        if (!allowed[size_t(id)]) logits[id] = -INFINITY;
}

}  // namespace receipt::extract
