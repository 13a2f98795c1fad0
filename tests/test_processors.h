// LogitsProcessors for tests. BanByIndexProcessor bans a pseudo-random 1/3 of the vocabulary that depends on the source index and
// the position, so any mix-up of source indices or positions changes the output.
#pragma once

#include <cmath>
#include <mutex>
#include <set>
#include <vector>

#include "receipt/engine.h"

namespace receipt_test {

class BanByIndexProcessor final : public receipt::LogitsProcessor {
public:
    explicit BanByIndexProcessor(int vocab) : vocab_(vocab) {}
    // True when token `id` is banned for input `source` at output position `pos`. EOS (1) is never banned.
    bool banned(int source, int pos, int id) const {
        if (id == 1) return false;
        const unsigned h = unsigned(id) * 2654435761u ^ unsigned(source * 40503 + pos * 9973);
        return h % 3u == 0u;
    }
    void process(int source, const std::vector<int>& generated, float* logits, int vocab) const override {
        {
            std::lock_guard<std::mutex> lock(mu_);
            seen_.insert(source);
        }
        const int pos = int(generated.size());
        for (int id = 0; id < vocab && id < vocab_; ++id)
            if (banned(source, pos, id)) logits[id] = -INFINITY;
    }
    std::set<int> sources_seen() const {
        std::lock_guard<std::mutex> lock(mu_);
        return seen_;
    }

private:
    int vocab_;
    mutable std::mutex mu_;
    mutable std::set<int> seen_;
};

// Changes nothing: on CUDA it only moves the argmax to the host (the path serving with a constraint takes).
class IdentityProcessor final : public receipt::LogitsProcessor {
public:
    void process(int, const std::vector<int>&, float*, int) const override {}
};

}  // namespace receipt_test
