#include "app/cli/validation_report.h"

#include "core/base/errors.h"
#include "core/base/format.h"
#include "core/model/enum_names.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <system_error>

namespace zp::cli {

namespace {

std::string bundled_path(const char* name, const char* source_tree_path) {
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    if (!ec) {
        const fs::path installed = exe.parent_path() / ZP_DATADIR_FROM_BINDIR / name;
        if (fs::is_regular_file(installed, ec)) return installed.lexically_normal().string();
    }
    const fs::path source_tree = source_tree_path;
    if (fs::is_regular_file(source_tree, ec)) return source_tree.string();
    throw InputError(std::string("the bundled ") + name +
                     " is not installed beside this zero-planner; pass FILE: zero-planner validate FILE");
}

}  // namespace

std::string bundled_measured_runs_path() { return bundled_path("measured_runs.json", ZP_SOURCE_MEASURED_RUNS); }

std::string bundled_fitted_constants_path() { return bundled_path("fitted_constants.json", ZP_SOURCE_FITTED_CONSTANTS); }

std::string bundled_measured_runs_2_path() { return bundled_path("measured_runs_2.json", ZP_SOURCE_MEASURED_RUNS_2); }

std::string bundled_measured_runs_3_path() { return bundled_path("measured_runs_3.json", ZP_SOURCE_MEASURED_RUNS_3); }

std::string bundled_paper_throughput_path() { return bundled_path("paper_throughput.json", ZP_SOURCE_PAPER_THROUGHPUT); }

std::string bundled_measured_runs_facts_path() { return bundled_path("measured_runs_facts.json", ZP_SOURCE_MEASURED_RUNS_FACTS); }

std::string bundled_host_ram_runs_path() { return bundled_path("host_ram_runs.json", ZP_SOURCE_HOST_RAM_RUNS); }

namespace {

using validation::CaseResult;
using validation::Quantity;
using validation::quantity_info;

const char* unit_name(Quantity q) {
    switch (q) {
    case Quantity::StepSeconds: return "seconds";
    case Quantity::SamplesPerSecond: return "samples/s";
    case Quantity::TflopsPerGpu: return "FLOP/s per GPU";
    default: return "bytes";
    }
}

std::string value_text(Quantity q, double v) {
    switch (q) {
    case Quantity::StepSeconds: return format_fixed(v, 2) + " s";
    case Quantity::SamplesPerSecond: return format_fixed(v, 1) + " samples/s";
    case Quantity::TflopsPerGpu: return format_fixed(v / 1e12, 1) + " TFLOP/s";
    default: return format_bytes(v);
    }
}

// A cell padded to `width`, and a value wider than its column still one space from the next
// (a ratio of 12142.96 ran into "no").
std::string pad(std::string s, std::size_t width) {
    s.append(s.size() < width ? width - s.size() : 1, ' ');
    return s;
}

const char* kKinds[] = {"peak_memory", "fits_or_oom", "throughput", "host_ram"};

const validation::MeasuredCase* find_case(const validation::ValidationReport& r, const std::string& id) {
    for (const auto& c : r.cases)
        if (c.id == id) return &c;
    return nullptr;
}

// A pair's measured or predicted value: "2.71x" for a ratio, the quantity's unit for a difference.
std::string pair_value_text(const validation::PairResult& p, double v) {
    if (p.spec.compare == validation::PairCompare::Ratio) return format_fixed(v, 2) + "x";
    return (v >= 0 ? "+" : "") + value_text(p.quantity, v);
}

}  // namespace

std::string validation_text(const validation::ValidationReport& r, const std::string& source, const std::string& title,
                            const std::vector<validation::PairResult>& pairs, const std::vector<validation::MeanResult>& means) {
    std::string out = title + ": " + source + " (" + std::to_string(r.cases.size()) + " cases, " +
                      std::to_string(r.cases.size() - r.not_representable.size()) + " checked, " +
                      std::to_string(r.not_representable.size()) + " not representable)\n";
    for (const char* kind : kKinds) {
        bool header = false;
        for (const CaseResult& c : r.rows) {
            if (c.kind != kind) continue;
            if (!header) {
                out += "\n" + std::string(kind) + "\n  " + pad("id", 6) + pad("what", 26) + pad("measured", 18) + pad("predicted", 18) +
                       pad("ratio", 7) + (c.phase || c.host_phase ? pad("ok", 5) + "peaks in" : std::string("ok")) + "\n";
                header = true;
            }
            std::string what, measured, predicted;
            if (c.quantity == Quantity::Fit) {
                what = "fit, micro batch " + std::to_string(c.micro_batch) + (c.plain_data_parallel ? " DDP" : "");
                measured = c.fits_measured ? "fits" : "OOM";
                predicted = std::string(c.fits_predicted ? "fits" : "OOM") + " " + format_bytes(c.predicted);
            } else {
                what = quantity_info(c.quantity).name;
                measured = value_text(c.quantity, c.measured);
                predicted = value_text(c.quantity, c.predicted);
            }
            out += "  " + pad(c.id, 6) + pad(what, 26) + pad(measured, 18) + pad(predicted, 18) + pad(format_fixed(c.ratio, 2), 7) +
                   (c.phase ? pad(c.ok ? "yes" : "no", 5) + to_string(*c.phase)
                    : c.host_phase
                        ? pad(c.ok ? "yes" : "no", 5) + to_string(*c.host_phase) + "; DeepSpeed's estimator " +
                              value_text(c.quantity, c.deepspeed_estimate) + " (" + format_fixed(c.deepspeed_estimate / c.measured, 2) + ")"
                        : std::string(c.ok ? "yes" : "no")) +
                   "\n";
        }
    }
    if (!pairs.empty()) {
        // The same run with and without one switch: what the switch changes (core/validation/pairs.h).
        out += "\npairs\n  " + pad("base", 6) + pad("with", 6) + pad("what", 52) + pad("measured", 13) + pad("predicted", 13) +
               pad("error", 8) + pad("tolerance", 11) + "ok\n";
        for (const auto& p : pairs)
            out += "  " + pad(p.spec.base, 6) + pad(p.spec.variant, 6) + pad(p.spec.name, 52) + pad(pair_value_text(p, p.measured), 13) +
                   pad(pair_value_text(p, p.predicted), 13) + pad(format_percent(p.error), 8) +
                   pad(format_fixed(100 * p.spec.tolerance, 0) + "%", 11) + (p.ok ? "yes" : "no") + "\n";
    }
    if (!means.empty()) {
        // Figures a source states as a mean over several runs: the planner's mean over the same runs.
        out += "\nmeans\n  " + pad("what", 58) + pad("runs", 6) + pad("measured", 16) + pad("predicted", 16) + pad("error", 8) +
               pad("tolerance", 11) + "ok\n";
        for (const auto& m : means)
            out += "  " + pad(m.name, 58) + pad(std::to_string(m.runs.size()), 6) + pad(value_text(m.quantity, m.measured), 16) +
                   pad(value_text(m.quantity, m.predicted), 16) + pad(format_percent(m.error), 8) +
                   pad(format_fixed(100 * m.tolerance, 0) + "%", 11) + (m.ok ? "yes" : "no") + "\n";
    }
    out += "\nAggregate\n  " + pad("group", 34) + pad("rows", 6) + pad("tolerance", 11) + pad("within / right", 16) + "median |error|\n";
    for (const auto& g : r.groups) {
        const bool fits = g.tolerance == 0;
        const std::string ok =
            std::to_string(g.ok) + " of " + std::to_string(g.count) + (fits ? "" : " (" + format_fixed(100.0 * g.ok / g.count, 0) + "%)");
        out += "  " + pad(g.group, 34) + pad(std::to_string(g.count), 6) +
               pad(fits ? "fit call" : format_fixed(100 * g.tolerance, 0) + "%", 11) + pad(ok, 16) +
               (fits ? "-" : format_percent(g.median_abs_error)) + "\n";
    }
    if (r.deepspeed_host_estimator.count > 0)
        out += "  " + pad("host RAM, DeepSpeed's estimator", 34) + pad(std::to_string(r.deepspeed_host_estimator.count), 6) + pad("", 11) +
               pad("", 16) + format_percent(r.deepspeed_host_estimator.median_abs_error) +
               " (estimate_zero*_all_cold, buffer factor 1.5, on the same rows)\n";
    if (!r.not_representable.empty()) {
        out += "\nNot representable\n";
        for (const auto& n : r.not_representable) out += "  " + pad(n.id, 6) + n.reason + "\n";
    }
    // A fact or an assumption that several rows share (one source for a family of runs, a default
    // of DeepSpeed's) is printed once with its rows, where its first row comes; a row's own lines
    // stay on the row (its assumptions joined on one line, as before).
    const auto grouped = [&](const char* header, bool join_own, auto&& lines_of) {
        std::vector<std::pair<std::string, std::vector<std::string>>> groups;
        const auto group_of = [&](const std::string& line) {
            return std::find_if(groups.begin(), groups.end(), [&](const auto& x) { return x.first == line; });
        };
        for (const auto& c : r.cases)
            for (const std::string& line : lines_of(c)) {
                auto g = group_of(line);
                if (g == groups.end()) groups.push_back({line, {c.id}});
                else if (g->second.back() != c.id) g->second.push_back(c.id);
            }
        if (groups.empty()) return;
        out += std::string("\n") + header + "\n";
        std::vector<std::string> printed;
        for (const auto& c : r.cases) {
            std::string own, shared;
            std::vector<std::string> here;  // a line the row repeats is listed once
            for (const std::string& line : lines_of(c)) {
                if (std::find(here.begin(), here.end(), line) != here.end()) continue;
                here.push_back(line);
                const auto g = group_of(line);
                if (g->second.size() > 1) {
                    if (std::find(printed.begin(), printed.end(), line) != printed.end()) continue;
                    printed.push_back(line);
                    std::string ids;
                    for (const std::string& id : g->second) ids += (ids.empty() ? "" : ", ") + id;
                    shared += "  " + ids + "\n  " + pad("", 6) + line + "\n";
                } else if (join_own) {
                    own += (own.empty() ? "" : ", ") + line;
                } else {
                    out += "  " + pad(c.id, 6) + line + "\n";
                }
            }
            if (!own.empty()) out += "  " + pad(c.id, 6) + own + "\n";
            out += shared;
        }
    };
    grouped("From the run's own source (measured_runs_facts.json)", false, [](const auto& c) { return c.from_source; });
    grouped("Assumed (missing in the file)", true,
            [](const auto& c) { return c.not_representable.empty() ? c.assumed : std::vector<std::string>{}; });
    return out;
}

nlohmann::json validation_json(const validation::ValidationReport& r, const std::string& source,
                               const std::vector<validation::PairResult>& pairs, const std::vector<validation::MeanResult>& means) {
    nlohmann::json j;
    j["source"] = source;
    j["cases"] = nlohmann::json::array();
    for (const CaseResult& c : r.rows) {
        nlohmann::json row;
        row["id"] = c.id;
        row["kind"] = c.kind;
        row["quantity"] = quantity_info(c.quantity).name;
        if (c.quantity == Quantity::Fit) {
            row["micro_batch"] = c.micro_batch;
            if (c.plain_data_parallel) row["plain_data_parallel"] = true;
            row["measured"] = c.fits_measured ? "fits" : "oom";
            row["predicted"] = c.fits_predicted ? "fits" : "oom";
            row["predicted_bytes"] = std::round(c.predicted);
            row["usable_bytes"] = std::round(c.usable_bytes);
        } else {
            row["unit"] = unit_name(c.quantity);
            row["measured"] = round_to(c.measured, 4);
            row["predicted"] = round_to(c.predicted, 4);
            row["tolerance"] = quantity_info(c.quantity).tolerance;
        }
        row["ratio"] = round_to(c.ratio, 4);
        row["ok"] = c.ok;
        if (c.phase) row["peak_phase"] = to_string(*c.phase);
        if (c.host_phase) {
            row["peak_phase"] = to_string(*c.host_phase);
            row["deepspeed_estimator"] = round_to(c.deepspeed_estimate, 4);
        }
        if (const auto* mc = find_case(r, c.id)) {
            row["gpu"] = mc->gpu_label;
            row["assumed"] = mc->assumed;
            if (!mc->from_source.empty()) row["from_source"] = mc->from_source;
            row["notes"] = mc->notes;
        }
        j["cases"].push_back(row);
    }
    nlohmann::json agg = nlohmann::json::array();
    for (const auto& g : r.groups) {
        nlohmann::json a{{"group", g.group}, {"rows", g.count}, {"ok", g.ok}};
        if (g.tolerance > 0) {
            a["tolerance"] = g.tolerance;
            a["share_within_tolerance"] = round_to(static_cast<double>(g.ok) / g.count, 4);
            a["median_abs_error"] = round_to(g.median_abs_error, 4);
        }
        agg.push_back(a);
    }
    j["aggregate"] = agg;
    if (!pairs.empty()) {
        j["pairs"] = nlohmann::json::array();
        for (const auto& p : pairs)
            j["pairs"].push_back({{"name", p.spec.name},
                                  {"base", p.spec.base},
                                  {"variant", p.spec.variant},
                                  {"compare", p.spec.compare == validation::PairCompare::Ratio ? "ratio" : "difference"},
                                  {"unit", p.spec.compare == validation::PairCompare::Ratio ? "x" : unit_name(p.quantity)},
                                  {"measured", round_to(p.measured, 4)},
                                  {"predicted", round_to(p.predicted, 4)},
                                  {"error", round_to(p.error, 4)},
                                  {"tolerance", p.spec.tolerance},
                                  {"why_tolerance", p.spec.why_tolerance},
                                  {"ok", p.ok}});
    }
    if (!means.empty()) {
        j["means"] = nlohmann::json::array();
        for (const auto& m : means) {
            nlohmann::json runs = nlohmann::json::array();
            for (const CaseResult& c : m.runs) runs.push_back({{"id", c.id}, {"predicted", round_to(c.predicted, 4)}});
            j["means"].push_back({{"name", m.name},
                                  {"unit", unit_name(m.quantity)},
                                  {"measured", round_to(m.measured, 4)},
                                  {"predicted", round_to(m.predicted, 4)},
                                  {"error", round_to(m.error, 4)},
                                  {"tolerance", m.tolerance},
                                  {"ok", m.ok},
                                  {"runs", runs}});
        }
    }
    if (r.deepspeed_host_estimator.count > 0)
        j["deepspeed_host_estimator"] = {{"rows", r.deepspeed_host_estimator.count},
                                         {"median_abs_error", round_to(r.deepspeed_host_estimator.median_abs_error, 4)}};
    j["not_representable"] = nlohmann::json::array();
    for (const auto& n : r.not_representable) j["not_representable"].push_back({{"id", n.id}, {"reason", n.reason}});
    return j;
}

}  // namespace zp::cli
