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
// Over several nodes, a ring with `ranks_per_node` of its ranks in each node (all g for plain data
// parallelism; 1 when tensor parallelism fills the node, whose g rings then run side by side):
//   min(node's NICs x ranks_per_node / g, one NIC) x kNetworkBusEfficiency.
// The first term is what the ring's share of the node can carry: NCCL builds a ring per channel
// and crosses each node boundary through one NIC (src/graph/search.cc, one net device per channel),
// so only one GPU per node and channel sends over the network and a ring of the node's g GPUs can
// use every NIC (nccl-tests' multi-node busBw approaches the node's NIC total); rings side by side
// split the NICs. The second term, one NIC's rate, is what the ZeRO runs in the validation sets
// reach across nodes, nowhere the NIC total: ZeRO-3 on 8-rail A100 nodes (Narayanan et al. 2021
// Table 2 at 384-1,536 GPUs, DeepSpeed on Azure's 1T and 2T) and DeepSpeed's DGX-2 tutorial runs
// (8 NICs for 16 GPUs; the tutorial's forward gathers at ~12 GB/s, one EDR NIC) match one NIC per
// ring, and so do the ZeRO++ blog's one-NIC 100 Gb/s runs (the NIC total there). With one NIC per
// GPU (Cluster::nics_per_node 0) both terms are the per-GPU share, total / g, for every ring.
// One NIC is the cap that fits the published rows best: 1.5, 2, 3 NICs or the node's total take
// Narayanan's ZeRO-3 rows to 1.19-3.34x and the tutorial's to 0.19-0.71x; the blog's 2-, 4- and
// 8-NIC ZeRO-3 baselines, which reach 1.5-2x one NIC, are the rows it misses (docs/design.md §5.2).
double inter_node_bus_gbytes_per_s(const Cluster& c, double ranks_per_node = 1);
// The slower of the intra-node bus and that (the intra-node link alone on one node).
double bottleneck_gbytes_per_s(const Cluster& c, double ranks_per_node = 1);

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
