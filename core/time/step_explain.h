#pragma once
// What dominates a step (a plan says what bounds its speed): the largest term of the step-time breakdown
// (core/time/step_time.h) named in words, with the share it takes, and every term for a
// breakdown view. Pure: no allocation beyond the returned text of one_line.
#include "core/base/phrase.h"
#include "core/time/step_time.h"

#include <array>
#include <string>

namespace zp {

enum class StepTerm {
    Gemm,             // the matmuls: compute-bound
    Attention,        // attention kernels (score traffic without flash attention)
    MemoryBound,      // elementwise, norms, loss, the loop's metrics and the GPU optimizer: HBM traffic
    KernelLaunch,     // the host issuing kernels (small models, small micro batches)
    AllReduce,        // exposed gradient all-reduce (stage 0/1)
    ReduceScatter,    // exposed gradient reduce-scatter (stage 2/3)
    AllGather,        // exposed parameter all-gather (stage 2 after the step; stage 3 gathers)
    Zero3Overhead,    // ZeRO-3 module hooks and per-module gather latency
    Pcie,             // offload transfers over PCIe
    CpuOptimizer,     // the CPU optimizer step
    Nvme,             // NVMe swapping
    ExpertAllToAll,   // DeepSpeed-MoE's dispatch and combine all-to-alls (expert parallelism)
    UlyssesAllToAll,  // DeepSpeed-Ulysses' per-layer all-to-alls (StepTime::ulysses_seconds)
    DataWait,         // waiting for the data pipeline (StepTime::data_wait_seconds)
};
inline constexpr std::size_t kStepTermCount = 14;

struct StepTermShare {
    StepTerm term = StepTerm::Gemm;
    double seconds = 0;
    double share = 0;  // of the step
};

struct StepExplanation {
    std::array<StepTermShare, kStepTermCount> terms{};  // in StepTerm order
    StepTermShare dominant;                             // the largest
    bool compute_bound = false;                         // GEMMs and attention are more than half of the step
};

StepExplanation explain_step(const StepTime& t);

// "compute-bound", "exposed ZeRO-3 gathers", "CPU optimizer step", "NVMe swapping", ...
const char* step_term_label(StepTerm t);

// One line: "compute-bound: matmuls and attention are 86% of the step (largest: matmuls, 71%)"
// or "exposed gradient all-reduce: 38% of the step (compute 55%)".
std::string explain_step_line(const StepTime& t);
Phrase explain_step_phrase(const StepTime& t);  // the same line, translatable

}  // namespace zp
