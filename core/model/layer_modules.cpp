#include "core/model/layer_modules.h"

#include "core/model/deepspeed_defaults.h"
#include "core/model/linear_modules.h"
#include "core/model/trainable_params.h"

#include <algorithm>
#include <cmath>

namespace zp {

LayerModules layer_modules(const ModelSpec& m, const ZeroSetup& z) {
    const double h = static_cast<double>(m.hidden);
    const double heads = static_cast<double>(std::max<std::int64_t>(m.heads, 1));
    const double dh = m.head_dim > 0 ? static_cast<double>(m.head_dim) : h / heads;
    const double q = heads * dh, kv = static_cast<double>(m.kv_heads > 0 ? m.kv_heads : m.heads) * dh;
    // A mixture's MLP modules are its routed experts, each expert_ffn wide (moe_intermediate_size:
    // DeepSeek-V2, Qwen3-MoE), not the dense MLP's ffn (model_spec.h).
    const double ffn = static_cast<double>(m.experts > 1 ? expert_ffn(m) : m.ffn);
    const double experts = static_cast<double>(std::max<std::int64_t>(m.experts, 1));
    // The linears (in x out): q, k, v (one module when fused), the output projection, and the
    // MLP's up (+ gate, one module when fused) and down, per expert.
    struct Shape {
        double in, out;
    };
    Shape shapes[8];
    int n = 0;
    if (m.fused_qkv) shapes[n++] = {h, q + 2 * kv};
    else {
        shapes[n++] = {h, q};
        shapes[n++] = {h, kv};
        shapes[n++] = {h, kv};
    }
    shapes[n++] = {q, h};
    const double mlp_modules_before = n;
    if (m.gated_mlp && !m.fused_gate_up) {
        shapes[n++] = {h, ffn};
        shapes[n++] = {h, ffn};
    } else shapes[n++] = {h, ffn * (m.gated_mlp ? 2.0 : 1.0)};
    shapes[n++] = {ffn, h};
    LayerModules l;
    const double tiles = static_cast<double>(std::max<std::int64_t>(z.linear_tile_factor, 1));
    double linears = 0, tile_containers = 0;
    for (int i = 0; i < n; ++i) {
        const double copies = i >= mlp_modules_before ? experts : 1.0;
        const double size = shapes[i].in * shapes[i].out;
        l.layer_params += size * copies;
        // deepspeed.zero.TiledLinear (runtime/zero/tiling.py) as Megatron-DeepSpeed builds it
        // (Megatron-LM-v1.1.5-ZeRO3 --memory-centric-tiled-linear --tile-factor t: in_splits and
        // out_splits of t per h of each side, every tile (h/t)^2): in x out Linears, each its own
        // module ZeRO-3 gathers, under the TiledLinear, its ModuleList and one ModuleList per output split.
        const double in_splits = tiles > 1 ? std::max(1.0, std::round(tiles * shapes[i].in / h)) : 1.0;
        const double out_splits = tiles > 1 ? std::max(1.0, std::round(tiles * shapes[i].out / h)) : 1.0;
        const double pieces = in_splits * out_splits;
        l.largest_params = std::max(l.largest_params, size / pieces);
        if (size / pieces >= z.stage3_param_persistence_threshold) l.gathered += copies * pieces;
        linears += copies * pieces;
        if (pieces > 1) tile_containers += copies * (2.0 + out_splits);
    }
    l.hooked = linears + tile_containers + static_cast<double>(m.norms_per_layer) + zero3_costs::kContainersPerLayer;
    return l;
}

double zero3_prefetch_elems(const ZeroSetup& z, double next_module_params) {
    if (z.stage3_prefetch_bucket_elems <= 0) return 0;
    return std::max(std::min(z.stage3_prefetch_bucket_elems, z.stage3_max_live_parameters), next_module_params);
}

bool zero3_prefetch_fills_max_live(const ModelSpec& m, const ZeroSetup& z, const LayerModules& modules) {
    if (!z.zero3_prefetch_to_max_live || z.stage3_prefetch_bucket_elems <= 0 || z.offload_param == OffloadDevice::Nvme || m.experts > 1)
        return false;
    return modules.hooked > modules.gathered;
}

Zero3Kept zero3_kept_for_backward(const ModelSpec& m, double layer_elems, const Training& t, double rank_elems) {
    const double layers = static_cast<double>(std::max<std::int64_t>(m.layers, 1));
    const double model_elems = std::max(static_cast<double>(parameter_count(m)), 1.0);
    Zero3Kept k;
    k.layer_share = std::min(layer_elems / model_elems, 1.0 / layers);
    k.head_share = std::min(static_cast<double>(m.vocab) * static_cast<double>(m.hidden) / model_elems, 1.0);
    const double rank_share = rank_elems / model_elems;
    const double layer = std::max(k.layer_share * rank_share * model_elems, 1.0);
    k.matrix_held = t.lm_head == LmHead::EmbeddingWeight;
    // The planner exports DeepSpeed's stage3_max_reuse_distance (deepspeed_defaults.h): the scenario takes it.
    const double head_in_trace = k.matrix_held ? 1.0 : 2.0;
    const double distance = deepspeed::defaults::kStage3MaxReuseDistance - head_in_trace * k.head_share * rank_share * model_elems;
    const double kept =
        recomputes_layer_forward(t.checkpointing) ? std::floor((distance + 2.0 * layer) / (3.0 * layer)) : distance / (2.0 * layer);
    k.layers = std::clamp(kept, 0.0, layers);
    const bool matrix_released = !k.matrix_held && m.tied_embeddings && k.layers < layers;
    k.forward_gather_share = 1.0 + (matrix_released ? k.head_share : 0.0);
    k.backward_gather_share = std::max(1.0 - k.layers * k.layer_share - (matrix_released ? 0.0 : k.head_share), 0.0);
    return k;
}

double trainable_tensors_per_layer(const ModelSpec& m, const FineTune& f, std::int64_t expert_parallel) {
    const double L = static_cast<double>(std::max<std::int64_t>(m.layers, 1));
    const double ep = static_cast<double>(std::max<std::int64_t>(expert_parallel, 1));
    const double mixtures = m.experts > 1 ? static_cast<double>(moe_layers(m)) : 0.0;
    if (f.adapters()) {
        // lora_A and lora_B per adapted module; a fused expert parameter (gpt-oss, Llama-4, reached
        // through target_parameters) is one PEFT ParamWrapper per parameter, not one per expert.
        double tensors = 0;
        for (const LinearModule& l : adapted_modules(m, f)) {
            if (l.role == LinearRole::Head) continue;
            tensors += 2.0 * (l.fused_parameter ? (l.role == LinearRole::Router ? static_cast<double>(l.count) : mixtures)
                                                : static_cast<double>(l.count) / (l.token_share < 1.0 ? ep : 1.0));
        }
        return tensors / L;
    }
    // Counted here rather than from linear_modules, which builds named modules (about 3,400
    // instructions an estimate, two thirds of the rest); tst_step_time checks the two agree for
    // every preset. MLA (DeepSeek): q_a_proj, q_a_layernorm and q_b_proj (or q_proj),
    // kv_a_proj_with_mqa, kv_a_layernorm, kv_b_proj, o_proj, the _a projections with qkv_bias.
    const double qkv_bias = m.qkv_bias ? 2.0 : 1.0;
    const double attention = uses_mla(m) ? (m.q_lora_rank > 0 ? qkv_bias + 2.0 : 1.0) + qkv_bias + 2.0 + (m.out_bias ? 2.0 : 1.0)
                                         : (m.fused_qkv ? 1.0 : 3.0) * qkv_bias + (m.out_bias ? 2.0 : 1.0);
    // T5's decoder half adds cross-attention (q, k, v, o) and its norm to each block.
    const double cross = m.encoder_decoder ? 0.5 * (4.0 + (m.norm == NormKind::LayerNorm ? 2.0 : 1.0)) : 0.0;
    const double bias = m.mlp_bias ? 2.0 : 1.0;
    const double dense_linears = (m.gated_mlp ? (m.fused_gate_up ? 1.0 : 2.0) : 1.0) + 1.0;
    double mlp = dense_linears * bias;
    if (mixtures > 0) {
        // A mixture layer: its routed experts (this rank's experts / expert parallel as nn.Linear
        // modules; two fused parameters, gate_up_proj and down_proj, for gpt-oss and Llama-4:
        // linear_modules.h experts_are_fused_parameters), the router, the shared experts' gated
        // MLP; the other layers a dense MLP (first_dense_layers, Llama-4's interleaving).
        const double experts = experts_are_fused_parameters(m) ? 2.0 * bias : static_cast<double>(m.experts) / ep * dense_linears * bias;
        const double mixture = experts + (m.router_bias ? 2.0 : 1.0) + (m.shared_experts > 0 ? 3.0 : 0.0);
        mlp = (mixtures * mixture + (L - mixtures) * dense_linears) / L;
    }
    const double norms = static_cast<double>(m.norms_per_layer) * (m.norm == NormKind::LayerNorm ? 2.0 : 1.0) + (m.qk_norm ? 2.0 : 0.0);
    // Frozen layers (FineTune::freeze_layers) have no gradient and no hook.
    const double trained = f.freeze_layers > 0 ? std::max(0.0, L - static_cast<double>(f.freeze_layers)) / L : 1.0;
    return trained * (attention + cross + mlp + norms + (m.attention_sinks ? 1.0 : 0.0));
}

LayerModules fsdp_unit_modules(const ModelSpec& m) {
    LayerModules u;
    u.gathered = 1;
    u.layer_params = static_cast<double>(parameter_count(m)) / static_cast<double>(std::max<std::int64_t>(m.layers, 1));
    u.largest_params = u.layer_params;
    return u;
}

}  // namespace zp
