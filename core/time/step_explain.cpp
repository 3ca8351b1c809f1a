#include "core/time/step_explain.h"

#include <cmath>

namespace zp {

const char* step_term_label(StepTerm t) {
    switch (t) {
    case StepTerm::Gemm: return QT_TRANSLATE_NOOP("Core", "matmuls");
    case StepTerm::Attention: return QT_TRANSLATE_NOOP("Core", "attention");
    case StepTerm::MemoryBound:
        return QT_TRANSLATE_NOOP("Core", "memory-bound kernels (elementwise, norms, loss, train metrics, optimizer)");
    case StepTerm::KernelLaunch: return QT_TRANSLATE_NOOP("Core", "kernel launch overhead");
    case StepTerm::AllReduce: return QT_TRANSLATE_NOOP("Core", "exposed gradient all-reduce");
    case StepTerm::ReduceScatter: return QT_TRANSLATE_NOOP("Core", "exposed gradient reduce-scatter");
    case StepTerm::AllGather: return QT_TRANSLATE_NOOP("Core", "exposed parameter all-gathers");
    case StepTerm::Zero3Overhead: return QT_TRANSLATE_NOOP("Core", "ZeRO-3 module hooks and gather latency");
    case StepTerm::Pcie: return QT_TRANSLATE_NOOP("Core", "offload transfers over PCIe");
    case StepTerm::CpuOptimizer: return QT_TRANSLATE_NOOP("Core", "CPU optimizer step");
    case StepTerm::Nvme: return QT_TRANSLATE_NOOP("Core", "NVMe swapping");
    case StepTerm::ExpertAllToAll: return QT_TRANSLATE_NOOP("Core", "expert dispatch and combine all-to-alls");
    case StepTerm::UlyssesAllToAll: return QT_TRANSLATE_NOOP("Core", "sequence-parallel all-to-alls (DeepSpeed-Ulysses)");
    case StepTerm::DataWait: return QT_TRANSLATE_NOOP("Core", "waiting for the data pipeline");
    }
    return "";
}

StepExplanation explain_step(const StepTime& t) {
    const double seconds[kStepTermCount] = {
        t.compute.gemm_seconds,
        t.compute.attention_seconds,
        t.compute.memory_seconds,
        t.compute.launch_seconds,
        t.exposed_allreduce_seconds,
        t.exposed_reduce_scatter_seconds,
        t.exposed_allgather_seconds,
        t.zero3_overhead_seconds,
        t.pcie_seconds,
        t.cpu_optimizer_seconds,
        t.nvme_seconds,
        t.expert_all_to_all_seconds,
        t.ulysses_seconds,
        t.data_wait_seconds,
    };
    StepExplanation e;
    const double step = t.seconds > 0 ? t.seconds : 1.0;
    for (std::size_t i = 0; i < kStepTermCount; ++i) {
        e.terms[i] = {static_cast<StepTerm>(i), seconds[i], seconds[i] / step};
        if (i == 0 || seconds[i] > e.dominant.seconds) e.dominant = e.terms[i];
    }
    e.compute_bound = e.terms[0].share + e.terms[1].share > 0.5;
    return e;
}

namespace {
std::string percent(double share) { return std::to_string(static_cast<int>(std::lround(100 * share))) + "%"; }
}  // namespace

std::string explain_step_line(const StepTime& t) { return english(explain_step_phrase(t)); }

Phrase explain_step_phrase(const StepTime& t) {
    const StepExplanation e = explain_step(t);
    if (e.compute_bound)
        return phrase(QT_TRANSLATE_NOOP("Core", "compute-bound: matmuls and attention are %1 of the step"),
                      {percent(e.terms[0].share + e.terms[1].share)});
    const double compute = t.seconds > 0 ? t.compute_seconds / t.seconds : 0;
    Phrase lead = phrase(step_term_label(e.dominant.term));
    if (e.dominant.term == StepTerm::KernelLaunch)
        lead = phrase(QT_TRANSLATE_NOOP("Core", "launch-bound (the host issues kernels slower than the GPU runs them)"));
    if (e.dominant.term == StepTerm::MemoryBound) lead = phrase(QT_TRANSLATE_NOOP("Core", "memory-bound kernels"));
    return phrase(QT_TRANSLATE_NOOP("Core", "%1: %2 of the step (compute %3)"), {lead, percent(e.dominant.share), percent(compute)});
}

}  // namespace zp
