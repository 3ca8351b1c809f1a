#pragma once
// The planner held against measured runs (core/validation/measured_runs.h): per case the
// prediction, the measurement, their ratio and whether it is within the quantity's tolerance;
// per fits/OOM boundary whether the fit call is right; aggregates per quantity group.
#include "core/memory/memory_breakdown.h"
#include "core/validation/measured_runs.h"

#include <optional>
#include <string>
#include <vector>

namespace zp::validation {

// The planner's per-GPU bytes for a memory quantity, from the step's peak: peak allocated for
// max_allocated, the peak reserve for max_reserved, and the reserve plus the CUDA context for nvidia-smi.
double predicted_gpu_bytes(const Scenario& s, Quantity q);
double predicted_gpu_bytes(const MemoryBreakdown& m, Quantity q);

struct CaseResult {
    std::string id;
    std::string kind;
    Quantity quantity = Quantity::Allocated;
    double measured = 0;   // bytes, seconds, samples/s or FLOP/s per GPU; fits: 0
    double predicted = 0;  // same unit; fits: the per-GPU bytes that must fit (peak_required_bytes)
    double ratio = 0;      // predicted / measured; fits: predicted / usable bytes
    bool ok = false;       // within tolerance, or the fit call right
    // GPU memory and fit rows: where in the step the prediction peaks (the required peak for fits).
    std::optional<StepPhase> phase;
    // Host RAM rows: when the node peaks, and DeepSpeed's own cold estimator for the same setup
    // (estimate_zero{2,3}_model_states_mem_needs, additional_buffer_factor 1.5), for comparison.
    std::optional<HostPhase> host_phase;
    double deepspeed_estimate = 0;
    // Fits/OOM rows only.
    std::int64_t micro_batch = 0;
    bool plain_data_parallel = false;
    bool fits_measured = false;
    bool fits_predicted = false;
    double usable_bytes = 0;
};

struct GroupAggregate {
    std::string group;            // QuantityInfo::group
    int count = 0;                // rows (fit checks for fits / OOM)
    int ok = 0;                   // within tolerance, or fit calls right
    double median_abs_error = 0;  // |ratio - 1|; 0 for fits
    double tolerance = 0;
};

struct NotRepresentable {
    std::string id;
    std::string reason;
};

// DeepSpeed's cold estimator against the host RAM rows: its median |ratio - 1| and how many rows.
struct EstimatorAggregate {
    int count = 0;
    double median_abs_error = 0;
};

struct ValidationReport {
    std::vector<CaseResult> rows;  // in the order of the cases; a boundary gives one row per side
    std::vector<GroupAggregate> groups;
    EstimatorAggregate deepspeed_host_estimator;  // on the host RAM rows
    std::vector<NotRepresentable> not_representable;
    std::vector<MeasuredCase> cases;
};

ValidationReport validate_cases(std::vector<MeasuredCase> cases);
// The rows one representable case gives (validate_cases' rows for it: one per fit check, else
// one), appended to `rows`: what the holdout's re-fits read case by case, without a report.
void append_case_rows(const MeasuredCase& c, std::vector<CaseResult>& rows);

}  // namespace zp::validation
