// Subcommands of the `receipt` CLI; each lives in its own cmd_<name>.cpp and registers itself on the app.
#pragma once

#include <CLI/CLI.hpp>

void add_generate_command(CLI::App& app);      // receipt generate: text -> decoded text / ids
void add_serve_command(CLI::App& app);         // receipt serve: the online prediction server
void add_build_engine_command(CLI::App& app);  // receipt build-engine: CUDA engine plan
void add_bench_command(CLI::App& app);         // receipt bench: generation timing
void add_extract_command(CLI::App& app);       // receipt extract: receipt text -> JSON fields
void add_eval_command(CLI::App& app);          // receipt eval: accuracy on a labelled JSONL file

// Exit codes shared by the subcommands.
enum ExitCode { kExitOk = 0, kExitError = 1, kExitBadInput = 2, kExitModel = 3, kExitUnavailable = 4 };
