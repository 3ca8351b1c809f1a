#include "core/memory/host_memory.h"

#include "core/memory/fsdp_memory.h"

#include "core/base/phrase.h"
#include "core/base/units.h"
#include "core/memory/model_states.h"
#include "core/model/experts.h"
#include "core/model/mics.h"
#include "core/model/parallel_layout.h"
#include "core/model/param_swap_buffers.h"
#include "core/model/trainable_params.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>

// Host memory per node, phase by phase. Notation: P parameters, N ranks, n nodes, g ranks per
// node, P_r = P / N a rank's partition, w bytes per element of the model's weights (2 for
// bf16/fp16, 4 for fp32), Lp the largest module. Every per-rank term is counted g times on a node.
// Line numbers are DeepSpeed v0.19.6 (commit edaa7221); transformers is v4.48's modeling_utils.py for
// the path before 4.51 (a checkpoint shard beside the model) and 4.51's and v5's for the meta device.
//
// Each process: its CUDA context and libraries, assumptions.host_process_bytes (pytorch#113326:
// 2.06 GB max RSS for a CUDA-initialised torch), and dataloader workers at host_worker_bytes each
// once training starts.
//
// Loading (before deepspeed.initialize), per process:
//   zero.Init (stage 3): parameters are created on the GPU and partitioned as each module's
//     __init__ returns (partition_parameters.py zero_wrapper_for_fp_tensor_constructor L257,
//     _post_init_method L1218), so the model is never whole on the host; each rank still reads one
//     checkpoint shard at a time (modeling_utils.py load_state_dict: safe_load_file on every rank);
//     with offload_param cpu the 16-bit partitions are made on the host, each pinned on its own
//     (_partition_param L1808-1815); with nvme they are swapped out to it as they are made.
//   otherwise: from_pretrained builds the whole model in its dtype (before v5 fp32 unless torch_dtype
//     says, "set fp32 as the default dtype for BC"; v5 the checkpoint's) and copies the checkpoint in
//     shard by shard (_load_pretrained_model): the model plus one shard; with low_cpu_mem_usage the
//     model is built on the meta device and takes the loaded tensors (init_empty_weights): the model
//     alone, where no cast is needed (before 4.51 it read a whole shard and assigned its tensors). From
//     transformers 4.51 every load goes that way, tensor by tensor (get_init_context; PR #36963; v5 on
//     torch.device("meta"), PR #42941), which is the default (Training::low_cpu_mem_usage).
//     deepspeed.initialize then casts it to 16-bit on the host parameter by parameter
//     (engine.py _configure_distributed_model L1541-1544) and moves it to the GPU (L1768), which
//     frees the host copy: loading is the peak of this path.
//
// Initialize:
//   ZeRO-1/2 flatten on the host when the GPU has no room for a second 16-bit copy of the model
//     (stage_1_and_2.py DeepSpeedZeroOptimizer.__init__ L402-456: param.cpu_data plus the flat
//     buffer, 2 w P, freed once the flat buffer is on the GPU).
//   With offload, the fp32 master partition is made pageable and then copied into pinned memory
//     (L492-497: .pin_memory() makes a new tensor): the pinned master and its pageable original
//     for a moment, or the partitions at the end of initialize (without the moments), whichever is more.
//   ZeRO-3 offload: the fp32 partition is converted sub-group by sub-group and a gradient buffer of
//     the largest sub-group is made (stage3.py _create_fp32_partitions L1108-1110, L1254-1256).
//
// Training, per rank, from the first optimizer step on (CPU Adam makes its moments lazily,
// ops/adam/cpu_adam.py step L151/L154):
//   ZeRO-1/2, offload_optimizer cpu (stage_1_and_2.py):
//     fp32 master 4 P_r, pinned (L492-497); 16-bit staging copy w P_r, pinned (L499-507);
//     fp32 gradient partition 4 P_r, pinned (initialize_optimizer_states L840-843);
//     moments (8 P_r for Adam), pageable; temp_grad_buffer_for_cpu_offload w Lp, pinned (L585-590);
//     with gradient accumulation, accumulated_grads_in_cpu: each parameter the rank owns in full,
//     w per element, pinned one by one (async_accumulate_grad_in_cpu_via_gpu L1516-1560, L1656).
//   ZeRO-3 (stage3.py):
//     offload_param cpu: the flat 16-bit partition w P_r, pinned whatever pin_memory says
//       (_create_param_groups_fp16_flat_cpu_memory L839-862); the per-parameter pinned partitions it
//       was copied from stay in PyTorch's host cache (freed pinned blocks are kept, never split,
//       and DeepSpeed does not empty that cache), w P_r rounded per tensor.
//     offload_param nvme: the swap pool, buffer_count x buffer_size x w, page-locked at its exact
//       size (swap_tensor/partitioned_param_swapper.py _configure_aio L83-134); up to max_in_cpu
//       elements stay in the pinned flat buffer on the host (stage3.py L845-850), the rest on NVMe.
//     offload_optimizer cpu: fp32 master 4 P_r, pageable (L1108-1110); fp32 gradients 4 P_r pinned
//       per sub-group (initialize_optimizer_states L1287-1292); grad_partitions_flat_buffer w P_r in
//       the model's dtype, pinned (_setup_for_real_optimizer L737-751); moments.
//     offload_optimizer nvme: the swap pool buffer_count x largest sub-group x 4 bytes, page-locked
//       (swap_tensor/optimizer_utils.py OptimizerSwapper L165-190, utils.py SwapBufferManager),
//       the fp32 gradient buffer of one sub-group (L1254-1256, lasting as .grad, L1294), the pinned
//       grad_partitions_flat_buffer; master, moments and fp32 gradients live on NVMe.
//     Releases before v0.6.0 (ZeroSetup::zero3_host_gradient_buffer false) had no
//       grad_partitions_flat_buffer, with either device.
//   CPU activation checkpoints (activation_checkpointing.cpu_checkpointing).
//
// Checkpoint save, on node 0, on top of training's memory:
//   ZeRO-3 with stage3_gather_16bit_weights_on_model_save: rank 0 gathers the whole 16-bit model
//     on the host (engine.py _zero3_consolidated_16bit_state_dict L5491-5560, .cpu() at L5535).
//   ZeRO-0/1/2 through the Trainer: accelerate's get_state_dict clones the 16-bit state dict to the
//     host on every rank (deepspeed/checkpoint/utils.py clone_tensors_for_torch_save L41-59).
//   engine.save_checkpoint writes GPU-resident optimizer partitions with torch.save, which copies
//     each storage to the host in turn: the fp32 partition 4 P_r per rank at a time (at stage 0
//     rank 0's whole fp32 master, 4 P).
//
// PyTorch FSDP (core/model/engine.h), as the exports launch it (fsdp_cpu_ram_efficient_loading,
// SHARDED_STATE_DICT):
//   loading: only the first process of the node materialises the model on the host, in its dtype
//     (fp32 unless the model is loaded in 16 bits, FsdpPrecision::Pure), reading shard by shard;
//     the others build it on the meta device (transformers modeling_utils.py: is_fsdp_enabled() and
//     not is_local_dist_rank_0() -> meta; Accelerate's cpu_ram_efficient_loading), and
//     sync_module_states broadcasts rank 0's weights unit by unit from the GPU. A quantised
//     (QLoRA) model is the exception: every rank loads it ("and not is_quantized"), a shard at a
//     time as bitsandbytes quantises it on the GPU (loading_moment).
//   training with CPUOffload(offload_params=True): each rank's FlatParameter shards in their
//     storage dtype, pinned (_flat_param.py: flat_param.pin_memory() on offload), their gradient
//     shards pinned (_runtime_utils.py _offload_grad into the pinned _cpu_grad), and torch.optim's
//     moments beside them, pageable (zeros_like on the CPU parameter).
//   checkpoint save: SHARDED_STATE_DICT writes each rank's own shards, copied to the host tensor by
//     tensor: at most a rank's parameter shard per process, no gathered model.
//
// Pinned tensors are allocated by PyTorch's CachingHostAllocator rounded up to a power of two
// (CachingHostAllocator.h allocate: PowerOf2Ceil) and count in the resident set (RssShmem).

