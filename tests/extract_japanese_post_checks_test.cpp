// The post-checks of Japanese receipts' names, addresses and yen totals (extract/post_checks.h).
#include <gtest/gtest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "extract/known_names.h"
#include "extract/post_checks.h"
#include "receipt/extractor.h"

namespace ex = receipt::extract;

namespace {

nlohmann::ordered_json fields(const std::string& name, const std::string& addr) {
    return {{"supplier_name", name},       {"supplier_address", addr}, {"currency", "JPY"},
            {"net_amount", nullptr},       {"total_tax_amount", nullptr}, {"total_amount", nullptr},
            {"line_items", nlohmann::ordered_json::array()}, {"warnings", nlohmann::ordered_json::array()}};
}

// fields() of a store named 店 with the model's net, tax and total amounts.
nlohmann::ordered_json with_amounts(double net, double tax, double total) {
    auto f = fields("店", "");
    f["net_amount"] = net;
    f["total_tax_amount"] = tax;
    f["total_amount"] = total;
    return f;
}

bool warned(const nlohmann::ordered_json& f, const std::string& code) {
    return f["warnings"].dump().find(code) != std::string::npos;
}

}  // namespace

TEST(JapanesePostChecks, NamesAsPrinted) {
    const receipt::ExtractOptions opts;
    // The operating company goes; the branch's place is spelled as the address prints it.
    const std::string text = "有限会社サン商事\nイオン 加町駅西口店\n〒650-7579 兵庫県神戸市中央区\n加納町4丁目25番28号\n";
    auto f = fields("有限会社サン商事 イオン 加町駅西口店", "兵庫県神戸市中央区 加納町4丁目25番28号");
    ex::apply_post_checks(text, "", opts, f);
    EXPECT_EQ(f["supplier_name"], "イオン 加納町駅西口店");
    EXPECT_TRUE(warned(f, "supplier_name_without_company")) << f["warnings"].dump();
    EXPECT_TRUE(warned(f, "supplier_name_branch_from_address")) << f["warnings"].dump();
    // A name that is a piece of the address becomes the header's name line.
    const std::string text2 = "CoCo壱番屋\n〒060-9333 北海道札幌市中央区\n南2条西1-11-14\n";
    auto g = fields("南2条西1-11-14", "北海道札幌市中央区 南2条西1-11-14");
    ex::apply_post_checks(text2, "", opts, g);
    EXPECT_EQ(g["supplier_name"], "CoCo壱番屋");
    EXPECT_TRUE(warned(g, "supplier_name_in_address")) << g["warnings"].dump();
    // Likewise a house number, when the model's address is itself garbled.
    auto g2 = fields("南2条西1-11-14", "北海道札幌市中央区 北1条西2-11-14");
    ex::apply_post_checks(text2, "", opts, g2);
    EXPECT_EQ(g2["supplier_name"], "CoCo壱番屋");
    // The company line taken as the chain of the store line goes.
    auto c = fields("有限会社サン商事", "埼玉県さいたま市大宮区 桜木町7-4-16");
    ex::apply_post_checks("有限会社サン商事\nノジマ 桜木町駅西口店\n330-6642\n", "", opts, c);
    EXPECT_EQ(c["supplier_name"], "ノジマ 桜木町駅西口店");
    // A branch written alone gets its chain; one word gets the printed break.
    auto h = fields("ジョーシン港本店", "東京都港区 六本木7丁目31番18号");
    ex::apply_post_checks("ジョーシン\n港本店\n〒105-0211\n東京都港区\n六本木7丁目31番18号\n", "", opts, h);
    EXPECT_EQ(h["supplier_name"], "ジョーシン 港本店");
    auto k = fields("東塩小路町二丁目店", "京都府京都市下京区東塩小路町4-26-25");
    ex::apply_post_checks("〒600-0521\n東急ストア 東塩小路町二丁目店\n京都府京都市下京区東塩小路町4-26-25\n", "", opts, k);
    EXPECT_EQ(k["supplier_name"], "東急ストア 東塩小路町二丁目店");
    EXPECT_TRUE(warned(k, "supplier_name_chain_before_branch")) << k["warnings"].dump();
    // A chain printed nowhere before a printed branch is the chain printed with it, unless it is a known store.
    const std::string text3 = "ケーズデンキ 経堂南店\n〒154-5212\n東京都世田谷区経堂8-25-12\n";
    auto m = fields("セケーズデンキ 経堂南店", "東京都世田谷区経堂8-25-12");
    ex::apply_post_checks(text3, "", opts, m);
    EXPECT_EQ(m["supplier_name"], "ケーズデンキ 経堂南店");
    EXPECT_TRUE(warned(m, "supplier_name_printed_chain")) << m["warnings"].dump();
    ex::KnownLists known;
    known.stores = ex::KnownNames::parse("12\tセケーズデンキ\n", "known_names.txt");
    auto m2 = fields("セケーズデンキ 経堂南店", "東京都世田谷区経堂8-25-12");
    ex::apply_post_checks(text3, "", opts, m2, &known);
    EXPECT_EQ(m2["supplier_name"], "セケーズデンキ 経堂南店");
    // A chain run one character past its printed final ン gets its printed branch.
    auto r = fields("ココカラファインラ", "大阪府大阪市北区角田町1-2-3");
    ex::apply_post_checks("ココカラファイン\n角田町南店\n〒530-7725\n大阪府大阪市北区角田町1-2-3\n", "", opts, r);
    EXPECT_EQ(r["supplier_name"], "ココカラファイン 角田町南店") << r["warnings"].dump();
}

