#pragma once
// A transformer architecture, detailed enough to count its parameters exactly (the sum of
// numel over model.parameters(), shared tensors once) and to estimate its activations.
#include <cstdint>
#include <string>

namespace zp {

enum class NormKind { LayerNorm, RmsNorm };  // LayerNorm has a bias (2h), RMSNorm only a weight (h)

struct ModelSpec {
    std::string name;           // preset name or a description ("custom", "hf:llama")
    std::string family;         // gpt2, llama, mixtral, t5, bloom, falcon, phi, gemma, ...
    std::int64_t layers = 0;    // transformer blocks (encoder + decoder for T5)
    std::int64_t hidden = 0;    // h
    std::int64_t heads = 0;     // a
    std::int64_t kv_heads = 0;  // grouped-query attention; == heads for multi-head
    std::int64_t head_dim = 0;  // usually hidden / heads (Gemma: 256)
    std::int64_t ffn = 0;       // MLP inner width
    bool gated_mlp = false;     // SwiGLU/GeGLU: gate and up projections, then down
    std::int64_t vocab = 0;
    bool tied_embeddings = false;
    std::int64_t positions = 0;          // learned position embeddings (GPT-2: n_positions); 0 for RoPE/ALiBi
    std::int64_t experts = 1;            // MoE experts per layer (Mixtral: 8)
    std::int64_t experts_per_token = 1;  // routed experts per token (Mixtral: 2)
    NormKind norm = NormKind::RmsNorm;
    bool qkv_bias = false;                        // bias on q, k, v projections
    bool out_bias = false;                        // bias on the attention output projection
    bool mlp_bias = false;                        // bias on MLP projections
    bool lm_head_bias = false;                    // phi-2
    bool fused_qkv = false;                       // one q/k/v module (GPT-2 c_attn, NeoX, Falcon): matters for the largest layer
    bool fused_gate_up = false;                   // one gate+up module (Phi-3)
    int norms_per_layer = 2;                      // falcon-7b and phi share one norm for attention and MLP
    bool embedding_norm = false;                  // BLOOM's word_embeddings_layernorm
    bool encoder_decoder = false;                 // T5: layers/2 encoder + layers/2 decoder blocks with cross-attention
    std::int64_t relative_attention_buckets = 0;  // T5 relative position bias (first block of each stack)

    // Set when only a size was given: the architecture was synthesized for activations and the
    // exact parameter count is params_override (used everywhere instead of the architecture's).
    bool synthesized = false;
    std::int64_t params_override = 0;
    std::int64_t largest_layer_override = 0;

    friend bool operator==(const ModelSpec&, const ModelSpec&) = default;
};

// Exact parameter count (params_override when set).
std::int64_t parameter_count(const ModelSpec& m);
// DeepSpeed's "largest layer": the module with the most parameters of its own
// (deepspeed/runtime/zero/stage3.py model_to_params, recurse=False).
std::int64_t largest_layer_params(const ModelSpec& m);

// A plausible dense decoder of about `params` parameters: hidden = 128 x layers, the aspect
// ratio of GPT-3 175B (12288/96) and Llama-2 7B/13B (4096/32, 5120/40); 4h ungated MLP,
// vocabulary 51200. The exact count stays `params`.
ModelSpec synthesize_model(std::int64_t params);

// Throws InputError naming the first field that makes no sense (zero layers, heads not dividing, ...).
void validate(const ModelSpec& m);

}  // namespace zp
