#include "model/encoder_cache.h"

#include <algorithm>

namespace receipt {

uint64_t EncoderCache::hash_of(const std::vector<int>& ids) {
    uint64_t h = 1469598103934665603ull;  // FNV-1a over the ids' 32-bit values
    for (int id : ids) {
        h ^= static_cast<uint32_t>(id);
        h *= 1099511628211ull;
    }
    return h ^ ids.size();
}

std::list<EncoderCache::Entry>::iterator EncoderCache::locate(const std::vector<int>& ids, uint64_t hash) {
    return std::find_if(entries_.begin(), entries_.end(),
                        [&](const Entry& e) { return e.hash == hash && e.ids == ids; });
}

const float* EncoderCache::find(const std::vector<int>& ids) {
    if (capacity_ == 0 || entries_.empty()) {
        ++misses_;
        return nullptr;
    }
    auto it = locate(ids, hash_of(ids));
    if (it == entries_.end()) {
        ++misses_;
        return nullptr;
    }
    entries_.splice(entries_.begin(), entries_, it);  // most recently used first
    ++hits_;
    return entries_.front().rows.data();
}

void EncoderCache::put(const std::vector<int>& ids, const float* rows, int D) {
    const size_t n = ids.size() * size_t(D);
    const size_t size = n * sizeof(float) + ids.size() * sizeof(int);
    if (size > capacity_) return;
    const uint64_t hash = hash_of(ids);
    if (auto it = locate(ids, hash); it != entries_.end()) {
        bytes_ -= it->rows.size() * sizeof(float) + it->ids.size() * sizeof(int);
        entries_.erase(it);
    }
    while (!entries_.empty() && bytes_ + size > capacity_) {
        const Entry& last = entries_.back();
        bytes_ -= last.rows.size() * sizeof(float) + last.ids.size() * sizeof(int);
        entries_.pop_back();
    }
    entries_.push_front(Entry{hash, ids, std::vector<float>(rows, rows + n)});
    bytes_ += size;
}

}  // namespace receipt
