#pragma once
// How Megatron-DeepSpeed's tensor and pipeline parallelism (Scenario::parallel) divide the model
// among the ranks: the parameters on the most loaded rank, what ZeRO then partitions over the
// data-parallel ranks (docs/design.md §4.11).
#include "core/base/phrase.h"
#include "core/model/scenario.h"
#include "core/model/trainable_params.h"

#include <cstdint>
#include <string>
#include <vector>

namespace zp {

// The share of the model's parameters on the most loaded rank: the pipeline stage with the
// input embedding (the first) or with the output layer (the last; with tied embeddings and more
// than one stage a second copy of the word embedding, Megatron's shared embedding group), its
// transformer layers L/p, all divided by the tensor-parallel size (column/row-parallel linears,
// vocabulary-parallel embedding; the layer norms, replicated, are neglected). 1 without model parallelism.
// With Parallelism::pipeline_rank set, that stage's share instead.
double model_parallel_share(const Scenario& s);

// The transformer layers of pipeline stage `stage` (0-based) of `pipeline`: DeepSpeed's
// partition_uniform (deepspeed/runtime/utils.py), floor(L/p) each and one more on each of the
// first L mod p stages.
std::int64_t stage_layers(std::int64_t layers, std::int64_t pipeline, std::int64_t stage);

// 1 and every divisor of n above it, smallest first ({1} for n <= 1).
std::vector<std::int64_t> divisors(std::int64_t n);

// The sizes a node's GPUs split into: 1 and every divisor of gpus_per_node (hpZ groups).
std::vector<std::int64_t> node_group_sizes(const Cluster& c);
// The tensor-parallel sizes validate_parallelism accepts for `s`: node group sizes that split the
// attention (tensor_splits_attention).
std::vector<std::int64_t> tensor_parallel_sizes(const Scenario& s);

// The DeepSpeed-Ulysses degrees for `s`: divisors of the GPUs that divide the heads, 1 first
// (validate_ulysses checks the rest: key/value heads, the sequence, no tensor or pipeline).
std::vector<std::int64_t> ulysses_degrees(const Scenario& s);
// The expert-parallel sizes for `m`: the divisors of its routed experts (1 alone for a dense
// model; validate_experts checks that a size divides the data-parallel ranks).
std::vector<std::int64_t> expert_parallel_sizes(const ModelSpec& m);

// "tensor 4 x pipeline 12 x data 8" (with ", sequence parallel", ", 2 virtual stages"), or with
// DeepSpeed-Ulysses "sequence 4 x data 2"; empty without model or sequence parallelism.
std::string layout_words(const Scenario& s);
Phrase layout_phrase(const Scenario& s);  // layout_words, translatable (empty text where it is empty)
// What the batch is multiplied by: "384 GPUs", or "8 data-parallel groups of 48 GPUs".
std::string data_parallel_words(const Scenario& s);
Phrase data_parallel_phrase(const Scenario& s);  // data_parallel_words, translatable

// parameter_split(s) on the most loaded rank (every field times model_parallel_share).
ParameterSplit rank_parameter_split(const Scenario& s);

// Where a rank sits in the t x d x p grid. Megatron-DeepSpeed's order (megatron/mpu/initialize.py,
// initialize_model_parallel's 16-GPU example; DeepSpeed's PipeModelDataParallelTopology, axes
// pipe, data, model): tensor-parallel ranks consecutive, then data-parallel, pipeline outermost,
// rank = pp * (t d) + dp * t + tp. Ranks fill the nodes in order (gpus_per_node per node).
// DeepSpeed-Ulysses' u ranks are consecutive inside a data-parallel slot (parallel_state_sp.py and
// Megatron-DeepSpeed's parallel_state.py: sequence group i is ranks i*u .. (i+1)*u - 1; there
// t = p = 1): rank = pp * (t u d) + dp * (t u) + sp * t + tp.
struct RankCoordinates {
    std::int64_t tp = 0, dp = 0, pp = 0, sp = 0;
    friend bool operator==(const RankCoordinates&, const RankCoordinates&) = default;
};
RankCoordinates rank_coordinates(const Scenario& s, std::int64_t rank);
std::int64_t node_of_rank(const Scenario& s, std::int64_t rank);

// Which links a group's traffic takes: none (the group is the rank alone), NVLink inside a node,
// or the network between nodes.
enum class GroupLink { None, IntraNode, InterNode };
struct GroupLinks {
    GroupLink tensor = GroupLink::None;    // the all-reduces of every layer (Shoeybi et al. Sec. 3)
    GroupLink data = GroupLink::None;      // ZeRO's gradient reduction and parameter gathers (over data x Ulysses ranks)
    GroupLink pipeline = GroupLink::None;  // point-to-point sends to the neighbouring stages
    GroupLink sequence = GroupLink::None;  // DeepSpeed-Ulysses' all-to-alls of every attention layer
    GroupLink expert = GroupLink::None;    // DeepSpeed-MoE's dispatch and combine all-to-alls of every MoE layer
    friend bool operator==(const GroupLinks&, const GroupLinks&) = default;
};
// The ranks of `rank`'s DeepSpeed-Ulysses sequence-parallel group, lowest first: DeepSpeed's
// initialize_sequence_parallel (runtime/sequence_parallel/parallel_state_sp.py; Megatron-DeepSpeed's
// parallel_state.py the same), group i is ranks i*u .. (i+1)*u - 1, in the grid above the ranks
// sharing every coordinate but sp. {rank} alone without Ulysses.
std::vector<std::int64_t> ulysses_group_ranks(const Scenario& s, std::int64_t rank);
// The ranks of `rank`'s expert-parallel group, lowest first: DeepSpeed's _get_expert_parallel_ranks
// (deepspeed/utils/groups.py, used with Megatron's mpu; _create_expert_and_data_parallel's legacy
// path the same without tensor parallelism): the rank's data-parallel group (same tensor rank and
// stage) cut into blocks of ep_size consecutive members, so ranks t apart. {rank} alone without
// expert parallelism (uses_expert_parallelism).
std::vector<std::int64_t> expert_group_ranks(const Scenario& s, std::int64_t rank);

// The links of `rank`'s tensor-parallel group, data-parallel group and pipeline neighbours (the
// previous and next stage; with virtual stages the last stage also sends to the first, Megatron's
// interleaved schedule passing the next model chunk around the ring).
GroupLinks rank_links(const Scenario& s, std::int64_t rank);
// Over every rank: a kind crosses the network when any rank's group of that kind does.
GroupLinks layout_links(const Scenario& s);
// layout_links(s).sequence without the walk over the ranks (the step time asks it per estimate):
// Ulysses groups are blocks of u consecutive ranks, so one crosses a node unless u divides the
// GPUs per node.
GroupLink ulysses_link(const Scenario& s);
// What the data-parallel group exchanges each step at the scenario's ZeRO stage (DeepSpeed's
// engine: an all-reduce of the gradients at stage 0; stage_1_and_2.py's reduce-scatter of the
// gradients and all-gather of the updated partitions; stage3.py's parameter all-gathers in the
// forward and backward passes and the gradients' reduce-scatter).
const char* data_parallel_traffic(const Scenario& s);

}  // namespace zp
