#pragma once
// A transformer architecture, detailed enough to count its parameters exactly (the sum of
// numel over model.parameters(), shared tensors once) and to estimate its activations.
#include <cstdint>
#include <string>

namespace zp {

enum class NormKind { LayerNorm, RmsNorm };  // LayerNorm has a bias (2h), RMSNorm only a weight (h)

// How the MLP's activation runs (core/time/compute_time.h kGeluNew*, core/memory/activations.cpp):
//   Fused    one element-wise kernel that keeps its input for backward (F.gelu, F.silu,
//            GELUTanh via F.gelu(approximate="tanh"), Megatron's bias_gelu).
//   GeluNew  transformers' gelu_new (activations.py NewGELUActivation, the GPT-2 configs'
//            activation_function, Phi-1/2's hidden_act): the tanh approximation written as eight
//            tensor ops, 0.5 * x * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 *
//            torch.pow(x, 3.0)))), each a kernel reading and writing the ffn-wide tensor, three of
//            whose results autograd keeps (tanh's output, 1 + tanh and 0.5 * x).
enum class MlpActivation { Fused, GeluNew };

struct ModelSpec {
    std::string name;                                 // preset name or a description ("custom", "hf:llama")
    std::string family;                               // gpt2, llama, mixtral, t5, bloom, falcon, phi, gemma, ...
    std::int64_t layers = 0;                          // transformer blocks (encoder + decoder for T5)
    std::int64_t hidden = 0;                          // h
    std::int64_t heads = 0;                           // a
    std::int64_t kv_heads = 0;                        // grouped-query attention; == heads for multi-head
    std::int64_t head_dim = 0;                        // usually hidden / heads (Gemma: 256)
    std::int64_t ffn = 0;                             // MLP inner width
    bool gated_mlp = false;                           // SwiGLU/GeGLU: gate and up projections, then down
    MlpActivation activation = MlpActivation::Fused;  // above
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

    // DeepSeek-V2 Multi-head Latent Attention (transformers models/deepseek_v2/modeling_deepseek_v2.py,
    // DeepseekV2Attention; DeepSeek's own modeling_deepseek.py builds the same modules). On when
    // kv_lora_rank > 0; the attention then has these modules instead of q/k/v/o_proj (heads,
    // kv_heads and head_dim only describe activations: the presets set head_dim to the q/k head
    // dimension qk_nope_head_dim + qk_rope_head_dim). Read only with kv_lora_rank > 0.
    //   q_lora_rank == 0: q_proj h -> heads*(qk_nope_head_dim + qk_rope_head_dim)
    //   q_lora_rank  > 0: q_a_proj h -> q_lora_rank, q_a_layernorm (q_lora_rank),
    //                     q_b_proj q_lora_rank -> heads*(qk_nope_head_dim + qk_rope_head_dim)
    //   kv_a_proj_with_mqa h -> kv_lora_rank + qk_rope_head_dim, kv_a_layernorm (kv_lora_rank),
    //   kv_b_proj kv_lora_rank -> heads*(qk_nope_head_dim + v_head_dim), o_proj heads*v_head_dim -> h.
    // Biases (attention_bias): q_a_proj and kv_a_proj_with_mqa take qkv_bias, o_proj out_bias;
    // q_proj, q_b_proj and kv_b_proj never have one.
    std::int64_t q_lora_rank = 0;
    std::int64_t kv_lora_rank = 0;
    std::int64_t qk_nope_head_dim = 0, qk_rope_head_dim = 0, v_head_dim = 0;

    // Mixture-of-experts layout beyond Mixtral's (DeepSeek-V2: DeepseekV2MoE in the same file).
    // Read only when experts > 1.
    //   moe_ffn: the width of each routed expert and of the shared experts (moe_intermediate_size)
    //            when it differs from ffn; 0 = ffn.
    //   shared_experts: n_shared_experts, always-on experts; transformers builds them as ONE
    //            gated MLP of width shared_experts x expert width (DeepseekV2MLP, mlp.shared_experts).
    //   first_dense_layers: first_k_dense_replace; the first layers have a dense MLP of width ffn
    //            (no router, no experts) instead of the mixture.
    std::int64_t moe_ffn = 0;
    std::int64_t shared_experts = 0;
    std::int64_t first_dense_layers = 0;

    // OLMo-2 QK-norm (transformers models/olmo2/modeling_olmo2.py, Olmo2Attention): q_norm over the
    // full query width heads*head_dim and k_norm over kv_heads*head_dim, applied before the heads
    // are split (norm kind of the model: RMSNorm, a weight each). Standard attention only (MLA has
    // its own kv_a_layernorm). OLMo-2's post-norms are norms_per_layer = 2 (post_attention_layernorm,
    // post_feedforward_layernorm; no input_layernorm).
    bool qk_norm = false;
    // Qwen3 QK-norm (transformers models/qwen3/modeling_qwen3.py, Qwen3Attention): q_norm =
    // Qwen3RMSNorm(head_dim) and k_norm = Qwen3RMSNorm(head_dim), applied to each head after the
    // heads are split, so q_norm and k_norm have head_dim weights each (shared by every head)
    // instead of OLMo-2's heads*head_dim and kv_heads*head_dim. Read only when qk_norm is true.
    bool qk_norm_per_head = false;
    // A dropout with p > 0 on the MLP's output before the residual add, in training: GPT-2's and
    // Phi-2's resid_pdrop 0.1 (models/gpt2/modeling_gpt2.py GPT2MLP: c_proj then dropout), T5's
    // dropout_rate 0.1 (T5LayerFF: hidden_states + dropout(DenseReluDense(...))), OPT's dropout 0.1.
    // native_dropout saves its mask, made after the down projection, so a non-reentrant recompute
    // re-runs that projection (scenario.h saves_after_down_projection). Llama, Mistral, Qwen, Gemma
    // and the models built from dimensions have none.
    bool residual_dropout = false;

