// Randomised robustness of what runs on untrusted text after decoding: parse_target on mutated model outputs,
// then apply_post_checks on mutated receipt texts (OCR-like damage, lines dropped, repeated and swapped, stray
// characters of every script the checks read, invalid UTF-8). Each case must end in a schema object (every key,
// a warnings array) that serialises as JSON: no exception, no crash, whatever the input. Deterministic seeds;
// RECEIPT_FUZZ_CASES=N and RECEIPT_FUZZ_SEED=S run a longer or another campaign by hand.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

#include "extract/post_checks.h"
#include "extract/target_parser.h"
#include "receipt/extractor.h"

namespace ex = receipt::extract;

namespace {

struct Seed {
    std::string text, target;
};

// train/samples/train_sample.jsonl: 20 receipts (CORD, synthetic Japanese and English) with their targets.
std::vector<Seed> seeds() {
    std::vector<Seed> out;
    std::ifstream in(std::string(RECEIPT_SOURCE_DIR) + "/train/samples/train_sample.jsonl");
    for (std::string line; std::getline(in, line);) {
        if (line.empty()) continue;
        const auto j = nlohmann::json::parse(line);
        out.push_back({j.at("text").get<std::string>(), j.at("target").get<std::string>()});
    }
    return out;
}

// Pieces the checks look for: digits and their OCR look-alikes, separators, currency marks, keywords, kana,
// kanji, full-width forms, and bytes that are not UTF-8.
const std::vector<std::string>& pieces() {
    static const std::vector<std::string> p = {
        "0",     "1",     "7",       "9",     "O",      "l",    "I",        "Z",        "S",      "B",
        "-",     "ー",    "―",       ":",     "/",      ".",    ",",        " ",        "  ",     "\n",
        "\t",    "¥",     "\\",      "円",    "$",      "RM",   "TOTAL",    "SUBTOTAL", "GST",    "TAX",
        "合計",  "小計",  "内税",    "外税",  "消費税", "(8%",  "10%対象",  "お預り",   "お釣り", "値引",
        "割引",  "TEL",   "電話",    "〒",    "東京都", "区",   "丁目",     "番",       "号",     "-1-",
        "令和",  "平成",  "年",      "月",    "日",     "時",   "分",       "(火)",     "2024/",  "12:3",
        "AM",    "PM",    "SDN BHD", "JALAN", "NO.",    "店",   "株式会社", "ｶﾞ",       "ｱ",      "ア",
        "イ",    "１",    "２",      "：",    "￥",     "，",   "．",       "item:",    " | ",    " ; ",
        "name:", "addr:", "total:",  "date:", "time:",  "\xff", "\xe3\x81", "\xc3",     "\x80",   "\0"};
    return p;
}

std::string mutate_chars(std::string s, std::mt19937& rng, int n_edits) {
    const auto& p = pieces();
    for (int e = 0; e < n_edits && !s.empty(); ++e) {
        const size_t at = std::uniform_int_distribution<size_t>(0, s.size() - 1)(rng);
        switch (std::uniform_int_distribution<int>(0, 3)(rng)) {
            case 0:  // insert a piece
                s.insert(at, p[std::uniform_int_distribution<size_t>(0, p.size() - 1)(rng)]);
                break;
            case 1:  // delete a few bytes (may cut a UTF-8 sequence)
                s.erase(at, std::uniform_int_distribution<size_t>(1, 4)(rng));
                break;
            case 2:  // replace a byte by a piece
                s.replace(at, 1, p[std::uniform_int_distribution<size_t>(0, p.size() - 1)(rng)]);
                break;
            default:  // repeat a span
                s.insert(at, s.substr(at, std::uniform_int_distribution<size_t>(1, 40)(rng)));
        }
    }
    return s;
}

std::string mutate_lines(const std::string& text, std::mt19937& rng) {
    std::vector<std::string> lines;
    for (size_t start = 0; start <= text.size();) {
        const size_t nl = std::min(text.find('\n', start), text.size());
        lines.push_back(text.substr(start, nl - start));
        start = nl + 1;
    }
    const int n_ops = std::uniform_int_distribution<int>(0, 6)(rng);
    for (int i = 0; i < n_ops && !lines.empty(); ++i) {
        const size_t a = std::uniform_int_distribution<size_t>(0, lines.size() - 1)(rng);
        const size_t b = std::uniform_int_distribution<size_t>(0, lines.size() - 1)(rng);
        switch (std::uniform_int_distribution<int>(0, 3)(rng)) {
            case 0:
                std::swap(lines[a], lines[b]);
                break;  // boxes out of order
            case 1:
                lines.erase(lines.begin() + long(a));
                break;  // a box lost
            case 2:
                lines.insert(lines.begin() + long(a), lines[b]);
                break;  // a box read twice
            default:
                lines[a] += " " + lines[b];  // two boxes merged
        }
    }
    std::string out;
    for (size_t i = 0; i < lines.size(); ++i) out += (i ? "\n" : "") + lines[i];
    return out;
}

void expect_schema_object(const nlohmann::ordered_json& f, const std::string& what) {
    for (const char* key : {"supplier_name", "supplier_address", "supplier_phone", "receipt_date", "purchase_time",
                            "currency", "line_items", "net_amount", "total_tax_amount", "total_amount"})
        ASSERT_TRUE(f.contains(key)) << what << ": no " << key;
    ASSERT_TRUE(f["line_items"].is_array()) << what;
    ASSERT_TRUE(f["warnings"].is_array()) << what;
    ASSERT_NO_THROW((void)f.dump()) << what << ": not serialisable";
}

}  // namespace