TEST(JapanesePostChecks, NameThatRanOnIntoTheNextLine) {
    // The name after the checks of a receipt `text` whose model wrote `name` and `address`.
    std::string warnings;  // those of the last call
    const auto checked_name = [&](const std::string& text, const std::string& name, const std::string& address) {
        const receipt::ExtractOptions opts;
        auto f = fields(name, address);
        ex::apply_post_checks(text, "", opts, f);
        warnings = f["warnings"].dump();
        return f["supplier_name"].get<std::string>();
    };
    // The name pass ran on into the address line; the branch is printed below it.
    const std::string addr = "大阪府堺市堺区三国ヶ丘御幸通5丁目14番19号";
    EXPECT_EQ(checked_name("丸亀製麺\n" + addr + "\n三国ヶ丘御幸通駅前店\nTEL\n", "丸亀製麺 " + addr, addr),
              "丸亀製麺 三国ヶ丘御幸通駅前店");
    EXPECT_NE(warnings.find("supplier_name_run_on"), std::string::npos) << warnings;
    // ... or into the operating company's line.
    EXPECT_EQ(checked_name("ジョーシン\n(株)セブン商事\n〒900-7308\n沖縄県那覇市\n久茂地5-2-21\n", "ジョーシン (株)セブン商事",
                           "沖縄県那覇市 久茂地5-2-21"),
              "ジョーシン");
    // A company line or a postcode without its mark between the chain and its branch line.
    EXPECT_EQ(checked_name("ナチュラルローソン\n株式会社セブン商事\nさいたま市大宮南店\n埼玉県さいたま市大宮区大門町3-6-2\n",
                           "ナチュラルローソン", "埼玉県さいたま市大宮区大門町3-6-2"),
              "ナチュラルローソン さいたま市大宮南店");
    EXPECT_EQ(checked_name("コスモス薬品\n530-5964\n大阪市北中央店\n大阪府大阪市北区梅田3-17-21\n", "コスモス薬品",
                           "大阪府大阪市北区梅田3-17-21"),
              "コスモス薬品 大阪市北中央店");
    // A branch name that holds no address piece stays.
    EXPECT_EQ(checked_name("サミット\n博多駅前南店\n福岡県福岡市博多区博多駅前1-28-14\n", "サミット 博多駅前南店",
                           "福岡県福岡市博多区博多駅前1-28-14"),
              "サミット 博多駅前南店");
}

TEST(JapanesePostChecks, NameFromTheHeaderWhenNoneIsLeft) {
    const receipt::ExtractOptions opts;
    // The model's name is printed nowhere (dropped at the end): the first header line that can name a store.
    auto f = fields("ナチーラルロソ 三国ヶ丘御幸通ショッピングセンター店", "東京都世田谷区経堂3-31-27");
    ex::apply_post_checks("ナチュラルローソン 世田谷中央店\n(株)ミドリ商事\n東京都世田谷区経堂3-31-27\nTEL:03-3644-5273\n", "",
                          opts, f);
    EXPECT_EQ(f["supplier_name"], "ナチュラルローソン 世田谷中央店") << f["warnings"].dump();
    EXPECT_TRUE(warned(f, "supplier_name_from_header")) << f["warnings"].dump();
}

TEST(JapanesePostChecks, AddressAsPrinted) {
    const receipt::ExtractOptions opts;
    auto f = fields("店", "大阪府大阪市中央区 心斎橋筋5-27-5");
    ex::apply_post_checks("店\n〒542-1234\n大阪府大阪市中央区心斎橋筋5-25-7\n", "", opts, f);
    EXPECT_EQ(f["supplier_address"], "大阪府大阪市中央区心斎橋筋5-25-7");
    EXPECT_TRUE(warned(f, "supplier_address_as_printed")) << f["warnings"].dump();
}

TEST(JapanesePostChecks, AddressFromTheHeaderWhenTheModelWroteNone) {
    const receipt::ExtractOptions opts;
    const std::string text = "ココカラファイン 新町二丁目店\n〒260-0677\n千葉県千葉市中央区新町5丁目32番10号\n新町第一ビル 8F\n"
                             "適格請求書発行事業者登録番号\n合計 ¥127\n";
    auto f = fields("ココカラファイン 新町二丁目店", "");
    f["supplier_address"] = nullptr;
    ex::apply_post_checks(text, "", opts, f);
    EXPECT_EQ(f["supplier_address"], "千葉県千葉市中央区新町5丁目32番10号 新町第一ビル 8F");
    EXPECT_TRUE(warned(f, "supplier_address_from_header")) << f["warnings"].dump();
    // A model address stands; no prefecture line leaves none.
    auto g = fields("ココカラファイン 新町二丁目店", "千葉県千葉市中央区新町5丁目32番10号 新町第一ビル 8F");
    ex::apply_post_checks(text, "", opts, g);
    EXPECT_FALSE(warned(g, "supplier_address_from_header")) << g["warnings"].dump();
    auto h = fields("店", "");
    h["supplier_address"] = nullptr;
    ex::apply_post_checks("店\n新町5丁目32番10号\n合計 ¥127\n", "", opts, h);
    EXPECT_TRUE(h["supplier_address"].is_null());
}

