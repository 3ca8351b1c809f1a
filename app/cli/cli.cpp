#include "app/cli/cli.h"

#include "app/cli/args.h"
#include "app/cli/commands/commands.h"
#include "app/cli/options.h"
#include "core/base/errors.h"
#include "core/base/suggest.h"
#include "core/deepspeed/export_formats.h"
#include "zp_version.h"

#include <algorithm>
#include <ostream>
#include <sstream>

namespace zp::cli {
namespace {

const std::set<std::string> kFlags = names_of({&opt::json, &opt::help, &opt::help_short, &opt::version});

// The flags every command takes and the ones the command adds.
std::set<std::string> with_flags(std::initializer_list<const Option*> extra) {
    std::set<std::string> s = kFlags;
    s.merge(names_of(extra));
    return s;
}
// A command's value options: the ones it lists (-o only where the command writes a file).
std::set<std::string> options(std::initializer_list<const Option*> list) { return names_of(list); }
// The scenario options and the ones the command adds.
std::set<std::string> with_scenario(std::initializer_list<const Option*> extra) {
    std::set<std::string> s = options(extra);
    s.merge(scenario_option_names());
    return s;
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
    if (a.flag(opt::help) || a.flag(opt::help_short)) out << help_text();
    else if (a.flag(opt::version)) out << version_text();
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
    const Args a = parse_args({argv.begin() + (session_file ? 1 : 0), argv.end()}, with_scenario({}), kFlags);
    if (answered_help_or_version(a, out)) return kExitOk;
    throw InputError("options without a command start the window; to run a command, give it first: zero-planner COMMAND [OPTIONS]");
}

}  // namespace

const std::vector<Command>& commands() {
    static const std::vector<Command> table = {
        {"estimate", "estimate", "one setup (--stage, --offload-optimizer, --offload-param); --max-seq: its longest sequence",
         CommandKind::Headless, with_scenario({}), with_flags({&opt::max_seq}), false, cmd_estimate},
        {"compare", "compare", "every stage and offload combination", CommandKind::Headless, with_scenario({}), kFlags, false, cmd_compare},
        {"recommend", "recommend",
         "search stage, offload, recompute, micro batch and buckets; the fastest that fits\n"
         "--max-seq: the longest sequence each setup fits, and the fastest setup at --seq",
         CommandKind::Headless, with_scenario({}), with_flags({&opt::max_seq}), false, cmd_recommend},
        {"ds-estimate", "ds-estimate",
         "DeepSpeed's own estimator table: --params P --largest-layer L --gpus-per-node G\n"
         "--nodes K --stage 2|3 [--formula current|legacy]",
         CommandKind::Headless, options({&opt::params, &opt::largest_layer, &opt::gpus_per_node, &opt::nodes, &opt::stage, &opt::formula}),
         kFlags, false, cmd_ds_estimate},
        {"export", "export",
         "--format " + export_format_ids("|") + " [-o FILE]: the recommended setup,\nor the one given with --stage/--offload-*",
         CommandKind::Headless, with_scenario({&opt::format, &opt::output}), kFlags, false, cmd_export},
        {"session", "session", "write the scenario the options describe as a .zplan session [-o FILE]", CommandKind::Headless,
         with_scenario({&opt::output}), kFlags, false, cmd_session},
        {"lint", "lint FILE",
         "check a ds_config.json [--world-size N] [--finetune qlora --base-precision nf4 --quant-storage DTYPE: the script's "
         "PEFT/bitsandbytes settings]\n[--gpus-per-node G: hpZ and MiCS groups against the node] [--model NAME | --hf-config FILE | "
         "--heads N [--kv-heads N]] [--seq S]:\nsequence_parallel_size against the heads and the sequence; exit 1 when it has errors",
         CommandKind::Headless,
         options({&opt::world_size, &opt::finetune, &opt::base_precision, &opt::quant_storage, &opt::gpus_per_node, &opt::model,
                  &opt::hf_config, &opt::heads, &opt::kv_heads, &opt::seq}),
         kFlags, true, cmd_lint},
        {"calibrate", "calibrate",
         "fit the compute efficiency to a measured run: --log FILE (DeepSpeed, Megatron or Trainer output)\n"
         "or --measured-step-s S / --measured-samples-per-s X [--measured-max-allocated-gib G] [-o plan.zplan]",
         CommandKind::Headless,
         with_scenario({&opt::log, &opt::measured_step_s, &opt::measured_samples_per_s, &opt::measured_max_allocated_gib,
                        &opt::measured_reserved_gib, &opt::output}),
         kFlags, false, cmd_calibrate},
        {"validate", "validate [FILE] [--holdout]",
         "the planner against measured runs (default: the bundled ones); --holdout: each fitted constant re-fitted without "
         "one cited source at a time, that source's rows predicted with it",
         CommandKind::Headless, options({}), with_flags({&opt::holdout}), true, cmd_validate},
        {"diagnose", "diagnose LOG",
         "a log that ran out of GPU memory: the moment of the step it failed in, what frees memory there, and with scenario "
         "options the planner's bytes at that moment",
         CommandKind::Headless, with_scenario({}), kFlags, true, cmd_diagnose},
        {"presets", "presets [gpus|nodes|models]",
         "every GPU, node and model preset: its key figures and where each comes from (datasheet, user guide,\n"
         "config.json, paper); active: a mixture's matmul parameters a token passes through; --markdown: as Markdown tables",
         CommandKind::Headless, options({}), with_flags({&opt::markdown}), true, cmd_presets},
        {"screenshot", "screenshot",
         "render the window to --out FILE.png [--view memory|scaling|time|step|host|layout|sequence|config|window|window-sequence|calibrate|compare|start]\n"
         "[--size WxH] [--scale 1|2: device pixels per point] [--log FILE: the run log the calibrate view shows]\n"
         "(a --session file's pinned plans are drawn too)",
         CommandKind::Window, with_scenario({&opt::out, &opt::view, &opt::size, &opt::scale, &opt::lang, &opt::log}),
         names_of({&opt::help, &opt::help_short}), false, nullptr},
        {"report", "report",
         "--format pdf|md -o FILE: the plan as one PDF page, or Markdown with its plots as PNGs\n"
         "beside it: scenario, recommendation and why, memory table, plots, ds_config.json",
         CommandKind::Window, with_scenario({&opt::format, &opt::output}), names_of({&opt::help, &opt::help_short}), false, nullptr},
    };
    return table;
}

void refuse_output_option(const Command& command, const std::vector<std::string>& argv) {
    const auto o = std::find(argv.begin() + 1, argv.end(), opt::output.name);
    if (o == argv.end()) return;
    // "-o -" wrote a file named "-" (and a report's pictures "--memory.png", which rm reads as options).
    if (o + 1 != argv.end() && o[1] == "-")
        throw InputError("-o needs a file name, not '-': export and session print to standard output without -o");
    if (command.options.count(std::string(opt::output.name))) return;
    if (command.name == "screenshot") throw InputError("screenshot writes its picture to --out FILE.png; -o is not one of its options");
    throw InputError(command.name + " prints to standard output: redirect it (> FILE); -o writes a file for export, session, " +
                     "calibrate and report");
}

void refuse_other_commands_options(const Command& command, const std::vector<std::string>& argv) {
    for (std::size_t i = 1; i < argv.size(); ++i) {
        const std::string& arg = argv[i];
        if (arg.size() < 2 || arg[0] != '-') continue;
        const std::string key = arg.substr(0, arg.find('='));
        if (command.options.count(key)) {
            if (key == arg) ++i;  // its value is the next word
            continue;
        }
        if (command.flags.count(key)) continue;
        std::vector<std::string> owners;
        for (const Command& c : commands())
            if (c.options.count(key) || c.flags.count(key)) owners.push_back(c.name);
        if (owners.empty()) return;  // unknown everywhere: the parser says so, with the nearest name
        if (command.name == "lint" && key == std::string(opt::gpus.name))
            throw InputError("lint takes the GPU count as " + std::string(opt::world_size.name) + " N");
        if (command.takes_file && key == std::string(opt::log.name))
            throw InputError(command.name + " reads the file named after it: zero-planner " + command.usage);
        std::string list;
        const std::size_t shown = std::min<std::size_t>(owners.size(), 3);
        for (std::size_t k = 0; k < shown; ++k) list += (k == 0 ? "" : k + 1 == shown && owners.size() <= 3 ? " and " : ", ") + owners[k];
        if (owners.size() > 3) list += " and " + std::to_string(owners.size() - 3) + " more";
        throw InputError(key + " is an option of " + list + ", not of " + command.name + "; see zero-planner " + command.name + " --help");
    }
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

std::string help_text() {
    std::string commands_help;
    for (const Command& c : commands()) {
        std::string summary = c.summary;
        for (std::size_t at = summary.find('\n'); at != std::string::npos; at = summary.find('\n', at + 1))
            summary.insert(at + 1, std::string(16, ' '));
        commands_help += "  " + pad_right(c.usage, 12) + "  " + summary + "\n";
    }
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
           "\n" +
           options_help();
}

int run(const std::vector<std::string>& argv, std::ostream& out, std::ostream& err) {
    try {
        const Command* command = argv.empty() ? nullptr : find_command(argv.front());
        if (!command) return run_without_command(argv, out);
        refuse_output_option(*command, argv);
        refuse_other_commands_options(*command, argv);
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
