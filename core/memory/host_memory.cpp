#include "core/memory/host_memory.h"

#include "core/memory/model_states.h"

#include <algorithm>

namespace zp {

// DeepSpeed's estimators (stage_1_and_2.py, stage3.py estimate_zero{2,3}_model_states_mem_needs)
// with additional_buffer_factor = buffer_factor, written per node:
//   loading without zero.Init: every local rank materialises the fp32 model, 4 P x g;
//   loading with zero.Init (stage 3): only the largest layer, 4 Lp x g;
//   offloaded optimizer: fp32 master 4 + moments + fp32 gradients 4 per parameter of the
//   node's share P/n (16 P/n for Adam); offloaded parameters add their 16-bit copy, 2 P/n.
// DeepSpeed's ZeRO-2 code multiplies by all GPUs, max(4 N, 16) P, where its docs and its ZeRO-3
// code use GPUs per node; the two agree on one node. We use the per-node form on every node count.
HostBytes host_bytes(const ModelSpec& m, const Cluster& c, const Training& t, const ZeroSetup& z, double buffer_factor) {
    const double P = static_cast<double>(parameter_count(m));
    const double Lp = static_cast<double>(largest_layer_params(m));
    const double g = static_cast<double>(c.gpus_per_node);
    const double n = static_cast<double>(c.nodes);
    const double N = static_cast<double>(c.world_size());
    const double F = buffer_factor;
    const double optimizer_per_param = 4.0 + optimizer_moment_bytes_per_param(t.optimizer) + 4.0;
    const double param16_per_param = 2.0;

    const bool zero_init = z.stage == 3 && z.zero_init;
    const double loading = zero_init ? 4.0 * Lp * g * F : 4.0 * P * g * F;

    double steady = 0;
    HostBytes h;
    if (z.offload_optimizer == OffloadDevice::Cpu) {
        steady += optimizer_per_param * P / n * F;
    } else if (z.offload_optimizer == OffloadDevice::Nvme) {
        // ZeRO-Infinity: optimizer partitions swapped through pinned buffers
        // (swap_tensor/optimizer_utils.py: buffer_count buffers of the largest sub-group, fp32).
        const double sub_group = std::min(z.sub_group_size, P / N);
        steady += g * static_cast<double>(z.offload_optimizer_buffer_count) * sub_group * 4.0;
        h.nvme_per_node += optimizer_per_param * P / n;
    }
    if (z.offload_param == OffloadDevice::Cpu) {
        steady += param16_per_param * P / n * F;
    } else if (z.offload_param == OffloadDevice::Nvme) {
        // swap_tensor/partitioned_param_swapper.py: buffer_count x buffer_size 16-bit elements, pinned.
        steady += g * static_cast<double>(z.offload_param_buffer_count) * z.offload_param_buffer_size * 2.0;
        h.nvme_per_node += param16_per_param * P / n;
    }
    h.cpu_per_node = std::max(loading, steady);
    return h;
}

}  // namespace zp
