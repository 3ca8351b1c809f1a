#pragma once
// One training log diagnosed end to end, the way `zero-planner diagnose` and the window's File >
// Diagnose a Training Log... both do it: the text refused when it is no training log (empty,
// binary, no out-of-memory message), the run it states over a base scenario
// (core/diagnose/log_setup.h), the diagnosis (core/diagnose/oom_diagnosis.h) or, when the planner
// cannot run what the log states, the cause and the moment alone, and the run's values in the
// order the diagnosis lists them.
#include "core/diagnose/log_setup.h"
#include "core/diagnose/oom_diagnosis.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace zp {

// Throws InputError naming `source_name` for an empty file, a binary one (it holds NUL bytes) or a
// text without an out-of-memory message (read_oom_log's one line).
OomLog read_training_log(std::string_view text, const std::string& source_name);

// The diagnosis of `log` for the run `s`; when `not_runnable` is not empty (the planner refused
// the run the log states), what the message and the frames say alone: the cause and the moment.
OomDiagnosis diagnose_log(const OomLog& log, const Scenario& s, const std::string& not_runnable, bool zero_known = false);

// Everything the window shows for one log: read, its setup over `base` (what the log does not
// state keeps `base`'s value), checked with validate(), diagnosed.
struct TrainingLogDiagnosis {
    OomLog log;
    LogSetup setup;            // setup.scenario is the run diagnosed
    std::string not_runnable;  // validate()'s reason when the planner cannot run that setup, else ""
    OomDiagnosis diagnosis;
};
// Throws InputError as read_training_log and setup_from_log do.
TrainingLogDiagnosis diagnose_training_log(std::string_view text, const std::string& source_name, const Scenario& base);

// One value of the run the diagnosis holds the failure against.
struct SetupValue {
    const char* field;  // LogSetup::fields' name: "model", "gpus", ...
    const char* label;  // "model", "GPUs", ... (marked for translation in the "Core" context)
    std::string value;  // "Baichuan2-13B (13.90B parameters)"
};
// model, GPUs, GPU, ZeRO, micro batch, sequence, recompute, precision, optimizer; and fine-tuning
// when the run trains adapters (LoRA or QLoRA).
std::vector<SetupValue> setup_values(const Scenario& s);

// Where a value of the run came from when no option names it: the log stated it; else assumed
// when it is the default scenario's value; else given (the window's controls, a config file).
enum class ValueSource { Log, Given, Assumed };
ValueSource setup_value_source(const LogSetup& setup, const SetupValue& v);

// "capacity", "device_placement", "fragmentation", "evaluation" (the JSON's names).
const char* oom_cause_key(OomCause c);
// What the cause means, one line (marked for translation in the "Core" context).
const char* oom_cause_words(OomCause c);
// The moment as the JSON names it: a step phase's name, "model_load", "checkpoint_save",
// "evaluation", "host_" and a host moment's name ("host_initialize") or "unknown".
std::string oom_moment_key(const OomDiagnosis& d);
// Where it failed, in words: the step's moment (oom_moment_words), or for a rank killed for host
// memory the host moment (host_phase_words: "in deepspeed.initialize").
std::string oom_where_words(const OomDiagnosis& d);
// (planner - log) / log for the failing moment's bytes, when both are known.
std::optional<double> planner_gap(const OomDiagnosis& d);

}  // namespace zp
