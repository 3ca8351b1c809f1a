#pragma once
// The session file's format version and the steps that bring an older file up to it.
//
//   version 1  zero-planner 0.1.0. Every Scenario field except the GPU's own link speeds
//              (cluster.gpu_intra_node_gbytes_per_s, cluster.gpu_pcie_gbytes_per_s).
//   version 2  adds those two, so a session reopens into the Scenario it was saved from
//              (operator==), custom GPUs included.
//   version 3  adds the loss and optimizer kernels (training.loss_fp32_upcast, loss_kernel,
//              fused_optimizer) that the step's peak memory depends on, and
//              assumptions.calibration (where a calibrated mfu came from; empty before).
//   version 4  host memory over the whole run: training.load_in_16bit, low_cpu_mem_usage,
//              dataloader_workers; zero.pin_memory, gather_16bit_weights_on_model_save;
//              assumptions.host_process_bytes, host_worker_bytes; host_buffer_factor is gone.
//   version 5  fine-tuning: the "finetune" section (method, LoRA rank/alpha/dropout/targets,
//              the quantised base, freeze lists); a version-4 file trains in full.
//   version 6  the model's multi-head latent attention, mixture layout and QK-norm fields
//              (model.q_lora_rank, kv_lora_rank, qk_nope_head_dim, qk_rope_head_dim, v_head_dim,
//              moe_ffn, shared_experts, first_dense_layers, qk_norm) for DeepSeek-V2 and OLMo-2.
//   version 7  ZeRO++: zero.hpz_partition_size, quantized_weights, quantized_gradients; a
//              version-6 file has them off (1, false, false).
//   version 8  tensor and pipeline parallelism: the "parallel" section (tensor, pipeline,
//              virtual_stages, sequence_parallel); a version-7 file is data parallel only.
//   version 9  pinned plans: the "pins" list (core/report/plan_pins.h), each pin a name and a whole
//              session document of its own version; a version-8 file has an empty list.
//   version 10 the layout search (parallel.auto_tensor, auto_pipeline, auto_expert,
//              auto_ulysses: the recommender chooses the size), expert parallelism
//              (parallel.expert, training.capacity_factor) and DeepSpeed-Ulysses
//              (parallel.ulysses); a version-9 file keeps its sizes fixed, expert and Ulysses 1.
//   version 11 MiCS (zero.mics_shard_size, mics_hierarchical_params_gather) and ZeRO++ on
//              "auto" (zero.auto_zeropp); a version-10 file has MiCS off and its switches fixed.
//   version 12 cluster.nics_per_node (the NICs the node's network runs over, 0 = one per GPU;
//              core/time/collectives.h); a version-11 file has 0, the network it planned with.
//   version 13 zero.zero3_host_gradient_buffer (DeepSpeed >= 0.6's 16-bit gradient buffer on the
//              host with optimizer offload; false: the releases ZeRO-Infinity was measured on);
//              a version-12 file has true, the host memory it planned with.
//   version 14 the "engine" section (engine deepspeed|fsdp|fsdp2, fsdp_precision,
//              limit_all_gathers, auto: core/model/engine.h); a version-13 file is a DeepSpeed plan.
//              assumptions.fragmentation is gone: the allocator's reserve comes from the step
//              (core/memory/allocator.h), and per-GPU memory is the deciding moment's.
//   version 15 long-context training (ALST): training.tiled_mlp, expandable_segments,
//              int64_kernel_indexing, and model.qk_norm_per_head (Qwen3's per-head QK-norm); a
//              version-14 file has them off, the plan it was saved with.
//   version 16 training.job (what the plan is for: pretrain, finetune, lora, qlora, long-context;
//              core/model/job.h), and the 2026 models' parts (model.attention_sinks, router_bias:
//              gpt-oss; moe_layer_step: Llama-4 Maverick's interleaved mixtures; attention_window,
//              global_layer_every, chunked_attention: the local-attention layers of Gemma-3,
//              gpt-oss and Llama-4, recorded as data); a version-15 file has job "custom" (none
//              chosen) and none of the parts (false, 1, 0, 0, false), the plan it was saved with.
//   version 17 training.optimizer_storage (bitsandbytes' 8-bit and paged optimizer moments,
//              core/model/scenario.h OptimizerStorage), training.kv_cache_in_training and
//              outputs_kept (what the model's output holds and how long); a version-16 file has
//              "standard", false and false. loss_kernel may be "shifted" (transformers < 4.46).
//   version 18 training.partition_activations (DeepSpeed's partitioned activation checkpoints
//              over the tensor-parallel ranks), training.fp8_gemms (Transformer Engine's FP8
//              matmuls) and cluster.gpu_peak_tflops_fp8; a version-17 file has the checkpoints
//              whole (false), 16-bit matmuls (false) and no FP8 rate (0).
//   version 19 training.fp8_scaling (Transformer Engine's recipe for the FP8 matmuls: "delayed"
//              or "mxfp8"), cluster.gpu_compute_capability_10 and gpu_peak_tflops_fp4,
//              training.data_seconds_per_sample; a version-18 file has "delayed" (the only recipe it
//              planned), its preset's compute-capability flag (how version 18 told Blackwell apart),
//              no FP4 rate (0) and a data pipeline that keeps up (0).
//   version 20 parallel.pipeline_send ("whole" or "scatter-gather": what a pipeline stage sends per
//              tensor rank); a version-19 file has "scatter-gather" (what version 19 planned).
//   version 21 training.gradient_accumulation ("autograd", "main-grad" or "fused": where the micro
//              batches' gradients are summed); a version-20 file has "fused" (no pass, what version
//              20 planned).
//   version 22 training.attention_softmax ("fused" or "unfused": without flash attention, whether
//              the scores' scale, masks and softmax are one kernel); a version-21 file has "fused"
//              (what version 21 planned).
//   version 23 model.activation ("fused" or "gelu-new": transformers' gelu_new runs as eight
//              kernels); a version-22 file has "fused" (what version 22 planned).
//   version 24 zero.linear_tile_factor (deepspeed.zero.TiledLinear's tiles, ZeRO-Infinity's
//              memory-centric tiling; 1 = off); a version-23 file has 1 (what version 23 planned).
//   version 25 zero.bf16_master_weights (DeepSpeed's bf16_master_weights_and_grads with
//              bf16_optimizer_states, PR #7700); a version-24 file has it off (fp32 master weights,
//              what version 24 planned).
//   version 26 zero.multi_rank_bucket_allreduce (DeepSpeed's use_multi_rank_bucket_allreduce:
//              ZeRO-2's gradient buckets all-reduced whole, the default since v0.12.4); a version-25
//              file has it off (reduce-scattered bytes, what version 25 planned).
//   version 27 training.lm_head ("module" or "embedding-weight": where the logits' weight is read,
//              transformers' lm_head module or Megatron's word embedding); a version-26 file has
//              "module" (what version 26 planned).
//   version 28 zero.zero3_prefetch_to_max_live and zero.hpz_in_recompute (the DeepSpeed release's
//              ZeRO-3 prefetch, down the parameter queue to stage3_max_live_parameters since
//              v0.6.0, and its hpZ, read by a recomputed layer's gathers since v0.13.2); a
//              version-27 file has both on (today's releases, what version 27 planned).
//   version 29 zero.deepspeed_release (the release given, "" for today's: the features the plan may
//              use and the keys its ds_config holds); a version-28 file has "" (version 28 kept
//              only the release's switches, and exported every key whatever the release).
//   version 30 engine.sync_each_batch (FSDP's gradient accumulation: reduced every micro step, or
//              accumulated unsharded under no_sync); a version-29 file has it on (version 29
//              planned the sharded gradient reduced every micro step).
//   version 31 engine.hybrid_shard (FSDP's HYBRID_SHARD / HYBRID_SHARD_ZERO2: sharded inside each
//              node, replicated across nodes); a version-30 file has it off (version 30 had no
//              hybrid sharding).
//   version 32 training.automatic_batch_sequences (what the automatic global batch aims at before
//              it is rounded: 64, or 1 for the long-context job); a version-31 file has 64 (what
//              version 31 planned for every job).
//   version 33 training.logit_metrics (the cross-entropy metrics the training loop computes over
//              each micro batch's logits after its backward: Composer's train metrics, 2 in
//              llm-foundry); a version-32 file has 0 (what version 32 planned).
//   version 34 model.residual_dropout (the MLP output's dropout, which keeps a non-reentrant
//              recompute from stopping before the down projection: GPT-2, Phi-2, T5) and
//              training.reentrant_recompute (re-entrant checkpointing, whose recompute re-runs the
//              whole block under DeepSpeed); a version-33 file has no dropout and re-enters
//              (what version 33 planned).
//
// A file with no "version" was never a session (0.1.0 refused it too); a version newer than
// kSessionVersion is refused with one line naming it, and nothing is written back. Adding a
// field means: bump kSessionVersion, add a step to upgrade_session that fills the field the way
// the previous version behaved, and add a frozen file of the previous version to
// tests/data/sessions/.
#include "core/base/errors.h"

#include <nlohmann/json_fwd.hpp>

#include <string>

namespace zp {

inline constexpr int kSessionVersion = 34;
inline constexpr int kOldestSessionVersion = 1;

// A session of a format version newer than kSessionVersion. Whoever tried to open it must leave
// it as it is: not write over the file, nor over the window's remembered last session.
class NewerSessionError : public InputError {
public:
    using InputError::InputError;
};

// The session document brought up to kSessionVersion: checks "version" and applies each
// migration step in turn. Throws InputError (NewerSessionError for the second) naming `source_name`:
//   "<source>: field 'version' is missing: this is not a ZeRO Planner session"
//   "<source>: session format version 999 is newer than this zero-planner reads (up to 12); upgrade zero-planner"
//   "<source>: session version "1" is not supported (this zero-planner reads versions 1 to 12)"
nlohmann::json upgrade_session(nlohmann::json doc, const std::string& source_name);

}  // namespace zp
