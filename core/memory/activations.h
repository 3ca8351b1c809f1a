#pragma once
// Activation memory per GPU (Korthikanti et al., arXiv 2205.05198, Sec. 4 and Table 2),
// generalised to any MLP width, gated MLPs, grouped-query attention, MoE routing and flash attention.
#include "core/model/scenario.h"

namespace zp {

// One transformer layer's stored activations in bytes for s tokens x b sequences, 16-bit
// tensors and 1-byte dropout masks. Split as the paper does (Sec. 4.1).
struct LayerActivationBytes {
    double attention = 0;  // everything in the attention block except the a*s^2 score tensors
    double scores = 0;     // softmax output, dropout mask and dropout output: 5*a*s^2*b
    double mlp = 0;
    double norms = 0;
    double total() const { return attention + scores + mlp + norms; }
};

LayerActivationBytes layer_activation_bytes(const ModelSpec& m, std::int64_t seq, std::int64_t micro_batch);

struct ActivationBytes {
    double per_layer_stored = 0;      // what each layer keeps for backward under the chosen recompute
    double recompute_working = 0;     // full recompute: one layer's activations rebuilt during backward
    double whole_layer = 0;           // one layer's activations with nothing recomputed (flash attention: no scores)
    double embedding_and_logits = 0;  // final norm/head inputs and the logits (16-bit + fp32 for the loss)
    double gpu_bytes = 0;             // total on the GPU
    double cpu_bytes_per_gpu = 0;     // cpu_checkpointing: the kept checkpoints live in host memory
};

ActivationBytes activation_bytes(const ModelSpec& m, const Training& t);

}  // namespace zp
