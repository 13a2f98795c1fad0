// Per-op GPU time profile of the CUDA engine (RECEIPT_CUDA_PROFILE=1): a cudaEvent pair around each op the engine
// enqueues (encoder and decoder layers, greedy select / advance), accumulated per op name. The events are read
// back only when the pool of pairs is full or at flush(), after the stream sync generate() already does, so no
// op waits for the GPU. The engine runs eagerly while profiling (event records cannot go into its CUDA graphs), so
// each op's time is its eager-mode time from its start to its stop event: the kernel(s) plus the launch gap in
// front of them (a few us, most of a small decode kernel's time; it includes the host's launch time when the host
// launches more slowly than the GPU runs; no PDL overlap, the events sit between the kernels).
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace receipt::cuda {

// Owned by one engine and used from its thread only (not thread-safe). Every op must be enqueued on the stream
// passed to begin() / end(), and all ops on one stream, so that the last event of the pool completes last.
class OpProfiler {
public:
    // n_pairs_max: event pairs recorded before they are read back (read back early when the pool is full).
    explicit OpProfiler(size_t n_pairs_max = 4096);
    ~OpProfiler();
    OpProfiler(const OpProfiler&) = delete;
    OpProfiler& operator=(const OpProfiler&) = delete;

    // Enqueues f() as op `name` (a string literal: only the pointer is kept until flush()) between two events on
    // `stream`. With p == null (profiling off) it is just f(): one null check.
    template <typename F>
    static void time(OpProfiler* p, const char* name, cudaStream_t stream, F&& f) {
        if (!p) {
            f();
            return;
        }
        p->begin(name, stream);
        f();
        p->end(stream);
    }

    // Records the start event of op `name`. An op left open (its f() threw) is dropped.
    void begin(const char* name, cudaStream_t stream);
    // Records the stop event of the op begun last.
    void end(cudaStream_t stream);
    // Waits for the recorded pairs and adds their times to the totals. Throws CudaError.
    void flush();
    // Drops the totals and any pair not read back yet.
    void reset();
    // Table of the totals (flushed ones only), largest total first: op, calls, total ms, mean us, share %.
    std::string report() const;

private:
    struct Pair {
        const char* name = nullptr;
        cudaEvent_t start = nullptr, stop = nullptr;
    };
    struct Stat {
        double ms = 0.0;
        long n_calls = 0;
    };

    size_t n_pairs_max_;
    std::vector<Pair> pairs_;  // events created on first use; pairs_[0 .. n_used_) are recorded, not read back
    size_t n_used_ = 0;
    bool open_ = false;  // pairs_[n_used_] has its start recorded
    std::map<std::string, Stat> stats_;
};

}  // namespace receipt::cuda
