#pragma once
// Bytes per GPU for parameters, gradients and optimizer states (docs/design.md §4.1, §4.2).
#include "core/model/scenario.h"

namespace zp {

struct ModelStateBytes {
    double params = 0;
    double gradients = 0;
    double optimizer_states = 0;
    double total() const { return params + gradients + optimizer_states; }
};

// Bytes per parameter of optimizer moments, fp32: Adam/AdamW/LAMB 8 (m and v), Lion 4 (m),
// Adagrad 4 (sum of squares), SGD with momentum 4, plain SGD 0.
double optimizer_moment_bytes_per_param(Optimizer o);

// Per-GPU model states for `params` parameters on `world_size` data-parallel GPUs.
ModelStateBytes model_state_bytes(double params, std::int64_t world_size, const Training& t, const ZeroSetup& z, Convention c);

}  // namespace zp
