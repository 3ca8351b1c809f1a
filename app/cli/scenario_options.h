#pragma once
// The scenario options of docs/design.md §8.3, shared by every command that takes a scenario.
#include "app/cli/args.h"
#include "core/deepspeed/lint.h"
#include "core/model/scenario.h"
#include "core/search/recommender.h"

#include <set>
#include <string>

namespace zp::cli {

const std::set<std::string>& scenario_option_names();

struct ScenarioNotes {
    bool synthesized = false;  // --params alone: the architecture was made up for activations
};

// Starts from the default scenario (or --session FILE), then applies the options in a fixed
// order: cluster, model, architecture overrides, GPUs, links, host, training, ZeRO setup,
// assumptions. Throws InputError with the option name and what is accepted.
Scenario scenario_from_args(const Args& a, ScenarioNotes* notes = nullptr);
// For the commands that plan (recommend, export, session, report, screenshot and the window):
// `--tp auto` / `--pp auto` set Parallelism::auto_tensor / auto_pipeline and the scenario keeps
// its own sizes. Without --session, a size not given is auto when search_layouts_by_default says
// so (full training); a number fixes it. `--zeropp auto` sets ZeroSetup::auto_zeropp the same
// way (on by default where the layout search is); --zeropp off|hpz|hpz+qwz+qgz or a single switch
// fixes it. The other commands refuse "auto" (the number parser names the option).
Scenario plan_scenario_from_args(const Args& a, ScenarioNotes* notes = nullptr);
// Whether the options ask for a layout search themselves (--tp, --pp or --ep auto).
bool layout_search_given(const Args& a);

// Only the fine-tuning options (--finetune, --base-precision, --quant-storage, ...) over the
// default method: what lint checks a ds_config against.
FineTune finetune_from_args(const Args& a);

// The node and model lint checks a config against: --gpus-per-node G; --model NAME, --hf-config FILE
// or --heads N [--kv-heads N]; --seq S. Each left out is not checked.
LintContext lint_context_from_args(const Args& a);

}  // namespace zp::cli
