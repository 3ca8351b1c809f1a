#include "core/model_spec.h"

#include "core/errors.h"

#include <algorithm>
#include <cmath>

namespace zp {
namespace {

std::int64_t norm_params(const ModelSpec& m) { return m.norm == NormKind::LayerNorm ? 2 * m.hidden : m.hidden; }
std::int64_t attn_inner(const ModelSpec& m) { return m.heads * m.head_dim; }
std::int64_t kv_inner(const ModelSpec& m) { return m.kv_heads * m.head_dim; }

// q, k, v and output projections with their biases.
std::int64_t attention_params(const ModelSpec& m) {
    const std::int64_t h = m.hidden, q = attn_inner(m), kv = kv_inner(m);
    std::int64_t n = h * q + 2 * h * kv + q * h;
    if (m.qkv_bias) n += q + 2 * kv;
    if (m.out_bias) n += h;
    return n;
}

// One expert's MLP: up (and gate) h x f, down f x h.
std::int64_t mlp_params(const ModelSpec& m) {
    const std::int64_t h = m.hidden, f = m.ffn;
    std::int64_t n = (m.gated_mlp ? 3 : 2) * h * f;
    if (m.mlp_bias) n += (m.gated_mlp ? 2 * f : f) + h;
    return n;
}

std::int64_t moe_mlp_params(const ModelSpec& m) {
    const std::int64_t router = m.experts > 1 ? m.hidden * m.experts : 0;  // Mixtral gate: h x E, no bias
    return m.experts * mlp_params(m) + router;
}

std::int64_t decoder_block_params(const ModelSpec& m) {
    return attention_params(m) + moe_mlp_params(m) + m.norms_per_layer * norm_params(m);
}

}  // namespace

std::int64_t parameter_count(const ModelSpec& m) {
    if (m.params_override > 0) return m.params_override;
    const std::int64_t h = m.hidden;
    std::int64_t n = m.vocab * h + m.positions * h;
    if (m.embedding_norm) n += norm_params(m);
    if (m.encoder_decoder) {
        // T5: encoder block = self-attention + MLP + 2 norms; decoder block adds cross-attention
        // and a third norm; each stack has a final norm and a relative-position bias table.
        const std::int64_t per_stack = m.layers / 2;
        const std::int64_t encoder = attention_params(m) + moe_mlp_params(m) + 2 * norm_params(m);
        const std::int64_t decoder = 2 * attention_params(m) + moe_mlp_params(m) + 3 * norm_params(m);
        n += per_stack * (encoder + decoder) + 2 * norm_params(m) + 2 * m.relative_attention_buckets * m.heads;
    } else {
        n += m.layers * decoder_block_params(m) + norm_params(m);
    }
    if (!m.tied_embeddings) n += m.vocab * h;
    if (m.lm_head_bias) n += m.vocab;
    return n;
}

std::int64_t largest_layer_params(const ModelSpec& m) {
    if (m.largest_layer_override > 0) return m.largest_layer_override;
    const std::int64_t h = m.hidden, f = m.ffn, q = attn_inner(m), kv = kv_inner(m);
    std::int64_t largest = m.vocab * h;                                   // token embedding
    largest = std::max(largest, m.positions * h);                        // learned positions
    if (!m.tied_embeddings) largest = std::max(largest, m.vocab * h + (m.lm_head_bias ? m.vocab : 0));
    if (m.fused_qkv) {
        largest = std::max(largest, h * (q + 2 * kv) + (m.qkv_bias ? q + 2 * kv : 0));
    } else {
        largest = std::max(largest, h * q + (m.qkv_bias ? q : 0));
    }
    largest = std::max(largest, q * h + (m.out_bias ? h : 0));
    const std::int64_t up_out = m.fused_gate_up ? 2 * f : f;
    largest = std::max(largest, h * up_out + (m.mlp_bias ? up_out : 0));
    largest = std::max(largest, f * h + (m.mlp_bias ? h : 0));
    return largest;
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
    // The largest module of the synthesized shape, but never more than the model itself.
    ModelSpec shape = m;
    shape.params_override = 0;
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
        throw InputError("experts_per_token (" + std::to_string(m.experts_per_token) + ") cannot exceed experts (" + std::to_string(m.experts) + ")");
    if (m.encoder_decoder && m.layers % 2 != 0)
        throw InputError("an encoder-decoder model needs an even number of layers (encoder + decoder)");
    // Keep every count far from int64 overflow: 2T parameters is the planner's upper end.
    constexpr std::int64_t kMaxDim = 1 << 20;
    if (m.hidden > kMaxDim || m.ffn > 16 * kMaxDim || m.vocab > 16 * kMaxDim || m.layers > 100000 || m.heads > kMaxDim || m.experts > 4096)
        throw InputError("model dimensions are out of range (hidden <= 1048576, layers <= 100000, experts <= 4096)");
}

}  // namespace zp
