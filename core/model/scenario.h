#pragma once
// The plain value types every estimate starts from. A Scenario is everything needed to
// reproduce one view: model, cluster, training settings, ZeRO setup and assumptions.
#include "core/base/units.h"
#include "core/hardware/gpu_spec.h"
#include "core/model/allocator_shares.h"
#include "core/model/deepspeed_defaults.h"
#include "core/model/engine.h"
#include "core/model/finetune.h"
#include "core/model/host_overheads.h"
#include "core/model/host_phase.h"
#include "core/model/job.h"
#include "core/model/model_spec.h"
#include "core/model/precision.h"
#include "core/model/step_phase.h"

#include <algorithm>
#include <cstdint>
#include <string>

namespace zp {

struct Cluster {
    std::int64_t nodes = 1;
    std::int64_t gpus_per_node = 8;
    GpuSpec gpu;
    double intra_node_gbytes_per_s = 300;  // per GPU, one direction (NVLink / PCIe)
    double inter_node_gbits_per_s = 1600;  // per node, all NICs together (8 x 200 Gb/s HDR on a DGX A100)
    // The NICs that carry inter_node_gbits_per_s; 0 = one per GPU (a DGX A100's or H100's rail per
    // GPU). A DGX-2 has 8 for its 16 GPUs, a PCIe box often one (core/time/collectives.h).
    std::int64_t nics_per_node = 0;
    double pcie_gbytes_per_s = 32;  // per GPU to host memory, one direction
    double cpu_ram_bytes_per_node = 0;
    double nvme_bytes_per_node = 0;
    double nvme_gbytes_per_s = 6;               // per node, aggregate read/write
    double cpu_adam_params_per_second = 4.5e9;  // per node (ZeRO-Offload Table 4: 1B params in 0.22 s on a DGX-2)

    std::int64_t world_size() const { return nodes * gpus_per_node; }
    std::int64_t nics() const { return nics_per_node > 0 ? nics_per_node : gpus_per_node; }

    // Selects `g` together with the links it is built with (its NVLink, xGMI or PCIe
    // generation, core/presets/gpu_presets.cpp): the one step behind --gpu, the window's GPU
    // combo and the cluster presets. A link edited afterwards stays edited.
    void use_gpu(const GpuSpec& g) {
        gpu = g;
        intra_node_gbytes_per_s = g.intra_node_gbytes_per_s;
        pcie_gbytes_per_s = g.pcie_gbytes_per_s;
    }

