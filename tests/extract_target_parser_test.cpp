// Target text <-> schema JSON: shared examples (also checked by train/target_format.py --selftest), raw values,
// malformed / truncated / adversarial model output, and round trips.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "extract/target_parser.h"
#include "receipt/errors.h"
#include "receipt/receipt_schema.h"

namespace ex = receipt::extract;
using nlohmann::json;

namespace {

json load_examples() {
    std::ifstream in(std::string(RECEIPT_SOURCE_DIR) + "/tests/extract_target_examples.json");
    std::stringstream ss;
    ss << in.rdbuf();
    return json::parse(ss.str())["examples"];
}

json without_warnings(json j) {
    j.erase("warnings");
    return j;
}

bool has_warning(const json& fields, const std::string& code) {
    for (const json& w : fields["warnings"]) {
        if (w.get<std::string>().rfind(code + ":", 0) == 0) return true;
    }
    return false;
}

// Every result must be an object with all schema keys, an array of items and an array of string warnings,
// and must serialise without throwing.
void expect_well_formed(const json& j) {
    ASSERT_TRUE(j.is_object());
    for (const std::string& key : receipt::receipt_field_names()) EXPECT_TRUE(j.contains(key)) << key;
    EXPECT_TRUE(j["line_items"].is_array());
    ASSERT_TRUE(j["warnings"].is_array());
    for (const json& w : j["warnings"]) EXPECT_TRUE(w.is_string());
    EXPECT_NO_THROW((void)j.dump());
    for (const char* k : {"net_amount", "total_tax_amount", "total_amount"}) {
        EXPECT_TRUE(j[k].is_null() || j[k].is_number()) << k;
    }
}

}  // namespace

TEST(TargetExamples, FieldsToTargetAndBack) {
    const json examples = load_examples();
    ASSERT_GE(examples.size(), 5u);
    for (const json& ex : examples) {
        SCOPED_TRACE(ex["name"].get<std::string>());
        EXPECT_EQ(ex::fields_to_target(ex["fields"]), ex["target"].get<std::string>());
        const json parsed = ex::parse_target(ex["target"].get<std::string>());
        expect_well_formed(parsed);
        EXPECT_EQ(without_warnings(parsed), ex.contains("parsed") ? ex["parsed"] : ex["fields"]);
        // Parsing is a fixed point: parse(write(parse(t))) == parse(t).
        EXPECT_EQ(without_warnings(ex::parse_target(ex::fields_to_target(parsed))), without_warnings(parsed));
    }
}

TEST(TargetExamples, CanonicalExamplesHaveNoParseWarnings) {
    for (const json& ex : load_examples()) {
        const json parsed = ex::parse_target(ex["target"].get<std::string>());
        for (const json& w : parsed["warnings"]) {
            // Only validation warnings are expected (the examples include an item without amount).
            EXPECT_EQ(w.get<std::string>().rfind("items_sum_mismatch:", 0), 0u) << ex["name"] << ": " << w;
        }
    }
}

TEST(TargetFormat, NumberFormatting) {
    EXPECT_EQ(ex::format_amount(1080, false), "1080");
    EXPECT_EQ(ex::format_amount(1080, true), "1080.00");
    EXPECT_EQ(ex::format_amount(12.5, false), "12.50");
    EXPECT_EQ(ex::format_amount(-50, false), "-50");
    EXPECT_EQ(ex::format_amount(-0.0, false), "0");
    EXPECT_EQ(ex::format_amount(0.125, true), "0.125");
    EXPECT_EQ(ex::format_amount(1e20, false), "100000000000000000000");
    EXPECT_EQ(ex::format_amount(NAN, false), "");
    EXPECT_EQ(ex::format_quantity(1.5), "1.5");
    EXPECT_EQ(ex::format_quantity(2), "2");
    EXPECT_EQ(ex::shortest_decimal(0.1 + 0.2), "0.30000000000000004");
}

TEST(TargetFormat, WriterIgnoresJunk) {
    EXPECT_EQ(ex::fields_to_target(json::array()), "");
    EXPECT_EQ(ex::fields_to_target(json("text")), "");
    json f = {{"supplier_name", 42}, {"total_amount", "1,080"}, {"line_items", json::array({1, "x", json::object()})},
              {"warnings", {"a"}},   {"other", "ignored"},      {"currency", true}};
    EXPECT_EQ(ex::fields_to_target(f), "name: 42 | total: 1,080");
}

