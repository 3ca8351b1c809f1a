#include "app/cli/cli.h"

#include "app/cli/args.h"
#include "app/cli/number_parse.h"
#include "app/cli/report_json.h"
#include "app/cli/scenario_options.h"
#include "app/cli/text_report.h"
#include "app/cli/validation_report.h"
#include "core/base/errors.h"
#include "core/base/file_io.h"
#include "core/base/format.h"
#include "core/base/suggest.h"
#include "core/base/units.h"
#include "core/calibration/calibrate.h"
#include "core/deepspeed/estimator.h"
#include "core/deepspeed/export_formats.h"
#include "core/deepspeed/lint.h"
#include "core/io/hf_config.h"
#include "core/io/scenario_json.h"
#include "core/model/enum_names.h"
#include "core/model/limits.h"
#include "core/presets/cluster_presets.h"
#include "core/presets/gpu_presets.h"
#include "core/presets/model_presets.h"
#include "core/report/plan_pins.h"
#include "core/search/scenario_edits.h"
#include "zp_version.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdlib>
#include <ctime>
#include <optional>
#include <ostream>
#include <sstream>

namespace zp::cli {
namespace {

const std::set<std::string> kFlags = {"--json", "--help", "-h", "--version"};

std::set<std::string> with_scenario(std::initializer_list<const char*> extra) {
    std::set<std::string> s = scenario_option_names();
    for (const char* e : extra) s.insert(e);
    return s;
}

std::set<std::string> options(std::initializer_list<const char*> names) { return {names.begin(), names.end()}; }

// Every output is built completely in memory first, so a failure never leaves half a document.
int cmd_estimate(const Args& a, std::ostream& out, std::ostream&) {
    ScenarioNotes notes;
    const Scenario s = scenario_from_args(a, &notes);
    const Candidate c = evaluate(s);
    if (a.flag("--json")) {
        nlohmann::json j = estimate_json(s, c);
        j["notes"] = nlohmann::json::array();
        if (notes.synthesized) j["notes"].push_back("architecture synthesized from the parameter count (hidden = 128 x layers)");
        out << j.dump(2) << "\n";
    } else {
        out << scenario_header(s, notes.synthesized) << estimate_text(s, c);
    }
    return kExitOk;
}

int cmd_compare(const Args& a, std::ostream& out, std::ostream&) {
    ScenarioNotes notes;
    const Scenario base = scenario_from_args(a, &notes);
    std::vector<Candidate> rows;
    for (const ZeroSetup& z : zero_setups()) {
        rows.push_back(evaluate(with_setup(base, z)));
    }
    if (a.flag("--json")) {
        nlohmann::json j = nlohmann::json::array();
        for (const Candidate& c : rows) j.push_back(estimate_json(base, c));
        out << j.dump(2) << "\n";
    } else {
        out << scenario_header(base, notes.synthesized) << compare_text(base, rows);
    }
    return kExitOk;
}

int cmd_recommend(const Args& a, std::ostream& out, std::ostream&) {
    ScenarioNotes notes;
    Scenario s = plan_scenario_from_args(a, &notes);
    const Plan p = recommend(s);
    // A layout the search chose is the plan's: the header and the text name it.
    if (p.feasible) s.parallel = p.best.parallel;
    if (a.flag("--json")) out << plan_json(s, p).dump(2) << "\n";
    else out << scenario_header(s, notes.synthesized) << plan_text(s, p);
    return kExitOk;
}

int cmd_ds_estimate(const Args& a, std::ostream& out, std::ostream&) {
    for (const char* k : {"--params", "--largest-layer", "--stage"})
        if (!a.has(k))
            throw InputError(std::string("ds-estimate needs ") + k +
                             "; e.g. ds-estimate --params 2851e6 --largest-layer 32e6 --gpus-per-node 8 --nodes 1 --stage 3");
    deepspeed::EstimatorInput in;
    in.total_params = static_cast<double>(parse_count(*a.get("--params"), "--params"));
    in.largest_layer_params = static_cast<double>(parse_count(*a.get("--largest-layer"), "--largest-layer"));
    in.num_gpus_per_node =
        a.has("--gpus-per-node") ? parse_positive_int(*a.get("--gpus-per-node"), "--gpus-per-node", limits::kGpusPerNode.max) : 1;
    in.num_nodes = a.has("--nodes") ? parse_positive_int(*a.get("--nodes"), "--nodes", limits::kNodes.max) : 1;
    const std::string stage = *a.get("--stage");
    const std::string formula = a.get("--formula").value_or("current");
    if (formula != "current" && formula != "legacy") throw InputError("--formula must be current or legacy, got '" + formula + "'");
    if (stage == "2") {
        out << deepspeed::zero2_table(in, formula == "current" ? deepspeed::Zero2Formula::Current : deepspeed::Zero2Formula::Legacy);
    } else if (stage == "3") {
        if (a.has("--formula")) throw InputError("--formula applies to --stage 2 only (the ZeRO-3 estimator never changed)");
        out << deepspeed::zero3_table(in);
    } else {
        throw InputError("ds-estimate --stage must be 2 or 3, got '" + stage + "'");
    }
    return kExitOk;
}

bool setup_given(const Args& a) { return a.has("--stage") || a.has("--offload-optimizer") || a.has("--offload-param"); }

// The Hugging Face formats run under the Trainer or Accelerate with DeepSpeed: data parallel
// only (Megatron's tensor and pipeline parallelism need Megatron-DeepSpeed's model code).
bool data_parallel_only_format(std::string_view id) { return id == "hf-trainer" || id == "hf-args" || id == "accelerate" || id == "peft"; }

// The recommended setup, or the one the user gave (exported even when it does not fit, with a
// warning saying by how much it misses).
Scenario export_scenario(const Args& a, std::string_view format_id, std::ostream& err) {
    Scenario s = plan_scenario_from_args(a);
    if (data_parallel_only_format(format_id)) {
        for (const char* option : {"--tp", "--pp", "--ep"})
            if (a.get(option) == "auto")
                throw InputError(std::string(format_id) + " runs data parallel under the Trainer or Accelerate: " + option +
                                 " auto needs Megatron-DeepSpeed (--format deepspeed, megatron or launch)");
        if (a.get("--zeropp") == "auto")
            throw InputError(std::string(format_id) +
                             " exports the setup it is given and never searches: --zeropp auto needs --format deepspeed, megatron or "
                             "launch (or give --zeropp off, hpz or hpz+qwz+qgz)");
        s.parallel.auto_tensor = s.parallel.auto_pipeline = s.parallel.auto_expert = false;
        s.zero.auto_zeropp = false;
    }
    if (setup_given(a)) {
        if (layout_search_given(a))
            throw InputError(
                "--tp, --pp, --ep and --sp auto let the recommender choose the layout; with --stage give the sizes (--tp N "
                "--pp N --ep N --sp N)");
        if (a.get("--zeropp") == "auto")
            throw InputError("--zeropp auto lets the recommender choose ZeRO++; with --stage give --zeropp off, hpz or hpz+qwz+qgz");
        const Candidate c = evaluate(s);
        if (!c.fit.gpu)
            err << "zero-planner: warning: " << setup_label(s.zero) << " does not fit: it needs "
                << format_bytes(c.memory.peak_required_bytes) << " per GPU at its peak (" << to_string(c.memory.required_phase) << "), "
                << format_bytes(usable_gpu_bytes(s)) << " usable (misses by "
                << format_bytes(c.memory.peak_required_bytes - usable_gpu_bytes(s)) << ")\n";
        if (!c.fit.cpu)
            err << "zero-planner: warning: it needs " << format_bytes(c.memory.cpu_bytes_per_node) << " host RAM per node, "
                << format_bytes(s.cluster.cpu_ram_bytes_per_node) << " available\n";
        if (!c.fit.nvme)
            err << "zero-planner: warning: it needs " << format_bytes(c.memory.nvme_bytes_per_node) << " NVMe per node, "
                << format_bytes(s.cluster.nvme_bytes_per_node) << " available\n";
        s.training.global_batch = effective_global_batch(s.training, data_parallel_size(s));
        return s;
    }
    const Plan p = recommend(s);
    if (!p.feasible) {
        std::string what;
        for (const auto& sg : p.suggestions) what += (what.empty() ? "" : "; ") + sg;
        throw InputError("nothing fits this cluster, so there is no plan to export (" + what + "); give --stage to export a setup anyway");
    }
    return with_candidate(s, p.best);
}

int cmd_export(const Args& a, std::ostream& out, std::ostream& err) {
    const std::string id = a.get("--format").value_or(std::string(export_formats().front().id));
    const ExportFormat* format = find_export_format(id);
    if (!format) throw InputError("--format must be one of " + export_format_ids() + "; got '" + id + "'");
    const auto file = a.get("-o");
    const Scenario s = export_scenario(a, format->id, err);
    const std::string text = format->render(s);
    const std::string extra = file && format->after_writing ? format->after_writing(s, *file) : std::string();
    if (file) {
        write_file_atomically(*file, text);
        out << extra;
    } else {
        out << text;
    }
    return kExitOk;
}

// The scenario the options describe, as a session file (.zplan) the window and --session open.
// The pinned plans of a --session file are kept: rewriting a session loses none of it.
int cmd_session(const Args& a, std::ostream& out, std::ostream&) {
    SessionFile f{plan_scenario_from_args(a), {}};
    if (auto session = a.get("--session")) f.pins = parse_session_file(read_text_file(*session), *session).pins;
    const std::string text = session_file_text(f);
    if (auto file = a.get("-o")) write_file_atomically(*file, text);
    else out << text;
    return kExitOk;
}

int cmd_lint(const Args& a, std::ostream& out, std::ostream&) {
    if (a.positionals.size() != 1) throw InputError("lint needs exactly one FILE: zero-planner lint ds_config.json [--world-size N]");
    std::optional<std::int64_t> world;
    if (auto w = a.get("--world-size")) world = parse_positive_int(*w, "--world-size", limits::kWorldSize.max);
    const std::string& path = a.positionals.front();
    std::optional<FineTune> finetune;
    if (a.has("--finetune")) finetune = finetune_from_args(a);
    const LintResult r = lint_ds_config(read_text_file(path), world, path, finetune, lint_context_from_args(a));
    if (a.flag("--json")) {
        out << diagnostics_json(r).dump(2) << "\n";
    } else {
        for (const Diagnostic& d : r.diagnostics) {
            out << path << ": " << to_string(d.severity) << ": " << (d.path.empty() ? "" : d.path + ": ") << d.message;
            if (!d.suggestion.empty()) out << " (" << d.suggestion << ")";
            out << "\n";
        }
        std::size_t errors = 0, warnings = 0;
        for (const Diagnostic& d : r.diagnostics) {
            errors += d.severity == Severity::Error;
            warnings += d.severity == Severity::Warning;
        }
        out << path << ": " << errors << " error" << (errors == 1 ? "" : "s") << ", " << warnings << " warning"
            << (warnings == 1 ? "" : "s")
            << (world ? " (world size " + std::to_string(*world) + ")"
                      : std::string(" (no --world-size: batch rule checked for consistency only)"))
            << "\n";
    }
    return r.has_errors() ? kExitFindings : kExitOk;
}

// The planner against measured runs: FILE, or the bundled measured_runs.json (with the facts of
// measured_runs_facts.json) and the bundled host_ram_runs.json, and then the bundled paper_throughput.json (published throughput figures,
// with their own aggregate). Accuracy is
// information, not failure: exit 0 whenever the file could be read.
int cmd_validate(const Args& a, std::ostream& out, std::ostream&) {
    if (a.positionals.size() > 1) throw InputError("validate takes at most one FILE: zero-planner validate [FILE] [--json]");
    const bool bundled = a.positionals.empty();
    std::string path = bundled ? bundled_measured_runs_path() : a.positionals.front();
    // The bundled runs come with the facts their own sources state where the file leaves a
    // field null (measured_runs_facts.json); a user's FILE is read as it is.
    const std::string facts_path = bundled ? bundled_measured_runs_facts_path() : std::string();
    const std::string facts_text = bundled ? read_text_file(facts_path) : std::string();
    const validation::SourceFacts facts{facts_text, facts_path};
    const std::string runs_text = read_text_file(path);
    std::vector<validation::MeasuredCase> cases = validation::parse_measured_runs(runs_text, path, bundled ? &facts : nullptr);
    const std::vector<validation::PairSpec> pair_specs = validation::parse_measured_pairs(runs_text, path);
    const std::vector<validation::MeanResult> means = validation::validate_means(validation::parse_measured_means(runs_text, path));
    if (bundled) {
        // The project's further host-RAM measurements join the shared runs in one report, so the
        // host RAM aggregate is over all of them.
        const std::string host_path = bundled_host_ram_runs_path();
        for (auto& c : validation::parse_measured_runs(read_text_file(host_path), host_path)) cases.push_back(std::move(c));
        path += " + " + host_path;
    }
    const validation::ValidationReport r = validation::validate_cases(std::move(cases));
    const std::vector<validation::PairResult> pairs = validation::validate_pairs(r, pair_specs);
    std::optional<validation::ValidationReport> papers;
    std::vector<validation::MeanResult> paper_means;
    std::string paper_path;
    if (bundled) {
        paper_path = bundled_paper_throughput_path();
        const std::string paper_text = read_text_file(paper_path);
        papers = validation::validate_cases(validation::parse_measured_runs(paper_text, paper_path));
        paper_means = validation::validate_means(validation::parse_measured_means(paper_text, paper_path));
    }
    if (a.flag("--json")) {
        nlohmann::json j = validation_json(r, path, pairs, means);
        if (papers) j["paper_throughput"] = validation_json(*papers, paper_path, {}, paper_means);
        out << j.dump(2) << "\n";
    } else {
        out << validation_text(r, path, "Measured runs", pairs, means);
        if (papers) out << "\n" << validation_text(*papers, paper_path, "Published throughput", {}, paper_means);
    }
    return kExitOk;
}

// Today as YYYY-MM-DD, or the day of SOURCE_DATE_EPOCH when it is set (reproducible output).
std::string today() {
    std::time_t t = std::time(nullptr);
    if (const char* epoch = std::getenv("SOURCE_DATE_EPOCH")) t = static_cast<std::time_t>(std::strtoll(epoch, nullptr, 10));
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[16];
    std::strftime(buf, sizeof buf, "%Y-%m-%d", &tm);
    return buf;
}

// Fit the scenario's compute efficiency to one measured run (core/calibration/calibrate.h):
// from a log (--log FILE) or typed numbers (--measured-*); prints before / measured / after and
// writes the calibrated session with -o. A refused measurement writes nothing.
int cmd_calibrate(const Args& a, std::ostream& out, std::ostream&) {
    const auto pad_right = [](std::string text, std::size_t width) {
        if (text.size() < width) text.append(width - text.size(), ' ');
        return text;
    };
    const Scenario s = scenario_from_args(a);
    calibration::RunLog m;
    std::string source = "the command line";
    if (auto file = a.get("--log")) {
        m = calibration::read_run_log(read_text_file(*file), *file);
        source = *file;
    }
    if (auto v = a.get("--measured-step-s")) m.step_seconds = parse_number(*v, "--measured-step-s (seconds)", 1e-6, 1e9);
    if (auto v = a.get("--measured-samples-per-s")) m.samples_per_second = parse_number(*v, "--measured-samples-per-s", 1e-9, 1e12);
    if (auto v = a.get("--measured-max-allocated-gib"))
        m.max_allocated_bytes = gib_to_bytes(parse_number(*v, "--measured-max-allocated-gib", 1e-6, 1e6));
    if (auto v = a.get("--measured-reserved-gib"))
        m.max_reserved_bytes = gib_to_bytes(parse_number(*v, "--measured-reserved-gib", 1e-6, 1e6));
    if (!a.has("--log") && !m.step_seconds && !m.samples_per_second)
        throw InputError("calibrate needs a measured run: --log FILE, --measured-step-s S or --measured-samples-per-s X");
    const calibration::CalibrationResult r = calibration::calibrate(s, m, source, today());
    if (auto file = a.get("-o")) write_file_atomically(*file, session_text(r.calibrated));
    if (a.flag("--json")) {
        nlohmann::json j = {{"source", source},
                            {"read", m.read},
                            {"mfu_before", r.mfu_before},
                            {"mfu_after", r.mfu_after},
                            {"compute_scale_before", r.scale_before},
                            {"compute_scale_after", r.scale_after},
                            {"step_seconds",
                             {{"predicted_before", r.step_before_seconds},
                              {"measured", r.step_measured_seconds},
                              {"predicted_after", r.step_after_seconds}}},
                            {"calibration", r.calibrated.assumptions.calibration}};
        if (r.max_allocated_measured_bytes)
            j["max_allocated_bytes"] = {{"measured", *r.max_allocated_measured_bytes}, {"predicted", *r.max_allocated_predicted_bytes}};
        if (r.max_reserved_measured_bytes)
            j["max_reserved_bytes"] = {{"measured", *r.max_reserved_measured_bytes}, {"predicted", *r.max_reserved_predicted_bytes}};
        out << j.dump(2) << "\n";
        return kExitOk;
    }
    out << "Calibrated from " << source << "\n";
    for (const std::string& line : m.read) out << "  read " << line << "\n";
    out << "                  predicted before  measured    predicted after\n";
    out << "  step time       " << pad_right(format_seconds(r.step_before_seconds), 18)
        << pad_right(format_seconds(r.step_measured_seconds), 12) << format_seconds(r.step_after_seconds) << "\n";
    out << "  compute-efficiency scale x" << format_fixed(r.scale_before, 2) << " -> x" << format_fixed(r.scale_after, 2)
        << " (stored as mfu " << format_fixed(r.mfu_before, 3) << " -> " << format_fixed(r.mfu_after, 3) << ")\n";
    if (r.max_allocated_measured_bytes)
        out << "  max allocated   " << pad_right(format_bytes(*r.max_allocated_predicted_bytes), 18)
            << format_bytes(*r.max_allocated_measured_bytes) << "  (compared, not fitted)\n";
    if (r.max_reserved_measured_bytes)
        out << "  max reserved    " << pad_right(format_bytes(*r.max_reserved_predicted_bytes), 18)
            << format_bytes(*r.max_reserved_measured_bytes) << "  (compared, not fitted)\n";
    if (auto file = a.get("-o"))
        out << "Session written to " << *file << "; estimates and recommendations from it use the fitted efficiency.\n";
    else out << "Add -o plan.zplan to keep the calibrated scenario as a session.\n";
    return kExitOk;
}

std::string pad_right(std::string s, std::size_t width) {
    if (s.size() < width) s.append(width - s.size(), ' ');
    return s;
}

std::string command_names() {
    std::string out;
    for (const Command& c : commands()) out += (out.empty() ? "" : ", ") + c.name;
    return out;
}

// --help and --version answer before anything else is checked, with or without a command.
bool answered_help_or_version(const Args& a, std::ostream& out) {
    if (a.flag("--help") || a.flag("-h")) out << help_text();
    else if (a.flag("--version")) out << version_text();
    else return false;
    return true;
}

// No command first: only --help and --version mean something here; app/main.cpp starts the
// window for options alone (app/cli/start.h), so they arrive here only from tests and fuzzing.
int run_without_command(const std::vector<std::string>& argv, std::ostream& out) {
    if (argv.empty()) throw InputError("no command; see zero-planner --help");
    const std::string& first = argv.front();
    const bool session_file = first.ends_with(".zplan");  // the window's: zero-planner plan.zplan --help
    if (!session_file && (first.empty() || first[0] != '-')) throw InputError(unknown_command_message(first));
    const Args a = parse_args({argv.begin() + (session_file ? 1 : 0), argv.end()}, scenario_option_names(), kFlags);
    if (answered_help_or_version(a, out)) return kExitOk;
    throw InputError("options without a command start the window; to run a command, give it first: zero-planner COMMAND [OPTIONS]");
}

}  // namespace

const std::vector<Command>& commands() {
    static const std::vector<Command> table = {
        {"estimate", "estimate", "one setup (--stage, --offload-optimizer, --offload-param)", CommandKind::Headless, with_scenario({}),
         kFlags, false, cmd_estimate},
        {"compare", "compare", "every stage and offload combination", CommandKind::Headless, with_scenario({}), kFlags, false, cmd_compare},
        {"recommend", "recommend", "search stage, offload, recompute, micro batch and buckets; the fastest that fits",
         CommandKind::Headless, with_scenario({}), kFlags, false, cmd_recommend},
        {"ds-estimate", "ds-estimate",
         "DeepSpeed's own estimator table: --params P --largest-layer L --gpus-per-node G\n"
         "--nodes K --stage 2|3 [--formula current|legacy]",
         CommandKind::Headless, options({"--params", "--largest-layer", "--gpus-per-node", "--nodes", "--stage", "--formula"}), kFlags,
         false, cmd_ds_estimate},
        {"export", "export",
         "--format " + export_format_ids("|") + " [-o FILE]: the recommended setup,\nor the one given with --stage/--offload-*",
         CommandKind::Headless, with_scenario({"--format"}), kFlags, false, cmd_export},
        {"session", "session", "write the scenario the options describe as a .zplan session [-o FILE]", CommandKind::Headless,
         with_scenario({}), kFlags, false, cmd_session},
        {"lint", "lint FILE",
         "check a ds_config.json [--world-size N] [--finetune qlora --base-precision nf4 --quant-storage DTYPE: the script's "
         "PEFT/bitsandbytes settings]\n[--gpus-per-node G: hpZ and MiCS groups against the node] [--model NAME | --hf-config FILE | "
         "--heads N [--kv-heads N]] [--seq S]:\nsequence_parallel_size against the heads and the sequence; exit 1 when it has errors",
         CommandKind::Headless,
         options({"--world-size", "--finetune", "--base-precision", "--quant-storage", "--gpus-per-node", "--model", "--hf-config",
                  "--heads", "--kv-heads", "--seq"}),
         kFlags, true, cmd_lint},
        {"calibrate", "calibrate",
         "fit the compute efficiency to a measured run: --log FILE (DeepSpeed, Megatron or Trainer output)\n"
         "or --measured-step-s S / --measured-samples-per-s X [--measured-max-allocated-gib G] [-o plan.zplan]",
         CommandKind::Headless,
         with_scenario(
             {"--log", "--measured-step-s", "--measured-samples-per-s", "--measured-max-allocated-gib", "--measured-reserved-gib", "-o"}),
         kFlags, false, cmd_calibrate},
        {"validate", "validate [FILE]", "the planner against measured runs (default: the bundled measured_runs.json)",
         CommandKind::Headless, options({}), kFlags, true, cmd_validate},
        {"screenshot", "screenshot",
         "render the window to --out FILE.png [--view memory|scaling|time|step|host|layout|config|window|calibrate|compare]\n"
         "[--size WxH] [--scale 1|2: device pixels per point] [--log FILE: the run log the calibrate view shows]\n"
         "(a --session file's pinned plans are drawn too)",
         CommandKind::Window, with_scenario({"--out", "--view", "--size", "--scale", "--log"}), options({"--help", "-h"}), false, nullptr},
        {"report", "report",
         "--format pdf|md -o FILE: the plan as one PDF page, or Markdown with its plots as PNGs\n"
         "beside it: scenario, recommendation and why, memory table, plots, ds_config.json",
         CommandKind::Window, with_scenario({"--format", "-o"}), options({"--help", "-h"}), false, nullptr},
    };
    return table;
}

const Command* find_command(std::string_view name) {
    for (const Command& c : commands())
        if (c.name == name) return &c;
    return nullptr;
}

bool is_headless_command(std::string_view name) {
    const Command* c = find_command(name);
    return c && c->kind == CommandKind::Headless;
}

std::string unknown_command_message(std::string_view word) {
    std::vector<std::string_view> names;
    for (const Command& c : commands()) names.push_back(c.name);
    const std::string quoted = "unknown command '" + std::string(word) + "'";
    if (const auto near = closest_name(word, names)) return quoted + " (did you mean '" + *near + "'?)";
    return quoted + "; commands: " + command_names();
}

std::string version_text() { return std::string("zero-planner ") + ZP_VERSION + "\n"; }

// clang-format off
std::string help_text() {
    std::string commands_help;
    for (const Command& c : commands()) {
        std::string summary = c.summary;
        for (std::size_t at = summary.find('\n'); at != std::string::npos; at = summary.find('\n', at + 1))
            summary.insert(at + 1, std::string(16, ' '));
        commands_help += "  " + pad_right(c.usage, 12) + "  " + summary + "\n";
    }
    const std::string offload = choice_list<OffloadDevice>();
    return "Usage: zero-planner COMMAND [OPTIONS]\n"
           "       zero-planner [SESSION.zplan] [OPTIONS]\n"
           "Plan a DeepSpeed ZeRO training run: per-GPU memory, host RAM, NVMe and step time for every\n"
           "ZeRO stage and offload choice, and the fastest setup that fits.\n"
           "\n"
           "The command comes first. Without one, the window opens on the scenario the options (or\n"
           "SESSION.zplan) describe; with no display, that scenario's plan is printed instead and its\n"
           "picture and ds_config.json are written to ./zero-planner-output. Any other first word is an\n"
           "unknown command.\n"
           "\n"
           "Commands:\n" +
           commands_help +
           "\n"
           "Output: text by default, one JSON document with --json. Exit 0 on success, 2 on bad input.\n"
           "\n"
           "Model (one of):\n"
           "  --model NAME         a preset: " + model_preset_names() + "\n"
           "  --params N           a bare size (7e9, 7B, 70b); the architecture is synthesized\n"
           "  --hf-config FILE     a Hugging Face config.json (" + supported_hf_model_types() + ")\n"
           "  --layers N --hidden N --heads N [--kv-heads N --ffn N (4 x hidden) --vocab N (51200)]\n"
           "                       a custom dense transformer, or overrides beside --model/--hf-config\n"
           "Cluster:\n"
           "  --cluster NAME       a node preset: " + cluster_preset_names() + " (default dgx-a100)\n"
           "  --gpus N             total GPUs (default 8)       --gpus-per-node G\n"
           "  --gpu NAME           " + gpu_preset_names() + "\n"
           "  --gpu-mem GIB        GPU memory, GiB\n"
           "  --intra-bw GBPS      intra-node GB/s per GPU      --inter-bw GBITPS  inter-node Gbit/s per node\n"
           "  --nics N             the NICs that bandwidth runs over (default: one per GPU; dgx-2 8, rtx4090-box 1)\n"
           "  --pcie-bw GBPS       host link GB/s per GPU       --nvme-bw GBPS     NVMe GB/s per node\n"
           "  --cpu-ram GIB        host RAM per node, GiB       --nvme GIB         NVMe per node, GiB\n"
           "Training:\n"
           "  --precision " + choice_list<Precision>() + "   --optimizer " + choice_list<Optimizer>() + "\n"
           "  --seq S (4096)   --micro-batch B (1)   --global-batch GB (64, raised to a multiple of micro x GPUs)\n"
           "  --checkpointing " + choice_list<Checkpointing>() + "   --flash-attention on|off   --cpu-checkpointing on|off\n"
           "  --loss-upcast on|off (on: fp32 logits in the loss)   --loss-kernel " + choice_list<LossKernel>() + " (chunked: Liger)\n"
           "  --fused-optimizer on|off (on: DeepSpeed's FusedAdam; off: torch.optim, with temporaries)\n"
           "  --load-dtype fp32|16bit (fp32: from_pretrained's default)   --low-cpu-mem-usage on|off (off)\n"
           "  --dataloader-workers N (0, per process)\n"
           "ZeRO:\n"
           "  --stage 0..3   --offload-optimizer " + offload + "   --offload-param " + offload + "\n"
           "  --overlap-comm on|off   --reduce-bucket-size N   --allgather-bucket-size N   --zero-init on|off\n"
           "  --pin-memory on|off (on: pinned offload buffers)   --save-16bit-model on|off (stage 3: gather on save)\n"
           "  --zeropp off|hpz|hpz+qwz+qgz|auto (ZeRO++ at stage 3: hpZ over the node, int8 weights, int4 gradients; on = all three;\n"
           "    auto: the recommender tries the three across nodes and keeps the fastest; default for full training on > 1 node)\n"
           "  --hpz-size K (zero_hpz_partition_size, 1 = off; also --hpz K)   --quantized-weights on|off   --quantized-gradients on|off\n"
           "  --mics-shard-size S (MiCS at stage 3: model states over groups of S GPUs, replicated across them; 1 = off)\n"
           "  --mics-hierarchical-gather on|off (a shard group over two or more nodes gathers across nodes, then inside)\n"
           "Model parallelism (Megatron-DeepSpeed):\n"
           "  --tp T|auto (tensor, inside a node)   --pp P|auto (pipeline; ZeRO 0/1)   --pp-schedule 1f1b|interleaved:V\n"
           "  (--virtual-stages V: the same as interleaved:V)\n"
           "  --sequence-parallel on|off (Megatron's, with --tp)\n"
           "  --sp U|auto (DeepSpeed-Ulysses sequence_parallel_size: U divides the heads and the sequence; no --tp/--pp)\n"
           "Experts (DeepSpeed-MoE, models with routed experts):\n"
           "  --ep E|auto (expert-parallel size: divides the experts and the data-parallel size; ZeRO 0-2)\n"
           "  --capacity-factor F (1.0: tokens an expert takes a micro batch, x tokens x top-k / experts)\n"
           "  auto (recommend, export, session, the window): the search chooses among every layout that fits the GPUs;\n"
           "  tensor, pipeline and experts default to auto for full training across more than one node, else 1\n"
           "Assumptions:\n"
           "  --headroom FRACTION (0.05)   --convention " + choice_list<Convention>() + "   --mfu FRACTION (0.45)\n"
           "  --cuda-context GIB (1)   --fragmentation FRACTION (0.10)\n"
           "  --session FILE       start from a saved .zplan session; other options override it\n"
           "  --ds-config FILE     take stage, offload, batch, precision and buckets from a ds_config.json\n"
           "\n"
           "  --help, --version\n";
}
// clang-format on

int run(const std::vector<std::string>& argv, std::ostream& out, std::ostream& err) {
    try {
        const Command* command = argv.empty() ? nullptr : find_command(argv.front());
        if (!command) return run_without_command(argv, out);
        const Args a = parse_args({argv.begin() + 1, argv.end()}, command->options, command->flags);
        if (answered_help_or_version(a, out)) return kExitOk;
        if (!command->handler) throw InputError(command->name + " needs the window, which this build does not have (ZP_BUILD_GUI=OFF)");
        if (!command->takes_file && !a.positionals.empty())
            throw InputError("unexpected argument '" + a.positionals.front() + "'; see zero-planner --help");
        std::ostringstream buffer;  // nothing reaches `out` unless the command succeeds
        const int rc = command->handler(a, buffer, err);
        out << buffer.str();
        return rc;
    } catch (const InputError& e) {
        err << "zero-planner: " << e.what() << "\n";
        return kExitBadInput;
    } catch (const std::exception& e) {
        err << "zero-planner: internal error: " << e.what() << "\n";
        return kExitBadInput;
    }
}

}  // namespace zp::cli
