// The branch line of a Japanese store name. Receipts print the chain and the branch on separate lines
// ("ナチュラルローソン" / "巣鴨ショッピングセンター店"), and the schema's supplier_name holds both
// ("ナチュラルローソン 巣鴨ショッピングセンター店"); the model often writes the chain line alone.
#pragma once

#include <optional>
#include <string>

namespace receipt::extract {

// Most characters of a branch line ("三国ヶ丘御幸通駅東口店" has 11).
inline constexpr int kMaxBranchChars = 24;

// The name with its branch when `name` (spaces aside) does not itself end in 店 and is, among the first
// `max_lines` printed lines of `text`, a line followed by a branch after its last space ("サミット 芝浦店"), or
// a whole line followed by a branch line: a branch ends in 店 (店, 本店, 支店, ...), has at most kMaxBranchChars
// characters and no 〒 or phone label. nullopt otherwise (keep the name).
std::optional<std::string> name_with_branch(const std::string& text, const std::string& name, int max_lines);

}  // namespace receipt::extract