TEST(TargetParser, RawValuesAreNormalised) {
    const json j = ex::parse_target(
        "name: ｾﾌﾞﾝ  店 | addr: 〒160-0023 東京都新宿区 | tel: TEL 03-1234-5678 | date: 2019年1月5日 | "
        "time: 午後2:05 | cur: ¥ | item: パン ; 2個 ; ¥150 ; ¥300 | item: 値引 ; ; ; ▲50 | net: 1,080円 | "
        "tax: \\80 | total: ￥1,160");
    expect_well_formed(j);
    EXPECT_EQ(j["supplier_name"], "ｾﾌﾞﾝ 店");
    EXPECT_EQ(j["supplier_address"], "東京都新宿区");
    EXPECT_EQ(j["supplier_phone"], "03-1234-5678");
    EXPECT_EQ(j["receipt_date"], "2019-01-05");
    EXPECT_EQ(j["purchase_time"], "14:05");
    EXPECT_EQ(j["currency"], "JPY");
    EXPECT_EQ(j["line_items"][0],
              json({{"description", "パン"}, {"quantity", 2}, {"unit_price", 150}, {"amount", 300}}));
    EXPECT_EQ(j["line_items"][1]["amount"], -50);
    EXPECT_EQ(j["net_amount"], 1080);
    EXPECT_EQ(j["total_tax_amount"], 80);
    EXPECT_EQ(j["total_amount"], 1160);
}

TEST(TargetParser, JapaneseContextDates) {
    EXPECT_EQ(ex::parse_target("cur: JPY | date: 24/05/01")["receipt_date"], "2024-05-01");
    EXPECT_EQ(ex::parse_target("name: ローソン | date: 24/05/01")["receipt_date"], "2024-05-01");
    EXPECT_EQ(ex::parse_target("date: 24/05/01")["receipt_date"], "2001-05-24");
    EXPECT_EQ(ex::parse_target("cur: USD | date: 05/01/24")["receipt_date"], "2024-05-01");
    EXPECT_EQ(ex::parse_target("date: 令和6年5月1日")["receipt_date"], "2024-05-01");
    EXPECT_EQ(ex::parse_target("date: H31.4.30")["receipt_date"], "2019-04-30");
}

TEST(TargetParser, TruncatedGeneration) {
    const json j = ex::parse_target("name: Shop | item: Coffee ; 1 ; 3.50 ; 3.50 | item: Tea ; 2");
    expect_well_formed(j);
    ASSERT_EQ(j["line_items"].size(), 2u);
    EXPECT_EQ(j["line_items"][1]["description"], "Tea");
    EXPECT_EQ(j["line_items"][1]["quantity"], 2);
    EXPECT_TRUE(j["line_items"][1]["amount"].is_null());
    EXPECT_TRUE(has_warning(j, "truncated_item"));

    const json k = ex::parse_target("name: Shop | total: 10 | ta");
    EXPECT_EQ(k["total_amount"], 10);
    EXPECT_TRUE(has_warning(k, "missing_key"));

    const json d = ex::parse_target("date: 2024-0");
    EXPECT_TRUE(d["receipt_date"].is_null());
    EXPECT_TRUE(has_warning(d, "invalid_value"));

    const json cut = ex::parse_target("name: Shop | item: Cof");
    EXPECT_EQ(cut["line_items"][0]["description"], "Cof");
    EXPECT_EQ(ex::parse_target("name: Shop | item:")["line_items"].size(), 0u);
}

TEST(TargetParser, UnknownDuplicateAndEmptyKeys) {
    const json j = ex::parse_target("name: A | color: red | name: B | total: 5 | total: 6 | tax: | | NET: 4");
    expect_well_formed(j);
    EXPECT_EQ(j["supplier_name"], "A");
    EXPECT_EQ(j["total_amount"], 5);
    EXPECT_EQ(j["net_amount"], 4);  // keys are case-insensitive
    EXPECT_TRUE(j["total_tax_amount"].is_null());
    EXPECT_TRUE(has_warning(j, "unknown_key"));
    EXPECT_TRUE(has_warning(j, "duplicate_key"));
    EXPECT_TRUE(has_warning(j, "empty_value"));
    EXPECT_TRUE(has_warning(j, "empty_segment"));
    // A later duplicate fills a value the first one could not provide.
    EXPECT_EQ(ex::parse_target("date: soon | date: 2024-01-02")["receipt_date"], "2024-01-02");
}

TEST(TargetParser, GarbageNumbers) {
    const json j =
        ex::parse_target("item: A ; lots ; NaN ; 1e999 | net: inf | tax: 99999999999999999999999999 | total: 1O8O");
    expect_well_formed(j);
    EXPECT_TRUE(j["net_amount"].is_null());
    EXPECT_TRUE(j["total_tax_amount"].is_null());
    EXPECT_TRUE(j["total_amount"].is_null());
    EXPECT_EQ(j["line_items"][0]["description"], "A");
    EXPECT_TRUE(j["line_items"][0]["quantity"].is_null());
    EXPECT_TRUE(has_warning(j, "invalid_amount"));
    EXPECT_TRUE(has_warning(j, "invalid_quantity"));
}

