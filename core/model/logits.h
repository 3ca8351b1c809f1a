#pragma once
// The logits a model returns, and what the training loop's metrics over them move and hold
// (Training::logit_metrics): read by the step's time (core/time/compute_time.cpp) and its memory
// timeline (core/memory/step_timeline.cpp).
#include "core/model/scenario.h"

namespace zp {

// Bytes of one logit as the model returns it: the compute dtype's, or fp32 where transformers
// before 4.46 up-casts them in the model's forward (LossKernel::Shifted with the up-cast:
// LlamaForCausalLM.forward's logits.float()).
inline double returned_logit_bytes(const Training& t) {
    const double k = bytes_per_element(t.precision);
    return t.loss_kernel == LossKernel::Shifted && t.precision != Precision::Fp32 && t.loss_fp32_upcast ? 4.0 : k;
}

// Whether the model returns its logits at all: Liger's fused linear cross-entropy (LossKernel::
// Chunked) never builds them.
inline bool returns_logits(const Training& t) { return t.loss_kernel != LossKernel::Chunked; }

// One metric is a torch.nn.CrossEntropyLoss forward over the returned logits under no_grad in the
// precision context, where autocast runs cross_entropy in fp32 (PyTorch's AMP op reference, "CUDA
// Ops that can autocast to float32"): an fp32 copy of 16-bit logits (none of fp32 ones), then
// log_softmax's fp32 output; nll_loss picks one a row. Per logit:
//   held beside the logits   the copy and the output, 4 + 4 bytes (4 when the logits are fp32)
//   HBM traffic              the cast's read and write, log_softmax's read and write: 2 + 4 + 4 + 4
inline double metric_held_bytes_per_logit(const Training& t) { return (returned_logit_bytes(t) < 4.0 ? 4.0 : 0.0) + 4.0; }
inline double metric_traffic_bytes_per_logit(const Training& t) {
    const double in = returned_logit_bytes(t);
    return (in < 4.0 ? in + 4.0 : 0.0) + 4.0 + 4.0;
}

}  // namespace zp
