#include "core/memory/allocator.h"

#include "core/base/units.h"

#include <algorithm>

namespace zp {

StepPeak StepPeakAccumulator::result() const {
    StepPeak p = peak_;
    // The reserve holds at least what is allocated, and what must be held for the step (the cache's
    // unreleasable part is reserved too), even beyond the card (a run that does not fit: there the
    // reserve is capped at the card and the allocation is not).
    p.reserved_bytes = std::max({p.reserved_bytes, p.allocated_bytes, p.required_bytes});
    return p;
}

double reservable_gpu_bytes(const Scenario& s) { return gib_to_bytes(s.cluster.gpu.memory_gib) - s.assumptions.cuda_context_bytes; }

std::vector<double> reserved_along(const Scenario& s, const std::vector<StepMoment>& timeline) {
    const CyclingShares shares(s);
    const double reservable_bytes = reservable_gpu_bytes(s);
    const double context_bytes = s.assumptions.cuda_context_bytes;
    std::vector<double> out;
    out.reserve(timeline.size());
    double running = 0;
    for (const StepMoment& m : timeline) {
        running = std::max({running, reserved_bytes(m, shares, reservable_bytes), required_bytes(m, shares)});  // required >= allocated
        out.push_back(running + context_bytes);
    }
    return out;
}

StepPeak step_peak(const std::vector<StepMoment>& timeline, const Scenario& s, double reservable_bytes) {
    StepPeakAccumulator acc(CyclingShares(s), reservable_bytes);
    for (const StepMoment& m : timeline) acc.add(m);
    return acc.result();
}

}  // namespace zp
