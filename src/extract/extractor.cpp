// Extractor: text -> ids (truncated to the engine's limit) -> generate -> decode -> parse + validate.
#include "receipt/extractor.h"

#include <algorithm>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <numeric>

#include <nlohmann/json.hpp>

#include "extract/address_block.h"
#include "extract/copy_constraint.h"
#include "extract/input_text.h"
#include "extract/known_names.h"
#include "extract/latin_address.h"
#include "extract/name_constraint.h"
#include "extract/post_checks.h"
#include "extract/printed_value.h"
#include "extract/row_split.h"
#include "extract/target_format.h"
#include "extract/target_tokens.h"
#include "extract/utf8.h"
#include "ops/linear.h"
#include "receipt/errors.h"
#include "receipt/model.h"
#include "receipt/receipt_schema.h"
#include "receipt/tokenizer.h"

namespace receipt {

struct Extractor::ConstraintVocabs {
    std::shared_ptr<const extract::CopyConstraint::Vocab> copy;
    std::shared_ptr<const extract::NameConstraint::Vocab> name;
    std::vector<int> draft_context;  // GenerationOptions::draft_context: draft_skeleton() tokenized
};

namespace {

// Typical targets (a yen receipt, then a ringgit one) for speculative decoding's prompt lookup: their labels,
// separators and common values are what the source does not print. On the first 40 dev_ja receipts with 3
// drafts: 1.58 -> 1.82 tokens per step (docs/benchmarks.md). Never changes the output.
std::string draft_skeleton() {
    const nlohmann::json ja = {
        {"supplier_name", "サ"}, {"supplier_address", "東京都"}, {"supplier_phone", "03"},
        {"receipt_date", "2022-01-18"}, {"purchase_time", "18:53"}, {"currency", "JPY"},
        {"line_items", {{{"description", "ボールペン 黒"}, {"quantity", 1}, {"unit_price", 175}, {"amount", 175}},
                        {{"description", "おにぎり"}, {"quantity", 2}, {"unit_price", 178}, {"amount", 356}}}},
        {"net_amount", 3021}, {"total_tax_amount", 280}, {"total_amount", 3021}};
    const nlohmann::json en = {
        {"supplier_name", "S"}, {"supplier_address", "JALAN"}, {"receipt_date", "2018-03-01"},
        {"purchase_time", "12:30"}, {"currency", "MYR"},
        {"line_items", {{{"description", "TEA"}, {"quantity", 1}, {"unit_price", 4.5}, {"amount", 4.5}}}},
        {"net_amount", 12.5}, {"total_tax_amount", 0.75}, {"total_amount", 13.25}};
    return extract::fields_to_target(ja) + " | " + extract::fields_to_target(en);
}

}  // namespace

Extractor::Extractor(std::shared_ptr<const Model> model, const EngineOptions& options)
    : model_(std::move(model)),
      tokenizer_(std::make_unique<Tokenizer>(model_->tokenizer_path(), model_->config().sentencepiece_tokenizer
                                                                            ? TokenizerMode::kSentencePiece
                                                                            : TokenizerMode::kHuggingFace)),
      engine_(make_engine(model_, options)),
      max_input_tokens_(options.max_input_tokens) {
    const int vocab = model_->config().vocab_size;
    std::vector<int> skeleton = tokenizer_->encode(draft_skeleton(), false);
    skeleton.resize(std::min<size_t>(skeleton.size(), kMaxDraftContext));
    std::erase_if(skeleton, [&](int id) { return id < 0 || id >= vocab; });
    vocabs_ = std::make_shared<const ConstraintVocabs>(
        ConstraintVocabs{extract::CopyConstraint::make_vocab(*tokenizer_, vocab),
                         extract::NameConstraint::make_vocab(*tokenizer_, vocab), std::move(skeleton)});
    known_ = std::make_shared<const extract::KnownLists>(extract::KnownLists::load(model_->dir()));
}

Extractor::~Extractor() = default;

namespace {

// Most tokens the name pass may generate ("name: <name> | addr:").
constexpr int kNamePassTokens = 64;
// An address is printed on at most this many lines; its pass writes at most this many tokens after the prefix.
constexpr int kAddressLines = 4;
constexpr int kAddressPassTokens = 128;
constexpr double kAddressRedoEdits = 0.1;

// The string value of `key` in the target text before the '|' at `bar` ("" when bar is npos or the value is not
// a string).
std::string field_before(const std::string& target, size_t bar, const char* key) {
    if (bar == std::string::npos) return "";
    const nlohmann::json fields = nlohmann::json::parse(parse_target_to_json(target.substr(0, bar)));
    const auto it = fields.find(key);
    return it != fields.end() && it->is_string() ? it->get<std::string>() : "";
}

// The supplier_name of a name pass's output when the name field was finished: a '|' follows it, or the pass ended
// with EOS after a name with a character written in byte pieces (`ended`: "name: 丸亀製麺" then EOS; 亀 and 製 are
// not in the vocabulary; the constraint allows EOS only where the copied name ends a printed word, so the name is
// whole). Otherwise "" (cut off at the token limit; or EOS after a name in vocabulary pieces, which on SROIE
// validation was a piece of the address).
std::string finished_name(const std::string& target, bool ended) {
    const size_t bar = target.find('|');
    return field_before(target, bar == std::string::npos && ended ? target.size() : bar, "supplier_name");
}

// Whether `name` is a whole line of `lines` (the receipt's first lines), surrounding spaces aside.
bool is_whole_line(const std::string& lines, const std::string& name) {
    const std::string want = extract::trim(name);
    if (want.empty()) return false;
    for (size_t i = 0; i <= lines.size();) {
        const size_t j = std::min(lines.find('\n', i), lines.size());
        if (extract::trim(lines.substr(i, j - i)) == want) return true;
        i = j + 1;
    }
    return false;
}

// True when an address is not printed on the receipt, not even up to a few edits: more than
// kAddressRedoEdits of its bytes (spaces aside) differ from the closest printed text. Below that the model
// mostly restored punctuation or a letter that OCR lost, which the ground truth of SROIE also does, and copying
// the printed text would undo it (SROIE validation: 5 right addresses lost at 0.0-0.05; above 0.1 the model
// wrote another shop's address, or one with a made-up end).
// Japanese addresses are left alone: on the Japanese development set the model's address is right on 92% of
// receipts, and those not printed as such are mostly printed in OCR boxes out of order, which a copy cannot
// follow (the pass lost 5 of 150 there). On a receipt that prints no CJK text, an address with CJK characters
// (memorised from Japanese training receipts) is not printed, and a Latin address without a digit is no address
// even when printed ("GST SUMMARY", "NOT RETURNABLE, THANK"; 2 of 545 SROIE training addresses have no digit).
bool address_not_printed(const std::string& text, const std::string& addr) {
    if (extract::has_cjk(addr)) return !extract::has_cjk(text);
    if (!extract::has_ascii_digit(addr) && !extract::has_cjk(text)) return true;
    if (extract::text_is_printed(text, addr, kAddressLines)) return false;
    const std::string a = extract::strip_spaces(addr);
    return extract::substring_edit_distance(a, extract::strip_spaces(text)) > kAddressRedoEdits * double(a.size());
}

// The value of `key` in a constrained pass's output that ended after that field ("... | addr: X |"): the text up
// to the last '|' is parsed. "" when the output has no '|' after the field (it was cut off).
std::string finished_field(const std::string& target, const char* key) {
    return field_before(target, target.rfind('|'), key);
}

// The first tokens of `ids` up to where the output is in the `tag` field (its "tag:" written, its value not yet
// begun); empty when the output never gets there or the token that ends the tag already starts the value.
std::vector<int> prefix_to_field(const std::vector<std::string>& texts, const std::vector<int>& ids,
                                 const std::string& tag) {
    std::vector<int> prefix;
    for (int id : ids) {
        prefix.push_back(id);
        const extract::TargetSegment seg = extract::current_segment(texts, prefix);
        if (seg.tag != tag) continue;
        return seg.value.find_first_not_of(' ') == std::string::npos ? prefix : std::vector<int>{};
    }
    return {};
}

// The first n lines of a receipt text (a store name is printed at the top: on SROIE validation and the Japanese
// development set within the first three lines).
std::string leading_lines(const std::string& text, int n) {
    size_t pos = 0;  // start of line i
    for (int i = 0; i < n; ++i) {
        const size_t nl = text.find('\n', pos);
        if (nl == std::string::npos) return text;
        pos = nl + 1;
    }
    return text.substr(0, pos - 1);  // n > 0 lines, without the newline after the last
}

}  // namespace

int Extractor::count_tokens(const std::string& text) const {
    return static_cast<int>(tokenizer_->encode(extract::split_row_amounts(extract::model_input_text(text))).size());
}
int Extractor::max_input_tokens() const { return max_input_tokens_; }
Device Extractor::device() const { return engine_->device(); }
std::string Extractor::describe() const { return engine_->describe(); }

SpeculationStats Extractor::speculation_stats() const { return engine_->speculation_stats(); }

std::vector<Extraction> Extractor::extract(const std::vector<std::string>& raw_texts, const ExtractOptions& options) {
    const size_t n = raw_texts.size();
    std::vector<std::string> texts(n);  // as the model and the post-checks read them (extract/input_text.h)
    std::vector<std::vector<int>> ids(n);
    std::vector<std::vector<std::string>> warnings(n);
    for (size_t i = 0; i < n; ++i) {
        const std::string which = n == 1 ? "the receipt" : "receipt " + std::to_string(i);  // in messages
        const std::string& raw = raw_texts[i];
        // The model reads UTF-8; another encoding (Shift_JIS OCR output, a binary file) would be read as noise.
        if (const size_t bad = extract::invalid_utf8_offset(raw); bad != std::string::npos) {
            static const char* hex = "0123456789abcdef";
            const auto b = static_cast<unsigned char>(raw[bad]);
            const std::string byte = {hex[b >> 4], hex[b & 15]};
            RECEIPT_THROW(InvalidInput, which + " is not UTF-8 text (byte 0x" + byte + " at offset " +
                                            std::to_string(bad) +
                                            "); convert it first, e.g. iconv -f SHIFT_JIS -t UTF-8 for Shift_JIS");
        }
        texts[i] = extract::model_input_text(raw);
        RECEIPT_CHECK(!texts[i].empty(), InvalidInput, which + " has empty text");
        if (options.split_rows) texts[i] = extract::split_row_amounts(texts[i]);
        ids[i] = tokenizer_->encode(texts[i]);
        const int n_tokens = static_cast<int>(ids[i].size());
        if (n_tokens > max_input_tokens_) {
            RECEIPT_CHECK(options.truncate, InvalidInput,
                          which + " has " + std::to_string(n_tokens) +
                              " tokens, more than the model's maximum of " + std::to_string(max_input_tokens_));
            ids[i].resize(max_input_tokens_ - 1);
            ids[i].push_back(tokenizer_->eos_id());
            warnings[i].push_back("input_truncated: " + std::to_string(n_tokens) + " tokens cut to " +
                                  std::to_string(max_input_tokens_));
        }
    }
    // Generate in order of length so that each engine batch holds similar lengths (less padding).
    std::vector<size_t> order(n);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return ids[a].size() < ids[b].size(); });
    std::vector<std::vector<int>> sorted(n);
    for (size_t k = 0; k < n; ++k) sorted[k] = ids[order[k]];
    GenerationOptions gen = options.generation;
    if (gen.draft_context.empty()) gen.draft_context = vocabs_->draft_context;
    const bool greedy = gen.num_beams == 1 && n;
    std::vector<std::string> sorted_texts(n);
    for (size_t k = 0; k < n; ++k) sorted_texts[k] = texts[order[k]];
    if (options.copy_numbers && greedy)
        gen.logits_processor = std::make_shared<extract::CopyConstraint>(vocabs_->copy, sorted_texts);
    std::vector<GenerationResult> results = n ? engine_->generate(sorted, gen) : std::vector<GenerationResult>{};
    std::vector<Extraction> out(n);
    for (size_t k = 0; k < n; ++k) {
        const size_t i = order[k];
        Extraction& e = out[i];
        e.n_input_tokens = static_cast<int>(ids[i].size());
        e.n_output_tokens = static_cast<int>(results[k].ids.size());
        e.target_text = tokenizer_->decode(results[k].ids);
        const bool hit_limit = results[k].ids.empty() || results[k].ids.back() != tokenizer_->eos_id();
        if (hit_limit)
            warnings[i].push_back("output_truncated: generation stopped at max_new_tokens " +
                                  std::to_string(options.generation.max_new_tokens));
        e.fields_json = parse_target_to_json(e.target_text, warnings[i]);
    }
    // The steps below patch the parsed fields of each receipt (indexed like texts); each is written back once.
    std::vector<nlohmann::ordered_json> fields(n);
    for (size_t i = 0; i < n; ++i) fields[i] = nlohmann::ordered_json::parse(out[i].fields_json);
    // A store name that is not printed in the receipt is written again by a short pass that copies it from the
    // printed text (extract/name_constraint.h); the other fields stay from the pass above.
    if (options.copy_name && greedy) {
        std::vector<size_t> redo;  // positions k in the sorted order
        for (size_t k = 0; k < n; ++k) {
            const auto& name = fields[order[k]]["supplier_name"];
            // A name printed but for one character that OCR dropped is the model's reading of the damaged print.
            if (name.is_string() && !extract::name_is_printed(sorted_texts[k], name.get<std::string>()) &&
                !extract::name_printed_but_one(leading_lines(sorted_texts[k], extract::kNameLines),
                                               name.get<std::string>()))
                redo.push_back(k);
        }
        if (!redo.empty()) {
            std::vector<std::vector<int>> redo_ids;
            std::vector<std::string> redo_texts;
            for (size_t k : redo) {
                redo_ids.push_back(sorted[k]);
                redo_texts.push_back(leading_lines(sorted_texts[k], extract::kNameLines));
            }
            GenerationOptions name_gen = options.generation;
            name_gen.draft_context = gen.draft_context;
            name_gen.max_new_tokens = std::min(name_gen.max_new_tokens, kNamePassTokens);
            name_gen.logits_processor = std::make_shared<extract::NameConstraint>(vocabs_->name, redo_texts);
            const std::vector<GenerationResult> name_results = engine_->generate(redo_ids, name_gen);
            for (size_t j = 0; j < redo.size(); ++j) {
                const std::vector<int>& got = name_results[j].ids;
                const auto byte_piece = [&](int id) {
                    const auto& t = vocabs_->name->texts;
                    return id >= 0 && size_t(id) < t.size() && t[size_t(id)].size() == 1 &&
                           static_cast<unsigned char>(t[size_t(id)][0]) >= 0x80;
                };
                const bool eos = !got.empty() && got.back() == tokenizer_->eos_id();
                const bool ended = eos && std::any_of(got.begin(), got.end(), byte_piece);
                const std::string target = tokenizer_->decode(got);
                std::string name = finished_name(target, ended);
                // Ended with EOS after a name in vocabulary pieces: on a Japanese receipt a whole header line stands
                // (a chain printed above its branch line, "ナチュラルローソン": the post-checks add the branch);
                // elsewhere such a name was a piece of the address (SROIE validation).
                if (name.empty() && eos && extract::has_cjk(redo_texts[j])) {
                    const std::string copied = field_before(target, target.size(), "supplier_name");
                    if (is_whole_line(redo_texts[j], copied)) name = copied;
                }
                if (!name.empty()) fields[order[redo[j]]]["supplier_name"] = name;
            }
        }
    }
    // An address that is not printed on the receipt (often a memorised address of another shop) becomes the printed
    // address block above a postcode line (extract/address_block.h) when there is one, else the address lines
    // below the store name and company lines; else it is written again by a pass that repeats the output up to
    // "addr:" and then copies the address from the printed text.
    if (options.copy_address && greedy) {
        std::vector<size_t> redo;  // positions k in the sorted order
        std::vector<std::vector<int>> prefixes;
        for (size_t k = 0; k < n; ++k) {
            auto& f = fields[order[k]];
            const auto& addr = f["supplier_address"];
            if (!addr.is_string() || !address_not_printed(sorted_texts[k], addr.get<std::string>())) continue;
            // A Latin-script address that reads the print through OCR damage (extract/latin_address.h) stays, unless
            // a printed block below has more words (the model left lines out).
            const bool reads = extract::address_reads_print(sorted_texts[k], addr.get<std::string>());
            const auto keeps = [&](const std::string& block) {
                return reads && extract::address_words(addr.get<std::string>()).size() >=
                                    extract::address_words(block).size();
            };
            const auto& name = f["supplier_name"];
            if (auto block = extract::address_block(sorted_texts[k], name.is_string() ? name.get<std::string>() : "")) {
                if (!keeps(*block)) f["supplier_address"] = *block;
                continue;
            }
            if (auto block = extract::header_address_block(sorted_texts[k])) {
                if (!keeps(*block)) f["supplier_address"] = *block;
                continue;
            }
            if (reads) continue;
            std::vector<int> prefix = prefix_to_field(vocabs_->name->texts, results[k].ids, "addr");
            if (prefix.empty()) continue;
            redo.push_back(k);
            prefixes.push_back(std::move(prefix));
        }
        if (!redo.empty()) {
            std::vector<std::vector<int>> redo_ids;
            std::vector<std::string> redo_texts;
            size_t longest = 0;
            for (size_t j = 0; j < redo.size(); ++j) {
                redo_ids.push_back(sorted[redo[j]]);
                redo_texts.push_back(sorted_texts[redo[j]]);
                longest = std::max(longest, prefixes[j].size());
            }
            GenerationOptions addr_gen = options.generation;
            addr_gen.draft_context = gen.draft_context;
            addr_gen.max_new_tokens = std::min<int>(addr_gen.max_new_tokens, int(longest) + kAddressPassTokens);
            addr_gen.logits_processor = std::make_shared<extract::NameConstraint>(
                vocabs_->name, redo_texts, extract::PrintedField{"addr", kAddressLines}, prefixes);
            const std::vector<GenerationResult> addr_results = engine_->generate(redo_ids, addr_gen);
            for (size_t j = 0; j < redo.size(); ++j) {
                const std::string addr = finished_field(tokenizer_->decode(addr_results[j].ids), "supplier_address");
                if (!addr.empty()) fields[order[redo[j]]]["supplier_address"] = addr;
            }
        }
    }
    // The post-checks (a few ms of regular expressions per receipt) run on every CPU thread, a receipt each: on a
    // GPU they were the largest host cost of a wide batch (docs/server.md). They share only read-only state.
    std::vector<std::exception_ptr> failed(n);
