#include "core/memory/fit_stage.h"

#include "core/memory/memory_model.h"

namespace zp {

std::int64_t fit_deciding_stage(const Scenario& s) {
    const Parallelism& p = s.parallel;
    if (p.pipeline <= 1) return -1;
    if (p.pipeline_rank >= 0) return std::min(p.pipeline_rank, p.pipeline - 1);
    // The same comparison as estimate_memory's (memory_model.cpp), on the same per-stage estimates.
    Scenario first = s, last = s;
    first.parallel.pipeline_rank = 0;
    last.parallel.pipeline_rank = p.pipeline - 1;
    return estimate_memory(last).peak_required_bytes > estimate_memory(first).peak_required_bytes ? p.pipeline - 1 : 0;
}

Scenario at_fit_deciding_stage(const Scenario& s) {
    Scenario out = s;
    if (s.parallel.pipeline > 1) out.parallel.pipeline_rank = fit_deciding_stage(s);
    return out;
}

}  // namespace zp
