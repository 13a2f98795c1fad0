#include "generate/prompt_lookup.h"

#include <algorithm>

namespace receipt {

std::vector<int> prompt_lookup_drafts(const std::vector<int>& source, const std::vector<int>& output, int n_drafts,
                                      const std::vector<int>* extra) {
    std::vector<int> drafts;
    const int x = extra ? std::min(static_cast<int>(extra->size()), kMaxDraftContext) : 0;
    const int len = static_cast<int>(source.size());
    const int p = static_cast<int>(output.size());
    if (n_drafts <= 0 || p == 0) return drafts;
    const int N = x + len + p;
    auto at = [&](int i) {  // context token i
        return i < x ? (*extra)[i] : i < x + len ? source[i - x] : output[i - x - len];
    };
    for (int n = std::min(kPromptLookupMaxNgram, p); n >= 1; --n) {
        for (int s = N - n - 1; s >= 0; --s) {  // latest occurrence first
            bool eq = true;
            for (int i = 0; i < n && eq; ++i) eq = at(s + i) == output[p - n + i];
            if (!eq) continue;
            const int P = N - n - s;  // >= 1
            drafts.reserve(n_drafts);
            for (int j = 0; j < n_drafts; ++j) drafts.push_back(at(s + n + j % P));
            return drafts;
        }
    }
    return drafts;
}

}  // namespace receipt