TEST(JapanesePostChecks, PhoneWithoutTenOrElevenDigitsIsNoNumber) {
    const receipt::ExtractOptions opts;
    const std::string text = "ローソン\n東京都港区芝浦6-2-6\nTEL 03-462-2879\n合計 ¥500\n";
    for (const char* bad : {"03-462-2879", "078-9690-9690559"}) {
        auto f = fields("ローソン", "東京都港区芝浦6-2-6");
        f["supplier_phone"] = bad;
        ex::apply_post_checks(text, "", opts, f);
        EXPECT_TRUE(f["supplier_phone"].is_null()) << bad;
        EXPECT_TRUE(warned(f, "supplier_phone_incomplete")) << f["warnings"].dump();
    }
    // A piece of the printed number ("034222" of "034222-2460", its first hyphen lost) gives way to the number.
    {
        auto f = fields("ヤオコー", "東京都港区 新橋5-26-1");
        f["supplier_phone"] = "034222";
        ex::apply_post_checks("ヤオコー\n東京都港区\n新橋5-26-1\n電話034222-2460\n合計 ¥500\n", "", opts, f);
        EXPECT_EQ(f["supplier_phone"], "03-4222-2460");
    }
    for (const char* good : {"03-6462-2879", "090-1234-5678"}) {
        auto f = fields("ローソン", "東京都港区芝浦6-2-6");
        f["supplier_phone"] = good;
        ex::apply_post_checks("ローソン\n東京都港区芝浦6-2-6\nTEL " + std::string(good) + "\n合計 ¥500\n", "", opts, f);
        EXPECT_EQ(f["supplier_phone"], good);
    }
}

TEST(JapanesePostChecks, YenTotalAndNetByTheirArithmetic) {
    const receipt::ExtractOptions opts;
    // The total line lost a digit (¥131): the payment line prints the subtotal again (tax included).
    auto f = fields("店", "");
    ex::apply_post_checks("店\n2021/08/05\nパン\n¥1341\n小計 (1点)\n¥1341\nお買上計\n¥131\nWAON決済\n¥1341\n", "", opts, f);
    EXPECT_EQ(f["total_amount"], 1341);
    EXPECT_TRUE(warned(f, "total_amount_from_payment_line")) << f["warnings"].dump();
    // The same with the payment word damaged too: net, printed twice, is the total.
    auto f2 = fields("店", "");
    ex::apply_post_checks("店\n2021/08/05\nパン\n¥1341\n小計 (1点)\n¥1341\nお買上計\n¥131\nWAO決\n¥1341\n", "", opts, f2);
    EXPECT_EQ(f2["total_amount"], 1341);
    EXPECT_TRUE(warned(f2, "total_amount_from_net_amount")) << f2["warnings"].dump();
    // The subtotal's amount moved above its keyword: total less the 外税 amounts.
    auto g = fields("店", "");
    ex::apply_post_checks("店\n2024/07/03\n袋\n¥871\n小 計\n外税8%\n¥34\n外税10%\n¥44\n合計\n¥949\n", "", opts, g);
    EXPECT_EQ(g["net_amount"], 871);
    EXPECT_EQ(g["total_amount"], 949);
    EXPECT_TRUE(warned(g, "net_amount_from_total_and_tax")) << g["warnings"].dump();
    // Tax included (内消費税等): an amount below the total after the subtotal keyword is a moved row box, and the
    // model's net amount equal to the total stands.
    auto h = fields("店", "");
    h["net_amount"] = 3783;
    ex::apply_post_checks("店\n2020年5月19日\nティッシュ 5箱\n¥2453\n缶ビール 350ml 6缶\n小計\n¥1330\n¥3783\n"
                          "お買上計\nY3783\n(内消費税等\n¥312)\n",
                          "", opts, h);
    EXPECT_EQ(h["net_amount"], 3783) << h["warnings"].dump();
    EXPECT_EQ(h["total_amount"], 3783);
    // OCR moved the subtotal line between a 外税 label and its amount: 9,981 is no tax (more than a quarter of
    // the total), so the model's net and tax stand.
    auto k = with_amounts(9981, 828, 10809);
    ex::apply_post_checks("店\n2024/07/03\n袋\n¥9,981\n外税8%\n小言 (20点) ¥9,981\n¥678\n外税10%\n¥150\n合計\n"
                          "¥10,809\niD支払\n¥10,809\n",
                          "", opts, k);
    EXPECT_EQ(k["net_amount"], 9981) << k["warnings"].dump();
    EXPECT_EQ(k["total_tax_amount"], 828) << k["warnings"].dump();
    // The 外税 amount lost a digit ("¥3"): total less subtotal, the printed digits with one put back.
    auto t = fields("店", "");
    t["total_tax_amount"] = 3;
    ex::apply_post_checks("店\n2025/04/15\nファミチキ\n¥421\n小計 (1点)\n¥421\n(8%対象\n¥421)\n外税8% ¥3\n"
                          "合計金額\n¥454\niD支払\n¥454\n",
                          "", opts, t);
    EXPECT_EQ(t["total_tax_amount"], 33) << t["warnings"].dump();
    EXPECT_TRUE(warned(t, "with a digit lost")) << t["warnings"].dump();
}

