#include "core/deepspeed/fsdp_export.h"

#include "core/deepspeed/accelerate_yaml.h"
#include "core/deepspeed/framework_exports.h"

#include "core/base/errors.h"
#include "core/base/format.h"
#include "core/model/mics.h"
#include "core/search/zero_setups.h"

#include <array>
#include <cctype>
#include <map>
#include <string_view>
#include <utility>

namespace zp {

namespace {

// A selective-op plan (torchtitan's op-level selective checkpointing, core/model/op_sac.h) has no
// key in Accelerate or the Trainer: the `key` there recomputes whole layers. Said where it is set.
std::string op_sac_note(const Scenario& s, const std::string& key) {
    if (s.training.checkpointing != Checkpointing::SelectiveOp) return {};
    return "# Recompute selective-op (planned) is torchtitan's op-level selective checkpointing: " + key +
           " recomputes whole layers\n# instead, less memory and more time than planned.\n";
}

// transformers' modelling code, models/<family>/modeling_<family>.py: the class of one layer.
constexpr std::array<std::pair<std::string_view, std::string_view>, 21> kLayerClasses{{
    {"gpt2", "GPT2Block"},
    {"llama", "LlamaDecoderLayer"},
    {"mistral", "MistralDecoderLayer"},
    {"mixtral", "MixtralDecoderLayer"},
    {"qwen2", "Qwen2DecoderLayer"},
    {"qwen3", "Qwen3DecoderLayer"},
    {"qwen3_moe", "Qwen3MoeDecoderLayer"},
    {"gemma", "GemmaDecoderLayer"},
    {"gemma2", "Gemma2DecoderLayer"},
    {"phi", "PhiDecoderLayer"},
    {"phi3", "Phi3DecoderLayer"},
    {"olmo2", "Olmo2DecoderLayer"},
    {"gpt_neox", "GPTNeoXLayer"},
    {"falcon", "FalconDecoderLayer"},
    {"bloom", "BloomBlock"},
    {"t5", "T5Block"},
    {"deepseek_v2", "DeepseekV2DecoderLayer"},
    {"deepseek_v3", "DeepseekV3DecoderLayer"},
    {"gemma3_text", "Gemma3DecoderLayer"},  // models/gemma3: Gemma3ForCausalLM and Gemma3ForConditionalGeneration's language model
    {"gpt_oss", "GptOssDecoderLayer"},
    {"llama4", "Llama4TextDecoderLayer"},
}};

// What both exports need to hold: FSDP, a setup it has, and dtypes its launchers can build.
void check_exportable(const Scenario& s, const char* format) {
    if (!is_fsdp(s.fsdp))
        throw InputError(std::string("the ") + format + " FSDP config is for --engine fsdp or fsdp2; this plan runs DeepSpeed");
    const SetupKey k = setup_key(s.zero);
    if (s.fsdp.engine == Engine::Fsdp2 && k.stage == 0)
        throw InputError("FSDP2's fully_shard always shards (no NO_SHARD): use --stage 2 or 3, or --engine fsdp for NO_SHARD");
    if (!engine_runs_setup(s.fsdp, k))
        throw InputError(s.fsdp.engine == Engine::Fsdp2
                             ? "FSDP2 has no setup for ZeRO-" + std::to_string(k.stage) +
                                   " with this offload: choose --stage 2 or 3 (reshard_after_forward False, True), CPU offload at 3"
                             : "FSDP has no setup for ZeRO-" + std::to_string(k.stage) +
                                   " with this offload: choose --stage 0, 2 or 3 (NO_SHARD, SHARD_GRAD_OP, FULL_SHARD), CPU offload at 3");
    if (s.fsdp.precision == FsdpPrecision::Autocast && s.training.precision != Precision::Fp32)
        throw InputError(
            "an fp32 model under torch.autocast alone (--fsdp-precision autocast) is a custom training loop: Accelerate's and the Trainer's "
            "bf16/fp16 build a MixedPrecision policy (accelerate utils/dataclasses.py set_mixed_precision); export with "
            "--fsdp-precision mixed, or pure for a model loaded in the training dtype");
    // FSDP1's constructor argument: fully_shard (FSDP2) has none, and plans it alike (fsdp_memory.cpp).
    if (!s.fsdp.limit_all_gathers && s.fsdp.engine == Engine::Fsdp)
        throw InputError(
            "limit_all_gathers off has no config key: Accelerate's FullyShardedDataParallelPlugin keeps torch's default (on); pass "
            "limit_all_gathers=False in code, or plan with --limit-all-gathers on");
}

// Accelerate's mixed_precision: the policy's dtype under Mixed; "no" for a model already in its
// dtype (Pure) or trained in fp32.
std::string accelerate_mixed_precision(const Scenario& s) {
    if (s.fsdp.precision == FsdpPrecision::Pure || s.training.precision == Precision::Fp32) return "no";
    return to_string(s.training.precision);
}

}  // namespace

std::string fsdp_layer_class(const std::string& family) {
    for (const auto& [f, cls] : kLayerClasses)
        if (f == family) return std::string(cls);
    return {};
}

std::string accelerate_fsdp_config_yaml(const Scenario& s) {
    check_exportable(s, "Accelerate");
    const ZeroSetup& z = s.zero;
    const bool fsdp2 = s.fsdp.engine == Engine::Fsdp2;
    // std::map: keys sorted, as accelerate's yaml.safe_dump(sort_keys=True) writes them.
    std::map<std::string, YAML::Node> fsdp;
    // FSDP's own activation checkpointing (each wrapped layer), which a Trainer script must not pair
    // with gradient_checkpointing=True (the hf-args export leaves it off).
    fsdp["fsdp_activation_checkpointing"] = YAML::Node(s.training.checkpointing != Checkpointing::None);
    const std::string cls = fsdp_layer_class(s.model.family);
    // Without a class here, Accelerate wraps the model's own _no_split_modules (utils/dataclasses.py).
    fsdp["fsdp_auto_wrap_policy"] = YAML::Node(std::string("TRANSFORMER_BASED_WRAP"));
    if (!cls.empty()) fsdp["fsdp_transformer_layer_cls_to_wrap"] = YAML::Node(cls);
    fsdp["fsdp_cpu_ram_efficient_loading"] = YAML::Node(true);
    fsdp["fsdp_offload_params"] = YAML::Node(z.offload_param == OffloadDevice::Cpu);
    fsdp["fsdp_state_dict_type"] = YAML::Node(std::string("SHARDED_STATE_DICT"));
    const bool hybrid = replicated_shard_groups(s).on();
    std::map<std::string, YAML::Node> parallelism;
    if (fsdp2) {
        // FSDP2: the strategy is reshard_after_forward (True: FULL_SHARD's, False: SHARD_GRAD_OP's);
        // the FSDP1-only keys (prefetch, use_orig_params, sync_module_states) are not written.
        fsdp["fsdp_reshard_after_forward"] = YAML::Node(z.stage == 3);
        fsdp["fsdp_version"] = YAML::Node(2);
        // Hybrid sharding under FSDP2 is a 2-D mesh (replicate, shard): Accelerate 1.10's
        // ParallelismConfig (parallelism_config.py; `accelerate launch` turns it on for a config
        // whose parallelism_config is not empty, and refuses it with FSDP1).
        if (hybrid) {
            parallelism["parallelism_config_dp_replicate_size"] = YAML::Node(s.cluster.nodes);
            parallelism["parallelism_config_dp_shard_size"] = YAML::Node(s.cluster.gpus_per_node);
        }
    } else {
        fsdp["fsdp_backward_prefetch"] = YAML::Node(std::string("BACKWARD_PRE"));
        fsdp["fsdp_forward_prefetch"] = YAML::Node(false);
        // Accelerate's FSDP_SHARDING_STRATEGY names (utils/constants.py): fsdp_strategy_name's.
        fsdp["fsdp_sharding_strategy"] =
            YAML::Node(fsdp_strategy_name(SetupKey{z.stage, OffloadDevice::None, OffloadDevice::None}, hybrid));
        fsdp["fsdp_sync_module_states"] = YAML::Node(true);  // forced on with cpu_ram_efficient_loading
        fsdp["fsdp_use_orig_params"] = YAML::Node(!s.finetune.adapters());
        fsdp["fsdp_version"] = YAML::Node(1);
    }

    // PEFT's FSDP guide (docs/source/accelerate/fsdp.md): use_orig_params false for the memory saving,
    // with the adapters wrapped apart from the frozen weights; the Trainer does that itself
    // (update_fsdp_plugin_peft), a custom loop must set PEFT's wrap policy before prepare.
    const std::string peft_note =
        s.finetune.adapters() && !fsdp2
            ? "# LoRA under FSDP1 with use_orig_params false (PEFT's FSDP guide): the Trainer wraps the adapters apart itself; "
              "in a custom\n# loop, before accelerator.prepare: accelerator.state.fsdp_plugin.auto_wrap_policy = "
              "peft.utils.other.fsdp_auto_wrap_policy(model)\n"
            : std::string();
    // Gradient accumulation (FsdpSetup::sync_each_batch) is the script's GradientAccumulationPlugin,
    // not a launcher key: accelerator.accumulate(model) runs no_sync unless sync_each_batch.
    const std::int64_t gas = gradient_accumulation_steps(s.training, data_parallel_size(s));
    std::string accumulation_note;
    if (gas > 1)
        accumulation_note =
            s.fsdp.sync_each_batch
                ? "# " + std::to_string(gas) +
                      " micro steps a step, reduced every micro step as planned: in the script, Accelerator(gradient_accumulation_plugin="
                      "GradientAccumulationPlugin(num_steps=" +
                      std::to_string(gas) + ", sync_each_batch=True))\n"
                : "# " + std::to_string(gas) +
                      " micro steps a step: accelerator.accumulate(model) runs the first ones under no_sync, each GPU keeping the whole "
                      "unsharded\n# gradient between them, as planned (--sync-each-batch on plans GradientAccumulationPlugin(sync_each_batch="
                      "True) instead)\n";
    return peft_note + accumulation_note + op_sac_note(s, "fsdp_activation_checkpointing") + fused_loss_lines(s, "# ") +
           accelerate_yaml(s, "FSDP", "fsdp_config", fsdp, accelerate_mixed_precision(s), parallelism);
}

std::string trainer_fsdp_arguments_text(const Scenario& s, const ExportOptions& o) {
    check_exportable(s, "Trainer");
    const ZeroSetup& z = s.zero;
    const bool fsdp2 = s.fsdp.engine == Engine::Fsdp2;
    // training_args.py FSDPOption: full_shard, shard_grad_op, no_shard, hybrid_shard,
    // hybrid_shard_zero2, offload, auto_wrap (fsdp_strategy_name's names in lower case). FSDP2's
    // hybrid mesh is the launcher's (a comment below), so its strategy is full_shard or shard_grad_op.
    const bool hybrid = replicated_shard_groups(s).on();
    std::string fsdp = fsdp_strategy_name(SetupKey{z.stage, OffloadDevice::None, OffloadDevice::None}, hybrid && !fsdp2);
    for (char& ch : fsdp) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    if (z.offload_param == OffloadDevice::Cpu) fsdp += " offload";
    fsdp += " auto_wrap";
    const std::string cls = fsdp_layer_class(s.model.family);
    const bool pure = s.fsdp.precision == FsdpPrecision::Pure;
    const bool recompute = s.training.checkpointing != Checkpointing::None;
    std::string py;
    py += "from transformers import TrainingArguments\n\n";
    py += "# " + engine_words(s) + ".\n";
    py += op_sac_note(s, "activation_checkpointing") + fused_loss_lines(s, "# ");
    if (hybrid && fsdp2)
        py +=
            "# Hybrid sharding under FSDP2 is a 2-D mesh: launch with accelerate launch --use_fsdp --fsdp_version 2 "
            "--use_parallelism_config\n# --parallelism_config_dp_replicate_size " +
            std::to_string(s.cluster.nodes) + " --parallelism_config_dp_shard_size " + std::to_string(s.cluster.gpus_per_node) +
            " (Accelerate 1.10+), or with the Accelerate YAML export.\n";
    if (pure && s.training.precision != Precision::Fp32)
        py += "# Load the model in " + std::string(to_string(s.training.precision)) + " (from_pretrained(..., torch_dtype=torch." +
              (s.training.precision == Precision::Bf16 ? "bfloat16" : "float16") +
              ")): parameters, gradients and AdamW's states stay 16-bit, as planned.\n";
    py += "args = TrainingArguments(\n";
    py += "    output_dir=\"output\",\n";
    py += "    fsdp=\"" + fsdp + "\",\n";
    py += "    fsdp_config={\n";
    if (!cls.empty()) py += "        \"transformer_layer_cls_to_wrap\": [\"" + cls + "\"],\n";
    // Recompute through FSDP's activation checkpointing, not gradient_checkpointing: the Trainer
    // raises "can't be set to True simultaneously" when both are on, and `accelerate launch` with the
    // exported YAML turns FSDP's on (trainer.py create_accelerator_and_postprocess).
    if (recompute) py += "        \"activation_checkpointing\": True,\n";
    if (fsdp2) {
        py += "        \"version\": 2,\n";
        py += std::string("        \"reshard_after_forward\": ") + (z.stage == 3 ? "True" : "False") + ",\n";
    } else {
        // Said explicitly: transformers v5 takes version 2 when fsdp_config names none, which drops
        // the FSDP1 knobs below without a word (its TrainingArguments fsdp_config default).
        py += "        \"version\": 1,\n";
        py += "        \"backward_prefetch\": \"backward_pre\",\n";
        py += "        \"forward_prefetch\": False,\n";
        py += std::string("        \"use_orig_params\": ") + (s.finetune.adapters() ? "False" : "True") + ",\n";
        py += "        \"sync_module_states\": True,\n";
        py += "        \"limit_all_gathers\": True,\n";
    }
    py += "        \"cpu_ram_efficient_loading\": True,\n";
    // What the host-RAM plan saves: each rank its own shards. The Trainer's default is
    // FULL_STATE_DICT (training_args.py _process_fsdp_args: fsdp_config.get("state_dict_type",
    // "FULL_STATE_DICT")), which gathers the whole model and optimizer state on rank 0's host.
    py += "        \"state_dict_type\": \"SHARDED_STATE_DICT\",\n";
    py += "    },\n";
    // Gradient accumulation as planned (FsdpSetup::sync_each_batch): the Trainer reduces every micro
    // step only when told (accelerator_config gradient_accumulation_kwargs), and only a training loop
    // that reads plugin_kwargs["sync_each_batch"] does (recent transformers; releases whose loop
    // wraps every micro step but the last in accelerator.no_sync unconditionally run no_sync).
    if (gradient_accumulation_steps(s.training, data_parallel_size(s)) > 1) {
        if (s.fsdp.sync_each_batch)
            py +=
                "    accelerator_config={\"gradient_accumulation_kwargs\": {\"sync_each_batch\": True}},  # reduce every micro step, as planned "
                "(a recent transformers' loop reads it)\n";
        else
            py +=
                "    # Micro steps but the last run under no_sync: each GPU keeps the whole unsharded gradient between them, as\n"
                "    # planned; accelerator_config={\"gradient_accumulation_kwargs\": {\"sync_each_batch\": True}} trades it for a\n"
                "    # reduce-scatter" +
                std::string(hybrid ? " and an all-reduce across nodes" : "") + " a micro step (plan it with --sync-each-batch on).\n";
    }
    py += training_arguments_batch_lines(s, o);
    py += training_arguments_optimizer_lines(s, o);
    // --bf16 with FSDP: the Trainer hands Accelerate mixed_precision, which builds MixedPrecision.
    py += std::string("    bf16=") + (!pure && s.training.precision == Precision::Bf16 ? "True" : "False") + ",\n";
    py += std::string("    fp16=") + (!pure && s.training.precision == Precision::Fp16 ? "True" : "False") + ",\n";
    py +=
        std::string("    gradient_checkpointing=False,") + (recompute ? "  # FSDP's activation_checkpointing above recomputes" : "") + "\n";
    // CPUOffload steps torch.optim on CPU tensors: fused AdamW runs there only from PyTorch 2.4
    // (pytorch#123074); before, fused=True raises for CPU parameters. The foreach kernel runs on both.
    const bool cpu_step = z.offload_param == OffloadDevice::Cpu;
    py += std::string("    optim=\"") + trainer_optim_name(s.training, s.training.fused_optimizer && !cpu_step) + "\"," +
          (cpu_step && s.training.fused_optimizer ? "  # foreach on the CPU shards: fused AdamW runs on CPU from PyTorch 2.4" : "") + "\n";
    if (s.training.loss_kernel == LossKernel::Chunked) py += "    use_liger_kernel=True,\n";
    py += ")\n";
    return py;
}

}  // namespace zp
