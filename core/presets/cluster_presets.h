#pragma once
// Whole-node presets: GPUs, links, host RAM, NVMe.
#include "core/model/scenario.h"
#include "core/presets/gpu_presets.h"

#include <string>
#include <string_view>
#include <vector>

namespace zp {

struct ClusterPreset {
    std::string name;  // what --cluster accepts
    std::string display_name;
    Cluster cluster;  // one node; the GPU count option multiplies nodes
};

const std::vector<ClusterPreset>& cluster_presets();
const ClusterPreset& cluster_preset(std::string_view name);  // throws InputError listing the known names
std::string cluster_preset_names();

}  // namespace zp