TEST(JapanesePostChecks, TaxesAndTotalsTheArithmeticConfirms) {
    const receipt::ExtractOptions opts;
    // The 内消費税等 amount lost its middle digit: 204 is 8/108 of the total, "24" with a digit put back.
    auto f = fields("店", "");
    f["total_tax_amount"] = 24;
    ex::apply_post_checks("店\n2024/07/03\nパン\n¥2756\nお会計\n¥2756\n(内消費税等 ¥24)\nnanaco ¥2756\n", "", opts, f);
    EXPECT_EQ(f["total_tax_amount"], 204) << f["warnings"].dump();
    // A per-rate 内消費税 amount against its rate's base ("10%対象計 ¥794", "¥7" -> 72).
    auto g = fields("店", "");
    ex::apply_post_checks("店\n2024/07/03\nパン\n¥1,328\nのり\n¥794\n合 計\n¥2,122\n8%対象計\n¥1,328\n(内消費税8%\n¥98)\n"
                          "10%対象計\n¥794\n(内消費税10%\n¥7)\n",
                          "", opts, g);
    EXPECT_EQ(g["total_tax_amount"], 170) << g["warnings"].dump();
    // The payment line and the subtotal lost a digit of the total ("¥62" for ¥632): the total line stands.
    auto pay = with_amounts(632, 46, 632);
    ex::apply_post_checks("店\n2022/05/14(土)\n食ﾊﾟﾝ 6枚切\n¥632軽\n小計 (4点)\n¥62\nお会計\n¥632\n税率\n対象額\n税額\n"
                          "8%\n¥632\n¥46\n交通系IC\n¥62\n",
                          "", opts, pay);
    EXPECT_EQ(pay["total_amount"], 632) << pay["warnings"].dump();
    EXPECT_EQ(pay["net_amount"], 632) << pay["warnings"].dump();
    // The model's tax is printed (a price) but is no tax of the total; the 内消費税等 amount is.
    auto h = fields("店", "");
    h["total_tax_amount"] = 12;
    ex::apply_post_checks("店\n2024/07/03\nガム\n¥12\n小 計 (11点)\n¥5,331\n合計金額\n¥5,331\n(内消費税等\n¥484)\n", "", opts,
                          h);
    EXPECT_EQ(h["total_tax_amount"], 484) << h["warnings"].dump();
    // 外税 amounts unread (labels side by side): total less subtotal, 8-10 % of it.
    auto k = with_amounts(2881, 382, 3120);
    ex::apply_post_checks("店\n2024/07/03\nパン\n2,881\n小 計 (6点)\n2,881\n外税8%\n外税10%\n191\n48\n合計\n3,120\n"
                          "お預り\n4,000\nお釣\n880\n",
                          "", opts, k);
    EXPECT_EQ(k["total_tax_amount"], 239) << k["warnings"].dump();
    // A difference that is no 8-10 % of the subtotal (a discount after it) leaves the model's tax.
    auto k2 = with_amounts(2881, 230, 3381);
    ex::apply_post_checks("店\n2024/07/03\nパン\n2,881\n小 計 (6点)\n2,881\n外税8%\n外税10%\n合計\n3,381\n", "", opts, k2);
    EXPECT_EQ(k2["total_tax_amount"], 230) << k2["warnings"].dump();
    // The total line lost a digit and the subtotal line its 小: tendered less change is net + 外税.
    auto m = fields("店", "");
    m["net_amount"] = 4391;
    ex::apply_post_checks("店\n2024/07/03\nパン\n¥4,391\n計(9点)\n¥4,391\n外税8%\n¥330\n外税10%\n¥26\n合計\n¥4,74\n"
                          "現金\n¥5,000\nおつり\n¥253\n",
                          "", opts, m);
    EXPECT_EQ(m["total_amount"], 4747) << m["warnings"].dump();
    // Tax included: the total a digit short is the per-rate bases' sum.
    auto n = fields("店", "");
    n["total_amount"] = 715;
    ex::apply_post_checks("店\n2024/07/03\nパン\n1,389円\nのり\n1,326円\n合計\n,715円\n(8%対象\n1,389円\n内税\n102円)\n"
                          "(10%対象\n1,326円\n内税\n120円\n",
                          "", opts, n);
    EXPECT_EQ(n["total_amount"], 2715) << n["warnings"].dump();
    // Subtotal and total both a digit short: tendered less change, whose tax the 内消費税等 amount is.
    auto p = fields("店", "");
    p["net_amount"] = 67;
    p["total_amount"] = 67;
    ex::apply_post_checks("店\n2024/07/03\nパン\n¥300\nのり\n¥377\n小計 (2点)\n¥67\n¥67\nお会計\n(内消費税等 ¥61)\n現金\n¥1000\nおつり\n"
                          "¥323\n",
                          "", opts, p);
    EXPECT_EQ(p["total_amount"], 677) << p["warnings"].dump();
    EXPECT_EQ(p["net_amount"], 677) << p["warnings"].dump();
    EXPECT_EQ(p["total_tax_amount"], 61) << p["warnings"].dump();
}

