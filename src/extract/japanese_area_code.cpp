// Telephone area codes of Japanese places (extract/japanese_area_code.h).
#include "extract/japanese_area_code.h"

#include <set>
#include <vector>

#include "extract/utf8.h"

namespace receipt::extract {

namespace {

// Places and their area codes. A name is looked for as printed; a city whose wards or parts have other codes
// is left out.
struct Place {
    const char* name;
    const char* area;
};
// clang-format off
constexpr Place kPlaces[] = {
    // Tokyo's 23 wards; names that other cities' wards also have (中央区, 港区, 北区) only after 東京都.
    {"東京都中央区", "03"}, {"東京都港区", "03"}, {"東京都北区", "03"}, {"千代田区", "03"}, {"新宿区", "03"},
    {"文京区", "03"}, {"台東区", "03"}, {"墨田区", "03"}, {"江東区", "03"}, {"品川区", "03"}, {"目黒区", "03"},
    {"大田区", "03"}, {"世田谷区", "03"}, {"渋谷区", "03"}, {"中野区", "03"}, {"杉並区", "03"}, {"豊島区", "03"},
    {"荒川区", "03"}, {"板橋区", "03"}, {"練馬区", "03"}, {"足立区", "03"}, {"葛飾区", "03"}, {"江戸川区", "03"},
    {"大阪市", "06"},
    // Cities; one whose name ends another city's name (津市 in 木更津市, 大津市 in 泉大津市, 松山市 in 東松山市)
    // only after its prefecture.
    {"札幌市", "011"}, {"青森市", "017"}, {"秋田市", "018"}, {"盛岡市", "019"}, {"仙台市", "022"},
    {"山形市", "023"}, {"福島市", "024"}, {"新潟市", "025"}, {"長野市", "026"}, {"前橋市", "027"},
    {"宇都宮市", "028"}, {"水戸市", "029"}, {"八王子市", "042"}, {"相模原市", "042"}, {"千葉市", "043"},
    {"川崎市", "044"}, {"横浜市", "045"}, {"船橋市", "047"}, {"さいたま市", "048"}, {"名古屋市", "052"},
    {"浜松市", "053"}, {"静岡市", "054"}, {"甲府市", "055"}, {"岐阜市", "058"}, {"三重県津市", "059"},
    {"堺市", "072"}, {"和歌山市", "073"}, {"京都市", "075"}, {"金沢市", "076"}, {"富山市", "076"},
    {"滋賀県大津市", "077"}, {"神戸市", "078"}, {"広島市", "082"}, {"岡山市", "086"}, {"高松市", "087"},
    {"高知市", "088"}, {"愛媛県松山市", "089"}, {"福岡市", "092"}, {"北九州市", "093"}, {"長崎市", "095"},
    {"熊本市", "096"}, {"大分市", "097"}, {"那覇市", "098"}, {"鹿児島市", "099"},
};
// clang-format on

}  // namespace

std::optional<std::string> area_code_of(const std::string& text) {
    std::set<std::string> codes;
    for (const Place& p : kPlaces)
        if (text.find(p.name) != std::string::npos) codes.insert(p.area);
    if (codes.size() != 1) return std::nullopt;
    return *codes.begin();
}

std::optional<std::string> with_area_code_restored(const std::string& printed, const std::string& area) {
    if (area.size() != 2 && area.size() != 3) return std::nullopt;
    // The area group: inside brackets ("(07)593-7218") or before the first hyphen ("0-5770-8671"); then the
    // subscriber groups, split at hyphens (one space allowed after the closing bracket).
    std::string group;
    size_t at = 0;
    const bool bracket = !printed.empty() && printed[0] == '(';
    const char close = bracket ? ')' : '-';
    for (at = bracket ? 1 : 0; at < printed.size() && is_ascii_digit(printed[at]); ++at) group += printed[at];
    if (at >= printed.size() || printed[at] != close) return std::nullopt;
    const std::string head = printed.substr(0, at);  // "(07" or "0"
    ++at;
    if (bracket && at < printed.size() && printed[at] == ' ') ++at;
    std::vector<std::string> rest(1);
    for (; at < printed.size(); ++at) {
        if (is_ascii_digit(printed[at]))
            rest.back() += printed[at];
        else if (printed[at] == '-')
            rest.emplace_back();
        else
            return std::nullopt;
    }
    const std::vector<size_t> want = area.size() == 2 ? std::vector<size_t>{4, 4} : std::vector<size_t>{3, 4};
    if (rest.size() != want.size()) return std::nullopt;
    for (size_t i = 0; i < want.size(); ++i)
        if (rest[i].size() != want[i]) return std::nullopt;
    if (group.size() + 1 != area.size()) return std::nullopt;
    bool one_left_out = false;
    for (size_t i = 0; i < area.size() && !one_left_out; ++i)
        one_left_out = area.substr(0, i) + area.substr(i + 1) == group;
    if (!one_left_out) return std::nullopt;
    return head.substr(0, bracket ? 1 : 0) + area + printed.substr(head.size());
}

}  // namespace receipt::extract
