// `receipt serve`: the online prediction server (Vertex AI / KServe). Flags map 1:1 onto receipt::ServerOptions;
// docs/server.md documents them.
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <climits>
#include <memory>

#include "commands.h"
#include "receipt/errors.h"
#include "receipt/extractor.h"
#include "receipt/server.h"

#ifndef RECEIPT_SOURCE_DIR
#define RECEIPT_SOURCE_DIR ""
#endif

namespace {

std::string exe_path() {
    char buf[PATH_MAX];
    const ssize_t n = ::readlink("/proc/self/exe", buf, sizeof buf - 1);
    return n > 0 ? std::string(buf, static_cast<size_t>(n)) : std::string();
}

}  // namespace

void add_serve_command(CLI::App& app) {
    auto opts = std::make_shared<receipt::ServerOptions>();
    CLI::App* cmd = app.add_subcommand("serve", "Run the HTTP prediction server (Vertex AI and KServe protocols)");
    receipt::ServerOptions& o = *opts;

    cmd->add_option("--model", o.model_dir, "Model folder (default: $RECEIPT_MODEL_DIR or the bundled model)");
    cmd->add_option("--device", o.device, "Engine device")
        ->check(CLI::IsMember({"auto", "cpu", "cuda"}))
        ->capture_default_str();
    cmd->add_option("--dtype", o.dtype,
                    "CUDA compute precision (fp16-a32 / bf16-a32: half-precision weights, f32 activations)")
        ->check(CLI::IsMember({"fp32", "fp16", "bf16", "fp16-a32", "bf16-a32"}))
        ->capture_default_str();
    cmd->add_option("--fp32-recheck-margin", o.fp32_recheck_margin,
                    "With --dtype fp16 or bf16: decode again in fp32 the receipts whose greedy choice was within this "
                    "many logit units of the runner-up (0 = off; the default fp16-a32 needs none)")
        ->check(CLI::NonNegativeNumber)
        ->capture_default_str();
    cmd->add_option("--threads", o.n_threads, "CPU threads per engine (0 = cores / workers)")->capture_default_str();
    cmd->add_option("--draft-tokens", o.draft_tokens,
                    "Greedy: check up to this many prompt-lookup draft tokens per decode step (speculative "
                    "decoding; the same output in fewer steps; 0 = off; -1 = 3, used where they pay: for engine "
                    "calls of 1-2 receipts on the CPU, up to 8 on a GPU)")
        ->check(CLI::Range(receipt::kDraftTokensByDevice, receipt::kMaxDraftTokens))
        ->capture_default_str();
    cmd->add_option("--encoder-cache-mib", o.encoder_cache_mib,
                    "CPU: MiB of encoder outputs each engine keeps, so that the name and address passes of a "
                    "receipt skip the encoder (0 = off)")
        ->check(CLI::Range(0, 1 << 20))
        ->capture_default_str();
    cmd->add_option("--workers", o.n_workers,
                    "Engines sharing the queue; 0 = two per GPU on a GPU (GPUs taken in turn), else 1")
        ->capture_default_str();
    cmd->add_option("--max-input-tokens", o.max_input_tokens, "Longer inputs are truncated (or rejected)")
        ->capture_default_str();
    cmd->add_option("--max-new-tokens", o.max_new_tokens, "Default and cap of parameters.max_new_tokens")
        ->capture_default_str();
    cmd->add_option("--max-beams", o.max_beams, "Cap of parameters.num_beams")->capture_default_str();

    cmd->add_option("--host", o.host, "Listen address (default: 0.0.0.0 when AIP_MODE is set, else 127.0.0.1)");
    cmd->add_option("--port", o.port, "Listen port; 0 = any (default: $AIP_HTTP_PORT or 8080)");
    cmd->add_option("--health-route", o.health_route, "Health route (default: $AIP_HEALTH_ROUTE or /health)");
    cmd->add_option("--predict-route", o.predict_route, "Predict route (default: $AIP_PREDICT_ROUTE or /predict)");
    cmd->add_option("--model-name", o.model_name,
                    "Model name in KServe routes (default: $AIP_MODEL_NAME or receipt-t5)");
    cmd->add_option("--api-key", o.api_key,
                    "Require this key (Authorization: Bearer or x-api-key; default: "
                    "$RECEIPT_API_KEY, none when unset)");
    cmd->add_option("--http-threads", o.http_threads, "Connection threads (each open connection holds one)")
        ->capture_default_str();
    cmd->add_option("--keep-alive-timeout-s", o.keep_alive_timeout_s, "Idle keep-alive timeout")->capture_default_str();
    cmd->add_option("--read-timeout-s", o.read_timeout_s, "Socket read/write timeout")->capture_default_str();

    cmd->add_option("--max-batch-size", o.max_batch_size,
                    "Texts per engine call (0 = by device: 64 on a GPU, 16 on the CPU)")
        ->capture_default_str();
    cmd->add_option("--max-queue-delay-us", o.max_queue_delay_us, "Longest wait for a fuller batch")
        ->capture_default_str();
    cmd->add_option("--max-queue-size", o.max_queue_size, "Queued texts before requests are refused")
        ->capture_default_str();
    cmd->add_option("--max-instances", o.max_instances, "Texts per request")->capture_default_str();
    cmd->add_option("--max-body-bytes", o.max_body_bytes, "Larger request bodies get 413")->capture_default_str();
    cmd->add_option("--timeout-ms", o.default_timeout_ms, "Default request deadline (parameters.timeout_ms)")
        ->capture_default_str();
    cmd->add_option("--max-timeout-ms", o.max_timeout_ms, "Cap of parameters.timeout_ms")->capture_default_str();
    cmd->add_option("--overload-status", o.overload_status, "Status for a full queue")
        ->check(CLI::IsMember({429, 503}))
        ->capture_default_str();
    cmd->add_option("--retry-after-s", o.retry_after_s, "Retry-After on 429/503")->capture_default_str();
    cmd->add_option("--grace-period-s", o.grace_period_s, "Drain time after SIGTERM/SIGINT")->capture_default_str();

    cmd->add_flag("!--no-access-log", o.access_log, "Do not write JSON access logs to stderr");
    cmd->add_flag("--log-text", o.log_text, "Include receipt texts in access logs (may contain personal data)");

    cmd->callback([opts] {
        receipt::ServerOptions options = *opts;
        if (options.model_dir.empty()) {
            try {
                options.model_dir = receipt::default_model_dir(exe_path(), RECEIPT_SOURCE_DIR);
            } catch (const receipt::Error& e) {
                throw CLI::RuntimeError(std::string(e.what()), 3);
            }
        }
        const int status = receipt::run_server(options);
        if (status != 0) throw CLI::RuntimeError(status);
    });
}
