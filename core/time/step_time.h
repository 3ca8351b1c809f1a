#pragma once
// Time per optimizer step (docs/design.md §5): compute (core/time/compute_time.h), the exposed
// part of each collective by how DeepSpeed overlaps it, ZeRO-3's per-module overhead, offload.
#include "core/model/layer_modules.h"
#include "core/model/parallel_layout.h"
#include "core/model/scenario.h"
#include "core/time/compute_time.h"

#include <array>
#include <vector>

namespace zp {

// Bytes each GPU's collectives move per optimizer step, by kind, and how much of it can hide
// behind compute. S = 16-bit (or fp32) model size in bytes, G = gradient accumulation steps.
struct CommVolume {
    double allreduce_bytes = 0;       // stage 0/1: one all-reduce of S per step; stage 2: S per micro step (all-reduced buckets)
    double reduce_scatter_bytes = 0;  // stage 2: S per micro step (before v0.12.4); stage 3: S per micro step
    double allgather_bytes = 0;       // stage 1/2: S once per step; stage 3: 2 S per micro step
    std::int64_t collectives = 0;     // bucketed launches, for the per-launch latency
};

CommVolume comm_volume(double params, int stage, std::int64_t gas, const Training& t, const ZeroSetup& z);

// ZeRO-3's costs per module (DeepSpeed deepspeed/runtime/zero/parameter_offload.py: pre/post
// forward and backward hooks on every module; partitioned_param_coordinator.py fetch_sub_module /
// release_sub_module: one all-gather per module whose parameters are partitioned): the host time
// of one module's hooks in one pass is Assumptions::zero3_hook_seconds_per_module (its FITTED
// default, zero3_costs::kHookSecondsPerModule, and its row: core/model/host_overheads.h).

// DeepSpeed-Ulysses' all-to-alls of one attention layer, per micro step, bytes one rank sends
// (deepspeed/sequence/layer.py DistributedAttention; Jacobs et al. 2023, arXiv 2309.14509 Sec. 3.2:
// q, k, v in and the context out, "aggregate communication volume per link of 4Nh/P"): forward,
// the gradients' in backward, and the forward again under full recompute. Zero without Ulysses.
struct UlyssesTraffic {
    double forward_bytes = 0;
    double backward_bytes = 0;
    double recompute_bytes = 0;
    GroupLink link = GroupLink::None;  // the Ulysses group's links
};
UlyssesTraffic ulysses_traffic(const Scenario& s);
// Their time per micro step over every layer, on the compute stream (exposed), with a launch
// latency per all-to-all.
double ulysses_all_to_all_seconds(const Scenario& s);

struct StepTime {
    double compute_seconds = 0;
    double comm_seconds = 0;        // exposed (not hidden behind compute), ZeRO-3 overhead included
    double comm_total_seconds = 0;  // before overlap
    double offload_seconds = 0;     // PCIe, CPU optimizer and NVMe time not hidden
    // The breakdown (docs/design.md §5): what each term adds to `seconds`.
    ComputeTime compute;                   // compute_seconds = compute.total_seconds
    double exposed_allreduce_seconds = 0;  // stage 0/1 gradient all-reduce; stage 3 with MiCS: across its replicas
    double exposed_reduce_scatter_seconds = 0;
    double exposed_allgather_seconds = 0;  // stage 2: after the step; stage 3: parameter gathers
    double zero3_overhead_seconds = 0;     // hooks and per-module gather latency (in comm_seconds)
    double tensor_parallel_seconds = 0;    // Megatron's per-layer all-reduces (in comm_seconds)
    double pipeline_p2p_seconds = 0;       // activations and gradients between pipeline stages (in comm_seconds)
    double expert_all_to_all_seconds = 0;  // DeepSpeed MoE's dispatch and combine all-to-alls, every MoE layer (in comm_seconds)
    double ulysses_seconds = 0;            // DeepSpeed-Ulysses' per-layer all-to-alls (in comm_seconds)
    double pipeline_bubble_seconds = 0;    // 1F1B's idle warm-up and cool-down (in compute_seconds)
    double pcie_seconds = 0;               // exposed offload transfers
    double cpu_optimizer_seconds = 0;
    double nvme_seconds = 0;
    // Waiting for the data pipeline (Training::data_seconds_per_sample): what it takes past the rest
    // of the step, which it runs beside (add_data_wait); not part of offload_seconds.
    double data_wait_seconds = 0;
    double seconds = 0;
    double tokens_per_second = 0;
    double model_tflops_per_gpu = 0;
    double mfu = 0;               // model FLOPs / (step time x GPUs x peak)
    double slowdown_percent = 0;  // step time against compute alone
    double model_flops = 0;
    double hardware_flops = 0;
    double tokens_per_step = 0;
    std::int64_t gradient_accumulation_steps = 1;
    double budget_seconds = 0;  // time to train on Assumptions::token_budget tokens
    double budget_gpu_hours = 0;
};

// Throws InputError when the batch does not satisfy DeepSpeed's rule.
StepTime estimate_step(const Scenario& s);
// The same, with the rank's parameter split the caller has already (rank_parameter_split(s)).
StepTime estimate_step(const Scenario& s, const ParameterSplit& rank_split);

// compute_time reads the training, the accumulation steps, the calibration scale and the hooks'
// host time, besides the model, GPU, fine-tuning and the GEMM efficiency scale (Assumptions); the
// GPU optimizer's parameters only through a term linear in them (GpuOptimizerRate). A caller that
// keeps the model, GPU, fine-tuning and assumptions fixed (the recommender, one layout) keeps one
// memo: candidates that differ only in what the rest does not read (the setup's optimizer shard,
// buckets, overlap_comm except where it decides ZeRO-1's gradient hooks) reuse it.
struct ComputeTimeMemo {
    struct Entry {
        bool valid = false;
        Training training;
        std::int64_t gas = 0;
        double scale = 0;
        LayerHooks hooks;
        double routed_slots = 0;
        RankShare share;
        bool stops_early = false;
        double metric_bytes = 0;
        ComputeTime without_optimizer;  // compute_time with no GPU optimizer parameters
        GpuOptimizerRate optimizer;
    };
    using Pair = std::array<Entry, 2>;  // ZeRO-3 asks twice: with its hooks and without
    // A search asks the same compute of every setup on one recompute policy and micro batch (a line
    // of the search, setups outermost): use_line(i) gives line i a pair of its own, so each setup
    // after the first finds its line's compute. Every entry still checks all it was computed from.
    void use_line(std::size_t index) {
        if (index >= lines.size()) lines.resize(index + 1);
        line = index;
    }
    // Room for `count` lines at once (a search knows its lines before it asks the first).
    void size_lines(std::size_t count) {
        if (count > lines.size()) lines.resize(count);
    }
    std::vector<Pair> lines = std::vector<Pair>(1);
    std::size_t line = 0;
    // What the step reads of the model alone, for a caller that also keeps the layout, the
    // precision and the cluster fixed (the recommender, one layout): the rank's parameter split,
    // and ZeRO-3's modules per layer for one persistence threshold.
    bool split_valid = false;
    ParameterSplit split;
    bool modules_valid = false;
    double modules_persistence_threshold = 0;
    LayerModules modules;
};
StepTime estimate_step(const Scenario& s, ComputeTimeMemo& memo);

// No ZeRO setup, bucket or overlap choice runs a step of `s`'s model, training and layout in less:
// the compute of its G micro steps and the pipeline's bubble, without the GPU optimizer and
// without any engine hook (every other term of estimate_step adds time; hooks and the optimizer
// only lengthen the compute). The recommender bounds a recompute policy and micro batch with it
// before estimating their candidates.
double step_seconds_lower_bound(const Scenario& s);

}  // namespace zp
