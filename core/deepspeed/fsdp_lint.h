#pragma once
// Lint an Accelerate config for PyTorch FSDP (the YAML `accelerate config` writes, distributed_type
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

}  // namespace zp
