// `zero-planner presets [gpus|nodes|models] [--json] [--markdown]`: every GPU, node and model
// preset with its key figures and where each comes from (core/presets/: gpu_source,
// cluster_source, model_source). --markdown prints README's Presets section (tests/cli
// readme_presets checks that the two agree).
#include "app/cli/commands/commands.h"

#include "app/cli/options.h"
#include "core/base/errors.h"
#include "core/base/format.h"
#include "core/base/suggest.h"
#include "core/base/units.h"
#include "core/presets/cluster_presets.h"
#include "core/presets/gpu_presets.h"
#include "core/presets/model_presets.h"
#include "core/report/report_markdown.h"
#include "core/time/flops.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <ostream>
#include <string_view>

namespace zp::cli {
namespace {

struct Column {
    const char* header;  // text and Markdown
    const char* key;     // JSON
    bool number;         // right-aligned
};

struct Cell {
    std::string text;
    nlohmann::ordered_json value;
};

struct Table {
    const char* kind;   // what the positional argument names: "gpus"
    const char* title;  // "GPUs"
    std::vector<Column> columns;
    std::vector<std::vector<Cell>> rows;
};

constexpr std::array<std::string_view, 3> kKinds{"gpus", "nodes", "models"};

Cell text(std::string s) { return {s, s}; }
Cell figure(double v) { return {format_general(v), v}; }  // 79.6, 2516.6: as the preset table has them
Cell count(std::int64_t v) { return {format_count(static_cast<double>(v)), v}; }
Cell whole(std::int64_t v) { return {std::to_string(v), v}; }

Table gpu_table() {
    Table t{"gpus",
            "GPUs",
            {{"name", "name", false},
             {"display name", "display_name", false},
             {"memory GiB", "memory_gib", true},
             {"16-bit TFLOP/s", "tflops_16bit_dense", true},
             {"FP8 TFLOP/s", "tflops_fp8_dense", true},
             {"FP4 TFLOP/s", "tflops_fp4_dense", true},
             {"HBM GB/s", "hbm_gbytes_per_s", true},
             {"intra-node GB/s", "intra_node_gbytes_per_s", true},
             {"family", "family", false},
             {"source", "source", false}},
            {}};
    for (const GpuSpec& g : gpu_presets())
        t.rows.push_back({text(g.name), text(g.display_name), figure(g.memory_gib), figure(g.peak_tflops_16bit),
                          g.peak_tflops_fp8 > 0 ? figure(g.peak_tflops_fp8) : Cell{"-", nullptr},
                          g.peak_tflops_fp4 > 0 ? figure(g.peak_tflops_fp4) : Cell{"-", nullptr},
                          figure(gpu_time_traits(g).hbm_gbytes_per_s), figure(g.intra_node_gbytes_per_s), text(gpu_family(g.name)),
                          text(gpu_source(g.name))});
    return t;
}

Table node_table() {
    Table t{"nodes",
            "Nodes",
            {{"name", "name", false},
             {"display name", "display_name", false},
             {"GPU", "gpu", false},
             {"GPUs", "gpus_per_node", true},
             {"network Gbit/s", "network_gbits_per_s", true},
             {"host RAM GiB", "host_ram_gib", true},
             {"NVMe GiB", "nvme_gib", true},
             {"source", "source", false}},
            {}};
    const auto gib = [](double bytes) { return count(std::llround(bytes_to_gib(bytes))); };
    for (const ClusterPreset& p : cluster_presets()) {
        const Cluster& c = p.cluster;
        t.rows.push_back({text(p.name), text(p.display_name), text(c.gpu.name), whole(c.gpus_per_node),
                          count(std::llround(c.inter_node_gbits_per_s)), gib(c.cpu_ram_bytes_per_node), gib(c.nvme_bytes_per_node),
                          text(cluster_source(p.name))});
    }
    return t;
}

// A mixture's active parameters: the matmul parameters a token passes through, as the step's FLOPs
// count them (core/time/flops.h: the layers' with experts_per_token of the routed experts, and the
// LM head; the embedding lookup left out). Dense models: none (null in JSON).
Cell active(const ModelSpec& m) {
    if (m.experts <= 1) return {"-", nullptr};
    return count(std::llround(layer_matmul_params(m) + head_matmul_params(m)));
}

Table model_table() {
    Table t{"models",
            "Models",
            {{"name", "name", false},
             {"display name", "display_name", false},
             {"parameters", "parameters", true},
             {"active", "active_parameters", true},
             {"layers", "layers", true},
             {"hidden", "hidden", true},
             {"source", "source", false}},
            {}};
    for (const ModelPreset& p : model_presets())
        t.rows.push_back({text(p.name), text(p.display_name), count(parameter_count(p.spec)), active(p.spec), whole(p.spec.layers),
                          whole(p.spec.hidden), text(model_source(p.name))});
    return t;
}

std::string pad(const std::string& s, std::size_t width, bool right) {
    const std::string fill(width > s.size() ? width - s.size() : 0, ' ');
    return right ? fill + s : s + fill;
}

// One line per row, columns two spaces apart, numbers right-aligned; the last column unpadded.
std::string as_text(const Table& t) {
    std::vector<std::size_t> width(t.columns.size());
    for (std::size_t c = 0; c < t.columns.size(); ++c) {
        width[c] = std::string_view(t.columns[c].header).size();
        for (const auto& row : t.rows) width[c] = std::max(width[c], row[c].text.size());
    }
    const auto line = [&](auto cell_text) {
        std::string out;
        for (std::size_t c = 0; c < t.columns.size(); ++c) {
            const bool last = c + 1 == t.columns.size();
            out += (c ? "  " : "") + (last ? cell_text(c) : pad(cell_text(c), width[c], t.columns[c].number));
        }
        return out + "\n";
    };
    std::string out = std::string(t.title) + " (" + std::to_string(t.rows.size()) + ")\n";
    out += line([&](std::size_t c) { return std::string(t.columns[c].header); });
    for (const auto& row : t.rows) out += line([&](std::size_t c) { return row[c].text; });
    return out;
}

// A heading and a GitHub Markdown table (core/report/report_markdown.h markdown_table); the name in
// code font, as --gpu, --cluster and --model take it.
std::string as_markdown(const Table& t) {
    TextTable md;
    for (const Column& c : t.columns) {
        md.header.emplace_back(c.header);
        md.right_aligned.push_back(c.number);
    }
    for (const auto& row : t.rows) {
        std::vector<std::string>& cells = md.rows.emplace_back();
        for (std::size_t c = 0; c < row.size(); ++c) cells.push_back(c == 0 ? "`" + row[c].text + "`" : row[c].text);
    }
    return "### " + std::string(t.title) + "\n\n" + markdown_table(md);
}

// The rows as objects, their keys in the columns' order.
nlohmann::ordered_json as_json(const Table& t) {
    nlohmann::ordered_json rows = nlohmann::ordered_json::array();
    for (const auto& row : t.rows) {
        nlohmann::ordered_json o = nlohmann::ordered_json::object();
        for (std::size_t c = 0; c < row.size(); ++c) o[t.columns[c].key] = row[c].value;
        rows.push_back(std::move(o));
    }
    return rows;
}

// The kinds asked for: the one the positional names, else all three.
std::vector<Table> tables_of(const Args& a) {
    if (a.positionals.size() > 1) throw InputError("presets takes at most one of gpus, nodes, models");
    const std::string kind = a.positionals.empty() ? "" : a.positionals.front();
    if (!a.positionals.empty() && std::find(kKinds.begin(), kKinds.end(), kind) == kKinds.end()) {
        const auto near = closest_name(kind, kKinds);
        throw InputError("unknown preset kind '" + kind + "'" + (near ? " (did you mean '" + *near + "'?)" : "") +
                         "; kinds: gpus, nodes, models");
    }
    std::vector<Table> tables;
    if (kind.empty() || kind == "gpus") tables.push_back(gpu_table());
    if (kind.empty() || kind == "nodes") tables.push_back(node_table());
    if (kind.empty() || kind == "models") tables.push_back(model_table());
    return tables;
}

}  // namespace

int cmd_presets(const Args& a, std::ostream& out, std::ostream&) {
    if (a.flag(opt::json) && a.flag(opt::markdown))
        throw InputError(option_text(opt::json) + " and " + option_text(opt::markdown) + " are two outputs; give one");
    const std::vector<Table> tables = tables_of(a);
    if (a.flag(opt::json)) {
        nlohmann::ordered_json doc = nlohmann::ordered_json::object();
        for (const Table& t : tables) doc[t.kind] = as_json(t);
        out << doc.dump(2) << "\n";
        return kExitOk;
    }
    for (std::size_t i = 0; i < tables.size(); ++i)
        out << (i ? "\n" : "") << (a.flag(opt::markdown) ? as_markdown(tables[i]) : as_text(tables[i]));
    return kExitOk;
}

}  // namespace zp::cli
