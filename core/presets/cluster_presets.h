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
// Where a node preset comes from (user guide, data sheet, reference architecture; "typical build,
// not a vendor SKU" or "assumed" where it is not a published system), as `zero-planner presets`
// lists it; "" for a node no preset is.
const char* cluster_source(std::string_view name);

// The preset `c` is a run of: every field of its node as the preset sets it, on any number of
// nodes, or on one node with fewer of its GPUs (what --cluster with a smaller --gpus gives,
// core/search/scenario_edits.h with_gpu_count). nullptr once any node field is edited.
const ClusterPreset* cluster_preset_of(const Cluster& c);
// Whether `c` is a run of `p` in that sense. On part of one node more than one preset can be (one
// GPU of the two-GPU workstation is one of the one-GPU workstation): cluster_preset_of gives the
// first, and the window keeps the one the user chose while it still is.
bool is_run_of(const Cluster& c, const ClusterPreset& p);

// The node a GPU usually comes in, for a plan that names the GPU but not the node (--gpu without
// --cluster): among the presets built on `gpu_name`, the smallest node that holds `gpus` GPUs, else
// the largest (an RTX 4090 alone: the workstation; two: the two-GPU workstation; three or four: the
// four-GPU workstation; five to eight: the 8-GPU server; an A100 80GB:
// the DGX A100). nullptr when no preset has that GPU: the caller keeps its host and says so.
const ClusterPreset* usual_node(std::string_view gpu_name, std::int64_t gpus);

// The node preset whose host (RAM and NVMe per node, the network) `c` carries although its GPUs
// are another's: a GPU chosen after the node (the window's GPU box) keeps the node's host, which
// for a consumer card is not its machine's (an RTX 3090 with a DGX A100's 2 TiB). nullptr when no
// preset has that host, or one built on `c`'s own GPU has it.
const ClusterPreset* host_of_other_node(const Cluster& c);

}  // namespace zp
