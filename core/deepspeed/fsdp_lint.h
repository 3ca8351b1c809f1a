#pragma once
// Lint an Accelerate config as Accelerate reads it: for DeepSpeed (its deepspeed_config and
// parallelism_config, below), and for PyTorch FSDP (the YAML `accelerate config` writes, distributed_type
// FSDP) the way Accelerate reads it (docs/design.md §7.6): unknown fsdp_config keys with the nearest
// valid one, the values each key takes (accelerate/utils/constants.py FSDP_SHARDING_STRATEGY,
// FSDP_AUTO_WRAP_POLICY, FSDP_BACKWARD_PREFETCH, FSDP_STATE_DICT_TYPE), FSDP1-only keys under
// fsdp_version 2, and a transformer_layer_cls_to_wrap that is not a layer class of the model.
#include "core/deepspeed/lint.h"

#include <string_view>

namespace zp {

// Whether `text` is an Accelerate YAML config rather than a ds_config (it parses as a YAML map with
// a distributed_type or fsdp_config key): what `lint FILE` reads it as.
bool looks_like_accelerate_config(std::string_view text);

// Throws InputError (line and column) when the text is not YAML at all. context.model_family:
// the model's transformers family, to check the wrapped class; none without it.
LintResult lint_accelerate_fsdp_config(std::string_view text, const std::string& source_name, const LintContext& context = {});

// Whether `text` is an Accelerate config for DeepSpeed: distributed_type DEEPSPEED, or no
// distributed_type and a deepspeed_config block without an fsdp_config.
bool is_accelerate_deepspeed_config(std::string_view text);

// An Accelerate config for DeepSpeed as Accelerate reads it: the deepspeed_config keys its launcher
// reads (commands/launch.py; a ds_config key here reaches nothing), the keys Accelerate refuses beside
// a deepspeed_config_file (DeepSpeedPlugin._deepspeed_config_checks, mixed_precision too), and the
// parallelism_config of DeepSpeed-Ulysses (Accelerate's sequence_parallelism.md): its keys, sp_backend
// deepspeed, sp_attn_implementation sdpa / flash_attention_2 / flash_attention_3, a fixed length that
// divides by sp, dp_replicate x dp_shard x sp = num_processes (all machines' processes), sp against the
// model's heads (context: check_ulysses_against_model), and sp_size 1 (no effect: a warning).
LintResult lint_accelerate_deepspeed_config(std::string_view text, const std::string& source_name, const LintContext& context = {});

// Either of the two by the config's distributed_type: what `lint FILE.yaml` runs.
LintResult lint_accelerate_config(std::string_view text, const std::string& source_name, const LintContext& context = {});

}  // namespace zp