#pragma omp parallel for num_threads(ops::cpu_threads()) schedule(dynamic) if (n > 1)
    for (long i = 0; i < long(n); ++i) {
        try {
            nlohmann::ordered_json& f = fields[size_t(i)];
            extract::apply_post_checks(texts[size_t(i)], out[size_t(i)].target_text, options, f,
                                       options.known_names ? known_.get() : nullptr);
            out[size_t(i)].fields_json = f.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
        } catch (...) {
            failed[size_t(i)] = std::current_exception();  // no exception may leave an OpenMP region
        }
    }
    for (const std::exception_ptr& e : failed)
        if (e) std::rethrow_exception(e);
    return out;
}

std::string default_model_dir(const std::string& exe_path, const std::string& source_dir) {
    namespace fs = std::filesystem;
    if (const char* env = std::getenv("RECEIPT_MODEL_DIR"); env && *env) return env;
    std::vector<fs::path> candidates;
    std::error_code ec;
    fs::path exe = fs::weakly_canonical(fs::path(exe_path), ec);
    if (!ec) candidates.push_back(exe.parent_path() / ".." / "share" / "receipt-engine" / "models" / "receipt-t5-small");
    if (!source_dir.empty()) candidates.push_back(fs::path(source_dir) / "models" / "receipt-t5-small");
    for (const auto& c : candidates)
        if (fs::exists(c / "config.json")) return fs::weakly_canonical(c, ec).string();
    std::string tried;
    for (const auto& c : candidates) {
        tried += ' ';  // appended in two steps: g++ 12 warns (-Wrestrict) on " " + string here
        tried += c.string();
    }
    RECEIPT_THROW(ModelError, "no default model found (tried" + tried + "); pass --model DIR or set RECEIPT_MODEL_DIR");
}

}  // namespace receipt
