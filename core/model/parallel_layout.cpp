#include "core/model/parallel_layout.h"

#include "core/model/deepspeed_release.h"
#include "core/model/experts.h"
#include "core/model/model_spec.h"

#include <algorithm>
#include <cmath>

namespace zp {

double model_parallel_share(const Scenario& s) {
    const Parallelism& p = s.parallel;
    if (p.model_parallel() <= 1) return 1.0;
    const ModelSpec& m = s.model;
    const double P = static_cast<double>(parameter_count(m));
    if (P <= 0) return 1.0;
    const double h = static_cast<double>(m.hidden);
    const double word = static_cast<double>(m.vocab) * h;
    const double input = word + static_cast<double>(m.positions) * h;
    const double head = m.tied_embeddings ? 0.0 : word;
    const double layers = std::max(0.0, P - input - head);
    double stage = P;
    if (p.pipeline > 1 && p.pipeline_rank >= 0) {
        const std::int64_t i = std::min(p.pipeline_rank, p.pipeline - 1);
        const double L = static_cast<double>(std::max<std::int64_t>(m.layers, 1));
        stage = (i == 0 ? input : 0.0) + layers * static_cast<double>(stage_layers(m.layers, p.pipeline, i)) / L +
                (i == p.pipeline - 1 ? word : 0.0);
    } else if (p.pipeline > 1) {
        // The most loaded stage's layers: the ceiling of L/p when they do not divide.
        const double L = static_cast<double>(std::max<std::int64_t>(m.layers, 1));
        const double stage_layers = layers * std::ceil(L / static_cast<double>(p.pipeline)) / L;
        const double first = input + stage_layers;
        const double last = stage_layers + word;  // the output layer, or the tied embedding's copy
        stage = std::max(first, last);
    }
    return stage / static_cast<double>(p.tensor) / P;
}

std::int64_t stage_layers(std::int64_t layers, std::int64_t pipeline, std::int64_t stage) {
    if (pipeline <= 1) return layers;
    const std::int64_t base = layers / pipeline;
    return base + (stage < layers % pipeline ? 1 : 0);
}

ParameterSplit rank_parameter_split(const Scenario& s) {
    ParameterSplit out = parameter_split(s);
    const double f = model_parallel_share(s);
    if (f != 1.0) {
        for (double* v : {&out.base, &out.adapter, &out.saved_copies, &out.trainable, &out.frozen, &out.quantized, &out.frozen_bytes,
                          &out.quant_state_bytes})
            *v *= f;
    }
    if (experts_whole_on_tensor_ranks(s)) {
        // DeepSpeed's MoE layer keeps experts / ep_size routed experts of each MoE layer on a rank
        // (moe/layer.py num_local_experts), whole on every tensor-parallel rank (its experts are
        // not tensor-parallel unless enable_expert_tensor_parallelism), at ep_size 1 as well; the
        // share above counted them like the rest of the stage's layers, split over the tensor
        // ranks. Every layer is trained (validate_experts), so the experts are trainable.
        const Parallelism& p = s.parallel;
        const double L = static_cast<double>(std::max<std::int64_t>(s.model.layers, 1));
        const double stage_layers = p.pipeline > 1 ? std::ceil(L / static_cast<double>(p.pipeline)) / L : 1.0;
        const double routed = routed_expert_params(s.model) * stage_layers;
        const double counted = routed / static_cast<double>(std::max<std::int64_t>(p.tensor, 1));
        out.expert = routed / static_cast<double>(p.expert);
        out.base += out.expert - counted;
        out.trainable += out.expert - counted;
    }
    return out;
}

RankCoordinates rank_coordinates(const Scenario& s, std::int64_t rank) {
    const std::int64_t t = std::max<std::int64_t>(s.parallel.tensor, 1);
    const std::int64_t u = ulysses_size(s.parallel);
    const std::int64_t d = data_parallel_size(s);
    return {rank % t, (rank / (t * u)) % d, rank / (t * u * d), (rank / t) % u};
}

std::int64_t node_of_rank(const Scenario& s, std::int64_t rank) { return rank / std::max<std::int64_t>(s.cluster.gpus_per_node, 1); }

namespace {

std::int64_t rank_at(const Scenario& s, const RankCoordinates& c) {
    const std::int64_t t = std::max<std::int64_t>(s.parallel.tensor, 1);
    const std::int64_t u = ulysses_size(s.parallel);
    return c.pp * t * u * data_parallel_size(s) + c.dp * t * u + c.sp * t + c.tp;
}

// A group of more than one rank lies in one node when its lowest and highest ranks do (ranks fill
// the nodes in order).
GroupLink span_link(const Scenario& s, std::int64_t first, std::int64_t last) {
    if (first == last) return GroupLink::None;
    return node_of_rank(s, first) == node_of_rank(s, last) ? GroupLink::IntraNode : GroupLink::InterNode;
}

GroupLink worse(GroupLink a, GroupLink b) { return static_cast<int>(a) >= static_cast<int>(b) ? a : b; }

}  // namespace

std::vector<std::int64_t> ulysses_group_ranks(const Scenario& s, std::int64_t rank) {
    const std::int64_t u = ulysses_size(s.parallel);
    const RankCoordinates c = rank_coordinates(s, rank);
    std::vector<std::int64_t> out;
    for (std::int64_t i = 0; i < u; ++i) out.push_back(rank_at(s, {c.tp, c.dp, c.pp, i}));
    return out;
}

std::vector<std::int64_t> expert_group_ranks(const Scenario& s, std::int64_t rank) {
    const std::int64_t e = uses_expert_parallelism(s) ? s.parallel.expert : 1;
    const RankCoordinates c = rank_coordinates(s, rank);
    const std::int64_t first = c.dp / e * e;
    std::vector<std::int64_t> out;
    for (std::int64_t i = 0; i < e; ++i) out.push_back(rank_at(s, {c.tp, first + i, c.pp, c.sp}));
    return out;
}

GroupLinks rank_links(const Scenario& s, std::int64_t rank) {
    const Parallelism& par = s.parallel;
    const std::int64_t p = std::max<std::int64_t>(par.pipeline, 1);
    const std::int64_t d = data_parallel_size(s);
    const std::int64_t u = ulysses_size(par);
    const RankCoordinates c = rank_coordinates(s, rank);
    GroupLinks out;
    out.tensor = span_link(s, rank_at(s, {0, c.dp, c.pp, c.sp}), rank_at(s, {std::max<std::int64_t>(par.tensor, 1) - 1, c.dp, c.pp, c.sp}));
    // ZeRO's group is data x Ulysses (seq_data_parallel_group): from sequence rank 0 of the first
    // data slot to the last sequence rank of the last.
    out.data = span_link(s, rank_at(s, {c.tp, 0, c.pp, 0}), rank_at(s, {c.tp, d - 1, c.pp, u - 1}));
    out.sequence = span_link(s, rank_at(s, {c.tp, c.dp, c.pp, 0}), rank_at(s, {c.tp, c.dp, c.pp, u - 1}));
    const std::vector<std::int64_t> experts = expert_group_ranks(s, rank);
    out.expert = span_link(s, experts.front(), experts.back());
    const bool ring = par.virtual_stages > 1;
    for (const std::int64_t next : {c.pp - 1, c.pp + 1}) {
        std::int64_t stage = next;
        if (ring) stage = (next + p) % p;
        if (stage < 0 || stage >= p || stage == c.pp) continue;
        out.pipeline = worse(out.pipeline, span_link(s, rank, rank_at(s, {c.tp, c.dp, stage, c.sp})));
    }
    return out;
}

GroupLinks layout_links(const Scenario& s) {
    GroupLinks out;
    const std::int64_t world = s.cluster.world_size();
    for (std::int64_t r = 0; r < world; ++r) {
        const GroupLinks l = rank_links(s, r);
        out.tensor = worse(out.tensor, l.tensor);
        out.data = worse(out.data, l.data);
        out.pipeline = worse(out.pipeline, l.pipeline);
        out.sequence = worse(out.sequence, l.sequence);
        out.expert = worse(out.expert, l.expert);
    }
    return out;
}

GroupLink ulysses_link(const Scenario& s) {
    const std::int64_t u = ulysses_size(s.parallel);
    if (u <= 1) return GroupLink::None;
    // Tensor ranks (t = 1 with Ulysses, validate_parallelism) would stretch the block to t u ranks.
    const std::int64_t span = u * std::max<std::int64_t>(s.parallel.tensor, 1);
    return s.cluster.gpus_per_node % span == 0 ? GroupLink::IntraNode : GroupLink::InterNode;
}

const char* data_parallel_traffic(const Scenario& s) {
    switch (s.zero.stage) {
    case 0: return QT_TRANSLATE_NOOP("Core", "gradient all-reduce");
    case 1:
    case 2: return QT_TRANSLATE_NOOP("Core", "gradient reduce-scatter and all-gather of the updated parameters");
    default: return QT_TRANSLATE_NOOP("Core", "parameter all-gathers (forward and backward) and gradient reduce-scatter");
    }
}

std::string layout_words(const Scenario& s) { return english(layout_phrase(s)); }

Phrase layout_phrase(const Scenario& s) {
    const Parallelism& p = s.parallel;
    const std::string data = std::to_string(data_parallel_size(s));
    // DeepSpeed-Ulysses runs without tensor, pipeline and expert parallelism (validate_parallelism).
    if (ulysses_size(p) > 1) return phrase(QT_TRANSLATE_NOOP("Core", "sequence %1 x data %2"), {std::to_string(ulysses_size(p)), data});
    if (p.model_parallel() <= 1 && p.expert <= 1) return {};
    Phrase out = p.model_parallel() > 1 ? phrase(QT_TRANSLATE_NOOP("Core", "tensor %1 x pipeline %2 x data %3"),
                                                 {std::to_string(p.tensor), std::to_string(p.pipeline), data})
                                        : phrase(QT_TRANSLATE_NOOP("Core", "data %1"), {data});
    if (p.sequence_parallel) out = phrase(QT_TRANSLATE_NOOP("Core", "%1, sequence parallel"), {out});
    if (p.virtual_stages > 1) out = phrase(QT_TRANSLATE_NOOP("Core", "%1, %2 virtual stages"), {out, std::to_string(p.virtual_stages)});
    if (p.expert > 1) out = phrase(QT_TRANSLATE_NOOP("Core", "%1, expert %2"), {out, std::to_string(p.expert)});
    return out;
}

std::string data_parallel_words(const Scenario& s) { return english(data_parallel_phrase(s)); }

Phrase data_parallel_phrase(const Scenario& s) {
    const std::int64_t data = data_parallel_size(s);
    if (ulysses_size(s.parallel) > 1)
        return data == 1
                   ? phrase(QT_TRANSLATE_NOOP("Core", "one group of %1 sequence-parallel GPUs"), {std::to_string(ulysses_size(s.parallel))})
                   : phrase(QT_TRANSLATE_NOOP("Core", "%1 data-parallel groups of %2 sequence-parallel GPUs"),
                            {std::to_string(data), std::to_string(ulysses_size(s.parallel))});
    if (s.parallel.model_parallel() <= 1)
        return s.cluster.world_size() == 1 ? phrase(QT_TRANSLATE_NOOP("Core", "one GPU"))
                                           : phrase(QT_TRANSLATE_NOOP("Core", "%1 GPUs"), {std::to_string(s.cluster.world_size())});
    return data == 1
               ? phrase(QT_TRANSLATE_NOOP("Core", "one model-parallel group of %1 GPUs"), {std::to_string(s.parallel.model_parallel())})
               : phrase(QT_TRANSLATE_NOOP("Core", "%1 data-parallel groups of %2 GPUs"),
                        {std::to_string(data), std::to_string(s.parallel.model_parallel())});
}

std::vector<std::int64_t> divisors(std::int64_t n) {
    // Pairs k and n / k for k up to sqrt(n): a million-GPU world in a thousand steps, not a million.
    std::vector<std::int64_t> low, high;
    for (std::int64_t k = 1; k <= n / k; ++k)
        if (n % k == 0) {
            low.push_back(k);
            if (k != n / k) high.push_back(n / k);
        }
    if (low.empty()) return {1};
    low.insert(low.end(), high.rbegin(), high.rend());
    return low;
}

std::vector<std::int64_t> node_group_sizes(const Cluster& c) { return divisors(c.gpus_per_node); }

std::vector<std::int64_t> ulysses_degrees(const Scenario& s) {
    // A release before sequence_parallel_size is read alone (v0.17.0) has none to offer.
    if (!release_has(s, release_firsts::kUlyssesKey)) return {1};
    std::vector<std::int64_t> out;
    for (std::int64_t u : divisors(std::max<std::int64_t>(s.model.heads, 1)))
        if (s.cluster.world_size() % u == 0) out.push_back(u);
    return out;
}

std::vector<std::int64_t> expert_parallel_sizes(const ModelSpec& m) { return divisors(m.experts); }

std::vector<std::int64_t> tensor_parallel_sizes(const Scenario& s) {
    std::vector<std::int64_t> out;
    for (std::int64_t k : node_group_sizes(s.cluster))
        if (tensor_splits_attention(s.model, k)) out.push_back(k);
    return out;
}

}  // namespace zp
