#pragma once
// Which release era a plan's switches follow, and which eras a chooser offers (the window's
// DeepSpeed and transformers release boxes; deepspeed_release.h and transformers_release.h each
// list their eras, newest first). An era whose switches, applied to the plan, also follow a newer
// era is not offered: choosing it would show the newer one (transformers before 4.46 and 4.46 to
// 4.50 differ only in the model's own loss, which Liger's or flash-attn's replaces).
#include <cstddef>
#include <vector>

namespace zp {

struct EraChoice {
    int shown = -1;             // the newest era `state` follows, -1 for none ("set switch by switch")
    std::vector<bool> offered;  // per era
};

// `apply(State&, release)` sets an era's switches; `follows(const State&, release)` says whether they are set so.
template <typename Eras, typename State, typename Apply, typename Follows>
EraChoice era_choice(const Eras& eras, const State& state, Apply apply, Follows follows) {
    const auto newest_followed = [&](const State& x) {
        for (std::size_t i = 0; i < eras.size(); ++i)
            if (follows(x, eras[i].first)) return static_cast<int>(i);
        return -1;
    };
    EraChoice c;
    c.shown = newest_followed(state);
    c.offered.resize(eras.size());
    for (std::size_t i = 0; i < eras.size(); ++i) {
        State as_released = state;
        apply(as_released, eras[i].first);
        c.offered[i] = newest_followed(as_released) == static_cast<int>(i);
    }
    return c;
}

}  // namespace zp
