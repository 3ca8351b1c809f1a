#include "core/deepspeed/export_formats.h"

#include "core/base/errors.h"
#include "core/deepspeed/config_export.h"
#include "core/deepspeed/framework_exports.h"
#include "core/deepspeed/fsdp_export.h"
#include "core/deepspeed/megatron_launch.h"
#include "core/deepspeed/peft_export.h"

#include <nlohmann/json.hpp>

#include <array>
#include <string>

namespace zp {
namespace {

constexpr std::string_view kDeepSpeedFile = "ds_config.json";
constexpr std::string_view kHfTrainerFile = "ds_config_hf.json";

// A PyTorch FSDP plan (core/model/engine.h) has no DeepSpeed config: its files are the
// Accelerate YAML and the Trainer's arguments (core/deepspeed/fsdp_export.h).
void refuse_for_fsdp(const Scenario& s, std::string_view what) {
    if (is_fsdp(s.fsdp))
        throw InputError("engine " + std::string(to_string(s.fsdp.engine)) + ": a PyTorch FSDP plan has no " + std::string(what) +
                         "; export --format accelerate (its fsdp_config) or hf-args (the Trainer's fsdp arguments), or peft");
}

std::string deepspeed_text(const Scenario& s) {
    refuse_for_fsdp(s, "ds_config.json");
    return deepspeed_config_text(s);
}
std::string hf_trainer_text(const Scenario& s) {
    refuse_for_fsdp(s, "ds_config.json");
    return hf_trainer_config_text(s);
}
std::string hf_trainer_arguments_for(const Scenario& s, const std::string& path) { return hf_training_arguments_text(s, {}, path); }
// TrainingArguments point at the Trainer's config, the one with "auto" fields; FSDP's carry fsdp_config.
std::string hf_args_text(const Scenario& s) {
    if (is_fsdp(s.fsdp)) return trainer_fsdp_arguments_text(s);
    return hf_training_arguments_text(s, {}, std::string(kHfTrainerFile));
}
std::string accelerate_text(const Scenario& s) { return is_fsdp(s.fsdp) ? accelerate_fsdp_config_yaml(s) : accelerate_config_yaml(s); }
std::string megatron_text(const Scenario& s) {
    refuse_for_fsdp(s, "Megatron-DeepSpeed launch");
    return megatron_launch_script(s, std::string(kDeepSpeedFile));
}
// The launch script runs DeepSpeed with the plain config; a plan with tensor or pipeline
// parallelism runs Megatron-DeepSpeed, whose mpu makes the ds_config's batch count the
// data-parallel ranks (runtime/config.py: mpu.get_data_parallel_world_size()), so its launch is
// Megatron's script: a plain train.py would see the whole world and fail the batch rule.
std::string launch_text(const Scenario& s) {
    refuse_for_fsdp(s, "DeepSpeed launch script");
    if (s.parallel.tensor > 1 || s.parallel.pipeline > 1) return megatron_text(s);
    return launch_script(s, std::string(kDeepSpeedFile));
}
std::string peft_text(const Scenario& s) { return peft_model_text(s); }

constexpr std::array<ExportFormat, 7> kFormats{{
    {"deepspeed", "DeepSpeed ds_config.json", kDeepSpeedFile, deepspeed_text, nullptr},
    {"hf-trainer", "HF Trainer ds_config.json (auto)", kHfTrainerFile, hf_trainer_text, hf_trainer_arguments_for},
    {"hf-args", "HF TrainingArguments", "training_args.py", hf_args_text, nullptr},
    {"accelerate", "Accelerate config YAML", "accelerate_config.yaml", accelerate_text, nullptr},
    {"launch", "Launch script", "launch.sh", launch_text, nullptr},
    {"peft", "Model and PEFT (LoRA/QLoRA)", "model_peft.py", peft_text, nullptr},
    {"megatron", "Megatron-DeepSpeed launch", "megatron_launch.sh", megatron_text, nullptr},
}};

}  // namespace

std::span<const ExportFormat> export_formats() { return kFormats; }

const ExportFormat* find_export_format(std::string_view id) {
    for (const ExportFormat& f : kFormats)
        if (f.id == id) return &f;
    return nullptr;
}

std::string export_format_ids(std::string_view separator) {
    std::string out;
    for (const ExportFormat& f : kFormats) {
        if (!out.empty()) out += separator;
        out += f.id;
    }
    return out;
}

}  // namespace zp
