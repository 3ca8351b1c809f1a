#pragma once
// Ring collectives (nccl-tests doc/PERFORMANCE.md): with bus bandwidth B and N ranks,
//   all-reduce of S bytes      2 (N-1)/N x S / B
//   reduce-scatter, all-gather   (N-1)/N x S / B
// S is the full tensor size (each rank ends with S/N for reduce-scatter).
#include "core/model/scenario.h"

namespace zp {

double allreduce_seconds(double bytes, double ranks, double bus_gbytes_per_s);
double reduce_scatter_seconds(double bytes, double ranks, double bus_gbytes_per_s);
double allgather_seconds(double bytes, double ranks, double bus_gbytes_per_s);

// The bus bandwidth of the slowest link a ring crosses: NVLink/PCIe on one node; on several,
// each GPU's share of its node's network, or the intra-node link if that is slower.
double bottleneck_gbytes_per_s(const Cluster& c);

}  // namespace zp
