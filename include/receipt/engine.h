// Backends that run T5 generation: the fp32 CPU reference and (when built with CUDA) the fp16 GPU engine.
#pragma once

#include <cmath>
#include <memory>
#include <string>
#include <vector>

namespace receipt {

class Model;

// Where an engine runs. kAuto is the GPU when one is usable, else the CPU; kCuda asks for the GPU explicitly.
enum class Device { kAuto, kCpu, kCuda };
// Compute precision of the CUDA engine (the CPU engine is always fp32).
enum class DType { kF32, kF16, kBF16 };

// "cpu" / "cuda" / "auto" -> Device; throws InvalidInput otherwise.
Device parse_device(const std::string& s);
// "fp32" / "fp16" / "bf16" -> DType; throws InvalidInput otherwise.
DType parse_dtype(const std::string& s);
// Name of a device for logs ("cpu", "cuda").
const char* device_name(Device d);

// How an engine is created.
struct EngineOptions {
    Device device = Device::kAuto;
    DType dtype = DType::kF16;     // CUDA only
    int n_threads = 0;             // CPU threads for GEMMs and element-wise work; 0 = all cores
    int max_batch_size = 64;       // largest batch (sequences x beams) the engine preallocates for
    int max_input_tokens = 512;    // longest source the engine preallocates for
    int max_total_tokens = 256;    // longest target (decoder positions) the engine preallocates for
    // CUDA: engine plan file; "" = <model dir>/engine-<gpu>-<precision>-b<batch>-in<input>-out<total>.plan
    std::string plan_path;
    bool rebuild_plan = true;      // CUDA: rebuild a missing / mismatched plan instead of failing
    // CUDA: the GPU (device ordinal, 0 .. cuda_device_count() - 1) the engine holds its weights on and runs on;
    // -1 = the creating thread's current device (GPU 0 unless the caller chose another).
    int gpu = -1;
    // CUDA fp16 / bf16, greedy with a logits processor: a sequence whose GenerationResult::min_margin falls below
    // this many logit units is decoded again by an fp32 engine on the same GPU, whose result replaces it (the
    // fp32 reference's tokens for the near ties that half precision tips). 0 = off. Not used with
    // f32_activations, whose outputs already follow the fp32 reference.
    float fp32_recheck_margin = 0.0f;
    // CUDA fp16 / bf16: activations stay f32 between ops (attention, norms, KV cache) and each GEMM input is
    // split into two half-precision parts, hi = T(x) and lo = T(x - hi), multiplied by the same half-precision
    // weights with f32 accumulation (two GEMMs). Weights keep their half-precision size; the products are
    // exact, so results follow the fp32 engine to within f32 rounding ("fp16-a32" / "bf16-a32" precisions).
    bool f32_activations = false;
    // Greedy search (beam search ignores it): each decode step also checks up to this many draft tokens per
    // sequence, proposed by prompt lookup (what followed the latest earlier occurrence of the last tokens in
    // GenerationOptions::draft_context, the source and the output so far; src/generate/prompt_lookup.h). Outputs are unchanged (a draft counts only
    // where it equals greedy search's choice, logits processor included); a step emits 1 + the drafts accepted.
    // The CPU engine, for calls of at most kMaxHostSpeculativeBatch sequences, feeds drafts only when the lookup
    // finds one; the CUDA engine, for calls of at most kMaxSpeculativeBatch sequences (kMaxHostSpeculativeBatch
    // with a logits processor), always feeds 1 + draft_tokens rows per sequence and preallocates decoder rows for
    // them. Larger calls decode one token per step. 0 = off; at most kMaxDraftTokens; kDraftTokensByDevice =
    // kCudaDraftTokens on CUDA, kCpuDraftTokens on the CPU (both save time at batch 1-2).
    int draft_tokens = 0;
    // CPU: MiB of encoder outputs kept from earlier generate() calls, keyed by the source's token ids, so that a
    // source decoded again (the extractor's name and address passes) skips the encoder. The output is the one the
    // source got when it was first encoded. 0 = off.
    int encoder_cache_mib = 64;
};

// Largest batch (sequences) that speculative greedy decoding (EngineOptions::draft_tokens) runs for; larger
// batches decode one token per step.
constexpr int kMaxSpeculativeBatch = 8;
// The same where the host checks the drafts (the CPU engine, and CUDA with a logits processor): calls of at most
// this many sequences (measured on CUDA: drafts save ~10% of extraction time at batch 1-2 and cost 8-40% at batch
// 4-8; on a 2-core CPU: 26% / 11% less at batch 1 / 2, 3% at 4, 40% more at 8).
constexpr int kMaxHostSpeculativeBatch = 2;
// Largest EngineOptions::draft_tokens.
constexpr int kMaxDraftTokens = 31;
// EngineOptions::draft_tokens: chosen by the device the engine runs on (the CLI's and the server's default).
constexpr int kDraftTokensByDevice = -1;
// What kDraftTokensByDevice means on CUDA: 3 drafts, about 20% less extraction time at batch 1 on an H200
// (docs/benchmarks.md, "Drafts with a logits processor").
constexpr int kCudaDraftTokens = 3;
// What kDraftTokensByDevice means on the CPU: 3 drafts. A decoder step streams every decoder weight from memory
// once for all its rows, so checking 3 drafts costs little more than one token (docs/benchmarks.md, "Drafts on
// the CPU").
constexpr int kCpuDraftTokens = 3;
// The drafts an engine on `device` (kCpu or kCuda) runs for EngineOptions::draft_tokens: kDraftTokensByDevice
// becomes kCudaDraftTokens on CUDA and kCpuDraftTokens on the CPU, other values stay. Throws InvalidInput outside
// kDraftTokensByDevice .. kMaxDraftTokens.
int resolve_draft_tokens(int draft_tokens, Device device);

// Sets options.dtype and options.f32_activations from a precision name: "fp32", "fp16", "bf16", or "fp16-a32" /
// "bf16-a32" (half-precision weights, f32 activations). Throws InvalidInput otherwise.
void set_precision(EngineOptions& options, const std::string& precision);

// Adjusts a row's next-token logits before greedy search picks the token (a Hugging Face LogitsProcessor),
// e.g. to forbid tokens. Called on the host from several threads at once, so process() must not mutate shared
// state. source: the input's index in the generate() call; generated: the ids chosen so far for that input;
// logits: [vocab] fp32, modified in place (set a token to -INFINITY to forbid it).
class LogitsProcessor {
public:
    virtual ~LogitsProcessor() = default;
    virtual void process(int source, const std::vector<int>& generated, float* logits, int vocab) const = 0;
};

// Decoding parameters, with Hugging Face generate() semantics.
struct GenerationOptions {
    int num_beams = 1;             // 1 = greedy
    int max_new_tokens = 128;      // hard cap on generated tokens (EOS included)
    int min_new_tokens = 0;        // EOS is forbidden before this many tokens
    float length_penalty = 1.0f;   // beam score = sum logprob / length^length_penalty
    bool early_stopping = false;   // beam: stop as soon as num_beams hypotheses are finished
    // Greedy only (ignored by beam search): applied to every row's logits before the argmax. On CUDA it moves the
    // argmax to the host (logits are copied back each step) instead of the on-GPU graph loop.
    std::shared_ptr<const LogitsProcessor> logits_processor;
    // Speculative greedy (EngineOptions::draft_tokens) only: more token ids the prompt lookup may draft from,
    // searched before the source (a typical output, whose fixed labels the source does not print). At most
    // kMaxDraftContext ids are used (the first ones). Never changes the output.
    std::vector<int> draft_context;
};

// Most GenerationOptions::draft_context ids an engine uses.
constexpr int kMaxDraftContext = 256;

// One generated sequence: ids after the decoder start token, ending with EOS when one was produced.
struct GenerationResult {
    std::vector<int> ids;
    float score = 0.0f;            // beam: length-penalised log-probability; greedy: sum of log-probabilities
    // Greedy on the host (the CPU engine; the CUDA engine with a logits processor): the smallest gap, over the
    // steps, between the chosen token's logit and the runner-up's (after the processor); +inf when not tracked
    // (beam search, CUDA greedy without a processor) or never contested. A small gap is a near tie that rounding
    // of the activations can tip (EngineOptions::fp32_recheck_margin).
    float min_margin = INFINITY;
};

// Speculative greedy decoding (EngineOptions::draft_tokens) of an engine since it was created: decode steps run
// (one per batch) and the tokens they emitted. At batch 1, tokens / steps is the speedup in steps over plain
// greedy search.
struct SpeculationStats {
    long long steps = 0, tokens = 0;
};

// A generation backend. An Engine owns its scratch memory and KV cache, so one Engine serves one thread at a
// time; make one per worker. The Model it runs is shared and immutable.
class Engine {
public:
    virtual ~Engine() = default;
    // Generates for a batch of token-id sequences of any lengths (each should end with EOS). Returns one
    // result per input, in input order. Throws InvalidInput for empty / too long inputs or bad options.
    virtual std::vector<GenerationResult> generate(const std::vector<std::vector<int>>& inputs,
                                                   const GenerationOptions& options) = 0;
    // The device this engine runs on (never kAuto).
    virtual Device device() const = 0;
    // A one-line description ("cpu fp32, 2 threads", "cuda fp16 NVIDIA H200").
    virtual std::string describe() const = 0;
    // Speculative decoding counts so far ({0, 0} with drafts off).
    virtual SpeculationStats speculation_stats() const { return {}; }
};

// True when the library was built with CUDA and a GPU is usable now. Never throws.
bool cuda_available();
// The GPUs the CUDA engine may run on (EngineOptions::gpu 0 .. n-1, after CUDA_VISIBLE_DEVICES): 0 when
// cuda_available() is false. Never throws.
int cuda_device_count();

// Creates an engine for `model`. Device kAuto falls back to CPU when CUDA is unavailable; an explicit kCuda
// without a GPU throws Unavailable.
std::unique_ptr<Engine> make_engine(std::shared_ptr<const Model> model, const EngineOptions& options);

}  // namespace receipt
