#pragma once
// How a run fine-tunes (docs/design.md §4.9): every weight trained (full, optionally with the
// embeddings or the first layers frozen), LoRA adapters on a frozen base (PEFT's LoraConfig), or
// QLoRA, LoRA on a base quantised by bitsandbytes (transformers' BitsAndBytesConfig).
#include <cstdint>
#include <string>

namespace zp {

enum class FineTuneMethod { Full, Lora, Qlora };

// How the frozen base weights are stored. Auto: in the training dtype for full and LoRA, NF4 for
// QLoRA. Int8 is LLM.int8 (load_in_8bit); Nf4/Fp4 are load_in_4bit with bnb_4bit_quant_type.
enum class BasePrecision { Auto, Bf16, Fp16, Int8, Nf4, Fp4 };

// Which Linear modules get adapters: PEFT's default for the model type
// (TRANSFORMERS_MODELS_TO_LORA_TARGET_MODULES_MAPPING), every attention projection, every Linear
// but the output layer (target_modules="all-linear"), or the names in FineTune::target_modules.
enum class LoraTargets { Default, Attention, AllLinear, Modules };

// bnb_4bit_quant_storage: the dtype the packed 4-bit weights are stored in. The bytes are the
// same; ZeRO-3 (and FSDP) partition them as tensors of this dtype, so it must be the float dtype
// the rest of the model is in (PEFT docs, accelerate/deepspeed.md).
// Auto: uint8 (bitsandbytes' default) at ZeRO-0/1/2, the compute dtype at ZeRO-3.
enum class QuantStorage { Auto, Uint8, Bf16, Fp16, Fp32 };

struct FineTune {
    FineTuneMethod method = FineTuneMethod::Full;
    // LoRA and QLoRA (peft LoraConfig; its defaults: r 8, lora_alpha 8, lora_dropout 0.0).
    std::int64_t lora_rank = 8;
    double lora_alpha = 8;
    double lora_dropout = 0.0;  // 0 makes PEFT use nn.Identity: the adapter reads its input as is
    LoraTargets targets = LoraTargets::Default;
    std::string target_modules;     // LoraTargets::Modules: comma-separated module names, "q_proj,v_proj"
    bool train_embeddings = false;  // modules_to_save: a trained copy of the input embedding
    bool train_lm_head = false;     // modules_to_save: a trained copy of the LM head
    // The frozen base (QLoRA; BitsAndBytesConfig).
    BasePrecision base_precision = BasePrecision::Auto;
    bool double_quant = true;            // bnb_4bit_use_double_quant (QLoRA paper Sec. 3; off in transformers by default)
    std::int64_t quant_block_size = 64;  // bitsandbytes' 4-bit block size for weights
    QuantStorage quant_storage = QuantStorage::Auto;
    // Full fine-tuning with parts frozen (requires_grad_(False) before the optimizer is built).
    bool freeze_embeddings = false;
    std::int64_t freeze_layers = 0;  // the first k transformer blocks

    bool adapters() const { return method != FineTuneMethod::Full; }
    // Whether a transformer block holds a frozen weight: adapters' frozen base or frozen layers (the
    // embeddings and the head are outside every block).
    bool freezes_block_weights() const { return adapters() || freeze_layers > 0; }

    friend bool operator==(const FineTune&, const FineTune&) = default;
};

}  // namespace zp
