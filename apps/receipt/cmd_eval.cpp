// receipt eval --data IN.jsonl [--model DIR] [--limit N] [--report OUT.json] [--ignore-spaces] [--exclude-ocr-mismatch]
// Per-field precision / recall / F1, exact match and item F1, by input-length bucket; CPU and CUDA side by side
// when a GPU is present.
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>

#include "commands.h"
#include "extract/evaluation.h"
#include "model_args.h"
#include "receipt/errors.h"
#include "receipt/model.h"

namespace {

struct DeviceRun {
    std::string device;
    std::string describe;
    receipt::extract::EvalScores all;
    std::map<std::string, receipt::extract::EvalScores> buckets;
    std::vector<std::string> outputs;  // target texts, for CPU/CUDA agreement
    std::vector<std::string> bucket_of;  // input-length bucket of each receipt
    double seconds = 0;
};

void print_run(const DeviceRun& r, const std::vector<std::string>& fields) {
    std::printf("\n== %s (%s): %d receipts, %.3f s/receipt ==\n", r.device.c_str(), r.describe.c_str(), r.all.n,
                r.all.n ? r.seconds / r.all.n : 0.0);
    std::printf("%-18s %9s %9s %9s\n", "field", "precision", "recall", "F1");
    for (const auto& f : fields) {
        if (f == "line_items") continue;
        const auto it = r.all.fields.find(f);
        if (it == r.all.fields.end()) continue;
        std::printf("%-18s %9.4f %9.4f %9.4f\n", f.c_str(), it->second.precision(), it->second.recall(), it->second.f1());
    }
    if (r.all.items.tp + r.all.items.fp + r.all.items.fn > 0)
        std::printf("%-18s %9.4f %9.4f %9.4f\n", "items", r.all.items.precision(), r.all.items.recall(),
                    r.all.items.f1());
    std::printf("%-18s %9.4f\n", "exact match", r.all.n ? double(r.all.n_exact) / r.all.n : 0.0);
    if (!r.all.excluded.empty()) {
        std::printf("not scored (gold value not printed in the text):");
        for (const auto& [k, v] : r.all.excluded) std::printf(" %s %d;", k == "line_items" ? "items" : k.c_str(), v);
        std::printf("\n");
    }
    std::printf("by input length (tokens): ");
    for (const auto& [b, s] : r.buckets) {
        double f1 = 0;
        int nf = 0;
        for (const auto& [k, v] : s.fields) f1 += v.f1(), ++nf;
        std::printf(" %s n=%d mean-field-F1=%.4f exact=%.4f;", b.c_str(), s.n, nf ? f1 / nf : 0.0,
                    s.n ? double(s.n_exact) / s.n : 0.0);
    }
    std::printf("\n");
}

}  // namespace

