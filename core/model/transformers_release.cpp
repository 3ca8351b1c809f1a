#include "core/model/transformers_release.h"

#include "core/base/release_number.h"

#include <tuple>

namespace zp {

namespace {
bool at_least(const TransformersRelease& r, const TransformersRelease& first) {
    return std::tie(r.major, r.minor, r.patch) >= std::tie(first.major, first.minor, first.patch);
}
// The model's own loss, the one a release changes; Liger's and flash-attn's replace it whatever the release.
bool models_own_loss(LossKernel k) { return k == LossKernel::Full || k == LossKernel::Shifted; }
}  // namespace

std::optional<TransformersRelease> parse_transformers_release(std::string_view text) {
    const std::optional<std::array<int, 3>> n = parse_release_number(text);
    if (!n) return std::nullopt;
    return TransformersRelease{(*n)[0], (*n)[1], (*n)[2]};
}

void apply_transformers_release(Training& t, const TransformersRelease& r) {
    namespace f = transformers_firsts;
    t.load_in_16bit = at_least(r, f::kAutoDtype);
    t.low_cpu_mem_usage = at_least(r, f::kMetaDeviceLoad);
    t.reentrant_recompute = !at_least(r, f::kNonReentrantCheckpointing);
    if (models_own_loss(t.loss_kernel)) t.loss_kernel = at_least(r, f::kLossOutsideModel) ? LossKernel::Full : LossKernel::Shifted;
}

bool follows_transformers_release(const Training& t, const TransformersRelease& release) {
    // apply_transformers_release sets only the release's fields: the rest compare equal as they are.
    Training as_released = t;
    apply_transformers_release(as_released, release);
    return as_released == t;
}

}  // namespace zp
