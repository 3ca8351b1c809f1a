#pragma once
// The engine a plan runs under: DeepSpeed's ZeRO or PyTorch's FullyShardedDataParallel, and the
// FSDP settings that change memory or time. FSDP's sharding strategy is the ZeRO stage it equals
// (torch/distributed/fsdp/api.py ShardingStrategy): FULL_SHARD is stage 3, SHARD_GRAD_OP stage 2,
// NO_SHARD stage 0 (DDP); FSDP has no optimizer-only sharding (stage 1). FSDP2's fully_shard
// (torch/distributed/fsdp/_fully_shard/_fully_shard.py) says the same with reshard_after_forward:
// True is stage 3, False stage 2. CPUOffload(offload_params=True) is offload_param and
// offload_optimizer on the CPU together (the sharded parameters and gradients live on the host and
// torch.optim steps them there); FSDP has no NVMe tier. HYBRID_SHARD is FULL_SHARD (stage 3) or
// SHARD_GRAD_OP (stage 2, _HYBRID_SHARD_ZERO2) inside each node, replicated across the nodes
// (FsdpSetup::hybrid_shard).
namespace zp {

enum class Engine { DeepSpeed, Fsdp, Fsdp2 };

// FSDP2's words for a sharded stage: fully_shard's reshard_after_forward, True at stage 3 (its
// default, FULL_SHARD's), False at stage 2 (SHARD_GRAD_OP's).
inline const char* reshard_after_forward_argument(int stage) {
    return stage == 3 ? "reshard_after_forward=True" : "reshard_after_forward=False";
}

// The dtypes FSDP keeps and computes in, as people set them:
//   Mixed     fp32 model (the sharded FlatParameter in fp32) with MixedPrecision(param_dtype =
//             reduce_dtype = buffer_dtype = the training precision): what transformers' Trainer
//             (--fsdp with --bf16/--fp16) and Accelerate (mixed_precision with FSDP) build. The
//             optimizer steps the fp32 shard, which is the master copy.
//   Autocast  fp32 model, no MixedPrecision policy, forward under torch.autocast: parameters are
//             gathered in fp32 and cast per op; the residual stream stays fp32.
//   Pure      the model loaded in the training dtype (torch_dtype=bfloat16) and no policy:
//             parameters, gradients and torch.optim's states are all 16-bit (Answer.AI fsdp_qlora's
//             "bf16" precision).
enum class FsdpPrecision { Mixed, Autocast, Pure };

struct FsdpSetup {
    Engine engine = Engine::DeepSpeed;
    FsdpPrecision precision = FsdpPrecision::Mixed;
    // limit_all_gathers (torch >= 2.1 default): at most two units' all-gathers in flight, so two
    // units' unsharded parameters at a time; off, the CPU can run further ahead (modelled as three).
    bool limit_all_gathers = true;
    // Gradient accumulation's micro steps other than the last run under no_sync (transformers'
    // Trainer and Accelerate's accumulate(): Accelerator.no_sync -> FSDP1 model.no_sync, FSDP2
    // set_requires_gradient_sync(False)) unless GradientAccumulationPlugin(sync_each_batch=True)
    // (Accelerate PR #2531; the Trainer's accelerator_config gradient_accumulation_kwargs) says to
    // reduce every micro step. Off (the libraries' default): each rank keeps the whole model's
    // unsharded gradient from the first micro step to the last (fsdp_memory.h
    // fsdp_accumulates_unsharded_gradients) and reduce-scatters once a step.
    bool sync_each_batch = false;
    // HYBRID_SHARD (stage 3) and _HYBRID_SHARD_ZERO2 (stage 2): FSDP1 shards over the node's GPUs
    // and replicates across nodes (fully_sharded_data_parallel.py ShardingStrategy;
    // _init_utils.py _init_intra_and_inter_node_groups: the intra-node group is the node's
    // torch.cuda.device_count() ranks); FSDP2 the same with a 2-D mesh (replicate, shard), which
    // Accelerate builds from ParallelismConfig(dp_replicate_size, dp_shard_size). MiCS's layout with
    // the node as its shard group (core/model/mics.h replicated_shard_groups). Off, the recommender
    // plans FSDP across nodes both ways and keeps the faster; on, it keeps to hybrid sharding.
    bool hybrid_shard = false;
    // "auto": the recommender searches DeepSpeed and FSDP (this precision) and keeps the faster plan
    // that fits (recommend_engines in core/search/recommender.cpp); estimate and compare take
    // `engine` as it is.
    bool auto_engine = false;
    // Whether FSDP's full recompute stops once a block's saved tensors are back: FSDP's own
    // checkpointing (Accelerate's fsdp_activation_checkpointing, Composer's
    // activation_checkpointing_reentrant: false, torchtitan v0.1) wraps each block in
    // checkpoint_wrapper with CheckpointImpl.NO_REENTRANT, whose recompute stops early from torch 2.1
    // (torch.utils.checkpoint early stop, PR #96866): what the planner's FSDP exports run. False: a
    // run whose recompute re-runs the whole block: re-entrant checkpointing (Answer.AI fsdp_qlora's
    // --reentrant_checkpointing, transformers' gradient_checkpointing_enable before 5.0), torch before
    // 2.1, torchtitan from v0.2 (early_stop=False, #1580). Set only by a measured run's case.
    bool checkpoint_early_stop = true;

    friend bool operator==(const FsdpSetup&, const FsdpSetup&) = default;
};

inline bool is_fsdp(const FsdpSetup& f) { return f.engine != Engine::DeepSpeed; }

}  // namespace zp
