#include "core/deepspeed/megatron_launch.h"

#include "core/deepspeed/config_export.h"
#include "core/deepspeed/framework_exports.h"

#include "core/base/errors.h"
#include "core/base/format.h"

#include "core/model/enum_names.h"
#include "core/model/experts.h"
#include "core/model/mics.h"
#include "core/presets/gpu_presets.h"

#include <algorithm>
#include <cmath>

namespace zp {
namespace {

// Megatron-DeepSpeed's MoE arguments (megatron/arguments.py: --num-experts, a list per MoE layer
// position allowed; --expert-interval, default 2, written as 1 with the list; --topk; --mlp-type residual for an always-on MLP
// beside the experts, DeepSpeed's use_residual; --moe-expert-parallel-size; --moe-train-capacity-factor;
// --moe-min-capacity; --create-moe-param-group, which ZeRO needs to partition the experts over the
// expert-data-parallel group). megatron/model/transformer.py builds DeepSpeed's MoE layer from them.
std::string moe_flags(const Scenario& s) {
    const ModelSpec& m = s.model;
    const auto flag = [](const std::string& name, const std::string& v) { return " \\\n  --" + name + " " + v; };
    std::string experts = std::to_string(m.experts);
    if (m.first_dense_layers > 0 || m.moe_layer_step > 1) {
        // One entry per layer with --expert-interval 1 (transformer.py get_num_experts_per_layer: layer
        // l+1 has a mixture when (l+1) % interval == 0, taking the list's entry): 1 "expert" for the
        // first dense layers and, interleaved (Llama-4 Maverick's interleave_moe_layer_step), the
        // dense layers between mixtures; the mixtures where the model has them (is_moe_layer).
        experts.clear();
        for (std::int64_t l = 0; l < m.layers; ++l) experts += (l ? " " : "") + std::to_string(is_moe_layer(m, l) ? m.experts : 1);
    }
    std::string out = flag("num-experts", experts) + flag("expert-interval", "1") + flag("topk", std::to_string(m.experts_per_token)) +
                      flag("moe-expert-parallel-size", std::to_string(s.parallel.expert)) +
                      flag("moe-train-capacity-factor", format_general(s.training.capacity_factor)) +
                      flag("moe-min-capacity", std::to_string(deepspeed_moe::kMinCapacity)) + " \\\n  --create-moe-param-group";
    if (m.shared_experts > 0) out += flag("mlp-type", "residual");
    // Without expert parallelism the plan is the model's own dropless MoE: drop_tokens=False
    // ("equivalent to infinite capacity", moe/layer.py) is the DeepSpeed layer closest to it.
    if (s.parallel.expert <= 1) out += " \\\n  --disable-moe-token-dropping";
    return out;
}

// Megatron-DeepSpeed's own DeepSpeed-Ulysses splits the fused QKV output into equal query, key and
// value widths (megatron/model/transformer.py ParallelAttention.forward: "if
// self.enable_ds_sequence_parallel: assert self.projection_size == self.kv_projection_size"), so it
// stops at the first forward with grouped key/value heads; DeepSpeed's Ulysses for Hugging Face
// models (runtime/sequence_parallel/ulysses_sp.py) handles them.
void refuse_ulysses_with_grouped_kv(const Scenario& s) {
    const ModelSpec& m = s.model;
    if (s.parallel.ulysses <= 1 || m.kv_heads == m.heads) return;
    throw InputError(
        "Megatron-DeepSpeed's DeepSpeed-Ulysses (--ds-sequence-parallel-size) asserts the key/value projection as wide "
        "as the query's (megatron/model/transformer.py ParallelAttention: projection_size == kv_projection_size), and "
        "this model has " +
        std::to_string(m.kv_heads) + " key/value heads for " + std::to_string(m.heads) +
        " query heads: export --format deepspeed, accelerate or hf-trainer (DeepSpeed's Ulysses for Hugging Face "
        "models handles grouped key/value heads), or plan without --sp");
}

// Rotary positions: no learned table, no T5 relative buckets, not BLOOM's ALiBi (which the
// microsoft fork has no flag for; BigScience's fork takes --position-embedding-type alibi).
bool uses_rope(const ModelSpec& m) { return m.positions == 0 && m.relative_attention_buckets == 0 && m.family != "bloom"; }

// The model's positions and biases as Megatron-DeepSpeed's flags say them (megatron/arguments.py):
// learned absolute positions and biased linears are its defaults; --use-rotary-position-embeddings
// turns the learned table off (add_position_embedding = False); --disable-bias-linear drops every
// linear's bias at once (dest add_bias_linear).
std::string position_and_bias_flags(const ModelSpec& m) {
    std::string out;
    if (uses_rope(m)) out += " \\\n  --use-rotary-position-embeddings";
    if (!m.qkv_bias && !m.out_bias && !m.mlp_bias) out += " \\\n  --disable-bias-linear";
    return out;
}

// Megatron-DeepSpeed with --deepspeed and a pipeline trains DeepSpeed's PipelineEngine
// (megatron/training.py train_step: model[0].train_batch), which has no interleaved schedule, and
// hands deepspeed.initialize only the first of get_model's virtual chunks (model=model[0]).
void refuse_interleaved(const Scenario& s) {
    if (s.parallel.virtual_stages <= 1 || s.parallel.pipeline <= 1) return;
    throw InputError(
        "Megatron-DeepSpeed's DeepSpeed pipeline (PipelineEngine.train_batch) has no interleaved schedule, and with "
        "--deepspeed only the first of the " +
        std::to_string(s.parallel.virtual_stages) +
        " model chunks reaches deepspeed.initialize (megatron/training.py): plan --pp-schedule 1f1b for it, or run "
        "Megatron-LM (Megatron-Core), whose interleaved schedule the plan's step models");
}

// FlashAttention-2 (--use-flash-attn-v2: megatron/model/transformer.py imports flash_attn 2) runs
// on Ampere and newer (flash-attention README, "FlashAttention-2 currently supports: Ampere, Ada, or
// Hopper GPUs"): the parts with bf16 tensor cores; not on Volta (sm70) or Turing.
bool flash_attention_2_runs_on(const GpuSpec& gpu) { return gpu_time_traits(gpu).bf16_tensor_cores; }

// LoRA, QLoRA and frozen layers are PEFT's and the Trainer's; Megatron-DeepSpeed's pretrain_gpt.py
// trains every weight of a model it builds in 16 bits, so its script would be a different run.
void refuse_adapters(const Scenario& s) {
    if (!s.finetune.adapters() && !s.finetune.freeze_embeddings && s.finetune.freeze_layers == 0) return;
    throw InputError(
        "Megatron-DeepSpeed's pretrain_gpt.py trains every weight (no LoRA, 4-bit base or frozen layers): export "
        "--format hf-trainer, hf-args, accelerate or peft for this fine-tune, or plan it with --finetune full");
}

// Megatron computes its own loss (megatron/core/tensor_parallel/cross_entropy.py
// vocab_parallel_cross_entropy, which up-casts the logits): a plan with Liger's or flash-attn's
// fused loss would be a different run.
void refuse_loss_kernel(const Scenario& s) {
    if (s.training.loss_kernel == LossKernel::Full || s.training.loss_kernel == LossKernel::Shifted) return;
    throw InputError(
        std::string("Megatron-DeepSpeed computes its own loss (vocab_parallel_cross_entropy over up-cast logits), not the ") +
        to_string(s.training.loss_kernel) +
        " loss planned: plan it with --loss-kernel full, or export --format hf-args or accelerate for a script that computes it");
}

// Its optimizers are Adam (apex's FusedAdam in AdamW mode, or DeepSpeedCPUAdam) and SGD
// (get_megatron_optimizer: "optimizer is not supported" for any other; "CPU offloading is for Adam").
void refuse_optimizer(const Scenario& s) {
    const Optimizer o = s.training.optimizer;
    const bool sgd = o == Optimizer::Sgd || o == Optimizer::SgdMomentum;
    if (o == Optimizer::AdamW || o == Optimizer::Adam || (sgd && s.zero.offload_optimizer == OffloadDevice::None)) return;
    throw InputError(std::string("Megatron-DeepSpeed builds Adam or SGD itself (megatron/optimizer get_megatron_optimizer), and ") +
                     (sgd ? "offloads only Adam (\"CPU offloading is for Adam\")" : std::string("not ") + to_string(o)) +
                     ": plan with --optimizer adamw, or export --format deepspeed for a script that builds it");
}

// Megatron-DeepSpeed builds the optimizer itself and passes it to deepspeed.initialize
// (megatron/training.py setup_model_and_optimizer -> megatron/optimizer get_megatron_optimizer), so
// the ds_config's "optimizer" block is not read: the plan's learning rate, betas and weight decay go as its flags
// (megatron/arguments.py: --lr has no default, --weight-decay 0.01 and --adam-beta2 0.999 are not the
// recipe's). With the optimizer offloaded DeepSpeed refuses any client optimizer but its CPU Adam
// ("You are using ZeRO-Offload with a client provided optimizer", engine.py _configure_optimizer),
// which get_megatron_optimizer builds under --cpu-optimizer.
std::string optimizer_flags(const Scenario& s) {
    const Hyperparameters h = recipe_hyperparameters(s);
    const auto number = [](const std::string& name, double v) { return " \\\n  --" + name + " " + format_general(v); };
    if (s.training.optimizer == Optimizer::Sgd || s.training.optimizer == Optimizer::SgdMomentum)
        // --sgd-momentum defaults to 0.9, the exports' momentum (config_export.cpp); plain SGD has none.
        return " \\\n  --optimizer sgd" + (s.training.optimizer == Optimizer::Sgd ? number("sgd-momentum", 0) : std::string()) +
               number("lr", h.learning_rate) + number("weight-decay", 0);
    // No --clip-grad: with --deepspeed get_megatron_optimizer returns before the wrappers that read
    // it, and DeepSpeed clips with the ds_config's gradient_clipping.
    std::string out = number("lr", h.learning_rate) + number("weight-decay", h.weight_decay) + number("adam-beta1", h.beta1) +
                      number("adam-beta2", optimizer_beta2(s.training.optimizer, h)) + number("adam-eps", h.eps);
    if (s.zero.offload_optimizer != OffloadDevice::None) out += " \\\n  --cpu-optimizer";
    return out;
}

// pretrain_gpt.py stops without a length ("either train-iters or train-samples should be provided",
// megatron/training.py get_optimizer_param_scheduler). The plan's token budget
// (Assumptions::token_budget, which the step's time line reads) is a default the user's dataset
// replaces: TRAIN_ITERS, set before the launch line, defaults to the budget's steps at the plan's
// global batch of its sequences.
std::string training_length_lines(const Scenario& s) {
    const std::int64_t global = effective_global_batch(s.training, data_parallel_size(s));
    const double tokens_per_step = static_cast<double>(global) * static_cast<double>(s.training.seq_len);
    const auto steps =
        std::max<std::int64_t>(static_cast<std::int64_t>(std::ceil(s.assumptions.token_budget / std::max(tokens_per_step, 1.0))), 1);
    return "TRAIN_ITERS=${TRAIN_ITERS:-" + std::to_string(steps) + "}  # the plan's " + format_count(s.assumptions.token_budget) +
           " tokens at " + std::to_string(global) + " x " + std::to_string(s.training.seq_len) +
           " tokens a step; set it for your dataset\n\n";
}

// The script's comment lines: what the launch line cannot say and the user must do or know.
std::string script_notes(const Scenario& s) {
    const Cluster& c = s.cluster;
    const Parallelism& p = s.parallel;
    const ModelSpec& m = s.model;
    const Training& t = s.training;
    std::string sh;
    // Megatron's "adam" is AdamW: apex's FusedAdam (adam_w_mode defaults to True) or DeepSpeedCPUAdam
    // (adamw_mode defaults to True), neither switched off by megatron/optimizer.
    if (t.optimizer == Optimizer::Adam)
        sh +=
            "# Adam (planned): Megatron-DeepSpeed's adam decouples the weight decay (AdamW); the plan's memory and time are "
            "the same.\n";
    if (t.flash_attention && !flash_attention_2_runs_on(c.gpu))
        sh +=
            "# No --use-flash-attn-v2: FlashAttention-2 needs an Ampere or newer GPU, so Megatron-DeepSpeed runs its own "
            "attention here, which keeps the s x s scores the plan's flash attention does not (plan with --flash-attention off).\n";
    if (s.zero.linear_tile_factor > 1 && s.zero.stage == 3)
        // DeepSpeedExamples' Megatron-LM-v1.1.5-ZeRO3 (megatron/model/transformer.py, at 4d8be374) builds
        // its linears as deepspeed.zero.TiledLinearReturnBias under these flags; Megatron-DeepSpeed's
        // megatron/arguments.py parses the same two flags but its model code never reads them.
        sh += "# TiledLinear (tile factor " + std::to_string(s.zero.linear_tile_factor) +
              ", planned): DeepSpeedExamples' Megatron-LM-v1.1.5-ZeRO3 builds it with --memory-centric-tiled-linear "
              "--tile-factor " +
              std::to_string(s.zero.linear_tile_factor) +
              "; Megatron-DeepSpeed parses those flags but builds no TiledLinear: wrap the linears in your model code.\n";
    if (m.experts > 1) {
        sh += "# Experts: DeepSpeed-MoE with ep_size " + std::to_string(p.expert) +
              " (a model-code argument, not a ds_config key: --moe-expert-parallel-size below).\n";
        if (m.shared_experts > 0 || m.first_dense_layers > 0)
            sh +=
                "# --ffn-hidden-size is the experts' width; the shared experts (--mlp-type residual: one MLP of that width) and the first "
                "dense layers are approximations of the model's own.\n";
    }
    // tensor_replicates_kv_groups: Megatron-DeepSpeed's ParallelAttention divides num_key_value_heads
    // by the tensor size (megatron/model/transformer.py core.utils.divide) and stops there.
    if (tensor_replicates_kv_groups(m, p.tensor))
        sh += "# Warning: tensor " + std::to_string(p.tensor) + " is more than the " + std::to_string(m.kv_heads) +
              " key/value heads: Megatron-DeepSpeed refuses it (megatron/model/transformer.py divides num_key_value_heads by the "
              "tensor size); Megatron-Core 0.16 or later runs it, all-gathering each layer's QKV output over the tensor ranks "
              "(Megatron-LM's pretrain_gpt.py with these model and parallel sizes; --use-distributed-optimizer partitions "
              "the optimizer states as ZeRO-1 does).\n";
    // Parallelism::pipeline_send: Megatron-DeepSpeed's pipeline is DeepSpeed's PipelineEngine, which
    // with tensor parallelism sends each tensor rank a t-th of a stage's output and all-gathers it
    // at the receiver (runtime/pipe/engine.py pipe_partitioned, grad_partitioned: on by default); the
    // plan's ds_config switches them off where it sends whole (config_export.cpp), which releases
    // before v0.12.3 do not read.
    if (pipeline_sends_whole_over_tensor_ranks(s))
        sh += std::string("# Note: the plan sends each activation whole from every tensor rank between pipeline stages") +
              (m.experts > 1 ? " (a mixture: GPTModelPipe asserts DeepSpeed's pipe and grad partitioning off)" : "") +
              "; its ds_config sets pipeline.pipe_partitioned and grad_partitioned to false, which DeepSpeed reads from "
              "v0.12.3 (earlier releases slice it whatever the config says).\n";
    // pretrain_gpt.py builds the model under deepspeed.zero.Init(enabled=args.zero_stage == 3), which
    // MiCS_Optimizer refuses (mics.py: "please use deepspeed.zero.MiCS_Init instead").
    if (effective_mics(s).on())
        sh +=
            "# Warning: MiCS needs the model built under deepspeed.zero.MiCS_Init: replace pretrain_gpt.py's deepspeed.zero.Init "
            "context with deepspeed.zero.MiCS_Init (same arguments), or MiCS_Optimizer stops at deepspeed.initialize.\n";
    // A fine-tune of a published model: pretrain_gpt.py builds it with random weights, and
    // Megatron-DeepSpeed reads Hugging Face weights only once converted to its checkpoint layout
    // (tools/hf2megads_weight_converter.py, examples_deepspeed/finetune_hf_llama/finetune_llama.sh).
    if (s.job == Job::FullFineTune)
        sh +=
            "# Fine-tune: pretrain_gpt.py starts from random weights. Convert the Hugging Face checkpoint first "
            "(Megatron-DeepSpeed's tools/hf2megads_weight_converter.py, at these tensor and pipeline sizes; "
            "examples_deepspeed/finetune_hf_llama) and add --load <converted checkpoint> --finetune.\n";
    if (uses_rope(m))
        sh +=
            "# RoPE: Megatron-DeepSpeed's theta is 10000 unless --rotary-position-embeddings-theta gives the model's rope_theta "
            "(its config.json: Llama 2's is 10000, Llama 3's 500000; Llama 3.1's rope_scaling has no Megatron-DeepSpeed flag).\n";
    if (m.qkv_bias != m.out_bias || m.qkv_bias != m.mlp_bias)
        sh +=
            "# Biases: Megatron-DeepSpeed's linears all take one or none (--disable-bias-linear); the model's own, on some "
            "only, are what the plan counts.\n";
    return sh;
}

}  // namespace

std::string megatron_launch_script(const Scenario& s, const std::string& config_path, const std::string& script) {
    refuse_adapters(s);
    refuse_optimizer(s);
    refuse_loss_kernel(s);
    refuse_ulysses_with_grouped_kv(s);
    refuse_interleaved(s);
    const Cluster& c = s.cluster;
    const Parallelism& p = s.parallel;
    const ModelSpec& m = s.model;
    const Training& t = s.training;
    const std::int64_t g = c.gpus_per_node, n = c.nodes;
    const auto flag = [](const std::string& name, std::int64_t v) { return " \\\n  --" + name + " " + std::to_string(v); };
    std::string sh = "#!/usr/bin/env bash\n# Megatron-DeepSpeed: tensor " + std::to_string(p.tensor) + " x pipeline " +
                     std::to_string(p.pipeline) + (p.ulysses > 1 ? " x sequence " + std::to_string(p.ulysses) : std::string()) +
                     " x data " + std::to_string(data_parallel_size(s)) + " on " + std::to_string(c.world_size()) +
                     (c.world_size() == 1 ? " GPU (" : " GPUs (") + std::to_string(n) + " node" + (n > 1 ? "s" : "") + " x " +
                     std::to_string(g) + ").\n";
    sh += script_notes(s);
    // What pretrain_gpt.py cannot start without and the plan does not know: the dataset (a
    // tools/preprocess_data.py prefix) and the tokenizer (HFTokenizer from the model's Hugging Face
    // directory, as examples_deepspeed/finetune_hf_llama runs it): build_tokenizer raises for none.
    sh += "set -euo pipefail\n\n";
    sh += ": \"${DATA_PATH:?set DATA_PATH to the dataset prefix tools/preprocess_data.py wrote (its .bin and .idx)}\"\n";
    sh += ": \"${TOKENIZER:?set TOKENIZER to the model's Hugging Face directory or hub id (HFTokenizer)}\"\n";
    sh += training_length_lines(s);
    // Megatron's sequence parallelism needs CUDA_DEVICE_MAX_CONNECTIONS=1 (megatron/arguments.py raises
    // "Using sequence parallelism requires setting the environment variable CUDA_DEVICE_MAX_CONNECTIONS
    // to 1"); DeepSpeed's multi-node launcher passes on only NCCL_, PYTHON... variables and the lines
    // of .deepspeed_env (launcher/runner.py EXPORT_ENVS, DEEPSPEED_ENVIRONMENT_NAME).
    if (p.sequence_parallel) {
        sh += "export CUDA_DEVICE_MAX_CONNECTIONS=1\n";
        if (n > 1)
            sh +=
                "grep -qx 'CUDA_DEVICE_MAX_CONNECTIONS=1' .deepspeed_env 2>/dev/null || "
                "echo 'CUDA_DEVICE_MAX_CONNECTIONS=1' >> .deepspeed_env\n";
        sh += "\n";
    }
    std::string launcher = "deepspeed --num_gpus " + std::to_string(g);
    if (n > 1) {
        sh += hostfile_lines(n, g);
        launcher = "deepspeed --hostfile hostfile --num_nodes " + std::to_string(n) + " --num_gpus " + std::to_string(g);
    }
    sh += launcher + " " + script;
    sh += flag("tensor-model-parallel-size", p.tensor) + flag("pipeline-model-parallel-size", p.pipeline);
    // Without a pipeline Megatron-DeepSpeed must be told to use DeepSpeed's plain engine.
    if (p.pipeline == 1) sh += " \\\n  --no-pipeline-parallel";
    if (p.sequence_parallel) sh += " \\\n  --sequence-parallel";
    if (m.experts > 1) sh += moe_flags(s);
    // DeepSpeed-Ulysses (megatron/arguments.py --ds-sequence-parallel-size).
    if (p.ulysses > 1) sh += flag("ds-sequence-parallel-size", p.ulysses);
    sh += flag("num-layers", m.layers) + flag("hidden-size", m.hidden) + flag("ffn-hidden-size", m.experts > 1 ? expert_ffn(m) : m.ffn) +
          flag("num-attention-heads", m.heads);
    if (m.kv_heads != m.heads) sh += flag("num-key-value-heads", m.kv_heads);
    if (m.gated_mlp) sh += " \\\n  --swiglu";
    if (m.norm == NormKind::RmsNorm) sh += " \\\n  --normalization rmsnorm";
    if (!m.tied_embeddings) sh += " \\\n  --untie-embeddings-and-output-weights";
    sh += position_and_bias_flags(m);
    sh += flag("seq-length", t.seq_len) + flag("max-position-embeddings", t.seq_len) + flag("micro-batch-size", t.micro_batch) +
          flag("global-batch-size", effective_global_batch(t, data_parallel_size(s)));
    if (t.precision == Precision::Bf16) sh += " \\\n  --bf16";
    if (t.precision == Precision::Fp16) sh += " \\\n  --fp16";
    // Megatron has no op-level selective checkpointing: a selective-op plan recomputes whole layers here.
    if (t.checkpointing == Checkpointing::Full || t.checkpointing == Checkpointing::SelectiveOp)
        sh += " \\\n  --recompute-granularity full --recompute-method uniform --deepspeed-activation-checkpointing";
    if (t.checkpointing == Checkpointing::Selective) sh += " \\\n  --recompute-granularity selective";
    if (t.flash_attention && flash_attention_2_runs_on(c.gpu)) sh += " \\\n  --use-flash-attn-v2";
    sh += optimizer_flags(s) + " \\\n  --train-iters \"$TRAIN_ITERS\"";
    sh += " \\\n  --data-path \"$DATA_PATH\" \\\n  --tokenizer-type HFTokenizer \\\n  --tokenizer-model \"$TOKENIZER\"";
    sh += flag("zero-stage", s.zero.stage) + " \\\n  --deepspeed --deepspeed_config " + config_path + "\n";
    return sh;
}

}  // namespace zp
