#include "core/memory/allocator.h"

#include <algorithm>

namespace zp {

const AllocatorShares& allocator_shares(int stage) { return stage == 3 ? kAllocatorSharesZero3 : kAllocatorShares; }

double reserved_bytes(const StepMoment& m, int stage, double reservable_bytes) {
    return std::min(reservable_bytes, m.allocated_bytes() + allocator_shares(stage).cached * m.cycling_bytes());
}

double required_bytes(const StepMoment& m, int stage) {
    return m.allocated_bytes() + allocator_shares(stage).unreleasable * m.cycling_bytes();
}

void StepPeakAccumulator::add(const StepMoment& m) {
    const double allocated = m.allocated_bytes();
    if (allocated > peak_.allocated_bytes) {
        peak_.allocated_bytes = allocated;
        peak_.moment = m;
    }
    peak_.reserved_bytes = std::max(peak_.reserved_bytes, reserved_bytes(m, stage_, reservable_));
    const double required = required_bytes(m, stage_);
    if (required > peak_.required_bytes) {
        peak_.required_bytes = required;
        peak_.required_phase = m.phase;
    }
}

StepPeak StepPeakAccumulator::result() const {
    StepPeak p = peak_;
    // The reserve holds at least what is allocated, even beyond the card (a run that does not fit).
    p.reserved_bytes = std::max(p.reserved_bytes, p.allocated_bytes);
    return p;
}

std::vector<double> reserved_along(const std::vector<StepMoment>& timeline, int stage, double reservable_bytes, double context_bytes) {
    std::vector<double> out;
    out.reserve(timeline.size());
    double running = 0;
    for (const StepMoment& m : timeline) {
        running = std::max(running, reserved_bytes(m, stage, reservable_bytes));
        out.push_back(std::max(running, m.allocated_bytes()) + context_bytes);
    }
    return out;
}

StepPeak step_peak(const std::vector<StepMoment>& timeline, int stage, double reservable_bytes) {
    StepPeakAccumulator acc(stage, reservable_bytes);
    for (const StepMoment& m : timeline) acc.add(m);
    return acc.result();
}

}  // namespace zp
