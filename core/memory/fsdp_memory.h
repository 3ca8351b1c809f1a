#pragma once
// PyTorch FSDP's GPU memory (core/model/engine.h says which FSDP): the sharded model states and
// the units it gathers, from FSDP's own code paths (PyTorch 2.1-2.5,
// torch/distributed/fsdp/_flat_param.py, _runtime_utils.py, and FSDP2's
// torch/distributed/fsdp/_fully_shard/_fsdp_param.py). The step timeline (step_timeline.cpp)
// places these terms moment by moment; docs/design.md §4.16 lists them.
#include "core/memory/model_states.h"
#include "core/model/scenario.h"
#include "core/model/trainable_params.h"

namespace zp {

// Bytes of an element of the sharded parameters, their gradients and torch.optim's states: fp32
// under Mixed and Autocast (the model is built in fp32; FSDP casts reduced gradients back to the
// parameter's dtype, _runtime_utils.py _cast_grad_to_param_dtype; torch.optim's states are
// zeros_like(param)), the training dtype under Pure.
double fsdp_storage_bytes(const Scenario& s);
// Bytes of an element of the unsharded (gathered) parameters and their unsharded gradients:
// MixedPrecision's param_dtype under Mixed (_flat_param.py _use_low_precision_shard casts the shard,
// _all_gather_flat_param gathers it into _full_param_padded in param_dtype), fp32 under Autocast,
// the training dtype under Pure.
double fsdp_gathered_bytes(const Scenario& s);

// Whether FSDP keeps the whole model's unsharded gradient across the micro steps of a step: a
// sharded strategy (FULL_SHARD, SHARD_GRAD_OP) with `gas` > 1 micro steps and no sync_each_batch.
// Under no_sync FlatParameter's .grad stays unsharded in the gathered dtype (FSDP1
// fully_sharded_data_parallel.py no_sync: "FSDP will accumulate the full model gradients (instead
// of gradient shards) until the eventual sync ... the gradients will not be offloaded to CPU when
// inside the context manager"; _runtime_utils.py _post_backward_hook returns before the
// reduce-scatter; FSDP2 FSDPParam.unsharded_accumulated_grad in reduce_dtype, Accelerate's the
// param dtype), and the last micro step reduce-scatters it once.
bool fsdp_accumulates_unsharded_gradients(const Scenario& s, std::int64_t gas);

// The rank's model states under FSDP: parameters, gradients and optimizer states of its shard, all
// in fsdp_storage_bytes (no separate master copy: the fp32 shard is what the optimizer steps), the
// frozen base as stored; whole at stage 0 (NO_SHARD). With CPUOffload they live on the host.
ModelStateBytes fsdp_model_state_bytes(const Scenario& s, const ParameterSplit& split);

// Parameters of FSDP's root unit: the embedding (and learned positions), the output layer when
// untied (the final norm's few are left out). What the Trainer's and Accelerate's wrap policy
// leaves outside the decoder layers (transformer_layer_cls_to_wrap).
double fsdp_root_unit_params(const ModelSpec& m);

// What FSDP gathers, per rank. Units are what transformers' Trainer and Accelerate wrap
// (transformer_layer_cls_to_wrap: one decoder layer a unit); the root unit holds the embedding,
// the final norm and the output layer.
struct FsdpUnits {
    double root_bytes = 0;                    // the root unit (FSDP2: the tail unit) unsharded, kept from its forward through the backward
    double layer_bytes = 0;                   // one decoder layer unsharded
    double layer_grad_bytes = 0;              // one layer's unsharded gradient before its reduce-scatter
    double units_in_flight = 2;               // layers unsharded at once: the running one and the prefetched one
    bool unsharded_through_backward = false;  // SHARD_GRAD_OP: a layer stays unsharded from its forward to its backward
};
// `trainable`, `whole_params`: the rank's trainable and all parameters; `frozen_stored_bytes`: the
// frozen part as stored (quantisation state included).
FsdpUnits fsdp_units(const Scenario& s, double trainable, double whole_params, double frozen_stored_bytes);

}  // namespace zp
