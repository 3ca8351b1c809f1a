#include "core/deepspeed/framework_exports.h"

#include "core/deepspeed/accelerate_yaml.h"
#include "core/model/deepspeed_release.h"
#include "core/model/mics.h"

#include "core/base/format.h"

#include <nlohmann/json.hpp>

#include <yaml-cpp/yaml.h>

#include <cstdio>
#include <map>

namespace zp {

using nlohmann::ordered_json;

nlohmann::ordered_json hf_trainer_config(const Scenario& s, const ExportOptions& o) {
    ordered_json j = deepspeed_config(s, o);
    // trainer_config_process: batch sizes, clipping, optimizer params, fp16/bf16 enabled.
    j["train_batch_size"] = "auto";
    j["train_micro_batch_size_per_gpu"] = "auto";
    j["gradient_accumulation_steps"] = "auto";
    j["gradient_clipping"] = "auto";
    // Only what trainer_config_process fills (lr, betas, eps, weight_decay): another "auto", SGD's
    // momentum, would reach torch.optim.SGD as the string "auto".
    if (j.contains("optimizer"))
        for (auto& [key, value] : j["optimizer"]["params"].items())
            if (key == "lr" || key == "betas" || key == "eps" || key == "weight_decay") value = "auto";
    // warmup_min_lr is filled with 0, warmup_max_lr with the learning rate, the step counts in
    // trainer_config_finalize.
    j["scheduler"] = {
        {"type", "WarmupDecayLR"},
        {"params", {{"warmup_min_lr", "auto"}, {"warmup_max_lr", "auto"}, {"warmup_num_steps", "auto"}, {"total_num_steps", "auto"}}}};
    if (j.contains("bf16") && s.training.precision == Precision::Bf16) j["bf16"]["enabled"] = "auto";
    if (j.contains("fp16")) j["fp16"]["enabled"] = "auto";
    // trainer_config_finalize fills these from the model's hidden size (h*h, 0.9*h*h, 10*h).
    auto& z = j["zero_optimization"];
    if (z.contains("reduce_bucket_size")) z["reduce_bucket_size"] = "auto";
    if (s.zero.stage == 3) {
        z["stage3_prefetch_bucket_size"] = "auto";
        z["stage3_param_persistence_threshold"] = "auto";
    }
    return j;
}

std::string hf_trainer_config_text(const Scenario& s, const ExportOptions& o) { return hf_trainer_config(s, o).dump(2) + "\n"; }

namespace {

// The rendezvous port written for a multi-node Accelerate config: torchrun's default
// --master-port (torch/distributed/run.py), which Accelerate's launcher also uses when
// main_process_port is unset (accelerate/utils/launch.py).

std::string number(double v) { return format_general(v); }

// The versions sequence parallelism under Accelerate needs: Accelerate 1.12's prepare refuses an
// older DeepSpeed ("Deepspeed ALST/Ulysses requires deepspeed>=0.18.2", accelerator.py; the Hugging
// Face blog ulysses-sp.md says 0.18.1); the Trainer's parallelism_config and TRL's from the same blog.
constexpr const char* kSpRequirements = "deepspeed>=0.18.2 accelerate>=1.12";
constexpr const char* kSpTrainerRequirements = "transformers>=5.0 (TRL's SFTTrainer: trl>=0.18.0)";

// DeepSpeedSequenceParallelConfig's sp_attn_implementation (Accelerate's sequence_parallelism.md: one
// of sdpa, flash_attention_2 or flash_attention_3; "eager can't work here").
const char* sp_attention(const Scenario& s) { return s.training.flash_attention ? "flash_attention_2" : "sdpa"; }

// The gradient_checkpointing_kwargs the script passes, as Python: written whenever the plan
// recomputes, so that any transformers runs the recompute the plan counts (the Trainer's default was
// re-entrant before 5.0, PR #43203). Re-entrant where the release needs it (recompute_must_reenter);
// non-reentrant for adapters, as PEFT's DeepSpeed guide runs them (--use_reentrant False: the
// re-entrant variant drops the gradients of a block whose input needs none); else as the plan says
// (Training::reentrant_recompute).
bool exports_reentrant_recompute(const Scenario& s) {
    return recompute_must_reenter(s) || (!s.finetune.adapters() && s.training.reentrant_recompute);
}
std::string checkpointing_kwargs(const Scenario& s) {
    return exports_reentrant_recompute(s) ? "{\"use_reentrant\": True}" : "{\"use_reentrant\": False}";
}

// Why the recompute re-enters, as comment lines after `prefix`: the release's reason
// (recompute_must_reenter), and with frozen embeddings the input gradients a re-entrant block needs.
std::string reentrant_recompute_lines(const Scenario& s, const std::string& prefix) {
    std::string out;
    if (recompute_must_reenter(s))
        out += prefix + "Re-entrant recompute: at ZeRO-3, DeepSpeed before 0.19.3 frees a frozen weight that a non-reentrant\n" + prefix +
               "  checkpoint still holds (\"CheckpointError: Recomputed values ... have different metadata\": DeepSpeed\n" + prefix +
               "  #4332, fixed by #8148 in 0.19.3); TRL forces re-entrant for PEFT at ZeRO-3 too.\n";
    if (exports_reentrant_recompute(s) && !s.finetune.adapters() && s.finetune.freeze_embeddings)
        out += prefix + "With the embeddings frozen, call model.enable_input_require_grads() first: a re-entrant checkpoint whose\n" +
               prefix + "  input needs no gradient gives its block none (PEFT does it for adapters).\n";
    return out;
}

// What the plan counts on that no config file holds, as comment lines after `prefix` ("# "): the ALST
// pieces Transformers lacks (its deepspeed_alst.md: "The full ALST system also includes TiledMLP and
// activation checkpoint offloading, which aren't available in Transformers"), the allocator setting and
// Liger-Kernel. `trainer`: the lines go beside TrainingArguments, which already say use_liger_kernel.
std::string outside_config_lines(const Scenario& s, const std::string& prefix, bool trainer) {
    const Training& t = s.training;
    std::string out;
    const auto line = [&](const std::string& text) { out += prefix + text + "\n"; };
    if (!trainer && t.checkpointing != Checkpointing::None) {
        // The Trainer's arguments carry gradient_checkpointing=True (hf_training_arguments_text); a
        // script under Accelerate or the deepspeed launcher turns it on itself
        // (PreTrainedModel.gradient_checkpointing_enable). The ds_config's activation_checkpointing
        // configures deepspeed.checkpointing, which Hugging Face models do not call.
        line("Recompute (planned: " + std::string(to_string(t.checkpointing)) +
             "): a Hugging Face model checkpoints its layers only when the script calls");
        const std::string kwargs = checkpointing_kwargs(s);
        line(std::string("  model.gradient_checkpointing_enable(gradient_checkpointing_kwargs=") + kwargs +
             ") before deepspeed.initialize (or accelerator.prepare); the ds_config's");
        line("  activation_checkpointing reaches deepspeed.checkpointing (Megatron-style) models only.");
    }
    // The TrainingArguments say it beside gradient_checkpointing_kwargs (hf_training_arguments_text).
    if (!trainer && t.checkpointing != Checkpointing::None) out += reentrant_recompute_lines(s, prefix);
    out += fused_loss_lines(s, prefix);
    if (t.checkpointing == Checkpointing::SelectiveOp) {
        line("Recompute selective-op (planned) is torchtitan's op-level selective checkpointing (--activation_checkpoint.mode selective");
        line("  --activation_checkpoint.selective_ac_option op): Hugging Face's gradient checkpointing recomputes whole layers instead,");
        line("  which takes less memory and more time than planned; for the plan, wrap each decoder layer in");
        line("  torch.utils.checkpoint.checkpoint with a create_selective_checkpoint_contexts policy that saves every other mm.");
    }
    if (t.tiled_mlp) {
        line("TiledMLP (planned) is not in Transformers (\"TiledMLP and activation checkpoint offloading, which aren't available in");
        line("  Transformers\", its deepspeed_alst.md): monkey-patch the model's MLP forward to run");
        line("  deepspeed.runtime.sequence_parallel.ulysses_sp.TiledMLP.apply (DeepSpeed's ALST tutorial, \"Tiled MLP computation\":");
        line("  modeling_llama.LlamaMLP.forward = tiled_mlp_forward_common), or train with ArcticTraining (tiled_mlp_compute: true).");
    }
    if (t.cpu_checkpointing && t.checkpointing == Checkpointing::Full) {
        line("Activation checkpoint offload (planned: the checkpointed layer inputs wait in host memory) is not in Transformers either:");
        line("  run each step's forward and backward inside one");
        line("  deepspeed.runtime.activation_checkpointing.offload_activations.get_checkpoint_hidden_states_offloading_ctx_manager()");
        line(
            "  (non-reentrant checkpointing, DeepSpeed's ALST tutorial), or train with ArcticTraining (activation_checkpoint_cpu_offload:");
        line("  true). The ds_config's activation_checkpointing.cpu_checkpointing reaches deepspeed.checkpointing models only.");
    }
    if (s.zero.linear_tile_factor > 1 && s.zero.stage == 3) {
        // deepspeed/runtime/zero/tiling.py: a module of the model's code, not a config key.
        line("TiledLinear (planned, tile factor " + std::to_string(s.zero.linear_tile_factor) +
             ") is model code: build each layer's linears as deepspeed.zero.TiledLinear(in_features, out_features,");
        line("  in_splits=" + std::to_string(s.zero.linear_tile_factor) + " x in_features / hidden, out_splits=" +
             std::to_string(s.zero.linear_tile_factor) + " x out_features / hidden), so ZeRO-3 gathers one tile at a time.");
    }
    // PyTorch 2.9 renamed the variable PYTORCH_ALLOC_CONF and warns that the old name is deprecated,
    // but 2.9.1 reads expandable_segments for CUDA from the old name only (pytorch/pytorch#183387).
    if (t.expandable_segments) {
        line("Before launching: export PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True (planned; DeepSpeed's ALST tutorial).");
        line("  Keep that name despite PyTorch 2.9's deprecation warning: 2.9.1 ignores expandable_segments under");
        line("  PYTORCH_ALLOC_CONF for CUDA (pytorch/pytorch#183387).");
    }
    if (t.fp8_gemms && (trainer || s.parallel.ulysses > 1)) {
        // TrainingArguments has no FP8 switch and a ds_config no FP8 key: Accelerate's mixed_precision
        // fp8 converts the model to Transformer Engine (accelerate utils/transformer_engine.py).
        if (s.parallel.ulysses > 1) {
            line("FP8 matmuls (planned) cannot be set here: beside deepspeed_config_file Accelerate refuses mixed_precision");
            line("  (DeepSpeedPlugin._deepspeed_config_checks); convert the model yourself (transformer_engine.pytorch modules under");
            line("  fp8_autocast) or plan without --fp8.");
        } else {
            line("FP8 matmuls (planned) come from Accelerate, not from these settings: pip install transformer-engine, then launch with");
            line(
                "  accelerate launch --config_file accelerate_config.yaml (zero-planner export --format accelerate: mixed_precision: fp8).");
        }
    }
    if (t.fp8_gemms && t.fp8_scaling == Fp8Scaling::Mxfp8) {
        // Accelerate's DeepSpeed branch wraps the model with the recipe of FP8RecipeKwargs alone
        // (accelerator.py _prepare_deepspeed at 16cb6eb: apply_fp8_autowrap(model, self.fp8_recipe_handler);
        // none given, TE's DelayedScaling), so no config file or environment selects MXFP8 there.
        line("MXFP8 (planned) is not read from a config on Accelerate's DeepSpeed path: it builds the FP8 recipe from FP8RecipeKwargs");
        line("  alone (accelerator.py _prepare_deepspeed), else per-tensor DelayedScaling. In the training script:");
        line("  Accelerator(mixed_precision=\"fp8\", kwargs_handlers=[FP8RecipeKwargs(backend=\"te\", use_mxfp8_block_scaling=True)])");
        if (trainer) line("  (the Trainer makes its own Accelerator: override create_accelerator_and_postprocess, or plan --fp8 on).");
    }
    if (effective_mics(s).on()) {
        // mics.py MiCS_Optimizer asserts its parameters carry MiCS_CommGroups ("Might due to the use of
        // deepspeed.zero.Init context ... please use deepspeed.zero.MiCS_Init instead"); transformers
        // builds a ZeRO-3 model under plain zero.Init once TrainingArguments or Accelerate's
        // zero3_init_flag has registered the config (HfDeepSpeedConfig), and a model built without
        // any Init is sharded by deepspeed.initialize through MiCS_Init (MiCS_Offload).
        line("MiCS (planned) refuses a model built under deepspeed.zero.Init: " +
             std::string(trainer ? "load the model before creating TrainingArguments (after it, from_pretrained builds under zero.Init)"
                                 : "the Accelerate config's zero3_init_flag is off (export --format accelerate), so nothing builds it "
                                   "under zero.Init") +
             ",");
        line("  or build it under deepspeed.zero.MiCS_Init(config_dict_or_path=...) in the script; deepspeed.initialize shards a model");
        line(
            "  built without it through MiCS_Init, after each rank has held it whole in host memory (more than the plan's zero.Init load).");
    }
    if (t.loss_kernel == LossKernel::Chunked && !trainer) {
        line("Liger-Kernel's fused linear cross-entropy (planned: the full logits are never made): pip install liger-kernel, then");
        line(
            "  use_liger_kernel=True in TrainingArguments / SFTConfig, or liger_kernel.transformers.AutoLigerKernelForCausalLM in a custom loop.");
    }
    return out;
}
}  // namespace

std::string fused_loss_lines(const Scenario& s, const std::string& prefix) {
    if (s.training.loss_kernel != LossKernel::Xentropy) return {};
    return prefix + "A fused cross-entropy (planned: the 16-bit logits and their gradient, no fp32 copy) is not Transformers' loss:\n" +
           prefix +
           "  compute it with flash_attn.losses.cross_entropy.CrossEntropyLoss (pip install flash-attn) over the logits and the\n" +
           prefix + "  shifted labels, as the Trainer's compute_loss_func or in the loop (llm-foundry's loss_fn: fused_crossentropy).\n";
}

std::string training_arguments_batch_lines(const Scenario& s, const ExportOptions& o) {
    const Hyperparameters h = hyperparameters(s, o);
    const std::int64_t dp = data_parallel_size(s);
    const std::int64_t gas = gradient_accumulation_steps(s.training, dp);
    // With Ulysses the ranks of a group share one sequence: deepspeed_alst.md "The effective
    // dp_world_size = world_size / sp_size".
    const std::string ranks = s.parallel.ulysses > 1
                                  ? std::to_string(dp) + " data-parallel group" + (dp == 1 ? "" : "s") + " (" +
                                        std::to_string(s.cluster.world_size()) + " GPUs / SP " + std::to_string(s.parallel.ulysses) + ")"
                              : s.cluster.world_size() == 1 ? std::string("1 GPU")
                                                            : std::to_string(s.cluster.world_size()) + " GPUs";
    return "    per_device_train_batch_size=" + std::to_string(s.training.micro_batch) + ",\n" +
           "    gradient_accumulation_steps=" + std::to_string(gas) + ",  # x " + ranks + " = " +
           std::to_string(s.training.micro_batch * gas * dp) + " sequences per step\n" + "    learning_rate=" + number(h.learning_rate) +
           ",\n" + "    weight_decay=" + number(h.weight_decay) + ",\n";
}

std::string training_arguments_optimizer_lines(const Scenario& s, const ExportOptions& o) {
    const Hyperparameters h = hyperparameters(s, o);
    return "    adam_beta1=" + number(h.beta1) + ",\n" + "    adam_beta2=" + number(optimizer_beta2(s.training.optimizer, h)) + ",\n" +
           "    adam_epsilon=" + number(h.eps) + ",\n" + "    max_grad_norm=" + number(h.gradient_clipping) + ",\n";
}

std::string parallelism_config_text(const Scenario& s) {
    const std::int64_t sp = s.parallel.ulysses, dp = data_parallel_size(s);
    std::string py;
    py += "# DeepSpeed-Ulysses sequence parallelism " + std::to_string(sp) + " (ALST): " + std::to_string(dp) + " data-parallel group" +
          (dp == 1 ? "" : "s") + " of " + std::to_string(sp) + " GPUs, each group one sequence split " + std::to_string(sp) + " ways.\n";
    py += "# Requires " + std::string(kSpRequirements) + " " + kSpTrainerRequirements + ".\n";
    py += "parallelism_config = ParallelismConfig(\n";
    py += "    sp_backend=\"deepspeed\",\n";
    py += "    sp_size=" + std::to_string(sp) + ",\n";
    py += "    dp_shard_size=" + std::to_string(dp) + ",  # dp_replicate 1 x dp_shard " + std::to_string(dp) + " x sp " +
          std::to_string(sp) + " = " + std::to_string(s.cluster.world_size()) + " processes\n";
    py += "    sp_handler=DeepSpeedSequenceParallelConfig(\n";
    py += "        sp_seq_length_is_variable=True,\n";
    py += "        sp_attn_implementation=\"" + std::string(sp_attention(s)) + "\",\n";
    py += "    ),\n";
    py += ")\n";
    py += "# \"Sequences must also be padded to a multiple of sp_size\" (Transformers' deepspeed_alst.md): give the collator\n";
    py += "# pad_to_multiple_of=" + std::to_string(sp) +
          " (DataCollatorForLanguageModeling(tokenizer, mlm=False, pad_to_multiple_of=" + std::to_string(sp) +
          ")), or TRL's SFTConfig pad_to_multiple_of=" + std::to_string(sp) + ".\n";
    return py;
}

std::string hf_training_arguments_text(const Scenario& s, const ExportOptions& o, const std::string& config_path) {
    const bool sp = s.parallel.ulysses > 1;
    std::string py;
    if (sp) py += "from accelerate.utils import DeepSpeedSequenceParallelConfig, ParallelismConfig\n";
    py += "from transformers import TrainingArguments\n\n";
    if (sp) py += parallelism_config_text(s) + "\n";
    if (const std::string outside = outside_config_lines(s, "#   ", true); !outside.empty())
        py += "# Outside this file:\n" + outside + "\n";
    py += "# The values transformers copies into the \"auto\" fields of " + config_path + ".\n";
    if (s.zero.stage >= 1)
        py += "# \"auto\" reduce_bucket_size becomes hidden_size^2 (the planner sized " + number(s.zero.reduce_bucket_elems) +
              "): replace it with an integer to keep the planned buffers.\n";
    // trainer_config_finalize's other two (integrations/deepspeed.py): 0.9 h^2 and 10 h at stage 3.
    if (s.zero.stage == 3)
        py +=
            "# At stage 3 \"auto\" stage3_prefetch_bucket_size becomes 0.9 x hidden_size^2 and stage3_param_persistence_threshold "
            "10 x hidden_size (the planner sized " +
            number(s.zero.stage3_prefetch_bucket_elems) + " and " + number(s.zero.stage3_param_persistence_threshold) +
            "): replace them with integers to keep the planned sizes.\n";
    py += "args = TrainingArguments(\n";
    py += "    output_dir=\"output\",\n";
    py += "    deepspeed=\"" + config_path + "\",\n";
    if (sp) py += "    parallelism_config=parallelism_config,\n";
    py += training_arguments_batch_lines(s, o);
    py += training_arguments_optimizer_lines(s, o);
    py += std::string("    bf16=") + (s.training.precision == Precision::Bf16 ? "True" : "False") + ",\n";
    py += std::string("    fp16=") + (s.training.precision == Precision::Fp16 ? "True" : "False") + ",\n";
    py += std::string("    gradient_checkpointing=") + (s.training.checkpointing == Checkpointing::None ? "False" : "True") + ",\n";
    if (s.training.checkpointing != Checkpointing::None)
        py += reentrant_recompute_lines(s, "    # ") + "    gradient_checkpointing_kwargs=" + checkpointing_kwargs(s) + ",\n";
    if (!deepspeed_config(s, o).contains("optimizer")) {
        // The Trainer's own optimizer for the planned one.
        const bool bnb = s.training.optimizer_storage != OptimizerStorage::Standard;
        py += "    optim=\"" + std::string(trainer_optim_name(s.training)) + "\",  # " + (bnb ? "bitsandbytes" : "torch.optim") +
              ": the DeepSpeed config has no \"optimizer\" block\n";
    }
    if (s.training.loss_kernel == LossKernel::Chunked)
        py += "    use_liger_kernel=True,  # Liger's fused linear cross-entropy: the full logits are never made\n";
    py += ")\n";
    return py;
}

const char* trainer_optim_name(const Training& t, bool fused) {
    // bitsandbytes' optimizers (training_args.py OptimizerNames ADAMW_BNB, PAGED_ADAMW, PAGED_ADAMW_8BIT,
    // LION_8BIT, PAGED_LION, PAGED_LION_8BIT); Adam has no bitsandbytes name of its own in the
    // Trainer and takes AdamW's (its weight_decay, 0 by default, makes them the same update).
    const bool lion = t.optimizer == Optimizer::Lion;
    switch (t.optimizer_storage) {
    case OptimizerStorage::EightBit: return lion ? "lion_8bit" : "adamw_bnb_8bit";
    case OptimizerStorage::Paged: return lion ? "paged_lion_32bit" : "paged_adamw_32bit";
    case OptimizerStorage::PagedEightBit: return lion ? "paged_lion_8bit" : "paged_adamw_8bit";
    case OptimizerStorage::Standard: break;
    }
    switch (t.optimizer) {
    case Optimizer::Sgd:
    case Optimizer::SgdMomentum: return "sgd";
    case Optimizer::Adagrad: return "adagrad";
    case Optimizer::Lion: return "lion_32bit";
    default: return fused ? "adamw_torch_fused" : "adamw_torch";
    }
}

namespace {

// The parallelism_config block of Accelerate's sequence_parallelism.md, dp_shard taking the
// data-parallel ranks ("You must ensure dp_replicate_size x dp_shard_size x sp_size = num_processes").
std::map<std::string, YAML::Node> parallelism_block(const Scenario& s) {
    std::map<std::string, YAML::Node> p;
    p["parallelism_config_dp_replicate_size"] = YAML::Node(1);
    p["parallelism_config_dp_shard_size"] = YAML::Node(data_parallel_size(s));
    p["parallelism_config_sp_size"] = YAML::Node(s.parallel.ulysses);
    p["parallelism_config_sp_backend"] = YAML::Node(std::string("deepspeed"));
    p["parallelism_config_sp_seq_length_is_variable"] = YAML::Node(true);
    p["parallelism_config_sp_attn_implementation"] = YAML::Node(std::string(sp_attention(s)));
    return p;
}

// The export options that pin this plan's setup, so `export --format deepspeed` with the user's
// other options writes the ds_config of this plan and not of a new search: the Hugging Face formats
// plan data parallelism alone and without ZeRO++ on auto (app/cli/commands/export.cpp), where the
// deepspeed format may search Megatron layouts and ZeRO++.
std::string pinned_plan_options(const Scenario& s) {
    const ZeroSetup& z = s.zero;
    const auto on_off = [](bool b) { return std::string(b ? "on" : "off"); };
    std::string o = "--stage " + std::to_string(z.stage);
    if (z.offload_optimizer != OffloadDevice::None) o += " --offload-optimizer " + std::string(to_string(z.offload_optimizer));
    if (z.offload_param != OffloadDevice::None) o += " --offload-param " + std::string(to_string(z.offload_param));
    o += " --micro-batch " + std::to_string(s.training.micro_batch) + " --global-batch " +
         std::to_string(effective_global_batch(s.training, data_parallel_size(s))) + " --checkpointing " +
         std::string(to_string(s.training.checkpointing));
    o += " --reduce-bucket-size " + format_general(z.reduce_bucket_elems) + " --overlap-comm " + on_off(z.overlap_comm);
    o += " --tp " + std::to_string(s.parallel.tensor) + " --pp " + std::to_string(s.parallel.pipeline);
    if (s.parallel.ulysses > 1) o += " --sp " + std::to_string(s.parallel.ulysses);
    if (zeropp_switches(z).any())
        o += " --hpz-size " + std::to_string(z.hpz_partition_size) + " --quantized-weights " + on_off(z.quantized_weights) +
             " --quantized-gradients " + on_off(z.quantized_gradients);
    else if (z.stage == 3) o += " --zeropp off";
    return o;
}

// The comments above a sequence-parallel YAML: the product, where the DeepSpeed settings are, the
// versions, and the command-line and environment forms of the block.
std::string sequence_parallel_header(const Scenario& s, const std::string& config_path) {
    const std::string sp = std::to_string(s.parallel.ulysses), dp = std::to_string(data_parallel_size(s));
    const std::string world = std::to_string(s.cluster.world_size());
    std::string h;
    h += "# DeepSpeed-Ulysses sequence parallelism " + sp + " (ALST) under Accelerate: dp_replicate 1 x dp_shard " + dp + " x sp " + sp +
         " = " + world + " processes\n";
    h += "# (Accelerate's sequence_parallelism.md: \"You must ensure dp_replicate_size x dp_shard_size x sp_size = num_processes\").\n";
    h += "# ZeRO, the batch, the precision, sequence_parallel_size and seq_parallel_communication_data_type are in " + config_path + "\n";
    h += "# (zero-planner export --format deepspeed -o " + config_path + ", your options and " + pinned_plan_options(s) +
         ");\n# beside deepspeed_config_file Accelerate refuses mixed_precision and\n";
    h += "# its own ZeRO keys here (DeepSpeedPlugin._deepspeed_config_checks). Requires " + std::string(kSpRequirements) + ".\n";
    h += "# Launch: accelerate launch --config_file accelerate_config.yaml train.py; another degree on the command line (the block\n";
    h += "# below turns the parallelism config on; keep the product):\n";
    h += "#   accelerate launch --config_file accelerate_config.yaml --parallelism-config-sp-size " + sp +
         " --parallelism-config-dp-shard-size " + dp + " train.py\n";
    h += "# The same as environment variables (Accelerator() reads them with ACCELERATE_USE_PARALLELISM_CONFIG=true):\n";
    h += "#   PARALLELISM_CONFIG_DP_SHARD_SIZE=" + dp + " PARALLELISM_CONFIG_SP_SIZE=" + sp + " PARALLELISM_CONFIG_SP_BACKEND=deepspeed\n";
    h += "#   PARALLELISM_CONFIG_SP_SEQ_LENGTH_IS_VARIABLE=true PARALLELISM_CONFIG_SP_ATTN_IMPLEMENTATION=" + std::string(sp_attention(s)) +
         "\n";
    h += "# Pad every batch to a multiple of " + sp + " tokens (DeepSpeed's UlyssesSPDataLoaderAdapter splits it " + sp + " ways).\n";
    return h;
}

// A ds_config with an "optimizer" block under Accelerate: the script's optimizer is a DummyOptim.
std::string dummy_optim_note(const Scenario& s, const ExportOptions& o) {
    if (!deepspeed_config(s, o).contains("optimizer")) return {};
    return "# Its \"optimizer\" block is DeepSpeed's (FusedAdam, or CPU Adam with offload): create the optimizer in the script as\n"
           "# accelerate.utils.DummyOptim(model.parameters(), lr=...); Accelerate refuses a second one (accelerator.py _prepare_deepspeed).\n";
}

// The comments above a YAML that points at the plan's ds_config: where it comes from and what a
// training script does with its optimizer block.
std::string deepspeed_file_header(const Scenario& s, const ExportOptions& o, const std::string& config_path) {
    std::string h = "# ZeRO, the batch, the precision and the buffers are in " + config_path +
                    " (zero-planner export --format deepspeed -o " + config_path + ", your options and\n# " + pinned_plan_options(s) +
                    ");\n# beside deepspeed_config_file Accelerate refuses mixed_precision and its own ZeRO keys here "
                    "(DeepSpeedPlugin._deepspeed_config_checks).\n";
    h += dummy_optim_note(s, o);
    h += "# Launch: accelerate launch --config_file accelerate_config.yaml train.py\n";
    return h;
}

}  // namespace

std::string accelerate_config_yaml(const Scenario& s, const ExportOptions& o, const std::string& config_path) {
    const std::string outside = outside_config_lines(s, "#   ", false);
    const std::string outside_header = outside.empty() ? std::string() : "# Outside this file:\n" + outside;
    // The DeepSpeed block points at the plan's ds_config, as `accelerate config` writes it for a file
    // (commands/config/cluster.py: deepspeed_config_file and zero3_init_flag, mixed_precision None).
    // Accelerate's own DeepSpeed keys (zero_stage, the offload devices, ...) would build a ds_config
    // of their own (utils/dataclasses.py DeepSpeedPlugin.__post_init__) without overlap_comm (DeepSpeed's
    // default: off below stage 3), the bucket, prefetch and live-parameter sizes, ZeRO++, MiCS,
    // pin_memory or bf16 master weights: a run that is not the plan. Sequence parallelism needs keys
    // only a ds_config holds too (sequence_parallel_size, read when zero.Init builds its config without
    // Accelerate's mpu; seq_parallel_communication_data_type), with Accelerate's parallelism block.
    // FP8 without it is the exception: beside deepspeed_config_file Accelerate refuses mixed_precision,
    // which FP8 needs; that plan keeps the keys and its header names what they do not carry.
    const bool sequence_parallel = s.parallel.ulysses > 1;
    if (sequence_parallel || !s.training.fp8_gemms) {
        std::map<std::string, YAML::Node> ds;
        ds["deepspeed_config_file"] = YAML::Node(config_path);
        // Off with MiCS, whose optimizer refuses a model built under plain zero.Init (outside_config_lines).
        ds["zero3_init_flag"] = YAML::Node(s.zero.stage == 3 && s.zero.zero_init && !effective_mics(s).on());
        const std::string header = sequence_parallel ? sequence_parallel_header(s, config_path) + dummy_optim_note(s, o)
                                                     : deepspeed_file_header(s, o, config_path);
        const std::map<std::string, YAML::Node> parallelism =
            sequence_parallel ? parallelism_block(s) : std::map<std::string, YAML::Node>{};
        return header + outside_header + accelerate_yaml(s, "DEEPSPEED", "deepspeed_config", ds, "", parallelism);
    }
    const std::int64_t gas = gradient_accumulation_steps(s.training, data_parallel_size(s));
    const ZeroSetup& z = s.zero;
    // std::map: keys sorted, as accelerate's yaml.safe_dump(sort_keys=True) writes them.
    std::map<std::string, YAML::Node> ds;
    ds["gradient_accumulation_steps"] = YAML::Node(gas);
    ds["gradient_clipping"] = YAML::Node(hyperparameters(s, o).gradient_clipping);
    ds["offload_optimizer_device"] = YAML::Node(std::string(to_string(z.offload_optimizer)));
    ds["offload_param_device"] = YAML::Node(std::string(z.stage == 3 ? to_string(z.offload_param) : "none"));
    if (z.offload_optimizer == OffloadDevice::Nvme) ds["offload_optimizer_nvme_path"] = YAML::Node(o.nvme_path);
    if (z.stage == 3 && z.offload_param == OffloadDevice::Nvme) ds["offload_param_nvme_path"] = YAML::Node(o.nvme_path);
    if (z.stage == 3) {
        ds["zero3_init_flag"] = YAML::Node(z.zero_init);
        ds["zero3_save_16bit_model"] = YAML::Node(true);
    }
    ds["zero_stage"] = YAML::Node(z.stage);

    const std::string fp8_header =
        "# FP8 needs mixed_precision here, which Accelerate refuses beside deepspeed_config_file: these keys build Accelerate's own\n"
        "# ds_config, without the plan's overlap_comm, bucket sizes, ZeRO++, MiCS and pin_memory (DeepSpeed's defaults apply).\n";
    return fp8_header + outside_header +
           accelerate_yaml(s, "DEEPSPEED", "deepspeed_config", ds,
                           s.training.precision == Precision::Fp32 ? "no" : to_string(s.training.precision));
}

std::string hostfile_lines(std::int64_t nodes, std::int64_t gpus_per_node) {
    const std::string slots = " slots=" + std::to_string(gpus_per_node);
    std::string sh = "# One line per node: host name and GPU slots (DeepSpeed's hostfile format). Edit the names.\n";
    if (nodes <= kHostfileNodesListed) {
        sh += "cat > hostfile <<'HOSTS'\n";
        for (std::int64_t i = 0; i < nodes; ++i) sh += "node-" + std::to_string(i) + slots + "\n";
        sh += "HOSTS\n\n";
    } else {
        sh += "for i in $(seq 0 " + std::to_string(nodes - 1) + "); do echo \"node-$i" + slots + "\"; done > hostfile\n\n";
    }
    return sh;
}

std::string launch_script(const Scenario& s, const std::string& config_path, const std::string& script) {
    const std::int64_t g = s.cluster.gpus_per_node, n = s.cluster.nodes;
    std::string sh = "#!/usr/bin/env bash\n# Launch the planned run: " + std::to_string(n * g) + (n * g == 1 ? " GPU (" : " GPUs (") +
                     std::to_string(n) + " node" + (n > 1 ? "s" : "") + " x " + std::to_string(g) + ").\n";
    if (s.parallel.expert > 1)
        sh += "# Expert parallelism " + std::to_string(s.parallel.expert) +
              ": ep_size is an argument of deepspeed.moe.layer.MoE in the model code, not a ds_config key; give the optimizer\n"
              "# deepspeed.moe.utils.split_params_into_different_moe_groups_for_optimizer(param_groups) so that ZeRO partitions the\n"
              "# experts over the expert-data-parallel group.\n";
    if (const std::string outside = outside_config_lines(s, "#   ", false); !outside.empty()) sh += "# Outside this file:\n" + outside;
    sh += "set -euo pipefail\n\n";
    if (n == 1) {
        sh += "deepspeed --num_gpus " + std::to_string(g) + " " + script + " --deepspeed " + config_path + "\n";
    } else {
        sh += hostfile_lines(n, g);
        sh += "deepspeed --hostfile hostfile --num_nodes " + std::to_string(n) + " --num_gpus " + std::to_string(g) + " " + script +
              " --deepspeed " + config_path + "\n";
    }
    sh += "\n# Or with Accelerate (zero-planner export --format accelerate -o accelerate_config.yaml):\n";
    sh += "# accelerate launch --config_file accelerate_config.yaml " + script + "\n";
    return sh;
}

}  // namespace zp
