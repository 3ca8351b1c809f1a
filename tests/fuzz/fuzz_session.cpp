// libFuzzer: session (.zplan) loading, then a full overview (estimate, step time, search), and
// the pinned plans' figures.
#include "core/base/errors.h"
#include "core/io/scenario_json.h"
#include "core/report/plan_compare.h"
#include "core/report/plan_pins.h"
#include "core/search/overview.h"

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    try {
        const zp::Scenario s = zp::parse_session(text, "fuzz.zplan");
        const zp::Overview o = zp::compute_overview(s);
        for (const auto& c : o.bars)
            if (!std::isfinite(c.memory.total_bytes()) || c.memory.total_bytes() < 0) std::abort();
        if (o.plan_valid && o.plan.feasible && !o.plan.best.fit.all()) std::abort();  // never an infeasible plan
        for (const zp::PlanPin& p : zp::parse_session_file(text, "fuzz.zplan").pins) {
            const zp::PlanFigures f = zp::plan_figures(p.scenario);
            if (f.valid && (!std::isfinite(f.peak_required_bytes) || f.peak_required_bytes < 0)) std::abort();
        }
    } catch (const zp::InputError&) {
    }
    return 0;
}