    // gpt-oss (transformers models/gpt_oss/modeling_gpt_oss.py). attention_sinks: GptOssAttention's
    // `sinks`, nn.Parameter(num_attention_heads), one learnable logit per head and layer that joins
    // the softmax and is dropped after it. router_bias: GptOssTopKRouter's `bias`,
    // nn.Parameter(num_local_experts), one per expert in every mixture layer (Mixtral's, Qwen3
    // MoE's, DeepSeek's and Llama-4's routers have none; DeepSeek-V3's e_score_correction_bias is
    // a registered buffer in transformers, not a parameter).
    bool attention_sinks = false;
    bool router_bias = false;
    // Llama-4 (models/llama4/configuration_llama4.py, Llama4TextConfig): interleave_moe_layer_step.
    // After the first_dense_layers, layer i is a mixture when (i + 1) % moe_layer_step == 0
    // (moe_layers = range(step - 1, layers, step)); the others have a dense MLP of width ffn
    // (Llama-4's intermediate_size_mlp). 1: every layer past the dense ones is a mixture.
    std::int64_t moe_layer_step = 1;
    // Local attention layers (their causal attention's share of query-key pairs:
    // attention_pair_share; the step time reads it under flash attention): attention_window
    // tokens (Gemma-3's sliding_window 512 / 1024, gpt-oss's 128, Llama-4's attention_chunk_size
    // 8192); 0 = every layer attends globally. global_layer_every N: layer i is global when
    // (i + 1) % N == 0, every other layer local (Gemma-3 6: five local a global; gpt-oss 2;
    // Llama-4 4, its NoPE layers); 0 = every layer local. chunked_attention: the local layers
    // attend within fixed chunks of attention_window tokens (Llama-4's chunked_attention), not a
    // window sliding with the token.
    std::int64_t attention_window = 0;
    std::int64_t global_layer_every = 0;
    bool chunked_attention = false;

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
// (deepspeed/runtime/zero/stage3.py model_to_params, recurse=False). MoE experts are separate
// modules (transformers v4's nn.ModuleList of per-expert MLPs).
std::int64_t largest_layer_params(const ModelSpec& m);

// The mixture's shape, for code that sizes MLPs (activations, FLOPs, Linear modules):
bool uses_mla(const ModelSpec& m);  // kv_lora_rank > 0
// A query head's width: head_dim when the model sets it (Gemma: 256), else hidden / heads.
inline std::int64_t head_width(const ModelSpec& m) { return m.head_dim > 0 ? m.head_dim : m.hidden / (m.heads > 0 ? m.heads : 1); }
std::int64_t expert_ffn(const ModelSpec& m);  // a routed expert's width: moe_ffn, or ffn when 0
std::int64_t moe_layers(
    const ModelSpec& m);  // layers with a mixture (experts > 1): every moe_layer_step-th past first_dense_layers, else 0
bool is_moe_layer(const ModelSpec& m, std::int64_t layer);  // layer (0-based) has a mixture
std::int64_t mlp_params_per_expert(const ModelSpec& m);     // one routed expert's MLP, biases included
// The MLP width a token passes through, averaged over the layers: ffn for a dense model; in a
// mixture layer experts_per_token routed experts plus the shared ones, each expert_ffn wide
// (DeepSeek's first_dense_layers use ffn). What activations and MLP FLOPs scale with.
double mlp_width_per_token(const ModelSpec& m);
// The query-key pairs a causal self-attention computes, averaged over the layers, as a share of a
// global layer's s(s+1)/2 at sequence `seq_len`: 1 for a model whose layers all attend globally.
// A sliding window of w keeps each token's last w keys (s w - w(w-1)/2 pairs; transformers'
// sliding_window, FlashAttention-2's window_size); a chunk of c attends causally within itself
// (s(c+1)/2 pairs; Llama-4's attention_chunk_size). Kernels that skip the masked blocks only.
double attention_pair_share(const ModelSpec& m, double seq_len);
// The same with `routed_per_token` routed-expert rows a token costs instead of experts_per_token
// (DeepSpeed's capacity-padded dispatch under expert parallelism, core/model/experts.h).
double mlp_width_per_token(const ModelSpec& m, double routed_per_token);

// A plausible dense decoder of about `params` parameters: hidden = 128 x layers, the aspect
// ratio of GPT-3 175B (12288/96) and Llama-2 7B/13B (4096/32, 5120/40); 4h ungated MLP,
// vocabulary 51200. The exact count stays `params`.
ModelSpec synthesize_model(std::int64_t params);

// Throws InputError naming the first field that makes no sense (zero layers, heads not dividing, ...).
void validate(const ModelSpec& m);

}  // namespace zp