    friend bool operator==(const Cluster&, const Cluster&) = default;
};

enum class Optimizer { AdamW, Adam, Lamb, Lion, Adagrad, SgdMomentum, Sgd };
// Where and how wide the optimizer's moments are kept (core/memory/model_states.h):
// Standard: fp32 (torch.optim: the parameter's dtype) in the caching allocator; the others are
// bitsandbytes' optimizers (bitsandbytes/optim/optimizer.py Optimizer8bit, the Trainer's
// optim="adamw_bnb_8bit" | "paged_adamw_32bit" | "paged_adamw_8bit"): EightBit keeps each moment
// in 8 bits, block-wise quantised; Paged keeps fp32 moments in CUDA managed memory (get_state_buffer:
// F.get_paged, cudaMallocManaged), outside the caching allocator, evicted to host RAM when the card
// runs out (QLoRA paper, Dettmers et al. 2023, Sec. 3 "Paged Optimizers"); PagedEightBit both.
enum class OptimizerStorage { Standard, EightBit, Paged, PagedEightBit };
// Activation recompute: None keeps every layer's activations; Selective recomputes the attention
// core (Korthikanti et al. 2022 Sec. 5, Megatron's --recompute-granularity selective); SelectiveOp
// is PyTorch's op-level selective checkpointing as torchtitan applies it (core/model/op_sac.h:
// every second matmul and the element-wise ops recomputed); Full keeps each layer's input and
// re-runs its forward in backward.
enum class Checkpointing { None, Selective, Full, SelectiveOp };
// Whether backward re-runs a layer's forward code, with its hooks and collectives (full recompute
// and op-level SAC: torch.utils.checkpoint re-enters the block; only the ops it saved are skipped).
inline bool recomputes_layer_forward(Checkpointing c) { return c == Checkpointing::Full || c == Checkpointing::SelectiveOp; }
// How the causal-LM loss is computed: over the whole logits tensor (transformers' ForCausalLMLoss,
// 4.46 on), chunk by chunk without materialising the logits (Liger-Kernel's fused linear
// cross-entropy), or as transformers before 4.46 did it in the model's forward (Shifted: e.g.
// LlamaForCausalLM 4.31 "logits = logits.float()", then "shift_logits = logits[..., :-1,
// :].contiguous()" and CrossEntropyLoss: the returned logits up-cast and a shifted copy), or by a
// fused cross-entropy kernel over the 16-bit logits (Xentropy: flash-attn's
// flash_attn.losses.cross_entropy.CrossEntropyLoss, xentropy_cuda_lib in 2023, Triton since; its
// forward keeps the logits and each row's fp32 log-sum-exp, its backward writes one logits-sized
// 16-bit gradient, inplace_backward=False by default; llm-foundry's loss_fn default
// fused_crossentropy, llmfoundry/models/mpt/modeling_mpt.py at b2a43a1 lines 724-730).
enum class LossKernel { Full, Chunked, Shifted, Xentropy };
// Where the gradients of a step's G micro batches are summed (docs/design.md §5.1), one pass over
// the rank's trainable parameters per micro step unless fused:
//   Autograd  autograd's AccumulateGrad adds each micro batch's 16-bit gradient into the parameter's
//             .grad (an add reading both, writing one) from the second micro batch on: DeepSpeed's
//             engine at ZeRO-0/1 (FP16_Optimizer, stage_1_and_2.py, which reduce at the accumulation
//             boundary only), also under Megatron-DeepSpeed's PipelineEngine.
//   MainGrad  Megatron-LM's local DDP before accumulation fusion: a hook on every parameter adds
//             .grad into its main_grad buffer, in the parameters' dtype unless
//             --accumulate-allreduce-grads-in-fp32, every micro batch (megatron/model/distributed.py
//             _make_param_hook: "param.main_grad.add_(param.grad.data)", NVIDIA/Megatron-LM of 2021).
//   Fused     Megatron-LM's --gradient-accumulation-fusion (NVIDIA/Megatron-LM 83b1e42, 2022-02-13,
//             on by default where gradients accumulate in fp32: bf16 or
//             --accumulate-allreduce-grads-in-fp32; Megatron-Core since): the weight-gradient GEMM
//             accumulates into the fp32 main_grad itself (fused_weight_gradient_dense): no pass.
//   Bf16Optimizer  DeepSpeed's BF16_Optimizer (runtime/bf16_optimizer.py, DeepSpeed 56c5223 of
//             2022-04-19; engine.py _do_optimizer_sanity_check picks it for bf16 at ZeRO-0 under a
//             pipeline, or with data_types.grad_accum_dtype fp32 at ZeRO-1): every micro batch
//             update_hp_grads adds each bf16 gradient, converted, into an fp32 copy
//             ("hp_grad.data.add_(lp.grad.data.to(hp_grad.dtype))": the conversion writes an fp32
//             temporary that the add reads with the copy, and writes the copy).
// ZeRO-2/3 and FSDP reduce every micro batch's gradients instead (their collectives).
enum class GradientAccumulation { Autograd, MainGrad, Fused, Bf16Optimizer };

// Without flash attention, how the b x heads x s x s score matrix is scaled, masked and soft-maxed
// between its two batched GEMMs (core/time/compute_time.h kScoreBytes*):
//   Fused     one kernel reads the scores and writes the probabilities: Megatron's
//             FusedScaleMaskSoftmax (megatron/model/fused_softmax.py; NVIDIA/Megatron-LM by default
//             since 4b50683264 of 2021-01-08, --no-masked-softmax-fusion; Megatron-DeepSpeed,
//             Megatron-Core). DeepSpeedExamples' Megatron-LM v1.1.5 copies (ZeRO-Infinity's), whose
//             fusion is opt-in, fold the scale into the QK^T GEMM and mask in place: 4 bytes a score
//             more each way, counted as this.
//   Unfused   one PyTorch kernel per operation, each reading and writing the whole matrix: the
//             scale, the causal mask and the padding mask before the softmax. Hugging Face's eager
//             attention (transformers GPT2Attention._attn: "/ sqrt(head_dim)", torch.where(causal_mask
//             ...), "+ attention_mask", softmax, dropout; LlamaAttention's eager_attention_forward
//             scales, adds the 4-D mask and soft-maxes in fp32) and the Megatron-LM of 2019-2020 that
//             DeepSpeedExamples' Megatron-LM/ carried (mpu/transformer.py GPT2ParallelSelfAttention:
//             "/ math.sqrt", "torch.mul(attention_scores, ltor_mask) - 10000.0 * (1.0 - ltor_mask)",
//             torch.nn.Softmax, dropout), which the ZeRO and ZeRO-Offload tutorials ran.
// What a Hugging Face model runs when FlashAttention (or SDPA's kernels) is off is Unfused: the default.
enum class AttentionSoftmax { Fused, Unfused };
// Where the logits' weight is read, which decides how ZeRO-3 gathers the vocabulary matrix
// (core/model/layer_modules.h zero3_kept_for_backward):
//   Module           transformers' *ForCausalLM: lm_head, an nn.Linear module (its weight the input
//                    embedding's when tied) with ZeRO-3's hooks, gathered for its forward and kept
//                    into its backward like any module.
//   EmbeddingWeight  Megatron's GPT (Megatron-LM, Megatron-DeepSpeed, DeepSpeedExamples' copies:
//                    GPTModel.forward -> parallel_lm_logits(..., self.word_embeddings_weight())): the
//                    tied word embedding read inside the model's forward, no module of its own. ZeRO-3
//                    registers it as an external parameter of the model's root module when first read
//                    (parameter_offload.py ZeROOrderedDict.__getitem__ -> register_external_parameter),
//                    so every forward gathers it with the root, and it stays gathered through the
//                    backward while the root is active (its backward pre-hook fetches it again; the
//                    root's post-backward never fires, its inputs being token ids).
enum class LmHead { Module, EmbeddingWeight };

struct Training {
    Precision precision = Precision::Bf16;
    Optimizer optimizer = Optimizer::AdamW;
    std::int64_t seq_len = 4096;
    std::int64_t micro_batch = 1;   // sequences per GPU per forward
    bool auto_micro_batch = true;   // the recommender searches micro batches; false: only micro_batch
    std::int64_t global_batch = 0;  // sequences per optimizer step; 0 = automatic (effective_global_batch)
    // What the automatic global batch aims at, in sequences, before effective_global_batch raises
    // it to a multiple of micro batch x data-parallel ranks: 64 (Llama 2's SFT batch, job_presets),
    // 1 for ALST's long-context runs (one micro batch per data-parallel rank, no accumulation:
    // ArcticTraining's TrainerConfig gradient_accumulation_steps defaults to 1 and its
    // sequence-parallelism recipes leave it so).
    std::int64_t automatic_batch_sequences = 64;
    Checkpointing checkpointing = Checkpointing::None;
    bool auto_checkpointing = true;  // the recommender searches recompute policies; false: only checkpointing
    bool flash_attention = true;
    AttentionSoftmax attention_softmax = AttentionSoftmax::Unfused;  // without flash attention; above
    LmHead lm_head = LmHead::Module;                                 // above
    // The checkpointed layer inputs live in host memory between forward and backward: DeepSpeed's
    // activation_checkpointing.cpu_checkpointing (Megatron's checkpoint API) or ALST's activation
    // checkpoint offload (ArcticTraining monkey_patches.py: each layer's hidden_states moved with a
    // synchronous, unpinned .to("cpu") and brought back in backward). With full recompute only.
    bool cpu_checkpointing = false;
    // The checkpointed layer inputs split over the tensor-parallel ranks: DeepSpeed's
    // activation_checkpointing.partition_activations (runtime/activation_checkpointing/
    // checkpointing.py partition_activations: each rank keeps numel/mp_size of every checkpoint;
    // gather_partitioned_activations: one all_gather over the model-parallel group before a layer is
    // recomputed in backward). The ZeRO paper's P_a (Sec. 6.1). With full recompute and tensor
    // parallelism without sequence parallelism (which splits them already); with cpu_checkpointing
    // the partitions are what goes to host memory.
    bool partition_activations = false;
    // FP8 matmuls: Transformer Engine's DelayedScaling recipe (HYBRID: E4M3 forward, E5M2 gradients;
    // TE common/recipe DelayedScaling defaults) as Accelerate applies it with mixed_precision fp8
    // (accelerate utils/transformer_engine.py convert_model: every nn.Linear whose dimensions divide
    // by 16 becomes te.Linear; attention core, norms, embeddings and loss stay bf16, under bf16
    // autocast). Forward, dgrad and wgrad GEMMs run at the GPU's FP8 rate (core/time/fp8.h).
    bool fp8_gemms = false;
    // Their scaling recipe (Accelerate's fp8_config use_mxfp8_block_scaling selects MXFP8:
    // accelerate utils/transformer_engine.py apply_fp8_autowrap at 16cb6eb).
    Fp8Scaling fp8_scaling = Fp8Scaling::Delayed;
    bool loss_fp32_upcast = true;  // the loss up-casts the 16-bit logits to fp32 (transformers' default)
    LossKernel loss_kernel = LossKernel::Full;
    GradientAccumulation gradient_accumulation = GradientAccumulation::Autograd;  // above; DeepSpeed's is Autograd
    // What the model's output holds and how long (core/memory/step_timeline.cpp add_output_terms).
    // kv_cache_in_training: transformers returns every layer's keys and values (past_key_values)
    // because use_cache is left on, which only its own gradient_checkpointing_enable() turns off
    // (LlamaModel.forward: "use_cache=True is incompatible with gradient checkpointing") and
    // checkpointing applied from outside does not (FSDP's apply_activation_checkpointing,
    // Accelerate's fsdp_activation_checkpointing, atorch's checkpoint wrapper).
    bool kv_cache_in_training = false;
    // outputs_kept: the training loop keeps the model's output (logits, and the keys and values
    // above) until the next forward returns ("outputs = model(**batch)" rebinding after it), so the
    // previous step's output is alive through the next forward and loss. The Trainer drops it.
    bool outputs_kept = false;
    // Cross-entropy metrics the training loop computes over each micro batch's logits after its
    // backward, under no_grad: Composer's train metrics (composer/trainer/trainer.py at v0.16.4
    // lines 2472-2475 and _eval_train_metrics, lines 2162-2176: every micro batch, in the precision
    // context, on state.outputs), which llm-foundry's MPT and Hugging Face models set to
    // LanguageCrossEntropy and LanguagePerplexity (llmfoundry/models/mpt/modeling_mpt.py at b2a43a1
    // lines 698-700, use_train_metrics defaulting to True; mosaic_gpt.py at 300cc5c58 lines 487-490):
    // 2. Each is a torch.nn.CrossEntropyLoss over the logits (composer/metrics/nlp.py
    // LanguageCrossEntropy.update): what it moves and holds, core/model/logits.h. 0: the Trainer's
    // loop and DeepSpeed's examples, which compute none.
    std::int64_t logit_metrics = 0;
    // ALST's TiledMLP (DeepSpeed runtime/sequence_parallel/ulysses_sp.py TiledMLP): the MLP runs in
    // shards of about `hidden` tokens under no_grad, keeps only its input for backward and
    // recomputes each shard's forward there (docs/design.md §4.17).
    bool tiled_mlp = false;
    // PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True (c10/cuda/CUDACachingAllocator.cpp
    // ExpandableSegment): one growing virtual segment per stream, whose free pages an out-of-memory
    // retry unmaps, so no cached block is stranded between segments (core/memory/allocator.h).
    bool expandable_segments = false;
    // Whether the kernels index a tensor in 64 bits. FlashAttention-2 and Liger-Kernel's RMSNorm and
    // RoPE before its PR #804 index in int32: a rank's [tokens x hidden] tensor of 2^31 elements or
    // more fails with "an illegal memory access" (Liger-Kernel issue #803, ALST's 555K-token run on
    // one H100; FlashAttention-3 does not). false: the run is limited there (core/search/max_sequence.h).
    bool int64_kernel_indexing = false;
    bool fused_optimizer = true;  // DeepSpeed's FusedAdam (its "optimizer" block); false: torch.optim's, with temporaries
    // Whether a DeepSpeed plan's full recompute re-runs each whole block: re-entrant checkpointing
    // (torch.utils.checkpoint use_reentrant=True: a Hugging Face model's gradient checkpointing under
    // the Trainer before transformers 5.0). false: non-reentrant, whose recompute stops once a block's
    // saved tensors are back (torch 2.1's early stop, PR #96866; recompute_stops_early says where):
    // transformers 5's default (use_reentrant=False, PR #43203, 2026-01-09), which the exports write.
    // An FSDP plan recomputes through FSDP's own checkpointing (FsdpSetup::checkpoint_early_stop).
    bool reentrant_recompute = false;
    OptimizerStorage optimizer_storage = OptimizerStorage::Standard;  // bitsandbytes' 8-bit and paged moments
    // How each process brings the model to deepspeed.initialize (transformers' from_pretrained;
    // core/memory/host_memory.cpp): the dtype it is built in and whether it is built on the meta device.
    // The dtype from_pretrained loads the weights in: 16-bit is transformers v5's default ("auto", the
    // checkpoint's dtype: PR #42805, 2025-12) and what the planner's exports write (torch_dtype=bf16);
    // false: fp32, the default of transformers before v5.
    bool load_in_16bit = true;
    // Whether from_pretrained builds the model on the meta device and fills it, so no checkpoint shard
    // sits beside the whole model: low_cpu_mem_usage=True before transformers 4.51 (where no cast is
    // needed); from 4.51 it is how every load goes, tensor by tensor, and the argument is ignored
    // (PR #36963; PR #38792 removed its last traces; get_init_context: [no_init_weights(),
    // init_empty_weights()] outside ZeRO-3; v5 torch.device("meta"), PR #42941). false: the model plus
    // one shard, from_pretrained's default before 4.51 where no device_map, quantisation or FSDP set it.
    bool low_cpu_mem_usage = true;
    std::int64_t dataloader_workers = 0;  // per training process (TrainingArguments.dataloader_num_workers)
    // What the data pipeline takes to produce one sample on one process (read, tokenize, collate),
    // seconds; 0: it keeps up. A property of the user's dataset and tokenizer, not of the hardware: a
    // streaming dataset tokenized on the fly can bound the step (core/time/step_time.cpp add_data_wait).
    double data_seconds_per_sample = 0;
    // DeepSpeed MoE's training capacity_factor (deepspeed/moe/layer.py MoE, default 1.0): each expert
    // takes at most ceil(tokens / experts x k x capacity_factor) tokens a micro batch. Read with
    // expert parallelism (Parallelism::expert > 1), where DeepSpeed's MoE layer replaces the model's own.
    double capacity_factor = 1.0;

