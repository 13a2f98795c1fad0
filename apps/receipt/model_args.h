// Flags shared by the subcommands that load a model: --model, --device, --dtype, --gpu, --threads.
#pragma once

#include <CLI/CLI.hpp>
#include <memory>
#include <string>

#include "receipt/engine.h"
#include "receipt/extractor.h"

// Parsed model flags.
struct ModelArgs {
    std::string model;            // "" = the bundled default model
    std::string device = "auto";  // auto, cpu, cuda
    std::string dtype = "fp16-a32";  // CUDA precision (default: fp16 weights, f32 activations: the CPU's outputs)
    float fp32_recheck_margin = 0.0f;  // CUDA fp16/bf16: near ties decoded again in fp32 (EngineOptions)
    int threads = 0;              // CPU threads (0 = all cores)
    int draft_tokens = receipt::kDraftTokensByDevice;  // greedy: prompt-lookup drafts per step (EngineOptions)
    int gpu = -1;                 // CUDA device ordinal (-1 = GPU 0, or the first of CUDA_VISIBLE_DEVICES)
    int max_input_tokens = 512;

    // Registers the flags on `cmd`.
    void add_to(CLI::App* cmd);
    // The model folder: --model, else the default model next to the executable / sources.
    std::string model_dir() const;
    // EngineOptions for these flags and `device`, sized for up to `max_new_tokens` output tokens and `max_rows`
    // sequences at once (batch x beams); 0 keeps the engine defaults.
    receipt::EngineOptions engine_options(receipt::Device device, int max_new_tokens = 0, int max_rows = 0) const;
};

// argv[0] of the running program (for locating the default model).
void set_program_path(const char* argv0);
