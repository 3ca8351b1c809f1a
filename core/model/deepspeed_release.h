#pragma once
// The DeepSpeed release a run uses, where its behaviour changes what the planner models: the
// ZeroSetup fields that are no config key but the release's code (deepspeed_defaults.h says which
// release brought each). `validate` reads it from a case's "deepspeed_version", the command line
// from --deepspeed-release.
#include "core/model/scenario.h"

#include <array>
#include <optional>
#include <string>
#include <string_view>

namespace zp {

struct DeepSpeedRelease {
    int major = 0, minor = 0, patch = 0;
};

// "0.3", "0.14.2" (a release without a patch reads as .0); nullopt for anything else ("latest",
// "0.12.x", "0.12.4rc1", "0.12.4.1").
std::optional<DeepSpeedRelease> parse_deepspeed_release(std::string_view text);

// Sets zero3_host_gradient_buffer, multi_rank_bucket_allreduce, zero3_prefetch_to_max_live and
// hpz_in_recompute as `release` behaves.
void apply_deepspeed_release(ZeroSetup& z, const DeepSpeedRelease& release);

// Whether those four fields of `z` are what `release` sets.
bool follows_release(const ZeroSetup& z, const DeepSpeedRelease& release);

// The first release with each thing a plan may use or its ds_config may hold (deepspeedai/DeepSpeed
// tags; each one's commit). Releases from v0.7.0 refuse a key their pydantic models do not know in
// zero_optimization and its offload blocks, from v0.17.1 in bf16 and fp16 ("extra fields not
// permitted"; runtime/config_utils.py DeepSpeedConfigModel); older ones ignore it.
namespace release_firsts {
inline constexpr DeepSpeedRelease kZero3{0, 3, 12};  // 599258f97 "ZeRO 3 Offload" (#834); before: "Maximum supported ZeRO stage is 2"
inline constexpr DeepSpeedRelease kOffloadBlocks{0, 3, 15};   // 0d4a54a04 "ZeRO-Infinity" (#976): offload_optimizer and offload_param
inline constexpr DeepSpeedRelease kGather16bitName{0, 6, 0};  // 4912e0ad7: stage3_gather_16bit_weights_on_model_save (v0.3.14: _fp16_)
inline constexpr DeepSpeedRelease kGatherFp16Name{0, 3, 14};  // 39013dd2b: stage3_gather_fp16_weights_on_model_save
inline constexpr DeepSpeedRelease kBf16{0, 6, 0};             // 4912e0ad7: the bf16 block (earlier releases ignore it: fp32)
inline constexpr DeepSpeedRelease kZeroWithoutFp16{0, 4, 0};  // cfa63f5da (#1042): before, "ZeRO is only supported if fp16 is enabled"
inline constexpr DeepSpeedRelease kBf16AtStage0{0, 6, 2};     // 56c522386 (#1801): before, "bfloat16 mode is only enabled for Zero 1,2,3"
inline constexpr DeepSpeedRelease kGradAccumDtype{0, 8, 1};   // 4be8df721: BF16_Optimizer at ZeRO-1 (v0.7.6-v0.8.0 NotImplementedError)
inline constexpr DeepSpeedRelease kMics{0, 9, 2};             // 2e99f6edf: mics_shard_size
inline constexpr DeepSpeedRelease kZeropp{0, 10, 0};          // d18aa2c79 "ZeRO++" (#3784)
inline constexpr DeepSpeedRelease kLion{0, 11, 0};            // 8e64c3b55: the Lion optimizer block
inline constexpr DeepSpeedRelease kMultiRankAllreduce{0, 12, 4};   // 2afa1c7f2 (#4695): use_multi_rank_bucket_allreduce
inline constexpr DeepSpeedRelease kAllgatherIntoTensor{0, 12, 4};  // fd0a52c1a: ZeRO-1/2 all-gather into the flat buffer (runtime/utils.py)
inline constexpr DeepSpeedRelease kUlyssesKey{0, 17, 0};           // 4d00b38ad: sequence_parallel_size alone in the batch rule
inline constexpr DeepSpeedRelease kBf16MasterWeights{0, 18, 3};    // 39a682d79 (#7700): bf16_master_weights_and_grads
// The first release after torch 2.1 (2023-10-04), whose non-reentrant checkpoint stops its recompute
// early (PR #96866): v0.11.0, 2023-10-06 (v0.10.3, 2023-09-11, predates it); a run pinned to an
// older release is taken to recompute whole (scenario.cpp recompute_stops_early_at_full).
inline constexpr DeepSpeedRelease kTorchEarlyStop{0, 11, 0};
// a31eb3165 (#8148): ZeRO-3 keeps a frozen weight whole through a non-reentrant checkpoint's recompute.
inline constexpr DeepSpeedRelease kZero3FrozenRecompute{0, 19, 3};
}  // namespace release_firsts

// Whether `r` is `first` or later.
bool at_least(const DeepSpeedRelease& r, const DeepSpeedRelease& first);
// The release Scenario::deepspeed_release names, nullopt for today's ("").
std::optional<DeepSpeedRelease> scenario_release(const Scenario& s);
// Whether the run's release has `first`'s feature: true for today's.
bool release_has(const Scenario& s, const DeepSpeedRelease& first);
// "0.12.3" for "0.12.3" and "0.12" (a release without a patch reads as .0).
std::string release_text(const DeepSpeedRelease& r);

// Whether the plan's recompute must re-enter (torch.utils.checkpoint use_reentrant=True) to run on its
// release: ZeRO-3 with a frozen weight inside the checkpointed blocks (FineTune::freezes_block_weights:
// adapters' frozen base, frozen layers) on DeepSpeed before v0.19.3. There the recompute re-fires
// ZeRO-3's forward hooks, whose release partitions each weight in place (param.data =
// torch.empty(0)), and non-reentrant checkpointing holds a frozen weight it saves by reference, not
// detached: backward fails with "CheckpointError: Recomputed values
// ... have different metadata ... saved {'shape': [N]} vs recomputed {'shape': [0]}" (DeepSpeed
// #4332, transformers #47254; fixed by DeepSpeed #8148 in v0.19.3). Non-reentrant is the Trainer's
// default from transformers 5.0 (PR #43203) and what the exports write unless asked; TRL forces
// re-entrant for PEFT + ZeRO-3 meanwhile (TRL #4951, #6356).
bool recompute_must_reenter(const Scenario& s);

// Throws InputError naming what the plan uses that its release (Scenario::deepspeed_release) does
// not have, the release that brought it and what to do; nothing for today's release or PyTorch FSDP.
void check_release_features(const Scenario& s);

// The releases the planner tells apart, newest first: within an era every release behaves the same
// for what the planner models (deepspeed_defaults.h: v0.13.2 hpZ in the recompute, v0.12.4 the
// whole-bucket all-reduce, v0.6.0 stage 3's host gradient buffer and its prefetch to max_live).
// `last` of the newest era is unset (today).
struct DeepSpeedReleaseEra {
    DeepSpeedRelease first, last;
};
inline constexpr std::array<DeepSpeedReleaseEra, 4> kDeepSpeedReleaseEras{{
    {{0, 13, 2}, {}},
    {{0, 12, 4}, {0, 13, 1}},
    {{0, 6, 0}, {0, 12, 3}},
    {{0, 0, 0}, {0, 5, 10}},
}};

}  // namespace zp
