#pragma once
// The ds_config.json DeepSpeed accepts as is for a planned setup (docs/design.md §7.5):
// only keys DeepSpeed's pydantic models accept, integers as JSON integers, the batch rule
// train_batch_size = micro x gas x world size, stage-3 keys only at stage 3, offload_param only
// at stage 3, nvme_path whenever a device is nvme. Keys come in DeepSpeed's documentation order.
#include "core/model/scenario.h"

#include <nlohmann/json_fwd.hpp>

#include <string>

namespace zp {

struct ExportOptions {
    std::string nvme_path = "/local_nvme";
    double learning_rate = 3e-4;  // Llama-2 paper (Touvron et al. 2023) Sec. 2.2 for 7B/13B
    double weight_decay = 0.1;    // ibid.
    double beta1 = 0.9, beta2 = 0.95, eps = 1e-8;
    double gradient_clipping = 1.0;
    int steps_per_print = 100;
};

// The DeepSpeed optimizer type name ("AdamW", "Lion", ...).
const char* deepspeed_optimizer_type(Optimizer o);
// The second beta the exports give the optimizer: Lion's paper default 0.99 (Chen et al. 2023),
// the options' for Adam and LAMB. One value for the ds_config and the Trainer's adam_beta2, which
// transformers copies into an "auto" betas (integrations/deepspeed.py trainer_config_process).
double optimizer_beta2(Optimizer o, const ExportOptions& options);

// Throws InputError when the batch rule cannot be satisfied for the scenario's world size.
nlohmann::ordered_json deepspeed_config(const Scenario& s, const ExportOptions& options = {});
std::string deepspeed_config_text(const Scenario& s, const ExportOptions& options = {});  // 2-space indent, newline-terminated

}  // namespace zp
