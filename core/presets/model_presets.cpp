#include "core/presets/model_presets.h"

#include "core/presets/preset_table.h"

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

std::vector<ModelPreset> build_presets() {
    std::vector<ModelPreset> p;
    // Dimensions from each model's published config.json; the counts they give are in tests.
    p.push_back(named("gpt2", "GPT-2 124M", gpt2_style(12, 768, 12, 50257, 1024)));
    p.push_back(named("gpt2-xl", "GPT-2 XL 1.5B", gpt2_style(48, 1600, 25, 50257, 1024)));
    // GPT-3 175B: Brown et al. 2020 Table 2.1 (96 layers, d_model 12288, 96 heads, n_ctx 2048), GPT-2 architecture.
    p.push_back(named("gpt3-175b", "GPT-3 175B", gpt2_style(96, 12288, 96, 50257, 2048)));
    p.push_back(named("llama-2-7b", "Llama-2 7B", llama_style(32, 4096, 32, 32, 11008, 32000, false)));
    p.push_back(named("llama-2-13b", "Llama-2 13B", llama_style(40, 5120, 40, 40, 13824, 32000, false)));
    p.push_back(named("llama-2-70b", "Llama-2 70B", llama_style(80, 8192, 64, 8, 28672, 32000, false)));
    p.push_back(named("llama-3-8b", "Llama-3 8B", llama_style(32, 4096, 32, 8, 14336, 128256, false)));
    p.push_back(named("llama-3-70b", "Llama-3 70B", llama_style(80, 8192, 64, 8, 28672, 128256, false)));
    {
        ModelSpec m = llama_style(32, 4096, 32, 8, 14336, 32000, false);
        m.family = "mistral";
        p.push_back(named("mistral-7b", "Mistral 7B", m));
    }
    {
        ModelSpec m = llama_style(32, 4096, 32, 8, 14336, 32000, false);
        m.family = "mixtral";
        m.experts = 8;
        m.experts_per_token = 2;
        p.push_back(named("mixtral-8x7b", "Mixtral 8x7B", m));
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
        // 32 relative-attention buckets.
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
        p.push_back(named("t5-3b", "T5-3B", m));
    }
    return p;
}

}  // namespace

const std::vector<ModelPreset>& model_presets() {
    static const std::vector<ModelPreset> presets = build_presets();
    return presets;
}

std::string model_preset_names() { return preset_names(model_presets()); }

const ModelPreset& model_preset(std::string_view name) { return find_preset(model_presets(), name, "model", "models"); }

}  // namespace zp