namespace zp {

namespace {
// Gradient accumulation steps > 1 (a batch DeepSpeed would refuse is refused elsewhere).
bool accumulates(const Scenario& s) {
    return effective_global_batch(s.training, data_parallel_size(s)) > s.training.micro_batch * data_parallel_size(s);
}
}  // namespace

const HostMemory& host_memory(const Scenario& s, double cpu_checkpoint_bytes_per_gpu, HostMemoryMemo& memo) {
    HostMemoryMemo::Slot& slot = memo.by_accumulating[accumulates(s) ? 1 : 0];
    if (!slot.valid || slot.cpu_checkpoint_bytes_per_gpu != cpu_checkpoint_bytes_per_gpu) {
        slot.value = host_memory(s, cpu_checkpoint_bytes_per_gpu);
        slot.cpu_checkpoint_bytes_per_gpu = cpu_checkpoint_bytes_per_gpu;
        slot.valid = true;
    }
    return slot.value;
}

double loaded_bytes_per_param(const Scenario& s) {
    const Training& t = s.training;
    if (!is_fsdp(s.fsdp)) return t.load_in_16bit ? 2.0 : 4.0;
    // FSDP1 with MixedPrecision casts to fp32 after wrapping, the FlatParameters on the GPU
    // (Accelerate accelerator.py prepare_model: FSDP(model), then param.data.to(torch.float32));
    // Accelerate's FSDP2 path up-casts on the host before sharding (utils/fsdp_utils.py
    // fsdp2_prepare_model), so there the storage dtype; under autocast (a custom loop) the model is
    // fp32 as built, and a pure model is in its own dtype.
    if (s.fsdp.engine == Engine::Fsdp && s.fsdp.precision == FsdpPrecision::Mixed)
        return t.load_in_16bit && t.precision != Precision::Fp32 ? 2.0 : 4.0;
    return fsdp_storage_bytes(s);
}

double pinned_allocation_bytes(double bytes) {
    if (!(bytes > 1)) return std::max(bytes, 0.0);
    if (bytes >= 9.2e18) return bytes;  // beyond 2^63: no such allocation; keep the value finite
    return static_cast<double>(std::bit_ceil(static_cast<std::uint64_t>(std::ceil(bytes))));
}

double per_tensor_pinned_factor(const ModelSpec& m, double parts, double bytes_per_element) {
    const double h = static_cast<double>(m.hidden);
    const double hd = static_cast<double>(m.head_dim > 0 ? m.head_dim : (m.heads > 0 ? m.hidden / m.heads : 0));
    const double q = static_cast<double>(m.heads) * hd, kv = static_cast<double>(m.kv_heads) * hd;
    const double ffn = static_cast<double>(m.experts > 1 ? expert_ffn(m) : m.ffn);  // a mixture: each expert's width
    if (h <= 0 || q <= 0 || kv <= 0 || ffn <= 0 || parts < 1) return 1.0;           // a model known only by its size
    // A layer's weight matrices as modules hold them (norms and biases are small), and the embedding.
    double numels[8];
    int count = 0;
    if (m.fused_qkv) {
        numels[count++] = h * (q + 2 * kv);
    } else {
        numels[count++] = h * q;
        numels[count++] = h * kv;
        numels[count++] = h * kv;
    }
    numels[count++] = q * h;
    if (m.gated_mlp && m.fused_gate_up) numels[count++] = 2 * h * ffn;
    else {
        numels[count++] = h * ffn;
        if (m.gated_mlp) numels[count++] = h * ffn;
    }
    numels[count++] = ffn * h;
    const double layers = static_cast<double>(std::max<std::int64_t>(m.layers, 1));
    double plain = 0, pinned = 0;
    for (int i = 0; i < count; ++i) {
        const double piece = std::ceil(numels[i] / parts) * bytes_per_element;
        plain += layers * piece;
        pinned += layers * pinned_allocation_bytes(piece);
    }
    const double embedding = std::ceil(static_cast<double>(m.vocab) * h / parts) * bytes_per_element;
    plain += embedding;
    pinned += pinned_allocation_bytes(embedding);
    return plain > 0 ? pinned / plain : 1.0;
}

namespace {

// A pinned tensor of `bytes`: what it costs and the part of it that is rounding.
struct Pinned {
    double bytes = 0;
    double rounding = 0;
};

Pinned pinned(double bytes, bool pin) {
    if (!pin) return {bytes, 0};
    const double b = pinned_allocation_bytes(bytes);
    return {b, b - bytes};
}

// A rank's CPUOffload shards (`rank_elems` elements of `bytes_per_element`) as pinned: one
// allocation a FlatParameter under FSDP1, the root unit's (embedding, output layer) and each
// decoder layer's, each rounded up to a power of two; under FSDP2 one a parameter
// (per_tensor_pinned_factor over the `ranks`).
Pinned fsdp_pinned_shards(const Scenario& s, double rank_elems, double bytes_per_element, double ranks) {
    const double plain = rank_elems * bytes_per_element;
    if (s.fsdp.engine == Engine::Fsdp2) {
        const double b = plain * per_tensor_pinned_factor(s.model, ranks, bytes_per_element);
        return {b, b - plain};
    }
    const ModelSpec& m = s.model;
    const double whole = std::max(static_cast<double>(parameter_count(m)), 1.0);
    const double root_elems = fsdp_root_unit_params(m);
    // Adapters sit in the layers (PEFT wraps no embedding by default); full training shares the root.
    const double root = s.finetune.adapters() ? 0.0 : plain * std::clamp(root_elems / whole, 0.0, 1.0);
    const double layers = static_cast<double>(std::max<std::int64_t>(m.layers, 1));
    const double b = pinned_allocation_bytes(root) + layers * pinned_allocation_bytes((plain - root) / layers);
    return {b, b - plain};
}

// Elements in each of a rank's ZeRO-3 sub-groups (stage3.py _create_fp16_sub_groups L1160-1183:
// groups of sub_group_size, the last one the remainder), as full groups and the remainder.
struct SubGroups {
    double full = 0;  // how many of size `size`
    double size = 0;
    double remainder = 0;  // elements of the last, partial one
    double largest() const { return full > 0 ? size : remainder; }
};

SubGroups sub_groups(double partition, double sub_group_size) {
    SubGroups g;
    if (sub_group_size <= 0 || partition <= sub_group_size) {
        g.remainder = partition;
        return g;
    }
    g.size = sub_group_size;
    g.full = std::floor(partition / sub_group_size);
    g.remainder = partition - g.full * sub_group_size;
    return g;
}

Pinned pinned_sub_groups(const SubGroups& sg, double bytes_per_element, bool pin) {
    const Pinned one = pinned(sg.size * bytes_per_element, pin);
    const Pinned last = pinned(sg.remainder * bytes_per_element, pin);
    return {sg.full * one.bytes + last.bytes, sg.full * one.rounding + last.rounding};
}

// ZeRO-3's parameter swap pool for offload_param nvme: buffer_count x buffer_size elements of the
// model's dtype, page-locked at its exact size (swap_tensor/partitioned_param_swapper.py
// _configure_aio L83-134); buffer_size as the plan sizes it (core/model/param_swap_buffers.h).
double param_swap_pool_bytes(const Scenario& s, double bytes_per_element) {
    return static_cast<double>(s.zero.offload_param_buffer_count) * offload_param_buffer_elems(s) * bytes_per_element;
}

}  // namespace

namespace {

// What every phase of a node's run reads: the rank's share of the model, its partitions and the
// per-node process overhead, computed once (notation as at the top of this file).
struct NodeTerms {
    double share = 1;  // the rank's share of the model under tensor/pipeline parallelism
    ParameterSplit split;
    double P = 0;   // parameters a process builds
    double g = 0;   // ranks per node
    double N = 0;   // ranks ZeRO partitions over
    double Pr = 0;  // a rank's partition, elements
    double w = 0;   // bytes per element of the model's weights
    double T = 0;   // trainable parameters
    double Tr = 0;  // a rank's trainable partition
    double Lt = 0;  // the largest trainable tensor, at most
    double frozen_r = 0;
    double whole_weights = 0;
    bool qlora = false;
    double moments_per_param = 0;
    bool pin = false;
    double processes = 0;  // per node: the training processes' own memory
    double workers = 0;    // per node: the dataloader workers, once training starts
};

NodeTerms node_terms(const Scenario& s, const ParameterSplit& rank_split) {
    const ModelSpec& m = s.model;
    const Training& t = s.training;
    const ZeroSetup& z = s.zero;
    NodeTerms q;
    // Under tensor/pipeline parallelism (Megatron-DeepSpeed) each process builds, holds and saves
    // its rank's share of the model, and ZeRO partitions that over the data-parallel ranks.
    q.share = model_parallel_share(s);
    q.split = rank_split;
    // The rank's share of every parameter; with expert parallelism only its local experts
    // (rank_parameter_split counts them in base).
    q.P = q.split.base;
    const double Lp = static_cast<double>(largest_layer_params(m)) / static_cast<double>(std::max<std::int64_t>(s.parallel.tensor, 1));
    q.g = static_cast<double>(s.cluster.gpus_per_node);
    q.N = static_cast<double>(zero_shard_size(s));  // data-parallel x Ulysses ranks, or MiCS's shard group
    q.Pr = q.P / q.N;
    q.w = bytes_per_element(t.precision);
    // Fine-tuning (core/model/trainable_params.h): the optimizer's states, gradients and flat
    // buffers are the trainable parameters' (T, T_r per rank); the frozen base is stored as it is
    // (16-bit or quantised), partitioned by ZeRO-3 like any parameter. T = P in plain full training.
    q.T = q.split.trainable;
    q.Tr = q.split.expert > 0 && z.stage >= 1 ? zero_partition_elems(s, q.split)
                                              : q.T / q.N;  // routed experts over DP / EP (core/model/experts.h)
    q.Lt = std::min(Lp, q.T);
    q.frozen_r = q.split.frozen_bytes / q.N;
    q.whole_weights = q.w * q.T + q.split.frozen_bytes + q.split.quant_state_bytes;
    q.qlora = s.finetune.method == FineTuneMethod::Qlora;
    q.moments_per_param = optimizer_moment_bytes_per_param(t.optimizer);
    q.pin = z.pin_memory;
    q.processes = q.g * s.assumptions.host_process_bytes;
    q.workers = q.g * static_cast<double>(t.dataloader_workers) * s.assumptions.host_worker_bytes;
    return q;
}

}  // namespace

// FSDP loads with cpu_ram_efficient_loading (the exports set it) unless the base is quantised:
// transformers takes its first-process-only path "not is_quantized" (modeling_utils.py).
ModelLoader model_loader(const Scenario& s) {
    const bool qlora = s.finetune.method == FineTuneMethod::Qlora;
    if (is_fsdp(s.fsdp) && !qlora) return ModelLoader::NodeFirstProcess;
    const bool zero_init = s.zero.stage == 3 && s.zero.zero_init && !is_fsdp(s.fsdp);
    if (zero_init) return ModelLoader::ZeroInit;
    return qlora ? ModelLoader::QuantisedOnEveryProcess : ModelLoader::EveryProcess;
}

namespace {

// Loading: the model as each process builds and reads it, before deepspeed.initialize.
HostMoment loading_moment(const Scenario& s, const NodeTerms& q) {
    const Training& t = s.training;
    const ZeroSetup& z = s.zero;
    const double g = q.g;
    HostMoment mo;
    mo.phase = HostPhase::Loading;
    mo.bytes.processes = q.processes;
    const double model_bytes = q.P * (t.load_in_16bit ? 2.0 : 4.0);
    const double shard = std::min(model_bytes, kCheckpointShardBytes);
    const ModelLoader loader = model_loader(s);
    if (loader == ModelLoader::NodeFirstProcess) {
        // cpu_ram_efficient_loading: the node's first process alone builds the model, in
        // loaded_bytes_per_param, on the meta device and fills it (loads_on_meta_device: transformers
        // sets low_cpu_mem_usage itself there), so no shard sits beside it.
        const double fsdp_model = q.P * loaded_bytes_per_param(s);
        mo.bytes.model_copy = fsdp_model;
        mo.cause = QT_TRANSLATE_NOOP("Core", "the node's first process loads the whole model (FSDP's cpu_ram_efficient_loading)");
        return mo;
    }
    if (loader == ModelLoader::ZeroInit || loader == ModelLoader::QuantisedOnEveryProcess) {
        mo.bytes.model_copy = g * shard;
        // A bitsandbytes base is quantised as each shard goes to the GPU (transformers loads a
        // quantised model with low_cpu_mem_usage): the host holds a shard, as under zero.Init. Under
        // FSDP every rank loads it too (model_loader), and no zero.Init is there to partition it.
        mo.cause = loader == ModelLoader::QuantisedOnEveryProcess
                       ? QT_TRANSLATE_NOOP("Core", "each process reads one checkpoint shard; bitsandbytes quantises it on the GPU")
                       : QT_TRANSLATE_NOOP("Core", "each process reads one checkpoint shard; zero.Init partitions the model on the GPUs");
        if (z.offload_param == OffloadDevice::Cpu) {
            const double partitions = q.w * q.Tr + q.frozen_r;
            const double factor = q.pin ? per_tensor_pinned_factor(s.model, q.N, q.w) : 1.0;
            mo.bytes.parameters = g * partitions * factor;
            mo.pinned_rounding_bytes = g * partitions * (factor - 1.0);
        } else if (z.offload_param == OffloadDevice::Nvme) {
            // Swapped out as they are made, through the swapper's page-locked pool, which Init
            // creates before the first module (partition_parameters.py Init.__init__ L1159-1161,
            // AsyncPartitionedParameterSwapper._configure_aio).
            mo.bytes.buffers = g * param_swap_pool_bytes(s, q.w);
        }
        return mo;
    }
    const bool meta = loads_on_meta_device(t, loader);
    mo.bytes.model_copy = g * (model_bytes + (meta ? 0.0 : shard));
    // Under model parallelism (tensor, pipeline or expert) a process builds its rank's share.
    const bool own_share = q.share < 1.0 || q.split.expert > 0;
    if (own_share)
        mo.cause = meta ? QT_TRANSLATE_NOOP("Core",
                                            "every process builds its rank's share of the model on the meta device, then fills it on "
                                            "the host tensor by tensor")
                        : QT_TRANSLATE_NOOP("Core",
                                            "every process builds its rank's share of the model on the host and reads a checkpoint "
                                            "shard into it");
    else
        mo.cause =
            meta
                ? QT_TRANSLATE_NOOP("Core", "every process builds the model on the meta device, then fills it on the host tensor by tensor")
                : QT_TRANSLATE_NOOP("Core", "every process builds the whole model on the host and reads a checkpoint shard into it");
    return mo;
}

// The lasting offloaded states, from the first optimizer step on, per node.
struct LastingStates {
    HostSlices slices;
    double rounding = 0;
    Pinned accumulated;  // the 16-bit gradients kept on the host between micro batches
    double nvme_bytes = 0;
};

LastingStates lasting_states(const Scenario& s, const NodeTerms& q) {
    const ZeroSetup& z = s.zero;
    const double g = q.g;
    const double w = q.w;
    const double Tr = q.Tr;
    const bool pin = q.pin;
    LastingStates out;
    HostSlices& lasting = out.slices;
    const auto add = [&](double& slice, Pinned p) {
        slice += g * p.bytes;
        out.rounding += g * p.rounding;
    };
    if (is_fsdp(s.fsdp)) {
        if (z.offload_param == OffloadDevice::Cpu) {
            // CPUOffload: the parameter and gradient shards pinned, torch.optim's moments pageable.
            // Each FlatParameter (a wrapped unit: a decoder layer, the root) pins its shard and its
            // gradient shard apart (_flat_param.py init_flat_param_attributes: _local_shard.pin_memory(),
            // _cpu_grad ... .pin_memory()), each rounded up on its own; FSDP2 pins each parameter.
            const double storage = fsdp_storage_bytes(s);
            const Pinned shards = fsdp_pinned_shards(s, Tr, storage, q.N);
            add(lasting.parameters, shards);
            lasting.parameters += g * q.frozen_r;
            add(lasting.gradients, shards);
            lasting.optimizer_states += g * q.moments_per_param * storage / 4.0 * Tr;
        }
        return out;
    }
    if (z.stage == 1 || z.stage == 2) {
        if (z.offload_optimizer != OffloadDevice::None) {
            add(lasting.optimizer_states, pinned(4.0 * Tr, pin));
            lasting.optimizer_states += g * q.moments_per_param * Tr;
            add(lasting.gradients, pinned(4.0 * Tr, pin));
            add(lasting.buffers, pinned(w * Tr, pin));
            add(lasting.buffers, pinned(w * q.Lt, pin));
            if (accumulates(s)) {
                const double factor = pin ? per_tensor_pinned_factor(s.model, 1.0, w) : 1.0;
                out.accumulated = {g * w * Tr * factor, g * w * Tr * (factor - 1.0)};
                lasting.gradients += out.accumulated.bytes;
                out.rounding += out.accumulated.rounding;
            }
        }
    } else if (z.stage == 3) {
        const SubGroups sg = sub_groups(Tr, z.sub_group_size);
        if (z.offload_param == OffloadDevice::Cpu) {
            add(lasting.parameters, pinned(w * Tr, true));
            const double factor = pin ? per_tensor_pinned_factor(s.model, q.N, w) : 1.0;
            if (pin) add(lasting.buffers, {w * Tr * factor, w * Tr * (factor - 1.0)});
            // Frozen parameters are in no optimizer group: they keep the partitions Init made for
            // them, one (pinned) tensor each.
            add(lasting.parameters, {q.frozen_r * factor, q.frozen_r * (factor - 1.0)});
        } else if (z.offload_param == OffloadDevice::Nvme) {
            // (every weight, counted at w bytes: a quantised base on NVMe is not modelled apart)
            const double in_cpu = std::min(q.Pr, deepspeed::defaults::kOffloadParamMaxInCpuElems);
            add(lasting.parameters, pinned(w * in_cpu, true));
            lasting.buffers += g * param_swap_pool_bytes(s, w);
            out.nvme_bytes += g * w * (q.Pr - in_cpu);
        }
        if (z.offload_optimizer == OffloadDevice::Cpu) {
            lasting.optimizer_states += g * (4.0 + q.moments_per_param) * Tr;
            add(lasting.gradients, pinned_sub_groups(sg, 4.0, pin));
            if (z.zero3_host_gradient_buffer) add(lasting.gradients, pinned(w * Tr, pin));
        } else if (z.offload_optimizer == OffloadDevice::Nvme) {
            lasting.buffers += g * static_cast<double>(z.offload_optimizer_buffer_count) * sg.largest() * 4.0;
            lasting.gradients += g * 4.0 * sg.largest();
            if (z.zero3_host_gradient_buffer) add(lasting.gradients, pinned(w * Tr, pin));
            out.nvme_bytes += g * (4.0 + q.moments_per_param + 4.0) * Tr;
        }
    }
    return out;
}

// Training: the lasting states beside the processes, their workers and the CPU checkpoints.
HostMoment training_moment(const NodeTerms& q, const LastingStates& lasting, double cpu_checkpoint_bytes_per_gpu) {
    HostMoment mo;
    mo.phase = HostPhase::Training;
    mo.bytes = lasting.slices;
    mo.bytes.processes = q.processes + q.workers;
    mo.bytes.buffers += q.g * cpu_checkpoint_bytes_per_gpu;
    mo.pinned_rounding_bytes = lasting.rounding;
    mo.cause = lasting.slices.optimizer_states > 0
                   ? QT_TRANSLATE_NOOP("Core", "the offloaded fp32 master weights, gradients and optimizer moments")
               : lasting.slices.total() > 0 ? QT_TRANSLATE_NOOP("Core", "the offloaded parameters and swap buffers")
                                            : QT_TRANSLATE_NOOP("Core", "the training processes alone: nothing is offloaded");
    return mo;
}

// Initialize: the lasting states without the moments (made at the first step) and without the
// accumulated 16-bit gradients (made in the first backward), or a transient moment before
// them, whichever is more.
HostMoment initialize_moment(const Scenario& s, const NodeTerms& q, const LastingStates& lasting) {
    const ZeroSetup& z = s.zero;
    const double g = q.g;
    HostMoment mo;
    mo.phase = HostPhase::Initialize;
    mo.bytes = lasting.slices;
    mo.bytes.processes = q.processes;
    mo.bytes.gradients -= lasting.accumulated.bytes;
    mo.pinned_rounding_bytes = lasting.rounding - lasting.accumulated.rounding;
    mo.cause = QT_TRANSLATE_NOOP("Core", "the offloaded partitions being made");
    if (is_fsdp(s.fsdp)) {
        // FSDP shards unit by unit on the GPU (sync_module_states from rank 0): the offloaded
        // shards, without torch.optim's moments, made at its first step.
        mo.bytes.optimizer_states = 0;
        if (mo.bytes.total() == q.processes) mo.cause = QT_TRANSLATE_NOOP("Core", "the training processes alone");
        return mo;
    }
    if (z.offload_optimizer == OffloadDevice::Cpu) mo.bytes.optimizer_states -= g * q.moments_per_param * q.Tr;
    const double per_rank_end = (mo.bytes.total() - q.processes) / g;
    // Per rank, the most the transients reach: on top of the partitions (ZeRO-3), or at a moment
    // when the partitions made later do not exist yet (ZeRO-1/2, one parameter group at a time).
    double per_rank_top = per_rank_end;
    if (z.offload_optimizer == OffloadDevice::Cpu && z.stage == 3) {
        per_rank_top += 4.0 * sub_groups(q.Tr, z.sub_group_size).largest() * 2.0;  // converted + gradient_buffer, at most
    } else if (z.offload_optimizer == OffloadDevice::Cpu && q.pin) {
        // The pinned master beside its pageable original, before the 16-bit staging buffer and
        // the gradient partition exist. (The pageable original of the last group's staging
        // buffer also lives until __init__ returns; under the Trainer that group is the small
        // no-decay one, so it is left out.)
        per_rank_top = std::max(per_rank_top, pinned(4.0 * q.Tr, true).bytes + 4.0 * q.Tr);
    }
    // The flat buffer is made before any partition of its group: the 16-bit model twice
    // (param.cpu_data and the flat copy), on its own.
    const double flat_copies = 2.0 * q.w * q.T;
    const bool flatten_on_host =
        (z.stage == 1 || z.stage == 2) && flat_copies + s.assumptions.cuda_context_bytes > s.cluster.gpu.memory_gib * kBytesPerGiB;
    if (flatten_on_host && flat_copies > per_rank_top) {
        per_rank_top = flat_copies;
        mo.cause = QT_TRANSLATE_NOOP("Core", "the 16-bit model flattened on the host: the GPU has no room for a second copy");
    }
    mo.bytes.buffers += g * (per_rank_top - per_rank_end);
    if (mo.bytes.total() == q.processes) mo.cause = QT_TRANSLATE_NOOP("Core", "the training processes alone");
    return mo;
}

// Checkpoint save on node 0: the training moment plus the model or optimizer copy torch.save makes.
HostMoment checkpoint_save_moment(const Scenario& s, const NodeTerms& q, const HostMoment& training) {
    const ZeroSetup& z = s.zero;
    HostMoment mo = training;
    mo.phase = HostPhase::CheckpointSave;
    double model_save = 0;
    if (is_fsdp(s.fsdp)) {
        // SHARDED_STATE_DICT: every rank copies its own parameter shards to the host as it writes.
        mo.bytes.model_copy = q.g * (fsdp_storage_bytes(s) * q.Tr + q.frozen_r);
        mo.cause = QT_TRANSLATE_NOOP("Core", "every process writes its own shards (FSDP's SHARDED_STATE_DICT)");
        return mo;
    }
    if (z.stage == 3) model_save = z.gather_16bit_weights_on_model_save ? q.whole_weights : 0.0;
    else model_save = q.g * q.whole_weights;
    // torch.save copies a GPU-resident fp32 partition to the host one storage at a time: every
    // rank's at ZeRO-1/2/3 (_save_zero_checkpoint), rank 0's whole fp32 master at stage 0; in bf16
    // with bf16 master weights (model_states.h master_element_bytes).
    double optimizer_save = 0;
    const double master = master_element_bytes(z);
    if (z.offload_optimizer == OffloadDevice::None) optimizer_save = z.stage > 0 ? q.g * master * q.Tr : 4.0 * q.T;
    mo.bytes.model_copy = std::max(model_save, optimizer_save);
    // QLoRA's base is stored quantized (q.whole_weights counts it so): the words say the model, not 16 bits.
    const bool quantized = s.finetune.method == FineTuneMethod::Qlora;
    mo.cause =
        model_save >= optimizer_save
            ? (z.stage == 3
                   ? (quantized
                          ? QT_TRANSLATE_NOOP("Core",
                                              "rank 0 gathers the whole model (its quantized base and 16-bit adapters), "
                                              "stage3_gather_16bit_weights_on_model_save")
                          : QT_TRANSLATE_NOOP("Core", "rank 0 gathers the whole 16-bit model, stage3_gather_16bit_weights_on_model_save"))
                   : (quantized
                          ? QT_TRANSLATE_NOOP("Core",
                                              "every process copies the model (its quantized base and 16-bit adapters) to "
                                              "the host, the Trainer's get_state_dict")
                          : QT_TRANSLATE_NOOP("Core", "every process copies the 16-bit model to the host, the Trainer's get_state_dict")))
            : (z.bf16_master_weights ? QT_TRANSLATE_NOOP("Core", "torch.save copies each rank's bf16 master partition to the host")
                                     : QT_TRANSLATE_NOOP("Core", "torch.save copies each rank's fp32 optimizer partition to the host"));
    return mo;
}

}  // namespace

HostMemory host_memory(const Scenario& s, double cpu_checkpoint_bytes_per_gpu) {
    return host_memory(s, cpu_checkpoint_bytes_per_gpu, rank_parameter_split(s));
}

HostMemory host_memory(const Scenario& s, double cpu_checkpoint_bytes_per_gpu, const ParameterSplit& rank_split) {
    const NodeTerms q = node_terms(s, rank_split);
    const LastingStates lasting = lasting_states(s, q);
    HostMemory out;
    const auto at = [&](HostPhase p) -> HostMoment& { return out.moments[static_cast<std::size_t>(p)]; };
    at(HostPhase::Loading) = loading_moment(s, q);
    at(HostPhase::Training) = training_moment(q, lasting, cpu_checkpoint_bytes_per_gpu);
    at(HostPhase::Initialize) = initialize_moment(s, q, lasting);
    at(HostPhase::CheckpointSave) = checkpoint_save_moment(s, q, at(HostPhase::Training));
    out.nvme_bytes = lasting.nvme_bytes;

    HostPhase peak = HostPhase::Loading;
    for (const HostMoment& mo : out.moments)
        if (mo.bytes.total() > out.moment(peak).bytes.total()) peak = mo.phase;
    out.peak_phase = peak;
    return out;
}

}  // namespace zp
