#pragma once
// An accelerator as the models see it: memory, dense 16-bit tensor throughput, and links.
// The named presets with their sources are in core/presets/gpu_presets.cpp.
#include <string>

namespace zp {

struct GpuSpec {
    std::string name;                   // what --gpu accepts
    std::string display_name;
    double memory_gib = 0;              // what the framework can address (nvidia-smi total), GiB
    double peak_tflops_16bit = 0;       // dense bf16/fp16 tensor core, FP32 accumulate, TFLOP/s
    double intra_node_gbytes_per_s = 0; // per GPU, one direction, to its peers in the node (NVLink, xGMI or PCIe)
    double pcie_gbytes_per_s = 0;       // per GPU, one direction, to host memory (offload traffic)

    friend bool operator==(const GpuSpec&, const GpuSpec&) = default;
};

}  // namespace zp
