// `zero-planner diagnose LOG [scenario options]`: a training log that ran out of GPU memory,
// read (core/io/oom_log.h), the moment of the step it failed in, what usually frees memory there,
// and, for a setup given by options, the planner's own bytes at that moment.
#include "app/cli/commands/commands.h"

#include "app/cli/options.h"
#include "app/cli/scenario_options.h"
#include "core/base/errors.h"
#include "core/base/file_io.h"
#include "core/base/format.h"
#include "core/diagnose/log_setup.h"
#include "core/io/oom_log.h"
#include "core/memory/memory_model.h"
#include "core/memory/step_timeline.h"
#include "core/model/enum_names.h"
#include "core/search/recommender.h"
#include "core/search/zero_setups.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <ostream>

namespace zp::cli {
namespace {

std::string size_or_dash(const std::optional<double>& bytes) { return bytes ? format_bytes(*bytes) : std::string("-"); }

nlohmann::json event_json(const OomEvent& e) {
    nlohmann::json j{{"tried_bytes", e.tried_bytes}, {"form", e.new_form ? "torch>=2.1" : "torch<=2.0"}};
    if (e.rank) j["rank"] = *e.rank;
    if (e.gpu_index) j["gpu"] = *e.gpu_index;
    const auto put = [&](const char* key, const std::optional<double>& v) {
        if (v) j[key] = *v;
    };
    put("total_bytes", e.total_bytes);
    put("free_bytes", e.free_bytes);
    put("allocated_bytes", e.allocated_bytes);
    put("reserved_bytes", e.reserved_total_bytes());
    put("process_bytes", e.process_bytes);
    return j;
}

// The scenario options given on the command line, if any (then the planner's bytes are shown).
bool scenario_given(const Args& a) {
    for (const Option* o : all_options())
        if (o->in_scenario() && a.has(*o)) return true;
    return false;
}

}  // namespace

int cmd_diagnose(const Args& a, std::ostream& out, std::ostream&) {
    if (a.positionals.size() != 1) throw InputError("diagnose takes one LOG: zero-planner diagnose LOG [scenario options] [--json]");
    const std::string path = a.positionals.front();
    const std::string text = read_text_file(path);
    const OomLog log = read_oom_log(text, path);
    const OomEvent& first = log.events.front();
    const std::string where = oom_moment_words(log.moment, log.phase);
    const std::vector<std::string> remedies = oom_remedies(log.moment, log.phase);

    // The planner's own bytes at that moment, for the setup the options describe, else for the one
    // the log states (DeepSpeed's config dump, the model config, the Trainer's arguments).
    std::optional<double> planned_phase_bytes, planned_required_bytes, usable_bytes;
    std::optional<StepPhase> planned_peak_phase;
    std::optional<Plan> plan;  // the planner's fastest setup that fits the same GPUs and batch
    const bool options = scenario_given(a);
    const LogSetup from_log = setup_from_log(text, log, path);
    if ((options || from_log.states_anything) && log.moment == OomMoment::InStep) {
        const Scenario s = options ? scenario_from_args(a) : from_log.scenario;
        double most = 0;
        for (const StepMoment& m : step_timeline(s, TimelineDetail::PeakCandidates))
            if (m.phase == log.phase) most = std::max(most, m.allocated_bytes());
        planned_phase_bytes = most;
        const MemoryBreakdown mb = estimate_memory(s);
        planned_required_bytes = mb.peak_required_bytes;
        planned_peak_phase = mb.required_phase;
        usable_bytes = usable_gpu_bytes(s);
        plan = recommend(s);
    }
    // The cheapest change the planner finds: its fastest plan that fits, against the run's setup.
    std::string fix;
    if (plan && plan->feasible) {
        const Candidate& b = plan->best;
        fix = setup_label(b.zero) + ", micro batch " + std::to_string(b.micro_batch) + " x " +
              std::to_string(b.gradient_accumulation_steps) + " accumulation steps, recompute " + to_string(b.checkpointing) + ": " +
              format_bytes(b.memory.peak_required_bytes) + " at its peak, " + format_seconds(b.step.seconds) + " a step";
    } else if (plan) {
        for (const std::string& suggestion : plan->suggestions) fix += (fix.empty() ? "" : "; ") + suggestion;
        fix = "nothing fits these GPUs" + (fix.empty() ? std::string() : ": " + fix);
    }

    if (a.flag(opt::json)) {
        nlohmann::json j{{"log", path}, {"frames", log.frames}, {"remedies", remedies}, {"where", where}};
        j["events"] = nlohmann::json::array();
        for (const OomEvent& e : log.events) j["events"].push_back(event_json(e));
        j["moment"] = log.moment == OomMoment::InStep           ? std::string(to_string(log.phase))
                      : log.moment == OomMoment::ModelLoad      ? std::string("model_load")
                      : log.moment == OomMoment::CheckpointSave ? std::string("checkpoint_save")
                                                                : std::string("unknown");
        if (!log.deciding_frame.empty()) j["deciding_frame"] = log.deciding_frame;
        if (!options) j["setup"] = {{"read", from_log.read}, {"assumed", from_log.assumed}};
        if (!fix.empty()) j["planner_fix"] = fix;
        if (planned_phase_bytes)
            j["planner"] = {{"phase_allocated_bytes", *planned_phase_bytes},
                            {"required_peak_bytes", *planned_required_bytes},
                            {"required_peak_phase", to_string(*planned_peak_phase)},
                            {"usable_bytes", *usable_bytes}};
        out << j.dump(2) << "\n";
        return kExitOk;
    }
    std::vector<int> ranks;
    for (const OomEvent& e : log.events)
        if (e.rank && std::find(ranks.begin(), ranks.end(), *e.rank) == ranks.end()) ranks.push_back(*e.rank);
    out << "Out of memory in " << path << ": " << log.events.size() << " message" << (log.events.size() == 1 ? "" : "s");
    if (!ranks.empty()) {
        out << " from rank" << (ranks.size() == 1 ? " " : "s ");
        for (std::size_t i = 0; i < ranks.size(); ++i) out << (i ? ", " : "") << ranks[i];
    }
    out << "\n  GPU " << (first.gpu_index ? std::to_string(*first.gpu_index) : std::string("?")) << ": tried to allocate "
        << format_bytes(first.tried_bytes) << " with " << size_or_dash(first.allocated_bytes) << " allocated, "
        << size_or_dash(first.reserved_total_bytes()) << " reserved, " << size_or_dash(first.free_bytes) << " free of "
        << size_or_dash(first.total_bytes) << "\n";
    out << "Where: " << where;
    if (!log.deciding_frame.empty()) out << " (frame " << log.deciding_frame << ")";
    out << "\n";
    if (!options && from_log.states_anything) {
        out << "The setup, from the log:\n";
        for (const std::string& r : from_log.read) out << "  read " << r << "\n";
        for (const std::string& r : from_log.assumed) out << "  assumed " << r << "\n";
    }
    if (planned_phase_bytes) {
        out << "The planner, for the setup " << (options ? "given" : "the log states") << ": " << format_bytes(*planned_phase_bytes)
            << " allocated at most in that phase; the step needs " << format_bytes(*planned_required_bytes) << " at its peak ("
            << to_string(*planned_peak_phase) << ") of " << format_bytes(*usable_bytes) << " usable\n";
    }
    if (!fix.empty()) out << "The planner's fastest plan that fits (the same GPUs, model, sequence and batch): " << fix << "\n";
    out << "What frees memory there, cheapest first:\n";
    for (const std::string& r : remedies) out << "  - " << r << "\n";
    return kExitOk;
}

}  // namespace zp::cli
