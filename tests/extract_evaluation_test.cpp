// The extraction metric (extract/evaluation.h): value matching, per-field counts, SROIE label mapping.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "extract/evaluation.h"

namespace ex = receipt::extract;
using nlohmann::json;

TEST(Evaluation, ValuesMatch) {
    EXPECT_TRUE(ex::values_match(json("No.1,  Taman"), json(" NO.1, TAMAN")));  // case, runs of spaces, trim
    EXPECT_FALSE(ex::values_match(json("NO.1, TAMAN"), json("NO. 1, TAMAN")));
    EXPECT_TRUE(ex::values_match(json("NO.1, TAMAN"), json("NO. 1,TAMAN"), /*ignore_spaces=*/true));
    EXPECT_FALSE(ex::values_match(json("NO.1, TAMAN"), json("NO.1. TAMAN"), true));  // punctuation still counts
    EXPECT_TRUE(ex::values_match(json(80.9), json(80.904)));
    EXPECT_FALSE(ex::values_match(json(80.9), json(80.91)));
    EXPECT_TRUE(ex::values_match(json(nullptr), json(nullptr)));
    EXPECT_FALSE(ex::values_match(json("80.90"), json(80.9)));
}

TEST(Evaluation, ScoreCountsWrongValuesAsFalsePositiveAndNegative) {
    const json gold = ex::gold_fields(json{{"company", "ABC SDN BHD"}, {"address", "NO.1, JALAN X"},
                                           {"date", "25/12/2018"}, {"total", "RM80.90"}});
    EXPECT_EQ(gold["receipt_date"], "2018-12-25");
    EXPECT_DOUBLE_EQ(gold["total_amount"].get<double>(), 80.9);
    const std::vector<std::string> fields = ex::annotated_fields({gold});
    const json pred = {{"supplier_name", "ABC SDN BHD"}, {"supplier_address", "NO. 1, JALAN X"},
                       {"receipt_date", "2018-12-25"}, {"total_amount", nullptr}};
    ex::EvalScores s = ex::score_receipt(pred, gold, fields);
    EXPECT_EQ(s.fields["supplier_name"].tp, 1);
    EXPECT_EQ(s.fields["supplier_address"].fp, 1);
    EXPECT_EQ(s.fields["supplier_address"].fn, 1);
    EXPECT_EQ(s.fields["total_amount"].fn, 1);
    EXPECT_EQ(s.fields["total_amount"].fp, 0);
    EXPECT_EQ(s.n_exact, 0);
    s = ex::score_receipt(pred, gold, fields, /*ignore_spaces=*/true);
    EXPECT_EQ(s.fields["supplier_address"].tp, 1);
}

TEST(Evaluation, PrintedInFindsEveryPieceOfTheValue) {
    const std::string text = "ABC SDN BHD\nNO.1, TAMAN SRI\nDENGKIL, SELANGOR.\nTEL 03-1234 5678";
    EXPECT_TRUE(ex::printed_in("NO. 1, TAMAN SRI DENGKIL, SELANGOR.", text));  // spacing and line breaks differ
    EXPECT_TRUE(ex::printed_in("abc sdn bhd", text));                           // ASCII case
    EXPECT_TRUE(ex::printed_in("03-12345678", text));                           // the pieces across a space
    EXPECT_FALSE(ex::printed_in("NO.1, TAMAN SERI DENGKIL", text));             // a label typo
    EXPECT_FALSE(ex::printed_in("03-1234-5678", text));                         // a digit run never printed so
    EXPECT_FALSE(ex::printed_in("  ", text));                                   // nothing to find
    EXPECT_TRUE(ex::printed_in("ココカラファイン 世田谷店", "ココカラファイン\n世田谷店\n"));
    EXPECT_FALSE(ex::printed_in("ココカラファイン", "ココカラァイン\n"));  // OCR dropped a character
}

TEST(Evaluation, OcrMismatchesAreNotScored) {
    const json gold = {{"supplier_name", "SETIA MART"}, {"supplier_address", "JALAN SEITA 1"},
                       {"total_amount", 5.0},
                       {"line_items", json::array({{{"description", "TEH"}, {"amount", 2.0}},
                                                   {{"description", "KOPI O"}, {"amount", 3.0}}})}};
    const std::string text = "SETIA MART\nJALAN SETIA 1\nTEH 2.00\nK0PI O 3.00\nTOTAL 5.00";
    const std::vector<std::string> fields = ex::annotated_fields({gold});
    const json pred = {{"supplier_name", "SETIA MART"}, {"supplier_address", "JALAN SETIA 1"}, {"total_amount", 5.0},
                       {"line_items", json::array({{{"description", "TEH"}, {"amount", 2.0}},
                                                   {{"description", "K0PI O"}, {"amount", 3.0}}})}};
    ex::EvalScores s = ex::score_receipt(pred, gold, fields);  // strict: the address and one item are wrong
    EXPECT_EQ(s.fields["supplier_address"].fn, 1);
    EXPECT_EQ(s.items.tp, 1);
    EXPECT_EQ(s.items.fp, 1);
    EXPECT_EQ(s.n_exact, 0);
    ex::ScoreOptions o;
    o.exclude_ocr_mismatch = true;
    s = ex::score_receipt(pred, gold, fields, o, text);
    EXPECT_EQ(s.excluded["supplier_address"], 1);  // "SEITA" is printed nowhere
    EXPECT_EQ(s.excluded["line_items"], 1);        // nor is "KOPI": that item and the prediction with its amount
    EXPECT_EQ(s.fields["supplier_address"].tp + s.fields["supplier_address"].fp + s.fields["supplier_address"].fn, 0);
    EXPECT_EQ(s.fields["supplier_name"].tp, 1);
    EXPECT_EQ(s.items.tp, 1);
    EXPECT_EQ(s.items.fp, 0);
    EXPECT_EQ(s.items.fn, 0);
    EXPECT_EQ(s.n_exact, 1);
    EXPECT_EQ(s.to_json()["ocr_mismatch_excluded"]["line_items"], 1);

    // A matched pair whose gold description is not printed is left out too (neither TP nor FP).
    json pred2 = pred;
    pred2["line_items"][1]["description"] = "KOPI O";
    s = ex::score_receipt(pred2, gold, fields, o, text);
    EXPECT_EQ(s.items.tp, 1);
    EXPECT_EQ(s.items.fp + s.items.fn, 0);
}
