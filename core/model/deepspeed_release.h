#pragma once
// The DeepSpeed release a run uses, where its behaviour changes what the planner models: the
// ZeroSetup fields that are no config key but the release's code (deepspeed_defaults.h says which
// release brought each). `validate` reads it from a case's "deepspeed_version", the command line
// from --deepspeed-release.
#include "core/model/scenario.h"

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

}  // namespace zp