    friend bool operator==(const Training&, const Training&) = default;
};

enum class OffloadDevice { None, Cpu, Nvme };

// The DeepSpeed zero_optimization block the plan stands for. Bucket sizes are elements.
struct ZeroSetup {
    int stage = 0;
    OffloadDevice offload_optimizer = OffloadDevice::None;
    OffloadDevice offload_param = OffloadDevice::None;
    bool overlap_comm = true;
    // The buckets start at Hugging Face's recommended 2e8, the rest at DeepSpeed's defaults
    // (core/model/deepspeed_defaults.h names both, with their source files).
    double reduce_bucket_elems = deepspeed::recommended::kBucketElems;
    double allgather_bucket_elems = deepspeed::recommended::kBucketElems;
    double stage3_prefetch_bucket_elems = deepspeed::defaults::kStage3PrefetchBucketElems;
    double stage3_max_live_parameters = deepspeed::defaults::kStage3MaxLiveParameters;
    double stage3_param_persistence_threshold = deepspeed::defaults::kStage3ParamPersistenceThreshold;
    double sub_group_size = deepspeed::defaults::kSubGroupElems;
    std::int64_t offload_param_buffer_count = deepspeed::defaults::kOffloadParamBufferCount;
    double offload_param_buffer_size = deepspeed::defaults::kOffloadParamBufferElems;
    std::int64_t offload_optimizer_buffer_count = deepspeed::defaults::kOffloadOptimizerBufferCount;
    bool zero_init = true;  // zero.Init: parameters are partitioned as they are created (Trainer does this at stage 3)
    // offload_optimizer.pin_memory / offload_param.pin_memory: DeepSpeed's default since v0.19.5
    // (zero/offload_config.py) and what the exports write. Pinned host tensors are rounded up to a power of two.
    bool pin_memory = true;
    bool gather_16bit_weights_on_model_save = true;  // stage3_gather_16bit_weights_on_model_save (stage 3; the exports write true)
    // Not a config key but a property of the DeepSpeed release. Since v0.6.0 (PR #1453, 2022-01,
    // "Various ZeRO Stage3 Optimizations"), stage 3 with any offload_optimizer keeps a 16-bit
    // gradient buffer of the rank's whole partition on the host, pinned with pin_memory
    // (stage3.py _setup_for_real_optimizer: grad_partitions_flat_buffer, device = cpu). The releases
    // ZeRO-Infinity was measured on (v0.3.x, 2021) had none: the reduced gradients went into the fp32
    // sub-group gradient (CPU) or were swapped to NVMe as they came (swap_out_gradients). false
    // models those releases; the exports do not depend on it.
    bool zero3_host_gradient_buffer = true;
    // use_multi_rank_bucket_allreduce (zero/config.py, default true since v0.12.4, PR #4695): with
    // reduce_scatter on, ZeRO-2's average_tensor collects a bucket's slices for every rank into one
    // flat tensor and all-reduces it (stage_1_and_2.py allreduce_and_scatter -> allreduce_bucket:
    // dist.all_reduce), each rank keeping its own slices: an all-reduce's bytes, 2 (N-1)/N of the
    // bucket, every micro step. false, and every release before v0.12.4: one dist.reduce per
    // destination rank's slices (per run of them before, stage2.py average_tensor), a
    // reduce-scatter's bytes. ZeRO-1 all-reduces its buckets at the boundary either way.
    bool multi_rank_bucket_allreduce = true;
    // Not a config key but the release's ZeRO-3 prefetch. Since v0.6.0 (PR #1453, the same
    // "Various ZeRO Stage3 Optimizations"), every module's fetch prefetches down the recorded
    // parameter queue while fewer than stage3_max_live_parameters elements are available
    // (partitioned_param_coordinator.py fetch_sub_module, core/model/layer_modules.h
    // zero3_prefetch_fills_max_live). Before (v0.3-v0.5 stage3.py prefetch_next_sub_modules: `if
    // not self.in_flight_handles`), one prefetch of stage3_prefetch_bucket_size elements at a time,
    // and none while one is in flight. false models those releases.
    bool zero3_prefetch_to_max_live = true;
    // Not a config key but the release's hpZ. Since v0.13.2 (PR #4906, 75ed63c94) a ZeRO-3 gather
    // reads the hpZ secondary partition whenever it exists; before, only when a backward hook
    // asked (partition_parameters.py at v0.10.0 line 1010: `if self.zero_param_process_group and
    // not forward`), so under full activation recompute a recomputed layer's gathers, issued by its
    // forward hooks in the backward, went over every rank as the forward's do (the PR names
    // activation checkpointing among what it enables hpZ in). false models those releases.
    bool hpz_in_recompute = true;
    // Not a config key but the model's code: ZeRO-Infinity's memory-centric tiling
    // (deepspeed.zero.TiledLinear; Megatron-DeepSpeed's --memory-centric-tiled-linear --tile-factor
    // t) splits every linear of a layer into tiles of (h/t)^2, each a module ZeRO-3 gathers alone
    // (core/model/layer_modules.cpp). 1 = off. Rajbhandari et al. 2021 Fig. 6(b): the largest
    // hidden size one DGX-2 trains is 8K untiled, 16K at t = 2, 32K at 4, 64K at 16.
    std::int64_t linear_tile_factor = 1;
    // DeepSpeed's low-precision master weights (bf16 section, runtime/precision_config.py, PR #7700,
    // 2025-12), both keys together: bf16_master_weights_and_grads keeps the ZeRO optimizer's master
    // weights and the gradient it steps in bf16 (base_optimizer.py _configure_master_weights returns
    // the master dtype; stage_1_and_2.py and stage3.py make their "fp32" partition and step gradient
    // in it), bf16_optimizer_states the optimizer's moments too, all on the GPU. The master weights
    // alone need ZeRO-Offload with DeepSpeedCPUAdam, and either with optimizer offload is not
    // modelled (validate(Scenario) refuses it). bf16 training at ZeRO stage 1-3 only (runtime/config.py).
    bool bf16_master_weights = false;
    // ZeRO++ (arXiv 2306.10209; DeepSpeed zero/config.py), stage 3 only. hpZ: every rank also keeps
    // a secondary 16-bit partition over zero_hpz_partition_size ranks of its node, and the backward
    // gathers from it (1 = off). qwZ: forward gathers in int8 (zero_quantized_weights). qgZ:
    // gradients reduce by a hierarchical int4 all-to-all (zero_quantized_gradients).
    std::int64_t hpz_partition_size = 1;
    bool quantized_weights = false;
    bool quantized_gradients = false;
    // MiCS (Zhang et al. arXiv 2205.00119; DeepSpeed zero/config.py mics_shard_size, default -1 =
    // off), stage 3 only: the model states are partitioned over groups of mics_shard_size
    // consecutive ranks and replicated across the groups (core/model/mics.h). 1 = off here; the
    // config import maps DeepSpeed's -1 to 1. mics_hierarchical_params_gather: a shard group that
    // spans nodes gathers across the nodes first, then inside each node (mics.py).
    std::int64_t mics_shard_size = 1;
    bool mics_hierarchical_params_gather = false;
    // ZeRO++ on "auto": the recommender chooses the switches above for each stage-3 candidate whose
    // gathers cross the network (off, hpZ over the node, or hpZ + qwZ + qgZ: zeropp_choices in
    // core/search/recommender.h) and keeps the fastest that fits; inside one node it means off.
    // estimate and compare take the switches as they are.
    bool auto_zeropp = false;

