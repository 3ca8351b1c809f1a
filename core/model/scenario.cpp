#include "core/model/scenario.h"

#include "core/deepspeed/batch_rule.h"
#include "core/model/errors.h"

#include <cmath>

namespace zp {

std::int64_t effective_global_batch(const Training& t, std::int64_t world_size) {
    if (t.global_batch > 0) return t.global_batch;
    const std::int64_t per_step = t.micro_batch * world_size;
    const std::int64_t wanted = 64;
    return ((wanted + per_step - 1) / per_step) * per_step;
}

std::int64_t gradient_accumulation_steps(const Training& t, std::int64_t world_size) {
    const std::int64_t global = effective_global_batch(t, world_size);
    const BatchRule r = deepspeed_batch_rule(global, t.micro_batch, std::nullopt, world_size);
    if (!r.error.empty())
        throw InputError(r.error + " (global batch " + std::to_string(global) + ", micro batch " + std::to_string(t.micro_batch) + ", " +
                         std::to_string(world_size) + " GPUs: make the global batch a multiple of micro batch x GPUs)");
    return r.gas;
}

void validate(const Scenario& s) {
    validate(s.model);
    const Cluster& c = s.cluster;
    if (c.nodes <= 0 || c.gpus_per_node <= 0) throw InputError("the cluster needs at least one node with at least one GPU");
    if (c.world_size() > 1'000'000) throw InputError("at most 1,000,000 GPUs are supported");
    auto positive = [](double v, const char* what) {
        if (!(v > 0) || !std::isfinite(v)) throw InputError(std::string(what) + " must be a positive number");
    };
    auto non_negative = [](double v, const char* what) {
        if (!(v >= 0) || !std::isfinite(v)) throw InputError(std::string(what) + " must be zero or more");
    };
    positive(c.gpu.memory_gib, "GPU memory");
    positive(c.gpu.peak_tflops_16bit, "GPU peak TFLOP/s");
    positive(c.intra_node_gbytes_per_s, "intra-node bandwidth");
    positive(c.inter_node_gbits_per_s, "inter-node bandwidth");
    positive(c.pcie_gbytes_per_s, "PCIe bandwidth");
    non_negative(c.cpu_ram_bytes_per_node, "CPU RAM per node");
    non_negative(c.nvme_bytes_per_node, "NVMe capacity per node");
    positive(c.nvme_gbytes_per_s, "NVMe bandwidth");
    positive(c.cpu_adam_params_per_second, "CPU Adam throughput");
    const Training& t = s.training;
    if (t.seq_len <= 0 || t.seq_len > (1 << 24)) throw InputError("sequence length must be between 1 and 16777216");
    if (t.micro_batch <= 0 || t.micro_batch > 65536) throw InputError("micro batch must be between 1 and 65536");
    if (t.global_batch < 0 || t.global_batch > (1ll << 40)) throw InputError("global batch must be positive");
    const ZeroSetup& z = s.zero;
    if (z.stage < 0 || z.stage > 3) throw InputError("ZeRO stage must be 0, 1, 2 or 3");
    if (z.offload_optimizer != OffloadDevice::None && z.stage == 0)
        throw InputError("offload_optimizer needs ZeRO stage 1, 2 or 3 (DeepSpeed ignores it at stage 0)");
    if (z.offload_param != OffloadDevice::None && z.stage != 3)
        throw InputError("offload_param is valid only with ZeRO stage 3");
    if (z.offload_param != OffloadDevice::None && z.offload_optimizer == OffloadDevice::None)
        throw InputError("offload_param without offload_optimizer is not supported by DeepSpeed; offload the optimizer too");
    if (z.offload_optimizer == OffloadDevice::Nvme && z.stage != 3)
        throw InputError("offload_optimizer nvme needs ZeRO stage 3 (ZeRO-Infinity); at stage 1 and 2 DeepSpeed silently offloads to the CPU instead (stage_1_and_2.py)");
    if (t.precision == Precision::Fp32 && z.offload_optimizer != OffloadDevice::None)
        throw InputError("optimizer offload needs mixed precision (bf16 or fp16): DeepSpeed's CPU Adam updates fp32 masters of 16-bit weights");
    const Assumptions& a = s.assumptions;
    if (!(a.headroom >= 0 && a.headroom < 1)) throw InputError("headroom must be a fraction in [0, 1)");
    if (!(a.fragmentation >= 0 && a.fragmentation < 1)) throw InputError("fragmentation must be a fraction in [0, 1)");
    non_negative(a.cuda_context_bytes, "CUDA context");
    if (!(a.mfu > 0 && a.mfu <= 1)) throw InputError("MFU must be a fraction in (0, 1]");
    for (double v : {z.reduce_bucket_elems, z.allgather_bucket_elems, z.stage3_prefetch_bucket_elems, z.stage3_max_live_parameters,
                     z.stage3_param_persistence_threshold, z.sub_group_size, z.offload_param_buffer_size})
        non_negative(v, "bucket and buffer sizes");
}

}  // namespace zp
