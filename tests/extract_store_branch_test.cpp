// Store name + branch line (extract/store_branch.h).
#include <gtest/gtest.h>

#include <string>

#include "extract/store_branch.h"

namespace ex = receipt::extract;

TEST(StoreBranch, AppendsTheBranchLineUnderTheChain) {
    const std::string text = "ナチュラルローソン\n巣鴨ショッピングセンター店\n〒170-3591 東京都豊島区巣鴨7-1-2\n電話";
    EXPECT_EQ(ex::name_with_branch(text, "ナチュラルローソン", 4), "ナチュラルローソン 巣鴨ショッピングセンター店");
    // Spaces in the model's name do not matter; the chain may be under a first line.
    EXPECT_EQ(ex::name_with_branch("〒600-0521\nサミット\n小杉町本店\n", "サ ミット", 4), "サ ミット 小杉町本店");
    // The branch after the chain on the same line.
    EXPECT_EQ(ex::name_with_branch("サミット 芝浦店\n株式会社アオバ商事\n", "サミット", 4), "サミット 芝浦店");
    EXPECT_EQ(ex::name_with_branch("サミット 芝浦 ビル\n", "サミット 芝浦", 4), std::nullopt);  // no 店
}

TEST(StoreBranch, KeepsTheNameOtherwise) {
    const std::string text = "ナチュラルローソン\n巣鴨ショッピングセンター店\n";
    // Already with its branch, not a printed line, or a branch beyond the lines looked at.
    EXPECT_EQ(ex::name_with_branch(text, "ナチュラルローソン 巣鴨ショッピングセンター店", 4), std::nullopt);
    EXPECT_EQ(ex::name_with_branch(text, "ローソン", 4), std::nullopt);
    EXPECT_EQ(ex::name_with_branch("A\nB\nC\nD\nイオン\n本店\n", "イオン", 4), std::nullopt);
    // The next line is an address, a phone line or no branch.
    EXPECT_EQ(ex::name_with_branch("イオン\n〒650-7579 神戸市中央区加納町 本店\n", "イオン", 4), std::nullopt);
    EXPECT_EQ(ex::name_with_branch("イオン\nTEL 078-000-0000\n", "イオン", 4), std::nullopt);
    EXPECT_EQ(ex::name_with_branch("CoCo壱番屋\n南2条西1-11-14\n", "CoCo壱番屋", 4), std::nullopt);
    EXPECT_EQ(ex::name_with_branch("SHOP\n", "SHOP", 4), std::nullopt);
    EXPECT_EQ(ex::name_with_branch("", "", 4), std::nullopt);
}