// tax may be written as the printed per-rate taxes joined by " + "; the parser adds them.
TEST(TargetParser, TaxAsSumOfPrintedParts) {
    json j = ex::parse_target("cur: JPY | net: 5445 | tax: 424 + 13 | total: 5882");
    expect_well_formed(j);
    EXPECT_EQ(j["total_tax_amount"], 437);
    EXPECT_TRUE(j["warnings"].empty()) << j.dump();
    j = ex::parse_target("cur: MYR | tax: 1.10 + 2.20 + 0.05 | total: 10.00");
    EXPECT_DOUBLE_EQ(j["total_tax_amount"].get<double>(), 3.35);
    j = ex::parse_target("tax: 424 + | total: 5882");  // a truncated or bad term voids the value, with a warning
    expect_well_formed(j);
    EXPECT_TRUE(j["total_tax_amount"].is_null());
    EXPECT_TRUE(has_warning(j, "invalid_amount"));
    EXPECT_EQ(j["total_amount"], 5882);
    j = ex::parse_target("net: 1 + 2 | total: 3");  // only tax takes the sum form
    EXPECT_TRUE(j["net_amount"].is_null());
}

TEST(TargetParser, MissingSeparators) {
    const json j = ex::parse_target("name: Shop | item: A ; 1 ; 2 ; 2 item: B ; 1 ; 3 ; 3 net: 5 tax: 0 | total 5");
    expect_well_formed(j);
    ASSERT_EQ(j["line_items"].size(), 2u);
    EXPECT_EQ(j["line_items"][1]["description"], "B");
    EXPECT_EQ(j["net_amount"], 5);
    EXPECT_EQ(j["total_tax_amount"], 0);
    EXPECT_EQ(j["total_amount"], 5);
    EXPECT_TRUE(has_warning(j, "missing_separator"));
    EXPECT_TRUE(has_warning(j, "missing_colon"));
    // An earlier key inside a later value is text, not a separator.
    EXPECT_EQ(ex::parse_target("total: 5 | item: Service tax: 10% ; 1 ; 5 ; 5")["line_items"][0]["description"],
              "Service tax: 10%");
}

TEST(TargetParser, NestedSeparatorsInItems) {
    const json j = ex::parse_target("item: a ; b ; c ; 1 ; 2 ; 2 | item: x ; ; ; ; ; 3");
    expect_well_formed(j);
    EXPECT_EQ(j["line_items"][0]["description"], "a/b/c");
    EXPECT_EQ(j["line_items"][0]["amount"], 2);
    EXPECT_EQ(j["line_items"][1]["amount"], 3);
    EXPECT_EQ(j["line_items"][1]["description"], "x");  // empty extra parts are dropped
    EXPECT_TRUE(has_warning(j, "extra_item_fields"));
    // A number written twice is dropped, not joined to the description; text with digits is kept.
    const json twice = ex::parse_target("item: キャベツ ; 1 ; 1 ; 198 ; 198 | item: 牛乳 ; 1,000 ; 1 ; 220 ; 220");
    EXPECT_EQ(twice["line_items"][0]["description"], "キャベツ");
    EXPECT_EQ(twice["line_items"][0]["quantity"], 1);
    EXPECT_EQ(twice["line_items"][0]["amount"], 198);
    EXPECT_EQ(twice["line_items"][1]["description"], "牛乳");
    EXPECT_EQ(ex::parse_target("item: a ; 2L ; 1 ; 5 ; 5")["line_items"][0]["description"], "a/2L");
    // Two items run together, the second one's description lost: the first keeps its parts, the rest goes.
    const json merged = ex::parse_target("item: 料理酒 ; 1 ; 179 ; 17 ; 1 ; 303 ; 303 | item: 麦茶 2L ; 1 ; 120 ; 120");
    ASSERT_EQ(merged["line_items"].size(), 2u);
    EXPECT_EQ(merged["line_items"][0]["description"], "料理酒");
    EXPECT_EQ(merged["line_items"][0]["quantity"], 1);
    EXPECT_EQ(merged["line_items"][0]["unit_price"], 179);
    EXPECT_EQ(merged["line_items"][0]["amount"], 17);
    EXPECT_TRUE(has_warning(merged, "merged_items"));
    // Not when the parts are no plain quantity and amount: a description with ';' in it.
    EXPECT_EQ(ex::parse_target("item: a ; b ; c ; d ; 1 ; 2 ; 2")["line_items"][0]["description"], "a/b/c/d");
    EXPECT_EQ(ex::parse_target("item: a ; 1 ; 2x ; b ; 1 ; 2 ; 2")["line_items"][0]["description"], "a/1/2x/b");
    EXPECT_EQ(ex::parse_target("name: a: b: c")["supplier_name"], "a: b: c");
    EXPECT_EQ(ex::parse_target("name：全角 ｜ total：１，０８０")["total_amount"], 1080);
}

