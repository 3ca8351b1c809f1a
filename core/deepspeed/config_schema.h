#pragma once
// The ds_config.json schema as DeepSpeed reads it: which keys each block accepts, which values
// must be integers or booleans, which keys are deprecated, and small readers for the blocks the
// planner looks at. The linter (lint.h) and the import (config_import.h) share it.
#include "core/model/scenario.h"

#include <nlohmann/json_fwd.hpp>

#include <set>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace zp::ds_schema {

// Keys DeepSpeed's pydantic models accept in each block (extra="forbid" there).
const std::vector<std::string>& zero_optimization_keys();
const std::vector<std::string>& offload_param_keys();
const std::vector<std::string>& offload_optimizer_keys();
const std::vector<std::string>& fp16_keys();
const std::vector<std::string>& bf16_keys();
// The blocks of the monitors (tensorboard, wandb, csv_monitor, comet) and comms_logger, each with the
// keys its pydantic model accepts.
const std::vector<std::pair<std::string, std::vector<std::string>>>& monitor_blocks();
// Top-level keys DeepSpeed reads; it ignores any other silently.
const std::vector<std::string>& top_level_keys();

// Dotted paths whose values DeepSpeed reads as integers (pydantic int) or booleans.
const std::set<std::string>& integer_paths();
const std::set<std::string>& boolean_paths();

// The config with a boolean zero_optimization (DeepSpeed's deprecated form) written as the block
// DeepSpeed reads it as (runtime/zero/config.py get_zero_config -> read_zero_config_deprecated):
// true is stage 1 with allgather_bucket_size from the top-level allgather_size (5e8 without it),
// false stage 0 (allgather_size, read into the block, is left out). Any other config is returned
// as it is.
nlohmann::json with_zero_block(const nlohmann::json& config);
// Whether `config`'s zero_optimization is that deprecated boolean.
bool zero_block_is_boolean(const nlohmann::json& config);

// Dotted paths whose "auto" the Hugging Face stack fills in: transformers' Trainer
// (integrations/deepspeed.py HfTrainerDeepSpeedConfig.trainer_config_process and
// trainer_config_finalize) and Accelerate (_prepare_deepspeed's config_kwargs, and the accelerate
// config's own fields). Accelerate then walks every key (DeepSpeedPlugin.deepspeed_config_process)
// and raises "`<key>` not found in kwargs" for any "auto" left; DeepSpeed alone drops an "auto"
// for the field's default (runtime/config_utils.py DeepSpeedConfigModel.__init__).
const std::set<std::string>& hf_filled_auto_paths();

// DeepSpeed's deprecated zero_optimization keys (runtime/zero/config.py, json_schema_extra
// deprecated): a key with `new_key` is read as that key (config_utils.py
// _process_deprecated_field: new_param_fn; cpu_offload true is offload_optimizer device cpu), and
// asserts "Cannot provide deprecated parameter ... together" when both are given;
// cpu_offload_use_pin_memory (set_new_param False) is read as nothing.
struct DeprecatedKey {
    const char* key;          // inside zero_optimization
    const char* replacement;  // what to write instead
    const char* new_key;      // the key DeepSpeed sets from it, or nullptr
};
std::span<const DeprecatedKey> deprecated_zero_keys();

// The offload device a zero_optimization block names for `sub` ("offload_param" or
// "offload_optimizer"): the device string as written, or "none" when absent or not a string.
// Without the block, the deprecated boolean DeepSpeed reads as it (cpu_offload, cpu_offload_param:
// deprecated_zero_keys' new_key) gives "cpu" when true, as zero/config.py's new_param_fn does.
std::string offload_device_name(const nlohmann::json& zero_optimization, const char* sub);
// Whether the top-level block `key` ("fp16", "bf16") says "enabled": true.
bool block_enabled(const nlohmann::json& config, const char* key);

// pydantic's lax mode, which DeepSpeed's config models use (config_utils.py sets no strict): a
// whole number written as text ("2") is read as that number; a bool may be 0/1 or one of "true",
// "false", "yes", "no", "on", "off", "t", "f", "y", "n", "1", "0" in any case. nullopt otherwise.
std::optional<std::int64_t> lax_integer(const nlohmann::json& v);
std::optional<bool> lax_boolean(const nlohmann::json& v);

}  // namespace zp::ds_schema