TEST(JapanesePostChecks, TotalAndTaxOverBoxesOCRMoved) {
    const receipt::ExtractOptions opts;
    struct Case {
        const char* why;
        std::string text;
        nlohmann::ordered_json model;  // the model's amounts
        const char* key;
        double want;
    };
    const Case cases[] = {
        {"the total keyword's next amount is a rate's base (\"合 計\" / \"8%対象言\" / \"298円\"): the model's total, "
         "which the per-rate tax lines make, stands",
         "店\n2023/08/05\nパン\n298円\nのり\n298円\n596円\n合 計\n8%対象言\n298円\n(内消費税8%\n22円)\n"
         "10%対象言 298円\n(内消費税10%\n27円)\nお預り現金\n10,000円\nおつり\n9,04円\n",
         {{"total_tax_amount", 49}, {"total_amount", 596}}, "total_amount", 596},
        {"a 10 % line read from the 8 % line's boxes (31 + 3) does not add up; subtotal + the 外税 amount = total",
         "店\n2020/07/30\n牛乳 1000ml\n\\220軽\n計 (3点)\n\\398\n(8%対象\n\\395)\n外税8%\n\\31\n\\3)\n"
         "(10%対象\n税10%\n\\0\nお会計\n\\429\nWAON決済\n\\429\n",
         {{"net_amount", 398}, {"total_tax_amount", 34}, {"total_amount", 429}}, "total_tax_amount", 31},
    };
    for (const Case& c : cases) {
        auto f = fields("店", "");
        for (const auto& [key, value] : c.model.items()) f[key] = value;
        ex::apply_post_checks(c.text, "", opts, f);
        EXPECT_EQ(f[c.key], c.want) << c.why << "\n" << f["warnings"].dump();
    }
    // The subtotal line lost a digit ("小計 / \\1,65"): the printed rows replace the model's items, as they add up
    // to the net amount (the 10 % base).
    auto h = with_amounts(1865, 186, 2051);
    h["line_items"] = nlohmann::ordered_json::array({{{"description", "牛めし 並"}, {"quantity", 1},
                                                      {"unit_price", 500}, {"amount", 500}}});
    ex::apply_post_checks("店\n2025-04-21\n11:57\nトッピングチーズ\n181\n見切値引 -\\20\nカレーライス \\590\nかけうどん 並\n"
                          "\\1,114\n小計\n\\1,65\n(10%対象\n\\1,865)\n外税10\n\\186\nお買計\n\\2,051\n",
                          "", opts, h);
    ASSERT_EQ(h["line_items"].size(), 4u) << h["warnings"].dump();
    EXPECT_EQ(h["line_items"][3]["amount"], 1114) << h["warnings"].dump();
}