    friend bool operator==(const ZeroSetup&, const ZeroSetup&) = default;
};

// What makes a setup that setup: the stage and where optimizer states and parameters live.
// Buckets, prefetch and the rest are tuning of the same setup.
struct SetupKey {
    int stage = 0;
    OffloadDevice offload_optimizer = OffloadDevice::None;
    OffloadDevice offload_param = OffloadDevice::None;

    friend bool operator==(const SetupKey&, const SetupKey&) = default;
};

inline SetupKey setup_key(const ZeroSetup& z) { return {z.stage, z.offload_optimizer, z.offload_param}; }

// Same stage and offload devices (bucket sizes and the rest may differ): the same "setup".
inline bool same_setup(const ZeroSetup& a, const ZeroSetup& b) { return setup_key(a) == setup_key(b); }

// The ZeRO++ switches where they take effect: stage 3 only; hpZ when it divides the node, is
// smaller than the world (a secondary partition over every rank is the primary one) and the
// parameters are not offloaded (the planner does not model a host secondary partition).
struct ZeroPlusPlus {
    std::int64_t hpz_partition_size = 1;
    bool quantized_weights = false;
    bool quantized_gradients = false;
    bool any() const { return hpz_partition_size > 1 || quantized_weights || quantized_gradients; }
    friend bool operator==(const ZeroPlusPlus&, const ZeroPlusPlus&) = default;
};
// The ZeRO++ switches as `z` sets them, whether or not they take effect (effective_zeropp).
inline ZeroPlusPlus zeropp_switches(const ZeroSetup& z) { return {z.hpz_partition_size, z.quantized_weights, z.quantized_gradients}; }
// Model-state accounting: DeepSpeed's implementation (default) or the ZeRO paper's K = 12.
enum class Convention { DeepSpeed, Paper };

// Tokens the time and GPU-hours lines train on unless told (--tokens): a pre-training run's 1T
// (Chinchilla's 20 tokens a parameter for a 50B model; Llama 2 took 2T, arXiv 2307.09288 Sec. 2.2),
// a fine-tune's 100M, a round figure of the order of a chat SFT set over a few epochs (set the
// dataset's tokens x epochs for the real figure).
inline constexpr double kPreTrainingTokenBudget = 1e12;
inline constexpr double kFineTuneTokenBudget = 1e8;

struct Assumptions {
    Convention convention = Convention::DeepSpeed;
    double headroom = 0.05;                    // fraction of GPU memory kept free
    double cuda_context_bytes = kBytesPerGiB;  // CUDA context, cuBLAS and NCCL workspaces
    // Host memory of one training process before any model state: CUDA-initialised PyTorch, max RSS
    // 2.06 GB with CUDA 11.8 (pytorch/pytorch#113326); and of one dataloader worker, a Python process
    // that imported torch (322 MB, the same measurement).
    double host_process_bytes = 2.06e9;
    double host_worker_bytes = 0.322e9;
    double mfu = 0.45;                              // model FLOPs utilisation (Narayanan et al. 2021 Table 1: 43-52% on A100)
    double comm_overlap_fraction = 0.8;             // share of communication hidden behind backward when overlap_comm is on
    double collective_latency_seconds = 30e-6;      // per bucketed NCCL launch (small-message latency, nccl-tests)
    double token_budget = kPreTrainingTokenBudget;  // tokens to train on, for time and GPU-hours
    // The eager loop's host time a small layer cannot hide (core/model/host_overheads.h: FITTED
    // defaults and their rows). Global, not per run: sessions do not carry them; `validate
    // --holdout` re-fits them without the rows they were read off.
    double host_seconds_per_kernel = compute_model::kHostSecondsPerKernel;
    double zero3_hook_seconds_per_module = zero3_costs::kHookSecondsPerModule;
    // The GPU generation's FITTED GEMM efficiency (core/presets/gpu_presets.cpp kVoltaGemm,
    // kAmpereGemm: GpuTimeTraits::gemm_efficiency) times this; 1 unless `validate --holdout`
    // re-fits that constant, which it turns here and nowhere else (Assumptions::mfu scales every
    // compute term, not only the matmuls). Not in sessions.
    double gemm_efficiency_scale = 1.0;
    // The attention kernel's rate against FlashAttention-2's (GpuTimeTraits::flash_attention_
    // efficiency): 1 for FlashAttention-2; a measured run that names an older kernel takes its
    // share (compute_model::kTritonFlashShare, MPT's Triton kernel), and `validate --holdout`
    // re-fits that share here. Not in sessions; no control sets it.
    double flash_attention_scale = 1.0;
    // PyTorch's caching allocator: the shares of the bytes that cycle within a step it reserves and
    // cannot free (core/model/allocator_shares.h: FITTED defaults and their rows; not in sessions).
    AllocatorShares allocator = kAllocatorShares;                         // ZeRO-0/1/2, other than activations
    AllocatorShares allocator_zero3 = kAllocatorSharesZero3;              // ZeRO-3, other than activations
    AllocatorShares allocator_activations = kAllocatorSharesActivations;  // activations, every stage
    std::string calibration;  // empty, or where mfu came from: "calibrated from run.log on 2026-11-23: ..." (core/calibration)

