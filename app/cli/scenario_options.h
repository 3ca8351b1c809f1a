#pragma once
// The scenario options of docs/design.md §8.3, shared by every command that takes a scenario.
#include "app/cli/args.h"
#include "app/cli/options.h"
#include "core/deepspeed/lint.h"
#include "core/model/scenario.h"
#include "core/search/recommender.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace zp::cli {

struct ScenarioNotes {
    bool synthesized = false;  // --params alone: the architecture was made up for activations
    // --gpu without --cluster or --session: the host that was assumed for it, as a sentence
    // ("the 8x RTX 4090 PCIe server's ..."); empty when the options or the session gave the node.
    std::string host;
    // --ds-config FILE: what `zero-planner lint FILE` warns of it ("FILE: path: message"), such as a
    // key DeepSpeed ignores at the file's stage, which the plan ignores as DeepSpeed does.
    std::vector<std::string> ds_config_warnings;
};

// Starts from the default scenario (or --session FILE), then applies the options in a fixed
// order: cluster, model, architecture overrides, GPUs, links, host, training, ZeRO setup,
// assumptions. Throws InputError with the option name and what is accepted.
Scenario scenario_from_args(const Args& a, ScenarioNotes* notes = nullptr);
// The same over `base` instead of the default scenario (diagnose: over the run its log states).
Scenario scenario_from_args_over(const Args& a, const Scenario& base);
// A layout size as typed (--tp, --pp, --ep, --sp): a number, or auto (std::nullopt: the search
// chooses it), which only the planning commands take. Elsewhere "auto" is refused by the number
// parser, naming the option: "--tp must be a whole number ...".
using SizeOrAuto = std::optional<std::int64_t>;
SizeOrAuto parse_size_or_auto(const std::string& text, const Option& o, std::int64_t max, bool auto_allowed);

// What the options ask a planning command to search, as typed: for each option given, whether
// it said auto (true) or fixed the value (false); unset where the option was not given.
struct SearchAsked {
    std::optional<bool> tensor, pipeline, expert, ulysses;  // --tp, --pp, --ep, --sp
    std::optional<bool> zeropp;                             // --zeropp
    // --tp, --pp, --ep or --sp auto: the options ask for a layout search themselves.
    bool layout() const { return tensor == true || pipeline == true || expert == true || ulysses == true; }
};

// For the commands that plan (recommend, export, session, report, screenshot and the window):
// `--tp auto` / `--pp auto` set Parallelism::auto_tensor / auto_pipeline and the scenario keeps
// its own sizes. Without --session, a size not given is auto when search_layouts_by_default says
// so (full training); a number fixes it. `--zeropp auto` sets ZeroSetup::auto_zeropp the same
// way (on by default where the layout search is); --zeropp off|hpz|hpz+qwz+qgz or a single switch
// fixes it. The other commands refuse "auto" (the number parser names the option). `asked`, when
// given, receives what the options asked for.
Scenario plan_scenario_from_args(const Args& a, ScenarioNotes* notes = nullptr, SearchAsked* asked = nullptr);

// Only the fine-tuning options (--finetune, --base-precision, --quant-storage, ...) over the
// default method: what lint checks a ds_config against.
FineTune finetune_from_args(const Args& a);

// The node and model lint checks a config against: --gpus-per-node G; --model NAME, --hf-config FILE
// or --heads N [--kv-heads N]; --seq S. Each left out is not checked.
LintContext lint_context_from_args(const Args& a);

}  // namespace zp::cli
