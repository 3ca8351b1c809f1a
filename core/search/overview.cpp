#include "core/search/overview.h"

#include "core/model/errors.h"

#include <algorithm>

namespace zp {

namespace {
// Indices into zero_setups(): DDP, ZeRO-1, -2, -3, ZeRO-2 + CPU optimizer, ZeRO-3 + CPU optimizer
// and parameters, ZeRO-3 + NVMe optimizer and parameters.
constexpr std::size_t kOverviewIndices[] = {0, 1, 2, 3, 5, 7, 11};
}  // namespace

const std::vector<ZeroSetup>& overview_setups() {
    static const std::vector<ZeroSetup> setups = [] {
        std::vector<ZeroSetup> v;
        for (std::size_t i : kOverviewIndices) v.push_back(zero_setups()[i]);
        return v;
    }();
    return setups;
}

std::string short_setup_label(const ZeroSetup& z) {
    std::string s = z.stage == 0 ? "DDP" : "ZeRO-" + std::to_string(z.stage);
    if (z.offload_optimizer == OffloadDevice::Cpu || z.offload_param == OffloadDevice::Cpu) s += "+CPU";
    if (z.offload_optimizer == OffloadDevice::Nvme || z.offload_param == OffloadDevice::Nvme) s += "+NVMe";
    return s;
}

Scenario with_setup(const Scenario& s, const ZeroSetup& z) {
    Scenario out = s;
    out.zero.stage = z.stage;
    out.zero.offload_optimizer = z.offload_optimizer;
    out.zero.offload_param = z.offload_param;
    return out;
}

Scenario with_gpu_count(const Scenario& s, std::int64_t gpus, std::int64_t node_size) {
    if (gpus < 1 || node_size < 1) throw InputError("the GPU count and the GPUs per node must be at least 1");
    const std::int64_t per_node = std::min(gpus, node_size);
    if (gpus % per_node != 0)
        throw InputError(std::to_string(gpus) + " GPUs do not split into nodes of " + std::to_string(per_node) + " GPUs");
    Scenario out = s;
    out.cluster.gpus_per_node = per_node;
    out.cluster.nodes = gpus / per_node;
    return out;
}

Overview compute_overview(const Scenario& s) {
    Overview o;
    try {
        gradient_accumulation_steps(s.training, s.cluster.world_size());
    } catch (const InputError& e) {
        o.step_valid = false;
        o.step_error = e.what();
    }
    try {
        o.plan = recommend(s);
    } catch (const InputError& e) {
        o.plan_valid = false;
        o.plan_error = e.what();
    }
    for (std::size_t i : kOverviewIndices) {
        if (o.plan_valid) {
            o.bars.push_back(o.plan.per_setup[i]);
            continue;
        }
        const Scenario v = with_setup(s, zero_setups()[i]);
        Candidate c;
        if (o.step_valid) {
            c = evaluate(v);
        } else {
            c.zero = v.zero;
            c.checkpointing = v.training.checkpointing;
            c.micro_batch = v.training.micro_batch;
            c.memory = estimate_memory(v);
            c.fit = check_fit(v, c.memory);
        }
        o.bars.push_back(c);
    }
    // The scaling curves use the recommended micro batch and recompute (or the least-memory
    // ones, micro batch 1 and full recompute, when nothing fits) so they match the bars.
    Scenario scaling_base = s;
    if (o.plan_valid && o.plan.feasible) {
        scaling_base.training.micro_batch = o.plan.best.micro_batch;
        scaling_base.training.checkpointing = o.plan.best.checkpointing;
    } else if (s.training.auto_micro_batch && s.training.auto_checkpointing) {
        scaling_base.training.micro_batch = 1;
        scaling_base.training.checkpointing = Checkpointing::Full;
    }
    const std::int64_t node_size = s.cluster.gpus_per_node;
    for (int stage = 0; stage <= 3; ++stage) {
        ScalingSeries series;
        series.stage = stage;
        ZeroSetup z;
        z.stage = stage;
        for (std::int64_t gpus = 1; gpus <= 4096; gpus *= 2) {
            Scenario v = with_setup(scaling_base, z);
            // Powers of two split into nodes of a power-of-two size; other node sizes use one node per GPU group.
            const std::int64_t per_node = gpus % std::min(gpus, node_size) == 0 ? node_size : 1;
            v = with_gpu_count(v, gpus, per_node);
            series.points.push_back({gpus, estimate_memory(v).total_bytes()});
        }
        o.scaling.push_back(std::move(series));
    }
    return o;
}

}  // namespace zp
