#pragma once
// The ds_config.json DeepSpeed accepts as is for a planned setup (docs/design.md §7.5):
// only keys DeepSpeed's pydantic models accept, integers as JSON integers, the batch rule
// train_batch_size = micro x gas x world size, stage-3 keys only at stage 3, offload_param only
// at stage 3, nvme_path whenever a device is nvme. Keys come in DeepSpeed's documentation order.
#include "core/base/phrase.h"
#include "core/model/scenario.h"

#include <nlohmann/json_fwd.hpp>

#include <optional>
#include <string>

namespace zp {

// The optimizer's hyperparameters an export writes (the ds_config's optimizer block and
// gradient_clipping, the Trainer's arguments, the Accelerate YAML).
struct Hyperparameters {
    double learning_rate = 3e-4;
    double weight_decay = 0.1;
    double beta1 = 0.9, beta2 = 0.95, eps = 1e-8;
    double gradient_clipping = 1.0;
};
// The recipe of what the run is for (core/presets/job_presets.h job_shown, the fine-tuning method):
// - LoRA and QLoRA: the QLoRA paper's (Dettmers et al., arXiv 2305.14314, Appendix B.2;
//   artidoro/qlora qlora.py's defaults): learning rate 2e-4, 1e-4 from 33B, no weight decay,
//   Adam beta2 0.999, max grad norm 0.3;
// - a full fine-tune: Llama 2's supervised fine-tuning (Touvron et al., arXiv 2307.09288 Sec. 3.1):
//   learning rate 2e-5, weight decay 0.1, the pre-training's AdamW betas and clipping;
// - otherwise (pre-training, long context, a custom job): Llama 2's pre-training (Sec. 2.2): 3e-4
//   (7B/13B), weight decay 0.1, betas 0.9/0.95, clipping 1.0.
Hyperparameters recipe_hyperparameters(const Scenario& s);

struct ExportOptions {
    std::string nvme_path = "/local_nvme";
    std::optional<Hyperparameters> hyperparameters;  // none: recipe_hyperparameters of the scenario
    int steps_per_print = 100;
};
// The options' hyperparameters, else the scenario's recipe.
Hyperparameters hyperparameters(const Scenario& s, const ExportOptions& options);

// The DeepSpeed optimizer type name ("AdamW", "Lion", ...).
const char* deepspeed_optimizer_type(Optimizer o);
// The second beta the exports give the optimizer: Lion's paper default 0.99 (Chen et al. 2023),
// the hyperparameters' for Adam and LAMB. One value for the ds_config and the Trainer's adam_beta2,
// which transformers copies into an "auto" betas (integrations/deepspeed.py trainer_config_process).
double optimizer_beta2(Optimizer o, const Hyperparameters& h);

// What a ds_config's batch keys count: the data-parallel ranks, as Megatron-DeepSpeed's mpu gives
// them to DeepSpeed. A plan with tensor or pipeline ranks has fewer than the GPUs, so its keys fail
// DeepSpeed's batch assertion (runtime/config.py _batch_assertion) under the Trainer or Accelerate,
// where every GPU is a data-parallel rank. Empty for a data-parallel plan.
Phrase megatron_batch_phrase(const Scenario& s);

// Throws InputError when the batch rule cannot be satisfied for the scenario's world size.
nlohmann::ordered_json deepspeed_config(const Scenario& s, const ExportOptions& options = {});
std::string deepspeed_config_text(const Scenario& s, const ExportOptions& options = {});  // 2-space indent, newline-terminated

}  // namespace zp