TEST(PostChecksFuzz, MutatedTextsAndTargetsGiveSchemaObjects) {
    const std::vector<Seed> base = seeds();
    ASSERT_GE(base.size(), 10u);
    const char* seed_env = std::getenv("RECEIPT_FUZZ_SEED");
    const char* cases_env = std::getenv("RECEIPT_FUZZ_CASES");
    std::mt19937 rng(seed_env ? unsigned(std::strtoul(seed_env, nullptr, 10)) : 20261204u);
    receipt::ExtractOptions all_on;
    receipt::ExtractOptions all_off;
    all_off.copy_numbers = all_off.copy_name = all_off.copy_address = all_off.copy_date = false;
    const int kCases = cases_env ? std::atoi(cases_env) : 1500;
    for (int c = 0; c < kCases; ++c) {
        const Seed& s = base[size_t(c) % base.size()];
        // Mix a second receipt's text in now and then (a target that does not belong to the text).
        const Seed& other = base[std::uniform_int_distribution<size_t>(0, base.size() - 1)(rng)];
        std::string text = mutate_lines(c % 7 == 0 ? other.text : s.text, rng);
        text = mutate_chars(text, rng, std::uniform_int_distribution<int>(0, 30)(rng));
        std::string target = mutate_chars(s.target, rng, std::uniform_int_distribution<int>(0, 20)(rng));
        if (c % 11 == 0) target = target.substr(0, target.size() / 2);  // cut off mid-generation
        const std::string what = "case " + std::to_string(c);
        nlohmann::ordered_json f;
        ASSERT_NO_THROW(f = nlohmann::ordered_json::parse(ex::parse_target(target).dump())) << what;
        ASSERT_NO_THROW(ex::apply_post_checks(text, target, c % 2 ? all_on : all_off, f)) << what;
        expect_schema_object(f, what);
    }
}

TEST(PostChecksFuzz, DegenerateTexts) {
    const receipt::ExtractOptions opts;
    const std::string target = "name: A | total: 1";
    for (const std::string& text :
         {std::string(), std::string("\n\n\n"), std::string(5000, '1'), std::string(3000, '\n'),
          std::string("\xff\xfe\xfd"), std::string("合計") + std::string(2000, '9'), std::string(1000, ' ') + "円"}) {
        nlohmann::ordered_json f = nlohmann::ordered_json::parse(ex::parse_target(target).dump());
        ASSERT_NO_THROW(ex::apply_post_checks(text, target, opts, f)) << text.substr(0, 20);
        expect_schema_object(f, text.substr(0, 20));
    }
}
