#pragma once
// Per-GPU memory split into the slices the window stacks, plus host RAM and NVMe per node, and
// the step's peak. All figures are bytes.
//
// Two readings of "memory per GPU". The slices are the steady state: model states, activations,
// buffers and overhead as they are summed in docs/design.md §4 (0.1.0's accounting). The peak
// is the largest moment of the step's timeline (core/memory/step_timeline.h) as
// torch.cuda.max_memory_allocated and as reserved memory (core/memory/allocator.h); whether a
// setup fits is decided on the peak.
#include "core/memory/host_memory.h"
#include "core/memory/step_timeline.h"

namespace zp {

struct MemoryBreakdown {
    // Per GPU, steady state.
    double params_bytes = 0;            // 16-bit (or fp32) weights resident on the GPU
    double frozen_params_bytes = 0;     // of params_bytes: the frozen base as stored (fine-tuning), quantisation state included
    double hpz_secondary_bytes = 0;     // of params_bytes: ZeRO++ hpZ's secondary partition
    double gradients_bytes = 0;         // 16-bit gradients plus the fp32 gradient partition
    double optimizer_states_bytes = 0;  // fp32 master weights plus optimizer moments
    double activations_bytes = 0;
    double buffers_bytes = 0;        // communication buckets, ZeRO-3 gathered working set
    double cuda_context_bytes = 0;   // CUDA context, cuBLAS and NCCL workspaces
    double fragmentation_bytes = 0;  // allocator reserve: "reserved" minus "allocated"

    // Per GPU, the step's peak.
    double peak_allocated_bytes = 0;                // torch.cuda.max_memory_allocated
    double peak_reserved_bytes = 0;                 // max_memory_reserved plus the CUDA context: what nvidia-smi shows
    double peak_required_bytes = 0;                 // allocated + the reserve the allocator cannot free + CUDA context: must fit
    StepMoment peak;                                // the moment of the allocated peak, with its slices
    StepPhase required_phase = StepPhase::StartUp;  // the moment of the required peak: where it fails
    // Under pipeline parallelism, the stage (0-based) whose rank these figures are: the named
    // Parallelism::pipeline_rank, or the one estimate_memory found most loaded; -1 without a pipeline.
    std::int64_t pipeline_stage = -1;

    // Per node: host RAM at its peak over the run (host.peak()), and NVMe.
    double cpu_bytes_per_node = 0;
    double nvme_bytes_per_node = 0;
    HostMemory host;  // the node's host memory phase by phase

    double model_states_bytes() const { return params_bytes + gradients_bytes + optimizer_states_bytes; }
    double allocated_bytes() const { return model_states_bytes() + activations_bytes + buffers_bytes; }
    double overhead_bytes() const { return cuda_context_bytes + fragmentation_bytes; }
    double total_bytes() const { return allocated_bytes() + overhead_bytes(); }
};

}  // namespace zp
