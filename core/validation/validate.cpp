#include "core/validation/validate.h"

#include "core/base/median.h"
#include "core/deepspeed/estimator.h"
#include "core/memory/memory_model.h"
#include "core/time/step_time.h"

#include <algorithm>
#include <cmath>

namespace zp::validation {

double predicted_gpu_bytes(const Scenario& s, Quantity q) { return predicted_gpu_bytes(estimate_memory(s), q); }

double predicted_gpu_bytes(const MemoryBreakdown& m, Quantity q) {
    switch (q) {
    case Quantity::Allocated: return m.peak_allocated_bytes;
    case Quantity::Reserved: return m.peak_reserved_bytes - m.cuda_context_bytes;  // max_memory_reserved has no context
    default: return m.peak_reserved_bytes;                                         // nvidia-smi
    }
}

namespace {

double predicted_value(const MeasuredCase& c) {
    const Scenario& s = c.scenario;
    switch (c.measurement.quantity) {
    case Quantity::Allocated:
    case Quantity::Reserved:
    case Quantity::NvidiaSmi: break;  // validate_cases: with the peak's phase, from one estimate
    case Quantity::HostRam: break;    // validate_cases: with the peak's phase and DeepSpeed's estimate
    case Quantity::StepSeconds: return estimate_step(s).seconds;
    case Quantity::SamplesPerSecond: {
        const StepTime st = estimate_step(s);
        return static_cast<double>(effective_global_batch(s.training, data_parallel_size(s))) / st.seconds;
    }
    case Quantity::TflopsPerGpu: {
        const StepTime st = estimate_step(s);
        return st.hardware_flops / st.seconds / static_cast<double>(s.cluster.world_size());
    }
    case Quantity::Fit: break;
    }
    return 0;
}

CaseResult fit_row(const MeasuredCase& c, const FitCheck& check) {
    Scenario s = c.scenario;
    const std::int64_t gas = s.training.global_batch / (s.training.micro_batch * data_parallel_size(s));
    s.training.micro_batch = check.micro_batch;
    s.training.global_batch = check.micro_batch * gas * data_parallel_size(s);
    if (check.plain_data_parallel) {
        s.zero.stage = 0;
        s.zero.offload_optimizer = OffloadDevice::None;
        s.zero.offload_param = OffloadDevice::None;
    }
    const MemoryBreakdown m = estimate_memory(s);
    CaseResult r;
    r.id = c.id;
    r.kind = c.measurement.kind;
    r.quantity = Quantity::Fit;
    r.micro_batch = check.micro_batch;
    r.plain_data_parallel = check.plain_data_parallel;
    r.fits_measured = check.fits;
    r.fits_predicted = check_fit(s, m).gpu;
    r.phase = m.required_phase;
    r.predicted = m.peak_required_bytes;
    r.usable_bytes = usable_gpu_bytes(s);
    r.ratio = r.predicted / r.usable_bytes;
    r.ok = r.fits_predicted == r.fits_measured;
    return r;
}

// DeepSpeed's estimate_zero{2,3}_model_states_mem_needs "per CPU" for the case's setup, as its
// *_all_cold helpers compute it (core/deepspeed/estimator.h).
double deepspeed_host_estimate(const Scenario& s) {
    deepspeed::EstimatorInput in;
    in.total_params = static_cast<double>(parameter_count(s.model));
    in.largest_layer_params = static_cast<double>(largest_layer_params(s.model));
    in.num_gpus_per_node = s.cluster.gpus_per_node;
    in.num_nodes = s.cluster.nodes;
    const bool offload_optimizer = s.zero.offload_optimizer != OffloadDevice::None;
    if (s.zero.stage < 3) return static_cast<double>(deepspeed::zero2(in, offload_optimizer, deepspeed::Zero2Formula::Current).cpu_bytes);
    return static_cast<double>(
        deepspeed::zero3(in, offload_optimizer, s.zero.offload_param != OffloadDevice::None, s.zero.zero_init).cpu_bytes);
}

}  // namespace

void append_case_rows(const MeasuredCase& c, std::vector<CaseResult>& rows) {
    if (c.measurement.quantity == Quantity::Fit) {
        for (const FitCheck& f : c.measurement.fit_checks) rows.push_back(fit_row(c, f));
        return;
    }
    CaseResult r;
    r.id = c.id;
    r.kind = c.measurement.kind;
    r.quantity = c.measurement.quantity;
    r.measured = c.measurement.value;
    if (r.quantity == Quantity::Allocated || r.quantity == Quantity::Reserved || r.quantity == Quantity::NvidiaSmi) {
        const MemoryBreakdown m = estimate_memory(c.scenario);
        r.predicted = predicted_gpu_bytes(m, r.quantity);
        r.phase = m.peak.phase;
    } else if (r.quantity == Quantity::HostRam) {
        const MemoryBreakdown m = estimate_memory(c.scenario);
        r.predicted = m.cpu_bytes_per_node;
        r.host_phase = m.host.peak_phase;
        if (c.host_training_window) {
            r.host_phase = HostPhase::Training;
            r.predicted = m.host.moment(HostPhase::Training).bytes.total();
        }
        r.deepspeed_estimate = deepspeed_host_estimate(c.scenario);
    } else {
        r.predicted = predicted_value(c);
    }
    r.ratio = r.predicted / r.measured;
    r.ok = std::abs(r.ratio - 1) <= quantity_info(r.quantity).tolerance;
    rows.push_back(r);
}

ValidationReport validate_cases(std::vector<MeasuredCase> cases) {
    ValidationReport report;
    for (const MeasuredCase& c : cases) {
        if (!c.not_representable.empty()) report.not_representable.push_back({c.id, c.not_representable});
        else append_case_rows(c, report.rows);
    }
    // Groups in the order of the quantity table, each once.
    for (const QuantityInfo& info : quantity_table()) {
        if (std::any_of(report.groups.begin(), report.groups.end(), [&](const GroupAggregate& g) { return g.group == info.group; }))
            continue;
        GroupAggregate g;
        g.group = info.group;
        g.tolerance = info.tolerance;
        std::vector<double> errors;
        for (const CaseResult& r : report.rows) {
            if (std::string(quantity_info(r.quantity).group) != info.group) continue;
            ++g.count;
            g.ok += r.ok;
            if (r.quantity != Quantity::Fit) errors.push_back(std::abs(r.ratio - 1));
        }
        g.median_abs_error = median(errors);
        if (g.count > 0) report.groups.push_back(g);
    }
    std::vector<double> estimator_errors;
    for (const CaseResult& r : report.rows)
        if (r.quantity == Quantity::HostRam) estimator_errors.push_back(std::abs(r.deepspeed_estimate / r.measured - 1));
    report.deepspeed_host_estimator = {static_cast<int>(estimator_errors.size()), median(estimator_errors)};
    report.cases = std::move(cases);
    return report;
}

}  // namespace zp::validation
