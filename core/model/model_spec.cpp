#include "core/model/model_spec.h"

#include "core/base/errors.h"
#include "core/base/format.h"
#include "core/model/limits.h"

#include <algorithm>
#include <cmath>

namespace zp {
namespace {

// The counting formulas, written once over the number type: int64 for the exact count, double
// for validate() to check the magnitude before any int64 arithmetic could overflow.

// A norm over `width` features: LayerNorm has a weight and a bias, RMSNorm only a weight.
template <typename T>
T norm_over(const ModelSpec& m, T width) {
    return m.norm == NormKind::LayerNorm ? T(2) * width : width;
}

template <typename T>
T norm_params(const ModelSpec& m) {
    return norm_over<T>(m, T(m.hidden));
}

// Multi-head Latent Attention (DeepSeek-V2), module by module as model_spec.h lists them.
template <typename T>
T mla_params(const ModelSpec& m) {
    const T h = T(m.hidden), a = T(m.heads), qk = T(m.qk_nope_head_dim) + T(m.qk_rope_head_dim);
    const T r = T(m.kv_lora_rank), rope = T(m.qk_rope_head_dim), v = T(m.v_head_dim);
    T n = 0;
    if (m.q_lora_rank > 0) {
        const T qr = T(m.q_lora_rank);
        n += h * qr + (m.qkv_bias ? qr : T(0)) + norm_over<T>(m, qr) + qr * a * qk;  // q_a_proj, q_a_layernorm, q_b_proj
    } else {
        n += h * a * qk;  // q_proj
    }
    n += h * (r + rope) + (m.qkv_bias ? r + rope : T(0));  // kv_a_proj_with_mqa
    n += norm_over<T>(m, r);                               // kv_a_layernorm
    n += r * a * (T(m.qk_nope_head_dim) + v);              // kv_b_proj
    n += a * v * h + (m.out_bias ? h : T(0));              // o_proj
    return n;
}

// q, k, v and output projections with their biases, the QK-norm (OLMo-2's q_norm and k_norm over
// the whole q and k width, Qwen3's and Gemma-3's over one head: head_dim each, model_spec.h) and
// gpt-oss's attention sinks (one per head).
template <typename T>
T attention_params(const ModelSpec& m) {
    if (m.kv_lora_rank > 0) return mla_params<T>(m);
    const T h = T(m.hidden), q = T(m.heads) * T(m.head_dim), kv = T(m.kv_heads) * T(m.head_dim);
    T n = h * q + T(2) * h * kv + q * h;
    if (m.qkv_bias) n += q + T(2) * kv;
    if (m.out_bias) n += h;
    if (m.qk_norm) {
        if (m.qk_norm_per_head) n += T(2) * norm_over<T>(m, T(m.head_dim));
        else n += norm_over<T>(m, q) + norm_over<T>(m, kv);
    }
    if (m.attention_sinks) n += T(m.heads);  // GptOssAttention.sinks
    return n;
}

// One MLP of inner width f: up (and gate) h x f, down f x h.
template <typename T>
T mlp_params(const ModelSpec& m, T f) {
    const T h = T(m.hidden);
    T n = T(m.gated_mlp ? 3 : 2) * h * f;
    if (m.mlp_bias) n += (m.gated_mlp ? T(2) * f : f) + h;
    return n;
}

// A routed expert's width (DeepSeek's moe_intermediate_size), ffn unless given.
template <typename T>
T expert_width(const ModelSpec& m) {
    return T(m.moe_ffn > 0 ? m.moe_ffn : m.ffn);
}

// The MLP of one layer with a mixture: the experts, the router (Mixtral's, DeepSeek's, Qwen3 MoE's
// and Llama-4's gate: h x E, no bias; gpt-oss's GptOssTopKRouter adds a bias of E) and the shared
// experts (DeepSeek's, Llama-4's shared_expert), one MLP of shared_experts x the expert width.
// Without experts, the dense MLP of width ffn.
template <typename T>
T moe_mlp_params(const ModelSpec& m) {
    if (m.experts <= 1) return mlp_params<T>(m, T(m.ffn));
    const T e = expert_width<T>(m);
    T n = T(m.experts) * mlp_params<T>(m, e) + T(m.hidden) * T(m.experts);
    if (m.router_bias) n += T(m.experts);
    if (m.shared_experts > 0) n += mlp_params<T>(m, T(m.shared_experts) * e);
    return n;
}

// The layers with a mixture: past the first first_dense_layers, every moe_layer_step-th (Llama-4's
// moe_layers = range(step - 1, layers, step)). Never more than the layers: callers count a copy
// with layers = 0 to find what lies outside the blocks (trainable_params.cpp block_params).
std::int64_t mixture_layers(const ModelSpec& m) {
    if (m.experts <= 1 || m.layers <= 0) return 0;
    const std::int64_t after_dense = m.layers - std::clamp<std::int64_t>(m.first_dense_layers, 0, m.layers);
    return after_dense / std::max<std::int64_t>(m.moe_layer_step, 1);
}

// Every layer's MLP: the mixture layers above, the others dense (width ffn).
template <typename T>
T all_mlp_params(const ModelSpec& m) {
    const T mixture = T(mixture_layers(m));
    return mixture * moe_mlp_params<T>(m) + (T(std::max<std::int64_t>(m.layers, 0)) - mixture) * mlp_params<T>(m, T(m.ffn));
}

template <typename T>
T count(const ModelSpec& m) {
    const T h = T(m.hidden);
    T n = T(m.vocab) * h + T(m.positions) * h;
    if (m.embedding_norm) n += norm_params<T>(m);
    n += all_mlp_params<T>(m);
    if (m.encoder_decoder) {
        // T5: encoder block = self-attention + MLP + 2 norms; decoder block adds cross-attention
        // and a third norm; each stack has a final norm and a relative-position bias table.
        const T per_stack = T(m.layers / 2);
        const T encoder = attention_params<T>(m) + T(2) * norm_params<T>(m);
        const T decoder = T(2) * attention_params<T>(m) + T(3) * norm_params<T>(m);
        n += per_stack * (encoder + decoder) + T(2) * norm_params<T>(m) + T(2) * T(m.relative_attention_buckets) * T(m.heads);
    } else {
        n += T(m.layers) * (attention_params<T>(m) + T(m.norms_per_layer) * norm_params<T>(m)) + norm_params<T>(m);
    }
    if (!m.tied_embeddings) n += T(m.vocab) * h;
    if (m.lm_head_bias) n += T(m.vocab);
    return n;
}

}  // namespace

std::int64_t parameter_count(const ModelSpec& m) {
    if (m.params_override > 0) return m.params_override;
    return count<std::int64_t>(m);
}

std::int64_t largest_layer_params(const ModelSpec& m) {
    if (m.largest_layer_override > 0) return m.largest_layer_override;
    const std::int64_t h = m.hidden, f = m.ffn, q = m.heads * m.head_dim, kv = m.kv_heads * m.head_dim;
    std::int64_t largest = m.vocab * h;            // token embedding
    largest = std::max(largest, m.positions * h);  // learned positions
    if (!m.tied_embeddings) largest = std::max(largest, m.vocab * h + (m.lm_head_bias ? m.vocab : 0));
    if (uses_mla(m)) {
        const std::int64_t qk = m.heads * (m.qk_nope_head_dim + m.qk_rope_head_dim), kv_a = m.kv_lora_rank + m.qk_rope_head_dim;
        if (m.q_lora_rank > 0) {
            largest = std::max(largest, h * m.q_lora_rank + (m.qkv_bias ? m.q_lora_rank : 0));  // q_a_proj
            largest = std::max(largest, m.q_lora_rank * qk);                                    // q_b_proj
        } else {
            largest = std::max(largest, h * qk);  // q_proj
        }
        largest = std::max(largest, h * kv_a + (m.qkv_bias ? kv_a : 0));                              // kv_a_proj_with_mqa
        largest = std::max(largest, m.kv_lora_rank * m.heads * (m.qk_nope_head_dim + m.v_head_dim));  // kv_b_proj
        largest = std::max(largest, m.heads * m.v_head_dim * h + (m.out_bias ? h : 0));               // o_proj
    } else {
        if (m.fused_qkv) {
            largest = std::max(largest, h * (q + 2 * kv) + (m.qkv_bias ? q + 2 * kv : 0));
        } else {
            largest = std::max(largest, h * q + (m.qkv_bias ? q : 0));
        }
        largest = std::max(largest, q * h + (m.out_bias ? h : 0));
    }
    // The MLP modules of each width present: the dense MLP, each routed expert (its own modules:
    // transformers v4 keeps experts in an nn.ModuleList), the shared experts' one MLP, the router.
    const auto mlp_of_width = [&](std::int64_t width) {
        const std::int64_t up_out = m.fused_gate_up ? 2 * width : width;
        largest = std::max(largest, h * up_out + (m.mlp_bias ? up_out : 0));
        largest = std::max(largest, width * h + (m.mlp_bias ? h : 0));
    };
    if (moe_layers(m) < m.layers) mlp_of_width(f);
    if (m.experts > 1) {
        mlp_of_width(expert_ffn(m));
        if (m.shared_experts > 0) mlp_of_width(m.shared_experts * expert_ffn(m));
        largest = std::max(largest, h * m.experts);
    }
    return largest;
}

bool uses_mla(const ModelSpec& m) { return m.kv_lora_rank > 0; }

std::int64_t expert_ffn(const ModelSpec& m) { return expert_width<std::int64_t>(m); }

std::int64_t moe_layers(const ModelSpec& m) { return mixture_layers(m); }

bool is_moe_layer(const ModelSpec& m, std::int64_t layer) {
    if (m.experts <= 1 || layer < m.first_dense_layers || layer >= m.layers) return false;
    return (layer - m.first_dense_layers + 1) % std::max<std::int64_t>(m.moe_layer_step, 1) == 0;
}

std::int64_t mlp_params_per_expert(const ModelSpec& m) { return mlp_params<std::int64_t>(m, expert_ffn(m)); }

double mlp_width_per_token(const ModelSpec& m) { return mlp_width_per_token(m, static_cast<double>(m.experts_per_token)); }

double attention_pair_share(const ModelSpec& m, double seq_len) {
    const double s = seq_len, w = static_cast<double>(m.attention_window);
    if (m.attention_window <= 0 || m.layers <= 0 || s <= w) return 1.0;
    const double global_pairs = s * (s + 1) / 2;
    const double local_pairs = m.chunked_attention ? s * (w + 1) / 2 : s * w - w * (w - 1) / 2;
    const double L = static_cast<double>(m.layers);
    const double global_layers = m.global_layer_every > 0 ? std::floor(L / static_cast<double>(m.global_layer_every)) : 0.0;
    return (global_layers + (L - global_layers) * local_pairs / global_pairs) / L;
}

double mlp_width_per_token(const ModelSpec& m, double routed_per_token) {
    if (m.experts <= 1 || m.layers <= 0) return static_cast<double>(m.ffn);
    const double mixture = static_cast<double>(moe_layers(m));
    const double dense = static_cast<double>(m.layers) - mixture;
    const double per_token = (routed_per_token + static_cast<double>(m.shared_experts)) * static_cast<double>(expert_ffn(m));
    return (dense * static_cast<double>(m.ffn) + mixture * per_token) / static_cast<double>(m.layers);
}

ModelSpec synthesize_model(std::int64_t params) {
    if (params <= 0) throw InputError("a model needs a positive parameter count");
    // P ~= 12 L h^2 with h = 128 L  =>  L = (P / (12 * 128^2))^(1/3).
    const double layers_exact = std::cbrt(static_cast<double>(params) / (12.0 * 128.0 * 128.0));
    ModelSpec m;
    m.name = "synthesized";
    m.family = "synthesized";
    m.layers = std::max<std::int64_t>(2, std::llround(layers_exact));
    m.hidden = 128 * m.layers;
    m.head_dim = 128;
    m.heads = m.hidden / m.head_dim;
    m.kv_heads = m.heads;
    m.ffn = 4 * m.hidden;
    m.vocab = 51200;
    m.norm = NormKind::LayerNorm;
    m.tied_embeddings = true;
    m.synthesized = true;
    m.params_override = params;
    // The smallest shape's own count is the least a synthesized model can hold: its 51,200 x 256
    // embedding alone is 13.1M. A count below it would plan a size whose activations are a bigger model's.
    ModelSpec shape = m;
    shape.params_override = 0;
    const auto smallest = static_cast<std::int64_t>(limits::kSynthesizedParams.min);
    if (params < smallest)
        throw InputError(
            format_count(static_cast<double>(params)) + " parameters is below the smallest model the planner synthesizes from a size (" +
            format_count(static_cast<double>(smallest)) +
            ": 2 layers, hidden 256, vocabulary 51,200); give the shape with --layers --hidden --heads --ffn --vocab, or --model");
    // The largest module of the synthesized shape, but never more than the model itself.
    m.largest_layer_override = std::min(largest_layer_params(shape), params);
    return m;
}

void validate(const ModelSpec& m) {
    auto need_positive = [](std::int64_t v, const char* field) {
        if (v <= 0) throw InputError(std::string("model field '") + field + "' must be a positive integer, got " + std::to_string(v));
    };
    need_positive(m.layers, "layers");
    need_positive(m.hidden, "hidden");
    need_positive(m.heads, "heads");
    need_positive(m.kv_heads, "kv_heads");
    need_positive(m.head_dim, "head_dim");
    need_positive(m.ffn, "ffn");
    need_positive(m.vocab, "vocab");
    need_positive(m.experts, "experts");
    need_positive(m.experts_per_token, "experts_per_token");
    if (m.heads % m.kv_heads != 0)
        throw InputError("kv_heads (" + std::to_string(m.kv_heads) + ") must divide heads (" + std::to_string(m.heads) + ")");
    if (m.experts_per_token > m.experts)
        throw InputError("experts_per_token (" + std::to_string(m.experts_per_token) + ") cannot exceed experts (" +
                         std::to_string(m.experts) + ")");
    if (m.encoder_decoder && m.layers % 2 != 0)
        throw InputError("an encoder-decoder model needs an even number of layers (encoder + decoder)");
    // Keep every count far from int64 overflow: bound each dimension, then the total in double
    // precision before anything counts in int64 (2T parameters is the planner's upper end).
    // The bounds are core/model/limits.h's, which the command line's options share.
    using namespace limits;
    if (!kModelWidth.contains(m.hidden) || !kModelTable.contains(m.ffn) || !kModelTable.contains(m.vocab) || !kLayers.contains(m.layers) ||
        !kModelWidth.contains(m.heads) || !kModelWidth.contains(m.kv_heads) || !kModelWidth.contains(m.head_dim) ||
        !kExperts.contains(m.experts) || !kPositions.contains(m.positions) || !kRelativeBuckets.contains(m.relative_attention_buckets) ||
        !kNormsPerLayer.contains(m.norms_per_layer))
        throw InputError("model dimensions are out of range (hidden, heads and head_dim <= " + format_limit(kModelWidth.max) +
                         ", layers <= " + format_limit(kLayers.max) + ", experts <= " + format_limit(kExperts.max) + ")");
    // The MLA, mixture and QK-norm fields (model_spec.h): zero when a model has no such part.
    const auto need_in = [](std::int64_t v, std::int64_t max, const char* field) {
        if (v < 0 || v > max)
            throw InputError(std::string("model field '") + field + "' must be between 0 and " + std::to_string(max) + ", got " +
                             std::to_string(v));
    };
    need_in(m.q_lora_rank, kModelWidth.max, "q_lora_rank");
    need_in(m.kv_lora_rank, kModelWidth.max, "kv_lora_rank");
    need_in(m.qk_nope_head_dim, kModelWidth.max, "qk_nope_head_dim");
    need_in(m.qk_rope_head_dim, kModelWidth.max, "qk_rope_head_dim");
    need_in(m.v_head_dim, kModelWidth.max, "v_head_dim");
    need_in(m.moe_ffn, kModelTable.max, "moe_ffn");
    need_in(m.shared_experts, kExperts.max, "shared_experts");
    need_in(m.first_dense_layers, m.layers, "first_dense_layers");
    need_in(m.attention_window, kModelTable.max, "attention_window");
    need_in(m.global_layer_every, m.layers, "global_layer_every");
    if (m.moe_layer_step < 1 || m.moe_layer_step > m.layers)
        throw InputError("model field 'moe_layer_step' must be between 1 and " + std::to_string(m.layers) + ", got " +
                         std::to_string(m.moe_layer_step));
    if (uses_mla(m) && (m.qk_nope_head_dim + m.qk_rope_head_dim == 0 || m.v_head_dim == 0))
        throw InputError("multi-head latent attention (kv_lora_rank " + std::to_string(m.kv_lora_rank) +
                         ") needs a query/key head (qk_nope_head_dim + qk_rope_head_dim > 0) and v_head_dim > 0");
    if (count<double>(m) > kParams.max || static_cast<double>(m.params_override) > kParams.max)
        throw InputError("the model has more than 10^15 parameters; the planner covers up to a few trillion");
    if (m.largest_layer_override < 0 || m.params_override < 0)
        throw InputError("params_override and largest_layer_override must not be negative");
}

}  // namespace zp
