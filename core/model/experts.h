#pragma once
// DeepSpeed-MoE expert parallelism (Parallelism::expert, DeepSpeed's ep_size; docs/design.md §4.12):
// which routed experts a rank holds, the group ZeRO partitions them over, the token capacity of
// an expert, and the all-to-alls that carry tokens to the experts and back.
//
// Sources (read, not copied):
//   deepspeed/moe/layer.py       MoE(num_experts, ep_size, k, capacity_factor=1.0, min_capacity=4,
//                                use_residual, drop_tokens=True): num_local_experts = num_experts /
//                                ep_size, asserted to divide.
//   deepspeed/moe/sharded_moe.py _capacity: ceil(tokens / experts x capacity_factor), at least
//                                min_capacity, where top-k gating passes capacity_factor x k
//                                (top2gating, topkgating); MOELayer.forward dispatches an
//                                (experts, capacity, hidden) tensor with one _AllToAll over the
//                                expert-parallel group, runs the local experts, and sends the
//                                outputs back with a second one; _AllToAll.backward is an
//                                all-to-all again. With tensor parallelism drop_tokens splits the
//                                capacity dimension over the tensor-parallel ranks first.
//   deepspeed/utils/groups.py    _create_expert_and_data_parallel: expert-parallel groups of ep_size
//                                consecutive data-parallel ranks, expert-data-parallel groups of the
//                                ranks holding the same experts (data-parallel size / ep_size of them);
//                                _ensure_divisibility(dp_world_size, ep_size).
//   runtime/zero/stage_1_and_2.py _configure_moe_settings: a parameter group marked 'moe'
//                                (moe/utils.py split_params_into_different_moe_groups_for_optimizer)
//                                is partitioned and reduced over the expert-data-parallel group.
//   runtime/engine.py            _validate_zero3_moe_compatibility: "Native DeepSpeed MoE is not
//                                supported with ZeRO Stage 3".
//   Rajbhandari et al. 2022 (DeepSpeed-MoE, arXiv 2201.05596) Sec. 5 and Lepikhin et al. 2020
//   (GShard, arXiv 2006.16668) Algorithm 2: dispatch and combine are all-to-alls of the
//   capacity-shaped token tensor.
#include "core/model/scenario.h"
#include "core/model/trainable_params.h"

#include <cstdint>
#include <string>

