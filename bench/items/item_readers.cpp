// The printed-row readers of Latin-script receipts run alone, without the model: for each receipt of a JSONL file,
// the first reading that adds up (extract/latin_item_rows.h, then extract/latin_table_rows.h), written as
// `receipt extract --jsonl` writes fields, so that train/item_agreement.py can score it against silver labels.
// The targets are those check_latin_items uses, with the labelled total (SROIE "total", or "total_amount") in place
// of the model's net and total amounts.
//
//   build/bin/item_readers --data ../shared/data/sroie/train.jsonl --out readers.jsonl
//   python3 train/item_agreement.py --data ../shared/data/sroie/train.jsonl \
//       --silver ../shared/data/rds_silver/train.jsonl readers.jsonl
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "extract/latin_item_rows.h"
#include "extract/latin_rows_add_up.h"
#include "extract/latin_table_rows.h"
#include "extract/latin_table_cells.h"
#include "extract/latin_row_lines.h"
#include "extract/row_split.h"

namespace ex = receipt::extract;

namespace {

// The labelled total of a receipt: the schema's total_amount, or SROIE's total as printed ("RM 9.00").
std::optional<double> labelled_total(const nlohmann::json& fields) {
    if (fields.contains("total_amount") && fields["total_amount"].is_number()) return fields["total_amount"];
    if (fields.contains("total") && fields["total"].is_string()) {
        std::string s;
        for (char c : fields["total"].get<std::string>())
            if ((c >= '0' && c <= '9') || c == '.') s += c;
        if (!s.empty()) return std::strtod(s.c_str(), nullptr);
    }
    return std::nullopt;
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"Latin-script item-row readers without the model"};
    std::string data, out;
    bool rows_only = false;
    app.add_option("--data", data, "JSONL of {id, text, fields}")->required();
    app.add_flag("--rows-only", rows_only, "only the row reader (extract/latin_item_rows.h), as before the table one");
    bool split_rows = false;
    app.add_flag("--split-rows", split_rows,
                 "read a text written one line per printed row as receipt extract does, its amounts on lines of their "
                 "own (extract/row_split.h)");
    std::string only_id;
    app.add_option("--show", only_id,
                   "print the lines of this receipt's table as the table reader sees them (text lines holding a row "
                   "read as their cells), each with its class, to stderr");
    app.add_option("--out", out, "where to write {id, fields: {line_items, total_amount}} lines")->required();
    CLI11_PARSE(app, argc, argv);
    std::ifstream in(data);
    std::ofstream os(out);
    if (!in || !os) {
        std::cerr << "error: cannot open " << (!in ? data : out) << "\n";
        return 2;
    }
    size_t n = 0, by_rows = 0, by_table = 0, by_text_lines = 0;
    std::string line;
    while (std::getline(in, line)) {
        const nlohmann::json d = nlohmann::json::parse(line, nullptr, false);
        if (d.is_discarded() || !d.is_object() || !d.contains("text") || !d["text"].is_string() ||
            !d.value("id", nlohmann::json()).is_string()) {
            std::cerr << "skipped a line that is not {\"id\": string, \"text\": string, ...}\n";
            continue;
        }
        ++n;
        std::string text = d["text"];
        if (split_rows && ex::reads_as_rows(text)) text = ex::split_row_amounts(text);
        if (!only_id.empty() && d.value("id", "") == only_id) {
            if (const auto rl = ex::latin_row_lines(text)) {
                static const char* const names[] = {"skip", "money", "price", "count", "count-price",
                                                    "code", "tax-code", "row-number", "other", "text"};
                const auto t = ex::table::table_lines(*rl, true);
                for (size_t k = 0; k < t.cells.size(); ++k)
                    std::cerr << names[static_cast<int>(t.cells[k].cell)] << "\t" << t.lines.printed[k] << "\n";
            }
        }
        const std::optional<double> total = labelled_total(d.value("fields", nlohmann::json::object()));
        std::vector<ex::LatinItemRows> rows;
        try {
            rows = ex::latin_item_row_readings(text);
        } catch (const std::exception&) {  // std::regex giving up on a line
        }
        std::vector<double> targets;
        if (total) targets.push_back(*total);
        auto found = ex::first_reading_adding_up(rows, targets);
        if (found) ++by_rows;
        if (!found && !rows_only && (found = ex::first_reading_adding_up(ex::latin_table_row_readings(text), targets)))
            ++by_table;
        if (!found && !rows_only &&
            (found = ex::first_reading_adding_up(ex::latin_table_row_readings(text, true), targets)))
            ++by_text_lines;
        nlohmann::ordered_json fields = {{"line_items", nlohmann::ordered_json::array()}, {"total_amount", nullptr}};
        if (found) {
            for (const ex::ItemRow& r : found->first.rows)
                fields["line_items"].push_back(
                    {{"description", r.description},
                     {"quantity", r.quantity ? nlohmann::ordered_json(*r.quantity) : nlohmann::ordered_json()},
                     {"unit_price", r.unit_price ? nlohmann::ordered_json(*r.unit_price) : nlohmann::ordered_json()},
                     {"amount", r.amount}});
            fields["total_amount"] = found->second;
        }
        os << nlohmann::ordered_json{{"id", d.value("id", "")}, {"fields", fields}}.dump() << "\n";
    }
    std::printf(
        "%zu receipts: rows that add up from the row reader %zu, from the table reader %zu, from it with text lines "
        "read as cells %zu\n",
        n, by_rows, by_table, by_text_lines);
    return 0;
}
