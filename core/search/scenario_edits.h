#pragma once
// Named transformations of a Scenario: the one place that says what "apply this setup",
// "apply the recommended plan" and "use N GPUs" change. The window, the command line, the
// exports and the tests all go through these instead of assigning fields by hand.
#include "core/search/recommender.h"

#include <cstdint>

namespace zp {

// The stage and offload devices of `k`; buckets and every other field unchanged.
Scenario with_setup(const Scenario& s, const SetupKey& k);
// The same edit in place (the search's inner loop: no copy of the scenario).
void apply_setup(ZeroSetup& z, const SetupKey& k);
inline Scenario with_setup(const Scenario& s, const ZeroSetup& z) { return with_setup(s, setup_key(z)); }

// The whole candidate: its engine, zero_optimization block, micro batch, recompute policy, and the
// global batch it stands for (micro x accumulation x GPUs), so an export states what was planned.
Scenario with_candidate(const Scenario& s, const Candidate& c);

// The scenario with a GPU count: nodes of min(count, node size) GPUs. Throws InputError when
// the count does not split into whole nodes.
Scenario with_gpu_count(const Scenario& s, std::int64_t gpus, std::int64_t node_size);

// The scenario on nodes like `node` (a cluster preset's one node: GPU, links, network, host):
// `gpus` GPUs when they fill whole nodes or part of one, otherwise the nearest whole number of
// nodes (24 GPUs on DGX-2s of 16 become 2 nodes, 32 GPUs). Everything outside the cluster is kept,
// with the group sizes with_gpu_count keeps.
Scenario with_node(const Scenario& s, const Cluster& node, std::int64_t gpus);

// The scenario on GPU `gpu`. On a node as a preset sets it (cluster_preset_of) and that preset is
// not already built on `gpu`, the GPU's usual node (usual_node, core/presets/cluster_presets.h)
// with the same GPU count, so a workstation GPU does not keep a DGX's 2 TiB of RAM and 1600
// Gbit/s; on an edited node, or a GPU no preset has, only the GPU (and its links) change. Here and
// in with_node a bf16 plan becomes fp16 on a GPU without bf16 tensor cores (precision_for_gpu,
// core/presets/gpu_presets.h): what runs there at tensor-core speed; an FSDP model loaded in bf16
// (pure) becomes fp32 shards under fp16 MixedPrecision (pure fp16 is refused: validate_fsdp).
Scenario with_gpu(const Scenario& s, const GpuSpec& gpu);

// The scenario under `engine` (core/model/engine.h). Moving to PyTorch FSDP drops what FSDP does not
// have, so the plan stays one FSDP runs (validate_fsdp): ZeRO++ (and its "auto"), MiCS, tensor,
// pipeline, expert and Ulysses ranks and their searches; ZeRO-1 becomes SHARD_GRAD_OP (stage 2);
// NVMe or an optimizer-only offload becomes CPUOffload at FULL_SHARD; FSDP2 at stage 0 becomes
// stage 2. Back to DeepSpeed the engine changes and FSDP's hybrid sharding goes off.
Scenario with_engine(const Scenario& s, Engine engine);

}  // namespace zp
