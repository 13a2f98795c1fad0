// `receipt`: the command-line front end. Thin: parses flags and calls the library; maps exceptions to exit codes.
#include <spdlog/spdlog.h>

#include <iostream>

#include "commands.h"
#include "model_args.h"
#include "receipt/errors.h"

int main(int argc, char** argv) {
    set_program_path(argc > 0 ? argv[0] : nullptr);
    CLI::App app{"receipt-engine: T5 receipt extraction on CPU and CUDA"};
    app.require_subcommand(1);
    app.set_version_flag("--version", "receipt-engine 0.1.0");
    add_generate_command(app);
#ifdef RECEIPT_HAVE_CMD_EXTRACT
    add_extract_command(app);
#endif
#ifdef RECEIPT_HAVE_CMD_EVAL
    add_eval_command(app);
#endif
#if defined(RECEIPT_HAVE_CMD_SERVE) && defined(RECEIPT_WITH_SERVER)
    add_serve_command(app);
#endif
#ifdef RECEIPT_HAVE_CMD_BUILD_ENGINE
    add_build_engine_command(app);
#endif
#ifdef RECEIPT_HAVE_CMD_BENCH
    add_bench_command(app);
#endif
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        // Prints the help or the usage error; a usage error (unknown flag, value out of range) is bad input.
        return app.exit(e) == 0 ? kExitOk : kExitBadInput;
    } catch (const receipt::InvalidInput& e) {  // the user's input, model folder or machine: no source location
        std::cerr << "error: " << e.message() << "\n";
        return kExitBadInput;
    } catch (const receipt::ModelError& e) {
        std::cerr << "model error: " << e.message() << "\n";
        return kExitModel;
    } catch (const receipt::Unavailable& e) {
        std::cerr << "unavailable: " << e.message() << "\n";
        return kExitUnavailable;
    } catch (const std::exception& e) {
        std::cerr << "error: " << e.what() << "\n";
        return kExitError;
    }
    return kExitOk;
}
