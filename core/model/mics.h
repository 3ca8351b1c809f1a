#pragma once
// MiCS (Zhang et al., "MiCS: Near-linear Scaling for Training Gigantic Model on Public Cloud",
// arXiv 2205.00119) as DeepSpeed runs it (runtime/zero/mics.py, mics_utils.py): ZeRO-3 whose model
// states are partitioned over shard groups of mics_shard_size consecutive ranks instead of every
// data-parallel rank, and replicated across the groups (docs/design.md §4.15).
#include "core/base/phrase.h"
#include "core/model/scenario.h"

#include <cstdint>
#include <vector>

namespace zp {

struct MicsGroups {
    std::int64_t shard = 1;       // ranks one parameter, its gradient and optimizer states are split over (1: MiCS off)
    std::int64_t replicas = 1;    // shard groups, the size of each replicate group: world / shard
    std::int64_t span_nodes = 1;  // mics_utils.py _generate_mics_config "span_nodes": shard // GPUs per node, at least 1 here
    bool crosses_nodes = false;   // some shard group holds ranks of two nodes (the gathers leave NVLink)
    bool hierarchical = false;    // the gather runs across nodes, then inside them (mics.py _hierarchical_all_gather_params)
    bool on() const { return shard > 1; }
};

// The shard groups of `s` where MiCS takes effect: ZeRO stage 3, mics_shard_size above 1, and a
// setup validate_mics accepts; otherwise off (shard 1). A recommender candidate with an offload or
// ZeRO++ thus runs plain ZeRO-3 (DeepSpeed reads mics_shard_size in its stage-3 branch only).
MicsGroups effective_mics(const Scenario& s);

// The shard groups the model states are split over when they are replicated across groups: MiCS's
// (effective_mics), or PyTorch FSDP's HYBRID_SHARD / _HYBRID_SHARD_ZERO2 (FsdpSetup::hybrid_shard),
// which is MiCS's layout with each node as a shard group: parameters gathered and gradients
// reduce-scattered inside the node, the rank's gradient shard all-reduced across the nodes
// (_runtime_utils.py _reduce_grad: reduce_scatter_tensor over the intra-node group, then
// all_reduce over _inter_node_pg). Off (shard 1) otherwise.
MicsGroups replicated_shard_groups(const Scenario& s);
// Whether FSDP's hybrid sharding shapes (and names) `s`'s sharded strategies: asked for, under FSDP,
// on nodes of more than one GPU; replicated_shard_groups adds the stage (2 or 3).
bool fsdp_hybrid_sharding(const Scenario& s);

// The ranks ZeRO partitions each model state over: the shard group when the states are
// replicated across groups (replicated_shard_groups), zero_partition_size otherwise.
std::int64_t zero_shard_size(const Scenario& s);

// Throws InputError with the constraint DeepSpeed asserts or the combination it cannot run
// (called by validate). Below stage 3 DeepSpeed ignores both keys, so nothing is refused there.
void validate_mics(const Scenario& s);

// The shard sizes to offer: 1 (off), then every divisor of the GPU count above 1 (what
// _generate_mics_config accepts), smallest first.
std::vector<std::int64_t> mics_shard_sizes(const Cluster& c);

// "model states sharded over groups of 8 GPUs, 4 replicas" for explanations; empty when off.
Phrase mics_phrase(const MicsGroups& m);

}  // namespace zp
