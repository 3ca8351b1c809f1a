#pragma once
// The run a training log describes, read from what the libraries print at start-up, so that
// `zero-planner diagnose LOG` can hold the failure against the planner without options:
// - DeepSpeed's config dump (runtime/config.py DeepSpeedConfig.print_user_config: "json = {...}");
// - the Transformers model config (configuration_utils.py: "Model config LlamaConfig {...}");
// - the Trainer's arguments (TrainingArguments.__str__: "per_device_train_batch_size=4,",
//   "gradient_checkpointing=True,", "bf16=True,", "optim=adamw_torch,"; LLaMA-Factory's cutoff_len,
//   TRL's max_seq_length / max_length);
// - PEFT's print_trainable_parameters (peft_model.py: f"trainable params: {trainable_params:,d} ||
//   all params: {all_param:,d} || trainable%: {100 * trainable_params / all_param:.4f}"; before
//   0.5 without separators): a LoRA fine-tune, its rank and targets the ones whose trainable count
//   (core/model/trainable_params.h) is the printed one exactly;
// - the world size (DeepSpeed's "world_size=8", torchrun's WORLD_SIZE, launcher's num_local_procs);
// - the GPU's capacity from the out-of-memory message itself (core/io/oom_log.h).
// What the log does not state keeps the base scenario's value (the default scenario's for the
// command line, the window's for File > Diagnose a Training Log...) and is listed as assumed.
#include "core/io/oom_log.h"
#include "core/model/scenario.h"

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace zp {

struct LogSetup {
    Scenario scenario;                 // the base scenario with what the log states applied
    std::vector<std::string> read;     // "micro batch 4 (TrainingArguments per_device_train_batch_size)"
    std::vector<std::string> assumed;  // "sequence 4096 (the default; the log states none)"
    bool states_anything = false;      // at least one fact beside the GPU's capacity
    // The values the log stated, by name: "model", "gpus", "gpu", "zero", "micro_batch",
    // "sequence", "recompute", "precision", "optimizer" (`zero-planner diagnose` lists each value's
    // source: the log, --ds-config, --hf-config, an option, or assumed).
    std::set<std::string> fields;
    // PEFT's printed "trainable params" and "all params", when the log has the line.
    std::optional<std::int64_t> peft_trainable, peft_all;
    // What the line says about the run: the rank and targets that match it or that none does, and
    // "all params" against the model's count when they differ by more than 1%.
    std::vector<std::string> peft_notes;
};

// PEFT's line in `text` ("trainable params: 4,194,304 || all params: 6,742,609,920 || trainable%:
// 0.0622", separators or none): the two counts, or nullopt.
std::optional<std::pair<std::int64_t, std::int64_t>> read_peft_trainable_line(std::string_view text);

// The LoRA rank and targets (ranks 1, 2, 4, ..., 1024 and 12, 24, 48, 96; PEFT's default targets,
// every attention projection, all-linear) whose trainable count for `s`'s model is `trainable`
// exactly, in that order of targets, smallest rank first; `s` with method LoRA and that rank and targets, or nullopt.
std::optional<Scenario> lora_of_trainable_count(const Scenario& s, std::int64_t trainable);

// Throws InputError naming `source_name` for a config block that is there but is not JSON.
LogSetup setup_from_log(std::string_view text, const OomLog& oom, const std::string& source_name);
// The same over `base` instead of the default scenario.
LogSetup setup_from_log(std::string_view text, const OomLog& oom, const std::string& source_name, const Scenario& base);

}  // namespace zp
