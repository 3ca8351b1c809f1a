#pragma once
// The same plan for PyTorch FSDP (core/model/engine.h), as people launch it: the YAML `accelerate
// config` writes (distributed_type FSDP and its fsdp_config block: accelerate/commands/config/
// cluster.py, keys in accelerate/utils/dataclasses.py FullyShardedDataParallelPlugin), and the
// Trainer's fsdp / fsdp_config arguments (transformers training_args.py). docs/design.md §7.6.
#include "core/deepspeed/config_export.h"

#include <string>

namespace zp {

// The decoder layer's class in transformers' modelling code for a model family ("llama" ->
// "LlamaDecoderLayer"): what transformer_layer_cls_to_wrap names. Empty for a family without one
// here, where Accelerate and the Trainer fall back to the model's own _no_split_modules.
std::string fsdp_layer_class(const std::string& family);

// Throws InputError when the plan cannot be written as an FSDP config: an engine other than FSDP,
// a setup FSDP does not have, an fp32 model under autocast alone (Accelerate's and the Trainer's
// mixed precision always build a MixedPrecision policy), limit_all_gathers off (no config key).
std::string accelerate_fsdp_config_yaml(const Scenario& s);
std::string trainer_fsdp_arguments_text(const Scenario& s, const ExportOptions& options = {});

}  // namespace zp