TEST(JapanesePostChecks, ItemOfOneUnitWhoseCountLineMakesTheItemsAddUp) {
    const receipt::ExtractOptions opts;
    auto item = [](const char* d, double q, double u, double a) {
        return nlohmann::ordered_json{{"description", d}, {"quantity", q}, {"unit_price", u}, {"amount", a}};
    };
    // The model wrote the unit price as the amount; the count line, split over two lines, makes the sum.
    auto f = fields("店", "");
    f["line_items"] = {item("ﾄﾞﾗｲﾔｰ", 1, 8980, 8980), item("単3形ｱﾙｶﾘ電池 4本", 1, 498, 498)};
    ex::apply_post_checks("店\n2024/07/03\nﾄﾞﾗｲﾔｰ\n¥8,980\n単3形ｱﾙｶﾘ電池 4本\n¥I,94\n(3点\n単価¥498)\n小 計\n¥10,474\n"
                          "合計金額\n¥10,474\n",
                          "", opts, f);
    ASSERT_EQ(f["line_items"].size(), 2u) << f.dump();
    EXPECT_EQ(f["line_items"][1]["quantity"], 3) << f["warnings"].dump();
    EXPECT_EQ(f["line_items"][1]["amount"], 1494);
    EXPECT_TRUE(warned(f, "line_item_count_line")) << f["warnings"].dump();
    // A printed row the model left out, whose amount is what the items fall short by.
    auto h = fields("店", "");
    // (The rows, read with the discount's boxes out of order, do not add up themselves.)
    h["line_items"] = {item("トマト", 1, 90, 90), nlohmann::ordered_json{{"description", "値引"}, {"amount", -50}},
                       item("鶏もも肉 唐揚用", 1, 488, 488)};
    ex::apply_post_checks("店\n2024年3月25日 月曜日\nトマト\n値引\n\\90軽\nー\\50\n鶏もも肉 唐揚用\n\\488軽\n緑茶 2L\n"
                          "\\157軽\n小 計\n\\685\n合計\n\\685\n",
                          "", opts, h);
    ASSERT_EQ(h["line_items"].size(), 4u) << h.dump();
    EXPECT_EQ(h["line_items"][3]["description"], "緑茶 2L") << h["warnings"].dump();
    EXPECT_EQ(h["line_items"][3]["amount"], 157);
    EXPECT_TRUE(warned(h, "line_item_from_row_left_out")) << h["warnings"].dump();
    // A count that does not close the gap changes nothing.
    auto g = fields("店", "");
    g["line_items"] = {item("マヨネーズ 450g", 1, 308, 308)};
    ex::apply_post_checks("店\n2024/07/03\nマヨネーズ 450g\n¥1,000軽\n(2点 単価¥308)\n合計\n¥1,000\n", "", opts, g);
    EXPECT_FALSE(warned(g, "line_item_count_line")) << g["warnings"].dump();
    // The model's items are another shop's: once they are left out, the printed rows stand in their place, an
    // amount OCR cut short ("\\70" for 720, "\\10" for 140) as printed.
    auto o = fields("店", "");
    o["line_items"] = {item("ﾏｽｸ 7枚入", 1, 298, 298), item("枝豆", 1, 380, 380)};
    ex::apply_post_checks("丸亀製麺\n2024年02月24日() 20:26\nｶﾚｰﾗｲｽ\n\\70\nいなり\n\\10\nえび天\n\\190\n合計金額\n\\1,050\n"
                          "現金\n\\2,000\n",
                          "", opts, o);
    ASSERT_EQ(o["line_items"].size(), 3u) << o.dump();
    EXPECT_EQ(o["line_items"][0]["description"], "ｶﾚｰﾗｲｽ");
    EXPECT_EQ(o["line_items"][2]["amount"], 190);
    EXPECT_TRUE(warned(o, "line_items_from_rows_after_unprinted")) << o["warnings"].dump();
}

TEST(JapanesePostChecks, TotalThatThePaymentLineConfirms) {
    const receipt::ExtractOptions opts;
    // OCR moved an item's box after the total keyword; the payment line prints the total, as the total line does.
    auto f = fields("店", "");
    ex::apply_post_checks("店\n週刊少年ジャンプ\nお買上計\n¥300\n¥3,870\niD決済\n¥3,870\n", "", opts, f);
    EXPECT_EQ(f["total_amount"], 3870);
    EXPECT_TRUE(warned(f, "total_amount_from_payment_line")) << f["warnings"].dump();
    // The keyword's next box is the tax; tendered less change is what the model wrote: it stands.
    auto g = fields("店", "");
    g["total_amount"] = 2199;
    ex::apply_post_checks("店\n¥2199\n合 計\n(内消費税等\n¥182)\nお預かり\n¥3,000\nお釣り\n¥801\n", "", opts, g);
    EXPECT_EQ(g["total_amount"], 2199) << g["warnings"].dump();
    // Paid once, printed nowhere else, and not the model's: the total keyword's reading stands.
    auto h = fields("店", "");
    ex::apply_post_checks("店\n合計\n¥500\nPayPay\n¥480\n", "", opts, h);
    EXPECT_EQ(h["total_amount"], 500) << h["warnings"].dump();
}

TEST(JapanesePostChecks, TotalFromThePaymentLineThatTheItemRowsAddUpTo) {
    const receipt::ExtractOptions opts;
    // The model's reading was cut before the totals and OCR broke the total line ("¥,582"): the amount paid,
    // which the printed item rows add up to.
    const std::string text = "店\n2024年1月5日\nおにぎり 紅しゃけ\n¥158\nカフェラテ M\n¥215\nお買上計\n¥,582\n"
                             "クレジット\n¥373\n";
    auto f = fields("店", "");
    ex::apply_post_checks(text, "", opts, f);
    EXPECT_EQ(f["total_amount"], 373) << f["warnings"].dump();
    EXPECT_TRUE(warned(f, "total_amount_from_payment_and_rows"));
    // Rows that do not add up to it: no total.
    auto g = fields("店", "");
    ex::apply_post_checks("店\n2024年1月5日\nおにぎり 紅しゃけ\n¥158\nお買上計\n¥,582\nクレジット\n¥373\n", "", opts, g);
    EXPECT_TRUE(g["total_amount"].is_null()) << g["warnings"].dump();
}

