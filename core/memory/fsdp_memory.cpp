#include "core/memory/fsdp_memory.h"

#include "core/model/mics.h"

#include <algorithm>

// Code paths are PyTorch 2.1-2.5 (torch/distributed/fsdp/...), transformers 4.3x-4.4x and
// Accelerate 0.2x-1.x, where they decide what people's FSDP runs hold.

namespace zp {

double fsdp_storage_bytes(const Scenario& s) {
    if (s.fsdp.precision == FsdpPrecision::Pure) return bytes_per_element(s.training.precision);
    return 4.0;
}

double fsdp_gathered_bytes(const Scenario& s) {
    if (s.fsdp.precision == FsdpPrecision::Autocast) return 4.0;
    return bytes_per_element(s.training.precision);
}

double fsdp_root_unit_params(const ModelSpec& m) {
    return static_cast<double>(m.hidden) *
           (static_cast<double>(m.vocab) * (m.tied_embeddings ? 1.0 : 2.0) + static_cast<double>(m.positions));
}

bool fsdp_accumulates_unsharded_gradients(const Scenario& s, std::int64_t gas) {
    return is_fsdp(s.fsdp) && s.zero.stage >= 2 && gas > 1 && !s.fsdp.sync_each_batch;
}

ModelStateBytes fsdp_model_state_bytes(const Scenario& s, const ParameterSplit& p) {
    const ZeroSetup& z = s.zero;
    // FULL_SHARD and SHARD_GRAD_OP keep only the rank's shard of each FlatParameter between uses
    // (_flat_param.py FlatParamHandle.shard: the local shard, numel / world rounded up); NO_SHARD
    // keeps it whole. Frozen parameters are flattened and sharded with the rest (use_orig_params).
    // HYBRID_SHARD shards over the node's ranks only (zero_shard_size: replicated_shard_groups).
    const double share = z.stage >= 2 ? 1.0 / static_cast<double>(std::max<std::int64_t>(zero_shard_size(s), 1)) : 1.0;
    const double storage = fsdp_storage_bytes(s);
    ModelStateBytes b;
    // CPUOffload(offload_params=True): the shard lives in host memory, the reduced gradient is
    // copied there (_runtime_utils.py _post_reduce_grad_callback -> _offload_grad) and torch.optim
    // steps on the CPU: the GPU keeps none of them.
    if (z.offload_param != OffloadDevice::None) {
        b.frozen = p.quant_state_bytes;
        b.params = b.frozen;
        return b;
    }
    b.frozen = p.frozen_bytes * share + p.quant_state_bytes;  // bitsandbytes' quant_state is module state, whole on every rank
    b.params = storage * p.trainable * share + b.frozen;
    b.gradients = storage * p.trainable * share;
    // torch.optim keeps its moments in the parameter's dtype (adamw.py _init_group: torch.zeros_like(p)):
    // 8 bytes a parameter for AdamW in fp32, 4 in bf16; bitsandbytes' its own (model_states.h).
    const MomentBytes moments = optimizer_moment_bytes(s.training, storage);
    b.optimizer_states = moments.allocated * p.trainable * share;
    b.paged_optimizer = moments.paged * p.trainable * share;
    return b;
}

FsdpUnits fsdp_units(const Scenario& s, double trainable, double whole_params, double frozen_stored_bytes) {
    const ModelSpec& m = s.model;
    const ZeroSetup& z = s.zero;
    const double gathered = fsdp_gathered_bytes(s);
    const double storage = fsdp_storage_bytes(s);
    const double layers = static_cast<double>(std::max<std::int64_t>(m.layers, 1));
    const double root_elems = fsdp_root_unit_params(m);
    const double whole = std::max(whole_params, 1.0);
    const double root_share = std::clamp(root_elems / whole, 0.0, 1.0);
    // Every weight as it is gathered: trainable ones in the gathered dtype, the frozen base as stored.
    const double all_gathered = gathered * trainable + frozen_stored_bytes;
    const bool full_training = frozen_stored_bytes <= 0.0;
    FsdpUnits u;
    // FSDP2 through Accelerate (1.14+, utils/fsdp_utils.py fsdp2_prepare_model, PR #4015) shards an
    // untied input embedding as a unit of its own, resharded after its forward (gathered again only
    // at the backward's end), and keeps only the tail [final_norm, lm_head] gathered from forward to
    // backward; tied, the tail holds the shared embedding. FSDP1's root unit keeps all of it.
    const bool embedding_apart = s.fsdp.engine == Engine::Fsdp2 && !m.tied_embeddings;
    const double kept_elems = embedding_apart ? static_cast<double>(m.hidden) * static_cast<double>(m.vocab) : root_elems;
    const double kept_share = std::clamp(kept_elems / whole, 0.0, 1.0);
    // At stage 0 (NO_SHARD) nothing is gathered; with a MixedPrecision policy each unit's
    // parameters are cast to param_dtype when it runs (_use_low_precision_shard on the whole flat
    // parameter) and freed after it, like a gathered unit.
    const bool casts = z.stage >= 2 || gathered < storage;
    if (casts) {
        u.root_bytes = all_gathered * kept_share;
        u.layer_bytes = all_gathered * (1.0 - root_share) / layers;
    }
    // limit_all_gathers (_runtime_utils.py _unshard: the rate limiter waits on the free event of
    // the unit two back) allows two units in flight; without it the CPU thread runs ahead by more.
    // FSDP2 has no such switch: its all-gather stream holds two units (_fsdp_param_group.py).
    u.units_in_flight = s.fsdp.limit_all_gathers || s.fsdp.engine == Engine::Fsdp2 ? 2.0 : 3.0;
    // SHARD_GRAD_OP (_runtime_utils.py _should_free_in_backward / HandleShardingStrategy
    // SHARD_GRAD_OP: no reshard after forward; FSDP2 reshard_after_forward=False) keeps each
    // layer unsharded from its forward until its backward is done.
    u.unsharded_through_backward = z.stage == 2;
    // A layer's gradient is made unsharded in the gathered dtype (autograd into the unsharded
    // FlatParameter's .grad), then reduce-scattered (_runtime_utils.py _reduce_grad) and freed.
    const double layer_trainable = (full_training ? trainable * (1.0 - root_share) : trainable) / layers;
    u.layer_grad_bytes = gathered * layer_trainable;
    // Under Autocast, FSDP1 hands the forward plain views of the unsharded FlatParameter
    // (_flat_param.py _use_unsharded_flat_param: _use_unsharded_views(as_params=False) in forward,
    // use_orig_params or not), which autocast's weight cache skips (aten/src/ATen/autocast_mode.cpp
    // cached_cast: leaves that are not views only): each op casts its weight anew and frees it.
    return u;
}

}  // namespace zp
