#include "core/time/collectives.h"

#include "core/model/units.h"

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

double bottleneck_gbytes_per_s(const Cluster& c) {
    if (c.nodes <= 1) return c.intra_node_gbytes_per_s;
    const double network_share = c.inter_node_gbits_per_s / 8.0 / static_cast<double>(c.gpus_per_node);
    return std::min(c.intra_node_gbytes_per_s, network_share);
}

}  // namespace zp