TEST(JapanesePostChecks, TaxFromTheIncludedTaxLineAndTheModelsPerRateTaxes) {
    const receipt::ExtractOptions opts;
    // The model's output was cut short before its tax field: the tax included over all rates.
    auto f = fields("店", "");
    ex::apply_post_checks("店\nえび天\n¥380\nお会計\n¥380\n(内消費税等\n¥28)\n", "", opts, f);
    EXPECT_EQ(f["total_tax_amount"], 28);
    EXPECT_TRUE(warned(f, "total_tax_amount_from_included_tax_line")) << f["warnings"].dump();
    // The tax lines read the 10 % rate only ("外税8" lost its '%'); the model's 168 + 16 is printed as two taxes.
    const std::string text = "店\n小計\n¥2262\n外税8\n168円\n外税10%\n16円\nお会計\n2446円\n";
    auto g = fields("店", "");
    g["total_tax_amount"] = 184;
    ex::apply_post_checks(text, "net: 2262 | tax: 168 + 16 | total: 2446", opts, g);
    EXPECT_EQ(g["total_tax_amount"], 184) << g["warnings"].dump();
    // A part the receipt prints as a base, not as a tax ("(10%対象 / ¥4)"): the tax lines' reading wins.
    const std::string base = "店\n(8%対象\n¥540)\n外税8%\n¥43\n(10%対象\n¥4)\n外税10%\n¥0\n合 計\n¥587\n";
    auto h = fields("店", "");
    h["total_tax_amount"] = 47;
    ex::apply_post_checks(base, "net: 544 | tax: 43 + 4 | total: 587", opts, h);
    EXPECT_EQ(h["total_tax_amount"], 43) << h["warnings"].dump();
}

TEST(JapanesePostChecks, DateWhoseYearLostADigitFallsOnThePrintedWeekday) {
    // The checked fields of a receipt whose header lines are `lines` and whose model wrote `model_date`.
    const auto checked = [](const std::string& model_date, const std::string& lines) {
        const receipt::ExtractOptions opts;
        auto f = fields("店", "");
        f["receipt_date"] = model_date;
        ex::apply_post_checks("店\n" + lines + "\n天然水\n96\n小計\n96\n", "", opts, f);
        return f;
    };
    // "202/08/30(水)": the model wrote 2024 (a Friday); 2023 and 2028 put it on a Wednesday, 2023 is closer.
    const auto f = checked("2024-08-30", "202/08/30(水)\n1時11分");
    EXPECT_EQ(f["receipt_date"], "2023-08-30") << f["warnings"].dump();
    EXPECT_TRUE(warned(f, "receipt_date_year_digit_lost")) << f["warnings"].dump();
    // On the printed weekday already: kept.
    const auto g = checked("2023-08-30", "202/08/30(水)");
    EXPECT_EQ(g["receipt_date"], "2023-08-30");
    EXPECT_FALSE(warned(g, "receipt_date_year_digit_lost"));
    // A day digit lost ("2020/08/7(木)"): the one date with a digit put back that falls on the printed weekday.
    const auto d = checked("2020-08-07", "2020/08/7(木) 21:0:25");
    EXPECT_EQ(d["receipt_date"], "2020-08-27") << d["warnings"].dump();
    EXPECT_TRUE(warned(d, "receipt_date_digit_lost")) << d["warnings"].dump();
    // The day lost whole, and two days 1-9 of the month fall on the weekday (2024-01-01 and 01-08 are Mondays):
    // the model's date, off the weekday, is a guess: none (extract/date_checks.h).
    EXPECT_TRUE(checked("2024-01-30", "2024年1月日 月曜日")["receipt_date"].is_null());
    // A padded month and a one-digit day ("2022-12-2"): OCR lost a day digit, the model's date that puts it back
    // stands against the printed reading.
    EXPECT_EQ(checked("2022-12-22", "(042409-96\n2022-12-2")["receipt_date"], "2022-12-22");
    // The model's date far from the receipt's only date line: that line's date (read year first).
    EXPECT_EQ(checked("2025-03-18", "東京都港区\n八丁堀1-4-1\n2023-08-13")["receipt_date"], "2023-08-13");
    // Two years as close (2019 and 2029 from 2024, "201"/"202" cannot both be printed: here neither fits): kept.
    EXPECT_EQ(checked("2024-09-14", "2024/09/14(月)")["receipt_date"], "2024-09-14");
}

TEST(JapanesePostChecks, YenAmountsMakeTheCurrencyYen) {
    const receipt::ExtractOptions opts;
    // A text that prints yen amounts and no other currency's sign is in yen, whatever the model wrote.
    auto f = fields("ローソン", "東京都渋谷区道玄坂4-16-22");
    f["currency"] = "IDR";
    ex::apply_post_checks("ローソン\n東京都渋谷区道玄坂4-16-22\n焼き魚定食 980円\n合計 ¥980\n", "", opts, f);
    EXPECT_EQ(f["currency"], "JPY");
    EXPECT_TRUE(warned(f, "currency_from_printed_amounts")) << f["warnings"].dump();
    // A duty-free receipt that also prints dollars keeps the model's reading.
    auto g = fields("ローソン", "東京都渋谷区道玄坂4-16-22");
    g["currency"] = "USD";
    ex::apply_post_checks("ローソン\n東京都渋谷区道玄坂4-16-22\n合計 ¥980\nUS$ 6.50\n", "", opts, g);
    EXPECT_EQ(g["currency"], "USD");
}

