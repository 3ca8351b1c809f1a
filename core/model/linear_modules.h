#pragma once
// The nn.Linear (and GPT-2 Conv1D) modules of a model as Hugging Face transformers builds it,
// by the attribute name PEFT matches target_modules against ("q_proj", "c_attn", "wi_0"), with
// their shapes and how many of each the model has. LoRA adapters, their activations and
// bitsandbytes' quantisation are counted over these (core/model/trainable_params.h).
#include "core/model/model_spec.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace zp {

enum class LinearRole {
    AttentionInput,   // q, k, v (or a fused qkv): read the attention block's input
    AttentionOutput,  // o_proj / dense / c_proj after attention
    MlpInput,         // up, gate (or fused gate_up), fc1, wi: read the MLP block's input
    MlpOutput,        // down_proj / fc2 / wo
    Router,           // a MoE router (Mixtral block_sparse_moe.gate)
    Head              // the output layer (lm_head)
};

struct LinearModule {
    std::string name;  // the module's own attribute name (the last component of its path)
    LinearRole role = LinearRole::AttentionInput;
    std::int64_t in = 0, out = 0;  // in_features, out_features
    bool bias = false;
    std::int64_t count = 0;  // instances in the model
    // The share of its layer's tokens one instance computes: experts_per_token / experts for a
    // routed MoE expert, 1 for everything else (shared experts and dense MLPs included).
    double token_share = 1.0;
    // A slice of a fused nn.Parameter, not an nn.Linear: gpt-oss's and Llama-4's routed experts
    // (GptOssExperts, Llama4TextExperts: gate_up_proj E x h x 2f, down_proj E x f x h) and gpt-oss's
    // router (GptOssTopKRouter.weight). PEFT's target_modules and "all-linear" match nn.Linear
    // modules only (tuners_utils.py _maybe_include_all_linear_layers); these are reached through
    // target_parameters (lora.ParamWrapper: lora_A r*E x in, lora_B out x r*E, the same r(in + out)
    // per expert). bitsandbytes replaces nn.Linear only (integrations/bitsandbytes.py
    // replace_with_bnb_linear), so a 4- or 8-bit base keeps these in the compute dtype.
    bool fused_parameter = false;
    // GPT-2's transformers.pytorch_utils.Conv1D (c_attn, c_proj, c_fc): a Linear with its weight
    // transposed, which PEFT and bitsandbytes treat as one but Accelerate's convert_model, swapping
    // isinstance(module, nn.Linear) only, leaves in 16 bits under FP8.
    bool conv1d = false;
};

// Every Linear of `m`, the LM head last. Empty for a model known only by its size.
std::vector<LinearModule> linear_modules(const ModelSpec& m);

// FP8 matmuls (Training::fp8_gemms): Accelerate's convert_model turns an nn.Linear into Transformer
// Engine's te.Linear only when both its dimensions divide by 16 (accelerate
// utils/transformer_engine.py; the LM head too, GPT-2's 50,257-wide one not). Those run in FP8.
inline bool runs_in_fp8(std::int64_t in, std::int64_t out) { return in % 16 == 0 && out % 16 == 0; }
inline bool runs_in_fp8(const LinearModule& l) { return !l.conv1d && !l.fused_parameter && runs_in_fp8(l.in, l.out); }
// gpt-oss's and Llama-4's routed experts: fused nn.Parameters (GptOssExperts, Llama4TextExperts).
inline bool experts_are_fused_parameters(const ModelSpec& m) { return m.experts > 1 && (m.family == "gpt_oss" || m.family == "llama4"); }
// Whether a model's transformer layers are nn.Linear for convert_model (GPT-2's are Conv1D).
inline bool layers_convert_to_te(const ModelSpec& m) { return m.family != "gpt2"; }
// A layer's linear that runs in FP8, and the output layer when it does (counted apart: once a
// micro step, not recomputed, its copy held through the loss).
inline bool layer_linear_in_fp8(const LinearModule& l) { return l.role != LinearRole::Head && runs_in_fp8(l); }
inline bool head_linear_in_fp8(const LinearModule& l) { return l.role == LinearRole::Head && runs_in_fp8(l); }
// What bitsandbytes quantizes for a 4- or 8-bit base: every nn.Linear but the output layer
// (transformers integrations/bitsandbytes.py replace_with_bnb_linear and get_keys_to_not_convert);
// fused expert Parameters are not nn.Linear and stay in the compute dtype.
inline bool bnb_quantizes(const LinearModule& l) { return l.role != LinearRole::Head && !l.fused_parameter; }

// PEFT's default target_modules for the model's type (peft/utils/constants.py
// TRANSFORMERS_MODELS_TO_LORA_TARGET_MODULES_MAPPING): {"q_proj", "v_proj"} for Llama; empty for a
// type the map lacks (phi3, deepseek_v2, olmo2), where PEFT asks for target_modules.
std::vector<std::string> peft_default_targets(const ModelSpec& m);

// The distinct names of `modules`, in order (GPT-2 has two c_proj: one name).
std::vector<std::string> distinct_names(const std::vector<LinearModule>& modules);

// "q_proj, k_proj, ...": the distinct names of `m`'s modules, for messages.
std::string linear_module_names(const ModelSpec& m);

}  // namespace zp
