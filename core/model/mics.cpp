#include "core/model/mics.h"

#include "core/base/errors.h"
#include "core/model/engine.h"
#include "core/model/parallel_layout.h"

#include <algorithm>
#include <string>

namespace zp {

namespace {

// ZeRO++ configured: MiCS replaces ZeRO-3's parameter gather with its own
// (mics.py MiCS_Init._convert_to_deepspeed_param), which neither quantizes (qwZ) nor reads hpZ's
// secondary partition, and engine.py _return_mics_optimizer passes no ZeRO++ switch to MiCS_Optimizer.
// mics.py MiCS_Optimizer.allreduce_mics_shard_grads raises "Local sharding has no support for CPU
// offloading" when the gradient partitions are on the host, which stage3.py puts there with
// offload_optimizer (self.device = cpu); it runs only when there is more than one shard group.
bool offload_refused(const ZeroSetup& z, std::int64_t replicas) { return z.offload_optimizer != OffloadDevice::None && replicas > 1; }

}  // namespace

MicsGroups effective_mics(const Scenario& s) {
    const ZeroSetup& z = s.zero;
    MicsGroups m;
    const std::int64_t world = s.cluster.world_size();
    const std::int64_t S = z.mics_shard_size;
    if (z.stage != 3 || S <= 1 || S > world || world % S != 0) return m;
    if (s.parallel.tensor > 1 || s.parallel.pipeline > 1 || s.parallel.expert > 1 || zeropp_switches(z).any()) return m;
    if (offload_refused(z, world / S)) return m;
    const std::int64_t g = std::max<std::int64_t>(s.cluster.gpus_per_node, 1);
    m.shard = S;
    m.replicas = world / S;
    m.span_nodes = std::max<std::int64_t>(S / g, 1);
    // Shard groups are consecutive ranks (mics_utils.py: np.arange(world_size).reshape(-1, shard_size)),
    // launched node by node: a group stays in a node when it divides the node's GPUs.
    m.crosses_nodes = s.cluster.nodes > 1 && (S > g || g % S != 0);
    // create_mics_comm_groups builds the intra- and inter-node groups when the shard spans more than
    // one node (its asserts: span_nodes > 1, shard % span_nodes == 0).
    m.hierarchical = z.mics_hierarchical_params_gather && S / g > 1 && S % (S / g) == 0;
    return m;
}

bool fsdp_hybrid_sharding(const Scenario& s) { return is_fsdp(s.fsdp) && s.fsdp.hybrid_shard && s.cluster.gpus_per_node > 1; }

MicsGroups replicated_shard_groups(const Scenario& s) {
    // Neither asked for (nearly every plan, several times an estimate): no groups to build.
    if (s.zero.mics_shard_size <= 1 && !s.fsdp.hybrid_shard) return {};
    if (!is_fsdp(s.fsdp)) return effective_mics(s);
    MicsGroups m;
    if (!fsdp_hybrid_sharding(s) || s.zero.stage < 2) return m;
    m.shard = s.cluster.gpus_per_node;
    m.replicas = std::max<std::int64_t>(s.cluster.nodes, 1);
    return m;
}

std::int64_t zero_shard_size(const Scenario& s) {
    const MicsGroups m = replicated_shard_groups(s);
    return m.on() ? m.shard : zero_partition_size(s);
}

void validate_mics(const Scenario& s) {
    const ZeroSetup& z = s.zero;
    if (z.mics_shard_size < 1) throw InputError("mics_shard_size must be 1 (off) or more");
    // engine.py _configure_zero_optimizer reads mics_shard_size only in its stage-3 branch.
    if (z.stage != 3 || z.mics_shard_size <= 1) return;
    const std::int64_t S = z.mics_shard_size;
    const std::string mics = "MiCS (mics_shard_size " + std::to_string(S) + ")";
    // mics_utils.py create_mics_comm_groups builds its shard groups from consecutive ranks of the
    // whole world (dist.get_world_size()), not of a data-parallel group: with tensor parallelism a
    // group would mix ranks that hold different slices of a weight.
    if (s.parallel.tensor > 1 || s.parallel.pipeline > 1 || s.parallel.expert > 1)
        throw InputError(mics +
                         " groups consecutive ranks of the whole world (DeepSpeed's create_mics_comm_groups), so it runs without "
                         "tensor, pipeline and expert parallelism; use --tp 1 --pp 1 --ep 1 or --mics-shard-size 1");
    const std::int64_t world = s.cluster.world_size();
    // mics_utils.py _generate_mics_config: "dp group size is not dividable by dp_shard_size".
    if (S > world || world % S != 0)
        throw InputError(mics + " must divide the " + std::to_string(world) +
                         " GPUs (DeepSpeed's _generate_mics_config: \"dp group size is not dividable by dp_shard_size\")");
    if (zeropp_switches(z).any())
        throw InputError(mics +
                         " and ZeRO++ do not combine: MiCS replaces ZeRO-3's gather with its own, which neither quantizes nor uses "
                         "hpZ's secondary partition (DeepSpeed's mics.py); turn one of them off");
    if (offload_refused(z, world / S))
        throw InputError(mics +
                         " does not run with offload: DeepSpeed's mics.py raises \"Local sharding has no support for CPU "
                         "offloading\" when it all-reduces the gradient partitions across shard groups");
    if (z.mics_hierarchical_params_gather) {
        const std::int64_t g = std::max<std::int64_t>(s.cluster.gpus_per_node, 1);
        // mics_utils.py create_mics_comm_groups: span_nodes = shard // GPUs per node must exceed 1
        // ("sharding spans on single node, no need for hierarchy allgather") and divide the shard.
        if (S / g <= 1 || S % (S / g) != 0)
            throw InputError("mics_hierarchical_params_gather needs a shard group over at least two whole nodes (mics_shard_size " +
                             std::to_string(S) + " with " + std::to_string(g) +
                             " GPUs per node; DeepSpeed asserts \"sharding spans on single node, no need for hierarchy allgather\")");
    }
}

std::vector<std::int64_t> mics_shard_sizes(const Cluster& c) { return divisors(c.world_size()); }

Phrase mics_phrase(const MicsGroups& m) {
    if (!m.on()) return {};
    const Phrase base = phrase(QT_TRANSLATE_NOOP("Core", "model states sharded over groups of %1 GPUs, %2 replicas"),
                               {std::to_string(m.shard), std::to_string(m.replicas)});
    if (m.hierarchical)
        return phrase(QT_TRANSLATE_NOOP("Core", "%1, hierarchical gather across %2 nodes"), {base, std::to_string(m.span_nodes)});
    return base;
}

}  // namespace zp
