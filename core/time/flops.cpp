#include "core/time/flops.h"

#include "core/model/op_sac.h"
#include "core/model/trainable_params.h"

#include <algorithm>

namespace zp {

StepFlops transformer_step_flops(double layer_params, double head_params, double layers, double hidden, double seq, double tokens,
                                 Checkpointing recompute) {
    const double layer_forward = 2 * layer_params * tokens + 4 * layers * hidden * seq * tokens;  // matmuls + QK^T and AV
    const double head_forward = 2 * head_params * tokens;
    StepFlops f;
    f.model = 3 * (layer_forward + head_forward);  // forward + backward (2x forward)
    f.hardware = f.model;
    if (recompute == Checkpointing::Full) f.hardware += layer_forward;
    // Selective recompute re-runs only QK^T and AV (Korthikanti Sec. 5: 2.7% extra for GPT-3).
    if (recompute == Checkpointing::Selective) f.hardware += 4 * layers * hidden * seq * tokens;
    return f;
}

double head_matmul_params(const ModelSpec& m) { return static_cast<double>(m.vocab * m.hidden); }

double layer_matmul_params(const ModelSpec& m) {
    const double total = static_cast<double>(parameter_count(m));
    const double h = static_cast<double>(m.hidden);
    double embeddings = static_cast<double>(m.vocab) * h * (m.tied_embeddings ? 1 : 2) + static_cast<double>(m.positions) * h;
    if (m.synthesized) embeddings = static_cast<double>(m.vocab) * h;  // the synthesized shape is tied
    double inactive_experts = 0;
    if (m.experts > 1)
        inactive_experts = static_cast<double>(moe_layers(m)) * static_cast<double>(m.experts - m.experts_per_token) *
                           static_cast<double>(mlp_params_per_expert(m));
    const double p = total - embeddings - inactive_experts;
    return p > 0 ? p : 0;
}

// A local attention layer's window (or chunk) is its model: the pairs outside it are not part of
// its math, so they are not its FLOPs (attention_pair_share, core/model/model_spec.h). A causal
// mask's pairs stay counted whole, as Korthikanti's Eq. 7 and the published MFUs count them.
StepFlops step_flops(const ModelSpec& m, const Training& t, double tokens_per_step) {
    const double seq = static_cast<double>(t.seq_len);
    StepFlops f =
        transformer_step_flops(layer_matmul_params(m), head_matmul_params(m), static_cast<double>(m.layers), static_cast<double>(m.hidden),
                               seq * attention_pair_share(m, seq), tokens_per_step, t.checkpointing);
    // Op-level SAC re-runs every second matmul of each block (core/model/op_sac.h).
    if (t.checkpointing == Checkpointing::SelectiveOp) {
        const BlockMatmuls mms = op_sac_recomputed(m);
        double recomputed = 0;
        for (int i = 0; i < mms.count; ++i) recomputed += mms.mm[static_cast<std::size_t>(i)].in * mms.mm[static_cast<std::size_t>(i)].out;
        f.hardware += 2 * recomputed * static_cast<double>(m.layers) * tokens_per_step;
    }
    return f;
}

StepFlops step_flops(const Scenario& s, double tokens_per_step) {
    const ModelSpec& m = s.model;
    const FineTune& f = s.finetune;
    StepFlops out = step_flops(m, s.training, tokens_per_step);
    const double L = static_cast<double>(std::max<std::int64_t>(m.layers, 1));
    // TiledMLP runs each MLP's forward once more in backward (compute_time.cpp): hardware FLOPs only.
    // A non-reentrant full recompute stops before each block's down projection (scenario.h).
    if (recompute_skips_last_linear(m, s.training, f, recompute_stops_early(s)))
        out.hardware -= 2 * static_cast<double>(m.layers) * static_cast<double>(m.hidden) * mlp_width_per_token(m) * tokens_per_step;
    if (s.training.tiled_mlp)
        out.hardware += 2 * static_cast<double>(m.layers) * static_cast<double>(m.hidden) * mlp_width_per_token(m) *
                        (m.gated_mlp ? 3.0 : 2.0) * tokens_per_step;
    double frozen_matmul = 0;
    if (f.adapters()) {
        frozen_matmul = layer_matmul_params(m) + (f.train_lm_head ? 0.0 : head_matmul_params(m));
    } else if (f.freeze_layers > 0) {
        frozen_matmul = layer_matmul_params(m) * static_cast<double>(std::clamp<std::int64_t>(f.freeze_layers, 0, m.layers)) / L;
    }
    out.model -= 2 * frozen_matmul * tokens_per_step;
    out.hardware -= 2 * frozen_matmul * tokens_per_step;
    if (f.adapters()) {
        double active = 0;
        for (const LinearModule& mod : adapted_modules(m, f))
            active +=
                static_cast<double>(mod.count) * static_cast<double>(f.lora_rank) * static_cast<double>(mod.in + mod.out) * mod.token_share;
        out.model += 6 * active * tokens_per_step;
        out.hardware += (6 + (s.training.checkpointing == Checkpointing::Full ? 2 : 0)) * active * tokens_per_step;
    }
    return out;
}

}  // namespace zp
