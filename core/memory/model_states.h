#pragma once
// Bytes per GPU for parameters, gradients and optimizer states (docs/design.md §4.1, §4.2).
#include "core/model/scenario.h"
#include "core/model/trainable_params.h"

namespace zp {

struct ModelStateBytes {
    double params = 0;
    double frozen = 0;         // of params: frozen base weights as stored, with bitsandbytes' quantisation state
    double hpz_secondary = 0;  // of params: ZeRO++ hpZ's secondary partition of every weight (trainable and frozen)
    double gradients = 0;
    double optimizer_states = 0;
    // bitsandbytes' paged moments (OptimizerStorage::Paged*): in CUDA managed memory, outside the
    // caching allocator and not in any figure above; evicted to host RAM when the card runs out.
    double paged_optimizer = 0;
    double total() const { return params + gradients + optimizer_states; }
};

// Bytes per parameter of optimizer moments, fp32: Adam/AdamW/LAMB 8 (m and v), Lion 4 (m),
// Adagrad 4 (sum of squares), SGD with momentum 4, plain SGD 0.
double optimizer_moment_bytes_per_param(Optimizer o);

// The moments of `t`'s optimizer as its storage keeps them, per parameter: torch.optim's and
// DeepSpeed's in `state_bytes` per element (4: fp32; FSDP's torch.optim the parameter's dtype),
// bitsandbytes' in fp32 or block-wise 8 bits. `allocated`: the part in the caching allocator;
// `paged`: the part in CUDA managed memory.
struct MomentBytes {
    double allocated = 0;
    double paged = 0;
};
MomentBytes optimizer_moment_bytes(const Training& t, double state_bytes = 4.0);

// Bytes of an element of the ZeRO optimizer's master weights and of the gradient it steps, and of its
// moments: 4 (fp32), 2 with DeepSpeed's bf16 master weights and optimizer states (ZeroSetup::bf16_master_weights).
double master_element_bytes(const ZeroSetup& z);
double moment_element_bytes(const ZeroSetup& z);

// Per-GPU model states for `params` parameters on `world_size` data-parallel GPUs.
ModelStateBytes model_state_bytes(double params, std::int64_t world_size, const Training& t, const ZeroSetup& z, Convention c);

// Per-GPU model states of `s` under its fine-tuning method (`split`: parameter_split(s), computed once by the caller): the states above for the trainable
// parameters, plus the frozen base as stored. ZeRO-1/2 never see frozen parameters (their groups
// come from the optimizer's param_groups, requires_grad only: stage_1_and_2.py L374-385), so
// every GPU keeps them whole; ZeRO-3 partitions every parameter, trainable or not
// (partition_parameters.py _post_init_method), and offload_param moves them to the host.
// bitsandbytes' quantisation state is module state, not a parameter: whole on every GPU.
ModelStateBytes model_state_bytes(const Scenario& s, const ParameterSplit& split);

}  // namespace zp
