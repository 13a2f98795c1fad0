// Engine plan files: the cuBLASLt algorithms chosen (by timing) for a model's GEMM shapes on one GPU + software
// stack, and the kernel variants chosen by timing whole decode steps. Plain C++ (no CUDA headers) so that parsing
// and validation are unit-tested on machines without a GPU.
//
// File layout (little-endian):
//   0   char[8]  magic "RCPTPLAN"
//   8   u32      format version (kPlanFormatVersion)
//   12  u32      flags (0)
//   16  u64      body size in bytes
//   24  u32      CRC-32 (IEEE) of the body
//   28  u32      reserved (0)
//   32  body:    header fields (strings are u32 length + bytes), u32 n_gemms, n_gemms fixed-size entries,
//                u32 n_choices, n_choices entries (name string, i32 value, f32 time_off_us, f32 time_on_us).
// Every size and offset is validated before use; a bad file yields ModelError, never a crash.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace receipt::cuda {

// 2: kernel choices; 3: decode GEMM routes among them; 4: those routes timed with the deferred norm (residual_gemm).
constexpr uint32_t kPlanFormatVersion = 4;
constexpr char kPlanMagic[8] = {'R', 'C', 'P', 'T', 'P', 'L', 'A', 'N'};
constexpr size_t kPlanPrefixBytes = 32;

// What a plan was built for. Two plans are interchangeable only when every field matches.
struct PlanHeader {
    std::string gpu_name;           // cudaDeviceProp::name, e.g. "NVIDIA H200"
    int cc_major = 0, cc_minor = 0; // compute capability
    int driver_version = 0;         // cudaDriverGetVersion
    int runtime_version = 0;        // cudaRuntimeGetVersion
    uint64_t cublaslt_version = 0;  // cublasLtGetVersion
    std::string model_checksum;     // Model::checksum()
    std::string dtype;              // precision: "fp16" / "bf16" / "fp32" / "fp16-a32" / "bf16-a32"
    int max_batch = 0, max_input = 0, max_total = 0;  // EngineOptions limits the shapes were tuned for

    bool operator==(const PlanHeader&) const = default;
};

// One tuned GEMM: y[m, n] (+)= alpha x[m, k] w[n, k]^T with the given leading dimensions and types.
struct PlanGemm {
    int32_t m = 0, n = 0, k = 0;
    int32_t ldx = 0, ldw = 0, ldy = 0;
    int32_t ab_type = 0;     // cudaDataType of x and w
    int32_t out_type = 0;    // cudaDataType of y
    int32_t epilogue = 0;    // cublasLtEpilogue_t
    int32_t accumulate = 0;  // 1: beta = 1 (y += ...)
    uint64_t algo[8] = {};   // cublasLtMatmulAlgo_t, opaque, valid for the recorded cuBLASLt version
    uint64_t workspace = 0;  // bytes the algorithm needs
    float time_us = 0.0f;    // measured time of the chosen algorithm

    // The fields that identify the shape (not the algorithm).
    bool same_shape(const PlanGemm& o) const {
        return m == o.m && n == o.n && k == o.k && ldx == o.ldx && ldw == o.ldw && ldy == o.ldy &&
               ab_type == o.ab_type && out_type == o.out_type && epilogue == o.epilogue && accumulate == o.accumulate;
    }
};

// One on/off kernel choice, decided by timing a decode step both ways (e.g. "cross_stream_single_row").
struct PlanChoice {
    std::string name;
    int32_t value = 0;        // 0: off, 1: on
    float time_off_us = 0.0f;  // measured step time with it off
    float time_on_us = 0.0f;   // and on

    bool operator==(const PlanChoice&) const = default;
};

// A decode GEMM route of a plan: the PlanChoice named "gemm_mma m=M n=N k=K acc=A" sends GEMMs of that shape
// (rows, columns, depth, accumulate into y) to the tensor-core decode kernel (value 1) or to cuBLASLt (value 0).
struct GemmRoute {
    int m = 0, n = 0, k = 0;
    bool accumulate = false;

    bool operator==(const GemmRoute&) const = default;
};
// The choice name of a route.
std::string gemm_route_choice_name(const GemmRoute& r);
// The route a choice name holds, or nullopt when it is not exactly a route name with positive m, n, k and acc 0 / 1.
std::optional<GemmRoute> parse_gemm_route_choice(const std::string& name);

struct EnginePlan {
    PlanHeader header;
    std::vector<PlanGemm> gemms;
    std::vector<PlanChoice> choices;
};

// CRC-32 (IEEE 802.3, reflected, as zlib's crc32).
uint32_t crc32(const void* data, size_t n);

// Plan -> file bytes.
std::string serialize_plan(const EnginePlan& plan);
// File bytes -> plan. `source` names the file in error messages. Throws ModelError on a wrong magic, an unknown
// format version, a truncated file, a CRC mismatch or any inconsistent size / count.
EnginePlan parse_plan(const std::string& bytes, const std::string& source);

// Empty when `found` matches `expected`, else one line per differing field: "gpu_name: file 'A' vs this
// machine 'B'".
std::string describe_plan_mismatch(const PlanHeader& found, const PlanHeader& expected);

// The file name of an engine's default plan in its model folder: "engine-<gpu>-<precision>-b<max_batch>-in<max_input>-
// out<max_total>.plan", the GPU name lower-cased with every character but letters and digits made '-'
// ("engine-nvidia-h200-fp16-a32-b64-in512-out256.plan"). The limits are in the name because a plan is tuned for
// them: engines with other limits on one model (the CLI at 8 rows, the server at 64) keep a plan each instead of
// rebuilding one file in turn.
std::string default_plan_file_name(const std::string& gpu_name, const std::string& precision, int max_batch,
                                   int max_input, int max_total);

// Reads and parses a plan file; throws ModelError (missing / unreadable / corrupt).
EnginePlan read_plan_file(const std::string& path);
// Writes atomically (temporary file + rename); throws ModelError on I/O failure.
void write_plan_file(const std::string& path, const EnginePlan& plan);

}  // namespace receipt::cuda
