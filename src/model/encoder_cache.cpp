#include "model/encoder_cache.h"

#include <algorithm>
#include <utility>

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

size_t EncoderCache::bytes_of(size_t n_ids, size_t n_floats) { return n_floats * sizeof(float) + n_ids * sizeof(int); }

const float* EncoderCache::find(const std::vector<int>& ids) {
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
    const size_t size = bytes_of(ids.size(), n);
    if (size > capacity_) return;
    Entry entry{hash_of(ids), ids, std::vector<float>(rows, rows + n)};
    if (auto it = locate(ids, entry.hash); it != entries_.end()) {
        bytes_ -= bytes_of(it->ids.size(), it->rows.size());
        entries_.erase(it);
    }
    while (!entries_.empty() && bytes_ + size > capacity_) {
        bytes_ -= bytes_of(entries_.back().ids.size(), entries_.back().rows.size());
        entries_.pop_back();
    }
    entries_.push_front(std::move(entry));
    bytes_ += size;
}

}  // namespace receipt
