#pragma once
// Accelerator presets: memory, dense 16-bit tensor throughput, and links.
#include "core/model/gpu_spec.h"

#include <string>
#include <string_view>
#include <vector>

namespace zp {

const std::vector<GpuSpec>& gpu_presets();
const GpuSpec& gpu_preset(std::string_view name);  // throws InputError listing the known names
std::string gpu_preset_names();

}  // namespace zp
