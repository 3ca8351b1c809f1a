#pragma once
// Accelerator presets: memory, dense 16-bit tensor throughput, and links; and the intra-node
// links themselves, which the presets use and the window's intra-node combo lists.
#include "core/model/gpu_spec.h"

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace zp {

// Link speeds in GB/s, one direction per GPU. Sources in core/presets/gpu_presets.cpp.
namespace links {
inline constexpr double kPcie3x16 = 16;
inline constexpr double kPcie4x16 = 32;
inline constexpr double kPcie5x16 = 64;
inline constexpr double kNvLink2 = 150;
inline constexpr double kNvLink3 = 300;
inline constexpr double kNvLink4 = 450;
inline constexpr double kInfinityFabricMi250x = 200;
inline constexpr double kInfinityFabricMi300x = 448;
}  // namespace links

struct IntraNodeLink {
    const char* name;  // "NVLink 3 (300 GB/s)"
    double gbytes_per_s;
};

// Every link above, slowest PCIe first, then NVLink, then AMD Infinity Fabric.
std::span<const IntraNodeLink> intra_node_links();

const std::vector<GpuSpec>& gpu_presets();
const GpuSpec& gpu_preset(std::string_view name);  // throws InputError listing the known names
std::string gpu_preset_names();

}  // namespace zp
