// receipt build-engine --model DIR --out FILE [--dtype fp16|bf16|fp32|fp16-a32|bf16-a32] [--max-batch N] [--gpu N]
//                      [--max-input-tokens N] [--max-total-tokens N]
// Times cuBLASLt algorithms for the model's GEMM shapes on this GPU and writes an engine plan. The engine loads
// the plan when every header field (GPU, driver, CUDA runtime, cuBLASLt, model checksum, dtype, limits) matches.
#include <filesystem>
#include <iostream>

#include "commands.h"
#include "receipt/engine.h"
#include "receipt/errors.h"
#include "receipt/model.h"

void add_build_engine_command(CLI::App& app) {
    struct Args {
        std::string model, out, dtype = "fp16-a32";
        receipt::EngineOptions eo;
    };
    auto args = std::make_shared<Args>();
    auto* cmd = app.add_subcommand("build-engine", "Tune cuBLASLt algorithms on this GPU and write an engine plan");
    cmd->add_option("--model", args->model, "Hugging Face T5 folder")->required();
    cmd->add_option("--out", args->out, "plan file to write (the engine's default is <model>/engine-<gpu>-<dtype>-b<batch>-in<input>-out<total>.plan)")
        ->required();
    cmd->add_option("--dtype", args->dtype, "fp16, bf16, fp32, fp16-a32 or bf16-a32")->capture_default_str();
    cmd->add_option("--max-batch", args->eo.max_batch_size, "largest batch (sequences x beams)")->capture_default_str();
    cmd->add_option("--gpu", args->eo.gpu, "the GPU to tune on, 0 .. count - 1 (-1 = the first)")
        ->check(CLI::Range(-1, 1023))
        ->capture_default_str();
    cmd->add_option("--max-input-tokens", args->eo.max_input_tokens, "longest source")->capture_default_str();
    cmd->add_option("--max-total-tokens", args->eo.max_total_tokens, "longest target")->capture_default_str();
    cmd->callback([args] {
        // make_engine throws Unavailable saying why when the GPU cannot be used (no CUDA build, no GPU, an old
        // driver or GPU, no cuBLASLt).
        auto model = receipt::Model::load(args->model);
        receipt::EngineOptions eo = args->eo;
        eo.device = receipt::Device::kCuda;
        receipt::set_precision(eo, args->dtype);
        eo.plan_path = args->out;
        eo.rebuild_plan = true;
        // The engine builds a plan when the file is missing, so remove the old one: build-engine always re-times.
        std::error_code ec;
        std::filesystem::remove(eo.plan_path, ec);
        auto engine = receipt::make_engine(model, eo);
        std::cout << engine->describe() << "\n";
    });
}
