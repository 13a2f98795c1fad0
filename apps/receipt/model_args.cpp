#include "model_args.h"

namespace {
std::string g_program_path = "receipt";
}

void set_program_path(const char* argv0) {
    if (argv0) g_program_path = argv0;
}

void ModelArgs::add_to(CLI::App* cmd) {
    cmd->add_option("--model", model, "model folder (default: the bundled receipt-t5-small, or $RECEIPT_MODEL_DIR)");
    cmd->add_option("--device", device, "auto (the GPU when one is usable, else the CPU), cpu or cuda")->capture_default_str();
    cmd->add_option("--dtype", dtype,
                    "CUDA precision: fp16, bf16, fp32, or fp16-a32 / bf16-a32 (half-precision weights, f32 "
                    "activations: the CPU's outputs)")
        ->capture_default_str();
    cmd->add_option("--fp32-recheck-margin", fp32_recheck_margin,
                    "With --dtype fp16 or bf16: decode again in fp32 the receipts whose greedy choice was within this "
                    "many logit units of the runner-up (0 = off; the default fp16-a32 needs none)")
        ->check(CLI::NonNegativeNumber)
        ->capture_default_str();
    cmd->add_option("--gpu", gpu, "CUDA: the GPU to run on, 0 .. count - 1 (-1 = the first)")
        ->check(CLI::Range(-1, 1023))
        ->capture_default_str();
    cmd->add_option("--threads", threads, "CPU threads (0 = all cores)")->capture_default_str();
    cmd->add_option("--draft-tokens", draft_tokens,
                    "greedy: check up to this many prompt-lookup draft tokens per decode step (speculative decoding; "
                    "the same output in fewer steps; 0 = off; -1 = 3, used where they pay: for engine calls of "
                    "1-2 receipts on the CPU, up to 8 on a GPU)")
        ->check(CLI::Range(receipt::kDraftTokensByDevice, receipt::kMaxDraftTokens))
        ->capture_default_str();
    cmd->add_option("--max-input-tokens", max_input_tokens, "longer inputs are truncated with a warning")
        ->capture_default_str();
}

std::string ModelArgs::model_dir() const {
    if (!model.empty()) return model;
    return receipt::default_model_dir(g_program_path, RECEIPT_SOURCE_DIR);
}

receipt::EngineOptions ModelArgs::engine_options(receipt::Device d, int max_new_tokens, int max_rows) const {
    receipt::EngineOptions eo;
    eo.device = d;
    receipt::set_precision(eo, dtype);
    eo.fp32_recheck_margin = fp32_recheck_margin;
    eo.n_threads = threads;
    eo.draft_tokens = draft_tokens;
    eo.gpu = gpu;
    eo.max_input_tokens = max_input_tokens;
    if (max_new_tokens > 0) eo.max_total_tokens = max_new_tokens + 1;  // + the decoder start position
    if (max_rows > eo.max_batch_size) eo.max_batch_size = max_rows;
    return eo;
}
