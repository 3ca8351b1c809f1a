#pragma once
// Accelerator presets: memory, dense 16-bit tensor throughput, and links; and the intra-node
// links themselves, which the presets use and the window's intra-node combo lists.
#include "core/hardware/gpu_links.h"
#include "core/hardware/gpu_spec.h"
#include "core/model/precision.h"

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace zp {

// The link speeds (links::) and GpuTimeTraits are hardware facts: core/hardware/gpu_links.h.
struct IntraNodeLink {
    const char* name;  // "NVLink 3 (300 GB/s)"
    double gbytes_per_s;
};

// Every link of links::, slowest PCIe first, then NVLink, then AMD Infinity Fabric.
std::span<const IntraNodeLink> intra_node_links();

const std::vector<GpuSpec>& gpu_presets();

// A GPU's time traits: by preset name, a custom GPU by its peak TFLOP/s, else the generic row.
GpuTimeTraits gpu_time_traits(const GpuSpec& g);
// The preset name of the i-th traits row ("" past the end), for the test that the table follows gpu_presets().
const char* gpu_time_traits_preset(std::size_t i);
const GpuSpec& gpu_preset(std::string_view name);  // throws InputError listing the known names
// The precision a plan on `gpu` trains in when it asked for `wanted`: fp16 instead of bf16 on a part
// without bf16 tensor cores (GpuTimeTraits::bf16_tensor_cores: Volta), where bf16 matmuls run on the
// FP32 units; `wanted` otherwise. What a new plan, the command line's default and a move to such a
// GPU take (scenario_edits.h with_gpu, with_node); an explicit --precision bf16 is kept.
Precision precision_for_gpu(Precision wanted, const GpuSpec& gpu);
// Where a preset's figures come from (datasheet, whitepaper, product page; "assumed" where a figure
// is not published), as `zero-planner presets` lists it; "" for a GPU no preset is.
const char* gpu_source(std::string_view name);

// The family a preset GPU is listed under in the window (by vendor and generation): "NVIDIA
// Blackwell", "NVIDIA Hopper", "NVIDIA Ampere and Volta", "Workstation and consumer GPUs" (a
// translatable phrase), "AMD Instinct"; "" for a GPU no preset is. gpu_families() in list order.
const char* gpu_family(std::string_view gpu_name);
// What Transformer Engine saves of an FP8 weight for backward, bytes per parameter. DelayedScaling:
// the E4M3 weight and its E4M3 transpose for dgrad on Hopper, Ada and AMD parts, one buffer serving
// both layouts at compute capability 10 (TE pytorch/utils.py and csrc/quantizer.cpp at d0067d0). MXFP8: a
// rowwise and a columnwise quantization, each 1 byte an element and one E8M0 scale byte per 32
// (tensor/storage/mxfp8_tensor_storage.py), 2 x (1 + 1/32). 0 without FP8.
double fp8_weight_copy_bytes_per_param(const GpuSpec& g, Fp8Scaling scaling);
// What one FP8 quantization of a 16-bit tensor moves, bytes per element: read 2 bytes, write the
// rowwise and the columnwise copies (1 each), and under MXFP8 their scales (1 byte per 32 each).
constexpr double fp8_cast_bytes_per_element(Fp8Scaling scaling) { return scaling == Fp8Scaling::Mxfp8 ? 4.0 + 2.0 / 32.0 : 4.0; }
std::span<const char* const> gpu_families();
std::string gpu_preset_names();

}  // namespace zp
