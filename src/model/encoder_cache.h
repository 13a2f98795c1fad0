// EncoderCache: encoder outputs of recent sources, keyed by their token ids, so that a second generate() call on
// the same source (the extractor's name and address passes) skips the encoder.
#pragma once

#include <cstddef>
#include <cstdint>
#include <list>
#include <vector>

namespace receipt {

// Least-recently-used store of encoder outputs: for a source of L token ids, its rows [L, D] (fp32). Holds at most
// capacity_bytes of rows; an output larger than that is not stored. Not thread-safe (one per engine).
class EncoderCache {
public:
    explicit EncoderCache(size_t capacity_bytes) : capacity_(capacity_bytes) {}

    // The stored rows [ids.size(), D] of `ids`, or nullptr. A hit becomes the most recently used entry.
    const float* find(const std::vector<int>& ids);
    // Stores rows [ids.size(), D] for `ids` (replacing an entry with the same ids), then evicts the least
    // recently used entries until the total fits the capacity.
    void put(const std::vector<int>& ids, const float* rows, int D);

    size_t bytes() const { return bytes_; }
    size_t entries() const { return entries_.size(); }
    long long hits() const { return hits_; }      // find() calls that returned rows, since construction
    long long misses() const { return misses_; }  // find() calls that returned nullptr

private:
    struct Entry {
        uint64_t hash;
        std::vector<int> ids;
        std::vector<float> rows;  // [ids.size(), D]
    };
    static uint64_t hash_of(const std::vector<int>& ids);
    // What an entry of n_ids ids and n_floats row values counts against the capacity.
    static size_t bytes_of(size_t n_ids, size_t n_floats);
    std::list<Entry>::iterator locate(const std::vector<int>& ids, uint64_t hash);

    size_t capacity_;
    size_t bytes_ = 0;
    std::list<Entry> entries_;  // most recently used first; a handful to a few hundred entries, searched linearly
    long long hits_ = 0, misses_ = 0;
};

}  // namespace receipt
