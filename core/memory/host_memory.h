#pragma once
// Host RAM and NVMe per node over a whole run (docs/design.md §4.6): what a node's processes hold
// while loading the model, in deepspeed.initialize, during training and while saving a
// checkpoint, term by term with the DeepSpeed, transformers or PyTorch code path each models
// (host_memory.cpp). The node's peak is the largest of the four; NVMe holds what ZeRO-Infinity
// swaps out. Figures are for the busiest node (node 0, where rank 0 gathers the model on save).
#include "core/model/scenario.h"
#include "core/model/trainable_params.h"

#include <array>

namespace zp {

// Bytes on one node at one moment, in the slices the window stacks (bottom first).
struct HostSlices {
    double processes = 0;         // each training process's CUDA context and libraries, dataloader workers
    double model_copy = 0;        // the model or its checkpoint materialised on the host (loading, saving)
    double parameters = 0;        // offloaded 16-bit parameters (ZeRO-3 offload_param)
    double gradients = 0;         // offloaded fp32 gradient partitions and 16-bit gradient buffers
    double optimizer_states = 0;  // offloaded fp32 master weights and optimizer moments
    double buffers = 0;           // pinned staging and NVMe swap buffers, CPU activation checkpoints, start-up copies

    double total() const { return processes + model_copy + parameters + gradients + optimizer_states + buffers; }
};

struct HostMoment {
    HostPhase phase = HostPhase::Loading;
    HostSlices bytes;
    double pinned_rounding_bytes = 0;  // of the total: pinned tensors rounded up to a power of two (PyTorch's host allocator)
    const char* cause = "";            // what dominates this moment, in a few words
};

// Who builds the model on the host while loading, before deepspeed.initialize or FSDP's wrap
// (loading_moment in host_memory.cpp; the reports name it from here):
//   EveryProcess            each process builds the whole model (or its model-parallel share)
//   NodeFirstProcess        FSDP's cpu_ram_efficient_loading: the node's first process alone
//   ZeroInit                ZeRO-3 under zero.Init: each process reads a checkpoint shard, partitioned on the GPUs
//   QuantisedOnEveryProcess a bitsandbytes base without zero.Init: each process reads a shard, quantised on its GPU
enum class ModelLoader { EveryProcess, NodeFirstProcess, ZeroInit, QuantisedOnEveryProcess };
ModelLoader model_loader(const Scenario& s);
// Whether the whole model is built on the meta device and filled tensor by tensor, with no
// checkpoint shard beside it: a process that loads the whole model does so with
// Training::low_cpu_mem_usage (every load from transformers 4.51); FSDP's cpu_ram_efficient_loading
// always, since before 4.51 transformers turned low_cpu_mem_usage on itself there (modeling_utils.py
// from_pretrained: "if is_fsdp_enabled(): low_cpu_mem_usage = True", is_fsdp_enabled() reading
// Accelerate's FSDP_CPU_RAM_EFFICIENT_LOADING). zero.Init and a quantised load read a shard either way.
inline bool loads_on_meta_device(const Training& t, ModelLoader loader) {
    return loader == ModelLoader::NodeFirstProcess || (t.low_cpu_mem_usage && loader == ModelLoader::EveryProcess);
}

struct HostMemory {
    std::array<HostMoment, 4> moments;  // indexed by HostPhase
    HostPhase peak_phase = HostPhase::Loading;
    double nvme_bytes = 0;  // per node: what ZeRO-Infinity keeps on NVMe

    const HostMoment& moment(HostPhase p) const { return moments[static_cast<std::size_t>(p)]; }
    const HostMoment& peak() const { return moment(peak_phase); }
    double peak_bytes() const { return peak().bytes.total(); }
};

// `cpu_checkpoint_bytes_per_gpu`: activation checkpoints kept on the host (cpu_checkpointing),
// per GPU, from the activation model; they live during training.
HostMemory host_memory(const Scenario& s, double cpu_checkpoint_bytes_per_gpu = 0);
// The same, with the rank's parameter split the caller has already (rank_parameter_split(s), at
// pipeline_rank -1 for a pipelined rank: the larger of its first and last stage).
HostMemory host_memory(const Scenario& s, double cpu_checkpoint_bytes_per_gpu, const ParameterSplit& rank_split);

// host_memory reads the micro batch only through whether micro steps accumulate, and neither the
// buckets nor the recompute policy except through the CPU checkpoint bytes. A caller that varies
// only those (the recommender, one ZeRO setup at a time) keeps one memo and gets the same result
// without recomputing it when the checkpoint bytes repeat for the same accumulation regime (one
// slot each). Reset it when anything else changes.
struct HostMemoryMemo {
    struct Slot {
        bool valid = false;
        double cpu_checkpoint_bytes_per_gpu = 0;
        HostMemory value;
    };
    std::array<Slot, 2> by_accumulating;  // [0]: one micro step per optimizer step, [1]: accumulating
};
const HostMemory& host_memory(const Scenario& s, double cpu_checkpoint_bytes_per_gpu, HostMemoryMemo& memo);

// `bytes` rounded up to the next power of two: what PyTorch's CachingHostAllocator allocates for
// a pinned tensor of `bytes` (aten/src/ATen/core/CachingHostAllocator.h, allocate: PowerOf2Ceil).
double pinned_allocation_bytes(double bytes);

// Bytes a parameter of the model as a process builds it on the host before training (the
// --load-dtype choice; under FSDP as its loading path leaves it: host_memory.cpp).
double loaded_bytes_per_param(const Scenario& s);

// The ratio pinned / plain over a model's weight tensors split `parts` ways and pinned one by one
// (each rounded up on its own): >= 1, exactly 1 when every piece is a power of two in bytes.
double per_tensor_pinned_factor(const ModelSpec& m, double parts, double bytes_per_element);

// transformers' save_pretrained shards checkpoints at max_shard_size "5GB" (modeling_utils.py),
// so loading reads at most one shard of this size at a time.
inline constexpr double kCheckpointShardBytes = 5e9;

}  // namespace zp
