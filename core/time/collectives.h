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

// Achievable bus bandwidth as a fraction of the link's rate, for large messages. nccl-tests
// doc/PERFORMANCE.md defines busBw so that it is comparable to the hardware's bottleneck link;
// what the published runs reach at >= 256 MB: NVLink/NVSwitch and Infinity Fabric ~0.8 of the
// per-direction link rate (e.g. ~230 GB/s all-reduce busBw on a DGX A100's 300 GB/s), PCIe
// ~0.75 (12-13 GB/s of PCIe 3.0's 16, 24 of 4.0's 32), InfiniBand/RoCE ~0.9 of the NIC rate.
// Global, per link type; ASSUMED from those typical figures, not fitted to the validation runs.
namespace nccl {
inline constexpr double kNvLinkBusEfficiency = 0.80;
inline constexpr double kPcieBusEfficiency = 0.75;
inline constexpr double kNetworkBusEfficiency = 0.90;
}  // namespace nccl

// The intra-node link's achievable bus bandwidth: a link at or below PCIe 5.0 x16's 64 GB/s is PCIe.
double intra_node_bus_gbytes_per_s(const Cluster& c);
// Over several nodes: each GPU's share of its node's network (all NICs / GPUs per node), at
// kNetworkBusEfficiency. An ideal ring with one ring per NIC and GPUDirect RDMA would see the
// node's whole network rate; the per-GPU share is what the one multi-node DeepSpeed run in the
// set (M08, ZeRO-2 on 32 V100s: all-gather after the step 2.08 s of 4.64 s) shows, so it stays
// (docs/design.md §5.2 discusses both).
double inter_node_bus_gbytes_per_s(const Cluster& c);
// The slower of the two (the intra-node link alone on one node).
double bottleneck_gbytes_per_s(const Cluster& c);

// Latency of one ring collective over `ranks` data-parallel ranks: `one_node_seconds`
// (Assumptions::collective_latency_seconds, a launch within one node) plus the hops a longer ring
// adds. NCCL's own model (src/graph/tuning.cc, ncclTopoTuneModel: ring all-gather and
// reduce-scatter latency = baseLat + (nsteps - nInterSteps) x intraLat + nInterSteps x interLat,
// nsteps = ranks - 1, nInterSteps = nodes - 1; Simple protocol, the one large messages use: 3.4 us
// a hop over NVLink, 9.6 us over the network) puts each further node at one network hop and its
// g - 1 NVLink hops. The ranks span min(nodes, ranks) nodes (tensor and pipeline groups inside
// them). One node: `one_node_seconds` alone.
namespace nccl {
inline constexpr double kRingNvLinkHopSeconds = 3.4e-6;
inline constexpr double kRingNetworkHopSeconds = 9.6e-6;
}  // namespace nccl
double ring_latency_seconds(const Cluster& c, double ranks, double one_node_seconds);

}  // namespace zp
