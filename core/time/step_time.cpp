#include "core/time/step_time.h"

#include "core/memory/model_states.h"
#include "core/model/units.h"
#include "core/time/collectives.h"
#include "core/time/flops.h"

#include <algorithm>
#include <cmath>

namespace zp {
namespace {

std::int64_t launches(double elems, double bucket_elems) {
    if (bucket_elems <= 0) return 1;
    return static_cast<std::int64_t>(std::ceil(elems / bucket_elems));
}

}  // namespace

CommVolume comm_volume(double params, int stage, std::int64_t gas, const Training& t, const ZeroSetup& z) {
    const double elem = t.precision == Precision::Fp32 ? 4.0 : 2.0;
    const double S = elem * params;
    const double G = static_cast<double>(gas);
    CommVolume v;
    switch (stage) {
    case 0:
    case 1:
        // Gradients accumulate locally; one all-reduce (reduce + broadcast at stage 1) per step.
        v.allreduce_bytes = S;
        v.collectives = launches(params, z.reduce_bucket_elems);
        break;
    case 2:
        // ZeRO-2 reduce-scatters gradients every micro step and all-gathers updated parameters once.
        v.reduce_scatter_bytes = S * G;
        v.allgather_bytes = S;
        v.collectives = gas * launches(params, z.reduce_bucket_elems) + launches(params, z.allgather_bucket_elems);
        break;
    default:
        // ZeRO-3 gathers parameters for forward and again for backward, and reduce-scatters
        // gradients, every micro step: the ZeRO paper's 1.5x of data parallelism (Sec. 7.2.2), times G.
        v.reduce_scatter_bytes = S * G;
        v.allgather_bytes = 2 * S * G;
        v.collectives = gas * (launches(params, z.reduce_bucket_elems) + 2 * launches(params, z.stage3_prefetch_bucket_elems));
        break;
    }
    return v;
}

StepTime estimate_step(const Scenario& s) {
    const Cluster& c = s.cluster;
    const double N = static_cast<double>(c.world_size());
    const double n = static_cast<double>(c.nodes);
    const double P = static_cast<double>(parameter_count(s.model));
    StepTime st;
    st.gradient_accumulation_steps = gradient_accumulation_steps(s.training, c.world_size());
    const double G = static_cast<double>(st.gradient_accumulation_steps);
    const double global = static_cast<double>(effective_global_batch(s.training, c.world_size()));
    st.tokens_per_step = global * static_cast<double>(s.training.seq_len);

    const StepFlops flops = step_flops(s.model, s.training, st.tokens_per_step);
    st.model_flops = flops.model;
    st.hardware_flops = flops.hardware;
    const double peak_flops = c.gpu.peak_tflops_16bit * 1e12 * (s.training.precision == Precision::Fp32 ? 0.5 : 1.0);
    st.compute_seconds = flops.hardware / (N * peak_flops * s.assumptions.mfu);

    // Communication on the bottleneck link, plus a launch latency per bucket.
    const double bus = bottleneck_gbytes_per_s(c);
    const CommVolume v = comm_volume(P, s.zero.stage, st.gradient_accumulation_steps, s.training, s.zero);
    st.comm_total_seconds = allreduce_seconds(v.allreduce_bytes, N, bus) + reduce_scatter_seconds(v.reduce_scatter_bytes, N, bus) +
                            allgather_seconds(v.allgather_bytes, N, bus);
    if (N > 1) st.comm_total_seconds += static_cast<double>(v.collectives) * s.assumptions.collective_latency_seconds;

    // What overlap_comm can hide: backward is 2/3 of compute. Stage 0 hides nothing (DeepSpeed's
    // engine all-reduces the gradients after backward; overlap_comm is a ZeRO setting). Stage 1
    // reduces at the accumulation boundary, so only the last micro step's backward hides it;
    // stage 2 hides each micro step's reduce-scatter in that step's backward but not the final
    // all-gather; stage 3 prefetches in forward and reduces in backward.
    double window = 0;
    if (s.zero.overlap_comm && N > 1) {
        const double f = s.assumptions.comm_overlap_fraction;
        const double backward = st.compute_seconds * 2.0 / 3.0;
        switch (s.zero.stage) {
        case 0: window = 0; break;
        case 1: window = f * backward / G; break;
        case 2: window = std::min(f * backward, reduce_scatter_seconds(v.reduce_scatter_bytes, N, bus)); break;
        default: window = f * st.compute_seconds; break;
        }
    }
    st.comm_seconds = std::max(0.0, st.comm_total_seconds - window);

    // Offload (ZeRO-Offload Sec. 3.3; ZeRO-Infinity): 16-bit gradients down every micro step and
    // 16-bit parameters up once per step over each GPU's PCIe link (4 bytes per parameter of its
    // partition with G = 1); the CPU optimizer over the node's share; NVMe reads and writes of the
    // swapped states. Counted as exposed: DeepSpeed runs the CPU step after backward.
    if (s.zero.offload_optimizer != OffloadDevice::None) {
        const double partition = P / N;
        const double pcie_bytes = 2.0 * partition * G + 2.0 * partition;
        st.offload_seconds += pcie_bytes / (c.pcie_gbytes_per_s * kBytesPerGB);
        st.offload_seconds += (P / n) / c.cpu_adam_params_per_second;
        if (s.zero.offload_optimizer == OffloadDevice::Nvme) {
            const double state_bytes = (8.0 + optimizer_moment_bytes_per_param(s.training.optimizer)) * P / n;
            st.offload_seconds += 2.0 * state_bytes / (c.nvme_gbytes_per_s * kBytesPerGB);  // read and write back
        }
    }
    if (s.zero.offload_param != OffloadDevice::None) {
        // Each rank brings its 16-bit partition to the GPU for forward and for backward, every micro step.
        st.offload_seconds += 2.0 * 2.0 * (P / N) * G / (c.pcie_gbytes_per_s * kBytesPerGB);
        if (s.zero.offload_param == OffloadDevice::Nvme)
            st.offload_seconds += (2.0 * 2.0 * P / n * G + 2.0 * P / n) / (c.nvme_gbytes_per_s * kBytesPerGB);
    }

    st.seconds = st.compute_seconds + st.comm_seconds + st.offload_seconds;
    st.tokens_per_second = st.tokens_per_step / st.seconds;
    st.model_tflops_per_gpu = st.model_flops / st.seconds / N / 1e12;
    st.mfu = st.model_tflops_per_gpu / c.gpu.peak_tflops_16bit;
    st.slowdown_percent = (st.seconds / st.compute_seconds - 1.0) * 100.0;
    st.budget_seconds = s.assumptions.token_budget / st.tokens_per_second;
    st.budget_gpu_hours = st.budget_seconds * N / 3600.0;
    return st;
}

}  // namespace zp
