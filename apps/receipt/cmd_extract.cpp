// receipt extract [--model DIR] [--device auto|cpu|cuda] FILE...|-
// receipt extract --jsonl IN --out OUT      ({"id","text"} lines -> {"id","fields"} lines, input order)
#include <chrono>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <iterator>
#include <nlohmann/json.hpp>

#include "commands.h"
#include "model_args.h"
#include "receipt/errors.h"
#include "receipt/model.h"

namespace {

std::string read_all(std::istream& in) {
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// True when a receipt text holds nothing but whitespace (the extractor rejects it).
bool is_blank(const std::string& s) { return s.find_first_not_of(" \t\r\n") == std::string::npos; }

// Extracts the texts of items[i, end) (records with `text` and `error`) that have no error yet, as one batch; when
// the extractor refuses it (InvalidInput: a bad receipt), each text alone, so that one bad receipt fails only
// itself. Returns the extractions by position (k - i); a refused text gets error = where(k) + ": " + the
// extractor's message (without a source location).
template <typename Item, typename Where>
std::vector<receipt::Extraction> extract_batch(receipt::Extractor& ex, std::vector<Item>& items, size_t i, size_t end,
                                               const receipt::ExtractOptions& opts, Where where) {
    std::vector<size_t> idx;  // the batch's texts without an error
    std::vector<std::string> texts;
    for (size_t k = i; k < end; ++k)
        if (items[k].error.empty()) {
            idx.push_back(k);
            texts.push_back(items[k].text);
        }
    std::vector<receipt::Extraction> got(end - i);
    try {
        std::vector<receipt::Extraction> res = ex.extract(texts, opts);
        for (size_t j = 0; j < res.size(); ++j) got[idx[j] - i] = std::move(res[j]);
    } catch (const receipt::InvalidInput&) {
        for (size_t j = 0; j < texts.size(); ++j) {
            try {
                got[idx[j] - i] = ex.extract({texts[j]}, opts)[0];
            } catch (const receipt::InvalidInput& e) {
                items[idx[j]].error = where(idx[j]) + ": " + e.message();
            }
        }
    }
    return got;
}

// "\r[#####.....] 40/100  3.2 receipts/s" on stderr.
void progress(size_t done, size_t total, double seconds) {
    const int width = 30;
    const int filled = total ? static_cast<int>(width * done / total) : width;
    std::cerr << "\r[" << std::string(filled, '#') << std::string(width - filled, '.') << "] " << done << "/" << total;
    if (seconds > 0) std::cerr << "  " << std::fixed << std::setprecision(1) << done / seconds << " receipts/s";
    std::cerr << std::flush;
}

int run_jsonl(receipt::Extractor& ex, const std::string& in_path, const std::string& out_path, int batch_size,
              const receipt::ExtractOptions& opts, bool raw) {
    std::ifstream in(in_path);
    RECEIPT_CHECK(in.good(), receipt::InvalidInput, "cannot open --jsonl file '" + in_path + "'");
    std::ofstream out_file;
    if (out_path != "-") {
        out_file.open(out_path);
        RECEIPT_CHECK(out_file.good(), receipt::InvalidInput, "cannot write --out file '" + out_path + "'");
    }
    std::ostream& out = out_path == "-" ? std::cout : out_file;

    // Read every record first; a bad line yields an error record in place, so nothing is dropped.
    struct Rec {
        nlohmann::json id;
        std::string text;
        std::string error;
        size_t line_no = 0;
    };
    std::vector<Rec> recs;
    std::string line;
    size_t line_no = 0;
    while (std::getline(in, line)) {
        ++line_no;
        if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
        Rec r;
        r.line_no = line_no;
        auto j = nlohmann::json::parse(line, nullptr, false);
        if (j.is_discarded() || !j.is_object()) {
            r.id = line_no;
            r.error = "line " + std::to_string(line_no) + ": not a JSON object";
        } else {
            r.id = j.contains("id") ? j["id"] : nlohmann::json(line_no);
            if (!j.contains("text") || !j["text"].is_string()) {
                r.error = "line " + std::to_string(line_no) + ": missing string \"text\"";
            } else if (is_blank(j["text"].get_ref<const std::string&>())) {
                r.error = "line " + std::to_string(line_no) + ": \"text\" is empty";
            } else {
                r.text = j["text"].get<std::string>();
            }
        }
        recs.push_back(std::move(r));
    }
    const auto t0 = std::chrono::steady_clock::now();
    int n_errors = 0;
    for (size_t i = 0; i < recs.size(); i += batch_size) {
        const size_t end = std::min(recs.size(), i + batch_size);
        std::vector<receipt::Extraction> got =
            extract_batch(ex, recs, i, end, opts, [&](size_t k) { return "line " + std::to_string(recs[k].line_no); });
        for (size_t k = i; k < end; ++k) {
            nlohmann::ordered_json o;
            o["id"] = recs[k].id;
            if (!recs[k].error.empty()) {
                o["error"] = recs[k].error;
                ++n_errors;
            } else {
                o["fields"] = nlohmann::ordered_json::parse(got[k - i].fields_json);
                if (raw) o["target"] = got[k - i].target_text;
            }
            out << o.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
        }
        out.flush();
        progress(end, recs.size(), std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
    std::cerr << "\n" << recs.size() << " receipts, " << n_errors << " errors\n";
    return n_errors ? kExitBadInput : kExitOk;
}

}  // namespace

void add_extract_command(CLI::App& app) {
    struct Args {
        ModelArgs model;
        std::vector<std::string> files;
        std::string jsonl, out = "-";
        int batch_size = 8, beams = 1, max_new = 512;
        bool pretty = false, raw = false, free_numbers = false, free_name = false, free_date = false, free_address = false;
        bool no_known_names = false, keep_rows = false;
    };
    auto a = std::make_shared<Args>();
    auto* cmd = app.add_subcommand("extract", "Extract receipt fields as JSON (one object per receipt)");
    a->model.add_to(cmd);
    cmd->add_option("files", a->files, "receipt text files (one receipt each), or - for standard input");
    cmd->add_option("--jsonl", a->jsonl, "read {\"id\",\"text\"} lines from this file instead");
    cmd->add_option("--out", a->out, "with --jsonl: write {\"id\",\"fields\"} lines here")->capture_default_str();
    cmd->add_option("--batch-size", a->batch_size, "receipts per engine batch")->capture_default_str()->check(CLI::Range(1, 256));
    cmd->add_option("--beams", a->beams, "beam width (1 = greedy)")->capture_default_str()->check(CLI::Range(1, 16));
    cmd->add_option("--max-new-tokens", a->max_new, "most output tokens per receipt")->capture_default_str();
    cmd->add_flag("--pretty", a->pretty, "indent the JSON output");
    cmd->add_flag("--raw", a->raw,
                  "also print the model's raw target text (as \"_target\"; with --jsonl as \"target\" beside "
                  "\"fields\")");
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
        RECEIPT_CHECK(!a->files.empty() || !a->jsonl.empty(), receipt::InvalidInput,
                      "give receipt files, - for standard input, or --jsonl FILE");
        auto model = receipt::Model::load(a->model.model_dir());
        receipt::Extractor ex(model, a->model.engine_options(receipt::parse_device(a->model.device), a->max_new,
                                                             a->batch_size * a->beams));
        receipt::ExtractOptions opts;
        opts.generation.num_beams = a->beams;
        opts.generation.max_new_tokens = a->max_new;
        opts.copy_numbers = !a->free_numbers;
        opts.copy_name = !a->free_name;
        opts.copy_date = !a->free_date;
        opts.copy_address = !a->free_address;
        opts.known_names = !a->no_known_names;
        opts.split_rows = !a->keep_rows;
        if (!a->jsonl.empty()) {
            int rc = run_jsonl(ex, a->jsonl, a->out, a->batch_size, opts, a->raw);
            if (rc != kExitOk) throw CLI::RuntimeError(rc);
            return;
        }
        // One JSON object per file, in the order given. A file that cannot be read or is empty gets
        // {"file", "error"} in its place, also said on stderr; the others are still extracted; exit status 2.
        struct Input {
            std::string name, text, error;
        };
        std::vector<Input> inputs;
        for (const auto& f : a->files) {
            Input in{f == "-" ? "<stdin>" : f, "", ""};
            if (f == "-") {
                in.text = read_all(std::cin);
            } else if (std::ifstream is(f, std::ios::binary); is.good()) {
                in.text = read_all(is);
            } else {
                in.error = "cannot open '" + f + "'";
            }
            if (in.error.empty() && is_blank(in.text)) in.error = in.name + ": the receipt text is empty";
            inputs.push_back(std::move(in));
        }
        int n_errors = 0;
        for (size_t i = 0; i < inputs.size(); i += a->batch_size) {
            const size_t end = std::min(inputs.size(), i + a->batch_size);
            std::vector<receipt::Extraction> got =
                extract_batch(ex, inputs, i, end, opts, [&](size_t k) { return inputs[k].name; });
            for (size_t k = i; k < end; ++k) {
                nlohmann::ordered_json j;
                if (!inputs[k].error.empty()) {
                    ++n_errors;
                    std::cerr << "error: " << inputs[k].error << "\n";
                    j["file"] = inputs[k].name;
                    j["error"] = inputs[k].error;
                } else {
                    j = nlohmann::ordered_json::parse(got[k - i].fields_json);
                    if (a->raw) j["_target"] = got[k - i].target_text;
                }
                std::cout << j.dump(a->pretty ? 2 : -1, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
            }
        }
        if (n_errors) throw CLI::RuntimeError(kExitBadInput);
    });
}
