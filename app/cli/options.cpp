#include "app/cli/options.h"

#include "core/deepspeed/export_formats.h"
#include "core/io/hf_config.h"
#include "core/model/enum_names.h"
#include "core/presets/cluster_presets.h"
#include "core/presets/gpu_presets.h"
#include "core/presets/model_presets.h"

#include <algorithm>
#include <array>
#include <vector>

namespace zp::cli {
namespace opt {
namespace {
using G = OptionGroup;
using S = ApplyStep;
template <class E>
std::string words() {
    return choice_list<E>();
}
}  // namespace

// The defaults named in the help are the default scenario's (core/presets/default_scenario.cpp)
// and docs/design.md §8.3's; the ranges each option accepts are core/model/limits.h's.
// clang-format off
constinit const Option model{"--model", "NAME", "a preset:", G::Model, S::Model, nullptr, model_preset_names};
constinit const Option params{"--params", "N", "a bare size (7e9, 7B, 70b); the architecture is synthesized", G::Model, S::Model};
constinit const Option hf_config{"--hf-config", "FILE", "a Hugging Face config.json of a supported model type:", G::Model, S::Model, nullptr, supported_hf_model_types};
constinit const Option layers{"--layers", "N", "transformer layers (a custom model needs --layers, --hidden and --heads)", G::Model, S::Model};
constinit const Option hidden{"--hidden", "N", "hidden size", G::Model, S::Model};
constinit const Option heads{"--heads", "N", "attention heads", G::Model, S::Model};
constinit const Option kv_heads{"--kv-heads", "N", "key/value heads (default: the attention heads)", G::Model, S::Model};
constinit const Option ffn{"--ffn", "N", "feed-forward size (default 4 x hidden)", G::Model, S::Model};
constinit const Option vocab{"--vocab", "N", "vocabulary size (default 51200)", G::Model, S::Model};
constinit const Option residual_dropout{"--residual-dropout", "on|off", "a dropout on the MLP's output in training (GPT-2's, Phi-2's and T5's; the gpt2 and t5 presets on): a non-reentrant recompute then re-runs the down projection", G::Model, S::Model};
constinit const Option mlp_activation{"--mlp-activation", "", "how the MLP activation runs: fused (one kernel: F.gelu, F.silu, Megatron's bias_gelu) or gelu-new (transformers' gelu_new, eight kernels: the gpt2 presets and GPT-2/Phi-2 configs)", G::Model, S::Model, words<MlpActivation>};

constinit const Option cluster{"--cluster", "NAME", "a node preset (default dgx-a100):", G::Cluster, S::Cluster, nullptr, cluster_preset_names};
constinit const Option gpus{"--gpus", "N", "total GPUs (default: one node of the GPU's usual node preset, 8 A100s without --gpu)", G::Cluster, S::Cluster};
constinit const Option gpus_per_node{"--gpus-per-node", "G", "GPUs per node", G::Cluster, S::Cluster};
constinit const Option gpu{"--gpu", "NAME", "a GPU preset, on its usual node's host without --cluster:", G::Cluster, S::Cluster, nullptr, gpu_preset_names};
constinit const Option gpu_mem{"--gpu-mem", "GIB", "GPU memory, GiB", G::Cluster, S::Cluster};
constinit const Option cpu_ram{"--cpu-ram", "GIB", "host RAM per node, GiB", G::Cluster, S::Cluster};
constinit const Option nvme{"--nvme", "GIB", "NVMe per node, GiB", G::Cluster, S::Cluster};
constinit const Option intra_bw{"--intra-bw", "GBPS", "intra-node GB/s per GPU", G::Network, S::Cluster};
constinit const Option inter_bw{"--inter-bw", "GBITPS", "inter-node Gbit/s per node", G::Network, S::Cluster};
constinit const Option nics{"--nics", "N", "the NICs that bandwidth runs over (default: one per GPU; dgx-2 8, rtx4090-box 1)", G::Network, S::Cluster};
constinit const Option pcie_bw{"--pcie-bw", "GBPS", "host link GB/s per GPU", G::Network, S::Cluster};
constinit const Option nvme_bw{"--nvme-bw", "GBPS", "NVMe GB/s per node", G::Network, S::Cluster};

constinit const Option job{"--job", "", "what the run is for, with its usual settings (the training and fine-tuning options after it override):", G::Training, S::Training, words<Job>};
constinit const Option precision{"--precision", "", "training precision (default bf16; fp16 on a GPU without bf16 tensor cores, the V100)", G::Training, S::Training, words<Precision>};
constinit const Option optimizer{"--optimizer", "", "the optimizer", G::Training, S::Training, words<Optimizer>};
constinit const Option seq{"--seq", "S", "sequence length in tokens (4096)", G::Training, S::Training};
constinit const Option micro_batch{"--micro-batch", "B", "micro batch per GPU (1)", G::Training, S::Training};
constinit const Option global_batch{"--global-batch", "GB", "global batch (auto: 64, or one sequence per data-parallel rank for --job long-context, raised to a multiple of micro x ranks)", G::Training, S::Training};
constinit const Option checkpointing{"--checkpointing", "", "activation recompute", G::Training, S::Training, words<Checkpointing>};
constinit const Option flash_attention{"--flash-attention", "on|off", "FlashAttention", G::Training, S::Training};
constinit const Option attention_softmax{"--attention-softmax", "", "without flash attention: unfused (Hugging Face's eager attention: scale, masks and softmax as separate kernels) or fused (Megatron's FusedScaleMaskSoftmax)", G::Training, S::Training, words<AttentionSoftmax>};
constinit const Option lm_head{"--lm-head", "", "where the logits' weight is read: module (Hugging Face's lm_head) or embedding-weight (Megatron's GPT: the tied word embedding read in the model's forward, which ZeRO-3 keeps gathered through forward and backward)", G::Training, S::Training, words<LmHead>};
constinit const Option cpu_checkpointing{"--cpu-checkpointing", "on|off", "checkpointed activations kept in host RAM", G::Training, S::Training};
constinit const Option fp8{"--fp8", "on|mxfp8|off",
                            "FP8 matmuls through Accelerate (mixed_precision fp8), bf16 only: Transformer Engine's per-tensor DelayedScaling (on) "
                            "or MXFP8 blocks of 32 (mxfp8; compute capability 10: B200, B300, GB200, GB300)",
                            G::Training, S::Training};
constinit const Option partition_activations{"--partition-activations", "on|off",
                                              "checkpointed activations split over the tensor ranks (DeepSpeed's partition_activations)",
                                              G::Training, S::Training};
constinit const Option loss_upcast{"--loss-upcast", "on|off", "on: fp32 logits in the loss", G::Training, S::Training};
constinit const Option loss_kernel{"--loss-kernel", "", "the loss kernel (chunked: Liger; xentropy: flash-attn's fused cross-entropy, llm-foundry's default)", G::Training, S::Training, words<LossKernel>};
constinit const Option grad_accumulation{"--grad-accumulation", "", "where the micro batches' gradients are summed at ZeRO 0/1: autograd (DeepSpeed's engine), main-grad (Megatron-LM's main_grad hook), fused (Megatron-LM's --gradient-accumulation-fusion: no pass), bf16-optimizer (DeepSpeed's BF16_Optimizer: into an fp32 copy)", G::Training, S::Training, words<GradientAccumulation>};
constinit const Option kv_cache{"--kv-cache", "on|off", "the model returns every layer's keys and values in training (use_cache left on, as with checkpointing applied outside transformers)", G::Training, S::Training};
constinit const Option keep_outputs{"--keep-outputs", "on|off", "the training loop keeps the model's output (outputs = model(**batch)): its logits through the backward, until the next forward returns", G::Training, S::Training};
constinit const Option reentrant_recompute{"--reentrant-recompute", "on|off", "a DeepSpeed plan's recompute re-runs each whole block: re-entrant checkpointing (the Trainer before transformers 5.0); off: non-reentrant, stopping at a block's last saved tensor (transformers 5, the exports). FSDP plans use FSDP's own", G::Training, S::Training};
constinit const Option logit_metrics{"--logit-metrics", "N", "cross-entropy metrics the training loop computes over each micro batch's logits after its backward (0; Composer's train metrics in llm-foundry: 2)", G::Training, S::Training};
constinit const Option tiled_mlp{"--tiled-mlp", "on|off", "ALST's TiledMLP: the MLP in shards of the sequence, recomputed in backward", G::Training, S::Training};
constinit const Option expandable_segments{"--expandable-segments", "on|off", "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True", G::Training, S::Training};
constinit const Option kernel_index{"--kernel-index", "int32|int64", "how the kernels index a tensor: int32 (FlashAttention-2, Liger before #804) stops a rank at 2^31 elements of [tokens x hidden]", G::Training, S::Training};
constinit const Option alst{"--alst", "on|off", "Arctic Long Sequence Training: tiled MLP, tiled loss, checkpoints in host RAM, full recompute, flash attention, expandable segments (the options after it override)", G::Training, S::Training};
constinit const Option fused_optimizer{"--fused-optimizer", "on|off", "on: DeepSpeed's FusedAdam; off: torch.optim, with temporaries", G::Training, S::Training};
constinit const Option optimizer_storage{"--optimizer-storage", "", "the optimizer's moments: standard (fp32), or bitsandbytes' 8bit, paged (fp32 in CUDA managed memory, evicted to host RAM when the card is full), paged-8bit", G::Training, S::Training, words<OptimizerStorage>};
constinit const Option load_dtype{"--load-dtype", "fp32|16bit", "the dtype the weights load in (16bit: transformers v5's default and the exports'; fp32: before v5)", G::Training, S::Training};
constinit const Option low_cpu_mem_usage{"--low-cpu-mem-usage", "on|off", "on: the model built on the meta device, no checkpoint shard beside it (transformers 4.51 and later always; off: the default before 4.51)", G::Training, S::Training};
constinit const Option transformers_release{"--transformers-release", "X.Y[.Z]",
                                           "the transformers release the run uses: sets --load-dtype, --low-cpu-mem-usage, "
                                           "--reentrant-recompute and the Hugging Face model's own loss (--loss-kernel full; shifted before 4.46) "
                                           "as it behaves (each given beside it wins); without it, today's (5.0 or later)",
                                           G::Training, S::Training};
constinit const Option dataloader_workers{"--dataloader-workers", "N", "data loader worker processes per process (0)", G::Training, S::Training};
constinit const Option data_seconds_per_sample{"--data-seconds-per-sample", "S",
                                               "the data pipeline's seconds to produce one sample on a process (read, tokenize, "
                                               "collate; 0: it keeps up): a step waits for what loading takes past the rest of it",
                                               G::Training, S::Training};

constinit const Option stage{"--stage", "0..3", "the ZeRO stage", G::Zero, S::Zero};
constinit const Option offload_optimizer{"--offload-optimizer", "", "where the optimizer states live", G::Zero, S::Zero, words<OffloadDevice>};
constinit const Option offload_param{"--offload-param", "", "where the parameters live (stage 3)", G::Zero, S::Zero, words<OffloadDevice>};
constinit const Option overlap_comm{"--overlap-comm", "on|off", "overlap the gradient reduction with the backward pass", G::Zero, S::Zero};
constinit const Option reduce_bucket_size{"--reduce-bucket-size", "N", "reduce_bucket_size, elements", G::Zero, S::Zero};
constinit const Option allgather_bucket_size{"--allgather-bucket-size", "N", "allgather_bucket_size, elements", G::Zero, S::Zero};
constinit const Option max_live_params{"--max-live-params", "N",
                                       "stage3_max_live_parameters, elements (1e9): ZeRO-3's prefetch keeps this many gathered through "
                                       "forward and backward; lower it to save GPU memory",
                                       G::Zero, S::Zero};
constinit const Option zero_init{"--zero-init", "on|off", "zero.Init: parameters are partitioned as they are created", G::Zero, S::Zero};
constinit const Option pin_memory{"--pin-memory", "on|off", "on: pinned offload buffers", G::Zero, S::Zero};
constinit const Option host_grad_buffer{"--host-grad-buffer", "on|off",
                                        "stage 3 with optimizer offload: DeepSpeed >= 0.6's 16-bit gradient buffer in host RAM (on); off: the "
                                        "2021 releases ZeRO-Infinity was measured on",
                                        G::Zero, S::Zero};
constinit const Option multi_rank_allreduce{"--multi-rank-allreduce", "on|off",
                                            "ZeRO-2: each gradient bucket all-reduced whole (on: use_multi_rank_bucket_allreduce, "
                                            "DeepSpeed's default since v0.12.4) or reduced to its owners rank by rank (off; earlier releases)",
                                            G::Zero, S::Zero};
constinit const Option deepspeed_release{"--deepspeed-release", "X.Y[.Z]",
                                         "the DeepSpeed release the run uses: sets --host-grad-buffer, --multi-rank-allreduce, "
                                         "--prefetch-to-max-live and --hpz-recompute as it behaves (each given beside it wins); "
                                         "without it, today's releases",
                                         G::Zero, S::Zero};
constinit const Option prefetch_to_max_live{"--prefetch-to-max-live", "on|off",
                                            "ZeRO-3: the prefetch runs ahead until stage3_max_live_parameters are gathered (on: DeepSpeed "
                                            ">= 0.6.0) or keeps one prefetch bucket in flight (off; earlier releases)",
                                            G::Zero, S::Zero};
constinit const Option hpz_recompute{"--hpz-recompute", "on|off",
                                     "ZeRO++ with full recompute: a recomputed layer's gathers read hpZ's secondary partition (on: "
                                     "DeepSpeed >= 0.13.2) or go over every rank as the forward's (off; earlier releases)",
                                     G::Zero, S::Zero};
constinit const Option bf16_master_weights{"--bf16-master-weights", "on|off",
                                           "DeepSpeed's bf16_master_weights_and_grads with bf16_optimizer_states: master weights, the "
                                           "stepped gradient and the optimizer states in bf16 (stage 1-3, bf16, no optimizer offload)",
                                           G::Zero, S::Zero};
constinit const Option save_16bit_model{"--save-16bit-model", "on|off", "stage 3: gather the 16-bit weights on save", G::Zero, S::Zero};
constinit const Option zeropp{"--zeropp", "off|hpz|hpz+qwz+qgz|auto", "ZeRO++ at stage 3: hpZ over the node, int8 weights, int4 gradients; on = all three; auto: the recommender tries the three across nodes and keeps the fastest (default for full training on > 1 node)", G::Zero, S::Zero};
constinit const Option hpz_size{"--hpz-size", "K", "zero_hpz_partition_size (1 = off)", G::Zero, S::Zero};
constinit const Option hpz{"--hpz", "K", "the same as --hpz-size", G::Zero, S::Zero};
constinit const Option quantized_weights{"--quantized-weights", "on|off", "ZeRO++ int8 weights (qwZ)", G::Zero, S::Zero};
constinit const Option quantized_gradients{"--quantized-gradients", "on|off", "ZeRO++ int4 gradients (qgZ)", G::Zero, S::Zero};
constinit const Option mics_shard_size{"--mics-shard-size", "S", "MiCS at stage 3: model states over groups of S GPUs, replicated across them; 1 = off", G::Zero, S::Zero};
constinit const Option tile_factor{"--tile-factor", "T",
                                   "ZeRO-3: the layers' linears as deepspeed.zero.TiledLinear tiles of (hidden/T)^2, each gathered alone "
                                   "(ZeRO-Infinity's memory-centric tiling; Megatron-DeepSpeed --memory-centric-tiled-linear --tile-factor T); "
                                   "1 = off",
                                   G::Zero, S::Zero};
constinit const Option engine{"--engine", "deepspeed|fsdp|fsdp2|auto", "the training engine: DeepSpeed ZeRO, or PyTorch FSDP (FULL_SHARD = --stage 3, SHARD_GRAD_OP = 2, NO_SHARD = 0; CPUOffload = --offload-optimizer cpu --offload-param cpu), or FSDP2's fully_shard (reshard_after_forward True = --stage 3, False = 2; CPUOffloadPolicy as CPUOffload); auto: the recommender plans both and keeps the faster", G::Zero, S::Zero};
constinit const Option fsdp_precision{"--fsdp-precision", "", "FSDP's dtypes: mixed = fp32 model + MixedPrecision (Trainer, Accelerate), autocast = fp32 model under torch.autocast, pure = model loaded in --precision", G::Zero, S::Zero, words<FsdpPrecision>};
constinit const Option limit_all_gathers{"--limit-all-gathers", "on|off", "FSDP: at most two units' all-gathers in flight (on)", G::Zero, S::Zero};
constinit const Option sync_each_batch{"--sync-each-batch", "on|off", "FSDP with gradient accumulation: reduce-scatter every micro step (Accelerate's GradientAccumulationPlugin sync_each_batch); off: no_sync, each GPU holds the whole unsharded gradient between micro steps (off, the libraries' default)", G::Zero, S::Zero};
constinit const Option hybrid_shard{"--hybrid-shard", "on|off", "FSDP at stage 3 or 2: shard inside each node and replicate across nodes (HYBRID_SHARD, HYBRID_SHARD_ZERO2; FSDP2: a 2-D mesh); off: shard over every GPU, and recommend plans both across nodes (off)", G::Zero, S::Zero};
constinit const Option mics_hierarchical_gather{"--mics-hierarchical-gather", "on|off", "a shard group over two or more nodes gathers across nodes, then inside", G::Zero, S::Zero};

constinit const Option tp{"--tp", "T|auto", "tensor parallel size, inside a node", G::Parallelism, S::Parallel};
constinit const Option pp{"--pp", "P|auto", "pipeline parallel size (ZeRO 0/1)", G::Parallelism, S::Parallel};
constinit const Option pp_schedule{"--pp-schedule", "1f1b|interleaved:V", "the pipeline schedule; interleaved: V model chunks per pipeline GPU (Megatron-LM's; Megatron-DeepSpeed's DeepSpeed pipeline runs 1F1B only)", G::Parallelism, S::Parallel};
constinit const Option virtual_stages{"--virtual-stages", "V", "the same as --pp-schedule interleaved:V", G::Parallelism, S::Parallel};
constinit const Option sequence_parallel{"--sequence-parallel", "on|off", "Megatron's sequence parallelism, with --tp", G::Parallelism, S::Parallel};
constinit const Option pp_send{"--pp-send", "whole|scatter-gather",
                               "what a pipeline stage sends per tensor rank: a t-th, all-gathered at the receiver "
                               "(DeepSpeed's PipelineEngine, Megatron-LM 2021-2022's scatter/gather; the default) or whole (Megatron-Core)",
                               G::Parallelism, S::Parallel};
constinit const Option sp{"--sp", "U|auto", "DeepSpeed-Ulysses sequence_parallel_size: U divides the heads and the sequence; no --tp/--pp", G::Parallelism, S::Parallel};
constinit const Option ep{"--ep", "E|auto", "expert-parallel size: divides the experts and the data-parallel size; ZeRO 0-2", G::Experts, S::Parallel};
constinit const Option capacity_factor{"--capacity-factor", "F", "tokens an expert takes a micro batch, x tokens x top-k / experts (1.0)", G::Experts, S::Parallel};

constinit const Option finetune{"--finetune", "", "what trains: the whole model, LoRA adapters, or LoRA over a 4-bit base", G::FineTuning, S::FineTune, words<FineTuneMethod>};
constinit const Option lora_rank{"--lora-rank", "R", "LoRA rank r", G::FineTuning, S::FineTune};
constinit const Option lora_alpha{"--lora-alpha", "A", "LoRA alpha (the scaling is alpha / r)", G::FineTuning, S::FineTune};
constinit const Option lora_dropout{"--lora-dropout", "P", "LoRA dropout probability, 0 to 0.999", G::FineTuning, S::FineTune};
constinit const Option lora_targets{"--lora-targets", "WHICH", "default, attention, all-linear, or module names (comma-separated)", G::FineTuning, S::FineTune};
constinit const Option lora_train{"--lora-train", "LIST", "also trained in full beside the adapters: embeddings, lm-head or none (comma-separated)", G::FineTuning, S::FineTune};
constinit const Option freeze{"--freeze", "LIST", "full fine-tuning: embeddings, layers:K (the first K layers) or none (comma-separated)", G::FineTuning, S::FineTune};
constinit const Option base_precision{"--base-precision", "", "the frozen base's storage (QLoRA: nf4 or fp4)", G::FineTuning, S::FineTune, words<BasePrecision>};
constinit const Option double_quant{"--double-quant", "on|off", "QLoRA: bitsandbytes double quantization of the 4-bit scales", G::FineTuning, S::FineTune};
constinit const Option quant_storage{"--quant-storage", "", "QLoRA: bnb_4bit_quant_storage (under ZeRO-3 the compute dtype)", G::FineTuning, S::FineTune, words<QuantStorage>};

constinit const Option headroom{"--headroom", "FRACTION", "GPU memory kept free (0.05)", G::Assumptions, S::Assumptions};
constinit const Option convention{"--convention", "", "how bytes are counted", G::Assumptions, S::Assumptions, words<Convention>};
constinit const Option mfu{"--mfu", "FRACTION", "compute speed against the planner's fitted GPU rates, as F / 0.45: 0.45 runs them as fitted, 0.9 twice as fast (calibrate fits it); not the MFU printed (0.45)", G::Assumptions, S::Assumptions};
constinit const Option cuda_context{"--cuda-context", "GIB", "CUDA context per GPU, GiB (1)", G::Assumptions, S::Assumptions};
constinit const Option tokens{"--tokens", "N", "tokens to train on, for the time and GPU-hours lines: your dataset's tokens x epochs (1T; 100M for a fine-tune)", G::Assumptions, S::Assumptions};
constinit const Option session{"--session", "FILE", "start from a saved .zplan session; other options override it", G::Start, S::Session};
constinit const Option ds_config{"--ds-config", "FILE", "take stage, offload, batch, precision and buckets from a ds_config.json", G::Start, S::DsConfig};

constinit const Option format{"--format", "FORMAT", "export: the file to write; report: pdf or md. Export formats:", G::Command, S::Command, nullptr, [] { return export_format_ids(); }};
constinit const Option output{"-o", "FILE", "export, session, calibrate, report: write to FILE (export and session: else to stdout)", G::Command, S::Command};
constinit const Option world_size{"--world-size", "N", "lint: the data-parallel ranks the batch is split over (the batch rule): the GPUs, or GPUs / (tensor x pipeline) under Megatron's mpu", G::Command, S::Command};
constinit const Option largest_layer{"--largest-layer", "L", "ds-estimate: parameters of the largest layer", G::Command, S::Command};
constinit const Option nodes{"--nodes", "K", "ds-estimate: nodes", G::Command, S::Command};
constinit const Option formula{"--formula", "current|legacy", "ds-estimate --stage 2: DeepSpeed's current or legacy ZeRO-2 formula", G::Command, S::Command};
constinit const Option log{"--log", "FILE", "calibrate, screenshot --view calibrate: a DeepSpeed, Megatron or Trainer run log; screenshot --view diagnose, diagnosis or diagnose-step: a log that ran out of memory", G::Command, S::Command};
constinit const Option measured_step_s{"--measured-step-s", "S", "calibrate: the measured step time, seconds", G::Command, S::Command};
constinit const Option measured_samples_per_s{"--measured-samples-per-s", "X", "calibrate: the measured samples per second", G::Command, S::Command};
constinit const Option measured_max_allocated_gib{"--measured-max-allocated-gib", "G", "calibrate: torch.cuda.max_memory_allocated, GiB (compared, not fitted)", G::Command, S::Command};
constinit const Option measured_reserved_gib{"--measured-reserved-gib", "G", "calibrate: torch.cuda.max_memory_reserved, GiB (compared, not fitted)", G::Command, S::Command};
constinit const Option out{"--out", "FILE.png", "screenshot: the picture to write", G::Command, S::Command};
constinit const Option view{"--view", "VIEW", "screenshot: memory, scaling, time, step, host, layout, config, window (the default), calibrate, compare, diagnose (the window after File > Diagnose a Training Log), diagnosis (its panel) or diagnose-step (the step with the failing moment)", G::Command, S::Command};
constinit const Option size{"--size", "WxH", "screenshot: the window size in points (1480x920)", G::Command, S::Command};
constinit const Option scale{"--scale", "1|2", "screenshot: device pixels per point", G::Command, S::Command};
constinit const Option lang{"--lang", "en|zh_CN", "screenshot: the picture's language (default: the system's, from LANG)", G::Command, S::Command};
constinit const Option max_seq{"--max-seq", "", "estimate, recommend: the longest sequence that fits, per setup", G::Command, S::Meta};
constinit const Option holdout{"--holdout", "", "validate: re-fit the fitted constants leaving out one cited source at a time", G::Command, S::Meta};
constinit const Option markdown{"--markdown", "", "presets: Markdown tables instead of text (README's Presets section)", G::Command, S::Meta};

constinit const Option json{"--json", "", "one JSON document instead of text", G::General, S::Meta};
constinit const Option help{"--help", "", "this text", G::General, S::Meta};
constinit const Option help_short{"-h", "", "the same as --help", G::General, S::Meta};
constinit const Option version{"--version", "", "the version", G::General, S::Meta};
// clang-format on
}  // namespace opt

namespace {

struct GroupText {
    OptionGroup group;
    std::string_view heading;
    std::string_view note;  // printed under the group's options; "" for none
};

// clang-format off
constexpr std::array kGroups = {
    GroupText{OptionGroup::Model, "Model (one of a preset, a bare size, a config.json or a custom architecture; the architecture\noptions also override a preset or config.json):", ""},
    GroupText{OptionGroup::Cluster, "Cluster:", ""},
    GroupText{OptionGroup::Network, "Network:", ""},
    GroupText{OptionGroup::Training, "Training:", ""},
    GroupText{OptionGroup::Zero, "ZeRO:", ""},
    GroupText{OptionGroup::Parallelism, "Model parallelism (Megatron-DeepSpeed):", ""},
    GroupText{OptionGroup::Experts, "Experts (DeepSpeed-MoE, models with routed experts):",
              "  auto (recommend, export, session, the window): the search chooses among every layout that fits the GPUs;\n"
              "  tensor, pipeline and experts default to auto for full training across more than one node, else 1\n"},
    GroupText{OptionGroup::FineTuning, "Fine-tuning (PEFT LoRA and QLoRA):", ""},
    GroupText{OptionGroup::Assumptions, "Assumptions:", ""},
    GroupText{OptionGroup::Start, "Starting points:", ""},
    GroupText{OptionGroup::Command, "Command options:", ""},
    GroupText{OptionGroup::General, "General:", ""},
};
// clang-format on

constexpr std::size_t kHelpColumn = 34;  // where the one-line help starts
constexpr std::size_t kHelpWidth = 110;  // lines wrap before this column

std::string value_of(const Option& o) { return o.value_words ? o.value_words() : std::string(o.value_name); }

// "  --tp T|auto                       tensor parallel size, inside a node", wrapped at word
// boundaries onto lines indented to the help column.
std::string option_line(const Option& o) {
    std::string line = "  " + std::string(o.name);
    if (const std::string value = value_of(o); !value.empty()) line += " " + value;
    line += line.size() + 2 <= kHelpColumn ? std::string(kHelpColumn - line.size(), ' ') : std::string(2, ' ');
    std::string text(o.help);
    if (o.help_list) text += " " + o.help_list();
    std::size_t column = line.size();
    bool first = true;
    for (std::size_t start = 0; start < text.size();) {
        const std::size_t end = std::min(text.find(' ', start), text.size());
        const std::string_view word = std::string_view(text).substr(start, end - start);
        if (!first && column + 1 + word.size() > kHelpWidth) {
            line += "\n" + std::string(kHelpColumn, ' ');
            column = kHelpColumn;
        } else if (!first) {
            line += ' ';
            ++column;
        }
        line += word;
        column += word.size();
        first = false;
        start = end + 1;
    }
    return line + "\n";
}

}  // namespace

std::span<const Option* const> all_options() {
    using namespace opt;
    // clang-format off
    static constexpr auto table = std::to_array<const Option*>({
        &model, &params, &hf_config, &layers, &hidden, &heads, &kv_heads, &ffn, &vocab, &mlp_activation, &residual_dropout,
        &cluster, &gpus, &gpus_per_node, &gpu, &gpu_mem, &cpu_ram, &nvme,
        &intra_bw, &inter_bw, &nics, &pcie_bw, &nvme_bw,
        &job, &precision, &optimizer, &seq, &micro_batch, &global_batch, &checkpointing, &flash_attention, &attention_softmax, &lm_head, &cpu_checkpointing, &partition_activations, &fp8,
        &loss_upcast, &loss_kernel, &grad_accumulation, &kv_cache, &keep_outputs, &logit_metrics, &reentrant_recompute, &alst, &tiled_mlp, &expandable_segments, &kernel_index, &fused_optimizer, &optimizer_storage, &load_dtype, &low_cpu_mem_usage, &transformers_release, &dataloader_workers, &data_seconds_per_sample,
        &stage, &offload_optimizer, &offload_param, &overlap_comm, &reduce_bucket_size, &allgather_bucket_size, &max_live_params, &zero_init,
        &pin_memory, &deepspeed_release, &host_grad_buffer, &multi_rank_allreduce, &prefetch_to_max_live, &hpz_recompute, &bf16_master_weights, &save_16bit_model, &zeropp, &hpz_size, &hpz, &quantized_weights, &quantized_gradients, &mics_shard_size,
        &mics_hierarchical_gather, &tile_factor, &engine, &fsdp_precision, &limit_all_gathers, &sync_each_batch, &hybrid_shard,
        &tp, &pp, &pp_schedule, &virtual_stages, &sequence_parallel, &pp_send, &sp, &ep, &capacity_factor,
        &finetune, &lora_rank, &lora_alpha, &lora_dropout, &lora_targets, &lora_train, &freeze, &base_precision, &double_quant,
        &quant_storage,
        &headroom, &convention, &mfu, &cuda_context, &tokens, &session, &ds_config,
        &format, &output, &world_size, &largest_layer, &nodes, &formula, &log, &measured_step_s, &measured_samples_per_s,
        &measured_max_allocated_gib, &measured_reserved_gib, &out, &view, &size, &scale, &lang, &holdout, &max_seq, &markdown,
        &json, &help, &help_short, &version,
    });
    // clang-format on
    return table;
}

std::set<std::string> scenario_option_names() {
    std::set<std::string> names;
    for (const Option* o : all_options())
        if (o->in_scenario()) names.emplace(o->name);
    return names;
}

std::set<std::string> names_of(std::initializer_list<const Option*> options) {
    std::set<std::string> names;
    for (const Option* o : options) names.emplace(o->name);
    return names;
}

std::string options_help() {
    std::string text;
    for (const GroupText& g : kGroups) {
        text += std::string(g.heading) + "\n";
        for (const Option* o : all_options())
            if (o->group == g.group) text += option_line(*o);
        text += g.note;
    }
    return text;
}

}  // namespace zp::cli