    friend bool operator==(const Assumptions&, const Assumptions&) = default;
};

// What a pipeline stage sends its neighbour per tensor-parallel rank, each micro step.
//   ScatterGather: a t-th, all-gathered over the tensor ranks at the receiver. DeepSpeed's
//     PipelineEngine, which Megatron-DeepSpeed runs: with tensor parallelism it wraps the stage's
//     output in a PartitionedTensor over the tensor (slice-parallel) group, sends each rank its
//     part (part.data()), and the receiver's PartitionedTensor.full() all-gathers it
//     (deepspeed/runtime/pipe/engine.py is_pipe_partitioned = is_model_parallel since v0.3.0;
//     the gradient back likewise since v0.5.4, PR #1407 e2fdd254e "Big science related changes":
//     is_grad_partitioned; both switchable since v0.12.3, `pipeline.pipe_partitioned` and
//     `grad_partitioned`, default true, PR #4322; v0.6.5 engine.py 133-134, 669-687, 997-1011).
//     And Megatron-LM's scatter/gather optimization (Narayanan et al. 2021 Sec. 4.1, Fig. 9: "at
//     the sender, we can scatter the tensor into smaller chunks ... rematerialized at the receiver
//     using a gather operation"; megatron/p2p_communication.py split_tensor_into_1d_equal_chunks,
//     on by default from NVIDIA/Megatron-LM 72e4230 of 2021-02-16 until 39b83c7).
//   Whole: its whole activation, s x b x h, from every tensor rank: Megatron-Core's schedules
//     (megatron/core/pipeline_parallel/p2p_communication.py, since NVIDIA/Megatron-LM 39b83c7 of
//     2023-01-31, sends the full tensor).
// With Megatron's sequence parallelism a stage's output is already a t-th of the sequence either
// way, and nothing is gathered.
enum class PipelineSend { Whole, ScatterGather };

// Megatron-DeepSpeed's model parallelism around ZeRO's data parallelism (Shoeybi et al. 2019,
// Narayanan et al. arXiv 2104.04473, Korthikanti et al. arXiv 2205.05198): the world is
// tensor x pipeline x data-parallel ranks; tensor-parallel ranks sit inside a node.
struct Parallelism {
    std::int64_t tensor = 1;                                   // --tensor-model-parallel-size
    std::int64_t pipeline = 1;                                 // --pipeline-model-parallel-size
    std::int64_t virtual_stages = 1;                           // interleaved 1F1B: model chunks per pipeline rank (1 = plain 1F1B)
    bool sequence_parallel = false;                            // Megatron's --sequence-parallel (with tensor parallelism)
    PipelineSend pipeline_send = PipelineSend::ScatterGather;  // what a stage sends per tensor rank (above)
    std::int64_t ulysses = 1;                                  // DeepSpeed-Ulysses sequence_parallel_size (docs/design.md §4.13)
    std::int64_t expert = 1;  // DeepSpeed MoE ep_size (deepspeed/moe/layer.py): routed experts over consecutive data-parallel ranks
    // What the recommender chooses instead of taking the sizes above ("auto"): every tensor size
    // that fits a node and divides the heads, every pipeline size up to the layers, every expert
    // size and Ulysses degree validate_parallelism accepts (searched_layouts in
    // core/search/recommender.h). estimate and compare use the sizes above as they are.
    bool auto_tensor = false;
    bool auto_pipeline = false;
    bool auto_expert = false;
    bool auto_ulysses = false;
    // Which pipeline stage's rank estimate_memory describes: -1 the most loaded (the larger peak of
    // the first stage, with the embedding and p micro batches in flight, and the last, with the
    // output layer and the loss); 0..pipeline-1 that stage (pipeline_stage_memory in
    // core/memory/memory_model.h). Never stored in a session.
    std::int64_t pipeline_rank = -1;
    std::int64_t model_parallel() const { return tensor * pipeline; }
    bool searched() const { return auto_tensor || auto_pipeline || auto_expert || auto_ulysses; }  // any size on auto
    friend bool operator==(const Parallelism&, const Parallelism&) = default;
};

struct Scenario {
    Job job = Job::Custom;  // what the plan is for (core/model/job.h): defaults and the window's first controls, no figure
    ModelSpec model;
    Cluster cluster;
    Training training;
    ZeroSetup zero;
    FsdpSetup fsdp;  // the engine: DeepSpeed (default) or PyTorch FSDP, whose sharding is zero.stage
    FineTune finetune;
    Parallelism parallel;
    Assumptions assumptions;
    // The DeepSpeed release the run uses, as given ("0.12.3"; --deepspeed-release, a session's
    // zero.deepspeed_release, core/model/deepspeed_release.h), or "" for today's. It set ZeroSetup's
    // release switches; the plan is refused where it uses what the release does not have, and the
    // ds_config export writes only keys the release reads (docs/design.md §7.5). Here, not in
    // ZeroSetup, which every search candidate copies.
    std::string deepspeed_release;

