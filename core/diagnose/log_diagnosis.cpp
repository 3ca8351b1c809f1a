#include "core/diagnose/log_diagnosis.h"

#include "core/base/errors.h"
#include "core/base/format.h"
#include "core/base/phrase.h"
#include "core/model/enum_names.h"
#include "core/model/mics.h"
#include "core/model/model_spec.h"
#include "core/presets/default_scenario.h"
#include "core/search/zero_setups.h"

namespace zp {

OomLog read_training_log(std::string_view text, const std::string& source_name) {
    if (text.empty()) throw InputError(source_name + ": the file is empty, not a training log");
    if (text.find('\0') != std::string_view::npos)
        throw InputError(source_name + ": a binary file (it holds NUL bytes), not a training log");
    return read_oom_log(text, source_name);
}

OomDiagnosis diagnose_log(const OomLog& log, const Scenario& s, const std::string& not_runnable, bool zero_known) {
    if (not_runnable.empty()) return diagnose_oom(log, s, zero_known);
    OomDiagnosis d;
    d.cause = oom_cause(log, &d.evidence, &d.advice);
    d.moment = log.moment;
    d.phase = log.phase;
    if (!log.deciding_frame.empty()) d.moment_from = "frame " + log.deciding_frame;
    // The planner cannot run the setup (no model), but a ZeRO setup the log or the options gave
    // still rules remedies out: no sub_group_size below stage 3, no offload already on.
    if (log.events.front().source == OomSource::HostKill) {
        diagnose_host_kill(log, nullptr, d);
        return d;
    }
    d.remedies = oom_remedies(s, d.moment, d.phase, zero_known, remedy_context(log));
    // Without the planner's bytes the frames show it: torch.optim's Adam allocating on the GPU, where
    // an offloaded optimizer's states are host tensors.
    if (const std::string frame = torch_optimizer_frame(log); !frame.empty())
        say_offload_not_in_effect(log, s, zero_known,
                                  "ran out of GPU memory in torch.optim's step on the GPU (the traceback's " + frame + ")", d);
    return d;
}

TrainingLogDiagnosis diagnose_training_log(std::string_view text, const std::string& source_name, const Scenario& base) {
    TrainingLogDiagnosis out;
    out.log = read_training_log(text, source_name);
    out.setup = setup_from_log(text, out.log, source_name, base);
    try {
        validate(out.setup.scenario);
    } catch (const InputError& e) {
        out.not_runnable = e.what();
    }
    // The ZeRO setup is known where the log states it or it differs from the default scenario's.
    bool zero_known = false;
    for (const SetupValue& v : setup_values(out.setup.scenario))
        if (std::string_view(v.field) == "zero") zero_known = setup_value_source(out.setup, v) != ValueSource::Assumed;
    out.diagnosis = diagnose_log(out.log, out.setup.scenario, out.not_runnable, zero_known);
    return out;
}

std::vector<SetupValue> setup_values(const Scenario& s) {
    const Training& t = s.training;
    std::vector<SetupValue> out{
        {"model", QT_TRANSLATE_NOOP("Core", "model"),
         s.model.name + " (" + format_fixed(static_cast<double>(parameter_count(s.model)) / 1e9, 2) + "B parameters)"},
        {"gpus", QT_TRANSLATE_NOOP("Core", "GPUs"), std::to_string(s.cluster.world_size())},
        {"gpu", QT_TRANSLATE_NOOP("Core", "GPU"), s.cluster.gpu.display_name + ", " + format_fixed(s.cluster.gpu.memory_gib, 2) + " GiB"},
        {"zero", QT_TRANSLATE_NOOP("Core", "ZeRO"), setup_label(setup_key(s.zero), s.fsdp.engine, fsdp_hybrid_sharding(s))},
        {"micro_batch", QT_TRANSLATE_NOOP("Core", "micro batch"), std::to_string(t.micro_batch)},
        {"sequence", QT_TRANSLATE_NOOP("Core", "sequence"), std::to_string(t.seq_len)},
        {"recompute", QT_TRANSLATE_NOOP("Core", "recompute"), to_string(t.checkpointing)},
        {"precision", QT_TRANSLATE_NOOP("Core", "precision"), to_string(t.precision)},
        {"optimizer", QT_TRANSLATE_NOOP("Core", "optimizer"),
         std::string(to_string(t.optimizer)) + (!t.fused_optimizer ? " (torch.optim's)"
                                                : is_fsdp(s.fsdp)  ? " (torch.optim's fused kernel, fused=True)"
                                                                   : " (DeepSpeed's fused kernel)")},
    };
    // Only when adapters train (PEFT's line in the log, or the window's or options' setting).
    if (s.finetune.adapters())
        out.push_back({"finetune", QT_TRANSLATE_NOOP("Core", "fine-tuning"),
                       std::string(s.finetune.method == FineTuneMethod::Qlora ? "QLoRA" : "LoRA") + " rank " +
                           std::to_string(s.finetune.lora_rank) + ", " + to_string(s.finetune.targets)});
    return out;
}

ValueSource setup_value_source(const LogSetup& setup, const SetupValue& v) {
    if (setup.fields.count(v.field)) return ValueSource::Log;
    for (const SetupValue& d : setup_values(default_scenario()))
        if (std::string_view(d.field) == v.field) return d.value == v.value ? ValueSource::Assumed : ValueSource::Given;
    return ValueSource::Assumed;
}

const char* oom_cause_key(OomCause c) {
    switch (c) {
    case OomCause::Capacity: return "capacity";
    case OomCause::DevicePlacement: return "device_placement";
    case OomCause::Fragmentation: return "fragmentation";
    case OomCause::Evaluation: return "evaluation";
    case OomCause::HostMemory: return "host_memory";
    case OomCause::OutsideAllocator: return "outside_allocator";
    case OomCause::CardHadRoom: return "card_had_room";
    case OomCause::TensorShape: return "tensor_shape";
    }
    return "?";
}

const char* oom_cause_words(OomCause c) {
    switch (c) {
    case OomCause::Capacity: return QT_TRANSLATE_NOOP("Core", "capacity: the run needs more memory at that moment than the GPU has");
    case OomCause::DevicePlacement: return QT_TRANSLATE_NOOP("Core", "device placement, not capacity");
    case OomCause::Fragmentation: return QT_TRANSLATE_NOOP("Core", "fragmentation, not capacity");
    case OomCause::Evaluation: return QT_TRANSLATE_NOOP("Core", "generation or evaluation only, not the training step");
    case OomCause::HostMemory: return QT_TRANSLATE_NOOP("Core", "host memory ran out, not the GPU's");
    case OomCause::OutsideAllocator:
        return QT_TRANSLATE_NOOP("Core",
                                 "outside PyTorch's allocator: a CUDA call, NCCL or cuBLAS found no room beside PyTorch's cache (a "
                                 "full card, or another process on it)");
    case OomCause::CardHadRoom:
        return QT_TRANSLATE_NOOP("Core", "not capacity: the card had room for the request, and the driver or runtime refused it");
    case OomCause::TensorShape: return QT_TRANSLATE_NOOP("Core", "not capacity: a tensor's size is wrong, far beyond any GPU");
    }
    return "?";
}

std::string oom_moment_key(const OomDiagnosis& d) {
    if (d.host_kill) return d.host_phase_named ? std::string("host_") + to_string(*d.host_phase) : "unknown";
    switch (d.moment) {
    case OomMoment::InStep: return to_string(d.phase);
    case OomMoment::ModelLoad: return "model_load";
    case OomMoment::CheckpointSave: return "checkpoint_save";
    case OomMoment::Evaluation: return "evaluation";
    case OomMoment::Unknown: break;
    }
    return "unknown";
}

std::string oom_where_words(const OomDiagnosis& d) {
    if (d.host_kill) return d.host_phase_named ? host_phase_words(*d.host_phase) : QT_TRANSLATE_NOOP("Core", "not named by the log");
    return oom_moment_words(d.moment, d.phase);
}

std::optional<double> planner_gap(const OomDiagnosis& d) {
    if (!d.planned_bytes || !d.measured_bytes || *d.measured_bytes <= 0) return std::nullopt;
    return (*d.planned_bytes - *d.measured_bytes) / *d.measured_bytes;
}

}  // namespace zp
