#pragma once
// Fitting the scenario to one measured run (a user's own run should correct the planner): the compute-efficiency scale of the
// time model (Assumptions::mfu / kReferenceMfu, core/time/compute_time.h: it divides every compute
// term, GEMMs, attention, memory-bound kernels and launch overhead) is solved so that the predicted
// step equals the measured one, the rest of the time model (communication, offload) unchanged; the result says by how much it moved and is
// stored with the scenario ("calibrated from <source> on <date>"). Memory readings are compared,
// not fitted: the allocator's shares are global (core/memory/allocator.h).
#include "core/calibration/run_log.h"
#include "core/model/scenario.h"

#include <optional>
#include <string>

namespace zp::calibration {

struct CalibrationResult {
    Scenario calibrated;    // the scenario with the fitted mfu and its note
    double mfu_before = 0;  // Assumptions::mfu, the stored field
    double mfu_after = 0;
    double scale_before = 0;  // the compute-efficiency scale it stands for: mfu / kReferenceMfu
    double scale_after = 0;
    double step_before_seconds = 0;  // predicted with the scenario as given
    double step_measured_seconds = 0;
    double step_after_seconds = 0;  // predicted with the fitted mfu
    std::optional<double> max_allocated_measured_bytes, max_allocated_predicted_bytes;
    std::optional<double> max_reserved_measured_bytes, max_reserved_predicted_bytes;
};

// What a run is compared with: the scenario as it is (its own setup, not the recommended one),
// its step time, torch.cuda.max_memory_allocated and max_memory_reserved (without the CUDA
// context, which torch does not count). calibrate's "before"; the dialog shows it before a run is read.
struct PlanPrediction {
    double step_seconds = 0;
    double max_allocated_bytes = 0;
    double max_reserved_bytes = 0;
};
PlanPrediction predicted(const Scenario& s);

// Throws InputError (nothing changed) when the measurement is for another world size or global
// batch than the scenario, has no step time or throughput, or needs an efficiency outside (0, 1]
// (a step faster than the scenario allows at 100% efficiency: the wrong --gpu or network?).
CalibrationResult calibrate(const Scenario& s, const RunLog& measured, const std::string& source, const std::string& date);

}  // namespace zp::calibration
