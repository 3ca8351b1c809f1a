// `zero-planner diagnose LOG [--ds-config FILE] [--hf-config FILE] [scenario options] [--json]`:
// a training log that ran out of GPU memory, read (core/io/oom_log.h); the run it describes
// (core/diagnose/log_setup.h) with --ds-config, --hf-config and the options over it, each value
// listed with where it came from; what the failure was, the step's term the request is, the
// planner's bytes at that moment beside the log's, and the changes that fit the same GPUs
// (core/diagnose/oom_diagnosis.h).
#include "app/cli/commands/commands.h"

#include "app/cli/options.h"
#include "app/cli/scenario_options.h"
#include "core/base/errors.h"
#include "core/base/file_io.h"
#include "core/base/format.h"
#include "core/base/units.h"
#include "core/deepspeed/config_import.h"
#include "core/diagnose/log_diagnosis.h"
#include "core/diagnose/log_setup.h"
#include "core/diagnose/oom_diagnosis.h"
#include "core/io/oom_log.h"
#include "core/memory/memory_model.h"
#include "core/model/enum_names.h"
#include "core/model/model_spec.h"
#include "core/search/zero_setups.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <ostream>

namespace zp::cli {
namespace {

// Two decimals as PyTorch prints sizes (format_size in CUDACachingAllocator.cpp): MiB below 1 GiB.
std::string gib(double bytes) {
    if (bytes == 0) return "0 bytes";
    if (bytes < kBytesPerGiB) return format_fixed(bytes / (kBytesPerGiB / 1024.0), 2) + " MiB";
    return format_fixed(bytes / kBytesPerGiB, 2) + " GiB";
}
std::string size_or_dash(const std::optional<double>& bytes) { return bytes ? gib(*bytes) : std::string("-"); }

nlohmann::json event_json(const OomEvent& e) {
    // Outside the allocator the message gives no request: null, not 0.
    const std::optional<double> requested = e.requested_bytes();
    nlohmann::json j{{"source", oom_source_key(e.source)}, {"tried_bytes", requested ? nlohmann::json(*requested) : nlohmann::json()}};
    if (e.figures_cut) j["figures_cut"] = true;
    if (e.source == OomSource::CachingAllocator) j["form"] = e.new_form ? "torch>=2.1" : "torch<=2.0";
    if (!e.message.empty()) j["message"] = e.message;
    if (!e.site.empty()) j["site"] = e.site;
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
    put("allowed_bytes", e.allowed_bytes);
    if (e.listed_processes > 0) j["other_processes"] = e.listed_processes;
    return j;
}

// The scenario options given on the command line, if any.
bool scenario_given(const Args& a) {
    for (const Option* o : all_options())
        if (o->in_scenario() && a.has(*o)) return true;
    return false;
}

// One value of the reconstructed run and where it came from: log, ds-config, hf-config, option, assumed.
struct SetupRow {
    std::string field, value, source;
};

// `in_ds_config`: the file set the value itself (ds_config_sets: not absent, not "auto").
std::string source_of(const Args& a, const LogSetup& log, const char* field, const std::vector<const Option*>& options, bool in_ds_config,
                      bool in_hf_config) {
    for (const Option* o : options)
        if (a.has(*o)) return "option " + std::string(o->name);
    if (in_hf_config && a.has(opt::hf_config)) return "hf-config";
    if (in_ds_config && a.has(opt::ds_config)) return "ds-config";
    if (log.fields.count(field)) return "log";
    return "assumed";
}

std::vector<SetupRow> setup_rows(const Args& a, const LogSetup& log, const Scenario& s) {
    // What --ds-config sets itself: a value it leaves absent or "auto" is the Trainer's (a review:
    // an "auto" micro batch and a file without an optimizer block were labelled [ds-config]).
    DsConfigSets sets;
    if (auto file = a.get(opt::ds_config)) sets = ds_config_sets(parse_ds_config_text(read_text_file(*file), *file));
    // The options, and whether --ds-config / --hf-config set each value, in setup_values' order.
    struct Given {
        std::vector<const Option*> options;
        bool ds, hf;
    };
    const std::vector<Given> given{
        {{&opt::model, &opt::params, &opt::layers, &opt::hidden}, false, true},  // a preset, a size or a custom architecture
        {{&opt::gpus, &opt::nodes, &opt::gpus_per_node}, false, false},
        {{&opt::gpu, &opt::cluster, &opt::gpu_mem}, false, false},
        {{&opt::stage, &opt::offload_optimizer, &opt::offload_param}, sets.zero, false},
        {{&opt::micro_batch}, sets.micro_batch, false},
        {{&opt::seq}, false, false},
        {{&opt::checkpointing}, false, false},
        {{&opt::precision}, sets.precision, false},
        {{&opt::optimizer, &opt::fused_optimizer}, sets.optimizer, false},
        {{&opt::finetune, &opt::lora_rank, &opt::lora_targets}, false, false},
    };
    const std::vector<SetupValue> values = setup_values(s);
    std::vector<SetupRow> rows;
    for (std::size_t i = 0; i < values.size() && i < given.size(); ++i)
        rows.push_back({values[i].label, values[i].value, source_of(a, log, values[i].field, given[i].options, given[i].ds, given[i].hf)});
    return rows;
}

// "the planner: 90.60 GiB (0.0% above the log's)".
std::string apart(double planned, double measured) {
    const double pct = measured > 0 ? 100.0 * (planned - measured) / measured : 0;
    return format_fixed(std::abs(pct), 1) + "% " + (pct >= 0 ? "above" : "below") + " the log's";
}

nlohmann::json diagnosis_json(const std::string& path, const OomLog& log, const OomDiagnosis& d, const std::vector<SetupRow>& rows,
                              const LogSetup& from_log, const std::string& not_runnable) {
    nlohmann::json j{{"log", path},
                     {"frames", log.frames},
                     {"cause", oom_cause_key(d.cause)},
                     {"evidence", d.evidence},
                     {"advice", d.advice},
                     {"moment", oom_moment_key(d)},
                     {"where", oom_where_words(d)},
                     // As the text: what frees memory is said for a shortage of it, not for a
                     // device-placement failure or a card with room (a review: O07's JSON listed them).
                     {"remedies", d.cause == OomCause::Capacity ? d.remedies : std::vector<std::string>{}}};
    j["events"] = nlohmann::json::array();
    for (const OomEvent& e : log.events) j["events"].push_back(event_json(e));
    if (!d.moment_from.empty()) j["moment_from"] = d.moment_from;
    if (!log.failing_line.empty()) j["failing_line"] = log.failing_line;
    j["setup"] = nlohmann::json::array();
    for (const SetupRow& r : rows) j["setup"].push_back({{"field", r.field}, {"value", r.value}, {"source", r.source}});
    if (!not_runnable.empty()) j["setup_not_runnable"] = not_runnable;
    if (const auto& u = log.memory_usage)
        j["memory_usage"] = {{"message", u->message},
                             {"allocated_bytes", u->allocated_bytes},
                             {"max_allocated_bytes", u->max_allocated_bytes},
                             {"reserved_bytes", u->reserved_bytes},
                             {"max_reserved_bytes", u->max_reserved_bytes}};
    if (const auto& u = log.memory_usage; u && u->host_used_bytes) j["memory_usage"]["host_used_bytes"] = *u->host_used_bytes;
    if (const auto& u = log.memory_usage; u && u->host_used_percent) j["memory_usage"]["host_used_percent"] = *u->host_used_percent;
    if (from_log.peft_trainable && from_log.peft_all)
        j["peft"] = {{"trainable", *from_log.peft_trainable}, {"all", *from_log.peft_all}, {"notes", from_log.peft_notes}};
    if (d.term) {
        j["term"] = {{"name", d.term->name}, {"formula", d.term->formula}, {"bytes", d.term->bytes}};
        if (d.term_error) j["term"]["relative_error"] = *d.term_error;
    }
    if (d.planned_host_bytes) j["planner_host_bytes_per_node"] = *d.planned_host_bytes;
    if (d.host_ram_bytes) j["host_ram_bytes_per_node"] = *d.host_ram_bytes;
    if (d.planned_bytes) j["planner_moment_bytes"] = *d.planned_bytes;
    if (d.below_log_bytes) j["planner_below_log_bytes"] = *d.below_log_bytes;
    if (d.far_below_log) j["planner_far_below_log"] = true;
    if (d.earlier_peak_bytes) j["planner_earlier_peak"] = {{"bytes", *d.earlier_peak_bytes}, {"phase", to_string(d.earlier_peak_phase)}};
    if (d.measured_bytes) j["log_moment_bytes"] = *d.measured_bytes;
    j["fixes"] = nlohmann::json::array();
    for (const OomFix& f : d.fixes)
        j["fixes"].push_back({{"change", f.change},
                              {"peak_bytes", f.peak_bytes},
                              {"usable_bytes", f.usable_bytes},
                              {"fits", f.fits},
                              {"spare_under_shortfall", f.spare_under_shortfall}});
    return j;
}

// DeepSpeed's last see_memory_usage before the failure: measured, beside the message's figures.
void print_memory_usage(std::ostream& out, const DsMemoryUsage& u) {
    out << "Before it, DeepSpeed's see_memory_usage";
    if (!u.message.empty()) out << " (\"" << u.message << "\")";
    out << ": " << gib(u.allocated_bytes) << " allocated (peak " << gib(u.max_allocated_bytes) << "), " << gib(u.reserved_bytes)
        << " reserved (peak " << gib(u.max_reserved_bytes) << ")\n";
}

void print_text(std::ostream& out, const std::string& path, const OomLog& log, const OomDiagnosis& d, const std::vector<SetupRow>& rows,
                const LogSetup& from_log, const std::string& not_runnable) {
    const OomEvent& first = log.events.front();
    std::vector<int> ranks;
    for (const OomEvent& e : log.events)
        if (e.rank && std::find(ranks.begin(), ranks.end(), *e.rank) == ranks.end()) ranks.push_back(*e.rank);
    out << "Out of memory in " << path << ": " << log.events.size() << " message" << (log.events.size() == 1 ? "" : "s");
    for (std::size_t i = 0; i < ranks.size(); ++i) out << (i ? ", " : (ranks.size() == 1 ? " from rank " : " from ranks ")) << ranks[i];
    if (first.figures_cut) out << "\n  PyTorch's message, cut before its figures (no sizes to read)\n";
    else if (first.source == OomSource::CachingAllocator)
        out << "\n  GPU " << (first.gpu_index ? std::to_string(*first.gpu_index) : std::string("?")) << ": tried to allocate "
            << gib(first.tried_bytes) << " with " << size_or_dash(first.allocated_bytes) << " allocated, "
            << size_or_dash(first.reserved_total_bytes()) << " reserved, " << size_or_dash(first.free_bytes) << " free of "
            << size_or_dash(first.total_bytes) << "\n";
    else if (first.source == OomSource::HostKill)
        out << "\n  " << oom_source_words(first.source) << ", and nothing failed on a GPU: " << first.message << "\n";
    else
        out << "\n  " << oom_source_words(first.source) << (first.gpu_index ? " on GPU " + std::to_string(*first.gpu_index) : "")
            << ", outside PyTorch's caching allocator (no sizes in the message): " << first.message
            << (first.site.empty() ? "" : " (through " + first.site + ")") << "\n";
    out << "What it is: " << oom_cause_words(d.cause) << "\n";
    for (const std::string& e : d.evidence) out << "  " << e << "\n";
    out << "Where: " << oom_where_words(d);
    if (!d.moment_from.empty()) out << " (" << d.moment_from << ")";
    out << "\n";
    if (d.planned_host_bytes && d.host_ram_bytes && d.host_phase) {
        out << "On the host: the planner has " << gib(*d.planned_host_bytes) << " per node "
            << (d.host_phase_named ? std::string("there") : std::string("at its peak, ") + host_phase_words(*d.host_phase))
            << ", of the node's " << gib(*d.host_ram_bytes) << (*d.planned_host_bytes > *d.host_ram_bytes ? ": more than it has" : "");
        if (const auto total = log.memory_usage ? log.memory_usage->host_total_bytes() : std::nullopt)
            out << "; the log's see_memory_usage puts the host at about " << gib(*total);
        out << "\n";
    }
    if (d.term && d.term_error) {
        out << "The request: " << gib(first.tried_bytes) << " = " << d.term->name << ": " << d.term->formula << " = " << gib(d.term->bytes)
            << " (" << format_fixed(100.0 * *d.term_error, 1) << "% from the request; matched within "
            << format_fixed(100.0 * kOomTermTolerance, 0) << "%)\n";
    } else if (d.term) {
        out << "The request: " << (first.figures_cut ? std::string("its size cut from the message,") : gib(first.tried_bytes) + " of")
            << " " << d.term->name << ", as the failing line says (" << log.failing_line << "); for this setup the planner has it at "
            << d.term->formula << " = " << gib(d.term->bytes) << "\n";
    }
    if (d.planned_bytes && d.measured_bytes)
        out << "At that moment: the log " << gib(*first.allocated_bytes) << " allocated + " << gib(first.tried_bytes)
            << " requested = " << gib(*d.measured_bytes) << "; the planner " << gib(*d.planned_bytes) << " ("
            << apart(*d.planned_bytes, *d.measured_bytes) << ")\n";
    else if (d.planned_bytes) out << "At that moment the planner has " << gib(*d.planned_bytes) << " allocated\n";
    if (d.far_below_log && d.offload_not_in_effect)
        out << "  The planner is far below the log there: it describes the run with the optimizer offloaded, which this one was not "
               "(below), and its fixes are for the offloaded run\n";
    else if (d.far_below_log)
        out << "  The planner is far below the log there: it describes another run than this one (a value below marked [assumed], or "
               "the model), and its fixes are for the run it describes\n";
    if (d.earlier_peak_bytes)
        out << "  The planner's step needs " << gib(*d.earlier_peak_bytes) << " at "
            << oom_moment_words(OomMoment::InStep, d.earlier_peak_phase)
            << ", before that moment and more than the card: the run got past it, so a value below is not the run's (those marked "
               "[assumed] first: give --seq, --checkpointing, --micro-batch as it had them)\n";
    if (log.memory_usage) print_memory_usage(out, *log.memory_usage);
    out << "The run (value, then where it came from):\n";
    for (const SetupRow& r : rows) out << "  " << r.field << ": " << r.value << " [" << r.source << "]\n";
    for (const std::string& n : from_log.peft_notes) out << "  PEFT's trainable params line: " << n << "\n";
    if (!not_runnable.empty()) out << "  the planner cannot run this setup: " << not_runnable << "\n";
    if (!d.advice.empty()) {
        out << "What to change instead:\n";
        for (const std::string& a : d.advice) out << "  - " << a << "\n";
    }
    if (!d.fixes.empty()) {
        out << "What the planner finds (peak of usable; on the same GPUs unless a line says more):\n";
        for (const OomFix& f : d.fixes)
            out << "  - " << f.change << ": " << gib(f.peak_bytes) << " of " << gib(f.usable_bytes) << ", "
                << (f.fits ? "fits" : "does not fit")
                << (f.spare_under_shortfall ? " by " + gib(f.usable_bytes - f.peak_bytes) + ", less than the " + gib(*d.below_log_bytes) +
                                                  " the planner is below the log at that moment"
                                            : "")
                << (f.step_seconds > 0 ? ", " + format_seconds(f.step_seconds) + " a step" : "") << "\n";
    }
    if (d.cause == OomCause::Capacity) {
        out << "What frees memory there, cheapest first:\n";
        for (const std::string& r : d.remedies) out << "  - " << r << "\n";
    }
}

}  // namespace

int cmd_diagnose(const Args& a, std::ostream& out, std::ostream&) {
    if (a.positionals.size() != 1)
        throw InputError(
            "diagnose takes one LOG: zero-planner diagnose LOG [--ds-config FILE] [--hf-config FILE] [scenario options] [--json]");
    const std::string path = a.positionals.front();
    const std::string text = read_text_file(path);
    const OomLog log = read_training_log(text, path);

    // The run the log states, with --ds-config, --hf-config and the options over it.
    const LogSetup from_log = setup_from_log(text, log, path);
    Scenario s = from_log.scenario;
    std::string not_runnable;
    try {
        s = scenario_from_args_over(a, from_log.scenario);
    } catch (const InputError& e) {
        if (scenario_given(a)) throw;  // the options' own error
        not_runnable = e.what();       // what the log states is not a run the planner takes: diagnose without it
    }
    std::vector<SetupRow> rows = setup_rows(a, from_log, s);
    // A model neither the log nor the options name is the default scenario's: the planner's bytes,
    // the request's match and its fixes would describe another model (a T4's generation run read
    // as Llama-2 7B on 8 GPUs). Without one they are left out, and the text says what to give.
    const bool model_assumed =
        std::any_of(rows.begin(), rows.end(), [](const SetupRow& r) { return r.field == "model" && r.source == "assumed"; });
    const std::string no_model = model_assumed ? "the log names no model and no --model or --hf-config was given" : "";
    // The ZeRO setup as the log or the options state it, not the default scenario's.
    const bool zero_known =
        std::any_of(rows.begin(), rows.end(), [](const SetupRow& r) { return r.field == "ZeRO" && r.source != "assumed"; });
    const OomDiagnosis d = diagnose_log(log, s, not_runnable.empty() ? no_model : not_runnable, zero_known);
    // A rank killed for host memory is held against the node's RAM: where that figure came from.
    if (d.host_kill && d.host_ram_bytes)
        rows.push_back({"host RAM per node", gib(*d.host_ram_bytes),
                        a.has(opt::cpu_ram)   ? "option --cpu-ram"
                        : a.has(opt::cluster) ? "option --cluster"
                                              : "assumed"});
    if (a.flag(opt::json)) {
        nlohmann::json j = diagnosis_json(path, log, d, rows, from_log, not_runnable);
        if (model_assumed) j["planner_needs_model"] = no_model + ": give --model NAME or --hf-config FILE for the planner's bytes";
        out << j.dump(2) << "\n";
        return kExitOk;
    }
    print_text(out, path, log, d, rows, from_log, not_runnable);
    if (model_assumed)
        out << "The planner's bytes at that moment and its fixes need the model: " << no_model
            << "; give --model NAME or --hf-config FILE (with --gpus, --stage, --micro-batch, --seq as the run had them)\n";
    return kExitOk;
}

}  // namespace zp::cli
