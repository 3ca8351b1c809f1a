#pragma once
// Hardware facts the step-time model reads beside GpuSpec: intra-node link speeds and a GPU's
// time traits (HBM bandwidth, GEMM efficiency). The preset rows that use them, with their
// sources, are in core/presets/gpu_presets.cpp.

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
inline constexpr double kPcie6x16 = 128;
inline constexpr double kNvLink5 = 900;
inline constexpr double kInfinityFabricMi355x = 535.5;
// A Grace-Blackwell GPU's host link: the superchip's NVLink-C2C, 900 GB/s counting both
// directions, shared by its two GPUs (assumed evenly): 225 GB/s one direction each.
inline constexpr double kNvLinkC2cPerGpu = 225;
}  // namespace links

// What the step-time model (core/time/compute_time.h) needs of a GPU beyond GpuSpec: HBM
// bandwidth (vendor datasheets) and the fraction of the dense 16-bit peak that training GEMMs
// reach on that generation (fitted per generation where a measured run exists, see
// gpu_presets.cpp). Looked up by preset name; a custom GPU (custom_gpu keeps the preset's
// throughput) by its peak TFLOP/s; anything else gets the generic row. Kept out of GpuSpec so
// that sessions (which store every GpuSpec field) need no new format version for them.
struct GpuTimeTraits {
    double hbm_gbytes_per_s = 0;  // device memory bandwidth, GB/s (10^9)
    double gemm_efficiency = 0;   // achieved / dense 16-bit peak in large training GEMMs
    // Achieved / dense 16-bit peak of flash attention's kernels in training (forward, backward and
    // recompute), a causal mask's FLOPs counted as half (core/time/compute_time.cpp attention_seconds).
    double flash_attention_efficiency = 0;
    const char* generation = "";  // "Volta", "Ampere", ... (for the text and the docs)
    // Dense FP32 without TF32, TFLOP/s: what an fp32 matmul runs at under PyTorch's default
    // (torch.backends.cuda.matmul.allow_tf32 is False since PyTorch 1.12), and the most a bf16
    // matmul gets on a part without bf16 tensor cores (core/presets/gpu_presets.cpp).
    double fp32_tflops = 0;
    bool bf16_tensor_cores = true;  // false: Volta (compute capability 7.0) has fp16 tensor cores only
};

}  // namespace zp
