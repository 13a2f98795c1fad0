// receipt generate --model DIR [--beams N] [--max-new-tokens N] [--ids] TEXT|-
#include <iostream>
#include <iterator>

#include "commands.h"
#include "model_args.h"
#include "receipt/engine.h"
#include "receipt/errors.h"
#include "receipt/model.h"
#include "receipt/tokenizer.h"

void add_generate_command(CLI::App& app) {
    struct Args {
        ModelArgs model;
        std::string text;
        int beams = 1, max_new = 128, min_new = 0;
        float length_penalty = 1.0f;
        bool early = false, ids = false;
    };
    auto args = std::make_shared<Args>();
    auto* cmd = app.add_subcommand("generate", "Run T5 generation on one text and print the decoded output");
    args->model.add_to(cmd);
    cmd->add_option("text", args->text, "input text, or - to read standard input")->required();
    cmd->add_option("--beams", args->beams, "beam width (1 = greedy)")->capture_default_str();
    cmd->add_option("--max-new-tokens", args->max_new, "most tokens to generate")->capture_default_str();
    cmd->add_option("--min-new-tokens", args->min_new, "EOS is forbidden before this many tokens")->capture_default_str();
    cmd->add_option("--length-penalty", args->length_penalty, "beam length penalty")->capture_default_str();
    cmd->add_flag("--early-stopping", args->early, "beam: stop when num_beams hypotheses are finished");
    cmd->add_flag("--ids", args->ids, "print token ids instead of text");
    cmd->callback([args] {
        std::string text = args->text;
        if (text == "-") text.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
        auto model = receipt::Model::load(args->model.model_dir());
        receipt::Tokenizer tok(model->tokenizer_path(), model->config().sentencepiece_tokenizer
                                                             ? receipt::TokenizerMode::kSentencePiece
                                                             : receipt::TokenizerMode::kHuggingFace);
        receipt::EngineOptions eo =
            args->model.engine_options(receipt::parse_device(args->model.device), args->max_new, args->beams);
        auto engine = receipt::make_engine(model, eo);
        receipt::GenerationOptions go;
        go.num_beams = args->beams;
        go.max_new_tokens = args->max_new;
        go.min_new_tokens = args->min_new;
        go.length_penalty = args->length_penalty;
        go.early_stopping = args->early;
        auto ids = tok.encode(text);
        if (static_cast<int>(ids.size()) > eo.max_input_tokens) {
            std::cerr << "warning: input truncated from " << ids.size() << " to " << eo.max_input_tokens << " tokens\n";
            ids.resize(eo.max_input_tokens - 1);
            ids.push_back(tok.eos_id());
        }
        auto result = engine->generate({ids}, go);
        if (args->ids) {
            for (size_t i = 0; i < result[0].ids.size(); ++i) std::cout << (i ? " " : "") << result[0].ids[i];
            std::cout << "\n";
        } else {
            std::cout << tok.decode(result[0].ids) << "\n";
        }
    });
}
