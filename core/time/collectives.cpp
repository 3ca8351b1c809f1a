#include "core/time/collectives.h"

#include "core/base/units.h"
#include "core/presets/gpu_presets.h"

#include <algorithm>

namespace zp {

double reduce_scatter_seconds(double bytes, double ranks, double bus_gbytes_per_s) {
    if (ranks <= 1) return 0;
    return (ranks - 1) / ranks * bytes / (bus_gbytes_per_s * kBytesPerGB);
}

double allgather_seconds(double bytes, double ranks, double bus_gbytes_per_s) {
    return reduce_scatter_seconds(bytes, ranks, bus_gbytes_per_s);
}

double allreduce_seconds(double bytes, double ranks, double bus_gbytes_per_s) {
    return 2 * reduce_scatter_seconds(bytes, ranks, bus_gbytes_per_s);
}

double intra_node_bus_gbytes_per_s(const Cluster& c) {
    const bool pcie = c.intra_node_gbytes_per_s <= links::kPcie5x16;
    return c.intra_node_gbytes_per_s * (pcie ? nccl::kPcieBusEfficiency : nccl::kNvLinkBusEfficiency);
}

double inter_node_bus_gbytes_per_s(const Cluster& c, double ranks_per_node) {
    const double node_gbytes_per_s = c.inter_node_gbits_per_s / 8.0;
    const double g = static_cast<double>(c.gpus_per_node);
    const double share = node_gbytes_per_s * std::clamp(ranks_per_node, 1.0, g) / g;
    const double one_nic = node_gbytes_per_s / static_cast<double>(c.nics());
    return std::min(share, one_nic) * nccl::kNetworkBusEfficiency;
}

double bottleneck_gbytes_per_s(const Cluster& c, double ranks_per_node) {
    if (c.nodes <= 1) return intra_node_bus_gbytes_per_s(c);
    return std::min(intra_node_bus_gbytes_per_s(c), inter_node_bus_gbytes_per_s(c, ranks_per_node));
}

double ring_latency_seconds(const Cluster& c, double ranks, double one_node_seconds) {
    if (ranks <= 1) return 0;
    const double nodes = std::min(static_cast<double>(c.nodes), ranks);
    if (nodes <= 1) return one_node_seconds;
    const double per_node = ranks / nodes;
    return one_node_seconds + (nodes - 1) * (nccl::kRingNetworkHopSeconds + (per_node - 1) * nccl::kRingNvLinkHopSeconds);
}

}  // namespace zp
