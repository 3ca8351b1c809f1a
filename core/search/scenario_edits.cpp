#include "core/search/scenario_edits.h"

#include "core/base/errors.h"
#include "core/model/limits.h"
#include "core/presets/cluster_presets.h"
#include "core/presets/gpu_presets.h"

#include <algorithm>
#include <numeric>
#include <string>

namespace zp {

void apply_setup(ZeroSetup& z, const SetupKey& k) {
    z.stage = k.stage;
    z.offload_optimizer = k.offload_optimizer;
    z.offload_param = k.offload_param;
}

Scenario with_setup(const Scenario& s, const SetupKey& k) {
    Scenario out = s;
    apply_setup(out.zero, k);
    return out;
}

Scenario with_candidate(const Scenario& s, const Candidate& c) {
    Scenario out = s;
    out.fsdp.engine = c.engine;
    out.fsdp.hybrid_shard = c.hybrid_shard;
    out.zero = c.zero;
    out.parallel = c.parallel;
    out.training.micro_batch = c.micro_batch;
    out.training.checkpointing = c.checkpointing;
    out.training.global_batch = c.micro_batch * c.gradient_accumulation_steps * data_parallel_size(out);  // the batch rule's ranks
    return out;
}

Scenario with_gpu_count(const Scenario& s, std::int64_t gpus, std::int64_t node_size) {
    if (gpus < 1 || node_size < 1) throw InputError("the GPU count and the GPUs per node must be at least 1");
    const std::int64_t per_node = std::min(gpus, node_size);
    if (gpus % per_node != 0)
        throw InputError(std::to_string(gpus) + " GPUs do not split into nodes of " + std::to_string(per_node) + " GPUs");
    Scenario out = s;
    out.cluster.gpus_per_node = per_node;
    out.cluster.nodes = gpus / per_node;
    // ZeRO++ hpZ groups the ranks of a node: on other nodes it keeps the largest group that divides
    // both (8 on nodes of 4 becomes 4).
    out.zero.hpz_partition_size = std::gcd(std::max<std::int64_t>(out.zero.hpz_partition_size, 1), per_node);
    // MiCS shard groups must divide the GPUs (mics_utils.py _generate_mics_config): the largest that still does.
    out.zero.mics_shard_size = std::gcd(std::max<std::int64_t>(out.zero.mics_shard_size, 1), gpus);
    const std::int64_t span = out.zero.mics_shard_size / per_node;  // its hierarchical gather needs two whole nodes or more
    if (span <= 1 || out.zero.mics_shard_size % span != 0) out.zero.mics_hierarchical_params_gather = false;
    // Tensor parallelism stays inside a node and the layout must divide the GPUs: each size keeps
    // its largest divisor that still fits (tensor 8 on nodes of 4 becomes 4).
    Parallelism& par = out.parallel;
    par.tensor = std::gcd(std::max<std::int64_t>(par.tensor, 1), per_node);
    par.pipeline = std::gcd(std::max<std::int64_t>(par.pipeline, 1), gpus / par.tensor);
    if (par.pipeline < 2) par.virtual_stages = 1;
    // Ulysses keeps a degree that divides the GPUs, experts one that divides the data-parallel ranks.
    par.ulysses = std::gcd(std::max<std::int64_t>(par.ulysses, 1), gpus);
    par.expert = std::gcd(std::max<std::int64_t>(par.expert, 1), data_parallel_size(out));
    return out;
}

namespace {
// The precision on a GPU (precision_for_gpu: bf16 becomes fp16 without bf16 tensor cores); an FSDP
// model loaded in 16 bits (pure) cannot be fp16 (validate_fsdp), so it keeps fp32 shards under
// MixedPrecision there, what the Trainer's fp16 builds.
void use_precision_of(Scenario& out, const GpuSpec& gpu) {
    out.training.precision = precision_for_gpu(out.training.precision, gpu);
    if (is_fsdp(out.fsdp) && out.fsdp.precision == FsdpPrecision::Pure && out.training.precision == Precision::Fp16)
        out.fsdp.precision = FsdpPrecision::Mixed;
}
}  // namespace

Scenario with_node(const Scenario& s, const Cluster& node, std::int64_t gpus) {
    // A count below 1 falls through to with_gpu_count, which refuses it.
    const std::int64_t per_node = std::max<std::int64_t>(node.gpus_per_node, 1);
    std::int64_t count = gpus;
    if (gpus > per_node && gpus % per_node != 0) {
        const std::int64_t nodes = std::max<std::int64_t>(1, (gpus + per_node / 2) / per_node);
        count = std::min(nodes, limits::kWorldSize.max / per_node) * per_node;
    }
    Scenario out = s;
    out.cluster = node;
    use_precision_of(out, node.gpu);
    return with_gpu_count(out, count, per_node);
}

Scenario with_gpu(const Scenario& s, const GpuSpec& gpu) {
    const ClusterPreset* current = cluster_preset_of(s.cluster);
    if (current && current->cluster.gpu.name != gpu.name)
        if (const ClusterPreset* node = usual_node(gpu.name, s.cluster.world_size()))
            return with_node(s, node->cluster, s.cluster.world_size());
    Scenario out = s;
    out.cluster.use_gpu(gpu);
    use_precision_of(out, gpu);
    return out;
}

Scenario with_engine(const Scenario& s, Engine engine) {
    Scenario out = s;
    out.fsdp.engine = engine;
    if (!is_fsdp(out.fsdp)) {
        out.fsdp.hybrid_shard = false;  // FSDP's (validate_fsdp); DeepSpeed's counterpart is MiCS
        return out;
    }
    ZeroSetup& z = out.zero;
    z.hpz_partition_size = 1;
    z.quantized_weights = z.quantized_gradients = false;
    z.auto_zeropp = false;
    z.mics_shard_size = 1;
    z.mics_hierarchical_params_gather = false;
    Parallelism& p = out.parallel;
    p.tensor = p.pipeline = p.virtual_stages = p.expert = p.ulysses = 1;
    p.sequence_parallel = false;
    p.auto_tensor = p.auto_pipeline = p.auto_expert = p.auto_ulysses = false;
    if (z.stage == 1 || (engine == Engine::Fsdp2 && z.stage == 0)) z.stage = 2;
    if (z.offload_optimizer != OffloadDevice::None || z.offload_param != OffloadDevice::None) {
        z.stage = 3;
        z.offload_optimizer = z.offload_param = OffloadDevice::Cpu;
    }
    return out;
}

}  // namespace zp
