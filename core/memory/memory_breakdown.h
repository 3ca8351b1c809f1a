#pragma once
// Per-GPU memory split into the slices the window stacks, plus host RAM and NVMe per node.
// All figures are bytes.

namespace zp {

struct MemoryBreakdown {
    // Per GPU.
    double params_bytes = 0;            // 16-bit (or fp32) weights resident on the GPU
    double gradients_bytes = 0;         // 16-bit gradients plus the fp32 gradient partition
    double optimizer_states_bytes = 0;  // fp32 master weights plus optimizer moments
    double activations_bytes = 0;
    double buffers_bytes = 0;        // communication buckets, ZeRO-3 gathered working set
    double cuda_context_bytes = 0;   // CUDA context, cuBLAS and NCCL workspaces
    double fragmentation_bytes = 0;  // allocator reserve: "reserved" minus "allocated"

    // Per node.
    double cpu_bytes_per_node = 0;
    double nvme_bytes_per_node = 0;

    double model_states_bytes() const { return params_bytes + gradients_bytes + optimizer_states_bytes; }
    double allocated_bytes() const { return model_states_bytes() + activations_bytes + buffers_bytes; }
    double overhead_bytes() const { return cuda_context_bytes + fragmentation_bytes; }
    double total_bytes() const { return allocated_bytes() + overhead_bytes(); }
};

}  // namespace zp
