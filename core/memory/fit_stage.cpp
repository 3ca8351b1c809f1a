#include "core/memory/fit_stage.h"

#include "core/memory/memory_model.h"

namespace zp {

std::int64_t fit_deciding_stage(const Scenario& s) {
    const Parallelism& p = s.parallel;
    if (p.pipeline <= 1) return -1;
    if (p.pipeline_rank >= 0) return std::min(p.pipeline_rank, p.pipeline - 1);
    return estimate_memory(s).pipeline_stage;  // the stage whose peak estimate_memory reports
}

Scenario at_fit_deciding_stage(const Scenario& s) {
    Scenario out = s;
    if (s.parallel.pipeline > 1) out.parallel.pipeline_rank = fit_deciding_stage(s);
    return out;
}

}  // namespace zp
