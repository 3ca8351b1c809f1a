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

// What the step-time model (core/time/compute_time.h) needs of a GPU beyond GpuSpec: HBM
// bandwidth (vendor datasheets) and the fraction of the dense 16-bit peak that training GEMMs
// reach on that generation (fitted per generation where a measured run exists, see
// gpu_presets.cpp). Looked up by preset name; a custom GPU (custom_gpu keeps the preset's
// throughput) by its peak TFLOP/s; anything else gets the generic row. Kept out of GpuSpec so
// that sessions (which store every GpuSpec field) need no new format version for them.
struct GpuTimeTraits {
    double hbm_gbytes_per_s = 0;  // device memory bandwidth, GB/s (10^9)
    double gemm_efficiency = 0;   // achieved / dense 16-bit peak in large training GEMMs
    const char* generation = "";  // "Volta", "Ampere", ... (for the text and the docs)
};
GpuTimeTraits gpu_time_traits(const GpuSpec& g);
// The preset name of the i-th traits row ("" past the end), for the test that the table follows gpu_presets().
const char* gpu_time_traits_preset(std::size_t i);
const GpuSpec& gpu_preset(std::string_view name);  // throws InputError listing the known names
std::string gpu_preset_names();

}  // namespace zp