    friend bool operator==(const Scenario&, const Scenario&) = default;
};

// Whether `tensor` ranks can split the attention of `m`: each rank takes heads/t query heads
// (megatron/core/transformer/attention.py divide(num_attention_heads, world_size)), and the
// key/value groups either split into whole groups per rank or, with more ranks than groups, each
// group serves t/groups ranks: Megatron-Core accepts num_query_groups "a multiple or divisor of"
// the tensor size (transformer_config.py __post_init__, since core 0.16.0, NVIDIA/Megatron-LM
// f7dfb99 "Support TP greater than num_kv_heads").
inline bool tensor_splits_attention(const ModelSpec& m, std::int64_t tensor) {
    if (tensor <= 1) return true;
    const std::int64_t groups = m.kv_heads > 0 ? m.kv_heads : m.heads;
    return m.heads % tensor == 0 && (groups % tensor == 0 || tensor % groups == 0);
}
// More tensor ranks than key/value groups (Megatron-Core >= 0.16 only; Megatron-DeepSpeed's
// megatron/model/transformer.py divides num_key_value_heads by the tensor size and refuses it):
// attention.py get_query_key_value_tensors all-gathers the layer's QKV activation over the tensor
// ranks, keeps its rank's group and slices its query heads; the all-gather's backward is a
// reduce-scatter of the same bytes.
inline bool tensor_replicates_kv_groups(const ModelSpec& m, std::int64_t tensor) {
    return tensor > 1 && tensor > (m.kv_heads > 0 ? m.kv_heads : m.heads);
}
// Past the key/value groups only Megatron-Core runs the layout, and its distributed optimizer
// (--use-distributed-optimizer) partitions the optimizer states as ZeRO-1 does; ZeRO-2 and 3 are
// DeepSpeed's: whether `stage` runs with `p`'s tensor size on `m`.
inline bool tensor_runs_stage(const ModelSpec& m, const Parallelism& p, int stage) {
    return stage <= 1 || !tensor_replicates_kv_groups(m, p.tensor);
}
// DeepSpeed's PipelineEngine takes ZeRO stage 0 or 1 only (runtime/pipe/engine.py asserts "ZeRO-2
// and ZeRO-3 are incompatible with pipeline parallelism"): whether `stage` runs with `p`.
inline bool pipeline_runs_stage(const Parallelism& p, int stage) { return p.pipeline <= 1 || stage <= 1; }
// DeepSpeed refuses its native MoE layer at ZeRO-3 (runtime/engine.py _validate_zero3_moe_compatibility:
// "Native DeepSpeed MoE is not supported with ZeRO Stage 3"): whether `stage` runs with `p`'s experts.
inline bool experts_run_stage(const Parallelism& p, int stage) { return p.expert <= 1 || stage <= 2; }
// All three: the layout runs `stage` on `m` (the recommender skips, and Fit::layout marks, the
// stages it cannot).
inline bool layout_runs_stage(const ModelSpec& m, const Parallelism& p, int stage) {
    return pipeline_runs_stage(p, stage) && experts_run_stage(p, stage) && tensor_runs_stage(m, p, stage);
}

// Whether backward's full recompute of a block stops at its last saved tensor, where the run's
// checkpointing is non-reentrant: FSDP's own checkpointing (FsdpSetup::checkpoint_early_stop), and
// under DeepSpeed a Hugging Face model's gradient checkpointing (the Trainer, Accelerate) unless
// Training::reentrant_recompute. Not Megatron-DeepSpeed's layouts (tensor or pipeline parallel) nor
// deepspeed.checkpointing (its cpu_checkpointing and partition_activations), whose CheckpointFunction
// re-enters (runtime/activation_checkpointing/checkpointing.py), nor a recompute its release makes
// re-enter (deepspeed_release.h recompute_must_reenter).
bool recompute_stops_early_at_full(const Scenario& s);
inline bool recompute_stops_early(const Scenario& s) {
    return s.training.checkpointing == Checkpointing::Full && recompute_stops_early_at_full(s);  // only a full recompute stops
}
// Whether Training::reentrant_recompute changes the plan: its full recompute under DeepSpeed would
// otherwise stop early and skip a dense block's down projection (recompute_skips_last_linear).
bool reentrant_recompute_matters(const Scenario& s);
// Where it stops: full recompute ends once the block's saved tensors are back (torch.utils.checkpoint's
// early stop, on by default since torch 2.1, PR #96866). The last of them is the down projection's
// input, which autograd saves before the GEMM runs (tools/autograd/gen_variable_type.py: the inputs'
// SavedVariables, whose pack hook raises _StopRecomputationError, come before the kernel's
// redispatch), so that GEMM and the residual add after it are not re-run. A dense block only: a
// mixture's combine saves the experts' outputs; with adapters, LoRA's lora_B runs after the frozen
// down projection; TiledMLP's autograd.Function and Transformer Engine's te.Linear (FP8) save their
// tensors once their forward has run; and a block that saves something after the down projection
// (saves_after_down_projection) re-runs it.
inline bool saves_after_down_projection(const ModelSpec& m) {
    // A norm over the MLP's output before the residual add saves that output: Gemma-2/3's
    // post_feedforward_layernorm, OLMo-2's (their modeling_*.py decoder layers); a residual dropout
    // with p > 0 saves its mask (ModelSpec::residual_dropout: GPT-2's, Phi-2's, T5's).
    if (m.residual_dropout) return true;
    for (const char* family : {"gemma2", "gemma3_text", "olmo2"})
        if (m.family == family) return true;
    return false;
}
inline bool recompute_skips_last_linear(const ModelSpec& m, const Training& t, const FineTune& f, bool stops_early) {
    return stops_early && t.checkpointing == Checkpointing::Full && m.experts <= 1 && !f.adapters() && !t.tiled_mlp && !t.fp8_gemms &&
           !saves_after_down_projection(m);
}

// Whether the engine has the setup: DeepSpeed every row of core/search/zero_setups.h; PyTorch FSDP
// (core/model/engine.h) NO_SHARD, SHARD_GRAD_OP and FULL_SHARD (stages 0, 2, 3), and CPUOffload
// (parameters and optimizer on the CPU together) at FULL_SHARD; no stage 1 and no NVMe; FSDP2 not stage 0.
inline bool engine_runs_setup(const FsdpSetup& f, const SetupKey& k) {
    if (!is_fsdp(f)) return true;
    if (k.stage == 1 || k.offload_optimizer == OffloadDevice::Nvme || k.offload_param == OffloadDevice::Nvme) return false;
    if (f.engine == Engine::Fsdp2 && k.stage == 0) return false;  // fully_shard always shards: no NO_SHARD
    return k.offload_optimizer == k.offload_param && (k.offload_param == OffloadDevice::None || k.stage == 3);
}

// Whether the setup runs the ZeRO optimizer's master weights as set: bf16 master weights and
// optimizer states (ZeroSetup::bf16_master_weights) at ZeRO 1-3 without optimizer offload,
// where DeepSpeed runs them and the planner models them (validate_master_weights says why not).
inline bool master_weights_run_setup(const ZeroSetup& z, const SetupKey& k) {
    if (!z.bf16_master_weights) return true;
    return k.stage >= 1 && k.offload_optimizer == OffloadDevice::None;
}
// The engine has the setup and runs its master weights as set.
inline bool setup_runs(const FsdpSetup& f, const ZeroSetup& z, const SetupKey& k) {
    return engine_runs_setup(f, k) && master_weights_run_setup(z, k);
}

// LAMB with the optimizer offloaded: DeepSpeed builds FusedLamb for "Lamb" whatever the offload
// (engine.py _configure_basic_optimizer; its CPU optimizers are Adam, Adagrad and Lion), a CUDA
// kernel (ops/lamb/fused_lamb.py) that cannot step the fp32 partition on the host.
inline bool optimizer_runs_setup(Optimizer o, const FsdpSetup& f, const SetupKey& k) {
    return !(o == Optimizer::Lamb && !is_fsdp(f) && k.offload_optimizer != OffloadDevice::None);
}
// Whether the run's DeepSpeed release (Scenario::deepspeed_release, core/model/deepspeed_release.h)
// has the setup at the precision: ZeRO-3 from v0.3.12, the offload blocks from v0.3.15, ZeRO without
// fp16 from v0.4.0, bf16 without ZeRO from v0.6.2; every setup for today's ("").
bool release_has_setup(const std::string& release, const SetupKey& k, Precision precision);
inline bool release_runs_setup(const std::string& release, const SetupKey& k, Precision precision) {
    return release.empty() || release_has_setup(release, k, precision);
}
// Why a setup cannot run where it is asked to (Fit::layout false): the first that holds, in this
// order, so that the recommender's sentence, the report's word and the window's mark agree. None
// when it runs (layout_runs_stage and setup_runs both true).
// Why a setup cannot run in a scenario (Fit::refusal). All but KernelIndex are the setup's own
// (setup_refusal); KernelIndex is the scenario's tensors, past what int32-indexed kernels address,
// whatever the setup (check_fit).
enum class SetupRefusal { None, MasterWeights, Engine, Pipeline, Tensor, Experts, Optimizer, Release, KernelIndex };
inline SetupRefusal setup_refusal(const Scenario& s, const SetupKey& k) {
    const Parallelism& p = s.parallel;
    if (!master_weights_run_setup(s.zero, k)) return SetupRefusal::MasterWeights;
    if (!engine_runs_setup(s.fsdp, k)) return SetupRefusal::Engine;
    if (!optimizer_runs_setup(s.training.optimizer, s.fsdp, k)) return SetupRefusal::Optimizer;
    if (!pipeline_runs_stage(p, k.stage)) return SetupRefusal::Pipeline;
    if (!tensor_runs_stage(s.model, p, k.stage)) return SetupRefusal::Tensor;
    if (!experts_run_stage(p, k.stage)) return SetupRefusal::Experts;
    if (!is_fsdp(s.fsdp) && !release_runs_setup(s.deepspeed_release, k, s.training.precision)) return SetupRefusal::Release;
    return SetupRefusal::None;
}

// The sequence length at which one rank's [micro batch x s/u x hidden] tensor reaches 2^31
// elements (the hidden states RMSNorm and FlashAttention-2 index in int32: Liger-Kernel issue #803);
// 0 when the kernels index in 64 bits (Training::int64_kernel_indexing).
std::int64_t kernel_index_limit_seq_len(const Scenario& s);
// Whether the kernels can index the scenario's tensors: its sequence is below that length.
bool within_kernel_index(const Scenario& s);
// Elements of one rank's hidden-state tensor, micro batch x s/u x hidden (what that limit bounds).
double rank_hidden_state_elements(const Scenario& s);

// The DeepSpeed-Ulysses degree, at least 1.
inline std::int64_t ulysses_size(const Parallelism& p) { return std::max<std::int64_t>(p.ulysses, 1); }

// The data-parallel ranks, the ones that split the batch: the world over tensor x pipeline x
// Ulysses. DeepSpeed's batch rule counts these (runtime/config.py: world_size = mpu's
// get_data_parallel_world_size(), or dist.get_world_size() / config["sequence_parallel_size"];
// Megatron-DeepSpeed's arguments.py: data_parallel_size = world / (tp x pp x ds_sequence_parallel_size)).
inline std::int64_t data_parallel_size(const Scenario& s) {
    const std::int64_t mp = s.parallel.model_parallel() * ulysses_size(s.parallel);
    return mp <= 1 ? s.cluster.world_size() : std::max<std::int64_t>(s.cluster.world_size() / mp, 1);
}

// The ranks ZeRO partitions the model states over and reduces gradients / gathers parameters
// across: data-parallel x Ulysses. DeepSpeed's engine hands ZeRO seq_data_parallel_group
// (runtime/engine.py, dp_process_group=self.seq_data_parallel_group; utils/groups.py
// _get_sequence_data_parallel_group: "the process group for zero sharding and gradient allreduce
// must be across both dimensions of data and sequence parallelism"). Without Ulysses, the
// data-parallel ranks. Counted as the world over tensor x pipeline (= d x u on a valid layout), so
// that it never exceeds the GPUs on a layout validate_parallelism would refuse (a scaling sweep's).
inline std::int64_t zero_partition_size(const Scenario& s) {
    const std::int64_t mp = s.parallel.model_parallel();
    return mp <= 1 ? s.cluster.world_size() : std::max<std::int64_t>(s.cluster.world_size() / mp, 1);
}

// Sequences per optimizer step: the given global batch, or Training::automatic_batch_sequences (64
// unless a job says otherwise) raised to a multiple of micro x data-parallel ranks.
// `world_size`: the data-parallel ranks (data_parallel_size).
std::int64_t effective_global_batch(const Training& t, std::int64_t world_size);
// The smallest multiple of `step` (> 0) that is at least `n`: a global batch raised until
// micro batch x data-parallel ranks splits it (DeepSpeed's batch rule, core/model/batch_rule.h).
inline std::int64_t next_multiple(std::int64_t n, std::int64_t step) { return (n + step - 1) / step * step; }
// The multiples of `step` nearest `n`, as a user reads them: "96 or 104", or "8" when only one is
// positive or n is one ("" for a step <= 0). What an error suggests for a batch that does not split.
std::string nearest_multiples(std::int64_t n, std::int64_t step);
// Gradient accumulation steps; throws InputError with DeepSpeed's batch-rule message when the
// global batch is not micro x gas x world size for a whole gas >= 1, and the batches that would be.
std::int64_t gradient_accumulation_steps(const Training& t, std::int64_t world_size);

// Throws InputError naming the first invalid field (GPUs, sequence, stage/offload combination, ...).
void validate(const Scenario& s);
// Why `s`'s bf16 master weights (ZeroSetup::bf16_master_weights) cannot be planned, with what to
// do; empty when they can (or are off). validate throws it.
std::string master_weights_refusal(const Scenario& s);
// The tensor/pipeline layout's part of validate: throws InputError naming the broken constraint.
void validate_parallelism(const Scenario& s);

// The ZeRO++ switches of `s` where they take effect (see ZeroPlusPlus).
ZeroPlusPlus effective_zeropp(const Scenario& s);

// Names from the tables in core/model/enum_names.h.
const char* to_string(Precision p);
const char* to_string(Optimizer o);
const char* to_string(OptimizerStorage o);
const char* to_string(Checkpointing c);
const char* to_string(OffloadDevice d);
const char* to_string(Convention c);
const char* to_string(NormKind n);
const char* to_string(MlpActivation a);
const char* to_string(LossKernel k);
const char* to_string(GradientAccumulation g);
const char* to_string(AttentionSoftmax a);
const char* to_string(LmHead h);
const char* to_string(Fp8Scaling f);
const char* to_string(StepPhase p);
const char* to_string(HostPhase p);
const char* to_string(FineTuneMethod m);
const char* to_string(BasePrecision b);
const char* to_string(LoraTargets t);
const char* to_string(QuantStorage q);
const char* to_string(Engine e);
const char* to_string(FsdpPrecision p);
const char* to_string(PipelineSend p);
const char* to_string(Job j);
// "while loading the model", "while saving a checkpoint": the phase in a sentence.
const char* host_phase_words(HostPhase p);

}  // namespace zp
