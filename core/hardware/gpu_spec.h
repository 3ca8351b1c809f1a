#pragma once
// An accelerator as the models see it: memory, dense 16-bit tensor throughput, and links.
// The named presets with their sources are in core/presets/gpu_presets.cpp.
#include <string>

namespace zp {

struct GpuSpec {
    std::string name;  // what --gpu accepts
    std::string display_name;
    double memory_gib = 0;               // what the framework can address (nvidia-smi total), GiB
    double peak_tflops_16bit = 0;        // dense bf16/fp16 tensor core, FP32 accumulate, TFLOP/s
    double intra_node_gbytes_per_s = 0;  // per GPU, one direction, to its peers in the node (NVLink, xGMI or PCIe)
    double pcie_gbytes_per_s = 0;        // per GPU, one direction, to host memory (offload traffic)
    double peak_tflops_fp8 = 0;          // dense FP8 tensor core (E4M3/E5M2 inputs, FP32 accumulate), TFLOP/s; 0: the part has none
    // Compute capability 10.x, the data-centre Blackwell parts: Transformer Engine runs FP8 GEMMs in
    // every layout, so one FP8 buffer serves a weight and its transpose (TE pytorch/utils.py
    // is_non_tn_fp8_gemm_supported at d0067d0), and runs MXFP8 (quantization.py
    // _compute_mxfp8_support: 10.x only; 12.0, the RTX 50 series, "not supported ... yet").
    bool compute_capability_10 = false;
    // Dense FP4 tensor core (NVFP4 on NVIDIA Blackwell, MXFP4 on the MI355X), TFLOP/s; 0: the part has
    // none. Listed with the presets; no plan computes with it yet.
    double peak_tflops_fp4 = 0;

    friend bool operator==(const GpuSpec&, const GpuSpec&) = default;
};

// The name of a GPU that is not a preset (its memory was typed in by hand). Sessions store
// it, the command line reports it, and the window's GPU combo shows it as "Custom".
inline constexpr const char* kCustomGpuName = "custom";

// `gpu` with another memory size. It is no longer the preset it came from, so it is named
// custom; its throughput and links stay, because only the memory was changed.
inline GpuSpec custom_gpu(GpuSpec gpu, double memory_gib) {
    gpu.memory_gib = memory_gib;
    gpu.name = kCustomGpuName;
    gpu.display_name = "custom GPU";
    return gpu;
}

}  // namespace zp
