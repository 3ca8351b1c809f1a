#include "core/search/zero_setups.h"
#include "core/base/errors.h"
#include "core/model/mics.h"

#include <array>

namespace zp {
namespace {

using D = OffloadDevice;
constexpr std::array<ZeroSetupRow, 12> kRows{{
    {{0, D::None, D::None}, true},
    {{1, D::None, D::None}, true},
    {{2, D::None, D::None}, true},
    {{3, D::None, D::None}, true},
    {{1, D::Cpu, D::None}, false},
    {{2, D::Cpu, D::None}, true},
    {{3, D::Cpu, D::None}, false},
    {{3, D::Cpu, D::Cpu}, true},
    {{3, D::Nvme, D::None}, false},
    {{3, D::Nvme, D::Cpu}, false},
    {{3, D::Cpu, D::Nvme}, false},
    {{3, D::Nvme, D::Nvme}, true},
}};

std::vector<ZeroSetup> setups_where(bool overview_only) {
    std::vector<ZeroSetup> v;
    for (const ZeroSetupRow& row : kRows) {
        if (overview_only && !row.in_overview) continue;
        ZeroSetup z;
        z.stage = row.key.stage;
        z.offload_optimizer = row.key.offload_optimizer;
        z.offload_param = row.key.offload_param;
        v.push_back(z);
    }
    return v;
}

std::string device_label(OffloadDevice d) { return d == OffloadDevice::Cpu ? "CPU" : "NVMe"; }

}  // namespace

std::span<const ZeroSetupRow> zero_setup_rows() { return kRows; }

const std::vector<ZeroSetup>& zero_setups() {
    static const std::vector<ZeroSetup> setups = setups_where(false);
    return setups;
}

const ZeroSetup& zero_setup(const SetupKey& k) {
    for (const ZeroSetup& z : zero_setups())
        if (setup_key(z) == k) return z;
    throw InputError("no such ZeRO setup: " + setup_label(k));
}

const std::vector<ZeroSetup>& overview_setups() {
    static const std::vector<ZeroSetup> setups = setups_where(true);
    return setups;
}

std::string setup_label(const SetupKey& k) { return english(setup_phrase(k)); }

Phrase setup_phrase(const SetupKey& k) {
    const Phrase stage = k.stage == 0 ? std::string("DDP (ZeRO-0)") : "ZeRO-" + std::to_string(k.stage);
    if (k.offload_optimizer != OffloadDevice::None && k.offload_param == OffloadDevice::None)
        return phrase(QT_TRANSLATE_NOOP("Core", "%1 + %2 optimizer"), {stage, device_label(k.offload_optimizer)});
    if (k.offload_optimizer != OffloadDevice::None && k.offload_optimizer == k.offload_param)
        return phrase(QT_TRANSLATE_NOOP("Core", "%1 + %2 optimizer and params"), {stage, device_label(k.offload_optimizer)});
    if (k.offload_optimizer != OffloadDevice::None)
        return phrase(QT_TRANSLATE_NOOP("Core", "%1 + %2 optimizer, %3 params"),
                      {stage, device_label(k.offload_optimizer), device_label(k.offload_param)});
    // offload_param alone (stage 3, the optimizer on the GPU): DeepSpeed runs it; the search leaves it
    // out (kRows), as DeepSpeed's estimator does (stage3.py estimate_zero3_model_states_mem_needs_all_cold).
    if (k.offload_param != OffloadDevice::None)
        return phrase(QT_TRANSLATE_NOOP("Core", "%1 + %2 params"), {stage, device_label(k.offload_param)});
    return stage;
}

std::string short_setup_label(const SetupKey& k) {
    std::string s = k.stage == 0 ? "DDP" : "ZeRO-" + std::to_string(k.stage);
    if (k.offload_optimizer == OffloadDevice::None) return s;
    s += "+" + device_label(k.offload_optimizer);
    // Below stage 3 only the optimizer is offloaded, so the device says it; at stage 3 the
    // parameters' device is said where it is not the optimizer's.
    if (k.stage == 3 && k.offload_param != k.offload_optimizer)
        s += k.offload_param == OffloadDevice::None ? " opt" : " opt+" + device_label(k.offload_param);
    return s;
}

Phrase setup_phrase(const SetupKey& k, Engine e, bool hybrid_shard) {
    if (e != Engine::DeepSpeed && engine_runs_setup(FsdpSetup{.engine = e}, k)) return Phrase(fsdp_setup_name(k, e, hybrid_shard));
    return setup_phrase(k);
}

std::string setup_label(const SetupKey& k, Engine e, bool hybrid_shard) { return english(setup_phrase(k, e, hybrid_shard)); }

std::string short_setup_label(const SetupKey& k, Engine e, bool hybrid_shard) {
    if (e == Engine::DeepSpeed || !engine_runs_setup(FsdpSetup{.engine = e}, k)) return short_setup_label(k);
    // FSDP2's words without their keyword: "fully_shard" (resharding after forward, stage 3),
    // "no reshard" (stage 2), "HSDP" on a 2-D mesh; an offload "+CPU" as the ZeRO labels say it.
    if (e == Engine::Fsdp2) {
        const std::string name = hybrid_shard ? (k.stage == 3 ? "HSDP" : "HSDP no reshard") : (k.stage == 3 ? "fully_shard" : "no reshard");
        return name + (k.offload_param == OffloadDevice::Cpu ? "+CPU" : "");
    }
    // The strategy's name, its CPUOffload shortened as the ZeRO labels shorten an offload ("+CPU").
    std::string name = fsdp_strategy_name(k, hybrid_shard);
    if (const auto at = name.find(" + CPUOffload"); at != std::string::npos) name.replace(at, std::string::npos, "+CPU");
    return name;
}

std::string engine_name(Engine e) {
    switch (e) {
    case Engine::DeepSpeed: return "DeepSpeed";
    case Engine::Fsdp: return "PyTorch FSDP";
    case Engine::Fsdp2: return "PyTorch FSDP2 (fully_shard)";
    }
    return to_string(e);
}

std::string fsdp_strategy_name(const SetupKey& k, bool hybrid_shard) {
    if (!engine_runs_setup(FsdpSetup{.engine = Engine::Fsdp}, k)) return {};
    const char* name = k.stage == 3   ? (hybrid_shard ? "HYBRID_SHARD" : "FULL_SHARD")
                       : k.stage == 2 ? (hybrid_shard ? "HYBRID_SHARD_ZERO2" : "SHARD_GRAD_OP")
                                      : "NO_SHARD";
    return std::string(name) + (k.offload_param == OffloadDevice::Cpu ? " + CPUOffload" : "");
}

namespace {
// FSDP2's CPU offload after a setup's name: offload_policy=CPUOffloadPolicy().
std::string fully_shard_offload_words(const SetupKey& k) { return k.offload_param == OffloadDevice::Cpu ? " + CPUOffloadPolicy" : ""; }
}  // namespace

std::string fsdp_setup_name(const SetupKey& k, Engine e, bool hybrid_shard) {
    if (e != Engine::Fsdp2) return fsdp_strategy_name(k, hybrid_shard);
    if (!engine_runs_setup(FsdpSetup{.engine = e}, k)) return {};
    // fully_shard (torch/distributed/fsdp/_fully_shard/_fully_shard.py) has no strategy enum:
    // reshard_after_forward defaults to True (FULL_SHARD's), False keeps each unit gathered from its
    // forward to its backward (SHARD_GRAD_OP's); hybrid sharding is a 2-D device mesh (replicate,
    // shard: HSDP); offload is offload_policy=CPUOffloadPolicy().
    std::string name = hybrid_shard ? "fully_shard on an HSDP mesh" : "fully_shard";
    if (k.stage != 3) name += std::string(", ") + reshard_after_forward_argument(k.stage);
    return name + fully_shard_offload_words(k);
}

std::string engine_words(const Scenario& s, bool name_strategy) {
    const FsdpSetup& f = s.fsdp;
    if (f.auto_engine) return "auto: DeepSpeed or PyTorch FSDP, whichever plan is faster (the recommendation says which)";
    if (!is_fsdp(f)) return {};
    const SetupKey k = setup_key(s.zero);
    const bool hybrid = fsdp_hybrid_sharding(s);
    // Under FSDP2 the engine's name already says fully_shard: its argument, which says the stage.
    const std::string strategy = f.engine == Engine::Fsdp2 && engine_runs_setup(f, k)
                                     ? reshard_after_forward_argument(k.stage) + fully_shard_offload_words(k)
                                     : fsdp_strategy_name(k, hybrid);
    std::string out = engine_name(f.engine) + ", ";
    if (name_strategy)
        out += (strategy.empty() ? "no such sharding at ZeRO-" + std::to_string(k.stage) : strategy) + " (ZeRO-" + std::to_string(k.stage) +
               "'s sharding" + (hybrid && k.stage >= 2 ? " inside each node, replicated across nodes" : "") + "), ";
    else if (hybrid) out += "hybrid sharding (inside each node, replicated across nodes), ";
    const std::string dtype = to_string(s.training.precision);
    // fully_shard's policy is MixedPrecisionPolicy (torch.distributed.fsdp, FSDP2); FSDP1's is
    // MixedPrecision. Trained in fp32 neither is built (Accelerate's mixed_precision "no").
    const std::string policy = f.engine == Engine::Fsdp2 ? "MixedPrecisionPolicy" : "MixedPrecision";
    if (s.training.precision == Precision::Fp32) {
        out += "fp32 throughout (no " + policy + ")";
    } else {
        switch (f.precision) {
        case FsdpPrecision::Mixed: out += "fp32 shards with " + policy + "(param_dtype=" + dtype + ")"; break;
        case FsdpPrecision::Autocast: out += "fp32 shards under torch.autocast(" + dtype + "), no " + policy; break;
        case FsdpPrecision::Pure: out += "the model in " + dtype + " (no " + policy + ", 16-bit optimizer states)"; break;
        }
    }
    // FSDP2's fully_shard has no limit_all_gathers (its streams bound the gathers in flight).
    if (f.engine == Engine::Fsdp) out += f.limit_all_gathers ? ", limit_all_gathers" : ", limit_all_gathers off";
    return out + (f.sync_each_batch ? ", sync_each_batch" : "");
}

std::string zeropp_words(const ZeroPlusPlus& z) {
    const Phrase p = zeropp_phrase(z);
    return p.text.empty() ? std::string() : english(p);
}

Phrase zeropp_phrase(const ZeroPlusPlus& z) {
    Phrase out;
    const auto add = [&](Phrase part) {
        out = out.text.empty() ? std::move(part) : phrase(QT_TRANSLATE_NOOP("Core", "%1, %2"), {out, std::move(part)});
    };
    if (z.hpz_partition_size > 1) add(phrase(QT_TRANSLATE_NOOP("Core", "hpZ over %1 GPUs"), {std::to_string(z.hpz_partition_size)}));
    if (z.quantized_weights) add(phrase(QT_TRANSLATE_NOOP("Core", "int8 weight gathers (qwZ)")));
    if (z.quantized_gradients) add(phrase(QT_TRANSLATE_NOOP("Core", "int4 gradient reduce (qgZ)")));
    return out;
}

std::string zeropp_not_taken_words(const Scenario& s) { return english(zeropp_not_taken_phrase(s)); }

Phrase zeropp_not_taken_phrase(const Scenario& s) {
    const ZeroPlusPlus asked = zeropp_switches(s.zero), taken = effective_zeropp(s);
    if (!asked.any()) return {};
    // Only stage3.py and partition_parameters.py read the keys.
    if (s.zero.stage != 3)
        return phrase(QT_TRANSLATE_NOOP("Core", "asked, but only ZeRO-3 reads it (stage %1): off"), {std::to_string(s.zero.stage)});
    Phrase out;
    const auto add = [&](Phrase part) {
        out = out.text.empty() ? std::move(part) : phrase(QT_TRANSLATE_NOOP("Core", "%1; %2"), {out, part});
    };
    if (asked.hpz_partition_size > 1 && taken.hpz_partition_size <= 1) {
        const std::string gpus = std::to_string(asked.hpz_partition_size);
        if (s.parallel.tensor > 1)
            add(phrase(QT_TRANSLATE_NOOP("Core",
                                         "hpZ over %1 GPUs not taken: its groups are consecutive ranks, which under tensor parallelism "
                                         "hold different tensor shards (utils/groups.py _create_zero_param_parallel_group)"),
                       {gpus}));
        else if (s.zero.offload_param != OffloadDevice::None)
            add(phrase(QT_TRANSLATE_NOOP("Core", "hpZ over %1 GPUs not taken: the parameters are offloaded"), {gpus}));
        else
            add(phrase(QT_TRANSLATE_NOOP("Core", "hpZ over %1 GPUs not taken: it is not smaller than the ranks ZeRO partitions over"),
                       {gpus}));
    }
    if (asked.quantized_gradients && !taken.quantized_gradients)
        add(phrase(QT_TRANSLATE_NOOP("Core", "qgZ not taken: on one node stage 3 reduces in 16 bits (stage3.py __avg_scatter_grads)")));
    return out;
}

void apply_zeropp_choice(ZeroSetup& z, ZeroppChoice c, std::int64_t gpus_per_node) {
    z.hpz_partition_size = c == ZeroppChoice::Off ? 1 : gpus_per_node;
    z.quantized_weights = z.quantized_gradients = c == ZeroppChoice::HpzQwzQgz;
}

const char* to_string(ZeroppChoice c) {
    switch (c) {
    case ZeroppChoice::Off: return "off";
    case ZeroppChoice::Hpz: return "hpz";
    case ZeroppChoice::HpzQwzQgz: return "hpz+qwz+qgz";
    }
    return "off";
}

}  // namespace zp
