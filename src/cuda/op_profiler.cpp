// OpProfiler: event pairs per op, read back in batches (see op_profiler.h).
#include "cuda/op_profiler.h"

#include <algorithm>
#include <cstdio>

#include "cuda/cuda_check.h"

namespace receipt::cuda {

OpProfiler::OpProfiler(size_t n_pairs_max) : n_pairs_max_(std::max<size_t>(1, n_pairs_max)) {}

OpProfiler::~OpProfiler() {
    for (Pair& p : pairs_) {
        if (p.start) cudaEventDestroy(p.start);
        if (p.stop) cudaEventDestroy(p.stop);
    }
}

void OpProfiler::begin(const char* name, cudaStream_t stream) {
    open_ = false;
    if (n_used_ == n_pairs_max_) flush();  // the only wait: once per n_pairs_max ops
    if (n_used_ == pairs_.size()) {
        Pair p;
        RECEIPT_CUDA_CHECK(cudaEventCreate(&p.start));
        const cudaError_t err = cudaEventCreate(&p.stop);
        if (err != cudaSuccess) cudaEventDestroy(p.start);
        RECEIPT_CUDA_CHECK(err);
        pairs_.push_back(p);
    }
    Pair& p = pairs_[n_used_];
    p.name = name;
    RECEIPT_CUDA_CHECK(cudaEventRecord(p.start, stream));
    open_ = true;
}

void OpProfiler::end(cudaStream_t stream) {
    if (!open_) return;
    RECEIPT_CUDA_CHECK(cudaEventRecord(pairs_[n_used_].stop, stream));
    open_ = false;
    ++n_used_;
}

void OpProfiler::flush() {
    open_ = false;
    const size_t n = std::exchange(n_used_, 0);
    if (n == 0) return;
    // One stream: the last stop event completes last.
    RECEIPT_CUDA_CHECK(cudaEventSynchronize(pairs_[n - 1].stop));
    for (size_t i = 0; i < n; ++i) {
        float ms = 0.0f;
        RECEIPT_CUDA_CHECK(cudaEventElapsedTime(&ms, pairs_[i].start, pairs_[i].stop));
        Stat& s = stats_[pairs_[i].name];
        s.ms += ms;
        s.n_calls += 1;
    }
}

void OpProfiler::reset() {
    open_ = false;
    n_used_ = 0;
    stats_.clear();
}

std::string OpProfiler::report() const {
    std::vector<std::pair<std::string, Stat>> rows(stats_.begin(), stats_.end());
    std::stable_sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) { return a.second.ms > b.second.ms; });
    double total_ms = 0.0;
    long n_calls = 0;
    for (const auto& [name, s] : rows) {
        total_ms += s.ms;
        n_calls += s.n_calls;
    }
    std::string out;
    char line[160];
    std::snprintf(line, sizeof(line), "%-22s %10s %12s %10s %8s\n", "op", "calls", "total ms", "mean us", "share %");
    out += line;
    for (const auto& [name, s] : rows) {
        std::snprintf(line, sizeof(line), "%-22s %10ld %12.3f %10.2f %8.1f\n", name.c_str(), s.n_calls, s.ms,
                      s.n_calls ? 1000.0 * s.ms / double(s.n_calls) : 0.0,
                      total_ms > 0.0 ? 100.0 * s.ms / total_ms : 0.0);
        out += line;
    }
    std::snprintf(line, sizeof(line), "%-22s %10ld %12.3f %10s %8.1f\n", "total", n_calls, total_ms, "",
                  total_ms > 0.0 ? 100.0 : 0.0);
    out += line;
    return out;
}

}  // namespace receipt::cuda
