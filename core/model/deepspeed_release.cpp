#include "core/model/deepspeed_release.h"

#include "core/model/deepspeed_defaults.h"

#include <charconv>

namespace zp {

std::optional<DeepSpeedRelease> parse_deepspeed_release(std::string_view text) {
    DeepSpeedRelease r;
    int* parts[] = {&r.major, &r.minor, &r.patch};
    const char* p = text.data();
    const char* const end = text.data() + text.size();
    for (int i = 0; i < 3; ++i) {
        const auto [next, ec] = std::from_chars(p, end, *parts[i]);
        if (ec != std::errc{} || *parts[i] < 0) return std::nullopt;
        p = next;
        if (p == end) return i >= 1 ? std::optional(r) : std::nullopt;  // at least major.minor
        if (*p != '.' || i == 2) return std::nullopt;
        ++p;
    }
    return std::nullopt;
}

void apply_deepspeed_release(ZeroSetup& z, const DeepSpeedRelease& r) {
    namespace d = deepspeed::defaults;
    z.zero3_host_gradient_buffer = d::zero3_host_gradient_buffer_in(r.major, r.minor);
    z.multi_rank_bucket_allreduce = d::multi_rank_bucket_allreduce_in(r.major, r.minor, r.patch);
    z.zero3_prefetch_to_max_live = d::zero3_prefetch_to_max_live_in(r.major, r.minor);
    z.hpz_in_recompute = d::hpz_in_recompute_in(r.major, r.minor, r.patch);
}

bool follows_release(const ZeroSetup& z, const DeepSpeedRelease& release) {
    // apply_deepspeed_release sets only the release's fields: the rest compare equal as they are.
    ZeroSetup as_released = z;
    apply_deepspeed_release(as_released, release);
    return as_released == z;
}

}  // namespace zp
