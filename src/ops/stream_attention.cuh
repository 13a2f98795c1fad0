// Streaming decode attention, the device side shared by cross_attention_pipelined_cuda.cu and
// self_attention_pipelined_cuda.cu: one query of d_kv 64 per block of 128 threads, its keys and values streamed
// through shared memory in chunks of kChunk rows with cp.async (the next chunk in flight while the current one is
// used), and an online softmax over the chunks, all in f32:
//   s_j = q . k_j (+ bias[t - j])       warp w scores keys 16w .. 16w+15 of a chunk, two lanes per key (32 dims each)
//   m' = max(m, max_j s_j); a = e^(m - m'); p_j = e^(s_j - m'); l = a l + sum_j p_j
//   o = a o + sum_j p_j v_j              thread (g, c8): dims 8 c8 .. 8 c8 + 7 over keys g, g + 16, g + 32, g + 48
// The block's result is (m, l, o = sum_g o_g): out = o / l, or a split's partial result.
// T: the storage type of q, K and V, f16 / bf16 or (the fp16-a32 precisions' decoder) f32.
#pragma once

#include "ops/attention_common.cuh"
#include "ops/cuda_common.cuh"

namespace receipt::cuda::stream {

constexpr int kHeadDim = 64;   // d_kv the kernels are written for
constexpr int kChunk = 64;     // keys per chunk (4 warps x 16)
constexpr int kStages = 2;     // chunks in shared memory: one being read, one arriving
constexpr int kThreads = 128;
constexpr int kGroups = kThreads / (kHeadDim / 8);  // 16 key groups of the P.V loop
// Staged row stride in T: 16-bit T 72 (144 bytes, conflict-free 16-byte reads); f32 68 (272 bytes: the two lanes
// of a key, 128 bytes apart, share banks, a 2-way conflict).
template <typename T>
constexpr int row_ld() {
    return sizeof(T) == 4 ? kHeadDim + 4 : kHeadDim + 8;
}
// 16-byte pieces of one staged row, and T per piece.
template <typename T>
constexpr int row_pieces() {
    return kHeadDim * int(sizeof(T)) / 16;
}
// Blocks one SM holds: 16-bit T, 96 registers x 128 threads (5 x 12288 of 65536) and 41 KB of shared memory each;
// f32 T, 72 KB of shared memory each (3 x 73 KB with the per-block reserve, of 228 KB).
constexpr int kBlocksPerSm = 5;
constexpr int kBlocksPerSmF32 = 3;

// Dynamic shared memory: K, V [kStages][kChunk][row_ld] T | p [kChunk] | red_max, red_sum [4] |
// part [kGroups][kHeadDim] f32. Past 48 KB (f32 T) the launcher must raise the kernel's limit.
template <typename T>
constexpr size_t smem_bytes() {
    return sizeof(T) * 2 * kStages * kChunk * row_ld<T>() + sizeof(float) * (kChunk + 8 + kGroups * kHeadDim);
}

template <typename T>
struct Smem {
    T *K, *V;
    float *p, *red_max, *red_sum, *part;
    __device__ explicit Smem(unsigned char* raw) {
        K = reinterpret_cast<T*>(raw);
        V = K + kStages * kChunk * row_ld<T>();
        p = reinterpret_cast<float*>(V + kStages * kChunk * row_ld<T>());
        red_max = p + kChunk;
        red_sum = red_max + 4;
        part = red_sum + 4;
    }
};

// One block's keys and values: key j at k + j stride and value j at v + j stride for j < n_rows (16-byte aligned
// rows of 64 T); with k_new, key and value n_rows come from k_new / v_new instead (the decoder's current position).
template <typename T>
struct Rows {
    const T *k, *v;
    int64_t stride;
    int n_rows;
    const T *k_new = nullptr, *v_new = nullptr;
    __device__ int n_keys() const { return n_rows + (k_new ? 1 : 0); }
    __device__ int n_chunks() const { return (n_keys() + kChunk - 1) / kChunk; }
};

// Chunk c of `rows` into stage buffer b: kChunk rows of keys and of values, row_pieces 16-byte pieces each
// (cp.async; rows past the keys zero-filled; row n_rows copied from k_new / v_new with plain loads and stores).
template <typename T>
__device__ void load_chunk(const Rows<T>& rows, const Smem<T>& sm, int b, int c) {
    constexpr int kPieces = row_pieces<T>(), kPer = 16 / int(sizeof(T));
    const int j0 = c * kChunk;
    for (int e = threadIdx.x; e < 2 * kChunk * kPieces; e += kThreads) {
        const int is_v = e / (kChunk * kPieces), row = (e / kPieces) % kChunk, piece = e % kPieces, j = j0 + row;
        T* d = (is_v ? sm.V : sm.K) + (b * kChunk + row) * row_ld<T>() + piece * kPer;
        if (rows.k_new && j == rows.n_rows) {
            const T* src = (is_v ? rows.v_new : rows.k_new) + piece * kPer;
            *reinterpret_cast<uint4*>(d) = *reinterpret_cast<const uint4*>(src);
            continue;
        }
        const bool valid = j < rows.n_rows;
        cp_async16(d, (is_v ? rows.v : rows.k) + int64_t(valid ? j : 0) * rows.stride + piece * kPer, valid);
    }
}

// The first kStages - 1 chunks, one commit group each (empty past the last chunk).
template <typename T>
__device__ void issue_prologue(const Rows<T>& rows, const Smem<T>& sm) {
    const int n_chunks = rows.n_chunks();
#pragma unroll
    for (int st = 0; st < kStages - 1; ++st) {
        if (st < n_chunks) load_chunk(rows, sm, st, st);
        cp_async_commit();
    }
}

// The online softmax attention of q ([64] TQ: T, or f32 over half-precision K/V) over `rows` after issue_prologue
// (bias nullable: s_j += bias[t_bias - j]). Sets m and l, and leaves each thread's o in sm.part[g][8 c8 ..], visible
// to the block on return (it ends with a barrier). Call from all threads.
template <typename TQ, typename T>
__device__ void attend(const TQ* q, const Rows<T>& rows, const float* bias, int t_bias, const Smem<T>& sm, float& m,
                       float& l) {
    const int tid = threadIdx.x, warp = tid >> 5, lane = tid & 31;
    const int n_keys = rows.n_keys(), n_chunks = rows.n_chunks();
    // Scoring lanes: key 16 warp + lane / 2 of each chunk, dims 32 (lane & 1) .. + 31 of q in registers (f32).
    const int half = lane & 1, key_in_chunk = 16 * warp + (lane >> 1);
    float qf[32];
#pragma unroll
    for (int c = 0; c < 4; ++c) load8(q + 32 * half + 8 * c, qf + 8 * c);
    const int g = tid >> 3, c8 = tid & 7;  // P.V: key group and 8-dim piece
    float o[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    m = -INFINITY;
    l = 0.0f;

    for (int it = 0; it < n_chunks; ++it) {
        const int b = it % kStages;
        // Chunk it is the oldest of the kStages - 1 groups in flight (one committed per chunk before it).
        cp_async_wait<kStages - 2>();
        __syncthreads();  // chunk it visible; every thread is done with chunk it - 1 (its buffer, p, red)
        if (it + kStages - 1 < n_chunks) load_chunk(rows, sm, (it + kStages - 1) % kStages, it + kStages - 1);
        cp_async_commit();

        const T* krow = sm.K + (b * kChunk + key_in_chunk) * row_ld<T>() + 32 * half;
        float s = 0.0f;
#pragma unroll
        for (int c = 0; c < 4; ++c) {
            float kf[8];
            load8(krow + 8 * c, kf);
#pragma unroll
            for (int u = 0; u < 8; ++u) s += qf[8 * c + u] * kf[u];
        }
        s += __shfl_xor_sync(0xffffffffu, s, 1);
        const int j = it * kChunk + key_in_chunk;
        if (j >= n_keys) s = -INFINITY;
        else if (bias) s += bias[t_bias - j];
        const float wm = warp_max(s);
        if (lane == 0) sm.red_max[warp] = wm;
        __syncthreads();
        const float mn =
            fmaxf(m, fmaxf(fmaxf(sm.red_max[0], sm.red_max[1]), fmaxf(sm.red_max[2], sm.red_max[3])));
        const float mu = mn == -INFINITY ? 0.0f : mn;  // nothing valid yet: every exp is 0
        const float a = expf(m - mu);
        m = mn;
        const float p = expf(s - mu);
        if (half == 0) sm.p[key_in_chunk] = p;
        const float ws = warp_sum(half == 0 ? p : 0.0f);
        if (lane == 0) sm.red_sum[warp] = ws;
        __syncthreads();  // p and the warps' sums visible
        l = a * l + ((sm.red_sum[0] + sm.red_sum[1]) + (sm.red_sum[2] + sm.red_sum[3]));
        const T* vb = sm.V + b * kChunk * row_ld<T>() + c8 * 8;
#pragma unroll
        for (int u = 0; u < 8; ++u) o[u] *= a;
#pragma unroll
        for (int k = 0; k < kChunk / kGroups; ++k) {
            const int jj = g + kGroups * k;
            float vf[8];
            load8(vb + jj * row_ld<T>(), vf);
            const float pj = sm.p[jj];
#pragma unroll
            for (int u = 0; u < 8; ++u) o[u] += pj * vf[u];
        }
    }
#pragma unroll
    for (int u = 0; u < 8; ++u) sm.part[g * kHeadDim + c8 * 8 + u] = o[u];
    __syncthreads();
}

// sum_g o_g for dim d (< 64) after attend, in a fixed order.
template <typename T>
__device__ float output_dim(const Smem<T>& sm, int d) {
    float acc = 0.0f;
#pragma unroll
    for (int gg = 0; gg < kGroups; ++gg) acc += sm.part[gg * kHeadDim + d];
    return acc;
}

}  // namespace receipt::cuda::stream
