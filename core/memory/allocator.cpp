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

StepPeak step_peak(const std::vector<StepMoment>& timeline, int stage, double reservable_bytes) {
    StepPeak p;
    for (const StepMoment& m : timeline) {
        if (m.allocated_bytes() > p.allocated_bytes) {
            p.allocated_bytes = m.allocated_bytes();
            p.moment = m;
        }
        p.reserved_bytes = std::max(p.reserved_bytes, reserved_bytes(m, stage, reservable_bytes));
        const double required = required_bytes(m, stage);
        if (required > p.required_bytes) {
            p.required_bytes = required;
            p.required_phase = m.phase;
        }
    }
    // The reserve holds at least what is allocated, even beyond the card (a run that does not fit).
    p.reserved_bytes = std::max(p.reserved_bytes, p.allocated_bytes);
    return p;
}

}  // namespace zp