namespace zp {

namespace deepspeed_moe {
inline constexpr std::int64_t kMinCapacity = 4;   // MoE(min_capacity=4); Megatron-DeepSpeed --moe-min-capacity 4
inline constexpr double kCapacityFactor = 1.0;    // MoE(capacity_factor=1.0); --moe-train-capacity-factor 1.0
inline constexpr double kMaxCapacityFactor = 64;  // the planner's bound: beyond, every expert takes every token
}  // namespace deepspeed_moe

// DeepSpeed's MoE layer with ep_size > 1 on a model with routed experts (inline: every estimate asks).
inline bool uses_expert_parallelism(const Scenario& s) { return s.parallel.expert > 1 && s.model.experts > 1; }

// The routed experts unsliced on every tensor-parallel rank: Megatron-DeepSpeed builds DeepSpeed's
// MoE layer for any model with routed experts (megatron/model/transformer.py: MoE(...,
// ParallelMLP(moe=True)) at every --moe-expert-parallel-size, ep_size 1 included), and its expert
// linears are not tensor-parallel unless enable_expert_tensor_parallelism (core/tensor_parallel/
// layers.py ColumnParallelLinear: moe and not enable_expert_tensor_parallelism -> world_size 1,
// is_expert_without_slicing). With expert parallelism, or with tensor parallelism alone in full
// training (expert parallelism is planned for full training only, validate_experts; adapters or
// frozen layers over a tensor-parallel mixture keep the sliced count: not modelled).
inline bool experts_whole_on_tensor_ranks(const Scenario& s) {
    if (s.model.experts <= 1) return false;
    if (s.parallel.expert > 1) return true;
    return s.parallel.tensor > 1 && !s.finetune.adapters() && s.finetune.freeze_layers == 0 && !s.finetune.freeze_embeddings;
}

// What a pipeline stage sends between stages (Parallelism::pipeline_send), as the run does it: a
// mixture sends each activation whole whenever tensor parallelism would slice it. Megatron-DeepSpeed's
// GPTModelPipe passes the aggregated MoE auxiliary loss, which needs a gradient, beside the activation
// and asserts DeepSpeed's pipeline.pipe_partitioned and grad_partitioned off for a MoE model with
// tensor and pipeline parallelism (megatron/model/gpt_model.py, "Pipe and/or Grad partitioning are not
// supported for MoE model", since #373, 2024-04); DeepSpeed partitions only the first output and
// asserts the rest need no gradient (runtime/pipe/engine.py). Otherwise the scenario's choice.
inline PipelineSend effective_pipeline_send(const Scenario& s) {
    const Parallelism& p = s.parallel;
    if (s.model.experts > 1 && p.pipeline > 1 && p.tensor > 1) return PipelineSend::Whole;
    return p.pipeline_send;
}

// Whether DeepSpeed's pipeline must be told to send whole (pipeline.pipe_partitioned and
// grad_partitioned false in the ds_config): tensor and pipeline parallelism with a whole send, where
// DeepSpeed would slice (without Megatron's sequence parallelism, whose output is already a slice;
// a mixture needs the switches whatever, as GPTModelPipe asserts them).
inline bool pipeline_sends_whole_over_tensor_ranks(const Scenario& s) {
    const Parallelism& p = s.parallel;
    if (p.pipeline <= 1 || p.tensor <= 1 || effective_pipeline_send(s) != PipelineSend::Whole) return false;
    return !p.sequence_parallel || s.model.experts > 1;
}

// Routed experts per MoE layer on each rank: experts / ep_size (num_local_experts).
std::int64_t local_experts(const Scenario& s);
// The ranks holding the same experts, over which ZeRO partitions and reduces them: DP / EP.
std::int64_t expert_data_parallel_size(const Scenario& s);
// Every MoE layer's routed experts (shared experts and routers excluded), in parameters.
double routed_expert_params(const ModelSpec& m);

// sharded_moe.py _capacity for top-k gating: ceil(tokens / experts x capacity_factor x k), at
// least min_capacity.
std::int64_t expert_capacity(std::int64_t tokens, std::int64_t experts, std::int64_t k, double capacity_factor,
                             std::int64_t min_capacity = deepspeed_moe::kMinCapacity);

// One MoE layer on one rank, one micro batch.
struct ExpertRouting {
    std::int64_t tokens = 0;    // the rank's tokens: sequence x micro batch
    std::int64_t capacity = 0;  // per expert (expert_capacity)
    double capacity_slots = 0;  // experts x capacity: rows of the dispatched tensor, and of the expert GEMMs a rank runs
    double routed = 0;          // tokens x k: the assignments the gate makes
    // Of the assignments, the share over capacity even with perfectly balanced routing (a
    // capacity factor below 1): DeepSpeed drops them (drop_tokens=True) and the token skips that
    // expert (the residual connection carries it). Imbalanced routing drops more.
    double dropped_share = 0;
};
ExpertRouting expert_routing(const Scenario& s);

// The routed-expert rows a token costs in the experts' GEMMs and activations: slots / tokens with
// expert parallelism (capacity-padded, so capacity_factor x k when it divides), else experts_per_token
// (the model's own dropless MoE block).
double routed_slots_per_token(const Scenario& s);
double routed_slots_per_token(const ModelSpec& m, const Training& t, const Parallelism& p);

// The elements of ZeRO's partition on a rank (ZeRO-1/2/3): the dense trainable parameters over the
// data-parallel ranks (MiCS: its shard group), the routed experts the rank holds (split.expert) over the expert-data-
// parallel group; the whole split.trainable at stage 0.
double zero_partition_elems(const Scenario& s, const ParameterSplit& split);
// The ranks ZeRO effectively partitions `split.trainable` over: trainable / zero_partition_elems
// (data_parallel_size without expert parallelism), for the formulas written as P / N.
double zero_partition_ranks(const Scenario& s, const ParameterSplit& split);

// One all-to-all of one MoE layer: the bytes a rank sends to the other EP - 1 ranks of its group,
// (EP-1)/EP of its (experts, capacity / TP, hidden) tensor in the activation dtype. 0 without EP.
double all_to_all_bytes(const Scenario& s);
// All-to-alls per MoE layer and micro step: dispatch and combine in the forward, their two
// gradients in the backward, and the forward's two again when full recompute re-runs the layer.
int all_to_alls_per_layer(const Scenario& s);
// Whether the expert-parallel groups lie inside a node: tensor x EP consecutive ranks (the rank
// order of rank_coordinates) fit a node when their span divides it, or on one node.
bool expert_group_inside_node(const Scenario& s);

// Throws InputError naming the broken constraint: experts on the model, EP divides the routed
// experts and the data-parallel size, no ZeRO-3, full training of every layer, the capacity factor.
void validate_experts(const Scenario& s);

// "capacity 1,024 tokens per expert (factor 1.0), none dropped with balanced routing": one line for
// the reports; empty without expert parallelism.
std::string expert_routing_words(const Scenario& s);

}  // namespace zp
