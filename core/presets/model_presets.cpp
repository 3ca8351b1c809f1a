#include "core/presets/model_presets.h"

#include "core/presets/preset_table.h"

#include <array>

namespace zp {

namespace {

// The dimensions every decoder-only preset states; each family below adds its own choices.
ModelSpec decoder(const char* family, std::int64_t layers, std::int64_t hidden, std::int64_t heads, std::int64_t kv_heads, std::int64_t ffn,
                  std::int64_t vocab) {
    ModelSpec m;
    m.family = family;
    m.layers = layers;
    m.hidden = hidden;
    m.heads = heads;
    m.kv_heads = kv_heads;
    m.head_dim = hidden / heads;
    m.ffn = ffn;
    m.vocab = vocab;
    return m;
}

}  // namespace

// GPT-2 family (GPT-2 paper; HF gpt2 config.json): learned positions, LayerNorm with bias,
// fused Conv1D c_attn with bias, 4h GELU MLP with bias, tied LM head.
ModelSpec gpt2_style(std::int64_t layers, std::int64_t hidden, std::int64_t heads, std::int64_t vocab, std::int64_t positions) {
    ModelSpec m = decoder("gpt2", layers, hidden, heads, heads, 4 * hidden, vocab);
    m.positions = positions;
    m.tied_embeddings = true;
    m.norm = NormKind::LayerNorm;
    m.qkv_bias = m.out_bias = m.mlp_bias = true;
    m.fused_qkv = true;
    return m;
}

// Llama family (HF LlamaForCausalLM): RMSNorm, RoPE, SwiGLU, no biases.
ModelSpec llama_style(std::int64_t layers, std::int64_t hidden, std::int64_t heads, std::int64_t kv_heads, std::int64_t ffn,
                      std::int64_t vocab, bool tied) {
    ModelSpec m = decoder("llama", layers, hidden, heads, kv_heads, ffn, vocab);
    m.gated_mlp = true;
    m.tied_embeddings = tied;
    m.norm = NormKind::RmsNorm;
    return m;
}

namespace {

ModelPreset named(std::string name, std::string display, ModelSpec spec) {
    spec.name = name;
    return ModelPreset{std::move(name), std::move(display), std::move(spec)};
}

// Gemma-3's language model (google/gemma-3-1b-pt config.json, model_type gemma3_text; for 4b, 12b
// and 27b the text_config of google/gemma-3-{4b,12b,27b}-pt, model_type gemma3, whose absent keys
// take Gemma3TextConfig's defaults: num_attention_heads 8, num_key_value_heads 4, head_dim 256,
// vocab_size 262208; transformers models/gemma3/configuration_gemma3.py). Gemma3DecoderLayer
// (models/gemma3/modeling_gemma3.py): Gemma-2's four RMSNorms a layer and GeGLU MLP, no biases,
// q_norm and k_norm Gemma3RMSNorm(head_dim) per head, the embedding tied to the LM head.
// Local attention: sliding_window tokens on five layers of six (sliding_window_pattern 6: layer i
// global when (i + 1) % 6 == 0); the 1B's window is 512, the others' 1024. The SigLIP vision tower
// of 4b, 12b and 27b (416,866,032 parameters) and their multi_modal_projector (1152 x hidden and
// a norm of 1152) are not counted: the preset is the language model a text fine-tune trains.
ModelSpec gemma3(std::int64_t layers, std::int64_t hidden, std::int64_t heads, std::int64_t kv_heads, std::int64_t head_dim,
                 std::int64_t ffn, std::int64_t vocab, std::int64_t window) {
    ModelSpec m = llama_style(layers, hidden, heads, kv_heads, ffn, vocab, true);
    m.family = "gemma3_text";
    m.head_dim = head_dim;
    m.norms_per_layer = 4;
    m.qk_norm = true;
    m.qk_norm_per_head = true;
    m.attention_window = window;
    m.global_layer_every = 6;
    return m;
}

// gpt-oss (openai/gpt-oss-20b and gpt-oss-120b config.json, model_type gpt_oss; transformers
// models/gpt_oss/modeling_gpt_oss.py): hidden 2880, 64 heads of head_dim 64, 8 KV heads, q/k/v/o
// with bias (attention_bias true) and one sink logit per head (GptOssAttention.sinks); in every
// layer a GptOssMLP: the router GptOssTopKRouter (weight E x h and a bias of E) and E experts
// (GptOssExperts: gate_up_proj h x 2f with a bias of 2f, down_proj f x h with a bias of h,
// f = intermediate_size 2880), num_experts_per_tok 4; two RMSNorms a layer; vocabulary 201088,
// untied. Layers alternate sliding (window 128) and full attention (layer_types). The checkpoint
// stores the experts in MXFP4 (quantization_config); the count is the same tensors' elements.
ModelSpec gpt_oss(std::int64_t layers, std::int64_t experts) {
    ModelSpec m = llama_style(layers, 2880, 64, 8, 2880, 201088, false);
    m.family = "gpt_oss";
    m.head_dim = 64;
    m.qkv_bias = m.out_bias = true;
    m.mlp_bias = true;
    m.attention_sinks = true;
    m.experts = experts;
    m.experts_per_token = 4;
    m.router_bias = true;
    m.attention_window = 128;
    m.global_layer_every = 2;
    return m;
}

// Llama-4's language model (meta-llama/Llama-4-Scout-17B-16E and Llama-4-Maverick-17B-128E
// config.json text_config, model_type llama4; transformers models/llama4/modeling_llama4.py): 48
// layers of 5120, 40 heads of head_dim 128, 8 KV heads, no biases, vocabulary 202048, untied. A
// mixture layer (Llama4TextMoe) has the router (nn.Linear h -> E, no bias), E experts
// (Llama4TextExperts: gate_up_proj h x 2f, down_proj f x h, f = intermediate_size 8192) with one
// routed a token, and a shared_expert (Llama4TextMLP of width intermediate_size); the other
// layers a dense Llama4TextMLP of intermediate_size_mlp 16384. Scout: 16 experts in every layer
// (interleave_moe_layer_step 1); Maverick: 128 experts in every second layer (step 2: layers 1,
// 3, ..., 47). Attention is chunked (attention_chunk_size 8192) on three layers of four; every
// fourth is global and has no RoPE (no_rope_layers). Its QK-norm (Llama4TextL2Norm, on the RoPE
// layers, Scout only: use_qk_norm) has no weight. The vision tower and projector are not counted
// (871,932,416 parameters for Scout: tests/core/tst_model_spec.cpp).
ModelSpec llama4(std::int64_t experts, std::int64_t moe_layer_step) {
    ModelSpec m = llama_style(48, 5120, 40, 8, 16384, 202048, false);
    m.family = "llama4";
    m.head_dim = 128;
    m.experts = experts;
    m.experts_per_token = 1;
    m.moe_ffn = 8192;
    m.shared_experts = 1;
    m.moe_layer_step = moe_layer_step;
    m.attention_window = 8192;
    m.global_layer_every = 4;
    m.chunked_attention = true;
    return m;
}

// DeepSeek-V3 (deepseek-ai/DeepSeek-V3 config.json, model_type deepseek_v3; transformers
// models/deepseek_v3/modeling_deepseek_v3.py; DeepSeek-R1 has the same config and shapes): 61
// layers of 7168, vocabulary 129280, untied; MLA with 128 heads, q_lora_rank 1536, kv_lora_rank
// 512, qk_nope_head_dim 128, qk_rope_head_dim 64, v_head_dim 128 (head_dim here is the q/k head,
// 192); the first 3 layers (first_k_dense_replace) have a dense MLP of 18432, the other 58 256
// routed experts of moe_intermediate_size 2048, 8 a token, and one shared expert; the router's
// weight is 256 x 7168. Not counted: the router's e_score_correction_bias (a registered buffer in
// DeepseekV3TopkRouter, 256 a mixture layer) and the multi-token-prediction module (layer 61 of
// the checkpoint, num_nextn_predict_layers 1), which DeepseekV3ForCausalLM does not load.
ModelSpec deepseek_v3() {
    ModelSpec m = llama_style(61, 7168, 128, 128, 18432, 129280, false);
    m.family = "deepseek_v3";
    m.head_dim = 128 + 64;
    m.q_lora_rank = 1536;
    m.kv_lora_rank = 512;
    m.qk_nope_head_dim = 128;
    m.qk_rope_head_dim = 64;
    m.v_head_dim = 128;
    m.experts = 256;
    m.experts_per_token = 8;
    m.moe_ffn = 2048;
    m.shared_experts = 1;
    m.first_dense_layers = 3;
    return m;
}

// OpenAI's GPT-2 checkpoints as transformers runs them (openai-community/gpt2* config.json:
// activation_function "gelu_new", n_positions 1024, vocab 50257, resid_pdrop 0.1).
ModelSpec hf_gpt2(std::int64_t layers, std::int64_t hidden, std::int64_t heads) {
    ModelSpec m = gpt2_style(layers, hidden, heads, 50257, 1024);
    m.activation = MlpActivation::GeluNew;
    m.residual_dropout = true;
    return m;
}

std::vector<ModelPreset> build_presets() {
    std::vector<ModelPreset> p;
    // Dimensions from each model's published config.json; the counts they give are in tests.
    p.push_back(named("gpt2", "GPT-2 124M", hf_gpt2(12, 768, 12)));
    p.push_back(named("gpt2-xl", "GPT-2 XL 1.5B", hf_gpt2(48, 1600, 25)));
    // GPT-3 175B: Brown et al. 2020 Table 2.1 (96 layers, d_model 12288, 96 heads, n_ctx 2048), GPT-2 architecture.
    p.push_back(named("gpt3-175b", "GPT-3 175B", gpt2_style(96, 12288, 96, 50257, 2048)));
    p.push_back(named("llama-2-7b", "Llama-2 7B", llama_style(32, 4096, 32, 32, 11008, 32000, false)));
    p.push_back(named("llama-2-13b", "Llama-2 13B", llama_style(40, 5120, 40, 40, 13824, 32000, false)));
    p.push_back(named("llama-2-70b", "Llama-2 70B", llama_style(80, 8192, 64, 8, 28672, 32000, false)));
    p.push_back(named("llama-3-8b", "Llama-3 8B", llama_style(32, 4096, 32, 8, 14336, 128256, false)));
    p.push_back(named("llama-3-70b", "Llama-3 70B", llama_style(80, 8192, 64, 8, 28672, 128256, false)));
    // Llama-3.1 (meta-llama/Llama-3.1-{8B,70B,405B} config.json): the Llama-3 shapes with rope_scaling
    // "llama3", which changes no tensor; 405B: 126 layers of 16384, 128 heads, 8 KV heads, MLP 53248.
    p.push_back(named("llama-3.1-8b", "Llama-3.1 8B", llama_style(32, 4096, 32, 8, 14336, 128256, false)));
    p.push_back(named("llama-3.1-70b", "Llama-3.1 70B", llama_style(80, 8192, 64, 8, 28672, 128256, false)));
    p.push_back(named("llama-3.1-405b", "Llama-3.1 405B", llama_style(126, 16384, 128, 8, 53248, 128256, false)));
    // Llama-3.2 (meta-llama/Llama-3.2-{1B,3B} config.json): tie_word_embeddings true; head_dim 64
    // (1B: 2048 / 32) and 128 (3B: 3072 / 24), both as the config states them.
    p.push_back(named("llama-3.2-1b", "Llama-3.2 1B", llama_style(16, 2048, 32, 8, 8192, 128256, true)));
    p.push_back(named("llama-3.2-3b", "Llama-3.2 3B", llama_style(28, 3072, 24, 8, 8192, 128256, true)));
    {
        ModelSpec m = llama_style(32, 4096, 32, 8, 14336, 32000, false);
        m.family = "mistral";
        p.push_back(named("mistral-7b", "Mistral 7B", m));
    }
    {
        // Mistral-Nemo (mistralai/Mistral-Nemo-Base-2407 config.json): hidden 5120 but 32 heads of
        // head_dim 128 (q is 4096 wide, not 5120), 8 KV heads, MLP 14336, vocabulary 131072, untied.
        ModelSpec m = llama_style(40, 5120, 32, 8, 14336, 131072, false);
        m.family = "mistral";
        m.head_dim = 128;
        p.push_back(named("mistral-nemo-12b", "Mistral-Nemo 12B", m));
    }
    {
        ModelSpec m = llama_style(32, 4096, 32, 8, 14336, 32000, false);
        m.family = "mixtral";
        m.experts = 8;
        m.experts_per_token = 2;
        p.push_back(named("mixtral-8x7b", "Mixtral 8x7B", m));
    }
    {
        // Mixtral 8x22B (mistral-community/Mixtral-8x22B-v0.1 config.json, as mistralai's base
        // v0.1): 56 layers of 6144, 48 heads, 8 KV heads, 8 experts of 16384, 2 per token,
        // vocabulary 32000 (the Instruct and v0.3 checkpoints have 32768).
        ModelSpec m = llama_style(56, 6144, 48, 8, 16384, 32000, false);
        m.family = "mixtral";
        m.experts = 8;
        m.experts_per_token = 2;
        p.push_back(named("mixtral-8x22b", "Mixtral 8x22B", m));
    }
    {
        ModelSpec m = llama_style(24, 896, 14, 2, 4864, 151936, true);
        m.family = "qwen2";
        m.qkv_bias = true;
        p.push_back(named("qwen2-0.5b", "Qwen2 0.5B", m));
    }
    {
        ModelSpec m = llama_style(28, 3584, 28, 4, 18944, 152064, false);
        m.family = "qwen2";
        m.qkv_bias = true;
        p.push_back(named("qwen2-7b", "Qwen2 7B", m));
    }
    // Qwen2.5 (Qwen/Qwen2.5-*B config.json; model_type qwen2): bias on q/k/v only; 0.5B, 1.5B and 3B
    // tie the LM head to the embedding (vocabulary 151936), 7B and up do not (152064).
    struct QwenShape {
        const char* name;
        const char* display;
        std::int64_t layers, hidden, heads, kv_heads, ffn, vocab;
        bool tied;
    };
    for (const QwenShape& q : {QwenShape{"qwen2.5-0.5b", "Qwen2.5 0.5B", 24, 896, 14, 2, 4864, 151936, true},
                               QwenShape{"qwen2.5-1.5b", "Qwen2.5 1.5B", 28, 1536, 12, 2, 8960, 151936, true},
                               QwenShape{"qwen2.5-3b", "Qwen2.5 3B", 36, 2048, 16, 2, 11008, 151936, true},
                               QwenShape{"qwen2.5-7b", "Qwen2.5 7B", 28, 3584, 28, 4, 18944, 152064, false},
                               QwenShape{"qwen2.5-14b", "Qwen2.5 14B", 48, 5120, 40, 8, 13824, 152064, false},
                               QwenShape{"qwen2.5-32b", "Qwen2.5 32B", 64, 5120, 40, 8, 27648, 152064, false},
                               QwenShape{"qwen2.5-72b", "Qwen2.5 72B", 80, 8192, 64, 8, 29568, 152064, false}}) {
        ModelSpec m = llama_style(q.layers, q.hidden, q.heads, q.kv_heads, q.ffn, q.vocab, q.tied);
        m.family = "qwen2";
        m.qkv_bias = true;
        p.push_back(named(q.name, q.display, m));
    }
    // Qwen3 dense (Qwen/Qwen3-{0.6B,1.7B,4B,8B,14B,32B} config.json; model_type qwen3, models/qwen3):
    // num_hidden_layers, hidden_size, num_attention_heads, num_key_value_heads 8, head_dim 128 (not
    // hidden_size / num_attention_heads: 0.6B's q is 2048 wide on a hidden 1024), intermediate_size,
    // vocab_size 151936; attention_bias false (no biases at all); q_norm and k_norm of head_dim
    // weights each (Qwen3Attention). tie_word_embeddings true for 0.6B, 1.7B and 4B, false from 8B.
    struct Qwen3Shape {
        const char* name;
        const char* display;
        std::int64_t layers, hidden, heads, ffn;
        bool tied;
    };
    const Qwen3Shape qwen3_shapes[] = {
        {"qwen3-0.6b", "Qwen3 0.6B", 28, 1024, 16, 3072, true}, {"qwen3-1.7b", "Qwen3 1.7B", 28, 2048, 16, 6144, true},
        {"qwen3-4b", "Qwen3 4B", 36, 2560, 32, 9728, true},     {"qwen3-8b", "Qwen3 8B", 36, 4096, 32, 12288, false},
        {"qwen3-14b", "Qwen3 14B", 40, 5120, 40, 17408, false}, {"qwen3-32b", "Qwen3 32B", 64, 5120, 64, 25600, false},
    };
    for (const Qwen3Shape& q : qwen3_shapes) {
        ModelSpec m = llama_style(q.layers, q.hidden, q.heads, 8, q.ffn, 151936, q.tied);
        m.family = "qwen3";
        m.head_dim = 128;
        m.qk_norm = true;
        m.qk_norm_per_head = true;
        p.push_back(named(q.name, q.display, m));
    }
    // Qwen3 MoE (Qwen/Qwen3-30B-A3B and Qwen/Qwen3-235B-A22B config.json; model_type qwen3_moe,
    // models/qwen3_moe): Qwen3's attention (num_key_value_heads 4, head_dim 128, per-head q_norm and
    // k_norm, no biases) and in every layer (decoder_sparse_step 1, mlp_only_layers []) a
    // Qwen3MoeSparseMoeBlock: the router gate h x num_experts without bias and num_experts 128
    // experts, each a gated MLP of moe_intermediate_size without bias, num_experts_per_tok 8 a token;
    // no shared experts. vocab_size 151936, untied. ffn is intermediate_size as the config states it
    // (30B-A3B 6144, 235B-A22B 12288): the width of Qwen3MoeMLP in mlp_only_layers, of which these
    // models have none.
    struct Qwen3MoeShape {
        const char* name;
        const char* display;
        std::int64_t layers, hidden, heads, ffn, moe_ffn;
    };
    const Qwen3MoeShape qwen3_moe_shapes[] = {
        {"qwen3-30b-a3b", "Qwen3 30B-A3B", 48, 2048, 32, 6144, 768},
        {"qwen3-235b-a22b", "Qwen3 235B-A22B", 94, 4096, 64, 12288, 1536},
    };
    for (const Qwen3MoeShape& q : qwen3_moe_shapes) {
        ModelSpec m = llama_style(q.layers, q.hidden, q.heads, 4, q.ffn, 151936, false);
        m.family = "qwen3_moe";
        m.head_dim = 128;
        m.qk_norm = true;
        m.qk_norm_per_head = true;
        m.experts = 128;
        m.experts_per_token = 8;
        m.moe_ffn = q.moe_ffn;
        p.push_back(named(q.name, q.display, m));
    }
    // Gemma-2 (google/gemma-2-{2b,9b,27b} config.json; models/gemma2): GeGLU MLP, four RMSNorms
    // per layer (input, post-attention, pre- and post-feed-forward), tied embedding, vocabulary
    // 256000; head_dim 256 for 2b and 9b, 128 for 27b (4608 / 32 would be 144).
    struct GemmaShape {
        const char* name;
        const char* display;
        std::int64_t layers, hidden, heads, kv_heads, head_dim, ffn;
    };
    for (const GemmaShape& g : {GemmaShape{"gemma-2-2b", "Gemma-2 2B", 26, 2304, 8, 4, 256, 9216},
                                GemmaShape{"gemma-2-9b", "Gemma-2 9B", 42, 3584, 16, 8, 256, 14336},
                                GemmaShape{"gemma-2-27b", "Gemma-2 27B", 46, 4608, 32, 16, 128, 36864}}) {
        ModelSpec m = llama_style(g.layers, g.hidden, g.heads, g.kv_heads, g.ffn, 256000, true);
        m.family = "gemma2";
        m.head_dim = g.head_dim;
        m.norms_per_layer = 4;
        p.push_back(named(g.name, g.display, m));
    }
    p.push_back(named("gemma-3-1b", "Gemma-3 1B", gemma3(26, 1152, 4, 1, 256, 6912, 262144, 512)));
    p.push_back(named("gemma-3-4b", "Gemma-3 4B", gemma3(34, 2560, 8, 4, 256, 10240, 262208, 1024)));
    p.push_back(named("gemma-3-12b", "Gemma-3 12B", gemma3(48, 3840, 16, 8, 256, 15360, 262208, 1024)));
    p.push_back(named("gemma-3-27b", "Gemma-3 27B", gemma3(62, 5376, 32, 16, 128, 21504, 262208, 1024)));
    p.push_back(named("gpt-oss-20b", "gpt-oss 20B", gpt_oss(24, 32)));
    p.push_back(named("gpt-oss-120b", "gpt-oss 120B", gpt_oss(36, 128)));
    p.push_back(named("llama-4-scout", "Llama-4 Scout", llama4(16, 1)));
    p.push_back(named("llama-4-maverick", "Llama-4 Maverick", llama4(128, 2)));
    p.push_back(named("deepseek-v3", "DeepSeek-V3 671B", deepseek_v3()));
    {
        // Phi-3 (microsoft/Phi-3-mini-4k-instruct and Phi-3-medium-4k-instruct config.json;
        // models/phi3): fused qkv_proj and gate_up_proj, no biases, untied, vocabulary 32064.
        // mini: 32 layers of 3072, 32 heads, MLP 8192; medium: 40 layers of 5120, 40 heads, 10 KV heads, MLP 17920.
        ModelSpec mini = llama_style(32, 3072, 32, 32, 8192, 32064, false);
        ModelSpec medium = llama_style(40, 5120, 40, 10, 17920, 32064, false);
        for (ModelSpec* m : {&mini, &medium}) {
            m->family = "phi3";
            m->fused_qkv = true;
            m->fused_gate_up = true;
        }
        p.push_back(named("phi-3-mini", "Phi-3 mini 3.8B", mini));
        p.push_back(named("phi-3-medium", "Phi-3 medium 14B", medium));
    }
    {
        // DeepSeek-V2-Lite (deepseek-ai/DeepSeek-V2-Lite config.json; models/deepseek_v2): 27 layers
        // of 2048, vocabulary 102400, untied. Attention is MLA with 16 heads: no query compression
        // (q_lora_rank null: q_proj), kv_lora_rank 512, qk_nope_head_dim 128, qk_rope_head_dim 64,
        // v_head_dim 128 (head_dim here is the q/k head, 128 + 64). The first layer
        // (first_k_dense_replace 1) has a dense MLP of intermediate_size 10944; the other 26 have 64
        // routed experts of moe_intermediate_size 1408, 6 per token, and 2 shared experts.
        ModelSpec m = llama_style(27, 2048, 16, 16, 10944, 102400, false);
        m.family = "deepseek_v2";
        m.head_dim = 128 + 64;
        m.kv_lora_rank = 512;
        m.qk_nope_head_dim = 128;
        m.qk_rope_head_dim = 64;
        m.v_head_dim = 128;
        m.experts = 64;
        m.experts_per_token = 6;
        m.moe_ffn = 1408;
        m.shared_experts = 2;
        m.first_dense_layers = 1;
        p.push_back(named("deepseek-v2-lite", "DeepSeek-V2-Lite 16B", m));
    }
    {
        // OLMo-2 7B (allenai/OLMo-2-1124-7B config.json; models/olmo2): 32 layers of 4096, 32 heads
        // (no GQA), MLP 11008, vocabulary 100352, untied; q_norm and k_norm over the whole q and k
        // width; two post-norms per layer instead of pre-norms.
        ModelSpec m = llama_style(32, 4096, 32, 32, 11008, 100352, false);
        m.family = "olmo2";
        m.qk_norm = true;
        p.push_back(named("olmo-2-7b", "OLMo-2 7B", m));
    }
    {
        // BLOOM (bigscience/bloom config.json): ALiBi (no position table), embedding LayerNorm,
        // fused qkv with bias, 4h GELU MLP with bias, tied head.
        ModelSpec m = gpt2_style(70, 14336, 112, 250880, 0);
        m.family = "bloom";
        m.embedding_norm = true;
        p.push_back(named("bloom-176b", "BLOOM 176B", m));
    }
    {
        // T5-3B (t5-3b config.json): d_model 1024, d_ff 16384, 32 heads of d_kv 128, 24+24 blocks,
        // shared embedding tied to the head, RMS-style LayerNorm without bias, no biases,
        // 32 relative-attention buckets, dropout_rate 0.1.
        ModelSpec m;
        m.family = "t5";
        m.layers = 48;
        m.hidden = 1024;
        m.heads = 32;
        m.kv_heads = 32;
        m.head_dim = 128;
        m.ffn = 16384;
        m.vocab = 32128;
        m.tied_embeddings = true;
        m.norm = NormKind::RmsNorm;
        m.encoder_decoder = true;
        m.relative_attention_buckets = 32;
        m.residual_dropout = true;
        p.push_back(named("t5-3b", "T5-3B", m));
    }
    return p;
}

// Where each preset's dimensions come from, as data: `zero-planner presets` lists it. Each is the
// config.json (Hugging Face repository) or paper its comment in build_presets() cites; the presets
// whose comment says only "each model's published config.json" (GPT-2, Llama-2, Llama-3,
// Mistral 7B, Mixtral 8x7B, Qwen2) name the repository whose published count tests/core/
// tst_model_spec.cpp presets_data() holds them to. tests/core/tst_preset_sources checks that every
// preset has one.
// clang-format off
constexpr std::array<PresetSource, 52> kModelSources{{
    {"gpt2",             "openai-community/gpt2 config.json; GPT-2 paper"},
    {"gpt2-xl",          "openai-community/gpt2-xl config.json; GPT-2 paper"},
    {"gpt3-175b",        "Brown et al. 2020 (GPT-3) Table 2.1: 96 layers, d_model 12288, 96 heads, n_ctx 2048; GPT-2 architecture"},
    {"llama-2-7b",       "meta-llama/Llama-2-7b-hf config.json"},
    {"llama-2-13b",      "meta-llama/Llama-2-13b-hf config.json"},
    {"llama-2-70b",      "meta-llama/Llama-2-70b-hf config.json"},
    {"llama-3-8b",       "meta-llama/Meta-Llama-3-8B config.json"},
    {"llama-3-70b",      "meta-llama/Meta-Llama-3-70B config.json"},
    {"llama-3.1-8b",     "meta-llama/Llama-3.1-8B config.json"},
    {"llama-3.1-70b",    "meta-llama/Llama-3.1-70B config.json"},
    {"llama-3.1-405b",   "meta-llama/Llama-3.1-405B config.json"},
    {"llama-3.2-1b",     "meta-llama/Llama-3.2-1B config.json"},
    {"llama-3.2-3b",     "meta-llama/Llama-3.2-3B config.json"},
    {"mistral-7b",       "mistralai/Mistral-7B-v0.1 config.json"},
    {"mistral-nemo-12b", "mistralai/Mistral-Nemo-Base-2407 config.json"},
    {"mixtral-8x7b",     "mistralai/Mixtral-8x7B-v0.1 config.json"},
    {"mixtral-8x22b",    "mistral-community/Mixtral-8x22B-v0.1 config.json (as mistralai's base v0.1)"},
    {"qwen2-0.5b",       "Qwen/Qwen2-0.5B config.json"},
    {"qwen2-7b",         "Qwen/Qwen2-7B config.json"},
    {"qwen2.5-0.5b",     "Qwen/Qwen2.5-0.5B config.json"},
    {"qwen2.5-1.5b",     "Qwen/Qwen2.5-1.5B config.json"},
    {"qwen2.5-3b",       "Qwen/Qwen2.5-3B config.json"},
    {"qwen2.5-7b",       "Qwen/Qwen2.5-7B config.json"},
    {"qwen2.5-14b",      "Qwen/Qwen2.5-14B config.json"},
    {"qwen2.5-32b",      "Qwen/Qwen2.5-32B config.json"},
    {"qwen2.5-72b",      "Qwen/Qwen2.5-72B config.json"},
    {"qwen3-0.6b",       "Qwen/Qwen3-0.6B config.json"},
    {"qwen3-1.7b",       "Qwen/Qwen3-1.7B config.json"},
    {"qwen3-4b",         "Qwen/Qwen3-4B config.json"},
    {"qwen3-8b",         "Qwen/Qwen3-8B config.json"},
    {"qwen3-14b",        "Qwen/Qwen3-14B config.json"},
    {"qwen3-32b",        "Qwen/Qwen3-32B config.json"},
    {"qwen3-30b-a3b",    "Qwen/Qwen3-30B-A3B config.json"},
    {"qwen3-235b-a22b",  "Qwen/Qwen3-235B-A22B config.json"},
    {"gemma-2-2b",       "google/gemma-2-2b config.json"},
    {"gemma-2-9b",       "google/gemma-2-9b config.json"},
    {"gemma-2-27b",      "google/gemma-2-27b config.json"},
    {"gemma-3-1b",       "google/gemma-3-1b-pt config.json"},
    {"gemma-3-4b",       "google/gemma-3-4b-pt config.json text_config, Gemma3TextConfig's defaults (language model only)"},
    {"gemma-3-12b",      "google/gemma-3-12b-pt config.json text_config, Gemma3TextConfig's defaults (language model only)"},
    {"gemma-3-27b",      "google/gemma-3-27b-pt config.json text_config, Gemma3TextConfig's defaults (language model only)"},
    {"gpt-oss-20b",      "openai/gpt-oss-20b config.json"},
    {"gpt-oss-120b",     "openai/gpt-oss-120b config.json"},
    {"llama-4-scout",    "meta-llama/Llama-4-Scout-17B-16E config.json text_config (language model only)"},
    {"llama-4-maverick", "meta-llama/Llama-4-Maverick-17B-128E config.json text_config (language model only)"},
    {"deepseek-v3",      "deepseek-ai/DeepSeek-V3 config.json (DeepSeek-R1's is the same; MTP layer not counted)"},
    {"phi-3-mini",       "microsoft/Phi-3-mini-4k-instruct config.json"},
    {"phi-3-medium",     "microsoft/Phi-3-medium-4k-instruct config.json"},
    {"deepseek-v2-lite", "deepseek-ai/DeepSeek-V2-Lite config.json"},
    {"olmo-2-7b",        "allenai/OLMo-2-1124-7B config.json"},
    {"bloom-176b",       "bigscience/bloom config.json"},
    {"t5-3b",            "t5-3b config.json"},
}};
// clang-format on

}  // namespace

const std::vector<ModelPreset>& model_presets() {
    static const std::vector<ModelPreset> presets = build_presets();
    return presets;
}

std::string model_preset_names() { return preset_names(model_presets()); }

const ModelPreset& model_preset(std::string_view name) { return find_preset(model_presets(), name, "model", "models"); }

const char* model_source(std::string_view name) { return find_source(kModelSources, name); }

}  // namespace zp
