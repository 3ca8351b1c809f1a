#include "core/calibration/calibrate.h"

#include "core/base/errors.h"
#include "core/base/format.h"
#include "core/memory/memory_model.h"
#include "core/model/limits.h"
#include "core/time/step_time.h"

#include <cmath>

namespace zp::calibration {
namespace {

double step_at(Scenario s, double mfu) {
    s.assumptions.mfu = mfu;
    return estimate_step(s).seconds;
}

}  // namespace

PlanPrediction predicted(const Scenario& s) {
    const MemoryBreakdown mem = estimate_memory(s);
    return {estimate_step(s).seconds, mem.peak_allocated_bytes, mem.peak_reserved_bytes - mem.cuda_context_bytes};
}

CalibrationResult calibrate(const Scenario& s, const RunLog& m, const std::string& source, const std::string& date) {
    const std::int64_t world = data_parallel_size(s);
    const std::int64_t global = effective_global_batch(s.training, world);
    if (m.world_size && *m.world_size != world)
        throw InputError(source + ": the run used " + std::to_string(*m.world_size) + " GPUs, the scenario has " + std::to_string(world) +
                         ": give --gpus " + std::to_string(*m.world_size));
    if (m.global_batch && *m.global_batch != global)
        throw InputError(source + ": the run's global batch size is " + std::to_string(*m.global_batch) + ", the scenario's " +
                         std::to_string(global) + ": give --global-batch " + std::to_string(*m.global_batch));
    std::optional<double> measured = m.step_seconds;
    if (!measured && m.samples_per_second && *m.samples_per_second > 0) measured = static_cast<double>(global) / *m.samples_per_second;
    if (!measured || !(*measured > 0))
        throw InputError(source + ": no step time or throughput to calibrate from (memory readings alone are compared, not fitted)");

    const PlanPrediction before = predicted(s);
    CalibrationResult r;
    r.mfu_before = s.assumptions.mfu;
    r.step_before_seconds = before.step_seconds;
    r.step_measured_seconds = *measured;
    // The step time falls as the efficiency rises (compute shrinks; the exposed communication can
    // only grow as the windows that hide it shrink, never enough to undo the compute's share), so
    // bisection finds the one mfu.
    double lo = limits::kMfu.min, hi = limits::kMfu.max;
    if (*measured < step_at(s, hi))
        throw InputError(source + ": a step of " + format_seconds(*measured) + " is faster than the scenario allows even at 100% compute " +
                         "efficiency (" + format_seconds(step_at(s, hi)) + " on " + s.cluster.gpu.display_name +
                         ", with its communication and offload): check --gpu, --gpus, --inter-bw and the model");
    if (*measured > step_at(s, lo))
        throw InputError(source + ": a step of " + format_seconds(*measured) +
                         " needs a compute efficiency below 0.1%: check the scenario");
    for (int i = 0; i < 100; ++i) {
        const double mid = std::sqrt(lo * hi);
        (step_at(s, mid) > *measured ? lo : hi) = mid;
    }
    r.calibrated = s;
    r.calibrated.assumptions.mfu = std::sqrt(lo * hi);
    r.mfu_after = r.calibrated.assumptions.mfu;
    r.scale_before = r.mfu_before / kReferenceMfu;
    r.scale_after = r.mfu_after / kReferenceMfu;
    r.step_after_seconds = estimate_step(r.calibrated).seconds;
    if (m.max_allocated_bytes) {
        r.max_allocated_measured_bytes = m.max_allocated_bytes;
        r.max_allocated_predicted_bytes = before.max_allocated_bytes;
    }
    if (m.max_reserved_bytes) {
        r.max_reserved_measured_bytes = m.max_reserved_bytes;
        r.max_reserved_predicted_bytes = before.max_reserved_bytes;
    }
    r.calibrated.assumptions.calibration = "calibrated from " + source + " on " + date + ": step " + format_seconds(*measured) +
                                           " measured, " + format_seconds(r.step_before_seconds) + " predicted at compute scale x" +
                                           format_fixed(r.scale_before, 2) + "; compute scale x" + format_fixed(r.scale_after, 2);
    return r;
}

}  // namespace zp::calibration
