#include "core/model/experts.h"

#include "core/base/errors.h"
#include "core/model/mics.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

namespace zp {

std::int64_t local_experts(const Scenario& s) {
    const std::int64_t ep = std::max<std::int64_t>(s.parallel.expert, 1);
    return std::max<std::int64_t>(s.model.experts / ep, 1);
}

std::int64_t expert_data_parallel_size(const Scenario& s) {
    return std::max<std::int64_t>(data_parallel_size(s) / std::max<std::int64_t>(s.parallel.expert, 1), 1);
}

double routed_expert_params(const ModelSpec& m) {
    if (m.experts <= 1) return 0;
    return static_cast<double>(moe_layers(m)) * static_cast<double>(m.experts) * static_cast<double>(mlp_params_per_expert(m));
}

std::int64_t expert_capacity(std::int64_t tokens, std::int64_t experts, std::int64_t k, double capacity_factor, std::int64_t min_capacity) {
    // torch.ceil((num_tokens / num_experts) * capacity_factor) with capacity_factor x k passed in.
    const double c = std::ceil(static_cast<double>(tokens) / static_cast<double>(std::max<std::int64_t>(experts, 1)) *
                               (capacity_factor * static_cast<double>(k)));
    return std::max(static_cast<std::int64_t>(c), min_capacity);
}

namespace {
ExpertRouting routing(const ModelSpec& m, const Training& t) {
    ExpertRouting r;
    r.tokens = t.seq_len * t.micro_batch;
    r.capacity = expert_capacity(r.tokens, m.experts, m.experts_per_token, t.capacity_factor);
    r.capacity_slots = static_cast<double>(m.experts) * static_cast<double>(r.capacity);
    r.routed = static_cast<double>(r.tokens) * static_cast<double>(m.experts_per_token);
    r.dropped_share = r.routed > 0 ? std::max(0.0, 1.0 - r.capacity_slots / r.routed) : 0.0;
    return r;
}
}  // namespace

ExpertRouting expert_routing(const Scenario& s) { return routing(s.model, s.training); }

double routed_slots_per_token(const ModelSpec& m, const Training& t, const Parallelism& p) {
    if (p.expert <= 1 || m.experts <= 1) return static_cast<double>(m.experts_per_token);
    const ExpertRouting r = routing(m, t);
    return r.tokens > 0 ? r.capacity_slots / static_cast<double>(r.tokens) : static_cast<double>(m.experts_per_token);
}

double routed_slots_per_token(const Scenario& s) { return routed_slots_per_token(s.model, s.training, s.parallel); }

double zero_partition_elems(const Scenario& s, const ParameterSplit& split) {
    if (s.zero.stage < 1) return split.trainable;
    if (split.expert <= 0) return split.trainable / static_cast<double>(zero_shard_size(s));  // MiCS: the shard group (core/model/mics.h)
    const double dense = split.trainable - split.expert;
    return dense / static_cast<double>(zero_partition_size(s)) + split.expert / static_cast<double>(expert_data_parallel_size(s));
}

double zero_partition_ranks(const Scenario& s, const ParameterSplit& split) {
    const double N = static_cast<double>(zero_shard_size(s));
    if (split.expert <= 0 || split.trainable <= 0 || s.zero.stage < 1) return N;
    return split.trainable / zero_partition_elems(s, split);
}

double all_to_all_bytes(const Scenario& s) {
    if (!uses_expert_parallelism(s)) return 0;
    const double ep = static_cast<double>(s.parallel.expert);
    const double tp = static_cast<double>(std::max<std::int64_t>(s.parallel.tensor, 1));
    const double elem = bytes_per_element(s.training.precision);
    return (ep - 1.0) / ep * expert_routing(s).capacity_slots / tp * static_cast<double>(s.model.hidden) * elem;
}

int all_to_alls_per_layer(const Scenario& s) { return s.training.checkpointing == Checkpointing::Full ? 6 : 4; }

bool expert_group_inside_node(const Scenario& s) {
    // The group {pp, dp = g EP .. g EP + EP - 1, tp} spans ranks start .. start + (EP-1) t, start a
    // multiple of t EP (EP divides d): no node boundary (a multiple of gpus_per_node) falls inside
    // any group exactly when t EP divides gpus_per_node.
    if (s.cluster.nodes <= 1) return true;
    const std::int64_t span = std::max<std::int64_t>(s.parallel.tensor, 1) * std::max<std::int64_t>(s.parallel.expert, 1);
    return s.cluster.gpus_per_node % span == 0;
}

void validate_experts(const Scenario& s) {
    const Parallelism& p = s.parallel;
    const ModelSpec& m = s.model;
    const double cf = s.training.capacity_factor;
    if (!(cf > 0) || cf > deepspeed_moe::kMaxCapacityFactor)
        throw InputError("the capacity factor must be above 0 and at most 64 (DeepSpeed's default 1.0), got " + std::to_string(cf));
    if (p.expert < 1) throw InputError("expert parallelism must be at least 1");
    if (p.expert == 1) return;
    const std::string ep = "expert parallelism " + std::to_string(p.expert);
    if (m.experts <= 1)
        throw InputError(ep + " needs a mixture-of-experts model: " + (m.name.empty() ? m.family : m.name) + " has no routed experts");
    if (m.experts % p.expert != 0)
        throw InputError(ep + " must divide the " + std::to_string(m.experts) +
                         " routed experts (deepspeed/moe/layer.py: num_experts divisible by ep_size)");
    const std::int64_t dp = data_parallel_size(s);
    if (dp % p.expert != 0)
        throw InputError(ep + " must divide the data-parallel size " + std::to_string(dp) +
                         ": DeepSpeed builds the expert-parallel groups inside the data-parallel ranks (utils/groups.py)");
    if (!experts_run_stage(p, s.zero.stage))
        throw InputError(ep +
                         " works with ZeRO stage 0, 1 or 2 only: DeepSpeed asserts \"Native DeepSpeed MoE is not supported with "
                         "ZeRO Stage 3\" (runtime/engine.py); use --stage 2 or --ep 1");
    // Pipeline parallelism: Megatron-DeepSpeed's GPTModelPipe builds the MoE layers since #373
    // (2024-04; examples_deepspeed/MoE's "Currently we don't support PP for MoE" predates it), sending
    // each activation whole with tensor parallelism (effective_pipeline_send).
    if (s.finetune.adapters())
        throw InputError(ep +
                         " is planned for full training (DeepSpeed's MoE layer with every expert trained); use --finetune full or --ep 1");
    if (s.finetune.freeze_layers > 0) throw InputError(ep + " is planned with every layer trained; drop --freeze layers:K or use --ep 1");
}

std::string expert_routing_words(const Scenario& s) {
    if (!uses_expert_parallelism(s)) return {};
    const ExpertRouting r = expert_routing(s);
    char factor[32];
    std::snprintf(factor, sizeof factor, "%g", s.training.capacity_factor);
    if (std::string(factor).find_first_of(".e") == std::string::npos) std::strcat(factor, ".0");  // "1.0", as DeepSpeed writes it
    std::string out = std::to_string(local_experts(s)) + " of " + std::to_string(s.model.experts) + " experts per GPU, capacity " +
                      std::to_string(r.capacity) + " tokens per expert a micro batch (capacity factor " + factor + ", top-" +
                      std::to_string(s.model.experts_per_token) + "); ";
    if (r.dropped_share > 0) {
        char pct[32];
        std::snprintf(pct, sizeof pct, "%.0f%%", 100.0 * r.dropped_share);
        out += std::string("drops at least ") + pct + " of the routed tokens";
    } else {
        out += "drops tokens only when routing is imbalanced";
    }
    return out;
}

}  // namespace zp
