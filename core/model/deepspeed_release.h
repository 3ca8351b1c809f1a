#pragma once
// The DeepSpeed release a run uses, where its behaviour changes what the planner models: the
// ZeroSetup fields that are no config key but the release's code (deepspeed_defaults.h says which
// release brought each). `validate` reads it from a case's "deepspeed_version", the command line
// from --deepspeed-release.
#include "core/model/scenario.h"

#include <array>
#include <optional>
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
