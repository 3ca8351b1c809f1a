// `zero-planner export`: the recommended setup, or the one given, in one of the export formats.
#include "app/cli/commands/commands.h"

#include "app/cli/options.h"
#include "app/cli/scenario_options.h"
#include "core/base/errors.h"
#include "core/base/file_io.h"
#include "core/base/format.h"
#include "core/deepspeed/config_export.h"
#include "core/deepspeed/export_formats.h"
#include "core/model/enum_names.h"
#include "core/model/mics.h"
#include "core/search/recommender.h"
#include "core/search/scenario_edits.h"

#include <optional>
#include <ostream>
#include <utility>

namespace zp::cli {
namespace {

bool setup_given(const Args& a) { return a.has(opt::stage) || a.has(opt::offload_optimizer) || a.has(opt::offload_param); }

// The Hugging Face formats run under the Trainer or Accelerate with DeepSpeed: data parallel
// only (Megatron's tensor and pipeline parallelism need Megatron-DeepSpeed's model code).
bool data_parallel_only_format(std::string_view id) { return id == "hf-trainer" || id == "hf-args" || id == "accelerate" || id == "peft"; }

// The recommended setup, or the one the user gave (exported even when it does not fit, with a
// warning saying by how much it misses).
Scenario export_scenario(const Args& a, std::string_view format_id, std::ostream& err) {
    SearchAsked asked;
    Scenario s = plan_scenario_from_args(a, nullptr, &asked);
    if (data_parallel_only_format(format_id)) {
        const std::pair<const Option*, std::optional<bool>> layout[] = {
            {&opt::tp, asked.tensor}, {&opt::pp, asked.pipeline}, {&opt::ep, asked.expert}};
        for (const auto& [option, is_auto] : layout)
            if (is_auto == true)
                throw InputError(std::string(format_id) + " runs data parallel under the Trainer or Accelerate: " + option_text(*option) +
                                 " auto needs Megatron-DeepSpeed (--format deepspeed, megatron or launch)");
        if (asked.zeropp == true)
            throw InputError(std::string(format_id) +
                             " exports the setup it is given and never searches: --zeropp auto needs --format deepspeed, megatron or "
                             "launch (or give --zeropp off, hpz or hpz+qwz+qgz)");
        s.parallel.auto_tensor = s.parallel.auto_pipeline = s.parallel.auto_expert = false;
        s.zero.auto_zeropp = false;
    }
    if (setup_given(a)) {
        if (asked.layout())
            throw InputError(
                "--tp, --pp, --ep and --sp auto let the recommender choose the layout; with --stage give the sizes (--tp N "
                "--pp N --ep N --sp N)");
        if (asked.zeropp == true)
            throw InputError("--zeropp auto lets the recommender choose ZeRO++; with --stage give --zeropp off, hpz or hpz+qwz+qgz");
        const Candidate c = evaluate(s);
        // A setup that cannot run where it is asked (LAMB with the optimizer offloaded, a setup the
        // release lacks): its file would fail in DeepSpeed, whatever the memory.
        if (const std::string why = setup_refusal_words(s, c); !why.empty())
            throw InputError(setup_label(setup_key(s.zero), s.fsdp.engine, fsdp_hybrid_sharding(s)) + " cannot run as asked: " + why);
        // The setup as given, at the micro batch and recompute the planner may still choose: the
        // fastest of it that fits, rather than a file that runs out of memory.
        if (!c.fit.gpu) {
            if (const std::optional<Candidate> fit = fastest_fit_of_setup(s)) {
                const auto recompute = [](Checkpointing policy) {
                    return policy == Checkpointing::None ? std::string("no") : to_string(policy);
                };
                err << "zero-planner: note: " << setup_label(setup_key(s.zero), s.fsdp.engine, fsdp_hybrid_sharding(s)) << " needs "
                    << format_bytes(c.memory.peak_required_bytes) << " per GPU at micro batch " << s.training.micro_batch << " with "
                    << recompute(s.training.checkpointing) << " recompute, " << format_bytes(usable_gpu_bytes(s))
                    << " usable; exported at micro batch " << fit->micro_batch << " with " << recompute(fit->checkpointing)
                    << " recompute, the fastest of it that fits (give --micro-batch and --checkpointing to fix them)\n";
                return with_candidate(s, *fit);  // its global batch: micro x accumulation x data-parallel ranks
            }
        }
        if (!c.fit.gpu)
            err << "zero-planner: warning: " << setup_label(setup_key(s.zero), s.fsdp.engine, fsdp_hybrid_sharding(s))
                << " does not fit: it needs " << format_bytes(c.memory.peak_required_bytes) << " per GPU at its peak ("
                << to_string(c.memory.required_phase) << "), " << format_bytes(usable_gpu_bytes(s)) << " usable (misses by "
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
    // A session holds a ZeRO setup whether or not one was chosen (the window saves its scenario's,
    // not the bar it shows selected): the recommended one is exported, and a different one in the
    // file is said, with how to export it instead.
    if (a.has(opt::session) && !same_setup(s.zero, p.best.zero)) {
        const auto label = [&](const ZeroSetup& z) { return setup_label(setup_key(z), s.fsdp.engine, fsdp_hybrid_sharding(s)); };
        std::string options = "--stage " + std::to_string(s.zero.stage);
        if (s.zero.offload_optimizer != OffloadDevice::None)
            options += std::string(" --offload-optimizer ") + to_string(s.zero.offload_optimizer);
        if (s.zero.offload_param != OffloadDevice::None) options += std::string(" --offload-param ") + to_string(s.zero.offload_param);
        // The recommended setup by its own engine and sharding (engine auto, FSDP's hybrid
        // sharding planned beside the session's), the session's by the session's.
        err << "zero-planner: note: exporting the recommended " << setup_label(setup_key(p.best.zero), p.best.engine, p.best.hybrid_shard)
            << ", not the session's " << label(s.zero) << ": give " << options << " to export the session's setup\n";
    }
    const Scenario planned = with_candidate(s, p.best);
    // A ds_config alone does not say the layout: one searched into tensor or pipeline ranks has
    // batch keys for the data-parallel ranks Megatron's mpu counts, which DeepSpeed's batch rule
    // under the Trainer or Accelerate (every GPU a data-parallel rank) refuses. Said, with the
    // options that export a data-parallel plan.
    const Parallelism& l = planned.parallel;
    if (const Phrase batch = megatron_batch_phrase(planned);
        format_id == "deepspeed" && !batch.text.empty() && (asked.tensor != false || asked.pipeline != false))
        err << "zero-planner: note: the layout search chose tensor " << l.tensor << " x pipeline " << l.pipeline << " x data "
            << data_parallel_size(planned) << " (Megatron-DeepSpeed): " << english(batch) << ": export with --tp 1 --pp 1"
            << (s.model.experts > 1 ? " --ep 1" : "") << ", or --format hf-trainer or accelerate\n";
    return planned;
}

}  // namespace

int cmd_export(const Args& a, std::ostream& out, std::ostream& err) {
    const std::string id = a.get(opt::format).value_or(std::string(export_formats().front().id));
    const ExportFormat* format = find_export_format(id);
    if (!format) throw InputError("--format must be one of " + export_format_ids() + "; got '" + id + "'");
    const auto file = a.get(opt::output);
    const Scenario s = export_scenario(a, format->id, err);
    const std::string text = format->render(s);
    // DeepSpeed creates the swap folder where nvme_path says (partitioned_param_swapper.py,
    // optimizer_utils.py: os.makedirs): the placeholder would swap onto whatever disk holds /.
    const bool nvme = s.zero.offload_optimizer == OffloadDevice::Nvme || s.zero.offload_param == OffloadDevice::Nvme;
    if (nvme && !is_fsdp(s.fsdp) && format->id != "peft" && format->id != "hf-args")
        err << "zero-planner: note: the ds_config's nvme_path is " << ExportOptions{}.nvme_path
            << ", a placeholder: set it to a local NVMe mount before the run (DeepSpeed creates the folder wherever it points)\n";
    const std::string extra = file && format->after_writing ? format->after_writing(s, *file) : std::string();
    if (file) {
        write_file_atomically(*file, text);
        out << extra;
    } else {
        out << text;
    }
    return kExitOk;
}

}  // namespace zp::cli
