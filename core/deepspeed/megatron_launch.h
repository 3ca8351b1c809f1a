#pragma once
// Megatron-DeepSpeed's launch line for the plan (docs/design.md §7.5): the hostfile and the
// `deepspeed ... pretrain_gpt.py` command with the model's shape, the tensor/pipeline layout,
// the batch and the ZeRO stage, beside the ds_config.json it reads.
#include "core/model/scenario.h"

#include <string>

namespace zp {

// A bash script; the flags are Megatron-DeepSpeed's (megatron/arguments.py).
std::string megatron_launch_script(const Scenario& s, const std::string& config_path = "ds_config.json",
                                   const std::string& script = "pretrain_gpt.py");

}  // namespace zp
