#include "core/deepspeed/config_export.h"

#include "core/model/deepspeed_release.h"
#include "core/model/experts.h"
#include "core/model/mics.h"
#include "core/model/model_spec.h"
#include "core/model/param_swap_buffers.h"
#include "core/presets/job_presets.h"

#include <nlohmann/json.hpp>

#include <cmath>

namespace zp {

using nlohmann::ordered_json;

const char* deepspeed_optimizer_type(Optimizer o) {
    // deepspeed/runtime/config.py DEEPSPEED_OPTIMIZERS; other names fall through to torch.optim.
    switch (o) {
    case Optimizer::AdamW: return "AdamW";
    case Optimizer::Adam: return "Adam";
    case Optimizer::Lamb: return "Lamb";
    case Optimizer::Lion: return "Lion";
    case Optimizer::Adagrad: return "Adagrad";
    case Optimizer::SgdMomentum:
    case Optimizer::Sgd: return "SGD";
    }
    return "AdamW";
}

double optimizer_beta2(Optimizer o, const Hyperparameters& h) { return o == Optimizer::Lion ? 0.99 : h.beta2; }

Hyperparameters recipe_hyperparameters(const Scenario& s) {
    Hyperparameters h;  // Llama 2's pre-training
    if (s.finetune.adapters()) {
        // "2e-4 for models up to 13B, 1e-4 for 33B and 65B": between them, from 20B.
        constexpr double kLowerRateFromParams = 20e9;
        h.learning_rate = static_cast<double>(parameter_count(s.model)) >= kLowerRateFromParams ? 1e-4 : 2e-4;
        h.weight_decay = 0.0;
        h.beta2 = 0.999;
        h.gradient_clipping = 0.3;
    } else if (job_shown(s) == Job::FullFineTune) {
        h.learning_rate = 2e-5;
    }
    return h;
}

Hyperparameters hyperparameters(const Scenario& s, const ExportOptions& options) {
    return options.hyperparameters ? *options.hyperparameters : recipe_hyperparameters(s);
}

namespace {

// DeepSpeed's fields are pydantic ints: a fractional float such as 15099494.4 is truncated by
// v0.7.0-v0.14.5 and refused from v0.15.0 (1.5e7, a whole number, passes); integers read alike everywhere.
std::int64_t as_int(double v) { return static_cast<std::int64_t>(std::llround(v)); }

// SGD with momentum exports the customary 0.9 (Sutskever et al. 2013; the ResNet recipe, He et al.
// 2016 Sec. 3.4): torch.optim.SGD's own default, 0, would be plain SGD.
constexpr double kSgdMomentum = 0.9;

ordered_json optimizer_block(const Training& t, const Hyperparameters& o) {
    ordered_json params;
    params["lr"] = o.learning_rate;
    switch (t.optimizer) {
    case Optimizer::Sgd: break;
    case Optimizer::SgdMomentum: params["momentum"] = kSgdMomentum; break;
    case Optimizer::Adagrad: params["eps"] = o.eps; break;
    case Optimizer::Lion: params["betas"] = {o.beta1, optimizer_beta2(t.optimizer, o)}; break;
    default:
        params["betas"] = {o.beta1, o.beta2};
        params["eps"] = o.eps;
        break;
    }
    params["weight_decay"] = t.optimizer == Optimizer::Sgd || t.optimizer == Optimizer::SgdMomentum ? 0.0 : o.weight_decay;
    return {{"type", deepspeed_optimizer_type(t.optimizer)}, {"params", params}};
}

ordered_json offload_block(OffloadDevice d, bool param, const Scenario& s, const ExportOptions& o) {
    const ZeroSetup& z = s.zero;
    ordered_json b;
    b["device"] = to_string(d);
    if (d == OffloadDevice::Nvme) {
        b["nvme_path"] = o.nvme_path;
        if (param) {
            b["buffer_count"] = z.offload_param_buffer_count;
            // Sized to the largest partition: DeepSpeed asserts a partition fits one buffer.
            b["buffer_size"] = as_int(offload_param_buffer_elems(s));
        } else {
            b["buffer_count"] = z.offload_optimizer_buffer_count;
        }
    }
    // Pinned host buffers: without them offload copies run at a fraction of PCIe speed; pinned
    // tensors cost host RAM rounded up to a power of two (core/memory/host_memory.cpp).
    b["pin_memory"] = z.pin_memory;
    return b;
}

// The zero_optimization block: stage-3 keys only at stage 3, offload_param only there, the
// release's names (Scenario::deepspeed_release).
ordered_json zero_optimization_block(const Scenario& s, const ExportOptions& o) {
    const ZeroSetup& z = s.zero;
    ordered_json zo;
    zo["stage"] = z.stage;
    if (z.stage >= 1) {
        zo["overlap_comm"] = z.overlap_comm;
        zo["contiguous_gradients"] = true;
        zo["reduce_bucket_size"] = as_int(z.reduce_bucket_elems);
    }
    if (z.stage == 1 || z.stage == 2) {
        zo["allgather_partitions"] = true;
        zo["allgather_bucket_size"] = as_int(z.allgather_bucket_elems);
        zo["reduce_scatter"] = true;
        // Written only when off and the release reads it (v0.12.4 on; v0.7.0-v0.12.3 refuse it as an
        // extra field, and reduce to the owners as off says): on is DeepSpeed's default.
        if (!z.multi_rank_bucket_allreduce && release_has(s, release_firsts::kMultiRankAllreduce))
            zo["use_multi_rank_bucket_allreduce"] = false;
    }
    if (z.stage == 3) {
        zo["stage3_prefetch_bucket_size"] = as_int(z.stage3_prefetch_bucket_elems);
        zo["stage3_param_persistence_threshold"] = as_int(z.stage3_param_persistence_threshold);
        zo["stage3_max_live_parameters"] = as_int(z.stage3_max_live_parameters);
        zo["stage3_max_reuse_distance"] = as_int(deepspeed::defaults::kStage3MaxReuseDistance);
        zo["sub_group_size"] = as_int(z.sub_group_size);
        // Named _fp16_ from v0.3.14 to v0.5.10 (the release reads no other), _16bit_ since v0.6.0.
        if (release_has(s, release_firsts::kGather16bitName))
            zo["stage3_gather_16bit_weights_on_model_save"] = z.gather_16bit_weights_on_model_save;
        else if (release_has(s, release_firsts::kGatherFp16Name))
            zo["stage3_gather_fp16_weights_on_model_save"] = z.gather_16bit_weights_on_model_save;
        // ZeRO++ (zero/config.py): written only when on, as the DeepSpeed tutorial writes them.
        // hpZ as the plan has it: not with parameters offloaded, where DeepSpeed would still build
        // the secondary partition on the offload device (partition_parameters.py
        // _partition_param_sec), nor across tensor-parallel ranks (effective_zeropp).
        if (const std::int64_t hpz = effective_zeropp(s).hpz_partition_size; hpz > 1) zo["zero_hpz_partition_size"] = hpz;
        if (z.quantized_weights) zo["zero_quantized_weights"] = true;
        if (z.quantized_gradients) zo["zero_quantized_gradients"] = true;
        // MiCS (zero/config.py mics_shard_size, default -1 = off): written only where it takes effect.
        if (const MicsGroups mics = effective_mics(s); mics.on()) {
            zo["mics_shard_size"] = mics.shard;
            if (mics.hierarchical) zo["mics_hierarchical_params_gather"] = true;
        }
    }
    if (z.offload_optimizer != OffloadDevice::None) zo["offload_optimizer"] = offload_block(z.offload_optimizer, false, s, o);
    if (z.stage == 3 && z.offload_param != OffloadDevice::None) zo["offload_param"] = offload_block(z.offload_param, true, s, o);
    return zo;
}

}  // namespace

nlohmann::ordered_json deepspeed_config(const Scenario& s, const ExportOptions& o) {
    const std::int64_t world = data_parallel_size(s);  // DeepSpeed's batch rule counts data-parallel ranks
    const std::int64_t gas = gradient_accumulation_steps(s.training, world);
    const Training& t = s.training;
    const ZeroSetup& z = s.zero;

    ordered_json j;
    j["train_batch_size"] = t.micro_batch * gas * world;
    j["train_micro_batch_size_per_gpu"] = t.micro_batch;
    j["gradient_accumulation_steps"] = gas;
    // DeepSpeed-Ulysses (docs/_tutorials/ulysses-alst-sequence-parallelism.md's ds_config): runtime/config.py
    // divides the world by it for the batch rule above (train_batch_size counts world / sp ranks).
    if (s.parallel.ulysses > 1) j["sequence_parallel_size"] = s.parallel.ulysses;
    // With sequence parallelism engine.py reduces the gradients in seq_parallel_communication_data_type,
    // "fp32" unless set (runtime/constants.py SEQ_PARALLEL_COMMUNICATION_DATA_TYPE_DEFAULT): every bf16
    // reduce bucket is copied to fp32 first. ArcticTraining's projects/sequence-parallelism/USAGE.md sets
    // it to bf16 ("By default deepspeed will use fp32 for sequence parallelism communications").
    if (s.parallel.ulysses > 1 && t.precision == Precision::Bf16) j["seq_parallel_communication_data_type"] = "bf16";
    // DeepSpeed's PipelineEngine slices each activation and its gradient over the tensor ranks unless
    // told not to (runtime/config.py get_pipeline_config: pipe_partitioned and grad_partitioned, default
    // true, read since v0.12.3, PR #4322): a plan that sends whole (--pp-send whole, or a mixture,
    // which Megatron-DeepSpeed requires it of: effective_pipeline_send) says so.
    if (pipeline_sends_whole_over_tensor_ranks(s)) j["pipeline"] = {{"pipe_partitioned", false}, {"grad_partitioned", false}};
    const Hyperparameters h = hyperparameters(s, o);
    j["gradient_clipping"] = h.gradient_clipping;
    j["steps_per_print"] = o.steps_per_print;
    j["wall_clock_breakdown"] = false;
    // DeepSpeed builds its own optimizer (FusedAdam, CPU Adam with offload) from this block; without
    // it the client's torch.optim optimizer is used (engine.py _configure_optimizer), the choice
    // Training::fused_optimizer stands for. Offload always uses DeepSpeed's CPU optimizer, and LAMB
    // has no Trainer equivalent, so those keep the block.
    // bitsandbytes' optimizers are the client's too: ZeRO asks for zero_allow_untested_optimizer
    // (engine.py _do_optimizer_sanity_check; zero/utils.py ZERO_SUPPORTED_OPTIMIZERS lists torch's
    // and DeepSpeed's own). With offload DeepSpeed's CPU Adam steps instead, and the block stays.
    // LAMB (FusedLamb), SGD (torch.optim.SGD, from the block or the client) and a client's Lion
    // (lion-pytorch; the block's is FusedLion or DeepSpeedCPULion) are not among ZeRO's supported
    // optimizers either: without the key ZeRO asserts at initialize.
    const bool offload = z.offload_optimizer != OffloadDevice::None;
    const bool bitsandbytes = t.optimizer_storage != OptimizerStorage::Standard && !offload;
    const bool block = !bitsandbytes && (t.fused_optimizer || offload || t.optimizer == Optimizer::Lamb);
    if (block) j["optimizer"] = optimizer_block(t, h);
    const bool untested = bitsandbytes || t.optimizer == Optimizer::Lamb || t.optimizer == Optimizer::Sgd ||
                          t.optimizer == Optimizer::SgdMomentum || (t.optimizer == Optimizer::Lion && !block);
    if (untested && z.stage >= 1) j["zero_allow_untested_optimizer"] = true;
    // BF16_Optimizer at ZeRO-1 (Training::gradient_accumulation): engine.py _do_optimizer_sanity_check
    // returns BFLOAT16 for bf16 weights with fp32 gradient accumulation at stage 1 without offload;
    // the accumulation dtype follows the weights unless data_types says so (get_data_types). At
    // ZeRO-0 DeepSpeed picks it itself under a pipeline, and an fp32 accumulation there is refused
    // ("unsupported mix"), so only stage 1 writes it.
    if (t.precision == Precision::Bf16 && t.gradient_accumulation == GradientAccumulation::Bf16Optimizer && z.stage == 1 && !offload)
        j["data_types"] = {{"grad_accum_dtype", "fp32"}};
    if (t.precision == Precision::Bf16) {
        j["bf16"] = {{"enabled", true}};
        // Low-precision master weights (runtime/precision_config.py, PR #7700): the two keys together,
        // as the planner models them (ZeroSetup::bf16_master_weights).
        if (z.bf16_master_weights) {
            j["bf16"]["bf16_master_weights_and_grads"] = true;
            j["bf16"]["bf16_optimizer_states"] = true;
        }
    } else if (t.precision == Precision::Fp16) {
        // Dynamic loss scaling (loss_scale 0) with DeepSpeed's documented defaults.
        j["fp16"] = {{"enabled", true},           {"loss_scale", 0}, {"initial_scale_power", 16},
                     {"loss_scale_window", 1000}, {"hysteresis", 2}, {"min_loss_scale", 1}};
    } else {
        j["bf16"] = {{"enabled", false}};  // fp32 training, said explicitly so an import reads it back
    }

    j["zero_optimization"] = zero_optimization_block(s, o);

    if (t.checkpointing == Checkpointing::Full) {
        // deepspeed.checkpointing (Megatron-style models); Hugging Face models use gradient_checkpointing instead.
        j["activation_checkpointing"] = {{"partition_activations", t.partition_activations},
                                         {"cpu_checkpointing", t.cpu_checkpointing},
                                         {"contiguous_memory_optimization", false},
                                         {"synchronize_checkpoint_boundary", false},
                                         {"profile", false}};
    }
    if (z.offload_optimizer == OffloadDevice::Nvme || z.offload_param == OffloadDevice::Nvme) {
        // deepspeed/runtime/swap_tensor/constants.py defaults.
        j["aio"] = {
            {"block_size", 1048576}, {"queue_depth", 8}, {"intra_op_parallelism", 1}, {"single_submit", false}, {"overlap_events", true}};
    }
    return j;
}

std::string deepspeed_config_text(const Scenario& s, const ExportOptions& o) { return deepspeed_config(s, o).dump(2) + "\n"; }

Phrase megatron_batch_phrase(const Scenario& s) {
    const Parallelism& l = s.parallel;
    if (l.tensor <= 1 && l.pipeline <= 1) return {};
    const std::string dp = std::to_string(data_parallel_size(s));
    return phrase(QT_TRANSLATE_NOOP("Core",
                                    "this ds_config's batch keys hold for %1 data-parallel ranks, as Megatron-DeepSpeed counts them at "
                                    "tensor %2 x pipeline %3; under the Hugging Face Trainer or Accelerate every one of the %4 GPUs "
                                    "is a data-parallel rank"),
                  {dp, std::to_string(l.tensor), std::to_string(l.pipeline), std::to_string(s.cluster.world_size())});
}

}  // namespace zp
