#include "core/model/model_spec.h"

#include "core/model/errors.h"
#include "core/model/limits.h"

#include <algorithm>
#include <cmath>

namespace zp {
namespace {

// The counting formulas, written once over the number type: int64 for the exact count, double
// for validate() to check the magnitude before any int64 arithmetic could overflow.
template <typename T>
T norm_params(const ModelSpec& m) {
    return m.norm == NormKind::LayerNorm ? T(2) * T(m.hidden) : T(m.hidden);
}

// q, k, v and output projections with their biases.
template <typename T>
T attention_params(const ModelSpec& m) {
    const T h = T(m.hidden), q = T(m.heads) * T(m.head_dim), kv = T(m.kv_heads) * T(m.head_dim);
    T n = h * q + T(2) * h * kv + q * h;
    if (m.qkv_bias) n += q + T(2) * kv;
    if (m.out_bias) n += h;
    return n;
}

// One expert's MLP: up (and gate) h x f, down f x h.
template <typename T>
T mlp_params(const ModelSpec& m) {
    const T h = T(m.hidden), f = T(m.ffn);
    T n = T(m.gated_mlp ? 3 : 2) * h * f;
    if (m.mlp_bias) n += (m.gated_mlp ? T(2) * f : f) + h;
    return n;
}

template <typename T>
T moe_mlp_params(const ModelSpec& m) {
    const T router = m.experts > 1 ? T(m.hidden) * T(m.experts) : T(0);  // Mixtral gate: h x E, no bias
    return T(m.experts) * mlp_params<T>(m) + router;
}

template <typename T>
T count(const ModelSpec& m) {
    const T h = T(m.hidden);
    T n = T(m.vocab) * h + T(m.positions) * h;
    if (m.embedding_norm) n += norm_params<T>(m);
    if (m.encoder_decoder) {
        // T5: encoder block = self-attention + MLP + 2 norms; decoder block adds cross-attention
        // and a third norm; each stack has a final norm and a relative-position bias table.
        const T per_stack = T(m.layers / 2);
        const T encoder = attention_params<T>(m) + moe_mlp_params<T>(m) + T(2) * norm_params<T>(m);
        const T decoder = T(2) * attention_params<T>(m) + moe_mlp_params<T>(m) + T(3) * norm_params<T>(m);
        n += per_stack * (encoder + decoder) + T(2) * norm_params<T>(m) + T(2) * T(m.relative_attention_buckets) * T(m.heads);
    } else {
        n += T(m.layers) * (attention_params<T>(m) + moe_mlp_params<T>(m) + T(m.norms_per_layer) * norm_params<T>(m)) + norm_params<T>(m);
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
    if (count<double>(m) > kParams.max || static_cast<double>(m.params_override) > kParams.max)
        throw InputError("the model has more than 10^15 parameters; the planner covers up to a few trillion");
    if (m.largest_layer_override < 0 || m.params_override < 0)
        throw InputError("params_override and largest_layer_override must not be negative");
}

}  // namespace zp
