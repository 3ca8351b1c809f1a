#pragma once
// Parsing the lowercase names of the scenario enums (the inverse of to_string in scenario.h).
#include "core/model/scenario.h"

#include <string_view>

namespace zp {

// Each throws InputError "<what> must be one of a|b|c, got 'x'".
Precision parse_precision(std::string_view s);
Optimizer parse_optimizer(std::string_view s);
Checkpointing parse_checkpointing(std::string_view s);
OffloadDevice parse_offload_device(std::string_view s);
Convention parse_convention(std::string_view s);

}  // namespace zp
