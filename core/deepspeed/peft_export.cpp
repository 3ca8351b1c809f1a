#include "core/deepspeed/peft_export.h"

#include "core/base/format.h"
#include "core/model/engine.h"
#include "core/model/trainable_params.h"
#include "core/presets/model_presets.h"

#include <algorithm>
#include <string>
#include <vector>

// transformers BitsAndBytesConfig (load_in_4bit, bnb_4bit_quant_type, bnb_4bit_use_double_quant,
// bnb_4bit_compute_dtype, bnb_4bit_quant_storage; load_in_8bit), PEFT LoraConfig (r, lora_alpha,
// lora_dropout, target_modules, modules_to_save, task_type) and get_peft_model; PEFT's DeepSpeed
// guide (docs/source/accelerate/deepspeed.md): under ZeRO-3 the model's torch_dtype equals
// bnb_4bit_quant_storage, and zero3_init_flag is on (the Accelerate export writes it).

namespace zp {
namespace {

const char* torch_dtype(Precision p) {
    switch (p) {
    case Precision::Bf16: return "torch.bfloat16";
    case Precision::Fp16: return "torch.float16";
    case Precision::Fp32: return "torch.float32";
    }
    return "torch.bfloat16";
}

const char* storage_dtype(QuantStorage q) {
    switch (q) {
    case QuantStorage::Bf16: return "torch.bfloat16";
    case QuantStorage::Fp16: return "torch.float16";
    case QuantStorage::Fp32: return "torch.float32";
    default: return "torch.uint8";
    }
}

// PEFT's target_parameters name for a fused expert Parameter (linear_modules.h fused_parameter):
// ParamWrapper matches the end of "<module path>.<parameter name>" (GptOssExperts.gate_up_proj,
// GptOssTopKRouter.weight).
std::string parameter_target(const LinearModule& l) { return l.role == LinearRole::Router ? l.name + ".weight" : "experts." + l.name; }

// ["a", "b"]: a Python list of strings, each once, in order; "" for none.
std::string python_list(const std::vector<std::string>& items) {
    std::vector<std::string> seen;
    std::string out;
    for (const std::string& i : items) {
        if (std::find(seen.begin(), seen.end(), i) != seen.end()) continue;
        seen.push_back(i);
        out += (out.empty() ? "[\"" : ", \"") + i + "\"";
    }
    return out.empty() ? out : out + "]";
}

}  // namespace

std::string peft_model_text(const Scenario& s) {
    const FineTune& f = s.finetune;
    const ModelSpec& m = s.model;
    const ParameterSplit p = parameter_split(s);
    const bool seq2seq = m.encoder_decoder;
    const std::string auto_class = seq2seq ? "AutoModelForSeq2SeqLM" : "AutoModelForCausalLM";
    std::string py;
    py += "import torch\n";
    // gpt-oss's checkpoint keeps its experts in MXFP4 (config.json quantization_config), and
    // transformers does not train an MXFP4 model (quantizer_mxfp4.py is_trainable: "please consider
    // dequantizing the model first by passing quantization_config=Mxfp4Config(dequantize=True)"): LoRA
    // loads it dequantized to bf16, which is what the planner counts.
    const bool mxfp4_checkpoint = m.family == "gpt_oss" && f.method != FineTuneMethod::Qlora;
    py += "from transformers import " + auto_class + (f.method == FineTuneMethod::Qlora ? ", BitsAndBytesConfig" : "") +
          (mxfp4_checkpoint ? ", Mxfp4Config" : "") + "\n";
    if (f.adapters()) py += "from peft import LoraConfig, get_peft_model\n";
    const bool own_gpu = f.method == FineTuneMethod::Qlora && s.cluster.world_size() > 1 && s.zero.stage != 3 && !is_fsdp(s.fsdp);
    if (own_gpu) py += "from accelerate import PartialState\n";
    // A preset's Hugging Face repository, the first word of its source ("Qwen/Qwen3-8B config.json").
    std::string repo(model_source(m.name));
    repo = repo.substr(0, repo.find(' '));
    const bool hub = repo.find('/') != std::string::npos;
    py += "\nMODEL = \"" + (hub ? repo : m.name) + "\"  # " +
          (hub ? "its Hugging Face repository (or a local path)" : "the Hugging Face id or local path of this model") + "\n\n";

    std::string load_args = "torch_dtype=" + std::string(torch_dtype(s.training.precision));
    if (f.method == FineTuneMethod::Qlora) {
        const BasePrecision base = f.base_precision == BasePrecision::Auto ? BasePrecision::Nf4 : f.base_precision;
        py += "bnb_config = BitsAndBytesConfig(\n";
        if (base == BasePrecision::Int8) {
            py += "    load_in_8bit=True,\n";
        } else {
            const bool shared = quant_storage_shares_compute_dtype(s);
            const QuantStorage storage = resolved_quant_storage(f, shared, s.training.precision);
            py += "    load_in_4bit=True,\n";
            py += std::string("    bnb_4bit_quant_type=\"") + (base == BasePrecision::Fp4 ? "fp4" : "nf4") + "\",\n";
            py += std::string("    bnb_4bit_use_double_quant=") + (f.double_quant ? "True" : "False") + ",\n";
            py += std::string("    bnb_4bit_compute_dtype=") + torch_dtype(s.training.precision) + ",\n";
            py += std::string("    bnb_4bit_quant_storage=") + storage_dtype(storage) + "," +
                  (!shared ? ""
                   : s.fsdp.engine == Engine::Fsdp
                       ? "  # FSDP flattens the packed weights with the others as this dtype: the model's torch_dtype"
                   : s.fsdp.engine == Engine::Fsdp2 ? "  # as PEFT's FSDP guide writes it: the model's torch_dtype"
                                                    : "  # ZeRO-3 partitions the packed weights as this dtype: the model's torch_dtype") +
                  "\n";
            if (shared) load_args = "torch_dtype=" + std::string(storage_dtype(storage));
        }
        py += ")\n";
        load_args = "quantization_config=bnb_config, " + load_args;
    }
    if (mxfp4_checkpoint) {
        py += "# The checkpoint's experts are MXFP4, which transformers does not train: dequantized to bf16 on loading.\n";
        load_args = "quantization_config=Mxfp4Config(dequantize=True), " + load_args;
    }
    if (f.method == FineTuneMethod::Qlora && m.experts > 1)
        for (const LinearModule& l : linear_modules(m))
            if (l.fused_parameter) {
                py += "# bitsandbytes quantizes nn.Linear modules only: the fused experts stay " +
                      std::string(torch_dtype(s.training.precision)) + " (the planner counts them so).\n";
                break;
            }
    // bitsandbytes loads onto torch.cuda.current_device() without a device_map (transformers'
    // quantizer update_device_map): cuda:0 on every rank unless the script set the device first.
    // TRL's get_kbit_device_map puts each process on its own GPU; not under ZeRO-3 or FSDP, which
    // partition the model and refuse a device_map (modeling_utils: "DeepSpeed Zero-3 is not
    // compatible with passing a device_map").
    if (own_gpu) load_args += ", device_map={\"\": PartialState().local_process_index}";
    py += "model = " + auto_class + ".from_pretrained(MODEL, " + load_args + ")" +
          (own_gpu ? "  # each rank quantizes onto its own GPU" : "") + "\n";

    if (f.adapters()) {
        std::vector<std::string> module_names, parameter_names;
        for (const LinearModule& l : adapted_modules(m, f))
            (l.fused_parameter ? parameter_names : module_names).push_back(l.fused_parameter ? parameter_target(l) : l.name);
        const std::string targets = f.targets == LoraTargets::AllLinear ? "\"all-linear\"" : python_list(module_names);
        const std::string parameters = python_list(parameter_names);
        py += "\nlora_config = LoraConfig(\n";
        py += "    r=" + std::to_string(f.lora_rank) + ",\n";
        py += "    lora_alpha=" + format_general(f.lora_alpha) + ",\n";
        py += "    lora_dropout=" + format_general(f.lora_dropout) + ",\n";
        if (!targets.empty()) py += "    target_modules=" + targets + ",\n";
        if (!parameters.empty()) py += "    target_parameters=" + parameters + ",  # fused expert Parameters (PEFT >= 0.17)\n";
        if (f.train_embeddings || f.train_lm_head) {
            std::string saved;
            if (f.train_embeddings) saved += seq2seq ? "\"shared\"" : "\"embed_tokens\"";
            if (f.train_lm_head) saved += std::string(saved.empty() ? "" : ", ") + "\"lm_head\"";
            py += "    modules_to_save=[" + saved + "],\n";
        }
        py += std::string("    task_type=\"") + (seq2seq ? "SEQ_2_SEQ_LM" : "CAUSAL_LM") + "\",\n";
        py += ")\n";
        py += "model = get_peft_model(model, lora_config)\n";
    } else if (f.freeze_embeddings || f.freeze_layers > 0) {
        py += "\n# Frozen before the optimizer is built: DeepSpeed steps only what requires grad.\n";
        if (f.freeze_embeddings) py += "model.get_input_embeddings().requires_grad_(False)\n";
        if (f.freeze_layers > 0)
            py += "for layer in model.model.layers[:" + std::to_string(f.freeze_layers) + "]:\n    layer.requires_grad_(False)\n";
    } else {
        py += "\n# Full fine-tuning: every parameter is trained.\n";
    }
    py += "\n# The planner counts:\n";
    py += "# trainable params: " + format_count(p.trainable) + " || all params: " + format_count(p.peft_all()) +
          " || trainable%: " + format_fixed(100.0 * p.trainable / p.peft_all(), 4) + "\n";
    if (f.adapters()) py += "model.print_trainable_parameters()\n";
    return py;
}

}  // namespace zp
