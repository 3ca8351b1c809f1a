#include "core/model/deepspeed_release.h"

#include "core/base/errors.h"
#include "core/base/release_number.h"
#include "core/model/deepspeed_defaults.h"
#include "core/model/engine.h"
#include "core/model/mics.h"
#include "core/model/scenario.h"

#include <tuple>

namespace zp {

std::optional<DeepSpeedRelease> parse_deepspeed_release(std::string_view text) {
    const std::optional<std::array<int, 3>> n = parse_release_number(text);
    if (!n) return std::nullopt;
    return DeepSpeedRelease{(*n)[0], (*n)[1], (*n)[2]};
}

void apply_deepspeed_release(ZeroSetup& z, const DeepSpeedRelease& r) {
    namespace d = deepspeed::defaults;
    z.zero3_host_gradient_buffer = d::zero3_host_gradient_buffer_in(r.major, r.minor);
    z.multi_rank_bucket_allreduce = d::multi_rank_bucket_allreduce_in(r.major, r.minor, r.patch);
    z.zero3_prefetch_to_max_live = d::zero3_prefetch_to_max_live_in(r.major, r.minor);
    z.hpz_in_recompute = d::hpz_in_recompute_in(r.major, r.minor, r.patch);
}

bool at_least(const DeepSpeedRelease& r, const DeepSpeedRelease& first) {
    return std::tie(r.major, r.minor, r.patch) >= std::tie(first.major, first.minor, first.patch);
}

std::optional<DeepSpeedRelease> scenario_release(const Scenario& s) {
    if (s.deepspeed_release.empty()) return std::nullopt;
    return parse_deepspeed_release(s.deepspeed_release);
}

bool release_has(const Scenario& s, const DeepSpeedRelease& first) {
    const std::optional<DeepSpeedRelease> r = scenario_release(s);
    return !r || at_least(*r, first);
}

bool recompute_must_reenter(const Scenario& s) {
    return !is_fsdp(s.fsdp) && s.zero.stage == 3 && s.training.checkpointing != Checkpointing::None && s.finetune.freezes_block_weights() &&
           !release_has(s, release_firsts::kZero3FrozenRecompute);
}

std::string release_text(const DeepSpeedRelease& r) {
    return std::to_string(r.major) + "." + std::to_string(r.minor) + "." + std::to_string(r.patch);
}

bool release_has_setup(const std::string& release, const SetupKey& k, Precision precision) {
    const std::optional<DeepSpeedRelease> r = parse_deepspeed_release(release);
    if (!r) return true;
    namespace f = release_firsts;
    if (k.stage == 3 && !at_least(*r, f::kZero3)) return false;
    if (k.stage >= 1 && precision != Precision::Fp16 && !at_least(*r, f::kZeroWithoutFp16)) return false;
    if (k.stage == 0 && precision == Precision::Bf16 && !at_least(*r, f::kBf16AtStage0)) return false;
    return (k.offload_optimizer == OffloadDevice::None && k.offload_param == OffloadDevice::None) || at_least(*r, f::kOffloadBlocks);
}

void check_release_features(const Scenario& s) {
    const std::optional<DeepSpeedRelease> r = scenario_release(s);
    if (!r || is_fsdp(s.fsdp)) return;
    namespace f = release_firsts;
    const ZeroSetup& z = s.zero;
    const Training& t = s.training;
    const auto refuse = [&](const std::string& what, const DeepSpeedRelease& first, const std::string& instead) {
        throw InputError("the plan uses " + what + ", which DeepSpeed has from v" + release_text(first) + ", not in the release given (" +
                         s.deepspeed_release + "): " + instead);
    };
    // ZeRO-3 and the offload blocks are setups: refused per setup (SetupRefusal::Release), as the
    // other setups a run cannot take.
    if (t.precision == Precision::Bf16 && !at_least(*r, f::kBf16))
        refuse("bf16", f::kBf16,
               "earlier releases ignore the bf16 block and train in fp32 (v0.5.5 to v0.5.10 read a \"bfloat16\" block instead, at ZeRO-2 "
               "only, which the export does not write); use --precision fp16");
    if (t.precision == Precision::Bf16 && t.gradient_accumulation == GradientAccumulation::Bf16Optimizer && z.stage == 1 &&
        z.offload_optimizer == OffloadDevice::None && !at_least(*r, f::kGradAccumDtype))
        refuse("the BF16_Optimizer with fp32 accumulation at ZeRO-1 (data_types.grad_accum_dtype)", f::kGradAccumDtype,
               "use --grad-accumulation zero");
    if (effective_mics(s).on() && !at_least(*r, f::kMics)) refuse("MiCS (mics_shard_size)", f::kMics, "drop --mics-shard-size");
    if (zeropp_switches(z).any() && !at_least(*r, f::kZeropp)) refuse("ZeRO++ (hpZ, qwZ, qgZ)", f::kZeropp, "use --zeropp off");
    const bool lion_block = t.optimizer == Optimizer::Lion && (t.fused_optimizer || z.offload_optimizer != OffloadDevice::None);
    if (lion_block && !at_least(*r, f::kLion)) refuse("DeepSpeed's Lion", f::kLion, "use AdamW");
    if (z.multi_rank_bucket_allreduce && (z.stage == 1 || z.stage == 2) && !at_least(*r, f::kMultiRankAllreduce))
        refuse("use_multi_rank_bucket_allreduce", f::kMultiRankAllreduce,
               "that release reduces each bucket to its owners (--multi-rank-allreduce off, as --deepspeed-release sets it)");
    if (s.parallel.ulysses > 1 && !at_least(*r, f::kUlyssesKey))
        refuse("DeepSpeed-Ulysses through sequence_parallel_size", f::kUlyssesKey, "use --sp 1");
    if (z.bf16_master_weights && !at_least(*r, f::kBf16MasterWeights))
        refuse("bf16 master weights and optimizer states", f::kBf16MasterWeights, "use --bf16-master-weights off");
}

bool follows_release(const ZeroSetup& z, const DeepSpeedRelease& release) {
    // apply_deepspeed_release sets only the release's fields: the rest compare equal as they are.
    ZeroSetup as_released = z;
    apply_deepspeed_release(as_released, release);
    return as_released == z;
}

}  // namespace zp