TEST(JapanesePostChecks, AddressOfAnotherWardOfTheCity) {
    const receipt::ExtractOptions opts;
    struct Case {
        const char* model;
        const char* text;
        const char* want;
    };
    const Case cases[] = {
        // The model wrote another ward and town of the city, with the printed house number.
        {"愛知県名古屋市中区大須1-11-21", "店\n〒450-1080 愛知県名古屋市中村区椿町1-11-21\n",
         "愛知県名古屋市中村区椿町1-11-21"},
        {"大阪府大阪市中央区本町6-22-25 本町プラザ 3F", "店\n大阪府大阪市北区梅田6-22-25\n梅田プラザ 3F\n",
         "大阪府大阪市北区梅田6-22-25 梅田プラザ 3F"},
        // A town or ward that OCR damaged keeps the model's reading ("花園" printed "園", "中央区" printed "中区").
        {"新潟県新潟市中央区花園6丁目10番6号", "店\n新潟県新潟市中央区園6丁目10番6号\n",
         "新潟県新潟市中央区花園6丁目10番6号"},
        {"大阪府大阪市中央区心斎橋筋5丁目23番24号", "店\n大阪府大阪市中区心斎橋筋5丁目23番24号\n",
         "大阪府大阪市中央区心斎橋筋5丁目23番24号"},
        // Another house number: not the same address.
        {"愛知県名古屋市中区大須1-11-22", "店\n〒450-1080 愛知県名古屋市中村区椿町1-11-21\n",
         "愛知県名古屋市中区大須1-11-22"},
    };
    for (const Case& c : cases) {
        auto f = fields("店", c.model);
        ex::apply_post_checks(c.text, "", opts, f);
        EXPECT_EQ(f["supplier_address"], c.want) << f["warnings"].dump();
    }
}

TEST(JapanesePostChecks, AddressThatLostItsFirstLineToTheName) {
    const receipt::ExtractOptions opts;
    const std::string text =
        "ファミリーマー卜\n〒192-2646\n東京都八王子市\n横山町3-4-12\n横山町ハイツ 3F\n電話042-831-2136\n";
    auto f = fields("東京都八王子市 横山町3-4-12", "横山町ハイツ 3F");
    ex::apply_post_checks(text, "", opts, f);
    EXPECT_EQ(f["supplier_name"], "ファミリーマート") << f["warnings"].dump();
    EXPECT_EQ(f["supplier_address"], "東京都八王子市 横山町3-4-12 横山町ハイツ 3F") << f["warnings"].dump();
    EXPECT_TRUE(warned(f, "supplier_address_from_name")) << f["warnings"].dump();
}

TEST(JapanesePostChecks, TaxAndTotalBoxesThatOcrMovedOrCut) {
    const receipt::ExtractOptions opts;
    // The included tax printed above its label.
    auto f = fields("店", "");
    ex::apply_post_checks("店\nお茶 600ml\n¥4,943\n合 計\n¥4,943\n¥431)\n(内税等\nお預かり\n¥5000\nお釣\n¥57\n", "",
                          opts, f);
    EXPECT_EQ(f["total_tax_amount"], 431) << f["warnings"].dump();
    // A per-rate tax whose thousands group lost a digit.
    auto g = fields("店", "");
    ex::apply_post_checks("店\n小計\n¥18,848\n合計金額 ¥18,848\n(10%対象\n¥18,848\n内税\n¥1,71)\n", "", opts, g);
    EXPECT_EQ(g["total_tax_amount"], 1713) << g["warnings"].dump();
    // A total line cut short: tendered less change is what the per-rate bases make.
    auto h = fields("店", "");
    h["total_amount"] = 163;
    ex::apply_post_checks("店\nお買計\n¥1,89\n(8%対象 ¥716 内税 ¥53)\n(10%対象\n¥1,163\n内税\n¥105)\nお預り\n¥2,000\n"
                          "お釣り ¥121\n", "", opts, h);
    EXPECT_EQ(h["total_amount"], 1879) << h["warnings"].dump();
    // A subtotal line whose next box is one rate's base, and a total line that lost a digit: once the payment
    // line puts the total's digit back, the bases make the net amount.
    auto k = fields("店", "");
    k["net_amount"] = 1752;
    ex::apply_post_checks("店\n小計\n(8%対象\n¥1518)\n外税8% ¥121\n(10%対象\n¥234)\n外税10% ¥23\n¥144\n消費税等\n"
                          "合計金額\n¥186\nWAON\n¥1896\n", "", opts, k);
    EXPECT_EQ(k["total_amount"], 1896) << k["warnings"].dump();
    EXPECT_EQ(k["net_amount"], 1752) << k["warnings"].dump();
    // A 内消費税等 label that lost 費税.
    auto m = fields("店", "");
    m["total_tax_amount"] = 80;
    ex::apply_post_checks("店\nお会計\n890円\n(内消等 80円)\n", "", opts, m);
    EXPECT_EQ(m["total_tax_amount"], 80) << m["warnings"].dump();
}
