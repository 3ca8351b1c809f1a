#include "core/model/trainable_params.h"

#include "core/base/errors.h"
#include "core/model/limits.h"

#include <algorithm>
#include <cmath>
#include <sstream>

// PEFT v0.13 (tuners/lora/layer.py LoraLayer.update_layer: lora_A in_features x r and lora_B
// r x out_features, no bias; tuners/tuners_utils.py check_target_module_exists: a target matches a
// module whose name is the target or ends in "." + target; utils/other.py ModulesToSaveWrapper
// keeps original_module and a trained copy), bitsandbytes 0.44 (functional.py quantize_4bit:
// blocksize 64, absmax fp32 per block, compress_statistics = double quantisation of absmax to
// 8 bits in blocks of 256), transformers v4.48 (integrations/bitsandbytes.py
// get_keys_to_not_convert: the output embedding stays unquantised).

namespace zp {
namespace {

BasePrecision resolved_base(const FineTune& f) {
    if (f.base_precision != BasePrecision::Auto) return f.base_precision;
    return f.method == FineTuneMethod::Qlora ? BasePrecision::Nf4 : BasePrecision::Auto;
}

std::vector<std::string> split_names(const std::string& list) {
    std::vector<std::string> names;
    std::stringstream in(list);
    std::string item;
    while (std::getline(in, item, ',')) {
        const auto b = item.find_first_not_of(" \t"), e = item.find_last_not_of(" \t");
        if (b != std::string::npos) names.push_back(item.substr(b, e - b + 1));
    }
    return names;
}

// The input embedding and the parameters of one transformer block (decoder-only models).
double embedding_params(const ModelSpec& m) {
    return static_cast<double>(m.vocab) * static_cast<double>(m.hidden) + static_cast<double>(m.positions) * static_cast<double>(m.hidden);
}

double block_params(const ModelSpec& m) {
    const double total = static_cast<double>(parameter_count(m));
    if (m.layers <= 0) return 0;
    ModelSpec none = m;
    none.layers = 0;
    none.params_override = 0;
    none.largest_layer_override = 0;
    double outside = static_cast<double>(parameter_count(none));
    if (m.params_override > 0 && m.synthesized)  // a model known by its size: the embedding (tied) is what is outside
        outside = embedding_params(m);
    return std::max(0.0, (total - outside) / static_cast<double>(m.layers));
}

}  // namespace

bool is_quantized_base(BasePrecision b) { return b == BasePrecision::Int8 || b == BasePrecision::Nf4 || b == BasePrecision::Fp4; }

double quantized_weight_bytes(const FineTune& f) {
    switch (resolved_base(f)) {
    case BasePrecision::Int8: return 1.0;
    case BasePrecision::Nf4:
    case BasePrecision::Fp4: {
        const double bs = static_cast<double>(f.quant_block_size);
        const double absmax = f.double_quant ? 1.0 / bs + 4.0 / (bs * 256.0) : 4.0 / bs;
        return 0.5 + absmax;
    }
    default: return 0.0;
    }
}

bool quant_storage_shares_compute_dtype(const Scenario& s) { return s.zero.stage == 3 || is_fsdp(s.fsdp); }
bool quant_storage_must_be_compute_dtype(const Scenario& s) {
    return s.fsdp.engine == Engine::Fsdp || (!is_fsdp(s.fsdp) && s.zero.stage == 3);
}

QuantStorage resolved_quant_storage(const FineTune& f, bool shares_compute_dtype, Precision p) {
    if (f.quant_storage != QuantStorage::Auto) return f.quant_storage;
    if (!shares_compute_dtype) return QuantStorage::Uint8;
    switch (p) {
    case Precision::Bf16: return QuantStorage::Bf16;
    case Precision::Fp16: return QuantStorage::Fp16;
    case Precision::Fp32: return QuantStorage::Fp32;
    }
    return QuantStorage::Uint8;
}

std::vector<LinearModule> adapted_modules(const ModelSpec& m, const FineTune& f) {
    const std::vector<LinearModule> all = linear_modules(m);
    std::vector<LinearModule> out;
    switch (f.targets) {
    case LoraTargets::Attention:
        for (const LinearModule& l : all)
            if (l.role == LinearRole::AttentionInput || l.role == LinearRole::AttentionOutput) out.push_back(l);
        return out;
    case LoraTargets::AllLinear:
        // tuners_utils.py _maybe_include_all_linear_layers: every Linear/Conv1D but the output layer
        // (not a fused expert Parameter: linear_modules.h fused_parameter).
        for (const LinearModule& l : all)
            if (l.role != LinearRole::Head && !l.fused_parameter) out.push_back(l);
        return out;
    case LoraTargets::Default:
    case LoraTargets::Modules: break;
    }
    const std::vector<std::string> names = f.targets == LoraTargets::Default ? peft_default_targets(m) : split_names(f.target_modules);
    if (names.empty())
        throw InputError(f.targets == LoraTargets::Default
                             ? "LoRA targets: PEFT has no default target_modules for " + m.family +
                                   " (\"Please specify target_modules in peft_config\"); choose attention, all-linear or names from: " +
                                   linear_module_names(m)
                             : "LoRA target modules: the list is empty; name modules of this model: " + linear_module_names(m));
    for (const std::string& n : names) {
        // A name matches the nn.Linear modules of that name (check_target_module_exists); a name
        // only fused expert Parameters carry (gpt-oss's gate_up_proj) is PEFT's target_parameters.
        const auto named = [&](bool fused) {
            bool found = false;
            for (const LinearModule& l : all)
                if (l.name == n && l.fused_parameter == fused) {
                    out.push_back(l);
                    found = true;
                }
            return found;
        };
        const bool found = named(false) || named(true);
        if (!found)
            throw InputError("LoRA target module '" + n + "' is not a Linear module of " + (m.name.empty() ? m.family : m.name) +
                             "; its modules are: " + linear_module_names(m));
    }
    return out;
}

ParameterSplit parameter_split(const Scenario& s) {
    const ModelSpec& m = s.model;
    const FineTune& f = s.finetune;
    const double k = bytes_per_element(s.training.precision);
    ParameterSplit out;
    out.base = static_cast<double>(parameter_count(m));
    if (f.method == FineTuneMethod::Full) {
        double frozen = 0;
        if (f.freeze_embeddings) frozen += embedding_params(m);
        if (f.freeze_layers > 0) frozen += static_cast<double>(f.freeze_layers) * block_params(m);
        out.frozen = std::min(frozen, out.base);
        out.trainable = out.base - out.frozen;
        out.frozen_bytes = k * out.frozen;
        return out;
    }
    const double r = static_cast<double>(f.lora_rank);
    for (const LinearModule& l : adapted_modules(m, f)) out.adapter += static_cast<double>(l.count) * r * static_cast<double>(l.in + l.out);
    const double h = static_cast<double>(m.hidden), V = static_cast<double>(m.vocab);
    if (f.train_embeddings) out.saved_copies += V * h;
    if (f.train_lm_head) out.saved_copies += V * h + (m.lm_head_bias ? V : 0.0);
    out.trainable = out.adapter + out.saved_copies;
    out.frozen = out.base;

    const BasePrecision base = resolved_base(f);
    const double plain_bytes = base == BasePrecision::Bf16 || base == BasePrecision::Fp16 ? 2.0 : k;
    if (is_quantized_base(base)) {
        // The weights bitsandbytes quantizes (linear_modules.h bnb_quantizes); biases stay in the compute dtype.
        double rows = 0;
        for (const LinearModule& l : linear_modules(m))
            if (bnb_quantizes(l)) {
                out.quantized += static_cast<double>(l.count) * static_cast<double>(l.in) * static_cast<double>(l.out);
                rows += static_cast<double>(l.count) * static_cast<double>(l.out);
            }
        out.quantized = std::min(out.quantized, out.frozen);
        if (base == BasePrecision::Int8) {
            out.frozen_bytes = out.quantized * 1.0;
            out.quant_state_bytes = rows * 4.0;  // Int8Params.SCB: one fp32 scale per output row
        } else {
            out.frozen_bytes = out.quantized * 0.5;  // two 4-bit values per byte, whatever the storage dtype
            out.quant_state_bytes = out.quantized * (quantized_weight_bytes(f) - 0.5);
        }
        out.frozen_bytes += (out.frozen - out.quantized) * plain_bytes;
    } else {
        out.frozen_bytes = out.frozen * plain_bytes;
    }
    return out;
}

void validate_finetune(const Scenario& s) {
    const FineTune& f = s.finetune;
    const ModelSpec& m = s.model;
    // The settings' own ranges, whatever the method (a session keeps them for when it changes).
    if (!limits::kLoraRank.contains(f.lora_rank))
        throw InputError("LoRA rank must be " + limits::describe(limits::kLoraRank) + ", got " + std::to_string(f.lora_rank));
    if (!limits::kLoraAlpha.contains(f.lora_alpha)) throw InputError("LoRA alpha must be " + limits::describe(limits::kLoraAlpha));
    if (!limits::kLoraDropout.contains(f.lora_dropout)) throw InputError("LoRA dropout must be " + limits::describe(limits::kLoraDropout));
    if (f.quant_block_size < 64 || f.quant_block_size > 4096 || (f.quant_block_size & (f.quant_block_size - 1)) != 0)
        throw InputError("quantisation block size must be a power of two from 64 to 4096 (bitsandbytes), got " +
                         std::to_string(f.quant_block_size));
    if (f.method == FineTuneMethod::Full) {
        if (is_quantized_base(f.base_precision))
            throw InputError(std::string("base precision ") + (f.base_precision == BasePrecision::Int8 ? "int8" : "4-bit") +
                             " needs adapters: a quantised base cannot be trained in full; use --finetune qlora");
        if (f.freeze_layers < 0 || f.freeze_layers > m.layers)
            throw InputError("freeze layers: " + std::to_string(f.freeze_layers) + " is not between 0 and the model's " +
                             std::to_string(m.layers) + " layers");
        return;
    }
    // Freeze lists mean nothing here (the whole base is frozen): they are ignored, and the command
    // line refuses --freeze with adapters.
    const BasePrecision base = resolved_base(f);
    if (f.method == FineTuneMethod::Qlora && !is_quantized_base(base))
        throw InputError("QLoRA needs a quantised base: base precision int8, nf4 or fp4 (LoRA keeps a 16-bit base)");
    if (f.method == FineTuneMethod::Lora && is_quantized_base(base))
        throw InputError("a quantised base (int8, nf4, fp4) is QLoRA: use --finetune qlora");
    for (const LinearModule& l : adapted_modules(m, f))  // unknown module names throw
        if (l.fused_parameter && f.lora_dropout > 0)
            throw InputError("LoRA on " + l.name +
                             ", a fused expert parameter (PEFT target_parameters), needs --lora-dropout 0: \"lora.ParamWrapper does not "
                             "work with lora_dropout != 0\" (peft/tuners/lora/layer.py ParamWrapper)");
    if (f.method == FineTuneMethod::Qlora && (base == BasePrecision::Nf4 || base == BasePrecision::Fp4) &&
        quant_storage_must_be_compute_dtype(s)) {
        const QuantStorage st = resolved_quant_storage(f, true, s.training.precision);
        const QuantStorage compute = resolved_quant_storage(FineTune{}, true, s.training.precision);
        if (st != compute)
            throw InputError(std::string(is_fsdp(s.fsdp) ? "QLoRA under FSDP" : "QLoRA under ZeRO-3") +
                             " needs bnb_4bit_quant_storage equal to the compute dtype (" + to_string(s.training.precision) +
                             (is_fsdp(s.fsdp)
                                  ? "): FSDP flattens the packed 4-bit weights with the other parameters (PEFT docs, accelerate/fsdp.md)"
                                  : "): ZeRO-3 partitions the packed 4-bit weights as tensors of that dtype (PEFT docs, "
                                    "accelerate/deepspeed.md)"));
    }
}

}  // namespace zp
