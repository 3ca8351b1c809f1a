#pragma once
// Host-side rates of the offload path (docs/design.md §5.3).
//
// CPU Adam is bound by host memory bandwidth: DeepSpeed's csrc/adam/cpu_adam_impl.cpp
// (Adam_Optimizer::Step_AVX / Step_1) streams, per parameter, the fp32 gradient, parameter and
// both moments in (16 bytes) and the parameter and moments out (12 bytes): 28 bytes. A two-socket
// node reaches about half of its DIMMs' theoretical bandwidth on such a multi-stream kernel
// across NUMA nodes; 0.5 is FITTED to ZeRO-Offload (arXiv 2101.06840) Table 4's DGX-2 figure
// (1B parameters in 0.22 s = 4.5e9 params/s: 2 x 6 channels DDR4-2666 = 256 GB/s x 0.5 / 28 = 4.6e9).
//
// Pinned host memory over PCIe: cudaMemcpyAsync from page-locked memory reaches ~12-13 GB/s on
// PCIe 3.0 x16 and ~25 GB/s on 4.0 x16 (CUDA samples bandwidthTest, NVIDIA's published runs):
// 0.8 of the per-direction rate. Assumed, not fitted.
namespace zp::host_rates {

//
// Pageable host memory (offload_optimizer / offload_param pin_memory false): the driver copies
// through its own pinned staging buffer with the CPU, and a copy from the device to pageable
// memory returns only once it has completed (CUDA Runtime API, "API synchronization behavior"),
// so DeepSpeed's non_blocking gradient copies block the host thread that queues the backward. The
// staged rate is the lower of the pinned rate and one core's memcpy, about 10 GB/s on the server
// CPUs of 2017-2023 (single-thread STREAM Copy 8-13 GB/s). Assumed, not fitted: no run in the
// validation set turns pinning off.
inline constexpr double kCpuAdamBytesPerParam = 28;
inline constexpr double kHostMemoryEfficiency = 0.5;
inline constexpr double kPinnedPcieEfficiency = 0.8;
inline constexpr double kPageableStagingGBytesPerSecond = 10;

// torch.optim's AdamW on CPU tensors, which PyTorch FSDP's CPUOffload steps the host shard with:
// without fused=True (CPU only from PyTorch 2.4; the planner's exports do not set it) it takes the
// per-tensor path (torch/optim/adamw.py _single_tensor_adamw: _default_to_fused_or_foreach picks
// foreach only on torch/utils/_foreach_utils.py's devices, cuda and xpu), a dozen element-wise
// kernels each streaming the tensors through host memory where DeepSpeed's makes one pass.
// DeepSpeed measured its CPU Adam "between 5x to 7x speedup over torch.optim.adam(W)"
// (ops/adam/cpu_adam.py DeepSpeedCPUAdam; docs/_tutorials/zero-offload.md "5X--7X"): the low end
// is taken. Cited, not fitted: no measured FSDP CPUOffload run in the validation set times its step.
inline constexpr double kTorchCpuAdamSlowdown = 5;

// Bytes per second one GPU moves over its host link `pcie_gbytes_per_s` (per direction), from
// pinned or from pageable host memory.
constexpr double host_link_bytes_per_second(double pcie_gbytes_per_s, bool pinned) {
    const double pinned_rate = pcie_gbytes_per_s * kPinnedPcieEfficiency;
    const double rate = pinned || pinned_rate < kPageableStagingGBytesPerSecond ? pinned_rate : kPageableStagingGBytesPerSecond;
    return rate * 1e9;
}

// CPU Adam parameters per second for a node whose DIMMs give `host_memory_gbytes_per_s` (channels
// x MT/s x 8 bytes, all sockets).
constexpr double cpu_adam_params_per_second(double host_memory_gbytes_per_s) {
    return host_memory_gbytes_per_s * 1e9 * kHostMemoryEfficiency / kCpuAdamBytesPerParam;
}

}  // namespace zp::host_rates
