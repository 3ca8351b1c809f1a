#include "core/memory/model_states.h"

#include "core/memory/fsdp_memory.h"

#include "core/model/experts.h"
#include "core/model/mics.h"

namespace zp {

double optimizer_moment_bytes_per_param(Optimizer o) {
    switch (o) {
    case Optimizer::AdamW:
    case Optimizer::Adam:
    case Optimizer::Lamb: return 8;
    case Optimizer::Lion:
    case Optimizer::Adagrad:
    case Optimizer::SgdMomentum: return 4;
    case Optimizer::Sgd: return 0;
    }
    return 8;
}

namespace {
// bitsandbytes' block-wise 8-bit state: one byte an element and an fp32 absmax per block of 256
// (bitsandbytes/optim/optimizer.py Optimizer2State/Optimizer1State.init_state: blocks = ceil(n/256),
// absmax float32). Tensors under min_8bit_size (4096) keep fp32 state: norms and biases, ignored.
constexpr double kBnb8bitBytesPerElement = 1.0 + 4.0 / 256.0;
}  // namespace

MomentBytes optimizer_moment_bytes(const Training& t, double state_bytes) {
    const double moments = optimizer_moment_bytes_per_param(t.optimizer) / 4.0;  // fp32 moments a parameter
    MomentBytes b;
    switch (t.optimizer_storage) {
    case OptimizerStorage::Standard: b.allocated = moments * state_bytes; break;
    // bitsandbytes keeps 32-bit state in fp32 whatever the parameter's dtype (get_state_buffer(p,
    // dtype=torch.float32)), in managed memory when paged (tensors of 1e5 elements and more).
    case OptimizerStorage::EightBit: b.allocated = moments * kBnb8bitBytesPerElement; break;
    case OptimizerStorage::Paged: b.paged = moments * 4.0; break;
    case OptimizerStorage::PagedEightBit: b.paged = moments * kBnb8bitBytesPerElement; break;
    }
    return b;
}

// base_optimizer.py _configure_master_weights: the master dtype stage_1_and_2.py and stage3.py make
// their master partition and the stepped gradient in (master_weights_and_grads_dtype); the
// optimizer's states follow it with bf16_optimizer_states (engine.py: DeepSpeedCPUAdam's
// fp32_optimizer_states off; torch.optim's zeros_like(master)).
double master_element_bytes(const ZeroSetup& z) { return z.bf16_master_weights ? 2.0 : 4.0; }
double moment_element_bytes(const ZeroSetup& z) { return z.bf16_master_weights ? 2.0 : 4.0; }

ModelStateBytes model_state_bytes(double params, std::int64_t world_size, const Training& t, const ZeroSetup& z, Convention c) {
    const double P = params;
    const double N = static_cast<double>(world_size);
    const bool mixed = t.precision != Precision::Fp32;
    const MomentBytes moment_bytes = optimizer_moment_bytes(t, moment_element_bytes(z));
    const double moments = moment_bytes.allocated;

    // What each stage partitions across the N data-parallel ranks (ZeRO paper Sec. 5):
    // stage 1 the optimizer states, stage 2 also the gradients, stage 3 also the parameters.
    const double opt_share = z.stage >= 1 ? 1.0 / N : 1.0;
    const double grad_share = z.stage >= 2 ? 1.0 / N : 1.0;
    const double param_share = z.stage >= 3 ? 1.0 / N : 1.0;

    const double weight_bytes = bytes_per_element(t.precision);         // the weights the GPU computes with
    const double master_bytes = mixed ? master_element_bytes(z) : 0.0;  // the master copy, mixed precision only
    const double low_grad_bytes = bytes_per_element(t.precision);       // gradients in the compute precision

    ModelStateBytes b;
    if (c == Convention::Paper) {
        // ZeRO paper Sec. 3.1: 2 + 2 + K bytes per parameter, K = 12 for mixed-precision Adam
        // (fp32 params 4 + momentum 4 + variance 4); no separate fp32 gradient buffer.
        b.params = weight_bytes * P * param_share;
        b.gradients = low_grad_bytes * P * grad_share;
        b.optimizer_states = (master_bytes + moments) * P * opt_share;
    } else {
        // DeepSpeed's implementation (stage_1_and_2.py / stage3.py, and their estimators):
        //   stage 0: 2 + 2 + 4 + 4 + 8 = 20 bytes/param (the autotuner's figure for fp16)
        //   stage 1: 16-bit grads stay whole, the fp32 grad partition is 4/N
        //   stage 2: 2P + 18P/N    stage 3: 18P/N (16-bit grads are reduced straight into the partition)
        b.params = weight_bytes * P * param_share;
        if (mixed) {
            const double low_grads = z.stage == 3 ? 0.0 : low_grad_bytes * P * grad_share;
            const double fp32_grads = master_element_bytes(z) * P * opt_share;  // in the master's dtype
            b.gradients = low_grads + fp32_grads;
        } else {
            b.gradients = low_grad_bytes * P * grad_share;
        }
        b.optimizer_states = (master_bytes + moments) * P * opt_share;
    }
    b.paged_optimizer = moment_bytes.paged * P * opt_share;

    // ZeRO-Offload / ZeRO-Infinity: with offload_optimizer the fp32 gradients, master weights and
    // moments live on the host (or NVMe); the GPU keeps the 16-bit weights, and its gradients pass
    // through the reduce buckets (counted in buffers). DeepSpeed's estimator: stage 2 GPU = 2P.
    if (z.offload_optimizer != OffloadDevice::None) {
        b.gradients = 0;
        b.optimizer_states = 0;
        b.paged_optimizer = 0;  // DeepSpeed's CPU Adam replaces the client optimizer (config_export.cpp)
    }
    // offload_param (stage 3): the GPU keeps only the gathered working set (buffers).
    if (z.offload_param != OffloadDevice::None) b.params = 0;
    return b;
}

ModelStateBytes model_state_bytes(const Scenario& s, const ParameterSplit& p) {
    if (is_fsdp(s.fsdp)) return fsdp_model_state_bytes(s, p);
    const ZeroSetup& z = s.zero;
    // MiCS (mics.py MiCS_Optimizer: partition_count = param_shard_size; MiCS_Init.num_partitions):
    // every state is split over the shard group only, and each shard group holds a whole replica.
    const std::int64_t shard = zero_shard_size(s);
    ModelStateBytes b = model_state_bytes(p.trainable - p.expert, shard, s.training, z, s.assumptions.convention);
    if (p.expert > 0) {
        // Expert parallelism: the routed experts this rank holds (experts / ep_size of each MoE
        // layer) are an optimizer group of their own (moe/utils.py
        // split_params_into_different_moe_groups_for_optimizer), which ZeRO-1/2 partition and reduce
        // over the expert-data-parallel group of DP / EP ranks (stage_1_and_2.py
        // _configure_moe_settings: real_dp_process_group = expert_dp_process_group); the rest over DP.
        // At EP = DP that group is the rank alone: its experts' states stay whole.
        const ModelStateBytes e = model_state_bytes(p.expert, expert_data_parallel_size(s), s.training, z, s.assumptions.convention);
        b.params += e.params;
        b.gradients += e.gradients;
        b.optimizer_states += e.optimizer_states;
        b.paged_optimizer += e.paged_optimizer;
    }
    double frozen = z.offload_param != OffloadDevice::None ? 0.0 : p.frozen_bytes;
    if (z.stage >= 3) frozen /= static_cast<double>(shard);
    b.frozen = frozen + p.quant_state_bytes;
    b.params += b.frozen;
    // ZeRO++ hpZ: every parameter also keeps a secondary partition over the hpZ group of its node,
    // in the parameter's dtype, on the GPU (partition_parameters.py _partition_param_sec:
    // torch.empty(tensor_size // num_ranks_in_param_group, dtype=param.dtype, device=remote_device)),
    // kept for the whole run; the backward gathers from it.
    const ZeroPlusPlus zpp = effective_zeropp(s);
    if (zpp.hpz_partition_size > 1) {
        const double weight_bytes = bytes_per_element(s.training.precision);
        b.hpz_secondary = (weight_bytes * p.trainable + p.frozen_bytes) / static_cast<double>(zpp.hpz_partition_size);
        b.params += b.hpz_secondary;
    }
    return b;
}

}  // namespace zp