void add_eval_command(CLI::App& app) {
    struct Args {
        ModelArgs model;
        std::string data, report;
        int limit = 0, batch_size = 8, max_new = 512;
        bool free_numbers = false, free_name = false, free_date = false, free_address = false, no_known_names = false;
        bool keep_rows = false, ignore_spaces = false, exclude_ocr_mismatch = false;
    };
    auto a = std::make_shared<Args>();
    auto* cmd = app.add_subcommand("eval", "Score extraction against a labelled JSONL file ({\"id\",\"text\",\"fields\"})");
    a->model.add_to(cmd);
    cmd->add_option("--data", a->data, "labelled JSONL (schema fields, or SROIE company/address/date/total)")->required();
    cmd->add_option("--limit", a->limit, "score only the first N receipts (0 = all)")->capture_default_str();
    cmd->add_option("--batch-size", a->batch_size, "receipts per engine batch")->capture_default_str();
    cmd->add_option("--max-new-tokens", a->max_new, "most output tokens per receipt")->capture_default_str();
    cmd->add_option("--report", a->report, "also write the scores as JSON here");
    cmd->add_flag("--ignore-spaces", a->ignore_spaces,
                  "compare text fields with all whitespace removed (SROIE's labels space punctuation unlike the "
                  "printed text)");
    cmd->add_flag("--exclude-ocr-mismatch", a->exclude_ocr_mismatch,
                  "leave out gold store names, addresses, phones and item descriptions that are not printed in the "
                  "text (the SROIE leaderboard's 'excluding OCR mismatches' protocol); says how many");
    cmd->add_flag("--no-copy-numbers", a->free_numbers,
                  "let phone numbers and amounts use digits not printed in the receipt (default: copy printed runs)");
    cmd->add_flag("--no-copy-name", a->free_name,
                  "let the store name use text not printed in the receipt (default: copy it from the printed text)");
    cmd->add_flag("--no-copy-address", a->free_address,
                  "keep an address that is not printed in the receipt (default: copy it from the printed text)");
    cmd->add_flag("--no-copy-date", a->free_date,
                  "keep a receipt date / time that is not printed on the receipt (default: use the printed one closest to it)");
    cmd->add_flag("--no-known-names", a->no_known_names,
                  "keep store names, item descriptions and addresses OCR damaged as printed (default: restore the "
                  "spelling of one known from training, listed in the model folder's known_*.txt)");
    cmd->add_flag("--keep-rows", a->keep_rows,
                  "read a text written one line per printed row as it is (default: put its amounts on lines of their "
                  "own, the layout the model was trained on)");
    cmd->callback([a] {
        std::ifstream in(a->data);
        RECEIPT_CHECK(in.good(), receipt::InvalidInput, "cannot open --data file '" + a->data + "'");
        std::vector<std::string> texts;
        std::vector<nlohmann::json> golds;
        std::string line;
        while (std::getline(in, line)) {
            if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
            auto j = nlohmann::json::parse(line, nullptr, false);
            RECEIPT_CHECK(!j.is_discarded() && j.is_object() && j.contains("text") && j["text"].is_string(),
                          receipt::InvalidInput, a->data + ": every line needs a JSON object with \"text\"");
            texts.push_back(j["text"].get<std::string>());
            golds.push_back(receipt::extract::gold_fields(j.value("fields", nlohmann::json::object())));
            if (a->limit && static_cast<int>(texts.size()) >= a->limit) break;
        }
        const auto fields = receipt::extract::annotated_fields(golds);
        auto model = receipt::Model::load(a->model.model_dir());

        std::vector<receipt::Device> devices;
        const auto requested = receipt::parse_device(a->model.device);
        if (requested == receipt::Device::kAuto) {
            devices.push_back(receipt::Device::kCpu);
            if (receipt::cuda_available()) devices.push_back(receipt::Device::kCuda);
        } else {
            devices.push_back(requested);
        }
        receipt::ExtractOptions opts;
        opts.generation.max_new_tokens = a->max_new;
        opts.copy_numbers = !a->free_numbers;
        opts.copy_name = !a->free_name;
        opts.copy_date = !a->free_date;
        opts.copy_address = !a->free_address;
        opts.known_names = !a->no_known_names;
        opts.split_rows = !a->keep_rows;
        nlohmann::json report;
        report["copy_numbers"] = opts.copy_numbers;
        report["copy_name"] = opts.copy_name;
        report["copy_date"] = opts.copy_date;
        report["copy_address"] = opts.copy_address;
        report["known_names"] = opts.known_names;
        report["split_rows"] = opts.split_rows;
        report["data"] = a->data;
        report["ignore_spaces"] = a->ignore_spaces;
        report["exclude_ocr_mismatch"] = a->exclude_ocr_mismatch;
        receipt::extract::ScoreOptions score_opts;
        score_opts.ignore_spaces = a->ignore_spaces;
        score_opts.exclude_ocr_mismatch = a->exclude_ocr_mismatch;
        report["model"] = model->dir();
        report["fields_scored"] = fields;
        std::vector<DeviceRun> runs;
        for (auto d : devices) {
            receipt::Extractor ex(model, a->model.engine_options(d, a->max_new, a->batch_size));
            DeviceRun r;
            r.device = receipt::device_name(d);
            r.describe = ex.describe();
            const auto t0 = std::chrono::steady_clock::now();
            for (size_t i = 0; i < texts.size(); i += a->batch_size) {
                std::vector<std::string> batch(texts.begin() + i,
                                               texts.begin() + std::min(texts.size(), i + a->batch_size));
                auto res = ex.extract(batch, opts);
                for (size_t k = 0; k < res.size(); ++k) {
                    auto pred = nlohmann::json::parse(res[k].fields_json);
                    auto s = receipt::extract::score_receipt(pred, golds[i + k], fields, score_opts, texts[i + k]);
                    r.all.add(s);
                    r.buckets[receipt::extract::length_bucket(res[k].n_input_tokens)].add(s);
                    r.outputs.push_back(res[k].target_text);
                    r.bucket_of.push_back(receipt::extract::length_bucket(res[k].n_input_tokens));
                }
                std::fprintf(stderr, "\r%s: %zu/%zu", r.device.c_str(), std::min(texts.size(), i + a->batch_size),
                             texts.size());
            }
            std::fprintf(stderr, "\n");
            r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
            r.describe = ex.describe();  // after the run: engines that count their work say so
            print_run(r, fields);
            nlohmann::json jr = r.all.to_json();
            jr["describe"] = r.describe;
            jr["seconds_per_receipt"] = r.all.n ? r.seconds / r.all.n : 0.0;
            const receipt::SpeculationStats spec = ex.speculation_stats();
            if (spec.steps > 0) {  // --draft-tokens: decode steps (one per engine batch) and tokens, every pass
                jr["speculative_steps"] = spec.steps;
                jr["speculative_tokens"] = spec.tokens;
                std::printf("%s speculative decoding: %lld tokens in %lld steps (%.2f per step)\n", r.device.c_str(),
                            spec.tokens, spec.steps, double(spec.tokens) / double(spec.steps));
            }
            for (const auto& [b, s] : r.buckets) jr["by_length"][b] = s.to_json();
            report["devices"][r.device] = jr;
            runs.push_back(std::move(r));
        }
        if (runs.size() == 2) {
            // Token-level parity of the two engines: identical decoded outputs, overall and by input length.
            std::map<std::string, std::pair<int, int>> by_bucket;  // bucket -> (identical, total)
            size_t same = 0;
            for (size_t i = 0; i < runs[0].outputs.size(); ++i) {
                const bool eq = runs[0].outputs[i] == runs[1].outputs[i];
                same += eq;
                auto& c = by_bucket[runs[0].bucket_of[i]];
                c.first += eq;
                c.second += 1;
            }
            const double agree = runs[0].outputs.empty() ? 1.0 : double(same) / runs[0].outputs.size();
            std::printf("\ncpu vs cuda: identical outputs on %.2f%% of receipts;", 100.0 * agree);
            for (const auto& [b, c] : by_bucket) {
                std::printf(" %s %d/%d;", b.c_str(), c.first, c.second);
                report["cpu_cuda_identical_by_length"][b] = {{"identical", c.first}, {"n", c.second}};
            }
            std::printf("\n");
            report["cpu_cuda_identical"] = agree;
        }
        if (!a->report.empty()) {
            std::ofstream out(a->report);
            RECEIPT_CHECK(out.good(), receipt::InvalidInput, "cannot write --report file '" + a->report + "'");
            out << report.dump(2) << "\n";
        }
    });
}
