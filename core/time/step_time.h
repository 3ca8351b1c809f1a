#pragma once
// Time per optimizer step (docs/design.md §5): compute, exposed communication, offload.
#include "core/model/scenario.h"

namespace zp {

// Bytes each GPU's collectives move per optimizer step, by kind, and how much of it can hide
// behind compute. S = 16-bit (or fp32) model size in bytes, G = gradient accumulation steps.
struct CommVolume {
    double allreduce_bytes = 0;       // stage 0/1: one all-reduce of S per step
    double reduce_scatter_bytes = 0;  // stage 2: S per micro step; stage 3: S per micro step
    double allgather_bytes = 0;       // stage 2: S once per step; stage 3: 2 S per micro step
    std::int64_t collectives = 0;     // bucketed launches, for the per-launch latency
};

CommVolume comm_volume(double params, int stage, std::int64_t gas, const Training& t, const ZeroSetup& z);

struct StepTime {
    double compute_seconds = 0;
    double comm_seconds = 0;        // exposed (not hidden behind compute)
    double comm_total_seconds = 0;  // before overlap
    double offload_seconds = 0;     // PCIe, CPU optimizer and NVMe time not hidden
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

}  // namespace zp