TEST(TargetParser, Adversarial) {
    expect_well_formed(ex::parse_target(""));
    expect_well_formed(ex::parse_target(std::string(10000, '|')));
    expect_well_formed(ex::parse_target(std::string(10000, ';')));
    expect_well_formed(ex::parse_target(std::string(10000, ':')));
    expect_well_formed(ex::parse_target(std::string(100000, 'a')));
    expect_well_formed(ex::parse_target(std::string("name: \0x | total: 5", 18)));
    std::string many_items;
    for (int i = 0; i < 2000; ++i) many_items += "item: x ; 1 ; 1 ; 1 | ";
    const json j = ex::parse_target(many_items);
    expect_well_formed(j);
    EXPECT_EQ(j["line_items"].size(), ex::kMaxLineItems);
    EXPECT_LE(j["warnings"].size(), ex::kMaxWarnings + 1);
    std::string junk;
    for (int i = 0; i < 5000; ++i) junk += "zz: " + std::to_string(i) + " | ";
    const json w = ex::parse_target(junk);
    EXPECT_EQ(w["warnings"].size(), ex::kMaxWarnings + 1);
    EXPECT_TRUE(has_warning(w, "warnings_truncated"));
    const json long_name = ex::parse_target("name: " + std::string(5000, 'n'));
    EXPECT_EQ(long_name["supplier_name"].get<std::string>().size(), ex::kMaxValueBytes);
    EXPECT_TRUE(has_warning(long_name, "value_too_long"));
    // Every byte value, in a pseudo-random mix with separators, never throws.
    uint32_t seed = 12345;
    for (int round = 0; round < 300; ++round) {
        std::string s;
        for (int i = 0; i < 200; ++i) {
            seed = seed * 1664525u + 1013904223u;
            const char pool[] = "|;: 0123456789.,-()itemnamtaxoldcr\xE5\xB9\xB4\xff\xc3";
            s += (seed >> 24) % 3 == 0 ? static_cast<char>(seed >> 16) : pool[(seed >> 16) % (sizeof(pool) - 1)];
        }
        expect_well_formed(ex::parse_target(s));
    }
}

TEST(TargetParser, InvalidUtf8) {
    const json j = ex::parse_target("name: Caf\xe9 \xff\xfe | addr: \xe6\x9d\xb1\xe4 | total: 5\xc3");
    expect_well_formed(j);
    EXPECT_EQ(j["supplier_name"], "Caf\xEF\xBF\xBD \xEF\xBF\xBD\xEF\xBF\xBD");
    EXPECT_TRUE(has_warning(j, "invalid_utf8"));
    EXPECT_TRUE(j["total_amount"].is_null());  // "5\uFFFD" is not a clean amount
    // Overlong encodings and surrogates are invalid too.
    EXPECT_TRUE(has_warning(ex::parse_target("name: \xc0\xaf \xed\xa0\x80"), "invalid_utf8"));
}

TEST(TargetParser, Deterministic) {
    const std::string t = "name: A | item: B ; x ; 1 ; 2 | total: 3 | zz: 1";
    EXPECT_EQ(ex::parse_target(t).dump(), ex::parse_target(t).dump());
}

TEST(PublicApi, ParseTargetToJson) {
    const std::string out =
        receipt::parse_target_to_json("name: 東京 | total: 1,080円", {"input_truncated: 600 tokens"});
    const json j = json::parse(out);
    EXPECT_EQ(j["supplier_name"], "東京");
    EXPECT_EQ(j["total_amount"], 1080);
    EXPECT_EQ(j["warnings"][0], "input_truncated: 600 tokens");
    EXPECT_NE(out.find("東京"), std::string::npos);      // not ASCII-escaped
    EXPECT_EQ(out.rfind("{\"supplier_name\":", 0), 0u);  // schema order
    EXPECT_LT(out.find("\"line_items\""), out.find("\"net_amount\""));
    EXPECT_NO_THROW(json::parse(receipt::parse_target_to_json("name: \xff")));
    EXPECT_NO_THROW(json::parse(receipt::parse_target_to_json("", {"bad \xff warning"})));
}

TEST(PublicApi, FieldsJsonToTarget) {
    EXPECT_EQ(receipt::fields_json_to_target(R"({"currency":"JPY","total_amount":1080})"), "cur: JPY | total: 1080");
    EXPECT_THROW(receipt::fields_json_to_target("not json"), receipt::InvalidInput);
    EXPECT_THROW(receipt::fields_json_to_target("[1]"), receipt::InvalidInput);
}
