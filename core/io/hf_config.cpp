#include "core/io/hf_config.h"

#include "core/base/errors.h"
#include "core/base/json_errors.h"
#include "core/presets/model_presets.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <functional>
#include <map>

namespace zp {
namespace {

using nlohmann::json;

// Field access that names the field in every error.
class Fields {
public:
    Fields(const json& j, std::string source, std::string type) : j_(j), source_(std::move(source)), type_(std::move(type)) {}

    bool has(const char* key) const { return j_.contains(key) && !j_.at(key).is_null(); }
    // Present and null: Python's None, which some configs use to switch a part off (q_lora_rank).
    bool is_null(const char* key) const { return j_.contains(key) && j_.at(key).is_null(); }
    // An error about the config as a whole, prefixed with its source like every field error.
    [[noreturn]] void fail(const std::string& message) const { throw InputError(source_ + ": " + message); }

    std::int64_t integer(const char* key) const {
        if (!has(key)) throw InputError(source_ + ": field '" + key + "' is missing (needed for model_type '" + type_ + "')");
        return to_integer(key, j_.at(key));
    }
    // The first of several spellings that is present (Falcon's old configs say n_head, new ones num_attention_heads).
    std::int64_t integer_any(std::initializer_list<const char*> keys) const {
        for (const char* k : keys)
            if (has(k)) return integer(k);
        throw InputError(source_ + ": field '" + *keys.begin() + "' is missing (needed for model_type '" + type_ + "')");
    }
    std::int64_t integer_or(const char* key, std::int64_t fallback) const { return has(key) ? integer(key) : fallback; }
    // A count that may be zero (first_k_dense_replace).
    std::int64_t count_or(const char* key, std::int64_t fallback) const {
        if (!has(key)) return fallback;
        if (j_.at(key).is_number() && j_.at(key).get<double>() == 0) return 0;
        return integer(key);
    }

    // The raw value of a key that is present and not null (a list such as mlp_only_layers), else nullptr.
    const json* value(const char* key) const { return has(key) ? &j_.at(key) : nullptr; }

    // A nested config (Gemma-3's and Llama-4's text_config), its errors naming the key.
    Fields nested(const char* key) const {
        if (!has(key) || !j_.at(key).is_object())
            throw InputError(source_ + ": field '" + key + "' is missing or not an object (needed for model_type '" + type_ + "')");
        return Fields(j_.at(key), source_ + ": " + key, type_);
    }

    bool boolean_or(const char* key, bool fallback) const {
        if (!has(key)) return fallback;
        const json& v = j_.at(key);
        if (!v.is_boolean()) throw InputError(source_ + ": field '" + key + "' must be true or false, got " + v.dump());
        return v.get<bool>();
    }

private:
    std::int64_t to_integer(const char* key, const json& v) const {
        double d = 0;
        if (v.is_number_integer()) {
            if (v.is_number_unsigned() && v.get<std::uint64_t>() > (1ull << 40)) d = 1e300;
            else d = static_cast<double>(v.get<std::int64_t>());
        } else if (v.is_number_float()) {
            d = v.get<double>();
        } else {
            throw InputError(source_ + ": field '" + key + "' must be a positive integer, got " + v.dump());
        }
        if (std::isfinite(d) && d == std::floor(d) && d > static_cast<double>(1ll << 40))
            throw InputError(source_ + ": field '" + key + "' is out of range: at most 1099511627776 (2^40), got " + v.dump());
        if (!std::isfinite(d) || d != std::floor(d) || d <= 0)
            throw InputError(source_ + ": field '" + key + "' must be a positive integer, got " + v.dump());
        return static_cast<std::int64_t>(d);
    }

