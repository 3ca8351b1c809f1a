#include "app/cli/cli.h"

#include "app/cli/args.h"
#include "app/cli/number_parse.h"
#include "app/cli/scenario_options.h"
#include "app/cli/text_report.h"
#include "core/cluster_presets.h"
#include "core/ds_estimator.h"
#include "core/errors.h"
#include "core/gpu_presets.h"
#include "core/hf_config.h"
#include "core/model_presets.h"
#include "core/report_json.h"

#include <ostream>
#include <sstream>

#ifndef ZP_VERSION
#define ZP_VERSION "0.0.0"
#endif

namespace zp::cli {
namespace {

const std::set<std::string> kFlags = {"--json", "--help", "-h", "--version"};

std::set<std::string> with_scenario(std::initializer_list<const char*> extra) {
    std::set<std::string> s = scenario_option_names();
    for (const char* e : extra) s.insert(e);
    return s;
}

// Every output is built completely in memory first, so a failure never leaves half a document.
int cmd_estimate(const Args& a, std::ostream& out) {
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

int cmd_compare(const Args& a, std::ostream& out) {
    ScenarioNotes notes;
    const Scenario base = scenario_from_args(a, &notes);
    std::vector<Candidate> rows;
    for (const ZeroSetup& z : zero_setups()) {
        Scenario s = base;
        s.zero.stage = z.stage;
        s.zero.offload_optimizer = z.offload_optimizer;
        s.zero.offload_param = z.offload_param;
        rows.push_back(evaluate(s));
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

int cmd_recommend(const Args& a, std::ostream& out) {
    ScenarioNotes notes;
    const Scenario s = scenario_from_args(a, &notes);
    const Plan p = recommend(s);
    if (a.flag("--json")) out << plan_json(p).dump(2) << "\n";
    else out << scenario_header(s, notes.synthesized) << plan_text(s, p);
    return kExitOk;
}

int cmd_ds_estimate(const Args& a, std::ostream& out) {
    for (const char* k : {"--params", "--largest-layer", "--stage"})
        if (!a.has(k)) throw InputError(std::string("ds-estimate needs ") + k + "; e.g. ds-estimate --params 2851e6 --largest-layer 32e6 --gpus-per-node 8 --nodes 1 --stage 3");
    deepspeed::EstimatorInput in;
    in.total_params = static_cast<double>(parse_count(*a.get("--params"), "--params"));
    in.largest_layer_params = static_cast<double>(parse_count(*a.get("--largest-layer"), "--largest-layer"));
    in.num_gpus_per_node = a.has("--gpus-per-node") ? parse_positive_int(*a.get("--gpus-per-node"), "--gpus-per-node", 1024) : 1;
    in.num_nodes = a.has("--nodes") ? parse_positive_int(*a.get("--nodes"), "--nodes", 100000) : 1;
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

}  // namespace

bool is_headless_command(const std::string& command) {
    return command == "estimate" || command == "compare" || command == "recommend" || command == "ds-estimate";
}

std::string version_text() { return std::string("zero-planner ") + ZP_VERSION + "\n"; }

std::string help_text() {
    return "Usage: zero-planner [COMMAND] [OPTIONS]\n"
           "Plan a DeepSpeed ZeRO training run: per-GPU memory, host RAM, NVMe and step time for every\n"
           "ZeRO stage and offload choice, and the fastest setup that fits. Without a command: the window.\n"
           "\n"
           "Commands:\n"
           "  estimate      one setup (--stage, --offload-optimizer, --offload-param)\n"
           "  compare       every stage and offload combination\n"
           "  recommend     search stage, offload, recompute, micro batch and buckets; the fastest that fits\n"
           "  ds-estimate   DeepSpeed's own estimator table: --params P --largest-layer L --gpus-per-node G\n"
           "                --nodes K --stage 2|3 [--formula current|legacy]\n"
           "  screenshot    render the window to --out FILE.png [--view memory|scaling|time|config|window] [--size WxH]\n"
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
           "  --pcie-bw GBPS       host link GB/s per GPU       --nvme-bw GBPS     NVMe GB/s per node\n"
           "  --cpu-ram GIB        host RAM per node, GiB       --nvme GIB         NVMe per node, GiB\n"
           "Training:\n"
           "  --precision bf16|fp16|fp32   --optimizer adamw|adam|lamb|lion|adagrad|sgd-momentum|sgd\n"
           "  --seq S (4096)   --micro-batch B (1)   --global-batch GB (64, raised to a multiple of micro x GPUs)\n"
           "  --checkpointing none|selective|full   --flash-attention on|off   --cpu-checkpointing on|off\n"
           "ZeRO:\n"
           "  --stage 0..3   --offload-optimizer none|cpu|nvme   --offload-param none|cpu|nvme\n"
           "  --overlap-comm on|off   --reduce-bucket-size N   --allgather-bucket-size N   --zero-init on|off\n"
           "Assumptions:\n"
           "  --headroom FRACTION (0.05)   --convention deepspeed|paper   --mfu FRACTION (0.45)\n"
           "  --cuda-context GIB (1)   --fragmentation FRACTION (0.10)\n"
           "  --session FILE       start from a saved .zplan session; other options override it\n"
           "\n"
           "  --help, --version\n";
}

int run(const std::vector<std::string>& argv, std::ostream& out, std::ostream& err) {
    try {
        // First pass: find the command to know which options it accepts.
        std::string command;
        for (const auto& arg : argv)
            if (!arg.empty() && arg[0] != '-') {
                command = arg;
                break;
            }
        std::set<std::string> values;
        if (command == "ds-estimate") values = {"--params", "--largest-layer", "--gpus-per-node", "--nodes", "--stage", "--formula"};
        else values = with_scenario({});
        const Args a = parse_args(argv, values, kFlags);
        if (a.flag("--help") || a.flag("-h")) {
            out << help_text();
            return kExitOk;
        }
        if (a.flag("--version")) {
            out << version_text();
            return kExitOk;
        }
        if (!a.positionals.empty()) throw InputError("unexpected argument '" + a.positionals.front() + "'; see zero-planner --help");
        std::ostringstream buffer;  // nothing reaches `out` unless the command succeeds
        int rc = kExitOk;
        if (a.command == "estimate") rc = cmd_estimate(a, buffer);
        else if (a.command == "compare") rc = cmd_compare(a, buffer);
        else if (a.command == "recommend") rc = cmd_recommend(a, buffer);
        else if (a.command == "ds-estimate") rc = cmd_ds_estimate(a, buffer);
        else throw InputError("unknown command '" + a.command + "'; commands: estimate, compare, recommend, ds-estimate, screenshot");
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
