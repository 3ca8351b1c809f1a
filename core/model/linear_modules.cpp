#include "core/model/linear_modules.h"

#include <algorithm>

// Module names and shapes are transformers v4.48's modeling files: models/llama (and mistral,
// qwen2, gemma, gemma2: q_proj, k_proj, v_proj, o_proj, gate_proj, up_proj, down_proj),
// models/mixtral (block_sparse_moe.gate and experts.N.w1/w3/w2), models/qwen3_moe (from v4.51:
// mlp.gate and mlp.experts.N.gate_proj/up_proj/down_proj), models/phi3 (qkv_proj, gate_up_proj),
// models/phi (q_proj, k_proj, v_proj, dense, fc1, fc2), models/gpt2 (Conv1D c_attn, c_proj, c_fc,
// c_proj), models/bloom, models/falcon and models/gpt_neox (query_key_value, dense,
// dense_h_to_4h, dense_4h_to_h), models/t5 (q, k, v, o in SelfAttention and the decoder's
// EncDecAttention; DenseReluDense wi, or wi_0 and wi_1 gated, and wo), and every model's lm_head.

namespace zp {
namespace {

bool family_is(const ModelSpec& m, std::initializer_list<std::string_view> names) {
    return std::find(names.begin(), names.end(), std::string_view(m.family)) != names.end();
}

bool fused_qkv_names(const ModelSpec& m) { return family_is(m, {"bloom", "falcon", "gpt_neox"}); }

}  // namespace

// gpt-oss's and Llama-4's mixtures keep every expert of a layer in two fused parameters, not
// nn.Linear modules (GptOssExperts, Llama4TextExperts: gate_up_proj E x h x 2f, down_proj
// E x f x h; PEFT reaches them through target_parameters); listed here by those names, one
// "module" per expert, marked fused_parameter. gpt-oss: the router is GptOssTopKRouter (a weight
// and bias Parameter, fused too), the experts have biases; every layer is a mixture. Llama-4: the
// router is Llama4Router (an nn.Linear subclass without bias), each mixture layer also has
// feed_forward.shared_expert (gate_proj, up_proj, down_proj of the expert width, nn.Linear) and the
// other layers a dense feed_forward of ffn (intermediate_size_mlp).
template <typename Add>
void add_fused_experts(const ModelSpec& m, std::vector<LinearModule>& out, const Add& add) {
    const std::int64_t h = m.hidden, ef = expert_ffn(m), M = moe_layers(m), D = m.layers - M, E = M * m.experts;
    const double routed = static_cast<double>(m.experts_per_token) / static_cast<double>(m.experts);
    add("router", LinearRole::Router, h, m.experts, m.router_bias, M, 1.0);
    out.back().fused_parameter = m.family == "gpt_oss";
    add("gate_up_proj", LinearRole::MlpInput, h, 2 * ef, m.mlp_bias, E, routed);
    out.back().fused_parameter = true;
    add("down_proj", LinearRole::MlpOutput, ef, h, m.mlp_bias, E, routed);
    out.back().fused_parameter = true;
    if (m.shared_experts > 0) {
        const std::int64_t shared = m.shared_experts * ef;
        for (const char* n : {"gate_proj", "up_proj"}) add(n, LinearRole::MlpInput, h, shared, false, M, 1.0);
        add("down_proj", LinearRole::MlpOutput, shared, h, false, M, 1.0);
    }
    if (D > 0) {
        for (const char* n : {"gate_proj", "up_proj"}) add(n, LinearRole::MlpInput, h, m.ffn, false, D, 1.0);
        add("down_proj", LinearRole::MlpOutput, m.ffn, h, false, D, 1.0);
    }
}

std::vector<LinearModule> linear_modules(const ModelSpec& m) {
    std::vector<LinearModule> out;
    if (m.hidden <= 0 || m.heads <= 0 || m.layers <= 0) return out;
    const std::int64_t h = m.hidden, f = m.ffn;
    const std::int64_t hd = m.head_dim > 0 ? m.head_dim : h / m.heads;
    const std::int64_t q = m.heads * hd, kv = (m.kv_heads > 0 ? m.kv_heads : m.heads) * hd;
    const std::int64_t L = m.layers;
    const double routed = m.experts > 1 ? static_cast<double>(m.experts_per_token) / static_cast<double>(m.experts) : 1.0;
    const auto add = [&](std::string name, LinearRole role, std::int64_t in, std::int64_t o, bool bias, std::int64_t count,
                         double token_share = 1.0) {
        out.push_back(LinearModule{std::move(name), role, in, o, bias, count, token_share});
    };

    if (m.encoder_decoder) {
        // T5: L/2 encoder blocks (self-attention), L/2 decoder blocks (self- and cross-attention).
        const std::int64_t attentions = L / 2 + 2 * (L / 2);
        for (const char* n : {"q", "k", "v"}) add(n, LinearRole::AttentionInput, h, q, false, attentions);
        add("o", LinearRole::AttentionOutput, q, h, false, attentions);
        if (m.gated_mlp) {
            add("wi_0", LinearRole::MlpInput, h, f, false, L);
            add("wi_1", LinearRole::MlpInput, h, f, false, L);
        } else {
            add("wi", LinearRole::MlpInput, h, f, false, L);
        }
        add("wo", LinearRole::MlpOutput, f, h, false, L);
    } else if (m.family == "gpt2") {
        add("c_attn", LinearRole::AttentionInput, h, q + 2 * kv, m.qkv_bias, L);
        add("c_proj", LinearRole::AttentionOutput, q, h, m.out_bias, L);
        add("c_fc", LinearRole::MlpInput, h, f, m.mlp_bias, L);
        add("c_proj", LinearRole::MlpOutput, f, h, m.mlp_bias, L);
        for (LinearModule& l : out) l.conv1d = true;
    } else if (fused_qkv_names(m)) {
        add("query_key_value", LinearRole::AttentionInput, h, q + 2 * kv, m.qkv_bias, L);
        add("dense", LinearRole::AttentionOutput, q, h, m.out_bias, L);
        add("dense_h_to_4h", LinearRole::MlpInput, h, f, m.mlp_bias, L);
        add("dense_4h_to_h", LinearRole::MlpOutput, f, h, m.mlp_bias, L);
    } else if (m.family == "phi") {
        for (const char* n : {"q_proj", "k_proj", "v_proj"}) add(n, LinearRole::AttentionInput, h, n[0] == 'q' ? q : kv, m.qkv_bias, L);
        add("dense", LinearRole::AttentionOutput, q, h, m.out_bias, L);
        add("fc1", LinearRole::MlpInput, h, f, m.mlp_bias, L);
        add("fc2", LinearRole::MlpOutput, f, h, m.mlp_bias, L);
    } else {
        // Llama and its kin; Phi-3 fuses q/k/v and gate/up; Mixtral's MLP is experts behind a router.
        if (uses_mla(m)) {
            // DeepSeek-V2's multi-head latent attention (models/deepseek_v2 DeepseekV2Attention).
            const std::int64_t qk = m.qk_nope_head_dim + m.qk_rope_head_dim;
            if (m.q_lora_rank > 0) {
                add("q_a_proj", LinearRole::AttentionInput, h, m.q_lora_rank, m.qkv_bias, L);
                add("q_b_proj", LinearRole::AttentionInput, m.q_lora_rank, m.heads * qk, false, L);
            } else {
                add("q_proj", LinearRole::AttentionInput, h, m.heads * qk, false, L);
            }
            add("kv_a_proj_with_mqa", LinearRole::AttentionInput, h, m.kv_lora_rank + m.qk_rope_head_dim, m.qkv_bias, L);
            add("kv_b_proj", LinearRole::AttentionInput, m.kv_lora_rank, m.heads * (m.qk_nope_head_dim + m.v_head_dim), false, L);
            add("o_proj", LinearRole::AttentionOutput, m.heads * m.v_head_dim, h, m.out_bias, L);
        } else if (m.fused_qkv) {
            add("qkv_proj", LinearRole::AttentionInput, h, q + 2 * kv, m.qkv_bias, L);
        } else {
            add("q_proj", LinearRole::AttentionInput, h, q, m.qkv_bias, L);
            add("k_proj", LinearRole::AttentionInput, h, kv, m.qkv_bias, L);
            add("v_proj", LinearRole::AttentionInput, h, kv, m.qkv_bias, L);
        }
        if (!uses_mla(m)) add("o_proj", LinearRole::AttentionOutput, q, h, m.out_bias, L);
        if (m.experts > 1 && (m.family == "deepseek_v2" || m.family == "deepseek_v3")) {
            // DeepseekV2MoE: experts.N and shared_experts are MLPs of gate_proj, up_proj, down_proj;
            // its router (MoEGate) holds a bare weight Parameter, no nn.Linear. The first
            // first_dense_layers layers have a dense MLP.
            const std::int64_t ef = expert_ffn(m), E = moe_layers(m) * m.experts, D = m.layers - moe_layers(m);
            const std::int64_t shared = m.shared_experts * ef;
            for (const char* n : {"gate_proj", "up_proj"}) {
                if (D > 0) add(n, LinearRole::MlpInput, h, f, false, D);
                add(n, LinearRole::MlpInput, h, ef, false, E, routed);
                if (shared > 0) add(n, LinearRole::MlpInput, h, shared, false, moe_layers(m));
            }
            if (D > 0) add("down_proj", LinearRole::MlpOutput, f, h, false, D);
            add("down_proj", LinearRole::MlpOutput, ef, h, false, E, routed);
            if (shared > 0) add("down_proj", LinearRole::MlpOutput, shared, h, false, moe_layers(m));
        } else if (experts_are_fused_parameters(m)) {
            add_fused_experts(m, out, add);
        } else if (m.experts > 1 && m.family == "qwen3_moe") {
            // Qwen3MoeSparseMoeBlock: the router mlp.gate, an nn.Linear h -> experts without bias, and
            // mlp.experts.N, each a Qwen3MoeMLP of gate_proj, up_proj, down_proj at the expert width
            // (moe_intermediate_size), no bias, in every layer; no shared experts.
            const std::int64_t ef = expert_ffn(m), E = L * m.experts;
            add("gate", LinearRole::Router, h, m.experts, false, L);
            add("gate_proj", LinearRole::MlpInput, h, ef, false, E, routed);
            add("up_proj", LinearRole::MlpInput, h, ef, false, E, routed);
            add("down_proj", LinearRole::MlpOutput, ef, h, false, E, routed);
        } else if (m.experts > 1) {
            const std::int64_t E = L * m.experts;
            add("gate", LinearRole::Router, h, m.experts, false, L);
            add("w1", LinearRole::MlpInput, h, f, false, E, routed);
            add("w3", LinearRole::MlpInput, h, f, false, E, routed);
            add("w2", LinearRole::MlpOutput, f, h, false, E, routed);
        } else if (m.gated_mlp && m.fused_gate_up) {
            add("gate_up_proj", LinearRole::MlpInput, h, 2 * f, m.mlp_bias, L);
            add("down_proj", LinearRole::MlpOutput, f, h, m.mlp_bias, L);
        } else {
            if (m.gated_mlp) add("gate_proj", LinearRole::MlpInput, h, f, m.mlp_bias, L);
            add("up_proj", LinearRole::MlpInput, h, f, m.mlp_bias, L);
            add("down_proj", LinearRole::MlpOutput, f, h, m.mlp_bias, L);
        }
    }
    add("lm_head", LinearRole::Head, h, m.vocab, m.lm_head_bias, 1);
    return out;
}

std::vector<std::string> peft_default_targets(const ModelSpec& m) {
    if (m.encoder_decoder) return {"q", "v"};
    if (m.family == "gpt2") return {"c_attn"};
    if (fused_qkv_names(m)) return {"query_key_value"};
    if (m.family == "phi") return {"q_proj", "v_proj", "fc1", "fc2"};
    // PEFT's map (src/peft/utils/constants.py TRANSFORMERS_MODELS_TO_LORA_TARGET_MODULES_MAPPING;
    // llama4, gemma3_text and qwen3 as of PEFT main 00073fe): q_proj and v_proj for the Llama-style
    // families. phi3, deepseek_v2/v3, qwen3_moe, gpt_oss, olmo2 and the rest are not in it: PEFT
    // asks for target_modules.
    if (family_is(m, {"llama", "llama4", "mistral", "mixtral", "qwen2", "qwen3", "gemma", "gemma2", "gemma3_text", "opt", "synthesized"}))
        return {"q_proj", "v_proj"};
    return {};
}

std::vector<std::string> distinct_names(const std::vector<LinearModule>& modules) {
    std::vector<std::string> names;
    for (const LinearModule& l : modules)
        if (std::find(names.begin(), names.end(), l.name) == names.end()) names.push_back(l.name);
    return names;
}

std::string linear_module_names(const ModelSpec& m) {
    std::string s;
    for (const std::string& n : distinct_names(linear_modules(m))) s += (s.empty() ? "" : ", ") + n;
    return s;
}

}  // namespace zp