    const json& j_;
    std::string source_;
    std::string type_;
};

// head_dim as the config gives it; when it is absent, the config class's default: `fallback`, or
// hidden / heads when that is 0.
void set_head_dim(ModelSpec& m, const Fields& f, std::int64_t fallback = 0) {
    m.head_dim = f.integer_or("head_dim", fallback);
    if (m.head_dim == 0) {
        if (m.hidden % m.heads != 0)
            f.fail("hidden size " + std::to_string(m.hidden) + " is not divisible by the " + std::to_string(m.heads) +
                   " attention heads; give head_dim");
        m.head_dim = m.hidden / m.heads;
    }
}

// Llama and its kin: RMSNorm, RoPE, gated MLP (transformers models/llama/modeling_llama.py).
ModelSpec llama_kin(const Fields& f, const std::string& family, bool default_tied, bool qkv_bias_default,
                    std::int64_t default_head_dim = 0) {
    const std::int64_t heads = f.integer("num_attention_heads");
    ModelSpec m = llama_style(f.integer("num_hidden_layers"), f.integer("hidden_size"), heads, f.integer_or("num_key_value_heads", heads),
                              f.integer("intermediate_size"), f.integer("vocab_size"), f.boolean_or("tie_word_embeddings", default_tied));
    m.family = family;
    set_head_dim(m, f, default_head_dim);
    const bool attention_bias = f.boolean_or("attention_bias", qkv_bias_default);
    m.qkv_bias = attention_bias;
    // Qwen2 puts a bias on q/k/v but not on o_proj; Llama's attention_bias covers all four.
    m.out_bias = attention_bias && family != "qwen2";
    m.mlp_bias = f.boolean_or("mlp_bias", false);
    return m;
}

// transformers' ACT2FN name of the MLP activation: gelu_new (NewGELUActivation, eight tensor ops)
// or one of the kernels that run fused (model_spec.h MlpActivation).
MlpActivation activation_named(const Fields& f, const char* key, const char* fallback) {
    const json* v = f.value(key);
    const std::string name = v && v->is_string() ? v->get<std::string>() : fallback;
    return name == "gelu_new" ? MlpActivation::GeluNew : MlpActivation::Fused;
}

ModelSpec from_gpt2(const Fields& f) {
    ModelSpec m =
        gpt2_style(f.integer("n_layer"), f.integer("n_embd"), f.integer("n_head"), f.integer("vocab_size"), f.integer("n_positions"));
    if (f.has("n_inner")) m.ffn = f.integer("n_inner");
    m.activation = activation_named(f, "activation_function", "gelu_new");  // GPT2Config's default
    m.tied_embeddings = f.boolean_or("tie_word_embeddings", true);
    return m;
}

// GPT-NeoX / Pythia (models/gpt_neox): fused qkv, LayerNorm, biases, untied embed_out.
ModelSpec from_gpt_neox(const Fields& f) {
    ModelSpec m =
        gpt2_style(f.integer("num_hidden_layers"), f.integer("hidden_size"), f.integer("num_attention_heads"), f.integer("vocab_size"), 0);
    m.family = "gpt_neox";
    m.activation = activation_named(f, "hidden_act", "gelu");  // GPTNeoXConfig's default
    m.ffn = f.integer("intermediate_size");
    const bool bias = f.boolean_or("attention_bias", true);
    m.qkv_bias = m.out_bias = bias;
    m.tied_embeddings = f.boolean_or("tie_word_embeddings", false);
    return m;
}

// Falcon (models/falcon): fused qkv; 7B style is multi-query with one shared LayerNorm,
// new_decoder_architecture (40B, 180B) has num_kv_heads and two LayerNorms.
ModelSpec from_falcon(const Fields& f) {
    const std::int64_t hidden = f.integer_any({"hidden_size", "n_embd"});
    const std::int64_t heads = f.integer_any({"num_attention_heads", "n_head"});
    ModelSpec m = gpt2_style(f.integer_any({"num_hidden_layers", "n_layer"}), hidden, heads, f.integer("vocab_size"), 0);
    m.family = "falcon";
    m.ffn = f.integer_or("ffn_hidden_size", 4 * hidden);
    // The original Falcon-40B/180B configs (model_type RefinedWeb, remote code modelling_RW.py) have
    // no new_decoder_architecture key but n_head_kv: their layers are the new architecture, query_key_value
    // (2 n_head_kv + n_head) x head_dim wide and ln_attn and ln_mlp in every layer (as vLLM's RWConfig
    // reads them); the 7B's RefinedWebModel config says multi_query instead.
    const std::int64_t n_head_kv = f.integer_or("n_head_kv", 0);
    const bool new_arch = f.boolean_or("new_decoder_architecture", false) || n_head_kv > 0;
    if (new_arch) {
        m.kv_heads = f.integer_or("num_kv_heads", n_head_kv > 0 ? n_head_kv : heads);
        m.norms_per_layer = static_cast<int>(f.integer_or("num_ln_in_parallel_attn", 2));
    } else {
        m.kv_heads = f.boolean_or("multi_query", true) ? 1 : heads;
        m.norms_per_layer = f.boolean_or("parallel_attn", true) ? 1 : 2;
    }
    const bool bias = f.boolean_or("bias", false);
    m.qkv_bias = m.out_bias = m.mlp_bias = bias;
    m.tied_embeddings = f.boolean_or("tie_word_embeddings", true);
    return m;
}

// Phi-1/1.5/2 (models/phi): separate q/k/v with bias, LayerNorm shared by parallel attention
// and MLP, GELU MLP with bias, untied head with bias.
ModelSpec from_phi(const Fields& f) {
    const std::int64_t heads = f.integer("num_attention_heads");
    ModelSpec m = gpt2_style(f.integer("num_hidden_layers"), f.integer("hidden_size"), heads, f.integer("vocab_size"), 0);
    m.family = "phi";
    m.activation = activation_named(f, "hidden_act", "gelu_new");  // PhiConfig's default
    m.kv_heads = f.integer_or("num_key_value_heads", heads);
    m.ffn = f.integer("intermediate_size");
    m.fused_qkv = false;
    m.norms_per_layer = 1;
    m.tied_embeddings = f.boolean_or("tie_word_embeddings", false);
    m.lm_head_bias = true;
    return m;
}

// Phi-3 (models/phi3): fused qkv_proj and gate_up_proj, RMSNorm, no biases.
ModelSpec from_phi3(const Fields& f) {
    ModelSpec m = llama_kin(f, "phi3", false, false);
    m.fused_qkv = true;
    m.fused_gate_up = true;
    return m;
}

// Gemma and Gemma-2 (models/gemma, models/gemma2): GeGLU, tied by default, and head_dim 256 when
// the config leaves it out (GemmaConfig and Gemma2Config default it to 256, not hidden / heads:
// Gemma-2 2B's 2304 / 8 would be 288).
ModelSpec from_gemma(const Fields& f, const std::string& type) {
    ModelSpec m = llama_kin(f, type, true, false, 256);
    if (type == "gemma2") m.norms_per_layer = 4;  // pre/post attention and pre/post feed-forward norms
    return m;
}

ModelSpec from_mixtral(const Fields& f) {
    ModelSpec m = llama_kin(f, "mixtral", false, false);
    m.experts = f.integer("num_local_experts");
    m.experts_per_token = f.integer("num_experts_per_tok");
    return m;
}

// DeepSeek-V2 (transformers models/deepseek_v2/modeling_deepseek_v2.py, DeepseekV2Config; DeepSeek's
// own modeling_deepseek.py builds the same modules): multi-head latent attention and a mixture with
// shared experts after first_k_dense_replace dense layers. Absent keys take DeepseekV2Config's
// defaults (q_lora_rank 1536, kv_lora_rank 512, qk_nope_head_dim 128, qk_rope_head_dim 64,
// v_head_dim 128, n_routed_experts 64, n_shared_experts 2, moe_intermediate_size 1407,
// first_k_dense_replace 0); q_lora_rank null is a plain q_proj (DeepSeek-V2-Lite), n_routed_experts
// null a dense model, n_shared_experts null no shared experts. head_dim is the q/k head
// (qk_nope_head_dim + qk_rope_head_dim); transformers' config.head_dim (the RoPE part) is not a width.
// DeepseekV2Config's and DeepseekV3Config's defaults for absent keys (transformers
// models/deepseek_v2/configuration_deepseek_v2.py, as DeepSeek's own configuration_deepseek.py for
// DeepSeek-V2; models/deepseek_v3/configuration_deepseek_v3.py).
struct DeepseekDefaults {
    std::int64_t q_lora_rank, kv_lora_rank, qk_nope_head_dim, qk_rope_head_dim, v_head_dim;
    std::int64_t routed_experts, shared_experts, moe_intermediate_size, first_dense_layers;
};
constexpr DeepseekDefaults kDeepseekV2Defaults{1536, 512, 128, 64, 128, 64, 2, 1407, 0};
constexpr DeepseekDefaults kDeepseekV3Defaults{1536, 512, 128, 64, 128, 256, 1, 2048, 3};

ModelSpec from_deepseek(const Fields& f, const std::string& family, const DeepseekDefaults& defaults) {
    const std::int64_t heads = f.integer("num_attention_heads");
    ModelSpec m = llama_style(f.integer("num_hidden_layers"), f.integer("hidden_size"), heads, f.integer_or("num_key_value_heads", heads),
                              f.integer("intermediate_size"), f.integer("vocab_size"), f.boolean_or("tie_word_embeddings", false));
    m.family = family;
    m.q_lora_rank = f.is_null("q_lora_rank") ? 0 : f.integer_or("q_lora_rank", defaults.q_lora_rank);
    m.kv_lora_rank = f.integer_or("kv_lora_rank", defaults.kv_lora_rank);
    m.qk_nope_head_dim = f.integer_or("qk_nope_head_dim", defaults.qk_nope_head_dim);
    m.qk_rope_head_dim = f.integer_or("qk_rope_head_dim", defaults.qk_rope_head_dim);
    m.v_head_dim = f.integer_or("v_head_dim", defaults.v_head_dim);
    m.head_dim = m.qk_nope_head_dim + m.qk_rope_head_dim;
    const bool attention_bias = f.boolean_or("attention_bias", false);  // q_a_proj, kv_a_proj_with_mqa, o_proj
    m.qkv_bias = m.out_bias = attention_bias;
    m.mlp_bias = f.boolean_or("mlp_bias", false);
    const std::int64_t routed = f.is_null("n_routed_experts") ? 1 : f.integer_or("n_routed_experts", defaults.routed_experts);
    if (routed > 1) {
        if (f.integer_or("moe_layer_freq", 1) != 1)
            f.fail("moe_layer_freq " + std::to_string(f.integer("moe_layer_freq")) + " is not supported (every checkpoint has 1)");
        m.experts = routed;
        m.experts_per_token = f.integer("num_experts_per_tok");
        m.moe_ffn = f.integer_or("moe_intermediate_size", defaults.moe_intermediate_size);
        m.shared_experts = f.is_null("n_shared_experts") ? 0 : f.count_or("n_shared_experts", defaults.shared_experts);
        m.first_dense_layers = f.count_or("first_k_dense_replace", defaults.first_dense_layers);
    }
    return m;
}

// DeepSeek-V3 and R1 (models/deepseek_v3/modeling_deepseek_v3.py): DeepSeek-V2's modules with
// DeepseekV3Config's defaults (256 routed experts of 2048, one shared, first_k_dense_replace 3).
// DeepseekV3TopkRouter's e_score_correction_bias is a registered buffer, not a parameter, and the
// multi-token-prediction layer (num_nextn_predict_layers) is not part of DeepseekV3ForCausalLM
// (transformers skips the checkpoint's layer 61): neither is counted. n_group and topk_group
// only restrict which experts a token may pick.
ModelSpec from_deepseek_v3(const Fields& f) { return from_deepseek(f, "deepseek_v3", kDeepseekV3Defaults); }

// OLMo-2 (models/olmo2/modeling_olmo2.py): Llama's projections (attention_bias on all four), q_norm
// and k_norm over the whole q and k width, post_attention_layernorm and post_feedforward_layernorm
// in place of the pre-norms (still two a layer); OlmoMLP has no bias.
ModelSpec from_olmo2(const Fields& f) {
    ModelSpec m = llama_kin(f, "olmo2", false, false);
    m.qk_norm = true;
    m.mlp_bias = false;
    return m;
}

// Qwen3 dense (models/qwen3/modeling_qwen3.py): Llama's projections, attention_bias on all four
// (Qwen3Attention's o_proj takes it too, unlike Qwen2's), Qwen3MLP without bias, and q_norm and
// k_norm of head_dim weights each, applied per head. Absent keys take Qwen3Config's defaults:
// head_dim 128 (not hidden / heads), tie_word_embeddings and attention_bias false.
ModelSpec from_qwen3(const Fields& f) {
    ModelSpec m = llama_kin(f, "qwen3", false, false, 128);
    m.qk_norm = true;
    m.qk_norm_per_head = true;
    m.mlp_bias = false;
    return m;
}

// Qwen3 MoE (models/qwen3_moe/modeling_qwen3_moe.py): Qwen3's attention (Qwen3MoeAttention: q/k/v/o
// with attention_bias, per-head q_norm and k_norm of head_dim) and a Qwen3MoeSparseMoeBlock in every
// layer: the router gate nn.Linear(hidden_size, num_experts, bias=False) and num_experts experts,
// each a Qwen3MoeMLP of moe_intermediate_size (gate_proj, up_proj, down_proj, no bias), with
// num_experts_per_tok routed a token and no shared experts. A layer is dense (a Qwen3MoeMLP of
// intermediate_size) only when it is in mlp_only_layers or (layer + 1) % decoder_sparse_step != 0:
// the planner models every layer as a mixture, so it takes decoder_sparse_step 1 and an empty
// mlp_only_layers (every released checkpoint) and refuses others. ffn keeps intermediate_size.
// Absent keys take Qwen3MoeConfig's defaults (models/qwen3_moe/configuration_qwen3_moe.py):
// num_key_value_heads 4 (not num_attention_heads), intermediate_size 6144, moe_intermediate_size
// 768, num_experts 128, num_experts_per_tok 8, tie_word_embeddings and attention_bias false.
// Qwen3MoeConfig has no head_dim of its own (unlike Qwen3Config's 128): Qwen3MoeAttention reads
// getattr(config, "head_dim", hidden_size // num_attention_heads), so an absent head_dim is
// hidden / heads; every released config states 128.
namespace qwen3_moe_defaults {
constexpr std::int64_t kKeyValueHeads = 4;
constexpr std::int64_t kIntermediateSize = 6144;
constexpr std::int64_t kMoeIntermediateSize = 768;
constexpr std::int64_t kExperts = 128;
constexpr std::int64_t kExpertsPerToken = 8;
}  // namespace qwen3_moe_defaults

ModelSpec from_qwen3_moe(const Fields& f) {
    namespace defaults = qwen3_moe_defaults;
    ModelSpec m = llama_style(f.integer("num_hidden_layers"), f.integer("hidden_size"), f.integer("num_attention_heads"),
                              f.integer_or("num_key_value_heads", defaults::kKeyValueHeads),
                              f.integer_or("intermediate_size", defaults::kIntermediateSize), f.integer("vocab_size"),
                              f.boolean_or("tie_word_embeddings", false));
    m.family = "qwen3_moe";
    set_head_dim(m, f);
    const bool attention_bias = f.boolean_or("attention_bias", false);  // q, k, v and o_proj, as Qwen3Attention
    m.qkv_bias = m.out_bias = attention_bias;
    m.qk_norm = true;
    m.qk_norm_per_head = true;
    if (const std::int64_t step = f.integer_or("decoder_sparse_step", 1); step != 1)
        f.fail("decoder_sparse_step " + std::to_string(step) +
               " is not supported: the planner models a mixture in every layer (decoder_sparse_step 1, as every Qwen3 MoE checkpoint)");
    if (const json* dense = f.value("mlp_only_layers"); dense && !(dense->is_array() && dense->empty()))
        f.fail("mlp_only_layers " + dense->dump() +
               " is not supported: the planner models a mixture in every layer (mlp_only_layers [], as every Qwen3 MoE checkpoint)");
    m.experts = f.integer_or("num_experts", defaults::kExperts);
    if (m.experts < 2)
        f.fail("num_experts 1 is not supported: a Qwen3 MoE layer with one expert still has a router; give 2 or more experts");
    m.experts_per_token = f.integer_or("num_experts_per_tok", defaults::kExpertsPerToken);
    m.moe_ffn = f.integer_or("moe_intermediate_size", defaults::kMoeIntermediateSize);
    return m;
}

// Which layers attend locally, as the planner records it (model_spec.h: attention_window,
// global_layer_every): layer i global when (i + 1) % every == 0, the others local; 0 = none
// global. Read from a list of layer kinds (Gemma-3's and gpt-oss's layer_types: `local` names the
// local kind) or from flags (Llama-4's no_rope_layers: 1 = RoPE and chunked, 0 = global NoPE);
// any other arrangement is refused by the key's name.
std::int64_t global_every_from_list(const Fields& f, const char* key, std::int64_t layers, const std::function<bool(const json&)>& is_local,
                                    const std::function<bool(const json&)>& is_global) {
    const json* list = f.value(key);
    if (!list->is_array() || static_cast<std::int64_t>(list->size()) < layers)
        f.fail(std::string(key) + " must list one entry per layer (" + std::to_string(layers) + "), got " + list->dump());
    std::int64_t every = 0;
    for (std::int64_t i = 0; i < layers && every == 0; ++i)
        if (is_global((*list)[static_cast<std::size_t>(i)])) every = i + 1;
    for (std::int64_t i = 0; i < layers; ++i) {
        const json& kind = (*list)[static_cast<std::size_t>(i)];
        const bool global = every > 0 && (i + 1) % every == 0;
        if (!(global ? is_global(kind) : is_local(kind)))
            f.fail(
                std::string(key) + " " + list->dump() +
                " is not supported: the planner records local attention on every layer but every N-th (layer i global when (i + 1) % N == 0)");
    }
    return every;
}

std::int64_t global_every_from_layer_types(const Fields& f, std::int64_t layers, const char* local) {
    return global_every_from_list(
        f, "layer_types", layers, [&](const json& k) { return k == local; }, [](const json& k) { return k == "full_attention"; });
}

// Gemma-3's language model (models/gemma3/modeling_gemma3.py; model_type gemma3_text, or the
// text_config of model_type gemma3): Gemma-2's four RMSNorms a layer and GeGLU MLP, q_norm and
// k_norm of head_dim per head (Gemma3RMSNorm(head_dim)), tied by default. Absent keys take
// Gemma3TextConfig's defaults (models/gemma3/configuration_gemma3.py): num_attention_heads 8,
// num_key_value_heads 4, head_dim 256, vocab_size 262208 (the 4b, 12b and 27b text_config give
// none of them), sliding_window 4096, sliding_window_pattern 6. The sliding layers: layer_types
// when given, else every layer but each sliding_window_pattern-th. A gemma3 config's
// vision_config (SigLIP) and projector are not counted: the planner counts the language model.
namespace gemma3_defaults {
constexpr std::int64_t kHeads = 8, kKeyValueHeads = 4, kHeadDim = 256, kVocab = 262208, kSlidingWindow = 4096, kPattern = 6;
}  // namespace gemma3_defaults

ModelSpec from_gemma3_text(const Fields& f) {
    namespace defaults = gemma3_defaults;
    ModelSpec m =
        llama_style(f.integer("num_hidden_layers"), f.integer("hidden_size"), f.integer_or("num_attention_heads", defaults::kHeads),
                    f.integer_or("num_key_value_heads", defaults::kKeyValueHeads), f.integer("intermediate_size"),
                    f.integer_or("vocab_size", defaults::kVocab), f.boolean_or("tie_word_embeddings", true));
    m.family = "gemma3_text";
    m.head_dim = f.integer_or("head_dim", defaults::kHeadDim);
    m.qkv_bias = m.out_bias = f.boolean_or("attention_bias", false);
    m.norms_per_layer = 4;
    m.qk_norm = true;
    m.qk_norm_per_head = true;
    if (f.is_null("sliding_window")) return m;
    m.attention_window = f.integer_or("sliding_window", defaults::kSlidingWindow);
    m.global_layer_every = f.has("layer_types") ? global_every_from_layer_types(f, m.layers, "sliding_attention")
                                                : f.integer_or("sliding_window_pattern", defaults::kPattern);
    return m;
}

// gpt-oss (models/gpt_oss/modeling_gpt_oss.py): q/k/v/o with attention_bias (default true) and a
// sink logit per head; in every layer GptOssTopKRouter (weight and bias) and num_local_experts
// GptOssExperts of intermediate_size with biases (gate_up_proj_bias 2f, down_proj_bias h),
// num_experts_per_tok a token; two RMSNorms a layer; untied. Absent keys take GptOssConfig's
// defaults (models/gpt_oss/configuration_gpt_oss.py): head_dim 64, num_key_value_heads 8,
// num_local_experts 128, num_experts_per_tok 4, sliding_window 128, layer_types sliding on even
// layers and full on odd ones. quantization_config (MXFP4 experts in the checkpoint) changes no
// parameter count and is not read.
namespace gpt_oss_defaults {
constexpr std::int64_t kHeadDim = 64, kKeyValueHeads = 8, kExperts = 128, kExpertsPerToken = 4, kSlidingWindow = 128;
}  // namespace gpt_oss_defaults

ModelSpec from_gpt_oss(const Fields& f) {
    namespace defaults = gpt_oss_defaults;
    ModelSpec m = llama_style(f.integer("num_hidden_layers"), f.integer("hidden_size"), f.integer("num_attention_heads"),
                              f.integer_or("num_key_value_heads", defaults::kKeyValueHeads), f.integer("intermediate_size"),
                              f.integer("vocab_size"), f.boolean_or("tie_word_embeddings", false));
    m.family = "gpt_oss";
    m.head_dim = f.integer_or("head_dim", defaults::kHeadDim);
    m.qkv_bias = m.out_bias = f.boolean_or("attention_bias", true);
    m.mlp_bias = true;
    m.attention_sinks = true;
    m.router_bias = true;
    m.experts = f.integer_or("num_local_experts", defaults::kExperts);
    if (m.experts < 2)
        f.fail("num_local_experts 1 is not supported: a gpt-oss layer with one expert still has a router; give 2 or more experts");
    m.experts_per_token = f.integer_or("num_experts_per_tok", defaults::kExpertsPerToken);
    if (f.is_null("sliding_window")) return m;
    m.attention_window = f.integer_or("sliding_window", defaults::kSlidingWindow);
    m.global_layer_every = f.has("layer_types") ? global_every_from_layer_types(f, m.layers, "sliding_attention") : 2;
    return m;
}

// Llama-4's language model (models/llama4/modeling_llama4.py; the text_config of model_type
// llama4, or model_type llama4_text): Llama's attention (attention_bias), its QK-norm
// Llama4TextL2Norm without weights; a Llama4TextMoe (router h -> E without bias, E experts of
// intermediate_size, one shared_expert of intermediate_size) in the layers moe_layers names, a
// dense Llama4TextMLP of intermediate_size_mlp in the others. The planner takes the mixtures
// every interleave_moe_layer_step-th layer (moe_layers = range(step - 1, layers, step), the
// config class's default) and refuses another moe_layers by name. Chunked attention of
// attention_chunk_size on the RoPE layers, global on the NoPE ones (no_rope_layers, else one in
// no_rope_layer_interval). Absent keys take Llama4TextConfig's defaults (configuration_llama4.py):
// num_key_value_heads 8, head_dim 128, intermediate_size 8192, intermediate_size_mlp 16384,
// num_local_experts 16, num_experts_per_tok 1, attention_chunk_size 8192,
// no_rope_layer_interval 4. The vision model and projector are not counted.
namespace llama4_defaults {
constexpr std::int64_t kKeyValueHeads = 8, kHeadDim = 128, kIntermediate = 8192, kIntermediateMlp = 16384, kExperts = 16;
constexpr std::int64_t kExpertsPerToken = 1, kChunk = 8192, kNoRopeInterval = 4;
}  // namespace llama4_defaults

void check_llama4_moe_layers(const Fields& f, const ModelSpec& m) {
    const json* listed = f.value("moe_layers");
    if (!listed) return;
    json expected = json::array();
    for (std::int64_t i = m.moe_layer_step - 1; i < m.layers; i += m.moe_layer_step) expected.push_back(i);
    if (*listed != expected)
        f.fail("moe_layers " + listed->dump() +
               " is not supported: the planner takes a mixture every interleave_moe_layer_step-th layer (" + expected.dump() + ")");
}

ModelSpec from_llama4(const Fields& f) {
    namespace defaults = llama4_defaults;
    ModelSpec m = llama_style(f.integer("num_hidden_layers"), f.integer("hidden_size"), f.integer("num_attention_heads"),
                              f.integer_or("num_key_value_heads", defaults::kKeyValueHeads),
                              f.integer_or("intermediate_size_mlp", defaults::kIntermediateMlp), f.integer("vocab_size"),
                              f.boolean_or("tie_word_embeddings", false));
    m.family = "llama4";
    m.head_dim = f.integer_or("head_dim", defaults::kHeadDim);
    m.qkv_bias = m.out_bias = f.boolean_or("attention_bias", false);
    m.experts = f.integer_or("num_local_experts", defaults::kExperts);
    if (m.experts < 2)
        f.fail("num_local_experts 1 is not supported: a Llama-4 mixture with one expert still has a router; give 2 or more experts");
    m.experts_per_token = f.integer_or("num_experts_per_tok", defaults::kExpertsPerToken);
    m.moe_ffn = f.integer_or("intermediate_size", defaults::kIntermediate);
    m.shared_experts = 1;
    m.moe_layer_step = f.integer_or("interleave_moe_layer_step", 1);
    check_llama4_moe_layers(f, m);
    if (f.is_null("attention_chunk_size")) return m;
    m.attention_window = f.integer_or("attention_chunk_size", defaults::kChunk);
    m.chunked_attention = true;
    const json* no_rope = f.value("no_rope_layers");  // [] (some configs): derived from the interval, as Llama4TextConfig does
    m.global_layer_every = no_rope && !no_rope->empty() ? global_every_from_list(
                                                              f, "no_rope_layers", m.layers, [](const json& k) { return k == 1; },
                                                              [](const json& k) { return k == 0; })
                                                        : f.integer_or("no_rope_layer_interval", defaults::kNoRopeInterval);
    return m;
}

using Importer = std::function<ModelSpec(const Fields&)>;

const std::map<std::string, Importer>& importers() {
    static const std::map<std::string, Importer> table = {
        {"llama", [](const Fields& f) { return llama_kin(f, "llama", false, false); }},
        {"mistral", [](const Fields& f) { return llama_kin(f, "mistral", false, false); }},
        {"mixtral", from_mixtral},
        {"qwen2", [](const Fields& f) { return llama_kin(f, "qwen2", false, true); }},
        {"qwen3", from_qwen3},
        {"qwen3_moe", from_qwen3_moe},
        {"gemma", [](const Fields& f) { return from_gemma(f, "gemma"); }},
        {"gemma2", [](const Fields& f) { return from_gemma(f, "gemma2"); }},
        {"gpt2", from_gpt2},
        {"gpt_neox", from_gpt_neox},
        {"falcon", from_falcon},
        {"RefinedWeb", from_falcon},
        {"RefinedWebModel", from_falcon},
        {"phi", from_phi},
        {"phi3", from_phi3},
        {"deepseek_v2", [](const Fields& f) { return from_deepseek(f, "deepseek_v2", kDeepseekV2Defaults); }},
        {"deepseek_v3", from_deepseek_v3},
        {"gemma3_text", from_gemma3_text},
        {"gemma3", [](const Fields& f) { return from_gemma3_text(f.nested("text_config")); }},
        {"gpt_oss", from_gpt_oss},
        {"llama4", [](const Fields& f) { return from_llama4(f.nested("text_config")); }},
        {"llama4_text", from_llama4},
        {"olmo2", from_olmo2},
    };
    return table;
}

}  // namespace

std::string supported_hf_model_types() {
    std::string s;
    for (const auto& [type, importer] : importers()) s += (s.empty() ? "" : ", ") + type;
    return s;
}

ModelSpec import_hf_config(std::string_view json_text, const std::string& source_name) {
    const json j = parse_json_text(json_text, source_name);
    if (!j.is_object()) throw InputError(source_name + ": a config.json must be a JSON object, got " + std::string(j.type_name()));
    if (!j.contains("model_type") || !j.at("model_type").is_string())
        throw InputError(source_name + ": field 'model_type' is missing or not a string; supported: " + supported_hf_model_types());
    const std::string type = j.at("model_type").get<std::string>();
    const auto it = importers().find(type);
    if (it == importers().end())
        throw InputError(source_name + ": model_type '" + type + "' is not supported; supported: " + supported_hf_model_types());
    ModelSpec m = it->second(Fields(j, source_name, type));
    m.name = "hf:" + type;
    // The MLP output's dropout (ModelSpec::residual_dropout), under its family's name: resid_pdrop
    // (GPT-2, Phi, Phi-3), hidden_dropout (GPT-NeoX, Falcon); without the key, the config class's
    // default: GPT2Config's resid_pdrop 0.1, 0 elsewhere. The other supported types have none.
    const char* dropout_key = type == "gpt2" || type == "phi" || type == "phi3" ? "resid_pdrop"
                              : type == "gpt_neox" || type == "falcon" || type == "RefinedWeb" || type == "RefinedWebModel"
                                  ? "hidden_dropout"
                                  : nullptr;
    m.residual_dropout = type == "gpt2";
    if (dropout_key && j.contains(dropout_key) && j.at(dropout_key).is_number()) m.residual_dropout = j.at(dropout_key).get<double>() > 0;
    try {
        validate(m);
    } catch (const InputError& e) {
        throw InputError(source_name + ": " + e.what());
    }
    return m;
}

}  // namespace zp
