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
