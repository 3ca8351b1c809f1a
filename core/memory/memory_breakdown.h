#pragma once
// Per-GPU memory split into the slices the window stacks, plus host RAM and NVMe per node, and
// the step's peak. All figures are bytes.
//
// One memory model (docs/design.md §4.7). The slices are the step timeline's composition at the
// moment that decides the fit (core/memory/step_timeline.h): the moment where allocated bytes plus
// what the caching allocator cannot give back is largest (required_phase), split into parameters,
// gradients, optimizer states, activations and buffers as allocated then, the allocator's cache it
// cannot free, and the CUDA context. They sum to peak_required_bytes, what must fit. Beside them
// only the two figures PyTorch reports: the step's largest allocation (max_memory_allocated) and
// its largest reserve (max_memory_reserved, with the context as nvidia-smi shows it).
#include "core/memory/host_memory.h"
#include "core/memory/step_timeline.h"

namespace zp {

struct MemoryBreakdown {
    // Per GPU, at the deciding moment (required_phase).
    double params_bytes = 0;            // 16-bit (or fp32) weights resident on the GPU
    double frozen_params_bytes = 0;     // of params_bytes: the frozen base as stored (fine-tuning), quantisation state included
    double hpz_secondary_bytes = 0;     // of params_bytes: ZeRO++ hpZ's secondary partition
    double gradients_bytes = 0;         // 16-bit gradients plus the fp32 gradient partition
    double optimizer_states_bytes = 0;  // fp32 master weights plus optimizer moments
    double activations_bytes = 0;
    double buffers_bytes = 0;          // communication buckets, ZeRO-3 gathered working set
    double cuda_context_bytes = 0;     // CUDA context, cuBLAS and NCCL workspaces
    double allocator_cache_bytes = 0;  // reserved but not allocated that the allocator cannot free at that moment (core/memory/allocator.h)
    // bitsandbytes' paged optimizer moments (OptimizerStorage::Paged*): CUDA managed memory, outside
    // the caching allocator, so in none of the figures here: resident while the card has room,
    // evicted to host RAM when an allocation needs it (core/memory/model_states.h). Not in the total.
    double paged_optimizer_bytes = 0;

    // Per GPU, the step's peak.
    double peak_allocated_bytes = 0;  // torch.cuda.max_memory_allocated
    double peak_reserved_bytes = 0;   // max_memory_reserved plus the CUDA context: what nvidia-smi shows
    double peak_required_bytes = 0;   // allocated + the reserve the allocator cannot free + CUDA context: must fit (= total_bytes())
    StepMoment peak;                  // the moment of the allocated peak, with its slices
    StepPhase required_phase = StepPhase::StartUp;  // the moment of the required peak: where it fails
    const char* required_cause = "";                // what is allocated at that moment, in a few words
    // Under pipeline parallelism, the stage (0-based) whose rank these figures are: the named
    // Parallelism::pipeline_rank, or the one estimate_memory found most loaded; -1 without a pipeline.
    std::int64_t pipeline_stage = -1;

    // Per node: host RAM at its peak over the run (host.peak()), and NVMe.
    double cpu_bytes_per_node = 0;
    double nvme_bytes_per_node = 0;
    HostMemory host;  // the node's host memory phase by phase

    double model_states_bytes() const { return params_bytes + gradients_bytes + optimizer_states_bytes; }
    double allocated_bytes() const { return model_states_bytes() + activations_bytes + buffers_bytes; }
    double overhead_bytes() const { return cuda_context_bytes + allocator_cache_bytes; }
    double total_bytes() const { return allocated_bytes() + overhead_bytes(); }
};

}  // namespace zp
