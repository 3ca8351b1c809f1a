#include "core/memory/step_timeline.h"

#include "core/memory/allocator.h"

#include "core/base/phrase.h"
#include "core/memory/activations.h"
#include "core/memory/buffers.h"
#include "core/memory/fsdp_memory.h"
#include "core/memory/model_states.h"
#include "core/model/deepspeed_release.h"
#include "core/model/experts.h"
#include "core/model/layer_modules.h"
#include "core/model/logits.h"
#include "core/model/parallel_layout.h"
#include "core/model/trainable_params.h"
#include "core/presets/gpu_presets.h"

#include <algorithm>
#include <cmath>

// Code paths are DeepSpeed v0.16 (deepspeed/runtime/...), PyTorch 2.x (torch/optim/...),
// transformers 4.46+ (loss/loss_utils.py) and Liger-Kernel (ops/fused_linear_cross_entropy.py).

namespace zp {
namespace {

// The byte counts the moments are built from, computed once per scenario.
struct Terms {
    double weights = 0;                  // 16-bit weights resident for the whole run
    double optimizer = 0;                // fp32 master + moments on the GPU
    double grads_full = 0;               // stage 0/1: every parameter's 16-bit .grad (autograd's AccumulateGrad)
    double grads_partition = 0;          // stage 2/3: the 16-bit gradient partition buffer, allocated once
    double grads_fp32_kept = 0;          // stage 0 bf16: BF16_Optimizer's fp32 gradient accumulators
    double grads_fp32_step = 0;          // the fp32 gradient of the partition being stepped
    double grads_at_reduce = 0;          // stage 1: the flat 16-bit partition made at the boundary
    double grads_at_step = 0;            // 16-bit gradients still allocated during the step
    double held_across_micro_steps = 0;  // stage 0/1 with accumulation: .grad kept between micro steps
    double grads_partition_renewed = 0;  // stage 2 with accumulation: the next micro step's new partition beside the accumulated one
    double optimizer_temporary = 0;      // torch.optim's temporary of the stepped partition
    double startup_extra = 0;            // what start-up allocates beyond the run's persistent bytes
    double startup_total = -1;           // ZeRO-3 without zero.Init: the whole 16-bit model (else < 0)
    const char* startup_cause = "";
    double backward_buckets = 0;    // gradient buckets in flight during backward
    double boundary_bucket = 0;     // stage 0/1: the bucket of the reduce at the boundary
    double persistent_buffers = 0;  // stage 3: the flat reduce bucket allocated at start-up
    double gathered = 0;            // stage 3: gathered parameters (largest module + prefetch)
    // ... the weights gathered where the step is (buffers.h Zero3Gathered): a layer's forward, the
    // last one's (the head prefetched), the loss, a layer's backward, the first one's (the embedding
    // prefetched); and the gradients of the gathered module beside them in backward.
    double gathered_forward = 0, gathered_forward_last = 0, gathered_loss = 0, gathered_backward = 0, gathered_backward_first = 0;
    double gathered_gradient = 0;       // stage 3: a layer module's gradient, in backward
    double gathered_loss_gradient = 0;  // stage 3: the head's gradient, at the loss's backward side
    double retained_layers = 0;         // stage 3: layers whose gathered weights stay for their reuse (max_reuse_distance)
    double gathered_floor = 0;          // stage 3: the weights the prefetch keeps gathered in forward and backward (max_live)
    double layer_weights_bytes = 0;     // stage 3: one layer's gathered weights
    bool passed_layers_stay = false;    // FSDP SHARD_GRAD_OP: layers stay unsharded after their backward too
    bool fsdp_units = false;            // what is gathered are FSDP's units, not ZeRO-3's parameters (the moments' words)
    double dequantized = 0;             // QLoRA: the Linear being computed, dequantised (buffers.h)
    double gather_output = 0;           // ZeRO-1/2 before v0.12.4: the all-gather's flattened output in flight
    double gather_deferred = 0;         // ... and the other shards' outputs, freed when NCCL is done with them
    double stored_per_layer = 0;        // activations kept per layer for backward
    double forward_working = 0;         // one layer's activations while a checkpointed layer runs
    double backward_working = 0;        // one layer's activation gradients (+ its recompute)
    double head_inputs = 0;             // final norm and LM head inputs
    double loss_forward = 0;            // logits and loss tensors at the loss
    double loss_backward = 0;           // ... while the loss's gradient is formed
    const char* loss_cause = "";
    double kv_per_layer = 0;     // a layer's returned keys and values (kv_cache_in_training), kept past its backward
    double previous_output = 0;  // the previous step's output a loop keeps through this forward (outputs_kept)
    double pipeline_held = 0;    // a pipeline stage's buffers of its micro batches in flight (add_pipeline_terms)
    double kept_output = 0;      // this step's output kept past the backward into the step (outputs_kept)
    double kept_logits = 0;      // its logits, held through the loss's and the layers' backward (outputs_kept)
    double metric_working = 0;   // the loop's metrics after the backward: the logits and one metric's fp32 tensors
};

// What every group of terms reads: the precision, the partition and the micro steps.
struct Basis {
    double P = 0;                    // parameters on this rank (TimelineInputs::params)
    bool mixed = false;              // 16-bit training with an fp32 master
    double k = 0;                    // bytes of a weight, gradient or activation element
    bool offload_optimizer = false;  // the fp32 states live on the host
    double partition = 0;            // P over the data-parallel ranks (routed experts over DP / EP)
    double stepped = 0;              // elements of the partition the optimizer steps at once
    std::int64_t gas = 1;            // micro steps per optimizer step
};

Basis basis(const Scenario& s, const TimelineInputs& in) {
    const Training& t = s.training;
    const ZeroSetup& z = s.zero;
    Basis b;
    b.P = in.params;
    b.mixed = t.precision != Precision::Fp32;
    b.k = bytes_per_element(t.precision);
    b.offload_optimizer = z.offload_optimizer != OffloadDevice::None;
    // Micro steps per optimizer step (without the batch rule's check: estimates of invalid batches are asked for too).
    const std::int64_t dp = data_parallel_size(s);
    const std::int64_t per_micro_step = std::max<std::int64_t>(t.micro_batch * dp, 1);
    b.gas = std::max<std::int64_t>(effective_global_batch(t, dp) / per_micro_step, 1);
    b.partition = in.partition_elems;
    // The elements of the partition the optimizer steps at once: the rank's partition under
    // ZeRO-1/2 (one flat tensor per group: stage_1_and_2.py single_partition_of_fp32_groups), one
    // sub-group of it under ZeRO-3 (stage3.py _optimizer_step per sub_group_size), everything at stage 0.
    b.stepped = z.stage == 3 ? std::min(z.sub_group_size, b.partition) : b.partition;
    return b;
}

// Weights, fp32 optimizer states and the gradients each stage keeps, by DeepSpeed's code path.
void add_state_terms(Terms& x, const Scenario& s, const TimelineInputs& in, const Basis& b) {
    const Training& t = s.training;
    const ZeroSetup& z = s.zero;
    const double P = b.P;
    const double k = b.k;
    const bool mixed = b.mixed;
    const bool offload_optimizer = b.offload_optimizer;
    const double partition = b.partition;
    const double stepped = b.stepped;
    const std::int64_t gas = b.gas;
    const ModelStateBytes& states = in.states;
    // Weights and fp32 optimizer states: as the memory slices count them (model_states.cpp).
    x.weights = states.params;
    x.optimizer = states.optimizer_states;
    // ZeRO-1/2/3 make their fp32 partition with .clone().float() (stage_1_and_2.py
    // single_partition_of_fp32_groups, stage3.py _create_fp32_partitions): in fp32 training too,
    // where it is a second copy of the rank's partition that the slices do not count.
    if (!mixed && z.stage >= 1 && !offload_optimizer) x.optimizer += 4.0 * partition;
    // The master's dtype (model_states.h master_element_bytes): the gradient the step makes is in it,
    // fp32 unless ZeroSetup::bf16_master_weights.
    const double master = master_element_bytes(z);

    if (offload_optimizer && z.stage == 1) {
        // ZeRO-1 with offload: .grad still stays whole on the GPU until the boundary, where the
        // rank's part is reduced and copied to the host; the fp32 terms live on the host.
        x.grads_full = k * P;
        x.held_across_micro_steps = gas > 1 ? k * P : 0;
        x.boundary_bucket = k * std::min(z.reduce_bucket_elems, P);
    }
    if (!offload_optimizer) {
        switch (z.stage) {
        case 0:
            if (t.precision == Precision::Bf16) {
                // bf16_optimizer.py: fp32 gradient accumulators for every parameter, allocated in
                // __init__ (fp32_groups_gradients_flat); .grad is added into them after each micro
                // step (update_hp_grads) and freed.
                x.grads_full = k * P;
                x.grads_fp32_kept = 4.0 * P;
            } else {
                // fused_optimizer.py FP16_Optimizer.step: the 16-bit .grad accumulate over the
                // micro steps; the step flattens them into an fp32 gradient of every parameter.
                x.grads_full = k * P;
                x.held_across_micro_steps = gas > 1 ? k * P : 0;
                x.grads_fp32_step = mixed ? 4.0 * P : 0;
                x.grads_at_step = k * P;
            }
            // engine.py allreduce_gradients: buffered_allreduce_fallback flattens each bucket of
            // MEMORY_OPT_ALLREDUCE_SIZE elements, whatever reduce_bucket_size says.
            x.boundary_bucket = k * std::min(deepspeed::defaults::kEngineAllreduceBucketElems, P);
            break;
        case 1:
            // stage_1_and_2.py, partition_gradients off: .grad stays whole until the boundary, where
            // the rank's part is reduced and flattened (averaged_gradients), then the step makes the
            // fp32 gradient partition (single_grad_partition ... .to(fp32)).
            x.grads_full = k * P;
            x.held_across_micro_steps = gas > 1 ? k * P : 0;
            x.grads_at_reduce = x.grads_at_step = k * partition;
            x.grads_fp32_step = master * partition;                      // flatten_dense_tensors_aligned copies, fp32 or not
            x.boundary_bucket = k * std::min(z.reduce_bucket_elems, P);  // a bucket holds at most the model
            break;
        case 2:
            // stage_1_and_2.py with contiguous_gradients: each bucket is reduced from the ipg buffer
            // into grads_in_partition (allocated at the first reduce, kept); .grad is freed.
            x.grads_partition = k * partition;
            x.grads_fp32_step = master * partition;
            // With accumulation, every micro step after the first reduces into a new one beside the
            // accumulated partition: the epilogue keeps views of the partition in all_grad_tensors,
            // drops grads_in_partition (_release_ipg_buffers) and clears .grad, so the next
            // backward's first reduce allocates another (copy_grads_in_partition), which that
            // epilogue adds into the kept one and frees (edaa7221
            // independent_gradient_partition_epilogue 919-960, copy_grads_in_partition 1650-1689;
            // v0.3.0's stage2.py the same, through averaged_gradients).
            x.grads_partition_renewed = gas > 1 ? k * partition : 0.0;
            break;
        default:
            // stage3.py: grad_partitions_flat_buffer (16-bit, the rank's partition) allocated in
            // __init__; _prepare_fp32_grad_for_sub_group makes the fp32 gradient of one sub-group.
            x.grads_partition = k * partition;
            x.grads_fp32_step = master * stepped;
            break;
        }
    }
    // stage 0/1 with CPU/NVMe offload do not exist in DeepSpeed (offload needs ZeRO-1+); stage 1/2
    // offload: gradients go from the ipg buffer to pinned host memory (async_accumulate_grad_in_cpu_via_gpu).

    // torch.optim's Adam/AdamW (foreach path, _multi_tensor_adam): _foreach_sqrt(exp_avg_sqs) is a
    // new fp32 tensor the size of the stepped partition; the single-tensor path's
    // "denom = (exp_avg_sq.sqrt() / ...)" allocates the same. Lion (exp_avg.clone()), Adagrad
    // (state_sum.sqrt()) and LAMB likewise make one; SGD updates in place. DeepSpeed's FusedAdam /
    // FusedLamb (multi_tensor_apply kernels) and CPU Adam make none.
    // DeepSpeed builds Adagrad as torch.optim.Adagrad on the GPU (engine.py _configure_basic_optimizer).
    const bool makes_temporary = t.optimizer != Optimizer::Sgd && t.optimizer != Optimizer::SgdMomentum;
    // bitsandbytes' optimizers update tensor by tensor in one kernel (optimizer.py update_step ->
    // F.optimizer_update_32bit / _8bit_blockwise) and make none.
    const bool torch_kernel =
        (!t.fused_optimizer || t.optimizer == Optimizer::Adagrad) && t.optimizer_storage == OptimizerStorage::Standard;
    if (torch_kernel && makes_temporary && !offload_optimizer) x.optimizer_temporary = moment_element_bytes(z) * stepped;
}

// What start-up allocates beyond the run's persistent bytes.
void add_startup_terms(Terms& x, const Scenario& s, const TimelineInputs& in, const Basis& b) {
    const ZeroSetup& z = s.zero;
    const bool offload_optimizer = b.offload_optimizer;
    const bool mixed = b.mixed;
    const double stepped = b.stepped;
    if (z.stage == 3 && !z.zero_init) {
        // engine.py _configure_distributed_model moves the whole (16-bit) module to the GPU before
        // stage3.py partitions it: every parameter is on every GPU once.
        x.startup_total = in.whole_weights_bytes;
        x.startup_cause = QT_TRANSLATE_NOOP("Core", "whole 16-bit model on the GPU before ZeRO-3 partitions it (no zero.Init)");
    } else if (!offload_optimizer && (mixed || z.stage >= 1) && x.grads_fp32_kept == 0) {
        // initialize_optimizer_states (stage_1_and_2.py and stage3.py): a zeroed fp32 gradient of
        // the stepped partition and one optimizer step create the moments beside the fp32 master.
        x.startup_extra = master_element_bytes(z) * stepped;
        x.startup_cause =
            z.bf16_master_weights
                ? QT_TRANSLATE_NOOP("Core",
                                    "bf16 master partition, optimizer states and a zeroed bf16 gradient (initialize_optimizer_states)")
                : QT_TRANSLATE_NOOP("Core",
                                    "fp32 master partition, optimizer states and a zeroed fp32 gradient (initialize_optimizer_states)");
    } else {
        x.startup_cause = QT_TRANSLATE_NOOP("Core", "16-bit weights");
    }
}

// Gradient buckets, ZeRO-3's gathered parameters and QLoRA's dequantised Linear.
void add_bucket_terms(Terms& x, const Scenario& s, const TimelineInputs& in, const Basis& b) {
    const ZeroSetup& z = s.zero;
    const double k = b.k;
    // Buckets. Stage 2: the ipg buffers (two with overlap_comm, so one fills while the other is
    // reduced: stage_1_and_2.py ipg_buffer). Stage 3: __ipg_bucket_flat_buffer, reduce_bucket_size
    // elements allocated in __init__, and the gathered working set (buffers.cpp).
    if (z.stage == 2) x.backward_buckets = k * z.reduce_bucket_elems * (z.overlap_comm ? 2.0 : 1.0);
    if (z.stage == 3) {
        x.persistent_buffers = in.buffers.buckets;
        x.gathered = in.buffers.gathered;
        const Zero3Gathered& at = in.buffers.gathered_at;
        // The forward's last layers stay gathered into their backward (layer_modules.h
        // zero3_kept_for_backward), and Megatron's GPT holds its word embedding through both.
        const Zero3Kept kept = zero3_kept_for_backward(s.model, at.layer_elems, s.training, in.whole_params);
        const double held = kept.matrix_held ? at.vocabulary : 0.0;
        const double vocabulary_prefetch = kept.matrix_held ? at.layer_prefetch : at.vocabulary_prefetch;
        x.gathered_forward = at.layer + at.layer_prefetch + held;
        x.gathered_forward_last = at.layer + vocabulary_prefetch + held;
        // The head stays gathered from its forward into its backward (its reuse is within
        // stage3_max_reuse_distance), the last layer's modules prefetched behind it.
        x.gathered_loss = at.vocabulary + at.layer_prefetch;
        x.gathered_backward = at.layer + at.layer_prefetch + held;
        x.gathered_backward_first = at.layer + vocabulary_prefetch + held;
        x.gathered_gradient = at.layer_gradient;
        x.gathered_loss_gradient = at.vocabulary_gradient;
        x.backward_buckets = in.buffers.quantized_reduce;  // ZeRO++ qgZ: made and freed per bucket in backward
        x.retained_layers = kept.layers;
        // The prefetch keeps max_live elements gathered through forward and backward (the whole
        // model when smaller), the kept layers and the head among them (layer_modules.h
        // zero3_prefetch_fills_max_live), at the rank's stored bytes per element.
        if (at.prefetch_fills_max_live && in.whole_params > 0)
            x.gathered_floor = in.whole_weights_bytes / in.whole_params * std::min(z.stage3_max_live_parameters, in.whole_params);
        x.layer_weights_bytes = in.whole_weights_bytes * kept.layer_share;
    }
    x.dequantized = in.buffers.dequantized;
}

// ZeRO-1/2's all-gather of the updated 16-bit partitions after the step. Before v0.12.4 it went
// shard by shard through the list form of dist.all_gather (v0.3.0 stage2.py step; runtime/utils.py
// all_gather_dp_groups to v0.12.3): num_shards = partition x ranks // allgather_bucket_size, each
// shard gathered from every rank. ProcessGroupNCCL::allgather gathers a list into a new flat
// tensor of the ranks' shards (newLikeFlat), copies it out and records it on the NCCL stream, so
// its block is free for reuse only once the NCCL stream has passed it; the loop does not wait
// (work.wait() makes the current stream wait, not the host), so every shard's output is allocated
// before the first is released: one in flight, the others held by the allocator until an
// allocation fails and it synchronises (the ZeRO tutorial's 10B run on 32 V100s read 31570 of
// 32480 MiB in nvidia-smi, its 16-bit parameters 19 GiB: a reserve driven to the card each step).
// From v0.12.4 (fd0a52c1a) all_gather_into_tensor writes into the flat buffer: nothing is made.
void add_gather_terms(Terms& x, const Scenario& s, const Basis& b) {
    const ZeroSetup& z = s.zero;
    if ((z.stage != 1 && z.stage != 2) || b.partition <= 0 || release_has(s, release_firsts::kAllgatherIntoTensor)) return;
    const double ranks = std::round(b.P / b.partition);  // the ranks the partitions are gathered from
    if (ranks <= 1) return;
    const double shards = std::max(1.0, std::floor(b.partition * ranks / std::max(z.allgather_bucket_elems, 1.0)));
    const double output = b.k * ranks * std::floor(b.partition / shards);  // dp x shard_size elements
    x.gather_output = output;
    x.gather_deferred = output * (shards - 1.0);
}

// Activations, the head's inputs and the loss, on this rank.
void add_activation_terms(Terms& x, const Scenario& s, const TimelineInputs& in, const Basis& b) {
    const ModelSpec& m = s.model;
    const Training& t = s.training;
    const double k = b.k;
    const bool mixed = b.mixed;
    // Activations (activations.cpp): what each layer keeps, and the one layer that runs whole.
    const ActivationBytes& a = in.activations;
    const double full_layer = a.whole_layer;
    // This rank's tokens: s/u with DeepSpeed-Ulysses (each rank embeds and takes the loss of its shard).
    const double sb = static_cast<double>(t.seq_len) * static_cast<double>(t.micro_batch) / static_cast<double>(ulysses_size(s.parallel));
    const double h = static_cast<double>(m.hidden);
    const double V = static_cast<double>(m.vocab);
    x.stored_per_layer = a.per_layer_stored;
    // A checkpointed layer's forward builds its whole activations and drops them (torch.utils.checkpoint;
    // under op-level SAC all but what it saves).
    x.forward_working = recomputes_layer_forward(t.checkpointing) ? full_layer : 0.0;
    // Backward through a layer makes the gradients of its activations (activations.cpp
    // gradient_working); a checkpointed layer first recomputes them.
    x.backward_working = a.gradient_working + a.recompute_working;
    if (t.cpu_checkpointing && t.checkpointing == Checkpointing::Full) {
        // The checkpoints wait in host memory (activations.cpp cpu_bytes_per_gpu): the GPU holds
        // only the one layer input brought back for the layer being recomputed (ArcticTraining
        // monkey_patches.py copies each back in backward; DeepSpeed's checkpointing.py
        // cpu_checkpointing the same).
        x.backward_working += x.stored_per_layer;
        x.stored_per_layer = 0;
    }
    // FP8 matmuls (Training::fp8_gemms): each te.Linear saves its quantized weight for backward (TE
    // pytorch/module/linear.py _Linear.forward at d0067d0: the FP8 weight and, for dgrad, its
    // columnwise form); Accelerate passes no is_first_microbatch, so nothing is cached on the module.
    // A kept layer keeps its copies to its backward, a recomputed one makes them in backward; whole
    // on every data-parallel rank (ZeRO-3 partitions the 16-bit weight, not TE's copy). MXFP8 keeps
    // both directions' quantizations with their block scales (gpu_presets.h).
    const double fp8_copies = a.fp8_weight_params_per_layer * fp8_weight_copy_bytes_per_param(s.cluster.gpu, t.fp8_scaling);
    if (recomputes_layer_forward(t.checkpointing)) x.backward_working += fp8_copies;
    else x.stored_per_layer += fp8_copies;
    x.head_inputs = 2.0 * k * sb * h;  // final norm input and LM head input, 2sbh each in 16 bits (Korthikanti Sec. 4.3)

    const bool upcast = mixed && loss_upcasts(m, t);  // logits.h: the loss's fp32 up-cast, where the code makes one
    // 16-bit log-probabilities under autocast: nll_loss's fp32 copy of them in the forward, its fp32
    // gradient in the backward (logits.h, the OOM diagnosis's rule; `upcast` passed, not re-derived).
    const double autocast_copy = loss_copies_log_probs_to_fp32(s, upcast) ? 4.0 : 0.0;
    switch (t.loss_kernel) {
    case LossKernel::Full: {
        // transformers loss_utils.py ForCausalLMLoss: logits (16-bit, held by the model output),
        // "logits = logits.float()" (the up-cast), then cross_entropy's log_softmax output, kept
        // for backward. Its backward: nll_loss's gradient is a dense tensor the logits' size
        // (aten/src/ATen/native/cuda/Loss.cu nll_loss_backward_out_cuda_template: grad_input
        // zeroed, then the targets' entries set), and log_softmax's backward makes the input
        // gradient while that and its saved output are alive (SoftMax.cu
        // log_softmax_backward_cuda_out): three logit-sized tensors of the loss's dtype; the cast
        // back to 16 bits comes after two of them are freed. The 16-bit logits are then the model
        // output's alone (the up-cast's backward keeps nothing of its input): the Trainer has
        // dropped that output before the backward (Trainer.training_step calls compute_loss, whose
        // `outputs` is local), a loop that keeps it holds them (add_output_terms, kept_logits).
        const double up = upcast ? 4.0 : k;
        x.loss_forward = sb * V * (k + (upcast ? 4.0 : 0.0) + up + autocast_copy);
        x.loss_backward = sb * V * (3 * up + autocast_copy);
        x.loss_cause = upcast ? QT_TRANSLATE_NOOP("Core", "logits, their fp32 up-cast and log-softmax")
                              : QT_TRANSLATE_NOOP("Core", "logits and log-softmax");
        break;
    }
    case LossKernel::Shifted: {
        // transformers before 4.46 (LlamaForCausalLM.forward, 4.31): the model returns its logits
        // up-cast ("logits = logits.float()"), then "shift_logits = logits[..., :-1,
        // :].contiguous()" is a second copy, and CrossEntropyLoss keeps its log-softmax: three
        // logit-sized tensors in the forward. In the backward the saved log-softmax, nll_loss's
        // dense gradient and log_softmax's input gradient: three; the returned logits are the
        // output's (kept_logits when a loop keeps it; the Trainer has dropped it). GPT-2's, GPT-NeoX's,
        // BLOOM's and Falcon's forwards up-cast nothing (logits.h forward_upcasts_logits): the three in
        // the compute dtype, and nll_loss's fp32 copy under autocast.
        const double up = upcast ? 4.0 : k;
        x.loss_forward = sb * V * (3 * up + autocast_copy);
        x.loss_backward = sb * V * (3 * up + autocast_copy);
        x.loss_cause = QT_TRANSLATE_NOOP("Core", "logits, their shifted copy and log-softmax");
        break;
    }
    case LossKernel::Xentropy:
        // flash-attn's fused cross-entropy (scenario.h LossKernel): the 16-bit logits and each row's
        // fp32 log-sum-exp in the forward; in the backward the logits and their 16-bit gradient.
        x.loss_forward = sb * V * k + sb * 4.0;
        x.loss_backward = sb * V * 2 * k;
        x.loss_cause = QT_TRANSLATE_NOOP("Core", "logits (a fused cross-entropy)");
        break;
    case LossKernel::Chunked:
        // Liger's fused linear cross-entropy: logits are made chunk by chunk with a chunk of about
        // sb*h logits (chunk_size = next_power_of_2(BT / ceil(V/H))), fp32, with their gradient,
        // and the hidden states' gradient computed in the forward.
        x.loss_forward = x.loss_backward = sb * h * (4.0 + 4.0 + k);
        x.loss_cause = QT_TRANSLATE_NOOP("Core", "one chunk of logits (chunked linear cross-entropy)");
        break;
    }
    // Tensor parallelism: the logits are vocabulary-parallel (megatron/core/tensor_parallel/
    // cross_entropy.py), the head's inputs sequence-split with sequence parallelism. Pipeline
    // parallelism: the most loaded (first) stage computes no loss; its embedding's dropout mask is
    // in the stored activations (activations.cpp). The last stage (Parallelism::pipeline_rank)
    // computes it as without pipelining.
    const Parallelism& par = s.parallel;
    if (par.pipeline > 1 && par.pipeline_rank != par.pipeline - 1) {
        x.head_inputs = x.loss_forward = x.loss_backward = 0;
        x.loss_cause = QT_TRANSLATE_NOOP("Core", "the first pipeline stage holds no logits");
        return;
    }
    if (par.tensor > 1) {
        const double tp = static_cast<double>(par.tensor);
        x.head_inputs /= par.sequence_parallel ? tp : 1.0;
        if (t.loss_kernel != LossKernel::Chunked) {
            x.loss_forward /= tp;
            x.loss_backward /= tp;
        }
    }
    // FP8: the LM head as te.Linear keeps its FP8 weight copy from its forward to its backward.
    const double head_copy = a.fp8_head_weight_params * fp8_weight_copy_bytes_per_param(s.cluster.gpu, t.fp8_scaling);
    x.loss_forward += head_copy;
    x.loss_backward += head_copy;
}

// PyTorch FSDP in place of DeepSpeed's states, gradients and buckets (core/memory/fsdp_memory.h).
void add_fsdp_terms(Terms& x, const Scenario& s, const TimelineInputs& in, const Basis& b) {
    x.fsdp_units = true;
    const ModelStateBytes& st = in.states;
    x.weights = st.params;
    x.optimizer = st.optimizer_states;
    // The sharded gradient is made as each unit's reduce-scatter lands in backward
    // (_runtime_utils.py _post_backward_hook -> _reduce_grad) and freed by zero_grad(set_to_none=True)
    // after the step (torch.optim's default since PyTorch 2.0); with accumulation it is kept
    // between micro steps (_accumulate_sharded_grad).
    x.grads_full = st.gradients;
    x.held_across_micro_steps = b.gas > 1 ? st.gradients : 0;
    // Under no_sync (FsdpSetup::sync_each_batch off) the earlier micro steps leave the whole model's
    // trainable gradient unsharded, in the gathered dtype and on the GPU even with CPUOffload, until
    // the last micro step's backward reduce-scatters it (fsdp_accumulates_unsharded_gradients).
    if (fsdp_accumulates_unsharded_gradients(s, b.gas)) x.held_across_micro_steps = fsdp_gathered_bytes(s) * in.params;
    x.grads_at_step = st.gradients;
    // torch.optim's foreach path (the default on CUDA: optimizer.py _default_to_fused_or_foreach)
    // makes one temporary the size of the rank's shard (_multi_tensor_adamw: _foreach_sqrt(exp_avg_sqs)),
    // in the states' dtype; fused (fused=True) makes none; with CPUOffload the step runs on the host.
    const Training& t = s.training;
    const bool makes_temporary = t.optimizer != Optimizer::Sgd && t.optimizer != Optimizer::SgdMomentum;
    const bool torch_kernel = !t.fused_optimizer && t.optimizer_storage == OptimizerStorage::Standard;  // bitsandbytes' make none
    if (makes_temporary && torch_kernel && !b.offload_optimizer) x.optimizer_temporary = fsdp_storage_bytes(s) * b.partition;
    // Gathered units: the root from its forward through the backward, and the layers in flight.
    const double frozen_stored = std::max(in.whole_weights_bytes - b.k * in.params, 0.0);
    const FsdpUnits u = fsdp_units(s, in.params, in.whole_params, frozen_stored);
    x.gathered = u.root_bytes + u.units_in_flight * u.layer_bytes;
    x.backward_buckets = u.layer_grad_bytes;
    if (u.unsharded_through_backward) {
        // SHARD_GRAD_OP: every layer stays unsharded from its forward to its backward (the
        // retained layers below, as ZeRO-3's reuse distance keeps them).
        x.gathered = u.root_bytes + u.layer_bytes;
        x.retained_layers = static_cast<double>(std::max<std::int64_t>(s.model.layers, 1));
        x.passed_layers_stay = true;
        x.layer_weights_bytes = u.layer_bytes;
    }
    x.gathered_forward = x.gathered_forward_last = x.gathered_loss = x.gathered_backward = x.gathered_backward_first = x.gathered;
    x.dequantized = in.buffers.dequantized;
}

// Under Autocast the model is fp32: the embedding's output and every residual add are fp32, and so
// are the RMSNorm/LayerNorm tensors (autocast runs norms in fp32; transformers' LlamaRMSNorm
// up-casts), while the Linear and attention tensors are 16-bit. What the layers keep grows by
// that: a checkpointed layer's input is fp32 (twice its 16-bit bytes), an unrecomputed layer's
// norm tensors are (twice the norms' share), and so is the final norm's input.
void add_autocast_activation_terms(Terms& x, const Scenario& s, const Basis& b) {
    if (!is_fsdp(s.fsdp) || s.fsdp.precision != FsdpPrecision::Autocast || !b.mixed) return;
    const Training& t = s.training;
    const double norms = layer_activation_bytes(s.model, t.seq_len, t.micro_batch, b.k).norms;
    if (t.checkpointing == Checkpointing::Full) x.stored_per_layer *= 4.0 / b.k;
    else x.stored_per_layer += norms;
    x.forward_working += t.checkpointing == Checkpointing::Full ? norms : 0.0;
    x.backward_working += norms;
    x.head_inputs *= 1.5;  // final norm input fp32 (4sbh) and the head's 16-bit input (2sbh)
}

// A pipeline stage on DeepSpeed's PipelineEngine (Megatron-DeepSpeed's GPTModelPipe) keeps, for each
// micro batch forwarded before its first backward (ActivationBytes::micro_batches_in_flight), besides
// its layers' checkpoints:
//   - its output, in pipe_buffers['outputs'] until that micro batch's backward, on every stage but
//     the last (runtime/pipe/engine.py _exec_forward_pass: with tensor parallelism and
//     pipe_partitioned, a PartitionedTensor whose full data is cleared and whose part, a t-th, is
//     kept; otherwise the whole s b h; with Megatron's sequence parallelism already a t-th). The
//     BigScience 104B tune-up's per-rank log (May 2021) shows it: 272 MiB less a stage closer to
//     the end, 256 of checkpoints and 16 of this (64 MiB / tensor 4);
//   - the first stage: the embedding's 1-byte dropout mask (Korthikanti et al. Sec. 4.3) and the
//     batch it loaded, cloned into pipe_buffers['inputs'] (engine.py _exec_load_micro_batch), whose
//     causal attention mask is [1, 1, s, s] booleans (Megatron-DeepSpeed pretrain_gpt.py
//     get_batch_pipe, get_ltor_masks_and_position_ids).
void add_pipeline_terms(Terms& x, const Scenario& s, const TimelineInputs& in, const Basis& b) {
    const Parallelism& par = s.parallel;
    if (par.pipeline <= 1 || par.pipeline_rank < 0) return;
    const double n = in.activations.micro_batches_in_flight;
    const double tp = static_cast<double>(std::max<std::int64_t>(par.tensor, 1));
    const double sb = static_cast<double>(s.training.seq_len) * static_cast<double>(s.training.micro_batch);
    const double h = static_cast<double>(s.model.hidden);
    const bool a_tth = par.sequence_parallel || (par.tensor > 1 && effective_pipeline_send(s) == PipelineSend::ScatterGather);
    if (par.pipeline_rank < par.pipeline - 1) x.pipeline_held += n * b.k * sb * h / (a_tth ? tp : 1.0);
    if (par.pipeline_rank == 0) {
        const double seq = static_cast<double>(s.training.seq_len);
        x.pipeline_held += n * (sb * h / (par.sequence_parallel ? tp : 1.0) + seq * seq);
    }
}

// The logits this rank's model returns, elements: the last pipeline stage's, vocabulary-parallel
// under tensor parallelism; none from a chunked loss (core/model/logits.h returns_logits).
double returned_logits(const Scenario& s) {
    const Parallelism& par = s.parallel;
    if (!returns_logits(s.training) || (par.pipeline > 1 && par.pipeline_rank != par.pipeline - 1)) return 0.0;
    return rank_logits(s);
}

// What the model's output holds beyond the loss (Training::kv_cache_in_training, outputs_kept).
// The returned keys and values (transformers' DynamicCache / past_key_values tuple: each layer's
// key_states and value_states, kv_heads x head_dim per token, 16-bit) are the attention's own
// inputs: without recompute they are among the layer's saved tensors already, so they count only
// when the layer is recomputed; then they stay from the layer's forward until the output is
// dropped. A loop that keeps the output keeps the previous step's, with its logits as returned,
// through this step's forward and loss, and this step's through the optimizer step. One that
// computes metrics over the logits after the backward (Training::logit_metrics) holds this step's
// output through the backward, until they are done.
void add_output_terms(Terms& x, const Scenario& s, const Basis& b) {
    const Training& t = s.training;
    const bool read_after_backward = t.outputs_kept || t.logit_metrics > 0;
    if (!t.kv_cache_in_training && !read_after_backward) return;  // the Trainer's case: the output holds nothing past the loss
    const ModelSpec& m = s.model;
    const Parallelism& par = s.parallel;
    const double tp = static_cast<double>(std::max<std::int64_t>(par.tensor, 1));
    const double sb = static_cast<double>(t.seq_len) * static_cast<double>(t.micro_batch) / static_cast<double>(ulysses_size(par));
    const double heads = static_cast<double>(std::max<std::int64_t>(m.heads, 1));
    const double head_dim = m.head_dim > 0 ? static_cast<double>(m.head_dim) : static_cast<double>(m.hidden) / heads;
    const double kv_heads = static_cast<double>(m.kv_heads > 0 ? m.kv_heads : m.heads);
    if (t.kv_cache_in_training && t.checkpointing == Checkpointing::Full) x.kv_per_layer = 2.0 * sb * kv_heads * head_dim * b.k / tp;
    if (!read_after_backward) return;
    const double logits = returned_logits(s) * returned_logit_bytes(m, t);
    const double layers = static_cast<double>(std::max<std::int64_t>(m.layers, 1));
    if (t.outputs_kept) x.previous_output = x.kept_output = layers * x.kv_per_layer + logits;
    x.kept_logits = logits;
    // flash-attn's fused cross-entropy saved these very logits for its backward (loss_backward):
    // the kept output holds the same tensor, counted once.
    if (t.loss_kernel == LossKernel::Xentropy) x.loss_backward -= logits;
}

// The loop's metrics over the logits after the backward (Training::logit_metrics): the output they
// read, held since the forward (add_output_terms: its logits and any returned keys and values) and,
// one metric at a time, its log-probabilities and their fp32 copy (core/model/logits.h).
void add_metric_terms(Terms& x, const Scenario& s) {
    const double logits = s.training.logit_metrics > 0 ? returned_logits(s) : 0.0;
    if (logits <= 0) return;
    const double layers = static_cast<double>(std::max<std::int64_t>(s.model.layers, 1));
    x.metric_working = layers * x.kv_per_layer + x.kept_logits + logits * metric_held_bytes_per_logit(s);
}

Terms terms(const Scenario& s, const TimelineInputs& in) {
    const Basis b = basis(s, in);
    Terms x;
    if (is_fsdp(s.fsdp)) {
        add_fsdp_terms(x, s, in, b);
        add_activation_terms(x, s, in, b);
        add_autocast_activation_terms(x, s, b);
        add_output_terms(x, s, b);
        add_metric_terms(x, s);
        return x;
    }
    add_state_terms(x, s, in, b);
    add_startup_terms(x, s, in, b);
    add_bucket_terms(x, s, in, b);
    add_gather_terms(x, s, b);
    add_activation_terms(x, s, in, b);
    add_output_terms(x, s, b);
    add_metric_terms(x, s);
    add_pipeline_terms(x, s, in, b);
    return x;
}

StepMoment moment(const Terms& x, StepPhase phase, std::int64_t layer, const char* cause) {
    StepMoment mo;
    mo.phase = phase;
    mo.layer = layer;
    mo.cause = cause;
    mo.params_bytes = x.weights;
    mo.optimizer_states_bytes = x.optimizer;
    mo.gradients_bytes = x.grads_partition + x.grads_fp32_kept;
    mo.buffers_bytes = x.persistent_buffers;
    mo.persistent_bytes = x.weights + x.optimizer + x.grads_partition + x.grads_fp32_kept + x.persistent_buffers;
    return mo;
}

// The loop's metrics over the logits, after each micro step's backward (add_metric_terms): the
// gradients as the backward left them (ZeRO-2's epilogue has added a renewed partition into the
// kept one; at ZeRO-0/1 the boundary micro step's backward has reduced, engine.py
// allreduce_gradients, so its reduced partition is there too), the output and one metric's tensors.
StepMoment metrics_moment(const Terms& x) {
    StepMoment mo = moment(x, StepPhase::Metrics, 0, QT_TRANSLATE_NOOP("Core", "the loop's metrics over the logits"));
    mo.gradients_bytes += std::max(x.held_across_micro_steps, x.grads_full) + x.grads_at_reduce;
    mo.activations_bytes += x.metric_working + x.pipeline_held;
    return mo;
}

// After the step (add_gather_terms for the all-gather's outputs).
StepMoment parameter_gather_moment(const Terms& x, const Scenario& s) {
    // FSDP gathers nothing after its step (each unit is gathered when it next runs): its shards only.
    StepMoment mo = moment(x, StepPhase::ParameterGather, 0,
                           x.fsdp_units        ? QT_TRANSLATE_NOOP("Core", "shards only (FSDP gathers each unit when it runs)")
                           : s.zero.stage == 3 ? QT_TRANSLATE_NOOP("Core", "partitions only")
                                               : QT_TRANSLATE_NOOP("Core", "16-bit parameters gathered in place"));
    mo.buffers_bytes += x.gather_output;
    mo.deferred_free_bytes = x.gather_deferred;
    if (x.gather_output > 0) mo.cause = QT_TRANSLATE_NOOP("Core", "16-bit parameters gathered shard by shard, outputs freed behind NCCL");
    return mo;
}

}  // namespace

namespace {
// The inputs that do not depend on the micro batch, the buckets or the recompute policy.
void set_model_states(const Scenario& s, const ParameterSplit& split, TimelineInputs& in) {
    // Gradients and optimizer states are the trainable parameters' (all of them in plain full
    // training); the weights add the frozen base as stored (model_states.h). `split`: the rank's
    // (rank_parameter_split, the most loaded rank's share under tensor/pipeline parallelism).
    in.params = split.trainable;
    in.whole_params = split.trainable + split.frozen;
    in.partition_elems = zero_partition_elems(s, split);
    in.whole_weights_bytes = bytes_per_element(s.training.precision) * split.trainable + split.frozen_bytes + split.quant_state_bytes;
    in.states = model_state_bytes(s, split);
}
}  // namespace

TimelineInputs timeline_inputs(const Scenario& s) { return timeline_inputs(s, rank_parameter_split(s)); }

TimelineInputs timeline_inputs(const Scenario& s, const ParameterSplit& rank_split) {
    TimelineInputs in;
    set_model_states(s, rank_split, in);
    in.activations = activation_bytes(s.model, s.training, s.finetune, s.parallel);
    in.buffers = buffer_bytes(s);
    return in;
}

TimelineInputs timeline_inputs(const Scenario& s, TimelineMemo& memo) {
    TimelineInputs in;
    const std::int64_t rank = s.parallel.pipeline_rank;
    const std::size_t slot = rank > 0 ? 1 : 0;
    TimelineMemo::States& st = memo.states[slot];
    if (!st.valid || st.pipeline_rank != rank) {
        set_model_states(s, rank_parameter_split(s), in);
        st = {true, rank, in.params, in.whole_weights_bytes, in.whole_params, in.partition_elems, in.states};
    } else {
        in.params = st.params;
        in.whole_weights_bytes = st.whole_weights_bytes;
        in.whole_params = st.whole_params;
        in.partition_elems = st.partition_elems;
        in.states = st.states;
    }
    TimelineMemo::Activations& act = memo.activations[slot];
    if (!act.valid || act.pipeline_rank != rank || act.micro_batch != s.training.micro_batch ||
        act.checkpointing != s.training.checkpointing)
        act = {true, rank, s.training.micro_batch, s.training.checkpointing, activation_bytes(s.model, s.training, s.finetune, s.parallel)};
    in.activations = act.value;
    const ZeroSetup& z = s.zero;
    const auto same_buckets = [&](const TimelineMemo::Buffers& b) {
        return b.valid && b.reduce_bucket_elems == z.reduce_bucket_elems && b.allgather_bucket_elems == z.allgather_bucket_elems &&
               b.overlap_comm == z.overlap_comm;
    };
    const auto hit = std::find_if(memo.buffers.begin(), memo.buffers.end(), same_buckets);
    if (hit != memo.buffers.end()) {
        in.buffers = hit->value;
    } else {
        in.buffers = buffer_bytes(s);
        memo.buffers[memo.next_buffers] = {true, z.reduce_bucket_elems, z.allgather_bucket_elems, z.overlap_comm, in.buffers};
        memo.next_buffers = (memo.next_buffers + 1) % memo.buffers.size();
    }
    return in;
}

namespace {

// The optimizer step's cause: what it holds beside the states, in the engine's words.
const char* optimizer_step_cause(const Terms& x, const Scenario& s) {
    if (s.zero.offload_optimizer != OffloadDevice::None)
        return x.fsdp_units ? QT_TRANSLATE_NOOP("Core", "the step runs on the host (torch.optim on the CPU shards)")
                            : QT_TRANSLATE_NOOP("Core", "the step runs on the host (DeepSpeed CPU Adam)");
    if (x.fsdp_units)
        return x.optimizer_temporary > 0 ? QT_TRANSLATE_NOOP("Core", "gradient shards and torch.optim's temporaries")
                                         : QT_TRANSLATE_NOOP("Core", "gradient shards");
    if (s.zero.bf16_master_weights)
        return x.optimizer_temporary > 0 ? QT_TRANSLATE_NOOP("Core", "bf16 gradient partition and torch.optim's temporaries")
                                         : QT_TRANSLATE_NOOP("Core", "bf16 gradient partition (bf16 master weights)");
    return x.optimizer_temporary > 0 ? QT_TRANSLATE_NOOP("Core", "fp32 gradient partition and torch.optim's temporaries")
                                     : QT_TRANSLATE_NOOP("Core", "fp32 gradient partition");
}

// A forward or backward moment's cause when weights are gathered, in the engine's words.
const char* gathered_cause(const Terms& x, StepPhase phase) {
    if (phase == StepPhase::Forward)
        return x.fsdp_units ? QT_TRANSLATE_NOOP("Core", "stored activations and unsharded FSDP units")
                            : QT_TRANSLATE_NOOP("Core", "stored activations and gathered ZeRO-3 parameters");
    return x.fsdp_units ? QT_TRANSLATE_NOOP("Core", "activations, their gradients and unsharded FSDP units")
                        : QT_TRANSLATE_NOOP("Core", "activations, their gradients and gathered ZeRO-3 parameters");
}

// Calls `visit` with each moment of one optimizer step in order.
template <class Visit>
void visit_step_moments(const Scenario& s, const TimelineInputs& in, TimelineDetail detail, Visit&& visit) {
    const Terms x = terms(s, in);
    const std::int64_t L = std::max<std::int64_t>(s.model.layers, 1);
    const bool every = detail == TimelineDetail::EveryLayer;
    // ZeRO-3's retained layers (terms above) at layer l: the forward's last retained_layers stay
    // behind the running layer (the running one is in `gathered`), and in backward those not yet
    // reached; FSDP's SHARD_GRAD_OP also keeps the first retained_layers already passed
    // (passed_layers_stay).
    const double Ld = static_cast<double>(L);
    auto retained_behind = [&](std::int64_t l) {
        return x.layer_weights_bytes * std::clamp(static_cast<double>(l) - 1.0 - (Ld - x.retained_layers), 0.0, Ld);
    };
    auto retained_passed = [&](std::int64_t l) {
        if (!x.passed_layers_stay) return 0.0;
        return x.layer_weights_bytes * std::clamp(x.retained_layers - static_cast<double>(l), 0.0, Ld - 1.0);
    };

    // Start-up (deepspeed.initialize).
    if (x.startup_total >= 0) {
        StepMoment mo = moment(x, StepPhase::StartUp, 0, x.startup_cause);
        mo.params_bytes = x.startup_total;
        mo.optimizer_states_bytes = mo.gradients_bytes = mo.buffers_bytes = 0;
        // Loaded once and freed as ZeRO-3 partitions it; its blocks serve the partitions and states
        // that follow, so it does not cycle through the cache.
        mo.persistent_bytes = x.startup_total;
        visit(mo);
    } else {
        StepMoment mo = moment(x, StepPhase::StartUp, 0, x.startup_cause);
        mo.buffers_bytes += x.startup_extra;
        // The zeroed gradient is freed and its block serves the step's fp32 gradient of the same
        // size: it does not cycle through the cache.
        mo.persistent_bytes += x.startup_extra;
        visit(mo);
    }

    // Forward: layer l keeps l layers' activations; stage 3 holds its gathered parameters.
    auto forward = [&](std::int64_t l) {
        StepMoment mo = moment(x, StepPhase::Forward, l, QT_TRANSLATE_NOOP("Core", "stored activations"));
        mo.gradients_bytes += x.held_across_micro_steps;
        mo.activations_bytes =
            static_cast<double>(l) * (x.stored_per_layer + x.kv_per_layer) + x.forward_working + x.previous_output + x.pipeline_held;
        mo.buffers_bytes +=
            std::max((l == L ? x.gathered_forward_last : x.gathered_forward) + retained_behind(l), x.gathered_floor) + x.dequantized;
        if (x.gathered > 0) mo.cause = gathered_cause(x, StepPhase::Forward);
        visit(mo);
    };
    if (every)
        for (std::int64_t l = 1; l <= L; ++l) forward(l);
    else forward(L);

    // The loss: every layer's activations, the head's inputs and the loss tensors. A kept previous
    // output is released when the forward returns its successor, before the loss's backward; from
    // then on a loop that keeps the output holds this step's logits through the backward.
    for (const bool forward_side : {true, false}) {
        StepMoment mo = moment(x, StepPhase::Loss, 0, x.loss_cause);
        mo.gradients_bytes += x.held_across_micro_steps;
        const double loss = forward_side ? x.loss_forward : x.loss_backward;
        const double previous = forward_side ? x.previous_output : x.kept_logits;
        mo.activations_bytes =
            static_cast<double>(L) * (x.stored_per_layer + x.kv_per_layer) + x.head_inputs + loss + previous + x.pipeline_held;
        // Every kept layer is behind the head, the last one too (until 2026-11-28 it was left out).
        mo.buffers_bytes +=
            std::max(x.gathered_loss + retained_behind(L + 1), x.gathered_floor) + (forward_side ? 0.0 : x.gathered_loss_gradient);
        visit(mo);
    }

    // Backward from layer L down to 1: activations are released layer by layer while gradients
    // arrive (stage 0/1: .grad of each layer's parameters; stage 2: through the ipg buffers).
    auto backward = [&](std::int64_t l) {
        StepMoment mo = moment(x, StepPhase::Backward, l, QT_TRANSLATE_NOOP("Core", "activations and their gradients"));
        const double done = static_cast<double>(L - l + 1) / static_cast<double>(L);
        mo.gradients_bytes += std::max(x.held_across_micro_steps, x.grads_full * done) + x.grads_partition_renewed;
        mo.activations_bytes = static_cast<double>(l) * x.stored_per_layer + static_cast<double>(L) * x.kv_per_layer + x.backward_working +
                               x.kept_logits + x.pipeline_held;
        const double weights = (l == 1 ? x.gathered_backward_first : x.gathered_backward) + retained_behind(l) + retained_passed(l);
        mo.buffers_bytes += x.backward_buckets + std::max(weights, x.gathered_floor) + x.gathered_gradient + x.dequantized;
        if (x.backward_buckets > 0 && !x.fsdp_units)
            mo.cause = QT_TRANSLATE_NOOP("Core", "activations, their gradients and the ipg gradient buckets");
        if (x.gathered > 0) mo.cause = gathered_cause(x, StepPhase::Backward);
        visit(mo);
    };
    if (every)
        for (std::int64_t l = L; l >= 1; --l) backward(l);
    else {
        backward(L);
        backward(1);
    }

    if (x.metric_working > 0) visit(metrics_moment(x));

    // The reduce at the accumulation boundary (stage 0/1 reduce here; stage 2/3 reduced in backward).
    {
        StepMoment mo = moment(x, StepPhase::GradientReduce, 0,
                               x.fsdp_units ? QT_TRANSLATE_NOOP("Core", "gradient shards (FSDP reduced them in the backward)")
                                            : QT_TRANSLATE_NOOP("Core", "gradients and the reduce bucket"));
        mo.gradients_bytes += x.grads_full + x.grads_at_reduce;
        mo.buffers_bytes += x.boundary_bucket;
        mo.activations_bytes += x.kept_output;
        visit(mo);
    }

    // The optimizer step.
    {
        StepMoment mo = moment(x, StepPhase::OptimizerStep, 0, optimizer_step_cause(x, s));
        mo.gradients_bytes += x.grads_at_step + x.grads_fp32_step;
        mo.buffers_bytes += x.optimizer_temporary;
        mo.activations_bytes += x.kept_output;
        visit(mo);
    }

    // After the step: ZeRO-1/2 all-gather the updated 16-bit partitions into the flat buffer, in
    // place from v0.12.4, shard by shard through new outputs before (add_gather_terms); ZeRO-3
    // keeps only its partitions.
    visit(parameter_gather_moment(x, s));
}

}  // namespace

std::vector<StepMoment> step_timeline(const Scenario& s, TimelineDetail detail) {
    std::vector<StepMoment> out;
    const bool every = detail == TimelineDetail::EveryLayer;
    out.reserve(every ? static_cast<std::size_t>(2 * std::max<std::int64_t>(s.model.layers, 1) + 8) : 10);
    visit_step_moments(s, timeline_inputs(s), detail, [&](const StepMoment& m) { out.push_back(m); });
    return out;
}

double step_peak_required_bytes(const Scenario& s, const TimelineInputs& in) {
    const CyclingShares shares(s);
    double required = 0;  // as StepPeakAccumulator::add keeps it
    visit_step_moments(s, in, TimelineDetail::PeakCandidates, [&](const StepMoment& m) {
        const double r = moment_reserve(m, shares, 0).required;
        if (r > required) required = r;
    });
    return required;
}

StepPeak step_peak(const Scenario& s, const TimelineInputs& in, double reservable_bytes) {
    StepPeakAccumulator peak(CyclingShares(s), reservable_bytes);
    visit_step_moments(s, in, TimelineDetail::PeakCandidates, [&](const StepMoment& m) { peak.add(m); });
    return peak.result();
}

}  // namespace zp
