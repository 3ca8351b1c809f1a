#include "core/presets/gpu_presets.h"

#include "core/model/errors.h"

namespace zp {

// Sources. Memory: vendor spec sheets (GiB as nvidia-smi / rocm-smi report them).
// TFLOP/s: dense, no sparsity, 16-bit inputs with FP32 accumulate, the rate PyTorch matmuls run at:
//   V100: NVIDIA Tesla V100 datasheet (SXM2 125). A100: A100 datasheet (312). H100: H100 datasheet
//   (SXM 989, PCIe 756). H200: H200 datasheet (989). L40S: L40S datasheet (362). RTX 3090: NVIDIA
//   Ampere GA102 whitepaper Table 9 (35.6 with FP32 accumulate). RTX 4090: Ada Lovelace whitepaper
//   Appendix A (165.2 with FP32 accumulate). A10G: AWS EC2 G5 documentation (~70, A10 silicon at lower
//   clocks). MI250X: AMD Instinct MI250X data sheet (383 per package = 191.5 per GCD; each GCD is one
//   device). MI300X: AMD Instinct MI300X data sheet (1307.4).
// Links, one direction per GPU: NVLink2 150 GB/s (V100 SXM2), NVLink3 300 (A100 SXM), NVLink4 450
//   (H100/H200 SXM), PCIe 3.0 x16 16, 4.0 x16 32, 5.0 x16 64; AMD Infinity Fabric: MI250X 800 GB/s
//   peak aggregate per package -> 200 per GCD per direction, MI300X 7 x 64 GB/s = 448.
const std::vector<GpuSpec>& gpu_presets() {
    static const std::vector<GpuSpec> presets = {
        {"v100-16gb", "V100 16GB (SXM2)", 16.0, 125.0, 150.0, 16.0},
        {"v100-32gb", "V100 32GB (SXM2)", 32.0, 125.0, 150.0, 16.0},
        {"a100-40gb", "A100 40GB (SXM)", 40.0, 312.0, 300.0, 32.0},
        {"a100-80gb", "A100 80GB (SXM)", 80.0, 312.0, 300.0, 32.0},
        {"h100-80gb", "H100 80GB (SXM)", 79.6, 989.0, 450.0, 64.0},   // 81559 MiB
        {"h100-pcie", "H100 80GB (PCIe)", 79.6, 756.0, 64.0, 64.0},
        {"h200-141gb", "H200 141GB (SXM)", 140.4, 989.0, 450.0, 64.0},  // 143771 MiB
        {"l40s", "L40S 48GB", 45.0, 362.0, 32.0, 32.0},                 // 46068 MiB
        {"rtx-3090", "GeForce RTX 3090 24GB", 24.0, 35.6, 32.0, 32.0},
        {"rtx-4090", "GeForce RTX 4090 24GB", 24.0, 165.2, 32.0, 32.0},
        {"a10g", "A10G 24GB (AWS)", 22.5, 70.0, 32.0, 32.0},            // 23028 MiB
        {"mi250x", "MI250X (one 64GB GCD)", 64.0, 191.5, 200.0, 32.0},
        {"mi300x", "MI300X 192GB", 192.0, 1307.4, 448.0, 64.0},
    };
    return presets;
}

std::string gpu_preset_names() {
    std::string names;
    for (const auto& g : gpu_presets()) names += (names.empty() ? "" : ", ") + g.name;
    return names;
}

const GpuSpec& gpu_preset(std::string_view name) {
    for (const auto& g : gpu_presets())
        if (g.name == name) return g;
    throw InputError("unknown GPU '" + std::string(name) + "'; known GPUs: " + gpu_preset_names());
}

}  // namespace zp
