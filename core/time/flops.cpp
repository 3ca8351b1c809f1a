#include "core/time/flops.h"

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
    if (m.experts > 1) {
        const double per_expert = (m.gated_mlp ? 3.0 : 2.0) * h * static_cast<double>(m.ffn);
        inactive_experts = static_cast<double>(m.layers) * static_cast<double>(m.experts - m.experts_per_token) * per_expert;
    }
    const double p = total - embeddings - inactive_experts;
    return p > 0 ? p : 0;
}

StepFlops step_flops(const ModelSpec& m, const Training& t, double tokens_per_step) {
    return transformer_step_flops(layer_matmul_params(m), head_matmul_params(m), static_cast<double>(m.layers),
                                  static_cast<double>(m.hidden), static_cast<double>(t.seq_len), tokens_per_step, t.checkpointing);
}

}  // namespace zp
