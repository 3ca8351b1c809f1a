#include "core/model/transformers_release.h"

#include "core/base/release_number.h"

#include <tuple>

namespace zp {

namespace {
bool at_least(const TransformersRelease& r, const TransformersRelease& first) {
    return std::tie(r.major, r.minor, r.patch) >= std::tie(first.major, first.minor, first.patch);
}
// The Hugging Face model's own loss, the one a release changes. Liger's and flash-attn's replace it
// whatever the release; Megatron's GPT (LmHead::EmbeddingWeight) is no transformers model and takes
// its own vocab-parallel cross-entropy on labels its data loader shifted (megatron/model/gpt_model.py
// post_language_model_processing).
bool models_own_loss(const Training& t) {
    return (t.loss_kernel == LossKernel::Full || t.loss_kernel == LossKernel::Shifted) && t.lm_head == LmHead::Module;
}
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
    if (models_own_loss(t)) t.loss_kernel = at_least(r, f::kLossOutsideModel) ? LossKernel::Full : LossKernel::Shifted;
}

bool follows_transformers_release(const Training& t, const TransformersRelease& release) {
    // apply_transformers_release sets only the release's fields: the rest compare equal as they are.
    Training as_released = t;
    apply_transformers_release(as_released, release);
    return as_released == t;
}

}  // namespace zp
