#pragma once
// The per-GPU memory estimate: one function, every slice, with its source in the slice's own file.
#include "core/memory/host_memory.h"
#include "core/memory/memory_breakdown.h"
#include "core/memory/step_timeline.h"
#include "core/model/scenario.h"

#include <limits>
#include <vector>

namespace zp {

MemoryBreakdown estimate_memory(const Scenario& s);
// The same, with the rank's parameter split the caller has already (rank_parameter_split(s)): one
// plan's memory and step time read the same split (recommender.h evaluate).
MemoryBreakdown estimate_memory(const Scenario& s, const ParameterSplit& rank_split);
// What estimate_memory and memory_peaks can reuse between scenarios that differ only in the micro
// batch, the buckets or the recompute policy: the host side (HostMemoryMemo), the rank's model states and
// its activations (TimelineMemo). Reset it when anything else changes.
struct MemoryMemo {
    HostMemoryMemo host;
    TimelineMemo timeline;
};
// The same, reusing what `memo` holds (only for scenarios that differ in the micro batch, the
// buckets or the recompute policy since the memo was reset).
MemoryBreakdown estimate_memory(const Scenario& s, MemoryMemo& memo);

// Pipeline parallelism: estimate_memory for the rank of each stage, first to last
// (Parallelism::pipeline_rank): its layers, the micro batches it holds in flight, the embedding on
// the first, the output layer and the loss on the last. One element without pipelining.
std::vector<MemoryBreakdown> pipeline_stage_memory(const Scenario& s);

struct Fit {
    bool gpu = false;
    bool cpu = false;
    bool nvme = false;
    SetupRefusal refusal = SetupRefusal::None;  // why the setup cannot run there (setup_refusal), None when it can
    // The setup runs with the model-parallel layout and the engine (a pipeline takes ZeRO 0/1 only).
    bool layout() const { return refusal == SetupRefusal::None; }
    bool all() const { return gpu && cpu && nvme && layout(); }
};

double usable_gpu_bytes(const Scenario& s);  // capacity x (1 - headroom)

// What check_fit reads of an estimate: the GPU's required peak, and host RAM and NVMe per node
// (memory_peaks below leaves the host's at 0 for a candidate over the card: read Fit::all or
// Fit::gpu of such a candidate, not its host fields).
struct MemoryPeaks {
    double gpu_required_bytes = 0;
    double cpu_bytes_per_node = 0;
    double nvme_bytes_per_node = 0;
};
inline MemoryPeaks memory_peaks(const MemoryBreakdown& m) { return {m.peak_required_bytes, m.cpu_bytes_per_node, m.nvme_bytes_per_node}; }
// estimate_memory(s, memo)'s peaks, the same values to the bit, without its slices or its reserve:
// what the search needs of a candidate. A pipeline without a stage named is
// read on its first and last stage, set on `s` in turn (the search's own scenario: no copy per
// candidate; `s` is left as it came), and when the first stage's GPU peak is above `enough_bytes`
// that figure is the answer without the last stage's: at most the pipeline's peak, and above
// anything the caller compares it with (the search: the card's usable memory, or the least-memory
// point so far while none fits). `enough_bytes` below the card's usable memory counts as that
// memory, so a figure cut short always fails check_fit's GPU test. Host RAM and NVMe only for a
// candidate within the card's usable memory (0 otherwise, where check_fit's GPU test fails it).
MemoryPeaks memory_peaks(Scenario& s, MemoryMemo& memo, double enough_bytes = std::numeric_limits<double>::infinity());

// GPU: the step's required peak (MemoryBreakdown::peak_required_bytes) within the usable memory.
Fit check_fit(const Scenario& s, const MemoryBreakdown& m);
Fit check_fit(const Scenario& s, const MemoryPeaks& p);

// How far the GPU fit is from the line: the usable memory less what must fit (negative: that much
// short). Within kEdgeShareOfCard of the card either way the call is a boundary call: the planner's
// own error on measured runs is larger than that (validate: GPU memory within 20% on 80% of rows),
// so "fits" or "out of memory" alone would claim more than it knows there.
inline constexpr double kEdgeShareOfCard = 0.05;
struct FitMargin {
    double margin_bytes = 0;
    bool at_edge = false;
};
FitMargin fit_margin(const Scenario& s, const MemoryBreakdown& m);
FitMargin fit_margin(const Scenario& s, double required_bytes);  // what must fit, given as bytes

}  // namespace zp
