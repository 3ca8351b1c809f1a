#pragma once
// DeepSpeed's defaults for the keys the planner models, in one place. A ds_config that omits a
// key gets these; the planner's own starting values (the Hugging Face recommendations) are named
// separately so the two are never confused. Sources are DeepSpeed's pydantic config models:
//   deepspeed/runtime/zero/config.py          (DeepSpeedZeroConfig)
//   deepspeed/runtime/zero/offload_config.py  (DeepSpeedZeroOffloadParamConfig, ...OptimizerConfig)
// Sizes are elements (parameters), not bytes, exactly as DeepSpeed reads them.
#include <cstdint>

namespace zp::deepspeed::defaults {

// zero/config.py
inline constexpr double kReduceBucketElems = 5e8;                // reduce_bucket_size
inline constexpr double kAllgatherBucketElems = 5e8;             // allgather_bucket_size
inline constexpr double kStage3PrefetchBucketElems = 5e7;        // stage3_prefetch_bucket_size
inline constexpr double kStage3MaxLiveParameters = 1e9;          // stage3_max_live_parameters
inline constexpr double kStage3MaxReuseDistance = 1e9;           // stage3_max_reuse_distance
inline constexpr double kStage3ParamPersistenceThreshold = 1e5;  // stage3_param_persistence_threshold
inline constexpr double kSubGroupElems = 1e9;                    // sub_group_size
// overlap_comm: unset means on at stage 3 only (zero/config.py, overlap_comm_valid).
inline constexpr bool overlap_comm_for_stage(int stage) { return stage == 3; }

// engine.py: stage 0's gradient all-reduce buckets, whatever reduce_bucket_size says
// (allreduce_gradients(bucket_size=MEMORY_OPT_ALLREDUCE_SIZE) -> buffered_allreduce_fallback).
inline constexpr double kEngineAllreduceBucketElems = 5e8;

// zero/offload_config.py
inline constexpr std::int64_t kOffloadParamBufferCount = 5;      // offload_param.buffer_count
inline constexpr double kOffloadParamBufferElems = 1e8;          // offload_param.buffer_size
inline constexpr double kOffloadParamMaxInCpuElems = 1e9;        // offload_param.max_in_cpu
inline constexpr std::int64_t kOffloadOptimizerBufferCount = 4;  // offload_optimizer.buffer_count

// What changed with the release, where the planner follows it. v0.6.0 brought PR #1453 ("Various
// ZeRO Stage3 Optimizations", 2022-01): stage 3 with an offloaded optimizer keeps a 16-bit gradient
// buffer of the rank's partition on the host (stage3.py _setup_for_real_optimizer:
// grad_partitions_flat_buffer; ZeroSetup::zero3_host_gradient_buffer), and the prefetch runs down
// the parameter queue until stage3_max_live_parameters are available (ZeroSetup::
// zero3_prefetch_to_max_live; v0.5.10's prefetch_next_sub_modules kept one batch in flight).
inline constexpr bool stage3_optimizations_in(int major, int minor) { return major > 0 || minor >= 6; }
inline constexpr bool zero3_host_gradient_buffer_in(int major, int minor) { return stage3_optimizations_in(major, minor); }
inline constexpr bool zero3_prefetch_to_max_live_in(int major, int minor) { return stage3_optimizations_in(major, minor); }
// hpZ's secondary partition serves every gather once it exists since v0.13.2 (PR #4906, 75ed63c94);
// before, only the backward hooks' (ZeroSetup::hpz_in_recompute).
inline constexpr bool hpz_in_recompute_in(int major, int minor, int patch) {
    return major > 0 || minor > 13 || (minor == 13 && patch >= 2);
}
// ZeRO-1/2 gradient buckets are all-reduced whole since v0.12.4 (PR #4695, 2afa1c7f2:
// use_multi_rank_bucket_allreduce, default true); before, each was reduced to its owners one
// dist.reduce at a time (ZeroSetup::multi_rank_bucket_allreduce).
inline constexpr bool multi_rank_bucket_allreduce_in(int major, int minor, int patch) {
    return major > 0 || minor > 12 || (minor == 12 && patch >= 4);
}

}  // namespace zp::deepspeed::defaults

namespace zp::deepspeed::recommended {

// Hugging Face's recommended ZeRO-2 config (transformers docs, "DeepSpeed" guide, ZeRO-2 example):
// reduce/allgather buckets of 2e8 with overlap_comm on, which the planner starts from because
// DeepSpeed's 5e8 with overlap_comm costs 9 GB of buffers (see core/memory/buffers.h).
inline constexpr double kBucketElems = 2e8;
// The smallest bucket the recommender tries, and the linter's "too small" threshold.
inline constexpr double kSmallBucketElems = 5e7;
// stage3_max_live_parameters for a ZeRO-3 run short of memory in its forward or backward. The
// Hugging Face DeepSpeed guide (transformers docs, ZeRO-3): "Reduce this value if you encounter an
// OOM error"; how far is the planner's choice, a tenth of DeepSpeed's 1e9: what `diagnose`
// proposes. The window's "Live parameters" offers kLiveParameterChoices (largest first, DeepSpeed's
// default at the top).
inline constexpr double kFewLiveParameters = 1e8;
inline constexpr double kLiveParameterChoices[] = {defaults::kStage3MaxLiveParameters, 5e8, 2e8, kFewLiveParameters, 5e7};

}  // namespace zp::deepspeed::recommended
