#include "core/memory/memory_model.h"

#include "core/base/units.h"
#include "core/memory/activations.h"
#include "core/memory/allocator.h"
#include "core/memory/buffers.h"
#include "core/memory/host_memory.h"
#include "core/memory/model_states.h"
#include "core/model/parallel_layout.h"

#include <algorithm>
#include <cmath>
#include <optional>

namespace zp {

namespace {
// The step's peak, and the slices as the deciding moment has them (MemoryBreakdown's one reading).
void set_step_peak(const Scenario& s, const TimelineInputs& in, const StepPeak& p, MemoryBreakdown& m) {
    const double context = s.assumptions.cuda_context_bytes;
    m.peak = p.moment;
    m.peak_allocated_bytes = p.allocated_bytes;
    m.peak_reserved_bytes = p.reserved_bytes + context;
    m.peak_required_bytes = p.required_bytes + context;
    m.required_phase = p.required_phase;
    const StepMoment& d = p.required_moment;
    m.required_cause = d.cause;
    m.params_bytes = d.params_bytes;
    m.gradients_bytes = d.gradients_bytes;
    m.optimizer_states_bytes = d.optimizer_states_bytes;
    m.activations_bytes = d.activations_bytes;
    m.buffers_bytes = d.buffers_bytes;
    // The frozen base and hpZ's secondary partition are resident all run: parts of what the moment
    // holds as parameters (none at a start-up that holds only the unpartitioned model's copy).
    m.frozen_params_bytes = std::min(in.states.frozen, m.params_bytes);
    m.hpz_secondary_bytes = std::min(in.states.hpz_secondary, m.params_bytes - m.frozen_params_bytes);
    m.cuda_context_bytes = context;
    m.paged_optimizer_bytes = in.states.paged_optimizer;
    m.allocator_cache_bytes = std::max(0.0, p.required_bytes - p.required_allocated_bytes);
}
}  // namespace

namespace {
// The GPU side of one rank: model states, activations, buffers and the step's peak (from the
// moments where a maximum can lie, without storing them).
MemoryBreakdown gpu_memory(const Scenario& s, const TimelineInputs& in) {
    MemoryBreakdown m;
    m.pipeline_stage = s.parallel.pipeline > 1 ? s.parallel.pipeline_rank : -1;
    set_step_peak(s, in, step_peak(s, in, reservable_gpu_bytes(s)), m);
    return m;
}

// One estimate. With a memo (the recommender, one ZeRO setup) the timeline's inputs and the host
// side come from it; without (a single estimate) they are computed directly, with no memo to
// build or compare: the same functions either way. `known_split`: the rank's split when the
// caller has it (rank_parameter_split(s)).
MemoryBreakdown estimate_memory_with(const Scenario& s, MemoryMemo* memo, const ParameterSplit* known_split) {
    const auto inputs = [memo](const Scenario& x) { return memo ? timeline_inputs(x, memo->timeline) : timeline_inputs(x); };
    // Pipeline parallelism without a stage named: the most loaded rank is the first stage (the
    // embedding, p micro batches in flight) or the last (the output layer, the logits and the
    // loss), whichever peaks higher; a large vocabulary makes it the last. Host RAM is the rank's
    // share at pipeline_rank -1 (the larger of the two stages' parameters).
    double cpu_checkpoint_bytes_per_gpu = 0;
    std::optional<ParameterSplit> rank_split;  // one estimate: the split serves the GPU and the host side
    if (!memo && known_split) rank_split = *known_split;
    // Built in place (the breakdown is large; the recommender asks for one per candidate).
    MemoryBreakdown m = [&] {
        if (s.parallel.pipeline > 1 && s.parallel.pipeline_rank < 0) {
            Scenario stage = s;  // one copy, its rank set to the first stage and then the last
            stage.parallel.pipeline_rank = 0;
            const TimelineInputs first_in = inputs(stage);
            cpu_checkpoint_bytes_per_gpu = first_in.activations.cpu_bytes_per_gpu;  // the first stage keeps the most checkpoints
            MemoryBreakdown a = gpu_memory(stage, first_in);
            stage.parallel.pipeline_rank = s.parallel.pipeline - 1;
            MemoryBreakdown b = gpu_memory(stage, inputs(stage));
            if (b.peak_required_bytes > a.peak_required_bytes) return b;
            return a;
        }
        if (!memo && !rank_split) rank_split = rank_parameter_split(s);
        const TimelineInputs in = memo ? timeline_inputs(s, memo->timeline) : timeline_inputs(s, *rank_split);
        cpu_checkpoint_bytes_per_gpu = in.activations.cpu_bytes_per_gpu;
        return gpu_memory(s, in);
    }();
    m.host = memo         ? host_memory(s, cpu_checkpoint_bytes_per_gpu, memo->host)
             : rank_split ? host_memory(s, cpu_checkpoint_bytes_per_gpu, *rank_split)
                          : host_memory(s, cpu_checkpoint_bytes_per_gpu);
    m.cpu_bytes_per_node = m.host.peak_bytes();
    m.nvme_bytes_per_node = m.host.nvme_bytes;
    return m;
}
}  // namespace

MemoryBreakdown estimate_memory(const Scenario& s) { return estimate_memory_with(s, nullptr, nullptr); }

MemoryBreakdown estimate_memory(const Scenario& s, const ParameterSplit& rank_split) {
    return estimate_memory_with(s, nullptr, &rank_split);
}

MemoryBreakdown estimate_memory(const Scenario& s, MemoryMemo& memo) { return estimate_memory_with(s, &memo, nullptr); }

namespace {
// The GPU's required peak (with the CUDA context) and the checkpoints each GPU keeps on the host,
// as estimate_memory_with reads them: a pipeline without a stage named peaks on the first or the
// last stage and keeps the first stage's checkpoints. `s` is the search's own scenario, each stage
// set on it in turn and then restored. The last stage is not read once the first passes
// `enough_bytes` (memory_peaks in memory_model.h).
struct StagePeak {
    double required_bytes = 0;
    double cpu_checkpoint_bytes_per_gpu = 0;
};
// Sets a pipeline stage on the search's scenario and gives the unnamed stage back on leaving,
// however it is left.
class StageOnScenario {
public:
    explicit StageOnScenario(Scenario& s) : s_(s), unnamed_(s.parallel.pipeline_rank) {}
    StageOnScenario(const StageOnScenario&) = delete;
    StageOnScenario& operator=(const StageOnScenario&) = delete;
    ~StageOnScenario() { s_.parallel.pipeline_rank = unnamed_; }
    void set(std::int64_t rank) { s_.parallel.pipeline_rank = rank; }

private:
    Scenario& s_;
    std::int64_t unnamed_;
};

StagePeak stage_peak(Scenario& s, MemoryMemo& memo, double enough_bytes) {
    const double context = s.assumptions.cuda_context_bytes;
    if (s.parallel.pipeline > 1 && s.parallel.pipeline_rank < 0) {
        StageOnScenario stage(s);
        stage.set(0);
        const TimelineInputs first_in = timeline_inputs(s, memo.timeline);
        const double first = step_peak_required_bytes(s, first_in);
        StagePeak p{first + context, first_in.activations.cpu_bytes_per_gpu};
        if (p.required_bytes <= enough_bytes) {
            stage.set(s.parallel.pipeline - 1);
            const double last = step_peak_required_bytes(s, timeline_inputs(s, memo.timeline));
            p.required_bytes = (last > first ? last : first) + context;
        }
        return p;
    }
    const TimelineInputs in = timeline_inputs(s, memo.timeline);
    return {step_peak_required_bytes(s, in) + context, in.activations.cpu_bytes_per_gpu};
}
}  // namespace

MemoryPeaks memory_peaks(Scenario& s, MemoryMemo& memo, double enough_bytes) {
    const double usable = usable_gpu_bytes(s);
    const StagePeak gpu = stage_peak(s, memo, std::max(enough_bytes, usable));  // a figure cut short does not fit
    MemoryPeaks p{.gpu_required_bytes = gpu.required_bytes};
    if (p.gpu_required_bytes > usable) return p;  // check_fit fails it on the GPU: the host is not read
    const HostMemory& host = host_memory(s, gpu.cpu_checkpoint_bytes_per_gpu, memo.host);
    p.cpu_bytes_per_node = host.peak_bytes();
    p.nvme_bytes_per_node = host.nvme_bytes;
    return p;
}

std::vector<MemoryBreakdown> pipeline_stage_memory(const Scenario& s) {
    if (s.parallel.pipeline <= 1) return {estimate_memory(s)};
    std::vector<MemoryBreakdown> out;
    Scenario stage = s;
    for (std::int64_t i = 0; i < s.parallel.pipeline; ++i) {
        stage.parallel.pipeline_rank = i;
        out.push_back(estimate_memory(stage));
    }
    return out;
}

double usable_gpu_bytes(const Scenario& s) { return gib_to_bytes(s.cluster.gpu.memory_gib) * (1.0 - s.assumptions.headroom); }

FitMargin fit_margin(const Scenario& s, const MemoryBreakdown& m) { return fit_margin(s, m.peak_required_bytes); }

FitMargin fit_margin(const Scenario& s, double required_bytes) {
    FitMargin f;
    f.margin_bytes = usable_gpu_bytes(s) - required_bytes;
    f.at_edge = std::abs(f.margin_bytes) <= kEdgeShareOfCard * gib_to_bytes(s.cluster.gpu.memory_gib);
    return f;
}

namespace {
// check_fit's rule, on the three peaks it reads (one body for a breakdown and for the search's peaks).
Fit fit_of(const Scenario& s, double gpu_required_bytes, double cpu_bytes_per_node, double nvme_bytes_per_node) {
    Fit f;
    // The step's peak, with what the allocator cannot give back, must fit in the usable memory.
    f.gpu = gpu_required_bytes <= usable_gpu_bytes(s);
    f.cpu = cpu_bytes_per_node <= s.cluster.cpu_ram_bytes_per_node;
    f.nvme = nvme_bytes_per_node <= s.cluster.nvme_bytes_per_node;
    // The layout runs the stage, and the engine has the setup (FSDP: no ZeRO-1, no NVMe); then the
    // kernels can index a rank's tensors (the longest sequence search stops there too, max_sequence.cpp).
    f.refusal = setup_refusal(s, setup_key(s.zero));
    if (f.refusal == SetupRefusal::None && !within_kernel_index(s)) f.refusal = SetupRefusal::KernelIndex;
    return f;
}
}  // namespace

Fit check_fit(const Scenario& s, const MemoryBreakdown& m) {
    return fit_of(s, m.peak_required_bytes, m.cpu_bytes_per_node, m.nvme_bytes_per_node);
}

Fit check_fit(const Scenario& s, const MemoryPeaks& p) {
    return fit_of(s, p.gpu_required_bytes, p.cpu_bytes_per_node, p.nvme_bytes_per_node);
}

}  // namespace zp
